//! Differential tests against encoding_rs (dev-dependency only) as an oracle.
//!
//! Exhaustive over short inputs for every decoder, and over every Unicode scalar value for every
//! encoder. Where encoding_rs departs from the current spec text, the spec wins: such cases are
//! listed in `KNOWN_DIFFERENCES` (with the spec step) and asserted separately in tests/vectors.rs.

mod common;

use common::{dopts, hex, hex16, oracle, Failures, Rng};
use encoding_rs::{CoderResult, DecoderResult, EncoderResult};
use textcodec::{BomHandling, EncoderErrorMode, Encoding, Status};

/// Inputs on which encoding_rs 0.8.44 is known to differ from the current spec text.
/// (encoding name, input bytes, spec reference). Checked against the spec in tests/vectors.rs.
const KNOWN_DIFFERENCES: &[(&str, &[u8], &str)] = &[];

fn is_known_difference(enc: &'static Encoding, src: &[u8]) -> bool {
    KNOWN_DIFFERENCES
        .iter()
        .any(|(n, b, _)| *n == enc.name() && *b == src)
}

/// Reusable buffers so the exhaustive loops do not allocate per input.
struct Scratch {
    t8: Vec<u8>,
    o8: Vec<u8>,
    t16: Vec<u16>,
    o16: Vec<u16>,
    resumed: Vec<u8>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            t8: vec![0; 64],
            o8: vec![0; 64],
            t16: vec![0; 64],
            o16: vec![0; 64],
            resumed: Vec::with_capacity(64),
        }
    }
}

fn grow<T: Copy + Default>(v: &mut Vec<T>, n: usize) {
    if v.len() < n {
        v.resize(n, T::default());
    }
}

/// Compare textcodec with encoding_rs on one input, with `last: true`, no BOM handling:
/// replacement mode to UTF-8 and UTF-16 (output and `replaced`), fatal mode to UTF-8 and UTF-16
/// (whether an error occurs, and the output before it), and the fatal-resume rule.
fn check_decode(enc: &'static Encoding, src: &[u8], s: &mut Scratch, f: &mut Failures) {
    let er = oracle(enc);
    let name = enc.name();

    // --- replacement, UTF-8 ---
    let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
    let need = match d.max_utf8_buffer_length(src.len()) {
        Some(n) => n,
        None => {
            f.push(format!("{name} {}: max_utf8_buffer_length None", hex(src)));
            return;
        }
    };
    grow(&mut s.t8, need);
    let t_repl = match d.decode_to_utf8(src, &mut s.t8[..need], true) {
        Ok(p) => p,
        Err(e) => {
            f.push(format!("{name} {}: replacement mode Err({e:?})", hex(src)));
            return;
        }
    };
    if t_repl.status != Status::InputEmpty || t_repl.read != src.len() {
        f.push(format!(
            "{name} {}: utf8 dst of max_utf8_buffer_length={need}: {t_repl:?}",
            hex(src)
        ));
        return;
    }
    let mut od = er.new_decoder_without_bom_handling();
    let oneed = od.max_utf8_buffer_length(src.len()).unwrap();
    grow(&mut s.o8, oneed);
    let (r, _, ow, ohad) = od.decode_to_utf8(src, &mut s.o8[..oneed], true);
    assert_eq!(r, CoderResult::InputEmpty);
    let known = is_known_difference(enc, src);
    let t_out = &s.t8[..t_repl.written];
    if !known && (t_out != &s.o8[..ow] || t_repl.replaced != ohad) {
        f.push(format!(
            "{name} {} -> utf8: textcodec {} (replaced={}), encoding_rs {} (replaced={ohad})",
            hex(src),
            common::cps(&String::from_utf8_lossy(t_out)),
            t_repl.replaced,
            common::cps(&String::from_utf8_lossy(&s.o8[..ow])),
        ));
    }
    if std::str::from_utf8(t_out).is_err() {
        f.push(format!("{name} {}: output is not UTF-8", hex(src)));
        return;
    }

    // --- replacement, UTF-16 ---
    let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
    let need16 = d.max_utf16_buffer_length(src.len()).unwrap_or(0);
    grow(&mut s.t16, need16);
    match d.decode_to_utf16(src, &mut s.t16[..need16], true) {
        Ok(p) if p.status == Status::InputEmpty && p.read == src.len() => {
            let mut od = er.new_decoder_without_bom_handling();
            let oneed = od.max_utf16_buffer_length(src.len()).unwrap();
            grow(&mut s.o16, oneed);
            let (_, _, ow, ohad) = od.decode_to_utf16(src, &mut s.o16[..oneed], true);
            if !known && (s.t16[..p.written] != s.o16[..ow] || p.replaced != ohad) {
                f.push(format!(
                    "{name} {} -> utf16: textcodec {} (replaced={}), encoding_rs {} (replaced={ohad})",
                    hex(src),
                    hex16(&s.t16[..p.written]),
                    p.replaced,
                    hex16(&s.o16[..ow])
                ));
            }
            // UTF-16 and UTF-8 outputs of textcodec agree with each other.
            let as8: Vec<u16> = std::str::from_utf8(t_out).unwrap().encode_utf16().collect();
            if as8 != s.t16[..p.written] {
                f.push(format!("{name} {}: utf16 output != utf8 output", hex(src)));
            }
        }
        other => f.push(format!(
            "{name} {}: utf16 dst of max_utf16_buffer_length={need16}: {other:?}",
            hex(src)
        )),
    }

    // --- fatal, UTF-8: first error and the output before it ---
    let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
    let need = d.max_utf8_buffer_length(src.len()).unwrap();
    grow(&mut s.t8, need);
    let (t_err, t_pre) = match d.decode_to_utf8(src, &mut s.t8[..need], true) {
        Ok(p) => {
            if p.status != Status::InputEmpty || p.read != src.len() || p.replaced {
                f.push(format!("{name} {}: fatal utf8 {p:?}", hex(src)));
            }
            (false, p.written)
        }
        Err(e) => (true, e.written),
    };
    let mut od = er.new_decoder_without_bom_handling();
    let oneed = od
        .max_utf8_buffer_length_without_replacement(src.len())
        .unwrap();
    grow(&mut s.o8, oneed);
    let (r, _, ow) = od.decode_to_utf8_without_replacement(src, &mut s.o8[..oneed], true);
    let o_err = matches!(r, DecoderResult::Malformed(_, _));
    if !known && (t_err != o_err || s.t8[..t_pre] != s.o8[..ow]) {
        f.push(format!(
            "{name} {} fatal utf8: textcodec error={t_err} before={}, encoding_rs error={o_err} before={}",
            hex(src),
            common::cps(&String::from_utf8_lossy(&s.t8[..t_pre])),
            common::cps(&String::from_utf8_lossy(&s.o8[..ow]))
        ));
    }

    // --- fatal, UTF-16 ---
    let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
    let need16 = d.max_utf16_buffer_length(src.len()).unwrap();
    grow(&mut s.t16, need16);
    let (t_err16, t_pre16) = match d.decode_to_utf16(src, &mut s.t16[..need16], true) {
        Ok(p) => (false, p.written),
        Err(e) => (true, e.written),
    };
    let mut od = er.new_decoder_without_bom_handling();
    let oneed = od.max_utf16_buffer_length(src.len()).unwrap();
    grow(&mut s.o16, oneed);
    let (r, _, ow) = od.decode_to_utf16_without_replacement(src, &mut s.o16[..oneed], true);
    let o_err16 = matches!(r, DecoderResult::Malformed(_, _));
    if !known && (t_err16 != o_err16 || s.t16[..t_pre16] != s.o16[..ow]) {
        f.push(format!(
            "{name} {} fatal utf16: textcodec error={t_err16} before={}, encoding_rs error={o_err16} before={}",
            hex(src),
            hex16(&s.t16[..t_pre16]),
            hex16(&s.o16[..ow])
        ));
    }

    // --- fatal resumed after each error, U+FFFD inserted at each Err == replacement output ---
    if t_err {
        let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
        s.resumed.clear();
        let mut pos = 0;
        let mut errors = 0;
        loop {
            let need = d.max_utf8_buffer_length(src.len() - pos).unwrap();
            grow(&mut s.t8, need);
            match d.decode_to_utf8(&src[pos..], &mut s.t8[..need], true) {
                Ok(p) => {
                    s.resumed.extend_from_slice(&s.t8[..p.written]);
                    break;
                }
                Err(e) => {
                    s.resumed.extend_from_slice(&s.t8[..e.written]);
                    s.resumed.extend_from_slice("\u{FFFD}".as_bytes());
                    errors += 1;
                    if e.read > src.len() - pos || errors > src.len() + 1 {
                        f.push(format!("{name} {}: fatal resume stuck: {e:?}", hex(src)));
                        return;
                    }
                    pos += e.read;
                }
            }
        }
        let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
        let need = d.max_utf8_buffer_length(src.len()).unwrap();
        grow(&mut s.t8, need);
        let p = d.decode_to_utf8(src, &mut s.t8[..need], true).unwrap();
        if s.resumed != s.t8[..p.written] {
            f.push(format!(
                "{name} {}: fatal resumed (FFFD at each Err) {} != replacement {}",
                hex(src),
                common::cps(&String::from_utf8_lossy(&s.resumed)),
                common::cps(&String::from_utf8_lossy(&s.t8[..p.written]))
            ));
        }
    }
}

