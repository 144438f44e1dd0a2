//! One workload of the benchmark set, run once, for counting its instructions under
//! callgrind (`scripts/instructions.sh`).
//!
//! The clock is noisy on a shared machine; instruction counts are repeatable for the same
//! binary and input whatever else runs. This program prepares a workload's input (outside
//! the counted region), then calls [`measure`] once; callgrind is started with
//! `--collect-atstart=no --toggle-collect=*measure*`, so only that call is counted.
//!
//! ```text
//! instructions list                       # every workload name, one a line
//! instructions run NAME [textcodec|encoding_rs]
//! ```
//!
//! Names follow the criterion suite (`benches/codecs.rs`): `decode_utf8/ja.txt/Shift_JIS`,
//! `decode_utf16/...`, `encode_utf8/...`, `encode_utf16/...` for each language and legacy
//! encoding; `decode_utf8/FILE/UTF-8` (validate and copy), `decode_utf16/FILE/UTF-8`,
//! `encode_utf8/FILE/UTF-16` (UTF-16 to UTF-8), `decode_utf8/FILE/UTF-16LE` and
//! `/UTF-16BE` for every corpus file; `short/...` for the twelve short strings, each with a
//! new decoder or encoder; `mem/FILE/FUNCTION` for the `mem` functions (against
//! `encoding_rs::mem`) on the Latin-1 characters of a corpus file (its ASCII for `is_ascii`,
//! its UTF-16 for `utf16_valid_up_to`).

use std::hint::black_box;

use textcodec::{DecoderOptions, EncoderErrorMode};

mod workloads;
use workloads::{LANGS, SHORT};

