//! Command-line syntax (clap derive). The meaning of each option is in the README ("The command")
//! and in the help texts below, which are what `--help`, the man page and the completions
//! show.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const MAIN_EXAMPLES: &str = "\
Examples:
  textcodec convert -f shift_jis -t utf-8 old.txt > new.txt
  textcodec decode -e windows-1252 -o page.utf8.html page.html
  textcodec encode -e iso-2022-jp --unmappable html mail.txt
  cat legacy.txt | textcodec convert -f gb18030 -t utf-16le --add-bom > out.txt
  textcodec convert -f latin1 --in-place -r --include '*.txt' docs/
  textcodec list --json
  textcodec label latin1              # prints windows-1252
  textcodec detect page.html          # page.html: Shift_JIS (guess, 0.97)

Coming from iconv: `-f`/`--from-code`, `-t`/`--to-code`, `-l` (list), `-c` (skip what
cannot be converted), and `//TRANSLIT` and `//IGNORE` after the output label work as there.

Exit codes: 0 success (also when malformed input was replaced), 1 the data could not
be converted under the chosen error policy, 2 usage error (unknown label, bad option,
unreadable input, unwritable output).";

const CONVERT_EXAMPLES: &str = "\
Examples:
  textcodec convert -f shift_jis -t utf-8 data/samples/ja.sjis.txt
  textcodec convert -f euc-kr -t utf-16le --add-bom -o out.txt in.txt
  textcodec convert -f windows-1251 --invalid fail a.txt b.txt > all.txt
  textcodec convert -t iso-8859-7 --unmappable html < greek.txt
  textcodec convert --from-code=UTF-8 --to-code=ASCII//TRANSLIT notes.txt
  cat part1 part2 | textcodec convert -f big5";

const DECODE_EXAMPLES: &str = "\
Examples:
  textcodec decode -e shift_jis data/samples/ja.sjis.txt
  textcodec decode -e latin1 -o page.utf8.html page.html
  textcodec decode -e windows-1251 --in-place -r --include '*.txt' archive/
  curl -s https://example.com/ | textcodec decode -e windows-1252 --invalid fail";

const ENCODE_EXAMPLES: &str = "\
Examples:
  textcodec encode -e shift_jis -o ja.sjis.txt ja.txt
  textcodec encode -e windows-1252 --unmappable html form.txt
  textcodec encode -e us-ascii --unmappable translit notes.txt
  printf 'caf\\xc3\\xa9\\n' | textcodec encode -e latin1 | od -c";

