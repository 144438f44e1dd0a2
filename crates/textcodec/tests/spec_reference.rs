//! The spec transcription (tests/common/spec.rs) against textcodec: an independent oracle,
//! run on exhaustive short inputs and random soups.

mod common;

use common::spec::{spec_decode, spec_encode, spec_fatal_steps};
use common::{cps, dopts, hex, Failures, Rng};
use textcodec::{BomHandling, EncoderErrorMode, Encoding};

/// textcodec's fatal-mode steps, one call per error with a roomy dst.
fn tc_fatal_steps(enc: &'static Encoding, bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
    let mut dst = vec![0u8; 4 * bytes.len() + 16];
    let mut pos = 0;
    let mut steps = Vec::new();
    while let Err(e) = d.decode_to_utf8(&bytes[pos..], &mut dst, true) {
        steps.push((e.read, e.written));
        pos += e.read;
        assert!(steps.len() <= bytes.len() + 1, "stuck");
    }
    steps
}

// ------------------------------------------------------------------------------------------------
// Tests
// ------------------------------------------------------------------------------------------------

fn compare_decode(enc: &'static Encoding, bytes: &[u8], f: &mut Failures) {
    let (want, want_errors) = spec_decode(enc, bytes);
    let (got, replaced) = common::tc_decode_utf8(enc, bytes, BomHandling::Keep);
    if got != want || replaced != (want_errors > 0) {
        f.push(format!(
            "{} {}: textcodec {} (replaced={replaced}), spec {} ({want_errors} errors)",
            enc.name(),
            hex(bytes),
            cps(&got),
            cps(&want)
        ));
        return;
    }
    if want_errors > 0 {
        let (want_steps, got_steps) = (spec_fatal_steps(enc, bytes), tc_fatal_steps(enc, bytes));
        if want_steps != got_steps {
            f.push(format!(
                "{} {}: fatal Err (read, written) steps {got_steps:?}, spec {want_steps:?}",
                enc.name(),
                hex(bytes)
            ));
            return;
        }
        let (fatal, errors) = common::tc_decode_fatal_resumed_utf8(enc, bytes, BomHandling::Keep);
        if fatal != want || errors != want_errors {
            f.push(format!(
                "{} {}: fatal: {errors} errors {}, spec {want_errors} errors {}",
                enc.name(),
                hex(bytes),
                cps(&fatal),
                cps(&want)
            ));
        }
    }
}

/// Every input of up to two bytes, for every decoder, against the transcription.
#[test]
fn spec_decoders_exhaustive_short() {
    let mut f = Failures::new("spec transcription vs textcodec, 0..=2 bytes");
    for enc in Encoding::all() {
        compare_decode(enc, &[], &mut f);
        for a in 0..=255u8 {
            compare_decode(enc, &[a], &mut f);
            for b in 0..=255u8 {
                compare_decode(enc, &[a, b], &mut f);
            }
        }
    }
    f.finish();
}

/// Random soups of bytes chosen to hit leads, trails, digits, escapes, surrogates.
#[test]
fn spec_decoders_random_soup() {
    let mut f = Failures::new("spec transcription vs textcodec, soup");
    let mut rng = Rng::new(0x5BEC);
    let mut buf = Vec::new();
    for enc in Encoding::all() {
        for _ in 0..3000 {
            buf.clear();
            for _ in 0..rng.range(1, 10) {
                buf.push(match rng.below(7) {
                    0 => rng.range(0x20, 0x7E) as u8,
                    1 => rng.range(0x30, 0x39) as u8,
                    2 => rng.range(0x80, 0xA0) as u8,
                    3 => rng.range(0xA1, 0xFE) as u8,
                    4 => *rng.pick(&[0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x8E, 0x8F, 0x0E]),
                    5 => *rng.pick(&[0xD8, 0xDB, 0xDC, 0xDF, 0x00, 0xFF, 0xFE, 0xEF, 0xBB, 0xBF]),
                    _ => rng.byte(),
                });
            }
            compare_decode(enc, &buf, &mut f);
        }
    }
    f.finish();
}

