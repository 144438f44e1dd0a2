//! Shared helpers for the conformance tests (differential, streaming, vectors).
//!
//! Every test binary includes this module with `mod common;` and uses only part of it.
#![allow(dead_code, unused_imports)]

mod contract;
pub use contract::*;
pub mod spec;
#[path = "../support/mod.rs"]
mod support;
pub use support::*;

use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status,
};

/// The encoding_rs encoding with the same name: the differential oracle.
pub fn oracle(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    // ASCII-lowercasing an encoding's name yields one of its labels (spec, "Names and labels").
    encoding_rs::Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes())
        .unwrap_or_else(|| panic!("encoding_rs has no encoding named {}", enc.name()))
}

pub fn dopts(fatal: bool, bom: BomHandling) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
        bom,
    }
}

pub fn emode(fatal: bool) -> EncoderErrorMode {
    if fatal {
        EncoderErrorMode::Fatal
    } else {
        EncoderErrorMode::Html
    }
}

/// Is the encoding one that has its own encoder (not replacement, not UTF-16BE/LE)?
pub fn has_own_encoder(enc: &'static Encoding) -> bool {
    enc.output_encoding() == enc
}

/// Write the html-mode character reference for `c` (spec, "process an item", "html").
pub fn ncr(c: char) -> String {
    format!("&#{};", c as u32)
}

// ---------------------------------------------------------------------------------------------
// textcodec drivers (one-shot, with buffers of exactly the advertised worst-case size)
// ---------------------------------------------------------------------------------------------

/// One-shot replacement-mode decode to UTF-8 into a dst of exactly `max_utf8_buffer_length`.
/// Returns the output and the `replaced` flag; panics (with context) on API-contract breaches.
pub fn tc_decode_utf8(enc: &'static Encoding, src: &[u8], bom: BomHandling) -> (String, bool) {
    let mut d = enc.new_decoder(dopts(false, bom));
    let need = d
        .max_utf8_buffer_length(src.len())
        .expect("max_utf8_buffer_length overflow on a small input");
    let mut dst = vec![0u8; need];
    let p = d.decode_to_utf8(src, &mut dst, true).unwrap_or_else(|e| {
        panic!(
            "{} {}: replacement mode returned Err({e:?})",
            enc.name(),
            hex(src)
        )
    });
    assert_eq!(
        p.status,
        Status::InputEmpty,
        "{} {}: dst of max_utf8_buffer_length ({need}) gave OutputFull",
        enc.name(),
        hex(src)
    );
    assert_eq!(p.read, src.len(), "{} {}: read", enc.name(), hex(src));
    dst.truncate(p.written);
    let s = String::from_utf8(dst)
        .unwrap_or_else(|_| panic!("{} {}: output is not UTF-8", enc.name(), hex(src)));
    (s, p.replaced)
}

pub fn tc_decode_utf16(enc: &'static Encoding, src: &[u8], bom: BomHandling) -> (Vec<u16>, bool) {
    let mut d = enc.new_decoder(dopts(false, bom));
    let need = d
        .max_utf16_buffer_length(src.len())
        .expect("max_utf16_buffer_length overflow on a small input");
    let mut dst = vec![0u16; need];
    let p = d.decode_to_utf16(src, &mut dst, true).unwrap_or_else(|e| {
        panic!(
            "{} {}: replacement mode returned Err({e:?})",
            enc.name(),
            hex(src)
        )
    });
    assert_eq!(
        p.status,
        Status::InputEmpty,
        "{} {}: dst of max_utf16_buffer_length ({need}) gave OutputFull",
        enc.name(),
        hex(src)
    );
    assert_eq!(p.read, src.len(), "{} {}: read", enc.name(), hex(src));
    dst.truncate(p.written);
    (dst, p.replaced)
}