/// Replacement mode, a byte per call (`decode_to_string`, then end-of-queue alone), against
/// encoding_rs on the whole input.
fn check_decode_bytewise(enc: &'static Encoding, src: &[u8], f: &mut Failures) {
    if is_known_difference(enc, src) {
        return;
    }
    let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
    let mut got = String::new();
    for b in src {
        d.decode_to_string(std::slice::from_ref(b), &mut got, false)
            .unwrap();
    }
    d.decode_to_string(&[], &mut got, true).unwrap();
    let want = oracle(enc).decode_without_bom_handling(src).0;
    if got != want {
        f.push(format!(
            "{} {}: a byte per call {} != encoding_rs {}",
            enc.name(),
            hex(src),
            common::cps(&got),
            common::cps(&want)
        ));
    }
}

/// Every 1- and 2-byte input (and the empty input), in one call and a byte per call.
fn exhaustive_short(enc: &'static Encoding) {
    let mut f = Failures::new(format!("{}: exhaustive 0..=2-byte decode", enc.name()));
    let mut s = Scratch::new();
    check_decode(enc, &[], &mut s, &mut f);
    for a in 0..=255u8 {
        check_decode(enc, &[a], &mut s, &mut f);
        check_decode_bytewise(enc, &[a], &mut f);
        for b in 0..=255u8 {
            check_decode(enc, &[a, b], &mut s, &mut f);
            check_decode_bytewise(enc, &[a, b], &mut f);
        }
    }
    f.finish();
}

macro_rules! exhaustive_short_tests {
    ($($test:ident => $enc:ident,)*) => {
        $(
            #[test]
            fn $test() {
                exhaustive_short(textcodec::$enc);
            }
        )*
        /// Every encoding of `Encoding::all()` has a test above.
        #[test]
        fn exhaustive_short_covers_all_encodings() {
            let covered: Vec<&'static Encoding> = vec![$(textcodec::$enc),*];
            for enc in Encoding::all() {
                assert!(covered.contains(enc), "{} not covered", enc.name());
            }
            assert_eq!(covered.len(), 40);
        }
    };
}

