//! The conformance comparison with encoding_rs, run under every SIMD dispatch level the CPU
//! supports (scalar, SSE2 and AVX2 on x86-64; scalar and NEON on aarch64): every level must
//! give identical results.
//!
//! At each level the streaming contract is checked too (tests/common/contract.rs): every
//! buffer-writing API (Decoder to UTF-8 and UTF-16, Encoder from UTF-8 and UTF-16,
//! TextEncoder's encode_into and encode_utf16_into, DecodeReader::read) gets sentinel-filled
//! buffers of random sizes and must leave every unit past what it reports as written
//! untouched; fatal errors are where encoding_rs puts them, in every BOM handling, with random
//! chunking.
//!
//! This is its own test binary with a single test, because the dispatch level is global.

mod common;

use std::io::Read;
use textcodec::dispatch::{detected_level, native_levels, set_level, Level};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status, TextEncoder,
};

fn corpus_text() -> String {
    let mut s = String::new();
    for f in [
        "ru.txt",
        "ja.txt",
        "zh_tw.txt",
        "ko.txt",
        "ar.txt",
        "el.txt",
        "th.txt",
        "en.html",
        "pt.txt",
        "de.txt",
        "fr.txt",
        "cs.txt",
        "tr.txt",
    ] {
        // A slice of each, cut at a character boundary.
        s.push_str(common::prefix(&common::corpus_file(f), 6000));
    }
    s.push_str("😀 𝄞 \u{FEFF} \u{10FFFF} ¥‾−ｱ");
    s
}

fn decode_tc(enc: &'static Encoding, bytes: &[u8], chunk: usize) -> (String, Vec<u16>) {
    let opts = DecoderOptions {
        bom: BomHandling::Keep,
        ..Default::default()
    };
    let mut d = enc.new_decoder(opts);
    let mut s = String::new();
    for (k, c) in bytes.chunks(chunk).enumerate() {
        d.decode_to_string(c, &mut s, (k + 1) * chunk >= bytes.len())
            .unwrap();
    }
    let mut d = enc.new_decoder(opts);
    let mut u = vec![0u16; d.max_utf16_buffer_length(bytes.len()).unwrap()];
    let p = d.decode_to_utf16(bytes, &mut u, true).unwrap();
    assert_eq!(p.status, Status::InputEmpty);
    u.truncate(p.written);
    (s, u)
}

fn encode_tc(enc: &'static Encoding, text: &str) -> (Vec<u8>, Vec<u8>) {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut a = vec![0u8; e.max_buffer_length_from_utf8(text.len()).unwrap()];
    let p = e.encode_from_utf8(text, &mut a, true).unwrap();
    a.truncate(p.written);
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut b = vec![0u8; e.max_buffer_length_from_utf16(units.len()).unwrap()];
    let p = e.encode_from_utf16(&units, &mut b, true).unwrap();
    b.truncate(p.written);
    (a, b)
}

#[test]
fn every_dispatch_level_matches_encoding_rs() {
    let text = corpus_text();
    let best = detected_level();
    // The levels of the architecture compiled for; a level of another one gives Scalar.
    let native = native_levels();
    let foreign: Vec<Level> = [
        Level::Scalar,
        Level::Sse2,
        Level::Avx2,
        Level::Avx512,
        Level::Neon,
    ]
    .into_iter()
    .filter(|l| !native.contains(l))
    .collect();
    assert!(native.contains(&best));
    if cfg!(target_arch = "x86_64") {
        assert!(best >= Level::Sse2, "SSE2 is the x86-64 baseline");
        assert_eq!(foreign, [Level::Neon]);
    }
    if cfg!(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )) {
        assert_eq!(best, Level::Neon, "NEON is enabled for this target");
    }
    for &l in &foreign {
        assert_eq!(set_level(l), Level::Scalar, "{l:?}");
    }
    let levels = common::dispatch_levels();
    for &level in &levels {
        assert_eq!(set_level(level), level);
        let mut rng = common::Rng::new(0x5EED_0000 + level as u64);
        for &enc in Encoding::all() {
            let er = encoding_rs::Encoding::for_label(enc.name().as_bytes()).unwrap();
            // Valid input made by encoding_rs (UTF-16 by hand: encoding_rs has no UTF-16 encoder).
            let mut bytes = match enc.name() {
                "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                _ => er.encode(&text).0.into_owned(),
            };
            for round in 0..4 {
                if round > 0 {
                    // Damage: random bytes at random places.
                    for _ in 0..(round * 7) {
                        let at = rng.below(bytes.len());
                        bytes[at] = rng.byte();
                    }
                }
                let (want, _) = er.decode_without_bom_handling(&bytes);
                let want16: Vec<u16> = want.encode_utf16().collect();
                let chunk = 1 + rng.below(700);
                let (got, got16) = decode_tc(enc, &bytes, chunk);
                assert!(
                    got == want,
                    "{level:?} {} decode to UTF-8 round {round}",
                    enc.name()
                );
                assert!(
                    got16 == want16,
                    "{level:?} {} decode to UTF-16 round {round}",
                    enc.name()
                );
            }
            let out = enc.output_encoding();
            let er_out = encoding_rs::Encoding::for_label(out.name().as_bytes()).unwrap();
            let (want, _, _) = er_out.encode(&text);
            let (a, b) = encode_tc(enc, &text);
            assert!(a == want[..], "{level:?} {} encode from UTF-8", enc.name());
            assert!(b == want[..], "{level:?} {} encode from UTF-16", enc.name());
        }
        let mut f = common::Failures::new(format!("{level:?}: the streaming contract"));
        let mut rng = common::Rng::new(0xC0_27AC7 + level as u64);
        for &enc in Encoding::all() {
            contract_decode(enc, &text, &mut rng, &mut f);
            contract_encode(enc, &text, &mut rng, &mut f);
        }
        contract_text_encoder(&text, &mut rng, &mut f);
        f.finish();
    }
    set_level(best);
}

