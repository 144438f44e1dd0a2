//! Transcodes standard input to standard output between two encodings, in bounded memory.
//!
//! The input is decoded with BOM sniffing (a BOM overrides the FROM label) and malformed
//! bytes become U+FFFD; characters the TO encoding cannot represent become `&#NNNN;`, as
//! browsers do for forms. With `--fatal`, either stops the program with an error instead.
//!
//! ```text
//! cargo run --example transcode -- shift_jis utf-8 < in.txt > out.txt
//! cargo run --example transcode -- --fatal utf-8 iso-2022-jp < in.txt > out.txt
//! ```

use std::io::{self, Write};
use std::process::ExitCode;
use textcodec::io::{DecodeReader, EncodeWriter};
use textcodec::{DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let fatal = args.first().is_some_and(|a| a == "--fatal");
    if fatal {
        args.remove(0);
    }
    let [from, to] = &args[..] else {
        eprintln!("usage: transcode [--fatal] FROM-LABEL TO-LABEL < INPUT > OUTPUT");
        return ExitCode::from(2);
    };
    let (Some(from), Some(to)) = (
        Encoding::for_label(from.as_bytes()),
        Encoding::for_label(to.as_bytes()),
    ) else {
        eprintln!("transcode: unknown encoding label");
        return ExitCode::from(2);
    };
    match transcode(from, to, fatal) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("transcode: {e}");
            ExitCode::FAILURE
        }
    }
}

fn transcode(from: &'static Encoding, to: &'static Encoding, fatal: bool) -> io::Result<()> {
    let options = DecoderOptions {
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
        ..Default::default()
    };
    let mode = if fatal {
        EncoderErrorMode::Fatal
    } else {
        EncoderErrorMode::Html
    };
    let mut reader = DecodeReader::with_options(io::stdin().lock(), from, options);
    let mut writer = EncodeWriter::with_mode(io::stdout().lock(), to, mode);
    io::copy(&mut reader, &mut writer)?;
    // Ends the output (ISO-2022-JP returns to ASCII) and flushes it.
    writer.finish()?.flush()
}