exhaustive_short_tests! {
    short_utf_8 => UTF_8,
    short_ibm866 => IBM866,
    short_iso_8859_2 => ISO_8859_2,
    short_iso_8859_3 => ISO_8859_3,
    short_iso_8859_4 => ISO_8859_4,
    short_iso_8859_5 => ISO_8859_5,
    short_iso_8859_6 => ISO_8859_6,
    short_iso_8859_7 => ISO_8859_7,
    short_iso_8859_8 => ISO_8859_8,
    short_iso_8859_8_i => ISO_8859_8_I,
    short_iso_8859_10 => ISO_8859_10,
    short_iso_8859_13 => ISO_8859_13,
    short_iso_8859_14 => ISO_8859_14,
    short_iso_8859_15 => ISO_8859_15,
    short_iso_8859_16 => ISO_8859_16,
    short_koi8_r => KOI8_R,
    short_koi8_u => KOI8_U,
    short_macintosh => MACINTOSH,
    short_windows_874 => WINDOWS_874,
    short_windows_1250 => WINDOWS_1250,
    short_windows_1251 => WINDOWS_1251,
    short_windows_1252 => WINDOWS_1252,
    short_windows_1253 => WINDOWS_1253,
    short_windows_1254 => WINDOWS_1254,
    short_windows_1255 => WINDOWS_1255,
    short_windows_1256 => WINDOWS_1256,
    short_windows_1257 => WINDOWS_1257,
    short_windows_1258 => WINDOWS_1258,
    short_x_mac_cyrillic => X_MAC_CYRILLIC,
    short_gbk => GBK,
    short_gb18030 => GB18030,
    short_big5 => BIG5,
    short_euc_jp => EUC_JP,
    short_iso_2022_jp => ISO_2022_JP,
    short_shift_jis => SHIFT_JIS,
    short_euc_kr => EUC_KR,
    short_replacement => REPLACEMENT,
    short_utf_16be => UTF_16BE,
    short_utf_16le => UTF_16LE,
    short_x_user_defined => X_USER_DEFINED,
}

// ------------------------------------------------------------------------------------------------
// Longer exhaustive families for the multi-byte decoders
// ------------------------------------------------------------------------------------------------

/// EUC-JP: all 3-byte inputs led by 0x8F (JIS X 0212) and 0x8E, and by a few jis0208 leads.
#[test]
fn euc_jp_three_bytes() {
    let enc = textcodec::EUC_JP;
    let mut f = Failures::new("EUC-JP 3-byte");
    let mut s = Scratch::new();
    for lead in [0x8Fu8, 0x8E, 0xA1, 0xB0, 0xFE] {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_decode(enc, &[lead, b, c], &mut s, &mut f);
            }
        }
    }
    f.finish();
}

/// gb18030: every [81-FE][30-39][81-FE][30-39] four-byte input (1,587,600 inputs).
fn gb18030_four_byte_range(first: std::ops::RangeInclusive<u8>) {
    let enc = textcodec::GB18030;
    let mut f = Failures::new(format!("gb18030 4-byte {first:?}"));
    let mut s = Scratch::new();
    for a in first {
        for b in 0x30..=0x39u8 {
            for c in 0x81..=0xFEu8 {
                for d in 0x30..=0x39u8 {
                    check_decode(enc, &[a, b, c, d], &mut s, &mut f);
                }
            }
        }
    }
    f.finish();
}

#[test]
fn gb18030_four_byte_81_9f() {
    gb18030_four_byte_range(0x81..=0x9F);
}

#[test]
fn gb18030_four_byte_a0_cf() {
    gb18030_four_byte_range(0xA0..=0xCF);
}

#[test]
fn gb18030_four_byte_d0_fe() {
    gb18030_four_byte_range(0xD0..=0xFE);
}

/// gb18030: every 3-byte prefix [81-FE][30-39][any] (end-of-queue after 3 bytes, and the
/// restore of « second, byte » when the third is not 81-FE), and 4-byte inputs whose fourth
/// byte is not a digit (restore of « second, third, byte ») for a few leads.
#[test]
fn gb18030_three_byte_prefixes_and_bad_fourth() {
    let enc = textcodec::GB18030;
    let mut f = Failures::new("gb18030 3-byte prefixes / bad fourth");
    let mut s = Scratch::new();
    for a in 0x81..=0xFEu8 {
        for b in 0x30..=0x39u8 {
            for c in 0..=255u8 {
                check_decode(enc, &[a, b, c], &mut s, &mut f);
            }
        }
    }
    for a in [0x81u8, 0x84, 0x90, 0xE3, 0xFE] {
        for b in [0x30u8, 0x31, 0x39] {
            for c in 0x81..=0xFEu8 {
                for d in 0..=255u8 {
                    if !(0x30..=0x39).contains(&d) {
                        check_decode(enc, &[a, b, c, d], &mut s, &mut f);
                    }
                }
            }
        }
    }
    // Also GBK, whose decoder is gb18030's (spec, "GBK decoder").
    for a in [0x81u8, 0x84, 0x95, 0xFE] {
        for b in 0x30..=0x39u8 {
            for c in 0x81..=0xFEu8 {
                for d in 0x2F..=0x3Au8 {
                    check_decode(textcodec::GBK, &[a, b, c, d], &mut s, &mut f);
                }
            }
        }
    }
    f.finish();
}

/// UTF-8: all 3-byte inputs with a lead E0-F4, and 4-byte inputs with boundary bytes.
#[test]
fn utf8_three_and_four_bytes() {
    let enc = textcodec::UTF_8;
    let mut f = Failures::new("UTF-8 3/4-byte");
    let mut s = Scratch::new();
    for a in 0xE0..=0xF4u8 {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_decode(enc, &[a, b, c], &mut s, &mut f);
            }
        }
    }
    let edge = [
        0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4,
        0xF5, 0xFF,
    ];
    for a in [0xF0u8, 0xF1, 0xF3, 0xF4, 0xF5, 0xE0, 0xED, 0xEF] {
        for &b in &edge {
            for &c in &edge {
                for &d in &edge {
                    check_decode(enc, &[a, b, c, d], &mut s, &mut f);
                    check_decode(enc, &[a, b, c, d, 0x41], &mut s, &mut f);
                }
            }
        }
    }
    f.finish();
}

/// UTF-8: random sequences of three to five bytes led by E0 to FF, in one call and a byte per
/// call.
#[test]
fn utf8_random_three_to_five_bytes() {
    let enc = textcodec::UTF_8;
    let mut f = Failures::new("UTF-8 random 3-5 bytes");
    let mut s = Scratch::new();
    let mut rng = Rng::new(12345);
    for _ in 0..300_000 {
        let x = rng.next_u64() as u32;
        let bytes = [
            0xE0 | (x & 0x1F) as u8,
            (x >> 8) as u8,
            (x >> 16) as u8,
            (x >> 24) as u8,
            b'a',
        ];
        for n in 3..=5 {
            check_decode(enc, &bytes[..n], &mut s, &mut f);
            check_decode_bytewise(enc, &bytes[..n], &mut f);
        }
    }
    f.finish();
}