/// Long error-dense inputs (malformed sequences every few bytes among the encoding's text), where
/// the driver goes on by its own steps after each error and tries the fast path again later:
/// the output and every fatal-mode error position.
#[test]
fn spec_decoders_error_dense() {
    let mut f = Failures::new("spec transcription vs textcodec, error-dense");
    let mut rng = Rng::new(0xDE45E);
    for enc in Encoding::all() {
        let text = common::corpus_text(common::corpus_language(enc));
        for _ in 0..50 {
            let len = rng.range(16, 1500);
            let bytes = common::error_dense_input(enc, &mut rng, &text, len);
            compare_decode(enc, &bytes, &mut f);
        }
    }
    f.finish();
}

/// Corpus text for each legacy encoding, decoded by both.
#[test]
fn spec_decoders_corpus() {
    let mut f = Failures::new("spec transcription vs textcodec, corpus");
    let mut rng = Rng::new(11);
    for enc in Encoding::all() {
        let text = common::corpus_text(common::corpus_language(enc));
        for _ in 0..4 {
            let w = common::text_window(&text, rng.below(text.len()), 2000);
            let bytes = common::legacy_bytes(enc, w);
            compare_decode(enc, &bytes, &mut f);
        }
    }
    f.finish();
}

/// Every BMP scalar value (and a sample of the others) through every encoder, one fresh encoder
/// each, html mode and the reported unmappables; and all of them in one stream.
#[test]
fn spec_encoders_every_bmp_scalar() {
    let mut f = Failures::new("spec transcription vs textcodec, encoders");
    for &enc in Encoding::all() {
        if !common::has_own_encoder(enc) {
            continue;
        }
        let mut stream = String::new();
        for cp in (0..=0xFFFFu32).chain((0x10000..=0x10FFFF).step_by(97)) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            stream.push(c);
            let s = c.to_string();
            let (want, want_errs) = spec_encode(enc, &s);
            let (got, replaced) = common::tc_encode_utf8(enc, &s);
            if got != want || replaced == want_errs.is_empty() {
                f.push(format!(
                    "{} U+{cp:04X}: textcodec {}, spec {}",
                    enc.name(),
                    hex(&got),
                    hex(&want)
                ));
            }
        }
        let (want, want_errs) = spec_encode(enc, &stream);
        let (got, _) = common::tc_encode_utf8(enc, &stream);
        if got != want {
            f.push(format!("{}: whole stream differs", enc.name()));
        }
        let (fatal, errs) = common::tc_encode_fatal_resumed_utf8(enc, &stream);
        if fatal != want || errs != want_errs {
            f.push(format!(
                "{}: fatal stream differs ({} vs {} errors)",
                enc.name(),
                errs.len(),
                want_errs.len()
            ));
        }
    }
    f.finish();
}

/// ISO-2022-JP state sequences against the transcription.
#[test]
fn spec_iso_2022_jp_encoder_sequences() {
    let enc = textcodec::ISO_2022_JP;
    let pool = [
        "a", "\\", "~", "\u{A5}", "\u{203E}", "\u{FF71}", "\u{FF9E}", "漢", "\u{2212}", "é",
        "\u{E}", "\u{F}", "\u{1B}", "😀", "\u{FFFD}", "\n",
    ];
    let mut rng = Rng::new(0x150);
    let mut f = Failures::new("spec transcription vs textcodec, ISO-2022-JP sequences");
    for _ in 0..5000 {
        let mut s = String::new();
        for _ in 0..rng.range(1, 7) {
            s.push_str(pool[rng.below(pool.len())]);
        }
        let (want, want_errs) = spec_encode(enc, &s);
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let mut dst = vec![0u8; 16 * s.len() + 16];
        let p = e.encode_from_utf8(&s, &mut dst, true).unwrap();
        if dst[..p.written] != want[..] {
            f.push(format!(
                "{}: textcodec {}, spec {}",
                cps(&s),
                hex(&dst[..p.written]),
                hex(&want)
            ));
        }
        let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
        let mut errs = Vec::new();
        let mut pos = 0;
        while let Err(err) = e.encode_from_utf8(&s[pos..], &mut dst, true) {
            errs.push(err.unmappable);
            pos += err.read;
        }
        if errs != want_errs {
            f.push(format!(
                "{}: fatal unmappables {errs:?}, spec {want_errs:?}",
                cps(&s)
            ));
        }
    }
    f.finish();
}

