//! Helpers shared by the CLI integration tests: they run the built `textcodec` binary.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;

use textcodec::{DecoderOptions, EncoderErrorMode, Encoding, Status};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_textcodec"))
}

/// Starts `textcodec ARGS` with its standard input, output and error piped.
pub fn spawn_piped(args: &[&str]) -> std::process::Child {
    bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn textcodec")
}

/// Runs `textcodec ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn_piped(args);
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // A thread, so that a large input cannot deadlock against a large output; the child
    // may stop reading early (errors), so write errors are ignored.
    let writer = thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait textcodec");
    writer.join().unwrap();
    out
}

pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn corpus(lang: &str) -> String {
    let path = repo_root()
        .join("data/corpus/wikipedia")
        .join(format!("{lang}.txt"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn enc(label: &str) -> &'static Encoding {
    Encoding::for_label(label.as_bytes()).expect("known label")
}

/// The library's encoding of `text` into `encoding` in HTML mode, in one call.
pub fn lib_encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let mut encoder = encoding.new_encoder(EncoderErrorMode::Html);
    let mut dst = vec![0u8; encoder.max_buffer_length_from_utf8(text.len()).unwrap()];
    let p = encoder.encode_from_utf8(text, &mut dst, true).unwrap();
    assert_eq!(p.status, Status::InputEmpty);
    assert_eq!(p.read, text.len());
    dst.truncate(p.written);
    dst
}

/// The library's decoding of `bytes` (BOM sniffing, replacement), in one call.
pub fn lib_decode(encoding: &'static Encoding, bytes: &[u8]) -> String {
    let mut decoder = encoding.new_decoder(DecoderOptions::default());
    let mut s = String::new();
    decoder.decode_to_string(bytes, &mut s, true).unwrap();
    s
}

/// A fresh empty directory for output files.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// Names of the entries of `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `textcodec ARGS` with standard error (and output) on a pseudo-terminal, through
/// util-linux `script`; returns what the terminal showed.
pub fn on_a_terminal(args: &[&str]) -> String {
    let dir = tempdir();
    let transcript = dir.path().join("terminal");
    let mut command = String::from(env!("CARGO_BIN_EXE_textcodec"));
    for a in args {
        command.push_str(&format!(" '{a}'"));
    }
    let status = Command::new("script")
        .args(["-q", "-e", "-c", &command])
        .arg(&transcript)
        .env("TEXTCODEC_PROGRESS_DELAY_MS", "0")
        .env("COLUMNS", "120")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("util-linux `script` (package bsdutils) gives the test a terminal");
    assert!(status.success(), "{command}");
    String::from_utf8_lossy(&std::fs::read(&transcript).unwrap()).into_owned()
}