/// ISO-2022-JP: every 3-byte input led by ESC, and every 2 bytes after each escape sequence.
#[test]
fn iso_2022_jp_escapes() {
    let enc = textcodec::ISO_2022_JP;
    let mut f = Failures::new("ISO-2022-JP escapes");
    let mut s = Scratch::new();
    for b in 0..=255u8 {
        for c in 0..=255u8 {
            check_decode(enc, &[0x1B, b, c], &mut s, &mut f);
        }
    }
    let escapes: [&[u8]; 6] = [
        b"\x1B(B",
        b"\x1B(J",
        b"\x1B(I",
        b"\x1B$@",
        b"\x1B$B",
        b"\x1B$B\x30",
    ];
    let mut buf = Vec::with_capacity(8);
    for esc in escapes {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                buf.clear();
                buf.extend_from_slice(esc);
                buf.push(b);
                buf.push(c);
                check_decode(enc, &buf, &mut s, &mut f);
            }
        }
    }
    // Escape sequences around text in every state, consecutive escapes, ESC at the end.
    let pieces: [&[u8]; 14] = [
        b"\x1B(B",
        b"\x1B(J",
        b"\x1B(I",
        b"\x1B$@",
        b"\x1B$B",
        b"\x1B",
        b"\x1B(",
        b"\x1B$",
        b"A",
        b"\\~",
        b"\x30\x21",
        b"\x0E",
        b"\x80",
        b"\x21",
    ];
    let mut rng = Rng::new(2022);
    for _ in 0..60_000 {
        buf.clear();
        for _ in 0..rng.range(1, 6) {
            buf.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        check_decode(enc, &buf, &mut s, &mut f);
    }
    f.finish();
}

/// UTF-16BE/LE: 4-byte inputs around surrogates (the restore of a non-trailing unit after a
/// leading surrogate), and 3- and 5-byte inputs (odd trailing byte).
#[test]
fn utf16_surrogates() {
    let mut f = Failures::new("UTF-16 surrogates");
    let mut s = Scratch::new();
    let highs = [0x00u8, 0x41, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xFF];
    for enc in [textcodec::UTF_16LE, textcodec::UTF_16BE] {
        let be = enc == textcodec::UTF_16BE;
        let unit = |hi: u8, lo: u8| if be { [hi, lo] } else { [lo, hi] };
        for &h1 in &highs {
            for l1 in [0x00u8, 0x3D, 0xFF] {
                for &h2 in &highs {
                    for l2 in 0..=255u8 {
                        let u1 = unit(h1, l1);
                        let u2 = unit(h2, l2);
                        let four = [u1[0], u1[1], u2[0], u2[1]];
                        check_decode(enc, &four, &mut s, &mut f);
                        check_decode(enc, &four[..3], &mut s, &mut f);
                        let five = [u1[0], u1[1], u2[0], u2[1], 0x41];
                        check_decode(enc, &five, &mut s, &mut f);
                        let six = [u1[0], u1[1], u1[0], u1[1], u2[0], u2[1]];
                        check_decode(enc, &six, &mut s, &mut f);
                    }
                }
            }
        }
    }
    f.finish();
}

/// Random multi-byte soup for the CJK decoders, compared whole.
#[test]
fn cjk_random_soup() {
    let mut f = Failures::new("CJK random soup");
    let mut s = Scratch::new();
    let mut rng = Rng::new(7);
    let mut buf = Vec::new();
    for enc in [
        textcodec::GBK,
        textcodec::GB18030,
        textcodec::BIG5,
        textcodec::EUC_JP,
        textcodec::SHIFT_JIS,
        textcodec::EUC_KR,
        textcodec::ISO_2022_JP,
        textcodec::UTF_8,
        textcodec::UTF_16LE,
        textcodec::UTF_16BE,
    ] {
        for _ in 0..20_000 {
            buf.clear();
            let n = rng.range(1, 12);
            for _ in 0..n {
                let b = match rng.below(6) {
                    0 => rng.range(0x20, 0x7E) as u8,
                    1 => rng.range(0x30, 0x39) as u8,
                    2 => rng.range(0x80, 0xA0) as u8,
                    3 => rng.range(0xA1, 0xFE) as u8,
                    4 => *rng.pick(&[0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x8E, 0x8F]),
                    _ => rng.byte(),
                };
                buf.push(b);
            }
            check_decode(enc, &buf, &mut s, &mut f);
        }
    }
    f.finish();
}

/// Short inputs of mostly ASCII (URLs, form fields, headers), 16 to 48 bytes, with a few
/// bytes that are not ASCII at every position: the ends of the fast paths (the last fewer
/// than sixteen bytes, the eight-byte ASCII steps), in every decoder.
#[test]
fn mostly_ascii_short_inputs() {
    let mut f = Failures::new("mostly ASCII short inputs");
    let mut s = Scratch::new();
    let mut rng = Rng::new(11);
    let mut buf = Vec::new();
    for enc in Encoding::all() {
        for len in 16..=48 {
            for at in 0..len {
                for _ in 0..3 {
                    buf.clear();
                    buf.extend((0..len).map(|_| rng.range(0x20, 0x7E) as u8));
                    // One to three bytes that are not ASCII, the first at `at`; sometimes
                    // a second byte after it (a two-byte sequence in the CJK encodings).
                    buf[at] = rng.range(0x80, 0xFF) as u8;
                    if at + 1 < len && rng.chance(2) {
                        buf[at + 1] = rng.range(0x40, 0xFE) as u8;
                    }
                    if rng.chance(3) {
                        let k = rng.below(len);
                        buf[k] = rng.byte();
                    }
                    check_decode(enc, &buf, &mut s, &mut f);
                }
            }
        }
    }
    f.finish();
}

