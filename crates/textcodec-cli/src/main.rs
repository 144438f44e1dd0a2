//! `textcodec`: convert text between the encodings of the Web, as browsers do.
//! The contract (commands, options, exit codes, messages) is `/work/shared/CLI.md`.

mod cli;
mod convert;
mod detect;
mod labels;
mod progress;
mod sink;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use textcodec::{BomHandling, EncoderErrorMode};

use crate::cli::{BomMode, Cli, Command, ConvertOpts, InvalidMode, UnmappableMode};
use crate::convert::{Input, Plan, Target};
use crate::sink::{io_msg, Sink};

/// Why a run stopped early.
#[derive(Debug)]
pub enum Failure {
    /// Exit code 2: unknown or refused label, bad option, unreadable input, unwritable
    /// output.
    Usage(String),
    /// Exit code 1: the data could not be converted under the chosen error policy.
    Data(String),
    /// Standard output was closed by the reader: exit 0, silently.
    BrokenPipe,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            print_stderr(&msg);
            ExitCode::from(2)
        }
        Err(Failure::Data(msg)) => {
            print_stderr(&msg);
            ExitCode::from(1)
        }
    }
}

/// Help and version go to standard output with exit code 0; usage errors to standard
/// error, prefixed `textcodec: `, with exit code 2.
fn clap_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayVersion => {
            // The same for every command (clap would say "textcodec-convert").
            let _ = print_stdout(concat!("textcodec ", env!("CARGO_PKG_VERSION"), "\n"));
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let help = Cli::command().render_help().to_string();
            print_stderr("a command is required");
            let _ = write!(io::stderr(), "\n{help}");
            ExitCode::from(2)
        }
        _ => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            let mut lines = text.trim_end().lines();
            let mut err = io::stderr().lock();
            if let Some(first) = lines.next() {
                let _ = writeln!(err, "textcodec: {first}");
            }
            for line in lines {
                let _ = writeln!(err, "{line}");
            }
            ExitCode::from(2)
        }
    }
}

/// Writes each line of `msg` to standard error, prefixed `textcodec: `.
pub fn print_stderr(msg: &str) {
    let mut err = io::stderr().lock();
    for line in msg.lines() {
        let _ = writeln!(err, "textcodec: {line}");
    }
}

fn print_stdout(s: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(s.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Failure::BrokenPipe,
            _ => Failure::Usage(format!("cannot write to standard output: {}", io_msg(&e))),
        })
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::List { json } => print_stdout(&labels::list(json)),
        Command::Label { label } => {
            let enc = labels::resolve(&label)?;
            print_stdout(&format!("{}\n", enc.name()))
        }
        Command::Detect {
            tld,
            no_utf8,
            json,
            inputs,
        } => print_stdout(&detect::run(inputs, tld.as_deref(), !no_utf8, json)?),
        Command::Convert { from, to, opts } => convert(&from, &to, opts),
        Command::Decode { encoding, opts } => convert(&encoding, "utf-8", opts),
        Command::Encode { encoding, opts } => convert("utf-8", &encoding, opts),
    }
}

fn convert(from: &str, to: &str, opts: ConvertOpts) -> Result<(), Failure> {
    // `-f auto`: each input's encoding is detected (detect.rs); UTF-8 only sizes the buffers.
    let auto = from.trim().eq_ignore_ascii_case("auto");
    let from = if auto {
        textcodec::UTF_8
    } else {
        labels::resolve(from)?
    };
    let to_enc = labels::resolve(to)?;
    let target = if to_enc == textcodec::REPLACEMENT {
        return Err(Failure::Usage(format!(
            "'{to}' is the replacement encoding, which cannot be an output encoding"
        )));
    } else if to_enc == textcodec::UTF_16LE {
        Target::Utf16 { big_endian: false }
    } else if to_enc == textcodec::UTF_16BE {
        Target::Utf16 { big_endian: true }
    } else if to_enc.output_encoding() == textcodec::UTF_8 {
        Target::Utf8
    } else {
        Target::Encoder(to_enc.output_encoding())
    };
    if opts.add_bom && matches!(target, Target::Encoder(_)) {
        return Err(Failure::Usage(format!(
            "--add-bom needs a UTF-8 or UTF-16 output, not {}",
            to_enc.name()
        )));
    }
    let plan = Plan {
        from,
        auto,
        target,
        bom: match opts.bom {
            BomMode::Sniff => BomHandling::Sniff,
            BomMode::Strip => BomHandling::Strip,
            BomMode::Keep => BomHandling::Keep,
        },
        fail_on_invalid: opts.invalid == InvalidMode::Fail,
        unmappable: match opts.unmappable {
            UnmappableMode::Fail => EncoderErrorMode::Fatal,
            UnmappableMode::Html => EncoderErrorMode::Html,
        },
        add_bom: opts.add_bom,
        quiet: opts.quiet,
        // Not on a terminal that also shows the output.
        progress: !opts.quiet
            && (opts.output.as_ref().is_some_and(|o| o.as_os_str() != "-")
                || !io::stdout().is_terminal()),
    };

    // Open every input before writing anything, so that a missing file fails early.
    let mut inputs = Vec::new();
    let mut total = Some(0u64);
    if opts.inputs.is_empty() {
        inputs.push(Input::Stdin);
        total = total.zip(stdin_size()).map(|(t, n)| t + n);
    }
    for path in opts.inputs {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            total = total.zip(stdin_size()).map(|(t, n)| t + n);
            continue;
        }
        let cannot =
            |msg: String| Failure::Usage(format!("cannot read '{}': {msg}", path.display()));
        let file = File::open(&path).map_err(|e| cannot(io_msg(&e)))?;
        let meta = file.metadata().map_err(|e| cannot(io_msg(&e)))?;
        if meta.is_dir() {
            return Err(cannot("is a directory".to_string()));
        }
        total = match total {
            Some(t) if meta.is_file() => Some(t + meta.len()),
            _ => None,
        };
        inputs.push(Input::File { path, file });
    }

    sink::install_interrupt_handler();
    let sink = match &opts.output {
        Some(path) if path.as_os_str() != "-" => Sink::file(path)?,
        _ => Sink::stdout(),
    };
    convert::run(&plan, inputs, sink, total)
}

/// The size of standard input when it is a regular file (for the progress bar).
#[cfg(unix)]
fn stdin_size() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = File::from(fd).metadata().ok()?;
    meta.is_file().then_some(meta.len())
}

#[cfg(not(unix))]
fn stdin_size() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn forty_encodings() {
        assert_eq!(textcodec::Encoding::all().len(), 40);
    }
}
