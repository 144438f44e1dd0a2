//! Encodes a form field value the way a browser submits it from a page in some encoding:
//! the page's encoding gives the output encoding (UTF-16 pages submit UTF-8), and
//! characters it cannot represent are sent as `&#NNNN;`. Percent-encoding is out of scope:
//! the bytes are printed in hex.
//!
//! ```text
//! cargo run --example form_field -- shift_jis "日本語 ☃"
//! ```

use std::io::Write;
use std::process::ExitCode;
use textcodec::io::EncodeWriter;
use textcodec::{EncoderErrorMode, Encoding};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [label, value] = &args[..] else {
        eprintln!("usage: form_field PAGE-ENCODING-LABEL VALUE");
        return ExitCode::from(2);
    };
    let Some(page) = Encoding::for_label(label.as_bytes()) else {
        eprintln!("form_field: {label:?} is not an encoding label");
        return ExitCode::from(2);
    };
    let output = page.output_encoding();
    let mut writer = EncodeWriter::with_mode(Vec::new(), output, EncoderErrorMode::Html);
    let bytes = writer
        .write_all(value.as_bytes())
        .and_then(|()| writer.finish())
        .expect("writing to a vector does not fail");
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    println!("page encoding:   {}", page.name());
    println!("output encoding: {}", output.name());
    println!("bytes:           {} ({} bytes)", hex.join(" "), bytes.len());
    ExitCode::SUCCESS
}