/// A window of `text` of up to `max` bytes at a random place.
fn window<'a>(text: &'a str, rng: &mut common::Rng, max: usize) -> &'a str {
    let len = rng.range(0, max);
    common::text_window(text, rng.below(text.len()), len)
}

/// Decoder (UTF-8 and UTF-16, both modes, every BOM handling) and DecodeReader::read, on text
/// in `enc` made by encoding_rs (damaged at random places, sometimes after the beginning of a
/// BOM), split at random into calls with random dst sizes.
fn contract_decode(
    enc: &'static Encoding,
    text: &str,
    rng: &mut common::Rng,
    f: &mut common::Failures,
) {
    for round in 0..4 {
        let mut bytes = common::legacy_bytes(enc, window(text, rng, 2500));
        for _ in 0..round * 3 {
            if !bytes.is_empty() {
                let at = rng.below(bytes.len());
                bytes[at] = rng.byte();
            }
        }
        if rng.chance(3) {
            const PREFIXES: [&[u8]; 6] = [
                b"\xEF",
                b"\xEF\xBB",
                b"\xFE",
                b"\xFF",
                b"\xEF\xBB\xBF",
                b"\xFF\xFE",
            ];
            let prefix = *rng.pick(&PREFIXES);
            bytes.splice(0..0, prefix.iter().copied());
        }
        let bom = [BomHandling::Sniff, BomHandling::Strip, BomHandling::Keep][round % 3];
        let want = match common::expected_fatal_decode(enc, bom, &bytes) {
            Ok(want) => want,
            Err(e) => {
                f.push(e);
                continue;
            }
        };
        for fatal in [false, true] {
            let chunks = common::chunk_plan(rng, bytes.len(), 700, |_| true);
            let policy = common::Dst::Random(rng.next_u64());
            let shown = if bytes.len() <= 300 {
                common::hex(&bytes)
            } else {
                format!("{} bytes", bytes.len())
            };
            let ctx = format!(
                "{} {bom:?} fatal={fatal} {shown}, chunks {chunks:?}, {policy:?}",
                enc.name(),
            );
            for r in [
                common::stream_decode::<u8>(enc, bom, fatal, &bytes, &chunks, policy),
                common::stream_decode::<u16>(enc, bom, fatal, &bytes, &chunks, policy),
            ] {
                let r = r.and_then(|t| {
                    if t.text != want.text {
                        return Err("the text differs from encoding_rs's".to_string());
                    }
                    if fatal {
                        common::compare_errors(&t.errors, &want.errors)?;
                    }
                    Ok(())
                });
                if let Err(e) = r {
                    f.push(format!("{ctx}: {e}"));
                }
            }
        }
        // DecodeReader::read into sentinel-filled buffers of random sizes.
        let options = DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom,
        };
        let mut reader = textcodec::io::DecodeReader::with_options(&bytes[..], enc, options);
        let mut got = Vec::new();
        for call in 0.. {
            let sentinel = common::sentinel8(call);
            let mut buf = vec![sentinel; rng.range(0, 90)];
            match reader.read(&mut buf) {
                Ok(0) if !buf.is_empty() => break,
                Ok(n) => {
                    if let Err(e) = common::check_tail(&buf, n, sentinel) {
                        f.push(format!("{} {bom:?} DecodeReader::read: {e}", enc.name()));
                        break;
                    }
                    got.extend_from_slice(&buf[..n]);
                }
                Err(e) => {
                    f.push(format!("{} DecodeReader::read: {e}", enc.name()));
                    break;
                }
            }
        }
        let replaced: String = want.text.clone();
        if got != replaced.as_bytes() {
            f.push(format!(
                "{} {bom:?} DecodeReader::read: the text differs from encoding_rs's",
                enc.name()
            ));
        }
    }
}

