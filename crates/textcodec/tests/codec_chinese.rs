//! The Chinese codecs: GBK, gb18030 and Big5.
//!
//! - Differential against encoding_rs (dev-dependency only) over every 1- and 2-byte input,
//!   every gb18030 input of the form [81-FE][30-39][81-FE][30-39], a large set of random
//!   inputs over an alphabet of interesting bytes, and every Unicode scalar value through the
//!   encoders. Where encoding_rs and the spec text disagree, the spec wins: those inputs are in
//!   the named lists `DECODE_SPEC_OVERRIDES` / `ENCODE_SPEC_OVERRIDES`, excluded from the
//!   comparison and asserted against a hand trace of the spec in `spec_overrides_*`.
//! - Hand-written vectors for the traps (restores, end-of-queue, special pointers and rows).
//! - Streaming: byte-by-byte input and tiny output buffers give the same result as one call.

mod support;
use support::{cps, hex, Failures, Rng};

use encoding_rs::{CoderResult, DecoderResult, EncoderResult};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status, BIG5,
    GB18030, GBK,
};

// ---------------------------------------------------------------------------------------------
// Spec-over-oracle lists
// ---------------------------------------------------------------------------------------------

/// Decoder inputs on which encoding_rs 0.8.44 departs from the spec text: (encoding name,
/// input, the spec's replacement-mode output, spec reference). Excluded from the differential
/// comparison; `spec_overrides_decode` asserts the spec output (and that encoding_rs still
/// differs, so a stale entry is noticed).
///
/// Empty: over every input tested here (all 1- and 2-byte inputs, every
/// [81-FE][30-39][xx] and [81-FE][30-39][81-FE][30-39], random inputs) encoding_rs 0.8.44
/// agrees with the spec text, GB18030-2022 changes included.
const DECODE_SPEC_OVERRIDES: &[(&str, &[u8], &str, &str)] = &[];

/// Encoder inputs on which encoding_rs 0.8.44 departs from the spec text: (encoding name, code
/// point, the spec's html-mode output, spec reference). Excluded from the differential
/// comparison; asserted by `spec_overrides_encode`.
///
/// Empty: encoding_rs 0.8.44 agrees with the spec text on every scalar value for GBK, gb18030
/// and Big5 (including the 18-row side table of gb18030 encoder step 5 and U+E5E5, step 3).
const ENCODE_SPEC_OVERRIDES: &[(&str, u32, &[u8], &str)] = &[];

fn decode_overridden(enc: &'static Encoding, src: &[u8]) -> bool {
    DECODE_SPEC_OVERRIDES
        .iter()
        .any(|&(n, b, _, _)| n == enc.name() && b == src)
}

fn encode_overridden(enc: &'static Encoding, cp: u32) -> bool {
    ENCODE_SPEC_OVERRIDES
        .iter()
        .any(|&(n, c, _, _)| n == enc.name() && c == cp)
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const CHINESE: [&Encoding; 3] = [GBK, GB18030, BIG5];

fn oracle(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes())
        .expect("oracle encoding")
}

fn dopts(fatal: bool) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
        bom: BomHandling::Keep,
    }
}

/// Bytes that matter to these decoders' branches.
const INTERESTING: &[u8] = &[
    0x00, 0x22, 0x2F, 0x30, 0x31, 0x35, 0x39, 0x3A, 0x3F, 0x40, 0x41, 0x62, 0x64, 0x7E, 0x7F, 0x80,
    0x81, 0x82, 0x84, 0x87, 0x88, 0x8F, 0x90, 0xA0, 0xA1, 0xA3, 0xA5, 0xA6, 0xA8, 0xC6, 0xD9, 0xE3,
    0xF4, 0xF9, 0xFE, 0xFF,
];

fn random_inputs(seed: u64, count: usize, max_len: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::from_state(seed | 1);
    (0..count)
        .map(|_| {
            let len = 1 + rng.below(max_len);
            (0..len)
                .map(|_| {
                    if rng.below(4) == 0 {
                        rng.next_u64() as u8
                    } else {
                        INTERESTING[rng.below(INTERESTING.len())]
                    }
                })
                .collect()
        })
        .collect()
}

/// textcodec, one call, replacement mode, to UTF-8: (output, replaced).
fn tc_decode(enc: &'static Encoding, src: &[u8]) -> (String, bool) {
    let mut d = enc.new_decoder(dopts(false));
    let mut out = vec![0u8; d.max_utf8_buffer_length(src.len()).unwrap()];
    let p = d.decode_to_utf8(src, &mut out, true).unwrap();
    assert_eq!(
        (p.status, p.read),
        (Status::InputEmpty, src.len()),
        "{} [{}]",
        enc.name(),
        hex(src)
    );
    out.truncate(p.written);
    (String::from_utf8(out).unwrap(), p.replaced)
}

