//! Malformed input under `--invalid replace`: the output is the library's replacement
//! decoding, the warning's count is the number of errors a fatal decoder finds (U+FFFDs
//! that the input holds of its own are not errors), and its first offset is the one
//! `--invalid fail` reports; across the CLI's 64 KiB reads, with errors and U+FFFDs of the
//! input's own on both sides of each read's edge.

mod common;

use common::*;
use textcodec::{DecoderErrorMode, DecoderOptions, Encoding, Status};

/// The CLI reads its input 64 KiB at a time.
const CHUNK: usize = 64 * 1024;

/// Errors in `bytes` as a fatal decoder resumed after each finds them.
fn fatal_errors(encoding: &'static Encoding, bytes: &[u8]) -> u64 {
    let mut decoder = encoding.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Fatal,
        ..Default::default()
    });
    let mut out = vec![0u8; decoder.max_utf8_buffer_length(bytes.len()).unwrap()];
    let (mut pos, mut errors) = (0, 0);
    loop {
        match decoder.decode_to_utf8(&bytes[pos..], &mut out, true) {
            Ok(p) => {
                assert_eq!(p.status, Status::InputEmpty);
                return errors;
            }
            Err(e) => {
                pos += e.read;
                errors += 1;
            }
        }
    }
}

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0 as usize
    }
}

/// `clean` with, at random places and around each 64 KiB edge, malformed bytes and the
/// encoding's own U+FFFD (`literal`, if it has one).
fn damage(clean: &[u8], literal: &[u8], bad: &[&[u8]], rng: &mut Rng) -> Vec<u8> {
    let mut cuts: Vec<usize> = (0..40).map(|_| rng.next() % clean.len()).collect();
    for edge in (CHUNK..clean.len()).step_by(CHUNK) {
        for d in [0, 1, 2, 3] {
            cuts.push(edge - d);
        }
    }
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut from = 0;
    for cut in cuts {
        out.extend_from_slice(&clean[from..cut]);
        from = cut;
        match rng.next() % 3 {
            0 if !literal.is_empty() => out.extend_from_slice(literal),
            _ => out.extend_from_slice(bad[rng.next() % bad.len()]),
        }
    }
    out.extend_from_slice(&clean[from..]);
    out
}

/// The warning line's count and first offset.
fn warning(err: &str) -> (u64, u64) {
    let (_, rest) = err.split_once(": warning: ").expect(err);
    let (_, rest) = rest.split_once(": ").unwrap();
    let count = rest.split(' ').next().unwrap().parse().unwrap();
    let offset = rest.trim_end().rsplit(' ').next().unwrap().parse().unwrap();
    (count, offset)
}

/// The offset in the `--invalid fail` message.
fn fail_offset(err: &str) -> u64 {
    let (_, rest) = err.split_once(" at byte offset ").expect(err);
    rest.split([':', '\n']).next().unwrap().parse().unwrap()
}

