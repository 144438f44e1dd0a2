//! The comparison for `scripts/cli-utf8-bench.sh` (issue 16): a UTF-8 -> UTF-8 converter on
//! encoding_rs of the same design as `textcodec decode -e utf-8` before its UTF-8 fast path:
//! 64 KiB reads, each decoded with replacement by encoding_rs's streaming `Decoder` (BOM
//! sniffing, as the spec's "decode") into a buffer of its worst-case length, written to
//! standard output without Rust's line buffering. Not part of the command.
//!
//!     cargo run --release -p textcodec-cli --example er_utf8_convert -- FILE > out

use std::fs::File;
use std::io::{self, Read, Write};

const CHUNK: usize = 64 * 1024;

fn main() -> io::Result<()> {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: er_utf8_convert FILE");
    let mut input = File::open(path)?;
    let mut out = raw_stdout()?;
    let mut decoder = encoding_rs::UTF_8.new_decoder();
    let mut buf = vec![0u8; CHUNK];
    let size = decoder
        .max_utf8_buffer_length(CHUNK)
        .expect("a 64 KiB chunk's worst case fits");
    let mut text = vec![0u8; size];
    loop {
        let n = match input.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let last = n == 0;
        let mut src = &buf[..n];
        loop {
            let (result, read, written, _) = decoder.decode_to_utf8(src, &mut text, last);
            out.write_all(&text[..written])?;
            src = &src[read..];
            if result == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
        if last {
            return out.flush();
        }
    }
}

/// Standard output as a file (no line buffering), as the command writes it.
#[cfg(unix)]
fn raw_stdout() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdout().as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn raw_stdout() -> io::Result<File> {
    Err(io::Error::other("unix only"))
}