/// textcodec, fatal mode to UTF-8, resuming after each error with `src[read..]`: the good
/// output between errors.
fn tc_fatal_segments(enc: &'static Encoding, src: &[u8]) -> Vec<String> {
    let mut d = enc.new_decoder(dopts(true));
    let mut segs = vec![String::new()];
    let mut rest = src;
    for _ in 0..=src.len() + 4 {
        let mut out = vec![0u8; d.max_utf8_buffer_length(rest.len()).unwrap()];
        match d.decode_to_utf8(rest, &mut out, true) {
            Ok(p) => {
                assert_eq!((p.status, p.read), (Status::InputEmpty, rest.len()));
                assert!(!p.replaced);
                segs.last_mut()
                    .unwrap()
                    .push_str(std::str::from_utf8(&out[..p.written]).unwrap());
                return segs;
            }
            Err(e) => {
                segs.last_mut()
                    .unwrap()
                    .push_str(std::str::from_utf8(&out[..e.written]).unwrap());
                segs.push(String::new());
                rest = &rest[e.read..];
            }
        }
    }
    panic!(
        "{} [{}]: fatal resume does not terminate",
        enc.name(),
        hex(src)
    );
}

/// textcodec, one call, html mode, from UTF-8.
fn tc_encode(enc: &'static Encoding, s: &str) -> Vec<u8> {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut out = vec![0u8; e.max_buffer_length_from_utf8(s.len()).unwrap()];
    let p = e.encode_from_utf8(s, &mut out, true).unwrap();
    assert_eq!((p.status, p.read), (Status::InputEmpty, s.len()));
    out.truncate(p.written);
    out
}

/// textcodec, one call, html mode, from UTF-16.
fn tc_encode16(enc: &'static Encoding, s: &[u16]) -> Vec<u8> {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut out = vec![0u8; e.max_buffer_length_from_utf16(s.len()).unwrap()];
    let p = e.encode_from_utf16(s, &mut out, true).unwrap();
    assert_eq!((p.status, p.read), (Status::InputEmpty, s.len()));
    out.truncate(p.written);
    out
}

// ---------------------------------------------------------------------------------------------
// Decoder differential
// ---------------------------------------------------------------------------------------------

/// Reusable buffers.
struct Scratch {
    t8: Vec<u8>,
    o8: Vec<u8>,
    t16: Vec<u16>,
    o16: Vec<u16>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            t8: vec![0; 256],
            o8: vec![0; 256],
            t16: vec![0; 256],
            o16: vec![0; 256],
        }
    }
}

/// Compares textcodec with encoding_rs on `src` (one call, `last: true`): replacement mode to
/// UTF-8 (output and `replaced`) and to UTF-16, and fatal mode to UTF-8 (whether there is an
/// error, and the output before it).
fn diff_decode(enc: &'static Encoding, src: &[u8], s: &mut Scratch, f: &mut Failures) {
    if decode_overridden(enc, src) {
        return;
    }
    let er = oracle(enc);
    let name = enc.name();
    let cap8 = 4 * src.len() + 16;
    let cap16 = 2 * src.len() + 16;
    if s.t8.len() < cap8 {
        s.t8.resize(cap8, 0);
        s.o8.resize(cap8, 0);
        s.t16.resize(cap16, 0);
        s.o16.resize(cap16, 0);
    }

    // Replacement, UTF-8.
    let mut d = enc.new_decoder(dopts(false));
    let p = d.decode_to_utf8(src, &mut s.t8, true).unwrap();
    let mut od = er.new_decoder_without_bom_handling();
    let (r, _read, written, replaced) = od.decode_to_utf8(src, &mut s.o8, true);
    assert_eq!(r, CoderResult::InputEmpty);
    if s.t8[..p.written] != s.o8[..written]
        || p.replaced != replaced
        || p.status != Status::InputEmpty
    {
        f.push(format!(
            "{name} [{}] utf8: textcodec {} (replaced {}), encoding_rs {} (replaced {replaced})",
            hex(src),
            cps(&String::from_utf8_lossy(&s.t8[..p.written])),
            p.replaced,
            cps(&String::from_utf8_lossy(&s.o8[..written])),
        ));
        return;
    }

    // Replacement, UTF-16.
    let mut d = enc.new_decoder(dopts(false));
    let p = d.decode_to_utf16(src, &mut s.t16, true).unwrap();
    let mut od = er.new_decoder_without_bom_handling();
    let (r, _read, written, _) = od.decode_to_utf16(src, &mut s.o16, true);
    assert_eq!(r, CoderResult::InputEmpty);
    if s.t16[..p.written] != s.o16[..written] || p.status != Status::InputEmpty {
        f.push(format!(
            "{name} [{}] utf16: {:04X?} vs encoding_rs {:04X?}",
            hex(src),
            &s.t16[..p.written],
            &s.o16[..written]
        ));
        return;
    }

    // Fatal, UTF-8: error or not, and the output before it.
    let mut d = enc.new_decoder(dopts(true));
    let (t_err, t_written) = match d.decode_to_utf8(src, &mut s.t8, true) {
        Ok(p) => (false, p.written),
        Err(e) => (true, e.written),
    };
    let mut od = er.new_decoder_without_bom_handling();
    let (r, _read, written) = od.decode_to_utf8_without_replacement(src, &mut s.o8, true);
    let o_err = matches!(r, DecoderResult::Malformed(..));
    if t_err != o_err || s.t8[..t_written] != s.o8[..written] {
        f.push(format!(
            "{name} [{}] fatal: textcodec error {t_err} after {}, encoding_rs error {o_err} after {}",
            hex(src),
            cps(&String::from_utf8_lossy(&s.t8[..t_written])),
            cps(&String::from_utf8_lossy(&s.o8[..written])),
        ));
    }
}