/// Fatal-mode decode to UTF-8, resuming after each error with `src[read..]` (always `last: true`),
/// returning the output with a U+FFFD inserted where each error was reported, and the error count.
/// By the API contract, this equals the replacement-mode output exactly.
pub fn tc_decode_fatal_resumed_utf8(
    enc: &'static Encoding,
    src: &[u8],
    bom: BomHandling,
) -> (String, usize) {
    let mut d = enc.new_decoder(dopts(true, bom));
    let mut out = String::new();
    let mut errors = 0;
    let mut pos = 0;
    // A fixed-size dst (at least one worst-case step), looping on OutputFull.
    let mut dst = vec![0u8; 4096];
    loop {
        match d.decode_to_utf8(&src[pos..], &mut dst, true) {
            Ok(p) => {
                assert!(
                    !p.replaced,
                    "{} {}: fatal mode set replaced",
                    enc.name(),
                    hex(src)
                );
                out.push_str(std::str::from_utf8(&dst[..p.written]).expect("UTF-8 output"));
                pos += p.read;
                if p.status == Status::InputEmpty {
                    assert_eq!(pos, src.len());
                    return (out, errors);
                }
                assert!(
                    p.read > 0 || p.written > 0,
                    "{}: no progress with a 4096-byte dst",
                    enc.name()
                );
            }
            Err(e) => {
                assert!(
                    e.read <= src.len() - pos,
                    "{} {}: Err.read too large",
                    enc.name(),
                    hex(src)
                );
                out.push_str(std::str::from_utf8(&dst[..e.written]).expect("UTF-8 output"));
                out.push('\u{FFFD}');
                errors += 1;
                pos += e.read;
                assert!(
                    errors <= src.len() + 1,
                    "{} {}: more errors than input bytes (stuck?)",
                    enc.name(),
                    hex(src)
                );
            }
        }
    }
}

/// One-shot html-mode encode of `src` with a dst of exactly `max_buffer_length_from_utf8`.
pub fn tc_encode_utf8(enc: &'static Encoding, src: &str) -> (Vec<u8>, bool) {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let need = e.max_buffer_length_from_utf8(src.len()).expect("overflow");
    let mut dst = vec![0u8; need];
    let p = e
        .encode_from_utf8(src, &mut dst, true)
        .unwrap_or_else(|err| panic!("{}: html mode returned Err({err:?})", enc.name()));
    assert_eq!(
        p.status,
        Status::InputEmpty,
        "{} {}: dst of max_buffer_length_from_utf8 ({need}) gave OutputFull",
        enc.name(),
        cps(&src.chars().take(20).collect::<String>())
    );
    assert_eq!(p.read, src.len());
    dst.truncate(p.written);
    (dst, p.replaced)
}

