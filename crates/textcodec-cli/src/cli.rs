//! Command-line syntax (clap derive). The meaning of each option is in `/work/shared/CLI.md`
//! and in the help texts below, which are what `--help` prints.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const MAIN_EXAMPLES: &str = "\
Examples:
  textcodec convert -f shift_jis -t utf-8 old.txt > new.txt
  textcodec decode -e windows-1252 -o page.utf8.html page.html
  textcodec encode -e iso-2022-jp --unmappable html mail.txt
  cat legacy.txt | textcodec convert -f gb18030 -t utf-16le --add-bom > out.txt
  textcodec list --json
  textcodec label latin1              # prints windows-1252
  textcodec detect page.html          # page.html: Shift_JIS (guess, 0.97)

Exit codes: 0 success (also when malformed input was replaced), 1 the data could not
be converted under the chosen error policy, 2 usage error (unknown label, bad option,
unreadable input, unwritable output).";

const CONVERT_EXAMPLES: &str = "\
Examples:
  textcodec convert -f shift_jis -t utf-8 data/samples/ja.sjis.txt
  textcodec convert -f euc-kr -t utf-16le --add-bom -o out.txt in.txt
  textcodec convert -f windows-1251 --invalid fail a.txt b.txt > all.txt
  textcodec convert -t iso-8859-7 --unmappable html < greek.txt
  cat part1 part2 | textcodec convert -f big5";

const DECODE_EXAMPLES: &str = "\
Examples:
  textcodec decode -e shift_jis data/samples/ja.sjis.txt
  textcodec decode -e latin1 -o page.utf8.html page.html
  curl -s https://example.com/ | textcodec decode -e windows-1252 --invalid fail";

const ENCODE_EXAMPLES: &str = "\
Examples:
  textcodec encode -e shift_jis -o ja.sjis.txt ja.txt
  textcodec encode -e windows-1252 --unmappable html form.txt
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
  textcodec list --json | jq -r '.[].name'";

const LABEL_EXAMPLES: &str = "\
Examples:
  textcodec label latin1         # windows-1252
  textcodec label ' SJIS '       # Shift_JIS
  textcodec label utf-16         # UTF-16LE
  textcodec label nonsense       # exit code 2, with suggestions";

/// Convert text between the encodings of the Web, byte for byte as browsers do
/// (the WHATWG Encoding Standard).
#[derive(Parser, Debug)]
#[command(
    name = "textcodec",
    version,
    about,
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
            value_name = "FROM",
            default_value = "utf-8"
        )]
        from: String,
        /// Encoding of the output; utf-16le and utf-16be write UTF-16 (an extension:
        /// the spec has no UTF-16 encoder); replacement is refused.
        #[arg(short = 't', long = "to", value_name = "TO", default_value = "utf-8")]
        to: String,
        #[command(flatten)]
        opts: ConvertOpts,
    },
    /// Decode INPUTs from LABEL to UTF-8 (same as `convert -f LABEL -t utf-8`).
    #[command(after_help = DECODE_EXAMPLES)]
    Decode {
        /// Encoding of the input, or `auto` to detect it (see `textcodec detect`).
        #[arg(short = 'e', long = "encoding", value_name = "LABEL")]
        encoding: String,
        #[command(flatten)]
        opts: ConvertOpts,
    },
    /// Encode UTF-8 INPUTs to LABEL (same as `convert -f utf-8 -t LABEL`).
    #[command(after_help = ENCODE_EXAMPLES)]
    Encode {
        /// Encoding of the output.
        #[arg(short = 'e', long = "encoding", value_name = "LABEL")]
        encoding: String,
        #[command(flatten)]
        opts: ConvertOpts,
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
    #[command(after_help = LIST_EXAMPLES)]
    List {
        /// Print a JSON array of {"name", "labels"} objects instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the name of the encoding a label stands for, or fail with exit code 2.
    #[command(after_help = LABEL_EXAMPLES)]
    Label {
        /// A label, as in `<meta charset>` or a Content-Type header.
        #[arg(value_name = "LABEL", allow_hyphen_values = true)]
        label: String,
    },
}

/// Options shared by `convert`, `decode` and `encode`.
#[derive(Args, Debug)]
pub struct ConvertOpts {
    /// Write to FILE instead of standard output (`-`: standard output). FILE appears only
    /// when the whole conversion succeeded; an existing FILE is left untouched by a failed
    /// run.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Byte order marks in the input: `sniff` lets a UTF-8/UTF-16 BOM override FROM
    /// (and removes it), `strip` removes only FROM's own BOM, `keep` decodes BOM bytes
    /// as data.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = BomMode::Sniff)]
    pub bom: BomMode,

    /// Begin the output with a byte order mark (UTF-8 and UTF-16 outputs only).
    #[arg(long)]
    pub add_bom: bool,

    /// Malformed input: `replace` writes U+FFFD as browsers do and warns once per input;
    /// `fail` stops at the first malformed sequence with exit code 1.
    #[arg(long, value_enum, value_name = "POLICY", default_value_t = InvalidMode::Replace)]
    pub invalid: InvalidMode,

    /// Characters TO cannot represent: `fail` stops with exit code 1 naming the line and
    /// column; `html` writes a numeric character reference (&#NNNN;) as browsers do in
    /// form submissions.
    #[arg(long, value_enum, value_name = "POLICY", default_value_t = UnmappableMode::Fail)]
    pub unmappable: UnmappableMode,

    /// No warnings and no progress bar on standard error (errors are still reported).
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
    Fail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnmappableMode {
    Fail,
    Html,
}