/// A label, clean bytes, the input's own U+FFFD, malformed sequences.
type Case = (&'static str, Vec<u8>, &'static [u8], Vec<&'static [u8]>);

#[test]
fn counts_and_first_offsets_match_a_fatal_decoder() {
    let mut rng = Rng(0x2545_F491);
    let ja = corpus("ja");
    let zh = corpus("zh_cn");
    let utf16 = |be: bool, s: &str| -> Vec<u8> {
        s.encode_utf16()
            .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
            .collect()
    };
    let cases: Vec<Case> = vec![
        (
            "utf-8",
            ja.clone().into_bytes(),
            b"\xEF\xBF\xBD",
            vec![b"\x80", b"\xE3\x81", b"\xFF", b"\xF0\x9F\x98", b"\xC0\xAF"],
        ),
        (
            "utf-16le",
            utf16(false, &ja),
            b"\xFD\xFF",
            vec![b"\x00\xD8", b"\x00\xDC", b"\x3D\xD8\x41\x00"],
        ),
        (
            "utf-16be",
            utf16(true, &ja),
            b"\xFF\xFD",
            vec![b"\xD8\x00", b"\xDC\x00"],
        ),
        (
            "gb18030",
            lib_encode(enc("gb18030"), &zh),
            b"\x84\x31\xA4\x37",
            vec![b"\x80", b"\xFF", b"\x81\x30\x81", b"\x84\x31\xA4\x39"],
        ),
        (
            "gbk",
            lib_encode(enc("gbk"), &zh),
            b"\x84\x31\xA4\x37",
            vec![b"\x80", b"\xFF", b"\x81\x30"],
        ),
        (
            "shift_jis",
            lib_encode(enc("shift_jis"), &ja),
            b"",
            vec![b"\xA0", b"\x82", b"\xFF", b"\x81\x20"],
        ),
        (
            "euc-jp",
            lib_encode(enc("euc-jp"), &ja),
            b"",
            vec![b"\x8F\xA1", b"\xFF", b"\xA4"],
        ),
        (
            "iso-2022-jp",
            lib_encode(enc("iso-2022-jp"), &ja),
            b"",
            vec![b"\x1B", b"\x1B(", b"\x0E", b"\x80"],
        ),
        (
            "big5",
            lib_encode(enc("big5"), &zh),
            b"",
            vec![b"\x80", b"\xFF", b"\xA4"],
        ),
        (
            "euc-kr",
            lib_encode(enc("euc-kr"), &corpus("ko")),
            b"",
            vec![b"\x80", b"\xFF", b"\xB0"],
        ),
        (
            "windows-874",
            lib_encode(enc("windows-874"), &corpus("th")),
            b"",
            vec![b"\xDB", b"\xFC"],
        ),
    ];
    for (label, clean, literal, bad) in cases {
        let encoding = enc(label);
        for round in 0..3 {
            let mut bytes = damage(&clean, literal, &bad, &mut rng);
            if round == 2 {
                // Only the input's own U+FFFDs: no warning at all.
                bytes = damage(&clean, literal, &[literal], &mut rng);
                if literal.is_empty() {
                    continue;
                }
            }
            let out = run(&["decode", "-e", label], &bytes);
            assert_eq!(code(&out), 0, "{label}");
            assert!(
                out.stdout == lib_decode(encoding, &bytes).as_bytes(),
                "{label}: output differs from the library's"
            );
            let errors = fatal_errors(encoding, &bytes);
            let err = stderr(&out);
            if errors == 0 {
                assert!(err.is_empty(), "{label}: {err}");
                continue;
            }
            let (count, first) = warning(&err);
            assert_eq!(count, errors, "{label} round {round}: {err}");
            let fail = run(&["decode", "-e", label, "--invalid", "fail"], &bytes);
            assert_eq!(code(&fail), 1);
            assert_eq!(first, fail_offset(&stderr(&fail)), "{label}: {err}");
        }
    }
}

#[test]
fn dense_errors_are_counted_exactly() {
    // Every byte an error, over several reads; with the input's own U+FFFD among them.
    let mut bytes = vec![0x80u8; 3 * CHUNK + 5];
    let out = run(&["decode", "-e", "utf-8"], &bytes);
    assert_eq!(warning(&stderr(&out)), (bytes.len() as u64, 0));
    bytes[CHUNK - 1..CHUNK + 2].copy_from_slice(b"\xEF\xBF\xBD");
    bytes[2 * CHUNK - 2..2 * CHUNK + 1].copy_from_slice(b"\xEF\xBF\xBD");
    let out = run(&["decode", "-e", "utf-8"], &bytes);
    assert_eq!(warning(&stderr(&out)), (bytes.len() as u64 - 6, 0));
    // UTF-16LE: lone surrogates, and the first error after a clean first read.
    let mut bytes = b"a\x00".repeat(CHUNK);
    bytes.extend(b"\x00\xD8".repeat(CHUNK));
    let out = run(&["decode", "-e", "utf-16le"], &bytes);
    assert_eq!(warning(&stderr(&out)), (CHUNK as u64, 2 * CHUNK as u64));
    // Shift_JIS 0xA0 (not a lead byte), to UTF-16 and to another encoding.
    let bytes = vec![0xA0u8; 2 * CHUNK + 1];
    for args in [
        &["decode", "-e", "shift_jis"][..],
        &["convert", "-f", "shift_jis", "-t", "utf-16le"],
        &["convert", "-f", "shift_jis", "-t", "gb18030"],
    ] {
        let out = run(args, &bytes);
        assert_eq!(code(&out), 0, "{args:?}");
        assert_eq!(warning(&stderr(&out)), (bytes.len() as u64, 0), "{args:?}");
    }
}

#[test]
fn no_index_maps_to_the_replacement_character() {
    // What the CLI's error count relies on: only UTF-8, UTF-16 and gb18030's ranges can
    // decode input to U+FFFD that is not an error, so an input in another encoding holds
    // no U+FFFD of its own.
    let dir = repo_root().join("data/whatwg");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.starts_with("index-") || name == "index-gb18030-ranges.txt" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let code_point = line.split_whitespace().nth(1).unwrap();
            assert_ne!(code_point, "0xFFFD", "{name}: {line}");
        }
        read += 1;
    }
    assert!(read >= 30, "{read} index files in {}", dir.display());
}
