//! `textcodec`: convert text between the encodings of the Web, as browsers do.
//! The contract (commands, options, exit codes, messages) is the README's "The command".

mod cli;
mod convert;
mod detect;
mod files;
mod labels;
mod progress;
mod sink;
mod translit;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use textcodec::BomHandling;

use crate::cli::{
    BomMode, Cli, Command, EncodeOpts, FileOpts, InputOpts, InvalidMode, UnmappableMode,
};
use crate::convert::{Input, Plan, Target};
use crate::progress::Progress;
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
        Command::Label { label, quiet } => {
            let enc = labels::resolve(&label)?;
            if !quiet {
                if let Some(note) = labels::surprise(&label) {
                    print_stderr(&note);
                }
            }
            print_stdout(&format!("{}\n", enc.name()))
        }
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "textcodec", &mut out);
            print_stdout(&String::from_utf8_lossy(&out))
        }
        Command::Man { command } => {
            let mut cli = Cli::command();
            cli.build();
            let page = match command {
                None => cli,
                Some(name) => {
                    let sub = cli
                        .find_subcommand(&name)
                        .filter(|c| !c.is_hide_set())
                        .ok_or_else(|| Failure::Usage(format!("no command '{name}'")))?;
                    sub.clone().name(format!("textcodec-{name}"))
                }
            };
            let mut out = Vec::new();
            clap_mangen::Man::new(page)
                .render(&mut out)
                .map_err(|e| Failure::Usage(io_msg(&e)))?;
            print_stdout(&String::from_utf8_lossy(&out))
        }
        Command::Detect {
            tld,
            no_utf8,
            json,
            inputs,
        } => print_stdout(&detect::run(inputs, tld.as_deref(), !no_utf8, json)?),
        Command::Convert {
            from,
            to,
            input,
            output,
            files,
        } => convert(&from, &to, input, output, files),
        Command::Decode {
            encoding,
            input,
            add_bom,
            skip,
            files,
        } => {
            let output = EncodeOpts {
                unmappable: None,
                add_bom,
                skip,
            };
            convert(&encoding, "utf-8", input, output, files)
        }
        Command::Encode {
            encoding,
            input,
            output,
            files,
        } => convert("utf-8", &encoding, input, output, files),
    }
}

/// A label with iconv's `//TRANSLIT` and `//IGNORE` suffixes taken off (any ASCII case,
/// in any order): the label, and whether each was there.
fn suffixes(label: &str) -> Result<(&str, bool, bool), Failure> {
    let mut parts = label.split("//");
    let base = parts.next().unwrap_or_default();
    let (mut translit, mut ignore) = (false, false);
    for part in parts {
        match part.trim().to_ascii_uppercase().as_str() {
            "TRANSLIT" => translit = true,
            "IGNORE" => ignore = true,
            "" => {}
            _ => {
                return Err(Failure::Usage(format!(
                    "unknown suffix '//{part}' in '{label}': textcodec understands \
                     //TRANSLIT (--unmappable translit) and //IGNORE (-c)"
                )))
            }
        }
    }
    Ok((base, translit, ignore))
}

/// The policy from an explicit option, else the one a suffix or `-c` implies, else the
/// default; an explicit option that contradicts them is a usage error.
fn policy<T: Copy + PartialEq + clap::ValueEnum>(
    explicit: Option<T>,
    implied: Option<(T, &str)>,
    default: T,
    option: &str,
) -> Result<T, Failure> {
    match (explicit, implied) {
        (Some(e), Some((i, why))) if e != i => {
            let name = |v: T| v.to_possible_value().map(|p| p.get_name().to_string());
            Err(Failure::Usage(format!(
                "{option} {} contradicts {why} (which means {option} {})",
                name(e).unwrap_or_default(),
                name(i).unwrap_or_default()
            )))
        }
        (Some(e), _) => Ok(e),
        (None, Some((i, _))) => Ok(i),
        (None, None) => Ok(default),
    }
}