#[test]
fn decode_gb18030_all_four_byte_shaped_inputs() {
    // Every [81-FE][30-39][81-FE][30-39] (GBK shares the decoder; tested once here), plus
    // every three-byte [81-FE][30-39][xx] (the "gb18030 second" state on every byte).
    let mut s = Scratch::new();
    let mut f = Failures::new("gb18030 four-byte");
    for a in 0x81..=0xFEu8 {
        for b in 0x30..=0x39u8 {
            for c in 0x81..=0xFEu8 {
                for d in 0x30..=0x39u8 {
                    diff_decode(GB18030, &[a, b, c, d], &mut s, &mut f);
                }
            }
            for c in 0..=255u8 {
                diff_decode(GB18030, &[a, b, c], &mut s, &mut f);
            }
        }
    }
    f.finish();
}

#[test]
fn decode_random_inputs() {
    let mut s = Scratch::new();
    let inputs = random_inputs(0x5EED_C0DE, 60_000, 12);
    for enc in [GB18030, BIG5] {
        let mut f = Failures::new("decode random");
        for src in &inputs {
            diff_decode(enc, src, &mut s, &mut f);
        }
        f.finish();
    }
}

#[test]
fn decode_fatal_resume_matches_replacement() {
    // API contract: fatal-mode output, resumed after each error, is replacement-mode output
    // with the error U+FFFDs removed (compared segment by segment, as gb18030 can decode a
    // U+FFFD from 0x84 0x31 0xA4 0x37).
    let mut f = Failures::new("fatal resume");
    let mut inputs = random_inputs(0xFA7A1, 20_000, 10);
    for a in 0x80..=0xFFu8 {
        for b in [
            0x00, 0x22, 0x30, 0x39, 0x40, 0x7F, 0x80, 0x81, 0xA1, 0xFE, 0xFF,
        ] {
            inputs.push(vec![a, b]);
            inputs.push(vec![a, 0x30, b]);
            inputs.push(vec![a, 0x30, 0x81, b]);
        }
    }
    for enc in [GB18030, BIG5] {
        for src in &inputs {
            let (repl, _) = tc_decode(enc, src);
            let joined = tc_fatal_segments(enc, src).join("\u{FFFD}");
            if repl != joined {
                f.push(format!(
                    "{} [{}]: replacement {} vs fatal-resume {}",
                    enc.name(),
                    hex(src),
                    cps(&repl),
                    cps(&joined)
                ));
            }
        }
    }
    f.finish();
}

// ---------------------------------------------------------------------------------------------
// Encoder differential
// ---------------------------------------------------------------------------------------------

fn all_scalars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

#[test]
fn encode_every_scalar_value() {
    for enc in CHINESE {
        let er = oracle(enc);
        let mut f = Failures::new("encode every scalar");
        let mut t = [0u8; 32];
        let mut o = [0u8; 32];
        let mut buf8 = [0u8; 4];
        let mut buf16 = [0u16; 2];
        for c in all_scalars() {
            if encode_overridden(enc, c as u32) {
                continue;
            }
            let s: &str = c.encode_utf8(&mut buf8);
            let u: &[u16] = c.encode_utf16(&mut buf16);

            // Html mode, from UTF-8.
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let p = e.encode_from_utf8(s, &mut t, true).unwrap();
            let mut oe = er.new_encoder();
            let (r, _, written, unmappable) = oe.encode_from_utf8(s, &mut o, true);
            assert_eq!(r, CoderResult::InputEmpty);
            if t[..p.written] != o[..written] || p.replaced != unmappable {
                f.push(format!(
                    "{} U+{:04X} html: [{}] vs encoding_rs [{}]",
                    enc.name(),
                    c as u32,
                    hex(&t[..p.written]),
                    hex(&o[..written])
                ));
                continue;
            }

            // Html mode, from UTF-16.
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let p = e.encode_from_utf16(u, &mut t, true).unwrap();
            if t[..p.written] != o[..written] {
                f.push(format!(
                    "{} U+{:04X} utf16 html: [{}] vs [{}]",
                    enc.name(),
                    c as u32,
                    hex(&t[..p.written]),
                    hex(&o[..written])
                ));
                continue;
            }

            // Fatal mode, from UTF-8.
            let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
            let t_res = e.encode_from_utf8(s, &mut t, true);
            let mut oe = er.new_encoder();
            let (r, _, written) = oe.encode_from_utf8_without_replacement(s, &mut o, true);
            match (t_res, r) {
                (Ok(p), EncoderResult::InputEmpty) if t[..p.written] == o[..written] => {}
                (Err(err), EncoderResult::Unmappable(oc))
                    if err.unmappable == oc && err.read == s.len() && err.written == 0 => {}
                (t_res, r) => f.push(format!(
                    "{} U+{:04X} fatal: {t_res:?} vs encoding_rs {r:?}",
                    enc.name(),
                    c as u32
                )),
            }
        }
        f.finish();
    }
}