#[test]
fn transcription_self_check() {
    // A few hand-traced values, so the transcription itself is trustworthy.
    assert_eq!(
        spec_decode(textcodec::GB18030, b"\x81\x30\x81\x22"),
        ("\u{FFFD}0\u{FFFD}\"".into(), 2)
    );
    assert_eq!(spec_decode(textcodec::BIG5, b"\x88\x62").0, "\u{CA}\u{304}");
    assert_eq!(spec_decode(textcodec::UTF_8, b"\xED\xA0\x80").1, 3);
    assert_eq!(spec_decode(textcodec::ISO_2022_JP, b"\x1B(B\x1B(B").1, 1);
    assert_eq!(
        spec_decode(textcodec::UTF_16LE, b"\x00\xD8a\x00").0,
        "\u{FFFD}a"
    );
    assert_eq!(
        spec_decode(textcodec::REPLACEMENT, b"abc"),
        ("\u{FFFD}".into(), 1)
    );
    assert_eq!(
        spec_encode(textcodec::ISO_2022_JP, "\u{A5}").0,
        b"\x1B(J\x5C\x1B(B"
    );
    assert_eq!(spec_encode(textcodec::BIG5, "\u{2550}").0, b"\xF9\xF9");
    assert_eq!(spec_encode(textcodec::SHIFT_JIS, "\u{2170}").0, b"\xFA\x40");
    assert_eq!(
        spec_encode(textcodec::GB18030, "\u{E7C7}").0,
        b"\x81\x35\xF4\x37"
    );
    assert_eq!(
        spec_encode(textcodec::GB18030, "\u{10FFFF}").0,
        b"\xE3\x32\x9A\x35"
    );
    assert_eq!(spec_encode(textcodec::GBK, "\u{80}").1, vec!['\u{80}']);
    let _ = dopts(false, BomHandling::Keep);
}

/// gb18030's four-byte sequences (index gb18030 ranges, pointer 7457, the GB18030-2022
/// handling) against the transcription: every [81-FE][30-39][81-FE][30-39], and bad fourth
/// bytes for a few leads.
#[test]
fn spec_gb18030_four_byte_exhaustive() {
    let mut f = Failures::new("spec transcription vs textcodec, gb18030 four bytes");
    for a in 0x81..=0xFEu8 {
        for b in 0x30..=0x39u8 {
            for c in 0x81..=0xFEu8 {
                for d in 0x30..=0x39u8 {
                    compare_decode(textcodec::GB18030, &[a, b, c, d], &mut f);
                }
            }
        }
    }
    for a in [0x81u8, 0x84, 0xE3, 0xFE] {
        for c in 0x80..=0xFFu8 {
            for d in 0..=255u8 {
                compare_decode(textcodec::GB18030, &[a, 0x35, c, d], &mut f);
            }
        }
    }
    f.finish();
}

/// EUC-JP three-byte sequences led by 0x8F (JIS X 0212) and 0x8E.
#[test]
fn spec_euc_jp_three_byte_exhaustive() {
    let mut f = Failures::new("spec transcription vs textcodec, EUC-JP three bytes");
    for lead in [0x8Fu8, 0x8E] {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                compare_decode(textcodec::EUC_JP, &[lead, b, c], &mut f);
            }
        }
    }
    f.finish();
}

/// ISO-2022-JP: every two bytes after each escape sequence.
#[test]
fn spec_iso_2022_jp_after_escapes() {
    let mut f = Failures::new("spec transcription vs textcodec, ISO-2022-JP escapes");
    let escapes: [&[u8]; 7] = [
        b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B$@", b"\x1B$B", b"\x1B", b"\x1B$",
    ];
    let mut buf = Vec::new();
    for esc in escapes {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                buf.clear();
                buf.extend_from_slice(esc);
                buf.extend_from_slice(&[b, c]);
                compare_decode(textcodec::ISO_2022_JP, &buf, &mut f);
            }
        }
    }
    f.finish();
}