fn convert(
    from: &str,
    to: &str,
    input: InputOpts,
    output: EncodeOpts,
    files: FileOpts,
) -> Result<(), Failure> {
    let (from_label, from_translit, from_ignore) = suffixes(from)?;
    if from_translit || from_ignore {
        return Err(Failure::Usage(format!(
            "'{from}': //TRANSLIT and //IGNORE apply to the output encoding; for the input \
             use --invalid skip (or -c) to leave malformed input out"
        )));
    }
    let (to_label, translit, ignore) = suffixes(to)?;
    // `-f auto`: each input's encoding is detected (detect.rs); UTF-8 only sizes the buffers.
    let auto = from_label.trim().eq_ignore_ascii_case("auto");
    let from = if auto {
        textcodec::UTF_8
    } else {
        labels::resolve(from_label)?
    };
    let to_enc = labels::resolve(to_label)?;
    let skip_why = if output.skip { "-c" } else { "//IGNORE" };
    let skip = output.skip || ignore;
    let invalid = policy(
        input.invalid,
        skip.then_some((InvalidMode::Skip, skip_why)),
        InvalidMode::Replace,
        "--invalid",
    )?;
    let unmappable = policy(
        output.unmappable,
        if translit {
            Some((UnmappableMode::Translit, "//TRANSLIT"))
        } else {
            skip.then_some((UnmappableMode::Skip, skip_why))
        },
        UnmappableMode::Fail,
        "--unmappable",
    )?;
    let target = if to_enc == textcodec::REPLACEMENT {
        return Err(Failure::Usage(format!(
            "'{to_label}' is the replacement encoding, which cannot be an output encoding"
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
    if output.add_bom && matches!(target, Target::Encoder(_)) {
        return Err(Failure::Usage(format!(
            "--add-bom needs a UTF-8 or UTF-16 output, not {}",
            to_enc.name()
        )));
    }
    let quiet = files.quiet;
    if !quiet {
        // Once per run, for each label that means another encoding elsewhere.
        let mut said = None;
        for label in [from_label, to_label] {
            if let Some(note) = labels::surprise(label) {
                if said.as_ref() != Some(&note) {
                    print_stderr(&note);
                }
                said = Some(note);
            }
        }
    }
    let plan = Plan {
        from,
        auto,
        target,
        bom: match input.bom {
            BomMode::Sniff => BomHandling::Sniff,
            BomMode::Strip => BomHandling::Strip,
            BomMode::Keep => BomHandling::Keep,
        },
        invalid,
        unmappable,
        add_bom: output.add_bom,
        quiet,
    };

    // The input files (directories walked with -r).
    let mut paths: Vec<Option<PathBuf>> = Vec::new();
    if files.inputs.is_empty() {
        paths.push(None);
    }
    for path in files.inputs {
        if path.as_os_str() == "-" {
            paths.push(None);
        } else if files.recursive && path.is_dir() {
            let mut found = Vec::new();
            files::walk(&path, &files.include, &mut found).map_err(|e| {
                Failure::Usage(format!("cannot read '{}': {}", path.display(), io_msg(&e)))
            })?;
            paths.extend(found.into_iter().map(Some));
        } else {
            paths.push(Some(path));
        }
    }
    if files.in_place && paths.iter().any(Option::is_none) {
        return Err(Failure::Usage(
            "--in-place converts files into themselves: standard input cannot be one".to_string(),
        ));
    }

    // Open every input before writing anything, so that a missing file fails early.
    let mut inputs = Vec::new();
    let mut total = Some(0u64);
    for path in paths {
        let Some(path) = path else {
            inputs.push(Input::Stdin);
            total = total.zip(stdin_size()).map(|(t, n)| t + n);
            continue;
        };
        let cannot =
            |msg: String| Failure::Usage(format!("cannot read '{}': {msg}", path.display()));
        let file = File::open(&path).map_err(|e| cannot(io_msg(&e)))?;
        let meta = file.metadata().map_err(|e| cannot(io_msg(&e)))?;
        if meta.is_dir() {
            let hint = if files.recursive {
                ""
            } else {
                " (-r converts a tree)"
            };
            return Err(cannot(format!("is a directory{hint}")));
        }
        total = match total {
            Some(t) if meta.is_file() => Some(t + meta.len()),
            _ => None,
        };
        inputs.push(Input::File { path, file });
    }

    // Not on a terminal that also shows the output.
    let to_file = files.in_place || files.output.as_ref().is_some_and(|o| o.as_os_str() != "-");
    let mut progress = Progress::new(!quiet && (to_file || !io::stdout().is_terminal()), total);
    sink::install_interrupt_handler();
    if files.in_place {
        // Each file into itself, in turn; a failure stops the run and leaves that file
        // (and those after it) as they were.
        for input in inputs {
            let Input::File { path, .. } = &input else {
                unreachable!("standard input was refused")
            };
            let sink = Sink::file(&path.clone())?;
            convert::run(&plan, vec![input], sink, &mut progress)?;
        }
    } else {
        let sink = match &files.output {
            Some(path) if path.as_os_str() != "-" => Sink::file(path)?,
            _ => Sink::stdout(),
        };
        convert::run(&plan, inputs, sink, &mut progress)?;
    }
    progress.finish();
    Ok(())
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
