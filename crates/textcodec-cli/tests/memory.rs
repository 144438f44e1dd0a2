//! A large stream through pipes converts in constant memory: the child's peak resident
//! set stays under a fixed bound however much data goes through.

mod common;

use std::io::{Read, Write};
use std::thread;
use std::time::Duration;

use common::*;

/// Peak resident set (VmHWM) of a running process, in KiB.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
fn stream_through(args: &[&str], unit: Vec<u8>, total: usize) -> (u64, u64) {
    let repeats = total / unit.len();
    let mut child = spawn_piped(args);
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        for _ in 0..repeats {
            stdin.write_all(&unit).unwrap();
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut n = 0u64;
        loop {
            match stdout.read(&mut buf).unwrap() {
                0 => return n,
                k => n += k as u64,
            }
        }
    });
    // Poll the peak until the process is gone (a zombie has no VmHWM line).
    let mut peak = 0;
    while let Some(kib) = peak_kib(pid) {
        peak = peak.max(kib);
        thread::sleep(Duration::from_millis(2));
    }
    writer.join().unwrap();
    let written = reader.join().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    (peak, written)
}

#[cfg(target_os = "linux")]
#[test]
fn large_stream_in_flat_memory() {
    // 256 MB in release (the CI profile), less in a debug build.
    let total: usize = if cfg!(debug_assertions) {
        24 << 20
    } else {
        256 << 20
    };
    let text = corpus("ja");
    let sjis = lib_encode(enc("shift_jis"), &text);
    let decoded = lib_decode(enc("shift_jis"), &sjis);
    let repeats = (total / sjis.len()) as u64;

    let (peak, written) = stream_through(&["decode", "-e", "shift_jis"], sjis.clone(), total);
    assert_eq!(written, repeats * decoded.len() as u64);
    assert!(peak > 0, "could not read VmHWM");
    assert!(
        peak < 64 * 1024,
        "peak resident set {peak} KiB for a {total}-byte stream"
    );

    // `-f auto`: the first MiB is held to guess from, then the stream goes on as before.
    let (peak, written) = stream_through(
        &["decode", "-e", "auto", "-q"],
        text.clone().into_bytes(),
        total / 4,
    );
    let repeats_auto = (total / 4 / text.len()) as u64;
    assert_eq!(written, repeats_auto * text.len() as u64);
    assert!(peak < 64 * 1024, "peak resident set {peak} KiB (auto)");

    // UTF-8 in, ISO-2022-JP out with references: the encoder path.
    let (peak, written) = stream_through(
        &["encode", "-e", "iso-2022-jp", "--unmappable", "html"],
        text.clone().into_bytes(),
        total / 4,
    );
    assert!(written > 0);
    assert!(peak < 64 * 1024, "peak resident set {peak} KiB (encode)");

    // Legacy to legacy: the UTF-16 pivot.
    let (peak, written) = stream_through(
        &["convert", "-f", "shift_jis", "-t", "euc-jp"],
        sjis,
        total / 4,
    );
    assert!(written > 0);
    assert!(peak < 64 * 1024, "peak resident set {peak} KiB (convert)");
}