/// Fatal-mode encode, resuming after each error; the returned bytes have the html reference of
/// each reported unmappable inserted where it was reported (so they equal the html-mode output).
pub fn tc_encode_fatal_resumed_utf8(enc: &'static Encoding, src: &str) -> (Vec<u8>, Vec<char>) {
    let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
    let mut out = Vec::new();
    let mut errs = Vec::new();
    let mut pos = 0;
    let mut dst = vec![0u8; 4096];
    loop {
        match e.encode_from_utf8(&src[pos..], &mut dst, true) {
            Ok(p) => {
                assert!(!p.replaced, "{}: fatal mode set replaced", enc.name());
                out.extend_from_slice(&dst[..p.written]);
                pos += p.read;
                if p.status == Status::InputEmpty {
                    assert_eq!(pos, src.len());
                    return (out, errs);
                }
                assert!(
                    p.read > 0 || p.written > 0,
                    "{}: no progress with a 4096-byte dst",
                    enc.name()
                );
            }
            Err(err) => {
                assert!(
                    err.read > 0 && err.read <= src.len() - pos,
                    "{}: Err.read {err:?}",
                    enc.name()
                );
                out.extend_from_slice(&dst[..err.written]);
                out.extend_from_slice(ncr(err.unmappable).as_bytes());
                errs.push(err.unmappable);
                pos += err.read;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// encoding_rs drivers
// ---------------------------------------------------------------------------------------------

pub fn er_decode_utf8(enc: &'static Encoding, src: &[u8]) -> (String, bool) {
    let mut d = oracle(enc).new_decoder_without_bom_handling();
    let mut dst = vec![0u8; d.max_utf8_buffer_length(src.len()).unwrap()];
    let (r, read, written, had) = d.decode_to_utf8(src, &mut dst, true);
    assert_eq!(r, encoding_rs::CoderResult::InputEmpty);
    assert_eq!(read, src.len());
    dst.truncate(written);
    (String::from_utf8(dst).unwrap(), had)
}

pub fn er_decode_utf16(enc: &'static Encoding, src: &[u8]) -> (Vec<u16>, bool) {
    let mut d = oracle(enc).new_decoder_without_bom_handling();
    let mut dst = vec![0u16; d.max_utf16_buffer_length(src.len()).unwrap()];
    let (r, read, written, had) = d.decode_to_utf16(src, &mut dst, true);
    assert_eq!(r, encoding_rs::CoderResult::InputEmpty);
    assert_eq!(read, src.len());
    dst.truncate(written);
    (dst, had)
}

/// encoding_rs html-mode encode (NCRs for unmappables), to the output encoding of `enc`.
pub fn er_encode_utf8(enc: &'static Encoding, src: &str) -> (Vec<u8>, bool) {
    let mut e = oracle(enc).new_encoder();
    let mut out = Vec::with_capacity(src.len() * 2 + 16);
    let mut buf = vec![0u8; 4096];
    let mut pos = 0;
    let mut any = false;
    loop {
        let (r, read, written, had) = e.encode_from_utf8(&src[pos..], &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        any |= had;
        if r == encoding_rs::CoderResult::InputEmpty {
            return (out, any);
        }
    }
}

pub fn er_encode_utf16(enc: &'static Encoding, src: &[u16]) -> (Vec<u8>, bool) {
    let mut e = oracle(enc).new_encoder();
    let mut out = Vec::with_capacity(src.len() * 3 + 16);
    let mut buf = vec![0u8; 4096];
    let mut pos = 0;
    let mut any = false;
    loop {
        let (r, read, written, had) = e.encode_from_utf16(&src[pos..], &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        any |= had;
        if r == encoding_rs::CoderResult::InputEmpty {
            return (out, any);
        }
    }
}

/// encoding_rs fatal-mode encode, resumed after each unmappable, NCRs inserted at the errors.
pub fn er_encode_fatal_resumed_utf8(enc: &'static Encoding, src: &str) -> (Vec<u8>, Vec<char>) {
    let mut e = oracle(enc).new_encoder();
    let mut out = Vec::new();
    let mut errs = Vec::new();
    let mut buf = vec![0u8; 4096];
    let mut pos = 0;
    loop {
        let (r, read, written) =
            e.encode_from_utf8_without_replacement(&src[pos..], &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        match r {
            encoding_rs::EncoderResult::InputEmpty => return (out, errs),
            encoding_rs::EncoderResult::OutputFull => {}
            encoding_rs::EncoderResult::Unmappable(c) => {
                out.extend_from_slice(ncr(c).as_bytes());
                errs.push(c);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------------------------

/// The corpus language whose text suits an encoding (for realistic legacy-encoded inputs).
pub fn corpus_language(enc: &'static Encoding) -> &'static str {
    match enc.name() {
        "Shift_JIS" | "EUC-JP" | "ISO-2022-JP" => "ja",
        "GBK" | "gb18030" => "zh_cn",
        "Big5" => "zh_tw",
        "EUC-KR" => "ko",
        "IBM866" | "ISO-8859-5" | "KOI8-R" | "KOI8-U" | "windows-1251" | "x-mac-cyrillic" => "ru",
        "ISO-8859-7" | "windows-1253" => "el",
        "ISO-8859-8" | "ISO-8859-8-I" | "windows-1255" => "he",
        "ISO-8859-6" | "windows-1256" => "ar",
        "windows-874" => "th",
        "windows-1258" => "vi",
        "windows-1254" | "ISO-8859-3" => "tr",
        "ISO-8859-2" | "windows-1250" | "ISO-8859-16" => "cs",
        "ISO-8859-4" | "ISO-8859-10" | "ISO-8859-13" | "windows-1257" => "de",
        "ISO-8859-14" | "ISO-8859-15" | "macintosh" => "fr",
        "windows-1252" => "pt",
        _ => "en",
    }
}

/// Up to `max_chars` characters of `text` starting near `start` (on a char boundary).
pub fn text_window(text: &str, start: usize, max_bytes: usize) -> &str {
    let mut s = start.min(text.len());
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = (s + max_bytes).min(text.len());
    while !text.is_char_boundary(e) {
        e -= 1;
    }
    &text[s..e]
}

/// Encode text in `enc` with encoding_rs (html mode); UTF-16BE/LE by hand.
pub fn legacy_bytes(enc: &'static Encoding, text: &str) -> Vec<u8> {
    match enc.name() {
        "UTF-16LE" => text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect(),
        "UTF-16BE" => text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect(),
        _ => er_encode_utf8(enc, text).0,
    }
}

// ---------------------------------------------------------------------------------------------
// Error-dense input
// ---------------------------------------------------------------------------------------------

/// Malformed (or boundary) sequences typical of `enc`'s decoder: lead bytes before ASCII,
/// truncated sequences, prefixes the decoder restores, lone surrogates, escapes that select
/// nothing, and a few valid sequences that take the general paths (four-byte, two code points).
fn error_atoms(enc: &'static Encoding) -> &'static [&'static [u8]] {
    match enc.name() {
        "UTF-8" => &[
            b"\x80",
            b"\xE3\x81",
            b"\xE3\x81A",
            b"\xF0\x90\x80",
            b"\xF0\x90\x80 ",
            b"\xED\xA0\x80",
            b"\xC0\x80",
            b"\xE0\x80\x80",
            b"\xF4\x90\x80\x80",
            b"\xF5",
            b"\xF0\x9F\x98\x80",
            b"\xC3",
        ],
        "UTF-16LE" => &[
            b"\x00\xD8",
            b"\x00\xDC",
            b"\x00\xD8A\x00",
            b"\x3D\xD8\x00\xDE",
            b"\x00\xD8\x00\xD8",
            b"A",
            b"\xFF\xFE",
        ],
        "UTF-16BE" => &[
            b"\xD8\x00",
            b"\xDC\x00",
            b"\xD8\x00\x00A",
            b"\xD8\x3D\xDE\x00",
            b"\xD8\x00\xD8\x00",
            b"A",
            b"\xFE\xFF",
        ],
        "gb18030" | "GBK" => &[
            b"\x81\x30\x81\x20",
            b"\x81\x30\x20",
            b"\x81\x30\x81",
            b"\x81\x30",
            b"\x81\x20",
            b"\x81\x7F",
            b"\x81\x30\x81\x30",
            b"\x84\x31\xA4\x39",
            b"\x84\x31\xA5\x30",
            b"\xE3\x32\x9A\x35",
            b"\xE3\x32\x9A\x36",
            b"\xFE\x39\xFE\x39",
            b"\x90\x30\x81\x30",
            b"\xA2\xE3",
            b"\xFF",
            b"\x80",
        ],
        "Big5" => &[
            b"\xA4\x20",
            b"\xA4\x7F",
            b"\xA4\xA0",
            b"\x80",
            b"\xFF",
            b"\x87\x40",
            b"\x88\x62",
            b"\x88\x64",
            b"\x88\xA3",
            b"\x88\xA5",
            b"\xA4",
        ],
        "Shift_JIS" => &[
            b"\xA0",
            b"\x82\x20",
            b"\x82\x7F",
            b"\x82\xFD",
            b"\xF0\x40",
            b"\xFD",
            b"\x80",
            b"\xEF\x40",
            b"\x82",
        ],
        "EUC-JP" => &[
            b"\xA4\x20",
            b"\x8E\x20",
            b"\x8E\xE0",
            b"\x8F\xA1\x20",
            b"\x8F\xA2\xAF",
            b"\x8F\xB0\xA1",
            b"\x8F\x20",
            b"\x8F\xA1\xA1",
            b"\x80",
            b"\xFF",
            b"\xA4",
            b"\x8F\xA1",
        ],
        "EUC-KR" => &[
            b"\xB0\x20",
            b"\x80",
            b"\xFF",
            b"\xC9\x41",
            b"\xB0\x7F",
            b"\xB0",
        ],
        "ISO-2022-JP" => &[
            b"\x1B(Z",
            b"\x1B(",
            b"\x1B$",
            b"\x1BA",
            b"\x1B$B",
            b"\x1B$@",
            b"\x1B(B",
            b"\x1B(J",
            b"\x1B(I",
            b"\x1B$B\x1B(B",
            b"\x0E",
            b"\x0F",
            b"\x80",
            b"\x24\x22",
            b"\x24\x1B",
            b"\x21",
            b"\x5C\x7E",
        ],
        _ => &[
            b"\x80", b"\xFF", b"\x81", b"\x8D", b"\x90", b"\x9D", b"\xA0",
        ],
    }
}

/// A long input for `enc` where malformed sequences come every few bytes: stretches of the
/// encoding's text (cut anywhere), single bytes of any value, and [`error_atoms`], with
/// `target` bytes or a few more.
pub fn error_dense_input(
    enc: &'static Encoding,
    rng: &mut Rng,
    text: &str,
    target: usize,
) -> Vec<u8> {
    let valid = legacy_bytes(enc, text_window(text, rng.below(text.len()), 4000));
    let atoms = error_atoms(enc);
    // How far apart the errors are: from every byte to every few dozen bytes.
    let stretch = [2, 8, 40][rng.below(3)];
    let mut out = Vec::with_capacity(target + 64);
    while out.len() < target {
        match rng.below(8) {
            0..=2 => {
                let start = rng.below(valid.len());
                let end = (start + rng.range(1, stretch)).min(valid.len());
                out.extend_from_slice(&valid[start..end]);
            }
            3 => out.push(rng.byte()),
            4 => out.push(rng.range(0x20, 0x7E) as u8),
            _ => out.extend_from_slice(atoms[rng.below(atoms.len())]),
        }
    }
    out
}