/// Encoder from UTF-8 and from UTF-16 (lone surrogates included), both modes, on text in many
/// scripts (so that most encoders meet characters they lack), split at random into calls with
/// random dst sizes.
fn contract_encode(
    enc: &'static Encoding,
    text: &str,
    rng: &mut common::Rng,
    f: &mut common::Failures,
) {
    for _ in 0..3 {
        let s = window(text, rng, 2000);
        let mut units: Vec<u16> = s.encode_utf16().collect();
        if rng.chance(2) && !units.is_empty() {
            let at = rng.below(units.len());
            units.insert(at, 0xD800 + rng.below(0x800) as u16);
        }
        let want8 = common::er_fatal_encode(enc, common::Either::Utf8(s));
        let want16 = common::er_fatal_encode(enc, common::Either::Utf16(&units));
        for fatal in [false, true] {
            let policy = common::Dst::Random(rng.next_u64());
            let chunks = common::chunk_plan(rng, s.len(), 700, |i| s.is_char_boundary(i));
            let r = common::stream_encode(enc, fatal, &common::Utf8In(s), &chunks, policy);
            check_encoded(
                r,
                &want8,
                fatal,
                || {
                    format!(
                        "{} from UTF-8 fatal={fatal} chunks {chunks:?} {policy:?}",
                        enc.name()
                    )
                },
                f,
            );
            let chunks = common::chunk_plan(rng, units.len(), 700, |_| true);
            let r = common::stream_encode(enc, fatal, &common::Utf16In(&units), &chunks, policy);
            check_encoded(
                r,
                &want16,
                fatal,
                || {
                    format!(
                        "{} from UTF-16 fatal={fatal} chunks {chunks:?} {policy:?}",
                        enc.name()
                    )
                },
                f,
            );
        }
    }
}

fn check_encoded(
    r: Result<common::Trace<Vec<u8>>, String>,
    want: &common::Expected<Vec<u8>>,
    fatal: bool,
    ctx: impl Fn() -> String,
    f: &mut common::Failures,
) {
    let r = r.and_then(|t| {
        if t.text != want.text {
            return Err("the bytes differ from encoding_rs's".to_string());
        }
        if fatal {
            common::compare_errors(&t.errors, &want.errors)?;
        }
        Ok(())
    });
    if let Err(e) = r {
        f.push(format!("{}: {e}", ctx()));
    }
}

/// TextEncoder's encode_into and encode_utf16_into, repeatedly into sentinel-filled buffers of
/// random sizes: the output, never a part of a character, nothing written past `written`.
fn contract_text_encoder(text: &str, rng: &mut common::Rng, f: &mut common::Failures) {
    let e = TextEncoder::new();
    for round in 0..60 {
        let s = window(text, rng, 1500);
        let mut units: Vec<u16> = s.encode_utf16().collect();
        if round % 2 == 1 && !units.is_empty() {
            let at = rng.below(units.len());
            units.insert(at, 0xD800 + rng.below(0x800) as u16);
        }
        let want16 = String::from_utf16_lossy(&units);
        let (mut out, mut pos) = (Vec::new(), 0);
        for call in 0.. {
            if pos == s.len() {
                break;
            }
            let sentinel = common::sentinel8(call);
            let mut dst = vec![sentinel; rng.range(0, 80)];
            let r = e.encode_into(&s[pos..], &mut dst);
            if let Err(m) = common::check_tail(&dst, r.written, sentinel) {
                f.push(format!(
                    "encode_into {} bytes, dst {}: {m}",
                    s.len() - pos,
                    dst.len()
                ));
                return;
            }
            out.extend_from_slice(&dst[..r.written]);
            pos += r.read;
            assert!(call < 10 * s.len() + 100, "encode_into makes no progress");
        }
        if out != s.as_bytes() {
            f.push("encode_into: the bytes differ from the text's".to_string());
        }
        let (mut out, mut pos) = (Vec::new(), 0);
        for call in 0.. {
            if pos == units.len() {
                break;
            }
            let sentinel = common::sentinel8(call);
            let mut dst = vec![sentinel; rng.range(0, 80)];
            let r = e.encode_utf16_into(&units[pos..], &mut dst);
            if let Err(m) = common::check_tail(&dst, r.written, sentinel) {
                f.push(format!(
                    "encode_utf16_into {} units, dst {}: {m}",
                    units.len() - pos,
                    dst.len()
                ));
                return;
            }
            out.extend_from_slice(&dst[..r.written]);
            pos += r.read;
            assert!(
                call < 10 * units.len() + 100,
                "encode_utf16_into makes no progress"
            );
        }
        if out != want16.as_bytes() {
            f.push("encode_utf16_into: the bytes differ from the standard library's".to_string());
        }
    }
}
