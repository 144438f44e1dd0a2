//! Stable-toolchain smoke fuzzing: runs each target's body (src/lib.rs) over
//! - every file in corpus/<target>/ and artifacts/<target>/ (replay), then
//! - N deterministic pseudo-random inputs built from nasty byte pieces and text.
//!
//! Usage: cargo run --release --example smoke -- [-n ITERATIONS] [-s SEED] [TARGET...]
//! Exit status 1 if any target panicked; the failing input is printed in hex and saved to
//! artifacts/<target>/smoke-<seed>-<i> so that `cargo fuzz run <target> <file>` (or this runner)
//! reproduces it.

use std::panic;
use std::path::{Path, PathBuf};

use textcodec_fuzz::{Rng, TARGETS};

const PIECES: &[&[u8]] = &[
    b"\x80",
    b"\x81",
    b"\xFF",
    b"\xA1",
    b"\x8E",
    b"\x8F",
    b"\xFE",
    b"\x00",
    b"\"",
    b"\x7F",
    b"\xEF\xBB\xBF",
    b"\xFE\xFF",
    b"\xFF\xFE",
    b"\x81\x22",
    b"\x81\x30",
    b"\x81\x30\x81",
    b"\x81\x30\x81\x30",
    b"\x84\x31\xA4\x37",
    b"\xE3\x32\x9A\x35",
    b"\x88\x62",
    b"\x88\xA5",
    b"\x8F\xA2\xAF",
    b"\xE2\x82",
    b"\xE2\x82\xAC",
    b"\xF0\x9F\x98",
    b"\xF0\x9F\x98\x80",
    b"\xED\xA0\x80",
    b"\xC0\x80",
    b"\xE0\x80",
    b"\xF4\x90\x80\x80",
    b"\xEF\xBF\xBD",
    b"\x1B(B",
    b"\x1B(J",
    b"\x1B(I",
    b"\x1B$B",
    b"\x1B$@",
    b"\x1B",
    b"\x1B$",
    b"\x1B(",
    b"\x0E",
    b"\x0F",
    b"\x30\x21",
    b"\\~",
    b"\x00\xD8",
    b"\xD8\x00",
    b"\x00\xDC",
    b"\x3D\xD8\x00\xDE",
    b"\x82\xA0",
    b"\xB0\xA1",
    b"\xA4\x40",
    b"abc",
    b" ",
    b"\n",
    "é".as_bytes(),
    "漢字".as_bytes(),
    "¥‾".as_bytes(),
    "ｱﾞ".as_bytes(),
    "−".as_bytes(),
    "\u{E5E5}\u{E78D}".as_bytes(),
    "\u{F780}".as_bytes(),
    "😀".as_bytes(),
];

fn generate(rng: &mut Rng) -> Vec<u8> {
    let mut v = Vec::new();
    // Parameter bytes first (encoding, flags, seeds).
    for _ in 0..4 {
        v.push(rng.next_u64() as u8);
    }
    let items = match rng.below(4) {
        0 => rng.below(4),
        1 => rng.below(16),
        _ => rng.below(80),
    };
    for _ in 0..items {
        if rng.below(3) == 0 {
            for _ in 0..1 + rng.below(3) {
                v.push(rng.next_u64() as u8);
            }
        } else {
            v.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        }
    }
    v
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn main() {
    let mut iterations = 20_000usize;
    let mut seed = 1u64;
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-n" => iterations = args.next().and_then(|s| s.parse().ok()).expect("-n N"),
            "-s" => seed = args.next().and_then(|s| s.parse().ok()).expect("-s SEED"),
            "-h" | "--help" => {
                eprintln!("usage: smoke [-n ITERATIONS] [-s SEED] [TARGET...]");
                return;
            }
            t => only.push(t.to_string()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!(
        "dispatch levels: up to {:?}; skipped (not on this CPU): {:?}",
        textcodec::dispatch::detected_level(),
        textcodec_fuzz::skipped_levels()
    );
    // Keep panics quiet; report them ourselves.
    panic::set_hook(Box::new(|_| {}));
    let mut failed = false;
    for &(name, body) in TARGETS.iter().chain(textcodec_fuzz::sniff::TARGETS) {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
        for dir in ["corpus", "artifacts"] {
            for p in files_in(&root.join(dir).join(name)) {
                if let Ok(b) = std::fs::read(&p) {
                    inputs.push((p.display().to_string(), b));
                }
            }
        }
        let replayed = inputs.len();
        let mut rng = Rng::new(seed ^ ((name.len() as u64) << 32));
        for i in 0..iterations {
            inputs.push((format!("smoke-{seed}-{i}"), generate(&mut rng)));
        }
        let mut failures = 0;
        for (id, input) in &inputs {
            let r = panic::catch_unwind(|| body(input));
            if let Err(e) = r {
                failures += 1;
                if failures <= 3 {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    eprintln!("{name}: FAILED on {id}: {msg}\n  input: {}", hex(input));
                    if id.starts_with("smoke-") {
                        let dir = root.join("artifacts").join(name);
                        let _ = std::fs::create_dir_all(&dir);
                        let _ = std::fs::write(dir.join(id), input);
                    }
                }
            }
        }
        println!(
            "{name}: {} inputs ({replayed} replayed), {failures} failed",
            inputs.len()
        );
        failed |= failures > 0;
    }
    if failed {
        std::process::exit(1);
    }
}
