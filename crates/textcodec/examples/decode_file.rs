//! Decodes a text file whose encoding is unknown but for an optional BOM, and prints it as
//! UTF-8.
//!
//! A UTF-8, UTF-16LE or UTF-16BE byte order mark decides the encoding; without one, the
//! fallback label given (windows-1252 if none) does, as a browser does for a file without
//! other information. Malformed bytes become U+FFFD.
//!
//! ```text
//! cargo run --example decode_file -- notes.txt shift_jis
//! ```

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use textcodec::io::DecodeReader;
use textcodec::Encoding;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), fallback) = (args.next(), args.next()) else {
        eprintln!("usage: decode_file PATH [FALLBACK-LABEL]");
        return ExitCode::from(2);
    };
    let fallback = fallback.unwrap_or_else(|| "windows-1252".to_string());
    let Some(encoding) = Encoding::for_label(fallback.as_bytes()) else {
        eprintln!("decode_file: {fallback:?} is not an encoding label");
        return ExitCode::from(2);
    };
    match run(&path, encoding) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("decode_file: {path}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str, fallback: &'static Encoding) -> io::Result<()> {
    let file = std::fs::File::open(path)?;
    // The reader buffers by itself: no BufReader needed.
    let mut reader = DecodeReader::new(file, fallback);
    // The first fill sniffs the BOM.
    reader.fill_buf()?;
    eprintln!(
        "decode_file: decoding {path} as {}",
        reader.encoding().name()
    );
    let stdout = io::stdout();
    let mut out = stdout.lock();
    loop {
        let text = reader.read_str()?;
        if text.is_empty() {
            break;
        }
        out.write_all(text.as_bytes())?;
    }
    out.flush()
}