#[test]
fn encode_scalar_blocks() {
    // Runs of 64 consecutive scalar values in one call (exercises the fast paths' loops and
    // html-mode continuation after an unmappable one), from UTF-8 and UTF-16.
    let scalars: Vec<char> = all_scalars().collect();
    for enc in CHINESE {
        let er = oracle(enc);
        let mut f = Failures::new("encode blocks");
        for block in scalars.chunks(64) {
            if block.iter().any(|&c| encode_overridden(enc, c as u32)) {
                continue;
            }
            let s: String = block.iter().collect();
            let u: Vec<u16> = s.encode_utf16().collect();
            let t8 = tc_encode(enc, &s);
            let t16 = tc_encode16(enc, &u);
            let (o, _, _) = er.encode(&s);
            let o: &[u8] = &o;
            if t8 != o || t16 != o {
                f.push(format!("{} block at U+{:04X}", enc.name(), block[0] as u32));
            }
        }
        f.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Spec overrides: where encoding_rs and the spec disagree, asserted against the spec
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_overrides_decode() {
    for &(name, src, spec, reference) in DECODE_SPEC_OVERRIDES {
        let enc = Encoding::for_label(name.as_bytes()).unwrap();
        assert_eq!(
            tc_decode(enc, src).0,
            spec,
            "{name} [{}]: {reference}",
            hex(src)
        );
        let (er, _) = oracle(enc).decode_without_bom_handling(src);
        assert_ne!(
            er,
            spec,
            "{name} [{}]: encoding_rs now agrees with the spec; drop the entry",
            hex(src)
        );
    }
}

#[test]
fn spec_overrides_encode() {
    for &(name, cp, spec, reference) in ENCODE_SPEC_OVERRIDES {
        let enc = Encoding::for_label(name.as_bytes()).unwrap();
        let s = char::from_u32(cp).unwrap().to_string();
        assert_eq!(tc_encode(enc, &s), spec, "{name} U+{cp:04X}: {reference}");
        let (er, _, _) = oracle(enc).encode(&s);
        assert_ne!(
            &er[..],
            spec,
            "{name} U+{cp:04X}: encoding_rs now agrees with the spec; drop the entry"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-written vectors (traced through the spec)
// ---------------------------------------------------------------------------------------------

fn dec(enc: &'static Encoding, src: &[u8]) -> String {
    tc_decode(enc, src).0
}

#[test]
fn gb18030_decoder_vectors() {
    for enc in [GB18030, GBK] {
        // Step 7: 0x80 is U+20AC. Step 9: 0xFF is an error.
        assert_eq!(dec(enc, b"\x80"), "\u{20AC}");
        assert_eq!(dec(enc, b"\xFF"), "\u{FFFD}");
        // Two bytes: offset 0x40 below 0x7F, 0x41 from 0x80 (pointers 0 and 63).
        assert_eq!(dec(enc, b"\x81\x40"), "\u{4E02}");
        assert_eq!(dec(enc, b"\x81\x7E"), "\u{4E8A}");
        assert_eq!(dec(enc, b"\x81\x80"), "\u{4E90}");
        assert_eq!(dec(enc, b"\xA1\xA1"), "\u{3000}");
        // 0xA3 0xA0 maps to U+3000 (not U+E5E5), per index gb18030.
        assert_eq!(dec(enc, b"\xA3\xA0"), "\u{3000}");
        // GB18030-2022: 0xA6 0xD9 is U+FE10 in index gb18030.
        assert_eq!(dec(enc, b"\xA6\xD9"), "\u{FE10}");
        // Step 5.9: an ASCII byte after a lead byte is restored, not swallowed.
        assert_eq!(dec(enc, b"\x81\x22"), "\u{FFFD}\"");
        assert_eq!(dec(enc, b"\x81\x7F"), "\u{FFFD}\u{7F}");
        // Step 5.10: a non-ASCII byte that gives no pointer is not restored.
        assert_eq!(dec(enc, b"\x81\xFF"), "\u{FFFD}");
        assert_eq!(dec(enc, b"\x81\xFF\x41"), "\u{FFFD}A");
        // Step 4.2: restore « second, byte »: 0x30 then 0x22 are decoded again.
        assert_eq!(dec(enc, b"\x81\x30\x22"), "\u{FFFD}0\"");
        assert_eq!(dec(enc, b"\x81\x30\xFF"), "\u{FFFD}0\u{FFFD}");
        // Step 3.1 restores « 0x30, 0x81, 0x40 »: '0', then 0x81 0x40 is pointer 0.
        assert_eq!(dec(enc, b"\x81\x30\x81\x40"), "\u{FFFD}0\u{4E02}");
        // Step 3.1: restore « second, third, byte »: 0x30, 0x81, 0x22 are decoded again;
        // 0x81 0x22 is then an error restoring 0x22 (step 5.9).
        assert_eq!(dec(enc, b"\x81\x30\x81\x22"), "\u{FFFD}0\u{FFFD}\"");
        // ... and 0x81 0x81 is then a valid pair (pointer 64).
        assert_eq!(dec(enc, b"\x81\x30\x81\x81"), "\u{FFFD}0\u{4E96}");
        // 0x81 0x30 0xFE 0x30 is pointer 1250 (valid), then 0x81 is pending at end-of-queue.
        assert_eq!(
            dec(enc, b"\x81\x30\xFE\x30\x81"),
            format!("{}\u{FFFD}", dec(enc, b"\x81\x30\xFE\x30"))
        );
        assert_eq!(dec(enc, b"\x81\x30\xFE\x30").chars().count(), 1);
        // Steps 1 and 2: end-of-queue with 1, 2 or 3 bytes pending is one error, nothing
        // restored.
        assert_eq!(dec(enc, b"\x81"), "\u{FFFD}");
        assert_eq!(dec(enc, b"\x81\x30"), "\u{FFFD}");
        assert_eq!(dec(enc, b"\x81\x30\x81"), "\u{FFFD}");
        assert_eq!(dec(enc, b"a\x81\x30\x81"), "a\u{FFFD}");
        assert_eq!(dec(enc, b""), "");
        // Four bytes: "index gb18030 ranges code point".
        assert_eq!(dec(enc, b"\x81\x30\x81\x30"), "\u{80}");
        assert_eq!(dec(enc, b"\x81\x35\xF4\x37"), "\u{E7C7}"); // pointer 7457
        assert_eq!(dec(enc, b"\x84\x31\xA4\x37"), "\u{FFFD}"); // pointer 39417 is U+FFFD itself
        assert!(!tc_decode(enc, b"\x84\x31\xA4\x37").1);
        assert_eq!(dec(enc, b"\x84\x31\xA4\x39"), "\u{FFFF}"); // pointer 39419
        assert_eq!(dec(enc, b"\x84\x31\xA5\x30"), "\u{FFFD}"); // 39420: null, nothing restored
        assert!(tc_decode(enc, b"\x84\x31\xA5\x30").1);
        assert_eq!(dec(enc, b"\x8F\x39\xFE\x39"), "\u{FFFD}"); // 188999: null
        assert_eq!(dec(enc, b"\x90\x30\x81\x30"), "\u{10000}"); // 189000
        assert_eq!(dec(enc, b"\xE3\x32\x9A\x35"), "\u{10FFFF}"); // 1237575
        assert_eq!(dec(enc, b"\xE3\x32\x9A\x36"), "\u{FFFD}"); // 1237576: null
        assert_eq!(dec(enc, b"\xFE\x39\xFE\x39"), "\u{FFFD}");
        // Step 3.1 with byte non-ASCII: still all three restored.
        assert_eq!(dec(enc, b"\x81\x30\x81\x80"), "\u{FFFD}0\u{4E90}");
    }
}

#[test]
fn gb18030_encoder_vectors() {
    // Step 3: U+E5E5 is an error in both.
    for enc in [GB18030, GBK] {
        assert_eq!(tc_encode(enc, "\u{E5E5}"), b"&#58853;");
        let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
        let err = e
            .encode_from_utf8("a\u{E5E5}", &mut [0u8; 16], true)
            .unwrap_err();
        assert_eq!((err.read, err.written, err.unmappable), (4, 1, '\u{E5E5}'));
        // Step 7: index pointer to two bytes (offset 0x40 / 0x41).
        assert_eq!(
            tc_encode(enc, "\u{4E02}\u{4E8A}\u{4E90}\u{3000}"),
            b"\x81\x40\x81\x7E\x81\x80\xA1\xA1"
        );
        // GB18030-2022: U+FE10 is in index gb18030 (pointer 7182).
        assert_eq!(tc_encode(enc, "\u{FE10}"), b"\xA6\xD9");
    }
    // Step 4: GBK encodes U+20AC as 0x80; gb18030 through the index (pointer 6432).
    assert_eq!(tc_encode(GBK, "\u{20AC}"), b"\x80");
    assert_eq!(tc_encode(GB18030, "\u{20AC}"), b"\xA2\xE3");
    // Step 5: the 18 rows of the side table, for both.
    let rows: [(u32, [u8; 2]); 18] = [
        (0xE78D, [0xA6, 0xD9]),
        (0xE78E, [0xA6, 0xDA]),
        (0xE78F, [0xA6, 0xDB]),
        (0xE790, [0xA6, 0xDC]),
        (0xE791, [0xA6, 0xDD]),
        (0xE792, [0xA6, 0xDE]),
        (0xE793, [0xA6, 0xDF]),
        (0xE794, [0xA6, 0xEC]),
        (0xE795, [0xA6, 0xED]),
        (0xE796, [0xA6, 0xF3]),
        (0xE81E, [0xFE, 0x59]),
        (0xE826, [0xFE, 0x61]),
        (0xE82B, [0xFE, 0x66]),
        (0xE82C, [0xFE, 0x67]),
        (0xE832, [0xFE, 0x6D]),
        (0xE843, [0xFE, 0x7E]),
        (0xE854, [0xFE, 0x90]),
        (0xE864, [0xFE, 0xA0]),
    ];
    for enc in [GB18030, GBK] {
        for (cp, bytes) in rows {
            assert_eq!(
                tc_encode(enc, &char::from_u32(cp).unwrap().to_string()),
                bytes,
                "{} U+{cp:04X}",
                enc.name()
            );
        }
    }
    // Step 8: GBK errors for anything not in the index; gb18030 uses four bytes (steps 9-16).
    assert_eq!(tc_encode(GBK, "\u{80}"), b"&#128;");
    assert_eq!(tc_encode(GB18030, "\u{80}"), b"\x81\x30\x81\x30");
    assert_eq!(tc_encode(GBK, "\u{E7C7}"), b"&#59335;");
    assert_eq!(tc_encode(GB18030, "\u{E7C7}"), b"\x81\x35\xF4\x37"); // ranges pointer 7457
    assert_eq!(tc_encode(GB18030, "\u{FFFF}"), b"\x84\x31\xA4\x39");
    assert_eq!(tc_encode(GB18030, "\u{10000}"), b"\x90\x30\x81\x30");
    assert_eq!(tc_encode(GB18030, "\u{10FFFF}"), b"\xE3\x32\x9A\x35");
    assert_eq!(tc_encode(GBK, "\u{10000}"), b"&#65536;");
    // A lone surrogate from UTF-16 is U+FFFD, which gb18030 encodes (pointer 39417).
    assert_eq!(tc_encode16(GB18030, &[0xD800, 0x41]), b"\x84\x31\xA4\x37A");
    assert_eq!(tc_encode16(GBK, &[0xDC00]), b"&#65533;");
}

#[test]
fn gb18030_round_trip_of_every_encodable_scalar() {
    // Every scalar value gb18030 encodes decodes back to itself, except the side-table Private
    // Use code points (whose two bytes decode to the GB18030-2022 code points).
    let mut f = Failures::new("gb18030 round trip");
    for c in all_scalars() {
        let s = c.to_string();
        let bytes = tc_encode(GB18030, &s);
        if c == '\u{E5E5}' {
            continue;
        }
        let (back, replaced) = tc_decode(GB18030, &bytes);
        let side = matches!(
            c as u32,
            0xE78D..=0xE796 | 0xE81E | 0xE826 | 0xE82B | 0xE82C | 0xE832 | 0xE843 | 0xE854 | 0xE864
        );
        if replaced || (back != s) != side {
            f.push(format!(
                "U+{:04X} -> [{}] -> {}",
                c as u32,
                hex(&bytes),
                cps(&back)
            ));
        }
    }
    f.finish();
}

#[test]
fn big5_vectors() {
    // Step 3.6: the four two-code-point pointers.
    assert_eq!(dec(BIG5, b"\x88\x62"), "\u{CA}\u{304}");
    assert_eq!(dec(BIG5, b"\x88\x64"), "\u{CA}\u{30C}");
    assert_eq!(dec(BIG5, b"\x88\xA3"), "\u{EA}\u{304}");
    assert_eq!(dec(BIG5, b"\x88\xA5"), "\u{EA}\u{30C}");
    assert_eq!(
        dec(BIG5, b"a\x88\x62b\x88\xA5"),
        "a\u{CA}\u{304}b\u{EA}\u{30C}"
    );
    // Their neighbours are ordinary index entries (pointers 1134 and 1137).
    assert_eq!(dec(BIG5, b"\x88\x63"), "\u{1EBE}");
    assert_eq!(dec(BIG5, b"\x88\x66"), "\u{CA}");
    // Offsets 0x40 / 0x62.
    assert_eq!(dec(BIG5, b"\xA1\x40"), "\u{3000}");
    assert_eq!(dec(BIG5, b"\xA4\x51"), "\u{5341}");
    assert_eq!(dec(BIG5, b"\xF9\xF9"), "\u{2550}");
    // Step 3.9: an ASCII byte is restored; step 3.10: others are not.
    assert_eq!(dec(BIG5, b"\x81\x22"), "\u{FFFD}\"");
    assert_eq!(dec(BIG5, b"\xA1\x7F"), "\u{FFFD}\u{7F}");
    assert_eq!(dec(BIG5, b"\xA1\xA0"), "\u{FFFD}");
    assert_eq!(dec(BIG5, b"\xA1\xFF"), "\u{FFFD}");
    assert_eq!(dec(BIG5, b"\xA1\x80\x41"), "\u{FFFD}A");
    // Pointer with no index entry (0x80 0x40 is never a lead): errors.
    assert_eq!(dec(BIG5, b"\x80"), "\u{FFFD}");
    assert_eq!(dec(BIG5, b"\xFF"), "\u{FFFD}");
    // Step 1: end-of-queue with a lead pending.
    assert_eq!(dec(BIG5, b"\xA1"), "\u{FFFD}");
    assert_eq!(dec(BIG5, b"ab\xFE"), "ab\u{FFFD}");
    // Astral code points in index Big5 (pointer 11205 is U+200CC).
    assert_eq!(dec(BIG5, b"\xC8\x7A"), "\u{200CC}");

    // Encoder: index Big5 pointer (HKSCS pointers below 5024 excluded; last pointer for the
    // six listed code points).
    assert_eq!(
        tc_encode(BIG5, "\u{3000}\u{5341}\u{2550}\u{20AC}"),
        b"\xA1\x40\xA4\x51\xF9\xF9\xA3\xE1"
    );
    assert_eq!(tc_encode(BIG5, "\u{CA}"), b"&#202;");
    assert_eq!(tc_encode(BIG5, "\u{200CC}"), b"\xC8\x7A");
    assert_eq!(tc_encode(BIG5, "\u{80}"), b"&#128;");
    assert_eq!(tc_encode16(BIG5, &[0xD800]), b"&#65533;");
}

// ---------------------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------------------

/// Byte-by-byte input (`last: false` each, then an empty `last: true`), replacement mode,
/// to UTF-8 and UTF-16, and fatal mode resuming after each error.
fn stream_one(enc: &'static Encoding, src: &[u8], want8: &str, f: &mut Failures) {
    // UTF-8.
    let mut d = enc.new_decoder(dopts(false));
    let mut got = Vec::new();
    let mut out = [0u8; 64];
    for (i, &b) in src.iter().enumerate() {
        let n = d.max_utf8_buffer_length(1).unwrap();
        let p = d.decode_to_utf8(&[b], &mut out[..n], false).unwrap();
        if (p.status, p.read) != (Status::InputEmpty, 1) {
            f.push(format!("{} [{}] byte {i}: {p:?}", enc.name(), hex(src)));
            return;
        }
        got.extend_from_slice(&out[..p.written]);
    }
    let n = d.max_utf8_buffer_length(0).unwrap();
    let p = d.decode_to_utf8(&[], &mut out[..n], true).unwrap();
    got.extend_from_slice(&out[..p.written]);
    if got != want8.as_bytes() {
        f.push(format!(
            "{} [{}] utf8 byte by byte: {} want {}",
            enc.name(),
            hex(src),
            cps(&String::from_utf8_lossy(&got)),
            cps(want8)
        ));
        return;
    }

    // UTF-16.
    let want16: Vec<u16> = want8.encode_utf16().collect();
    let mut d = enc.new_decoder(dopts(false));
    let mut got = Vec::new();
    let mut out = [0u16; 32];
    for &b in src {
        let n = d.max_utf16_buffer_length(1).unwrap();
        let p = d.decode_to_utf16(&[b], &mut out[..n], false).unwrap();
        got.extend_from_slice(&out[..p.written]);
    }
    let n = d.max_utf16_buffer_length(0).unwrap();
    let p = d.decode_to_utf16(&[], &mut out[..n], true).unwrap();
    got.extend_from_slice(&out[..p.written]);
    if got != want16 {
        f.push(format!(
            "{} [{}] utf16 byte by byte: {got:04X?} want {want16:04X?}",
            enc.name(),
            hex(src)
        ));
        return;
    }

    // Fatal, resuming after each error: same segments as one call.
    let want_segs = tc_fatal_segments(enc, src);
    let mut d = enc.new_decoder(dopts(true));
    let mut segs = vec![String::new()];
    let mut out = [0u8; 64];
    let mut i = 0;
    let mut guard = 0;
    loop {
        guard += 1;
        if guard > 4 * src.len() + 8 {
            f.push(format!(
                "{} [{}] fatal byte by byte does not terminate",
                enc.name(),
                hex(src)
            ));
            return;
        }
        let last = i == src.len();
        let chunk: &[u8] = if last { &[] } else { &src[i..i + 1] };
        match d.decode_to_utf8(chunk, &mut out, last) {
            Ok(p) => {
                segs.last_mut()
                    .unwrap()
                    .push_str(std::str::from_utf8(&out[..p.written]).unwrap());
                if last {
                    break;
                }
                i += p.read;
            }
            Err(e) => {
                segs.last_mut()
                    .unwrap()
                    .push_str(std::str::from_utf8(&out[..e.written]).unwrap());
                segs.push(String::new());
                i += e.read;
            }
        }
    }
    if segs != want_segs {
        f.push(format!(
            "{} [{}] fatal byte by byte: {segs:?} want {want_segs:?}",
            enc.name(),
            hex(src)
        ));
    }
}

#[test]
fn streaming_byte_by_byte_two_bytes_and_random() {
    let mut f = Failures::new("streaming");
    let inputs = random_inputs(0xB17E, 20_000, 16);
    for enc in [GB18030, BIG5] {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let src = [a, b];
                let (want, _) = tc_decode(enc, &src);
                stream_one(enc, &src, &want, &mut f);
            }
        }
        for src in &inputs {
            let (want, _) = tc_decode(enc, src);
            stream_one(enc, src, &want, &mut f);
        }
    }
    f.finish();
}

#[test]
fn streaming_byte_by_byte_gb18030_three_and_four_bytes() {
    // Restores of « second, byte » and « second, third, byte » across call boundaries, and the
    // handler (not the fast path) on every valid four-byte sequence.
    let mut f = Failures::new("streaming gb18030");
    for a in [0x81u8, 0x84, 0x8F, 0x90, 0xE3, 0xFE] {
        for b in 0x30..=0x39u8 {
            for c in 0..=255u8 {
                let src = [a, b, c];
                let (want, _) = tc_decode(GB18030, &src);
                stream_one(GB18030, &src, &want, &mut f);
                for d in [
                    0x00u8, 0x22, 0x2F, 0x30, 0x35, 0x39, 0x3A, 0x41, 0x80, 0x81, 0xFE, 0xFF,
                ] {
                    let src = [a, b, c, d, b'x'];
                    let (want, _) = tc_decode(GB18030, &src);
                    stream_one(GB18030, &src, &want, &mut f);
                }
            }
        }
    }
    // Byte-by-byte UTF-8 only over all valid-shaped four-byte sequences.
    let mut out = [0u8; 16];
    for a in 0x81..=0xFEu8 {
        for b in 0x30..=0x39u8 {
            for c in 0x81..=0xFEu8 {
                for d in 0x30..=0x39u8 {
                    let src = [a, b, c, d];
                    let (want, _) = tc_decode(GB18030, &src);
                    let mut dec = GB18030.new_decoder(dopts(false));
                    let mut got = Vec::with_capacity(8);
                    for &x in &src {
                        let p = dec.decode_to_utf8(&[x], &mut out, false).unwrap();
                        got.extend_from_slice(&out[..p.written]);
                    }
                    let p = dec.decode_to_utf8(&[], &mut out, true).unwrap();
                    got.extend_from_slice(&out[..p.written]);
                    if got != want.as_bytes() {
                        f.push(format!(
                            "[{}]: {} want {}",
                            hex(&src),
                            cps(&String::from_utf8_lossy(&got)),
                            cps(&want)
                        ));
                    }
                }
            }
        }
    }
    f.finish();
}

#[test]
fn streaming_tiny_output_buffers() {
    // Output buffers of 4 bytes / 2 units (one worst-case step): whole input each call,
    // continuing with `src[read..]` on OutputFull; same output as one call.
    let mut f = Failures::new("tiny output");
    let mut inputs = random_inputs(0x7171, 5_000, 24);
    inputs.push(b"\x88\x62\x88\x64\x88\xA3\x88\xA5".to_vec());
    inputs.push(b"\x90\x30\x81\x30\xE3\x32\x9A\x35\x81\x30\x81\x22".to_vec());
    for enc in [GB18030, BIG5] {
        for src in &inputs {
            let (want, _) = tc_decode(enc, src);
            let mut d = enc.new_decoder(dopts(false));
            let mut got = Vec::new();
            let mut rest: &[u8] = src;
            let mut out = [0u8; 4];
            for _ in 0..=4 * src.len() + 4 {
                let p = d.decode_to_utf8(rest, &mut out, true).unwrap();
                got.extend_from_slice(&out[..p.written]);
                rest = &rest[p.read..];
                if p.status == Status::InputEmpty {
                    break;
                }
            }
            if got != want.as_bytes() {
                f.push(format!(
                    "{} [{}] utf8: {} want {}",
                    enc.name(),
                    hex(src),
                    cps(&String::from_utf8_lossy(&got)),
                    cps(&want)
                ));
            }
            let want16: Vec<u16> = want.encode_utf16().collect();
            let mut d = enc.new_decoder(dopts(false));
            let mut got = Vec::new();
            let mut rest: &[u8] = src;
            let mut out = [0u16; 2];
            for _ in 0..=4 * src.len() + 4 {
                let p = d.decode_to_utf16(rest, &mut out, true).unwrap();
                got.extend_from_slice(&out[..p.written]);
                rest = &rest[p.read..];
                if p.status == Status::InputEmpty {
                    break;
                }
            }
            if got != want16 {
                f.push(format!(
                    "{} [{}] utf16: {got:04X?} want {want16:04X?}",
                    enc.name(),
                    hex(src)
                ));
            }
        }
    }
    f.finish();
}

#[test]
fn encoder_streaming_tiny_output_and_split_input() {
    // Random strings of mixed ASCII, Hanzi, unmappables and astral scalars: encoding in pieces
    // (every split point of the UTF-16 form, and output buffers of 10 bytes) gives the one-call
    // output.
    let mut rng = Rng::from_state(0xE4C0DE);
    let pool: Vec<char> = "a\"0~\u{80}\u{A5}\u{20AC}\u{3000}\u{4E02}\u{5341}\u{2550}\u{E5E5}\u{E78D}\u{E7C7}\u{FE10}\u{FFFD}\u{FFFF}\u{10000}\u{200CC}\u{10FFFF}\u{CA}"
        .chars()
        .collect();
    for enc in CHINESE {
        let mut f = Failures::new("encoder streaming");
        for _ in 0..2_000 {
            let len = 1 + rng.below(12);
            let s: String = (0..len).map(|_| pool[rng.below(pool.len())]).collect();
            let want = tc_encode(enc, &s);
            // Output buffers of 10 bytes (the longest reference here is "&#1114111;").
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let mut got = Vec::new();
            let mut rest = s.as_str();
            let mut out = [0u8; 10];
            for _ in 0..=4 * s.len() + 4 {
                let p = e.encode_from_utf8(rest, &mut out, true).unwrap();
                got.extend_from_slice(&out[..p.written]);
                rest = &rest[p.read..];
                if p.status == Status::InputEmpty {
                    break;
                }
            }
            if got != want {
                f.push(format!(
                    "{} {:?} tiny output: [{}] want [{}]",
                    enc.name(),
                    s,
                    hex(&got),
                    hex(&want)
                ));
            }
            // UTF-16 split at every point (surrogate pairs included).
            let u: Vec<u16> = s.encode_utf16().collect();
            for k in 0..=u.len() {
                let mut e = enc.new_encoder(EncoderErrorMode::Html);
                let mut out = vec![0u8; 128];
                let p1 = e.encode_from_utf16(&u[..k], &mut out, false).unwrap();
                let mut got = out[..p1.written].to_vec();
                let p2 = e.encode_from_utf16(&u[k..], &mut out, true).unwrap();
                got.extend_from_slice(&out[..p2.written]);
                if got != want {
                    f.push(format!(
                        "{} {:?} utf16 split at {k}: [{}] want [{}]",
                        enc.name(),
                        s,
                        hex(&got),
                        hex(&want)
                    ));
                }
            }
        }
        f.finish();
    }
}