const DETECT_EXAMPLES: &str = "\
Examples:
  textcodec detect page.html                  # page.html: Shift_JIS (guess, 0.97)
  textcodec detect --tld jp --no-utf8 *.html
  textcodec detect --json old/*.txt | jq -r '.[] | .input + \" \" + .encoding'
  textcodec convert -f auto -o new.txt old.txt   # detect, then convert to UTF-8
  curl -s https://example.com/ | textcodec decode -e auto";

const LIST_EXAMPLES: &str = "\
Examples:
  textcodec list
  textcodec -l
  textcodec list --json | jq -r '.[].name'";

const LABEL_EXAMPLES: &str = "\
Examples:
  textcodec label latin1         # windows-1252 (and a note on standard error)
  textcodec label ' SJIS '       # Shift_JIS
  textcodec label utf-16         # UTF-16LE
  textcodec label nonsense       # exit code 2, with suggestions";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  textcodec completions bash > /etc/bash_completion.d/textcodec
  textcodec completions zsh > \"${fpath[1]}/_textcodec\"
  textcodec completions fish > ~/.config/fish/completions/textcodec.fish";

/// Convert text between the encodings of the Web, byte for byte as browsers do
/// (the WHATWG Encoding Standard).
#[derive(Parser, Debug)]
#[command(
    name = "textcodec",
    version,

    after_help = MAIN_EXAMPLES,
    subcommand_required = true,
    arg_required_else_help = true,
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert INPUTs from one encoding to another (both default to UTF-8).
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert {
        /// Encoding of the input (any WHATWG label, any ASCII case), or `auto` to detect it
        /// (see `textcodec detect`).
        #[arg(
            short = 'f',
            long = "from",
            visible_alias = "from-code",
            value_name = "FROM",
            default_value = "utf-8"
        )]
        from: String,
        /// Encoding of the output; utf-16le and utf-16be write UTF-16 (an extension:
        /// the spec has no UTF-16 encoder); replacement is refused. `TO//TRANSLIT` is
        /// `--unmappable translit`, `TO//IGNORE` is `-c`.
        #[arg(
            short = 't',
            long = "to",
            visible_alias = "to-code",
            value_name = "TO",
            default_value = "utf-8"
        )]
        to: String,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: EncodeOpts,
        #[command(flatten)]
        files: FileOpts,
    },
    /// Decode INPUTs in the encoding LABEL into UTF-8 text (`convert -f LABEL -t utf-8`).
    #[command(after_help = DECODE_EXAMPLES)]
    Decode {
        /// Encoding of the input (any WHATWG label, any ASCII case), or `auto` to detect it
        /// (see `textcodec detect`).
        #[arg(short = 'e', long = "encoding", value_name = "LABEL")]
        encoding: String,
        #[command(flatten)]
        input: InputOpts,
        /// Begin the UTF-8 output with a byte order mark.
        #[arg(long)]
        add_bom: bool,
        /// Skip malformed input instead of writing U+FFFD (`--invalid skip`, as iconv -c).
        #[arg(short = 'c')]
        skip: bool,
        #[command(flatten)]
        files: FileOpts,
    },
    /// Encode UTF-8 INPUTs into the encoding LABEL (`convert -f utf-8 -t LABEL`).
    #[command(
        after_help = ENCODE_EXAMPLES,
        mut_arg("bom", |a| a.help(
            "Byte order marks at the start of the UTF-8 input: `sniff` removes a UTF-8 BOM \
             (and a UTF-16 BOM makes the input UTF-16), `strip` removes only a UTF-8 BOM, \
             `keep` encodes U+FEFF as a character"
        )),
        mut_arg("invalid", |a| a.help(
            "Malformed UTF-8 in the input: `replace` encodes U+FFFD in its place, as \
             browsers do, and warns once per input; `skip` leaves it out; `fail` stops at \
             the first one with exit code 1"
        ))
    )]
    Encode {
        /// Encoding of the output (any WHATWG label); `LABEL//TRANSLIT` is `--unmappable
        /// translit`, `LABEL//IGNORE` is `-c`.
        #[arg(short = 'e', long = "encoding", value_name = "LABEL")]
        encoding: String,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: EncodeOpts,
        #[command(flatten)]
        files: FileOpts,
    },
    /// Tell the encoding of each INPUT: a byte order mark, else an HTML <meta charset> or XML
    /// declaration in the first 1024 bytes, else a statistical guess over the first MiB.
    #[command(after_help = DETECT_EXAMPLES)]
    Detect {
        /// The top-level domain the text came from (jp, ru, com), a hint for the guess.
        #[arg(long, value_name = "TLD")]
        tld: Option<String>,
        /// Never guess UTF-8 (as browsers do for Web pages).
        #[arg(long)]
        no_utf8: bool,
        /// Print a JSON array of {"input", "encoding", "source", "score"} objects.
        #[arg(long)]
        json: bool,
        /// Input files; `-` or nothing reads standard input.
        #[arg(value_name = "INPUT")]
        inputs: Vec<PathBuf>,
    },
    /// List every encoding with its labels, in the order of the spec's table.
    #[command(after_help = LIST_EXAMPLES, short_flag = 'l', long_flag = "list")]
    List {
        /// Print a JSON array of {"name", "labels"} objects instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the name of the encoding a label stands for, or fail with exit code 2. When
    /// the label means another encoding outside the Web (`latin1` is ISO-8859-1 elsewhere,
    /// windows-1252 here), a note on standard error says so.
    #[command(after_help = LABEL_EXAMPLES)]
    Label {
        /// A label, as in `<meta charset>` or a Content-Type header.
        #[arg(value_name = "LABEL", allow_hyphen_values = true)]
        label: String,
        /// No note on standard error.
        #[arg(short = 'q', long)]
        quiet: bool,
    },
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff) on standard output: `textcodec man | man -l -`; with a
    /// COMMAND, that command's page (textcodec-convert(1), ...).
    #[command(hide = true)]
    Man {
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// How the input is read: byte order marks and malformed sequences.
#[derive(Args, Debug)]
pub struct InputOpts {
    /// Byte order marks in the input: `sniff` lets a UTF-8/UTF-16 BOM override the input
    /// encoding (and removes it), as browsers do; `strip` removes only the input encoding's
    /// own BOM; `keep` decodes BOM bytes as data.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = BomMode::Sniff)]
    pub bom: BomMode,

    /// Malformed input: `replace` writes U+FFFD as browsers do and warns once per input
    /// (count and first byte offset); `skip` leaves it out (and warns the same way);
    /// `fail` stops at the first malformed sequence with exit code 1.
    #[arg(long, value_enum, value_name = "POLICY")]
    pub invalid: Option<InvalidMode>,
}

/// How the output is encoded.
#[derive(Args, Debug)]
pub struct EncodeOpts {
    /// Characters the output encoding cannot represent: `fail` stops with exit code 1
    /// naming the line and column; `html` writes a numeric character reference (&#NNNN;)
    /// as browsers do in form submissions; `translit` writes a look-alike (“ as ", é as
    /// e, œ as oe, … as ...) or else `?`; `skip` leaves them out.
    #[arg(long, value_enum, value_name = "POLICY")]
    pub unmappable: Option<UnmappableMode>,

    /// Begin the output with a byte order mark (UTF-8 and UTF-16 outputs only).
    #[arg(long)]
    pub add_bom: bool,

    /// Skip what cannot be converted, as iconv -c: `--invalid skip --unmappable skip`.
    #[arg(short = 'c')]
    pub skip: bool,
}

/// Where the output goes, which inputs, and what is said on standard error.
#[derive(Args, Debug)]
pub struct FileOpts {
    /// Write to FILE instead of standard output (`-`: standard output). FILE appears only
    /// when the whole conversion succeeded, with the permissions of the FILE it replaces;
    /// an existing FILE is left untouched by a failed run. A device, FIFO or `/dev/stdout`
    /// is written directly, as a shell redirection would.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,

    /// Convert each INPUT file into itself: written to a temporary file beside it and
    /// renamed over it only when that file's conversion succeeded, permissions kept.
    #[arg(short = 'i', long)]
    pub in_place: bool,

    /// INPUT directories are walked: every file in the tree (symbolic links are not
    /// followed), in name order, or those matching `--include`.
    #[arg(short = 'r', long)]
    pub recursive: bool,

    /// With -r: only files whose name matches GLOB (`*`, `?`, `[abc]`); may be repeated.
    #[arg(long, value_name = "GLOB", requires = "recursive")]
    pub include: Vec<String>,

    /// No warnings, notes or progress bar on standard error (errors are still reported).
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Input files, converted in turn to one output, each as its own stream;
    /// `-` or nothing reads standard input.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BomMode {
    Sniff,
    Strip,
    Keep,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InvalidMode {
    Replace,
    Skip,
    Fail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnmappableMode {
    Fail,
    Html,
    Translit,
    Skip,
}