/// Text in a script of a single-byte encoding: letters from one range of high bytes (a run
/// of the index, or across runs), spaces and punctuation, now and then a byte from elsewhere
/// and stretches of markup, 16 to 200 bytes, in every decoder: the blocks of letters and
/// ASCII that the SIMD paths convert whole, and where they stop.
#[test]
fn script_text_in_every_decoder() {
    let mut f = Failures::new("script text");
    let mut s = Scratch::new();
    let mut rng = Rng::new(13);
    let mut buf = Vec::new();
    let ranges: [(usize, usize); 7] = [
        (0xC0, 0xFF),
        (0xA1, 0xDA),
        (0xDF, 0xFB),
        (0x80, 0xAF),
        (0xE0, 0xEF),
        (0xB0, 0xDF),
        (0x80, 0xFF),
    ];
    for enc in Encoding::all() {
        for round in 0..600 {
            let (lo, hi) = ranges[round % ranges.len()];
            let odd_one_in = [0, 40, 300][round % 3];
            let len = rng.range(16, 200);
            buf.clear();
            while buf.len() < len {
                if rng.chance(60) {
                    buf.extend_from_slice(b"<a href=\"/wiki/x\">");
                    continue;
                }
                let b = match rng.below(10) {
                    0 => b' ',
                    1 => *rng.pick(b".,:-()0123456789"),
                    _ if odd_one_in != 0 && rng.chance(odd_one_in) => rng.byte(),
                    _ => rng.range(lo, hi + 1) as u8,
                };
                buf.push(b);
            }
            check_decode(enc, &buf, &mut s, &mut f);
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// Encoders: every scalar value through every output encoding's encoder
// ------------------------------------------------------------------------------------------------

fn all_scalars() -> String {
    (0..=0x10FFFFu32).filter_map(char::from_u32).collect()
}

/// The encoders to test: one per encoding with its own encoder (the others encode to UTF-8).
fn own_encoders() -> Vec<&'static Encoding> {
    Encoding::all()
        .iter()
        .copied()
        .filter(|e| common::has_own_encoder(e))
        .collect()
}

#[test]
fn encoders_of_replacement_and_utf16_are_utf8() {
    for enc in [
        textcodec::REPLACEMENT,
        textcodec::UTF_16BE,
        textcodec::UTF_16LE,
    ] {
        assert_eq!(enc.output_encoding(), textcodec::UTF_8);
        let e = enc.new_encoder(EncoderErrorMode::Html);
        assert_eq!(e.encoding(), textcodec::UTF_8, "{}", enc.name());
    }
    for enc in own_encoders() {
        assert_eq!(enc.new_encoder(EncoderErrorMode::Fatal).encoding(), enc);
    }
    assert_eq!(own_encoders().len(), 37);
}

/// Every scalar value of the BMP, one per fresh encoder (so ISO-2022-JP starts in ASCII state),
/// html and fatal mode, from UTF-8 and from UTF-16.
fn per_scalar(enc: &'static Encoding, f: &mut Failures) {
    let er = oracle(enc);
    let name = enc.name();
    let mut tbuf = vec![0u8; 64];
    let mut obuf = vec![0u8; 64];
    let mut sbuf = [0u8; 4];
    let mut ubuf = [0u16; 2];
    for cp in 0..=0xFFFFu32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let s: &str = c.encode_utf8(&mut sbuf);
        let u: &[u16] = c.encode_utf16(&mut ubuf);
        // html, from UTF-8
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let need = e.max_buffer_length_from_utf8(s.len()).unwrap();
        grow(&mut tbuf, need);
        let t = e.encode_from_utf8(s, &mut tbuf[..need], true);
        let mut oe = er.new_encoder();
        let (_, _, ow, ohad) = oe.encode_from_utf8(s, &mut obuf, true);
        match t {
            Ok(p) if p.status == Status::InputEmpty && p.read == s.len() => {
                if tbuf[..p.written] != obuf[..ow] || p.replaced != ohad {
                    f.push(format!(
                        "{name} html U+{cp:04X}: textcodec {} (replaced={}), encoding_rs {} (replaced={ohad})",
                        hex(&tbuf[..p.written]),
                        p.replaced,
                        hex(&obuf[..ow])
                    ));
                }
            }
            other => f.push(format!("{name} html U+{cp:04X}: dst {need}: {other:?}")),
        }
        // html, from UTF-16
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let need = e.max_buffer_length_from_utf16(u.len()).unwrap();
        grow(&mut tbuf, need);
        match e.encode_from_utf16(u, &mut tbuf[..need], true) {
            Ok(p) if p.status == Status::InputEmpty && p.read == u.len() => {
                if tbuf[..p.written] != obuf[..ow] {
                    f.push(format!(
                        "{name} html utf16 U+{cp:04X}: textcodec {}, encoding_rs {}",
                        hex(&tbuf[..p.written]),
                        hex(&obuf[..ow])
                    ));
                }
            }
            other => f.push(format!(
                "{name} html utf16 U+{cp:04X}: dst {need}: {other:?}"
            )),
        }
        // fatal, from UTF-8
        let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
        let need = e.max_buffer_length_from_utf8(s.len()).unwrap();
        grow(&mut tbuf, need);
        let t = e.encode_from_utf8(s, &mut tbuf[..need], true);
        let mut oe = er.new_encoder();
        let (or, _, ow) = oe.encode_from_utf8_without_replacement(s, &mut obuf, true);
        let (t_err, t_w) = match t {
            Ok(p) => (None, p.written),
            Err(err) => {
                if err.read != s.len() {
                    f.push(format!(
                        "{name} fatal U+{cp:04X}: Err.read {} != {}",
                        err.read,
                        s.len()
                    ));
                }
                (Some(err.unmappable), err.written)
            }
        };
        let o_err = match or {
            EncoderResult::Unmappable(c) => Some(c),
            _ => None,
        };
        if t_err != o_err || tbuf[..t_w] != obuf[..ow] {
            f.push(format!(
                "{name} fatal U+{cp:04X}: textcodec {t_err:?} {}, encoding_rs {o_err:?} {}",
                hex(&tbuf[..t_w]),
                hex(&obuf[..ow])
            ));
        }
        // fatal, from UTF-16
        let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
        let need = e.max_buffer_length_from_utf16(u.len()).unwrap();
        grow(&mut tbuf, need);
        let t16 = match e.encode_from_utf16(u, &mut tbuf[..need], true) {
            Ok(_) => None,
            Err(err) => Some(err.unmappable),
        };
        if t16 != o_err {
            f.push(format!(
                "{name} fatal utf16 U+{cp:04X}: textcodec {t16:?}, encoding_rs {o_err:?}"
            ));
        }
    }
}

/// All scalar values concatenated, html mode (bytes), fatal mode (sequence of unmappables and
/// bytes), from UTF-8 and UTF-16.
fn batch(enc: &'static Encoding, all: &str, all16: &[u16], f: &mut Failures) {
    let name = enc.name();
    let (t, t_rep) = common::tc_encode_utf8(enc, all);
    let (o, o_rep) = common::er_encode_utf8(enc, all);
    if t != o || t_rep != o_rep {
        let at = t
            .iter()
            .zip(&o)
            .position(|(a, b)| a != b)
            .unwrap_or(t.len().min(o.len()));
        f.push(format!(
            "{name} batch html: differ at byte {at}: textcodec {} vs encoding_rs {}",
            hex(&t[at.saturating_sub(8)..(at + 16).min(t.len())]),
            hex(&o[at.saturating_sub(8)..(at + 16).min(o.len())])
        ));
    }
    // From UTF-16, in one call.
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let need = e.max_buffer_length_from_utf16(all16.len()).unwrap();
    let mut dst = vec![0u8; need];
    match e.encode_from_utf16(all16, &mut dst, true) {
        Ok(p) if p.status == Status::InputEmpty => {
            if dst[..p.written] != o[..] {
                f.push(format!(
                    "{name} batch html from utf16 differs from encoding_rs"
                ));
            }
        }
        other => f.push(format!("{name} batch html from utf16: {other:?}")),
    }
    let (tf, terrs) = common::tc_encode_fatal_resumed_utf8(enc, all);
    let (of, oerrs) = common::er_encode_fatal_resumed_utf8(enc, all);
    if terrs != oerrs {
        let at = terrs
            .iter()
            .zip(&oerrs)
            .position(|(a, b)| a != b)
            .unwrap_or(terrs.len().min(oerrs.len()));
        f.push(format!(
            "{name} batch fatal: unmappables differ at #{at}: textcodec {:?} vs encoding_rs {:?} (counts {} vs {})",
            terrs.get(at),
            oerrs.get(at),
            terrs.len(),
            oerrs.len()
        ));
    }
    if tf != of {
        f.push(format!("{name} batch fatal: bytes differ"));
    }
    // Fatal mode, resumed, with NCRs inserted == html mode (API rule).
    if tf != t {
        f.push(format!(
            "{name} batch fatal (NCR inserted at each Err) != html output"
        ));
    }
}

fn every_scalar_through(encs: &[&'static Encoding]) {
    let all = all_scalars();
    let all16: Vec<u16> = all.encode_utf16().collect();
    let mut f = Failures::new("encoders, all scalars");
    for &enc in encs {
        assert!(common::has_own_encoder(enc));
        batch(enc, &all, &all16, &mut f);
    }
    f.finish();
}

#[test]
fn every_scalar_through_every_encoder_covered() {
    let covered = [
        &own_encoders()[..12],
        &own_encoders()[12..24],
        &own_encoders()[24..30],
        &own_encoders()[30..],
    ]
    .concat();
    assert_eq!(covered, own_encoders());
}

#[test]
fn every_scalar_through_encoders_1() {
    every_scalar_through(&own_encoders()[..12]);
}

#[test]
fn every_scalar_through_encoders_2() {
    every_scalar_through(&own_encoders()[12..24]);
}

#[test]
fn every_scalar_through_encoders_3() {
    every_scalar_through(&own_encoders()[24..30]);
}

#[test]
fn every_scalar_through_encoders_4() {
    every_scalar_through(&own_encoders()[30..]);
}

macro_rules! per_scalar_tests {
    ($($test:ident => [$($enc:ident),*],)*) => {
        $(
            #[test]
            fn $test() {
                let mut f = Failures::new(stringify!($test));
                $( per_scalar(textcodec::$enc, &mut f); )*
                f.finish();
            }
        )*
    };
}

per_scalar_tests! {
    per_scalar_utf8_and_single_byte_1 => [UTF_8, IBM866, ISO_8859_2, ISO_8859_3, ISO_8859_4,
        ISO_8859_5, ISO_8859_6, ISO_8859_7, ISO_8859_8, ISO_8859_8_I, ISO_8859_10, ISO_8859_13],
    per_scalar_single_byte_2 => [ISO_8859_14, ISO_8859_15, ISO_8859_16, KOI8_R, KOI8_U, MACINTOSH,
        WINDOWS_874, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253, WINDOWS_1254],
    per_scalar_single_byte_3 => [WINDOWS_1255, WINDOWS_1256, WINDOWS_1257, WINDOWS_1258,
        X_MAC_CYRILLIC, X_USER_DEFINED],
    per_scalar_chinese => [GBK, GB18030, BIG5],
    per_scalar_japanese_korean => [EUC_JP, ISO_2022_JP, SHIFT_JIS, EUC_KR],
}

/// ISO-2022-JP is stateful: random sequences that move between ASCII, Roman and jis0208 states,
/// with unmappables and U+000E/U+000F/U+001B in each state, compared whole in both modes.
#[test]
fn iso_2022_jp_encoder_state_sequences() {
    let enc = textcodec::ISO_2022_JP;
    let pool: &[&str] = &[
        "a", "\\", "~", "¥", "‾", "ｱ", "ﾞ", "ﾟ", "ｶﾞ", "漢", "字", "−", "é", "\u{E}", "\u{F}",
        "\u{1B}", "\u{FFFD}", "😀", "\u{A0}", "\n", "－", "＼",
    ];
    let mut rng = Rng::new(0x2022);
    let mut f = Failures::new("ISO-2022-JP encoder sequences");
    for _ in 0..20_000 {
        let mut s = String::new();
        for _ in 0..rng.range(1, 8) {
            s.push_str(pool[rng.below(pool.len())]);
        }
        // A roomy dst for the comparison; the max_buffer_length guarantee is checked apart.
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let max = e.max_buffer_length_from_utf8(s.len()).unwrap();
        let mut dst = vec![0u8; 16 * s.len() + 64];
        let p = e.encode_from_utf8(&s, &mut dst, true).unwrap();
        assert_eq!(p.status, Status::InputEmpty);
        let (t, trep) = (dst[..p.written].to_vec(), p.replaced);
        if t.len() > max {
            f.push(format!(
                "max_buffer_length_from_utf8({}) = {max} but html output of {} is {} bytes: {}",
                s.len(),
                common::cps(&s),
                t.len(),
                String::from_utf8_lossy(&t)
            ));
        }
        let (o, orep) = common::er_encode_utf8(enc, &s);
        if t != o || trep != orep {
            f.push(format!(
                "html {}: textcodec {} vs encoding_rs {}",
                common::cps(&s),
                hex(&t),
                hex(&o)
            ));
        }
        let (tf, te) = common::tc_encode_fatal_resumed_utf8(enc, &s);
        let (of, oe) = common::er_encode_fatal_resumed_utf8(enc, &s);
        if tf != of || te != oe {
            f.push(format!(
                "fatal {}: textcodec {} {te:?} vs encoding_rs {} {oe:?}",
                common::cps(&s),
                hex(&tf),
                hex(&of)
            ));
        }
        // From UTF-16 as well.
        let u: Vec<u16> = s.encode_utf16().collect();
        let (o16, _) = common::er_encode_utf16(enc, &u);
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let max16 = e.max_buffer_length_from_utf16(u.len()).unwrap();
        if o16.len() > max16 {
            f.push(format!(
                "max_buffer_length_from_utf16({}) = {max16} but html output of {} is {} bytes",
                u.len(),
                common::cps(&s),
                o16.len()
            ));
        }
        let mut dst = vec![0u8; 16 * u.len() + 64];
        match e.encode_from_utf16(&u, &mut dst, true) {
            Ok(p) if p.status == Status::InputEmpty && dst[..p.written] == o16[..] => {}
            other => f.push(format!("utf16 html {}: {other:?}", common::cps(&s))),
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// Whole corpus files (fast paths, SIMD), at several alignments, also mutated
// ------------------------------------------------------------------------------------------------

fn compare_whole_decode(enc: &'static Encoding, src: &[u8], what: &str, f: &mut Failures) {
    let (t8, _) = common::tc_decode_utf8(enc, src, BomHandling::Keep);
    let (o8, _) = common::er_decode_utf8(enc, src);
    if t8 != o8 {
        let at = t8
            .bytes()
            .zip(o8.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(t8.len().min(o8.len()));
        f.push(format!(
            "{} {what}: UTF-8 output differs from encoding_rs at output byte {at} ({} vs {} bytes)",
            enc.name(),
            t8.len(),
            o8.len()
        ));
        return;
    }
    let (t16, _) = common::tc_decode_utf16(enc, src, BomHandling::Keep);
    if t16 != o8.encode_utf16().collect::<Vec<u16>>() {
        f.push(format!("{} {what}: UTF-16 output differs", enc.name()));
        return;
    }
    let (fatal, _) = common::tc_decode_fatal_resumed_utf8(enc, src, BomHandling::Keep);
    if fatal != t8 {
        f.push(format!("{} {what}: fatal resumed differs", enc.name()));
    }
}

#[test]
fn corpus_files_through_every_decoder() {
    let mut f = Failures::new("corpus files, decoders");
    let mut rng = Rng::new(0xC0);
    let binary = std::fs::read(common::corpus_dir().join("binary.jpg")).unwrap();
    let html = std::fs::read(common::corpus_dir().join("en.html")).unwrap();
    for &enc in Encoding::all() {
        let text = common::corpus_text(common::corpus_language(enc));
        let bytes = common::legacy_bytes(enc, &text);
        for offset in 0..8 {
            compare_whole_decode(
                enc,
                &bytes[offset..],
                &format!("corpus at offset {offset}"),
                &mut f,
            );
        }
        let mut mutated = bytes.clone();
        for _ in 0..mutated.len() / 300 {
            let i = rng.below(mutated.len());
            mutated[i] = rng.byte();
        }
        compare_whole_decode(enc, &mutated, "mutated corpus", &mut f);
        compare_whole_decode(enc, &binary, "binary.jpg", &mut f);
        compare_whole_decode(enc, &html[1..], "en.html (odd offset)", &mut f);
    }
    f.finish();
}

#[test]
fn corpus_files_through_every_encoder() {
    let mut f = Failures::new("corpus files, encoders");
    let mut all_text = String::new();
    for lang in [
        "ja", "zh_cn", "zh_tw", "ko", "ru", "el", "he", "ar", "th", "vi", "tr", "cs", "de", "fr",
    ] {
        let t = common::corpus_text(lang);
        all_text.push_str(common::text_window(&t, 0, 20_000));
    }
    let units: Vec<u16> = all_text.encode_utf16().collect();
    for enc in own_encoders() {
        let text = common::corpus_text(common::corpus_language(enc));
        for (what, t) in [
            ("own language", text.as_str()),
            ("many languages", all_text.as_str()),
        ] {
            let (got, _) = common::tc_encode_utf8(enc, t);
            let (want, _) = common::er_encode_utf8(enc, t);
            if got != want {
                f.push(format!(
                    "{} {what}: html output differs from encoding_rs",
                    enc.name()
                ));
            }
        }
        let (want16, _) = common::er_encode_utf16(enc, &units);
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let mut dst = vec![0u8; e.max_buffer_length_from_utf16(units.len()).unwrap()];
        match e.encode_from_utf16(&units, &mut dst, true) {
            Ok(p) if p.status == Status::InputEmpty && dst[..p.written] == want16[..] => {}
            _ => f.push(format!("{} many languages from UTF-16 differs", enc.name())),
        }
    }
    f.finish();
}

/// The one-call "decode" hook on inputs of many kilobytes (its output crosses the internal
/// buffer's edges), for every encoding: corpus text encoded in it, damaged at random places,
/// with and without a BOM; the text, the encoding used and the error flag match encoding_rs.
#[test]
fn decode_hook_on_long_inputs_matches_encoding_rs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/corpus/wikipedia");
    let mut text = String::new();
    for lang in ["fr", "ru", "ja", "zh_cn", "ko", "el"] {
        let t = std::fs::read_to_string(dir.join(format!("{lang}.txt"))).expect("corpus file");
        let cut = (0..=12_000.min(t.len()))
            .rev()
            .find(|&i| t.is_char_boundary(i))
            .unwrap();
        text.push_str(&t[..cut]);
    }
    let mut rng = Rng::new(0xD1CE);
    let mut f = Failures::new("decode hook on long inputs");
    for &enc in Encoding::all() {
        let er = oracle(enc);
        let mut bytes = match enc.name() {
            "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            _ => er.encode(&text).0.into_owned(),
        };
        let clean = bytes.clone();
        for _ in 0..20 {
            let at = rng.below(bytes.len());
            bytes[at] = rng.byte();
        }
        let boms: [&[u8]; 4] = [b"", b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"];
        for (input, bom) in [
            (&clean, boms[0]),
            (&bytes, boms[0]),
            (&bytes, boms[rng.below(4)]),
        ] {
            let src = [bom, &input[..]].concat();
            let (got, got_enc, got_err) = textcodec::decode(&src, enc);
            let (want, want_enc, want_err) = er.decode(&src);
            if got != want || got_enc.name() != want_enc.name() || got_err != want_err {
                f.push(format!(
                    "{} (BOM {bom:02X?}, {} bytes): decode gives {} / {got_err}, encoding_rs {} / {want_err}; texts equal: {}",
                    enc.name(),
                    src.len(),
                    got_enc.name(),
                    want_enc.name(),
                    got == want
                ));
            }
        }
    }
    f.finish();
}

/// The one-call "encode" hooks on long text (the output crosses the internal buffer's
/// edges), in every encoding: corpus text in several scripts, so most encoders meet
/// characters they lack. `encode` matches encoding_rs's; `encode_or_fail` stops where
/// encoding_rs's encoder without replacement stops, with the same counts.
#[test]
fn encode_hooks_on_long_text_match_encoding_rs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/corpus/wikipedia");
    let mut f = Failures::new("encode hooks on long text");
    for langs in [
        &["fr", "de"][..],
        &["ru", "el", "ja"],
        &["zh_cn", "ko", "th"],
    ] {
        let mut text = String::new();
        for lang in langs {
            let t = std::fs::read_to_string(dir.join(format!("{lang}.txt"))).expect("corpus file");
            let cut = (0..=20_000.min(t.len()))
                .rev()
                .find(|&i| t.is_char_boundary(i))
                .unwrap();
            text.push_str(&t[..cut]);
        }
        for &enc in Encoding::all() {
            let er = oracle(enc);
            let (got, got_enc, got_rep) = textcodec::encode(&text, enc);
            let (want, want_enc, want_rep) = er.encode(&text);
            if got != want || got_enc.name() != want_enc.name() || got_rep != want_rep {
                f.push(format!(
                    "{} {langs:?}: encode gives {} bytes in {} / {got_rep}, encoding_rs {} in {} / {want_rep}",
                    enc.name(),
                    got.len(),
                    got_enc.name(),
                    want.len(),
                    want_enc.name()
                ));
            }
            let mut e = want_enc.new_encoder();
            let mut dst = vec![0u8; text.len() * 4 + 16];
            let (res, read, written) =
                e.encode_from_utf8_without_replacement(&text, &mut dst, true);
            match (textcodec::encode_or_fail(&text, enc), res) {
                (Ok(bytes), EncoderResult::InputEmpty) if *bytes == dst[..written] => {}
                (Err(err), EncoderResult::Unmappable(c))
                    if (err.read, err.written, err.unmappable) == (read, written, c) => {}
                (got, want) => f.push(format!(
                    "{} {langs:?}: encode_or_fail gives {:?}, encoding_rs {want:?} at {read}/{written}",
                    enc.name(),
                    got.map(|b| b.len())
                )),
            }
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// Error positions after the beginning of a BOM, in every BOM handling
// ------------------------------------------------------------------------------------------------

/// Every encoding, every BOM handling: inputs that begin like a UTF-8, UTF-16BE or UTF-16LE
/// BOM (whole or not) followed by every byte, and by every byte then a few others. Fatal-mode
/// error positions (DecodeError.read plus the offset of the call) and the output before each
/// error are compared with the spec transcription's and encoding_rs's (tests/common), in one
/// call, byte by byte, and with the first one to three bytes in a call of their own; every
/// dst is sentinel-filled and must be untouched past `written`.
fn bom_prefix_positions(encs: &[&'static Encoding]) {
    let mut f = Failures::new("error positions after the beginning of a BOM");
    const PREFIXES: [&[u8]; 7] = [
        b"\xEF",
        b"\xEF\xBB",
        b"\xEF\xBB\xBF",
        b"\xFE",
        b"\xFF",
        b"\xFE\xFF",
        b"\xFF\xFE",
    ];
    const THIRD: [u8; 6] = [0x00, 0x41, 0x80, 0xBF, 0xEF, 0xFF];
    let boms = [BomHandling::Sniff, BomHandling::Strip, BomHandling::Keep];
    let mut src = Vec::new();
    for &enc in encs {
        for prefix in PREFIXES {
            for b in 0..=255u8 {
                for c in std::iter::once(None).chain(THIRD.iter().copied().map(Some)) {
                    src.clear();
                    src.extend_from_slice(prefix);
                    src.push(b);
                    src.extend(c);
                    if let Err(e) = common::check_decode_positions(enc, &src, &boms) {
                        f.push(e);
                    }
                }
            }
        }
    }
    f.finish();
}

/// Half of the encodings (every other one of `Encoding::all()`, from `k`).
fn half(k: usize) -> Vec<&'static Encoding> {
    Encoding::all().iter().copied().skip(k).step_by(2).collect()
}

#[test]
fn bom_prefix_positions_1() {
    bom_prefix_positions(&half(0));
}

#[test]
fn bom_prefix_positions_2() {
    bom_prefix_positions(&half(1));
}