fn corpus(file: &str) -> String {
    let path = format!(
        "{}/../../data/corpus/wikipedia/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn encoding(name: &str) -> &'static textcodec::Encoding {
    textcodec::Encoding::for_label(name.as_bytes()).unwrap_or_else(|| panic!("no encoding {name}"))
}

/// Legacy bytes of `text` in `enc`, unmappable characters as numeric references (as the
/// criterion suite makes its inputs).
fn legacy(text: &str, enc: &'static textcodec::Encoding) -> Vec<u8> {
    textcodec::encode(text, enc).0.into_owned()
}

fn files() -> Vec<String> {
    let mut v = Vec::new();
    for (lang, _) in LANGS {
        v.push(format!("{lang}.txt"));
        v.push(format!("{lang}.html"));
    }
    v
}

fn names() -> Vec<String> {
    let mut v = Vec::new();
    for (lang, encs) in LANGS {
        for ext in ["txt", "html"] {
            for enc in *encs {
                for dir in ["decode_utf8", "decode_utf16", "encode_utf8", "encode_utf16"] {
                    v.push(format!("{dir}/{lang}.{ext}/{enc}"));
                }
            }
        }
    }
    for file in files() {
        for w in [
            "decode_utf8/{}/UTF-8",
            "decode_utf16/{}/UTF-8",
            "encode_utf8/{}/UTF-16",
            "decode_utf8/{}/UTF-16LE",
            "decode_utf8/{}/UTF-16BE",
        ] {
            v.push(w.replace("{}", &file));
        }
    }
    for file in ["fr.txt", "de.txt", "pt.txt"] {
        for f in MEM {
            v.push(format!("mem/{file}/{f}"));
        }
    }
    for w in [
        "short/decode_utf8/UTF-8",
        "short/decode_utf16/UTF-8",
        "short/encode_utf8/UTF-16",
        "short/decode_utf8/windows-1252",
        "short/decode_utf16/windows-1252",
        "short/encode_utf8/windows-1252",
        "short/decode_utf8/Shift_JIS",
        "short/encode_utf8/Shift_JIS",
        "short/decode_utf8/GBK",
        "short/encode_utf8/GBK",
    ] {
        v.push(w.to_string());
    }
    v
}

/// The `mem` functions measured.
const MEM: &[&str] = &[
    "is_ascii",
    "is_utf8_latin1",
    "decode_latin1",
    "encode_latin1_lossy",
    "convert_latin1_to_utf8",
    "convert_utf8_to_latin1_lossy",
    "utf16_valid_up_to",
];

/// An encoding in both libraries, looked up before the counted call.
#[derive(Clone, Copy)]
struct Enc(&'static textcodec::Encoding, &'static encoding_rs::Encoding);

fn enc(name: &str) -> Enc {
    Enc(
        encoding(name),
        encoding_rs::Encoding::for_label(name.as_bytes()).unwrap(),
    )
}

/// What a workload works on, prepared before the counted call.
enum Input {
    /// Bytes to decode with this encoding, to UTF-8 (`false`) or UTF-16 (`true`).
    Decode(Vec<Vec<u8>>, Enc, bool),
    /// Text to encode into this encoding, from UTF-8.
    EncodeUtf8(Vec<String>, Enc),
    /// Text to encode into this encoding, from UTF-16.
    EncodeUtf16(Vec<Vec<u16>>, Enc),
    /// A `mem` function (an index into [`MEM`]) and its input: bytes (ASCII for `is_ascii`,
    /// Latin-1 for those from Latin-1, UTF-8 for those from UTF-8), UTF-16, or text.
    Mem(usize, Vec<u8>, Vec<u16>, String),
}

fn prepare(name: &str) -> Input {
    let parts: Vec<&str> = name.split('/').collect();
    if let ["mem", file, f] = parts.as_slice() {
        let which = MEM.iter().position(|m| m == f).expect("a mem function");
        let text = corpus(file);
        let latin1: String = text.chars().filter(|&c| c <= '\u{FF}').collect();
        let bytes = match *f {
            "is_ascii" => text.bytes().filter(u8::is_ascii).collect(),
            "decode_latin1" | "convert_latin1_to_utf8" => latin1.chars().map(|c| c as u8).collect(),
            _ => latin1.into_bytes(),
        };
        let units = text.encode_utf16().collect();
        let latin1_text = String::from_utf8(bytes.clone()).unwrap_or_default();
        return Input::Mem(which, bytes, units, latin1_text);
    }
    let (dir, texts, enc_name) = match parts.as_slice() {
        ["short", dir, enc] => (*dir, SHORT.iter().map(|s| s.to_string()).collect(), *enc),
        [dir, file, enc] => (*dir, vec![corpus(file)], *enc),
        _ => panic!("unknown workload {name}"),
    };
    let both = self::enc(enc_name);
    let enc = both.0;
    match (dir, enc_name) {
        // Unicode workloads: the text itself in UTF-8, UTF-16 code units or UTF-16 bytes.
        ("decode_utf8" | "decode_utf16", "UTF-8") => Input::Decode(
            texts.into_iter().map(String::into_bytes).collect(),
            both,
            dir == "decode_utf16",
        ),
        ("encode_utf8", "UTF-16") => Input::EncodeUtf16(
            texts.iter().map(|t| t.encode_utf16().collect()).collect(),
            self::enc("UTF-8"),
        ),
        ("decode_utf8", "UTF-16LE" | "UTF-16BE") => {
            let le = enc_name == "UTF-16LE";
            let bytes = texts
                .iter()
                .map(|t| {
                    t.encode_utf16()
                        .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                        .collect()
                })
                .collect();
            Input::Decode(bytes, both, false)
        }
        ("decode_utf8" | "decode_utf16", _) => Input::Decode(
            texts.iter().map(|t| legacy(t, enc)).collect(),
            both,
            dir == "decode_utf16",
        ),
        ("encode_utf8", _) => Input::EncodeUtf8(texts, both),
        ("encode_utf16", _) => Input::EncodeUtf16(
            texts.iter().map(|t| t.encode_utf16().collect()).collect(),
            both,
        ),
        _ => panic!("unknown workload {name}"),
    }
}

/// The counted region: every input of the workload once, with a new decoder or encoder
/// each, into buffers allocated before.
#[inline(never)]
fn measure(input: &Input, er: bool, out8: &mut [u8], out16: &mut [u16]) -> usize {
    let mut total = 0;
    match input {
        Input::Decode(srcs, name, to16) => {
            for src in srcs {
                total += if er {
                    let mut d = name.1.new_decoder();
                    if *to16 {
                        d.decode_to_utf16(src, out16, true).2
                    } else {
                        d.decode_to_utf8(src, out8, true).2
                    }
                } else {
                    let mut d = name.0.new_decoder(DecoderOptions::default());
                    if *to16 {
                        d.decode_to_utf16(src, out16, true).unwrap().written
                    } else {
                        d.decode_to_utf8(src, out8, true).unwrap().written
                    }
                };
            }
        }
        Input::EncodeUtf8(srcs, name) => {
            for src in srcs {
                total += if er {
                    let mut e = name.1.new_encoder();
                    e.encode_from_utf8(src, out8, true).2
                } else {
                    let mut e = name.0.new_encoder(EncoderErrorMode::Html);
                    e.encode_from_utf8(src, out8, true).unwrap().written
                };
            }
        }
        Input::EncodeUtf16(srcs, name) => {
            for src in srcs {
                total += if er {
                    let mut e = name.1.new_encoder();
                    e.encode_from_utf16(src, out8, true).2
                } else {
                    let mut e = name.0.new_encoder(EncoderErrorMode::Html);
                    e.encode_from_utf16(src, out8, true).unwrap().written
                };
            }
        }
        Input::Mem(which, bytes, units, text) => {
            total += if er {
                er_mem(*which, bytes, units, text, out8)
            } else {
                tc_mem(*which, bytes, units, text, out8)
            };
        }
    }
    total
}

fn tc_mem(which: usize, bytes: &[u8], units: &[u16], text: &str, out8: &mut [u8]) -> usize {
    use textcodec::mem;
    match MEM[which] {
        "is_ascii" => mem::is_ascii(bytes) as usize,
        "is_utf8_latin1" => mem::is_utf8_latin1(bytes) as usize,
        "decode_latin1" => mem::decode_latin1(bytes).len(),
        "encode_latin1_lossy" => mem::encode_latin1_lossy(text).len(),
        "convert_latin1_to_utf8" => mem::convert_latin1_to_utf8(bytes, out8),
        "convert_utf8_to_latin1_lossy" => mem::convert_utf8_to_latin1_lossy(bytes, out8),
        _ => mem::utf16_valid_up_to(units),
    }
}

fn er_mem(which: usize, bytes: &[u8], units: &[u16], text: &str, out8: &mut [u8]) -> usize {
    use encoding_rs::mem;
    match MEM[which] {
        "is_ascii" => mem::is_ascii(bytes) as usize,
        "is_utf8_latin1" => mem::is_utf8_latin1(bytes) as usize,
        "decode_latin1" => mem::decode_latin1(bytes).len(),
        "encode_latin1_lossy" => mem::encode_latin1_lossy(text).len(),
        "convert_latin1_to_utf8" => mem::convert_latin1_to_utf8(bytes, out8),
        "convert_utf8_to_latin1_lossy" => mem::convert_utf8_to_latin1_lossy(bytes, out8),
        _ => mem::utf16_valid_up_to(units),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => {
            for n in names() {
                println!("{n}");
            }
        }
        Some("run") => {
            let name = args.get(1).expect("run NAME");
            let er = match args.get(2).map(String::as_str) {
                None | Some("textcodec") => false,
                Some("encoding_rs") => true,
                Some(other) => panic!("unknown implementation {other}"),
            };
            workloads::force_level_from_env();
            let input = prepare(name);
            // Room for any output: 4 bytes (or 3 units) per input unit plus references.
            let cap = match &input {
                Input::Decode(s, ..) => s.iter().map(Vec::len).max().unwrap_or(0),
                Input::EncodeUtf8(s, _) => s.iter().map(String::len).max().unwrap_or(0),
                Input::EncodeUtf16(s, _) => s.iter().map(Vec::len).max().unwrap_or(0) * 2,
                Input::Mem(_, b, u, _) => b.len().max(u.len()),
            };
            let mut out8 = vec![0u8; cap * 12 + 64];
            let mut out16 = vec![0u16; cap * 2 + 64];
            let n = measure(black_box(&input), er, &mut out8, &mut out16);
            println!("{name}\t{n}");
        }
        // `cargo bench` (and `cargo test --benches`) run bench targets with no argument or
        // with criterion-style flags: nothing to do then.
        _ => {}
    }
}
