//! Streaming invariance: the output never depends on how the input is split, how small the
//! output buffers are, or whether errors are fatal (the crate documentation,
//! "Streaming"). Inputs are corpus text encoded with encoding_rs in each legacy encoding, with
//! random bytes, malformed sequences and escapes spliced in.

mod common;

use common::{
    cps, dopts, hex, stream_decode, stream_encode, Dst, Failures, Input, Rng, Utf16In, Utf8In,
};
use textcodec::{
    BomHandling, EncoderErrorMode, Encoding, Status, TextDecoder, TextDecoderOptions, TextEncoder,
};

// ------------------------------------------------------------------------------------------------
// Sample inputs
// ------------------------------------------------------------------------------------------------

/// Byte sequences worth splicing into an input of `enc`: partial and malformed sequences,
/// escapes, BOM pieces.
fn nasty_bytes(enc: &'static Encoding) -> Vec<&'static [u8]> {
    let mut v: Vec<&'static [u8]> = vec![
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
        b"\x81\x30\x81\x22",
        b"\x84\x31\xA4\x37",
        b"\x88\x62",
        b"\x88\xA5",
        b"\x8F\xA2\xAF",
        b"\x8F\xA1",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xED\xA0\x80",
        b"\xC0\x80",
        b"\xE0\x80",
        b"\xF4\x90\x80\x80",
        b"\xEF\xBF\xBD",
    ];
    match enc.name() {
        "ISO-2022-JP" => v.extend_from_slice(&[
            b"\x1B(B",
            b"\x1B(J",
            b"\x1B(I",
            b"\x1B$B",
            b"\x1B$@",
            b"\x1B",
            b"\x1B$",
            b"\x1B(",
            b"\x1B(B\x1B(B",
            b"\x1B$A",
            b"\x0E",
            b"\x0F",
            b"\x30\x21",
            b"\\~",
            b"\x21",
            b"\x1B$B\x30",
            b"\n",
        ]),
        "UTF-16LE" | "UTF-16BE" => v.extend_from_slice(&[
            b"\x00\xD8",
            b"\xD8\x00",
            b"\x00\xDC",
            b"\xDC\x00",
            b"\x3D\xD8\x00\xDE",
            b"\xD8\x3D\xDE\x00",
            b"\x00",
            b"\x41",
        ]),
        _ => {}
    }
    v
}

struct DecodeSample {
    bytes: Vec<u8>,
    bom: BomHandling,
}

/// Realistic inputs for `enc`: corpus text encoded in it, with things spliced in.
fn decode_samples(
    enc: &'static Encoding,
    rng: &mut Rng,
    count: usize,
    max_len: usize,
) -> Vec<DecodeSample> {
    let text = common::corpus_text(common::corpus_language(enc));
    let nasty = nasty_bytes(enc);
    let mut out = Vec::new();
    for i in 0..count {
        let start = rng.below(text.len());
        let window = common::text_window(&text, start, max_len);
        let mut bytes = if enc == textcodec::REPLACEMENT || i % 7 == 6 {
            (0..rng.range(0, max_len)).map(|_| rng.byte()).collect()
        } else {
            common::legacy_bytes(enc, window)
        };
        bytes.truncate(max_len);
        // Splice.
        let splices = if i == 0 { 0 } else { rng.range(0, 6) };
        for _ in 0..splices {
            let at = rng.below(bytes.len() + 1);
            let piece: Vec<u8> = if rng.chance(4) {
                (0..rng.range(1, 3)).map(|_| rng.byte()).collect()
            } else {
                nasty[rng.below(nasty.len())].to_vec()
            };
            bytes.splice(at..at, piece);
        }
        let bom = match rng.below(8) {
            0 | 1 => BomHandling::Sniff,
            2 => BomHandling::Strip,
            _ => BomHandling::Keep,
        };
        if rng.chance(2) {
            // A BOM, or the beginning of one (which turns out not to be one: the bytes are
            // decoded, and errors among them are counted from the start of the input).
            let b: &[u8] = match rng.below(7) {
                0 => b"\xEF\xBB\xBF",
                1 => b"\xFF\xFE",
                2 => b"\xFE\xFF",
                3 => b"\xEF\xBB",
                4 => b"\xEF",
                5 => b"\xFE",
                _ => b"\xFF",
            };
            bytes.splice(0..0, b.iter().copied());
        }
        out.push(DecodeSample { bytes, bom });
    }
    out
}

/// Random chunk sizes covering `len`, with empty chunks.
fn random_chunks(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = match rng.below(5) {
            0 => 0,
            1 => 1,
            2 => rng.range(1, 4),
            _ => rng.range(1, 64),
        }
        .min(left);
        v.push(n);
        left -= n;
    }
    if rng.chance(2) {
        v.push(0);
    }
    v
}

fn check_decode_sample(
    enc: &'static Encoding,
    s: &DecodeSample,
    rng: &mut Rng,
    every_split: bool,
    f: &mut Failures,
) {
    let src = &s.bytes[..];
    let ctx = |what: &str| format!("{} {:?} {} [{what}]", enc.name(), s.bom, hex(src));
    let (reference, replaced) = common::tc_decode_utf8(enc, src, s.bom);
    // Oracle.
    let er = common::oracle(enc);
    let oracle: String = match s.bom {
        BomHandling::Keep => er.decode_without_bom_handling(src).0.into_owned(),
        BomHandling::Sniff => er.decode(src).0.into_owned(),
        BomHandling::Strip => er.decode_with_bom_removal(src).0.into_owned(),
    };
    if reference != oracle {
        f.push(format!(
            "{}: textcodec {} != encoding_rs {}",
            ctx("oracle"),
            cps(&reference),
            cps(&oracle)
        ));
        return;
    }
    let _ = replaced;
    // The fatal errors: where encoding_rs puts them (the output before each, and the input
    // position through each).
    let want = match common::expected_fatal_decode(enc, s.bom, src) {
        Ok(want) => want,
        Err(e) => {
            f.push(e);
            return;
        }
    };
    if want.text != reference {
        f.push(format!(
            "{}: textcodec {} != encoding_rs fatal, U+FFFD at each error {}",
            ctx("oracle"),
            cps(&reference),
            cps(&want.text)
        ));
        return;
    }
    // Checks one run: the text (a U+FFFD inserted at each fatal error: it must equal the
    // replacement-mode output exactly) and, in fatal mode, where each error was reported.
    let check =
        |fatal: bool, r: Result<common::Trace<String>, String>, what: &str, f: &mut Failures| {
            let r = r.and_then(|t| {
                if t.text != reference {
                    return Err(format!("{} != {}", cps(&t.text), cps(&reference)));
                }
                if fatal {
                    common::compare_errors(&t.errors, &want.errors)?;
                }
                Ok(())
            });
            match r {
                Ok(()) => true,
                Err(e) => {
                    f.push(format!("{}: {e}", ctx(what)));
                    false
                }
            }
        };
    // Split at every point (two calls), UTF-8 and UTF-16, both modes.
    if every_split {
        for i in 0..=src.len() {
            let chunks = [i, src.len() - i];
            for fatal in [false, true] {
                let what = format!("split at {i} fatal={fatal}");
                if !check(
                    fatal,
                    stream_decode::<u8>(enc, s.bom, fatal, src, &chunks, Dst::Big),
                    &what,
                    f,
                ) || !check(
                    fatal,
                    stream_decode::<u16>(enc, s.bom, fatal, src, &chunks, Dst::Big),
                    &what,
                    f,
                ) {
                    return;
                }
            }
        }
    }
    // One call, byte by byte, random chunks; every dst policy, both targets, both modes.
    let mut plans: Vec<Vec<usize>> = vec![vec![src.len()], vec![1; src.len()]];
    for _ in 0..6 {
        plans.push(random_chunks(rng, src.len()));
    }
    for (k, chunks) in plans.iter().enumerate() {
        let seed = rng.next_u64();
        for policy in [Dst::Big, Dst::Exact, Dst::Tiny, Dst::Random(seed)] {
            if k == 1 && src.len() > 400 && policy != Dst::Big {
                continue; // Byte by byte through a long input once is enough.
            }
            for fatal in [false, true] {
                let what = |target| format!("{target} {policy:?} fatal={fatal} chunks {chunks:?}");
                if !check(
                    fatal,
                    stream_decode::<u8>(enc, s.bom, fatal, src, chunks, policy),
                    &what("utf8"),
                    f,
                ) || !check(
                    fatal,
                    stream_decode::<u16>(enc, s.bom, fatal, src, chunks, policy),
                    &what("utf16"),
                    f,
                ) {
                    return;
                }
            }
        }
    }
    // decode_to_string with random chunks.
    let chunks = random_chunks(rng, src.len());
    let mut d = enc.new_decoder(dopts(false, s.bom));
    let mut out = String::new();
    let mut off = 0;
    for (i, &n) in chunks.iter().enumerate() {
        match d.decode_to_string(&src[off..off + n], &mut out, i + 1 == chunks.len()) {
            Ok(p) if p.status == Status::InputEmpty && p.read == n => {}
            other => {
                f.push(format!("{}: {other:?}", ctx("decode_to_string")));
                return;
            }
        }
        off += n;
    }
    if out != reference {
        f.push(format!(
            "{}: {} != {}",
            ctx("decode_to_string"),
            cps(&out),
            cps(&reference)
        ));
    }
}

fn decode_streaming(enc: &'static Encoding, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut f = Failures::new(format!("{} streaming decode", enc.name()));
    for (i, s) in decode_samples(enc, &mut rng, 24, 300).iter().enumerate() {
        check_decode_sample(enc, s, &mut rng, i < 8, &mut f);
    }
    // A few long samples (SIMD paths), random chunks only.
    for s in decode_samples(enc, &mut rng, 4, 6000).iter() {
        check_decode_sample(enc, s, &mut rng, false, &mut f);
    }
    f.finish();
}

macro_rules! decode_streaming_tests {
    ($($test:ident => $enc:ident,)*) => {
        $(
            #[test]
            fn $test() {
                decode_streaming(textcodec::$enc, stringify!($test).len() as u64 * 7919);
            }
        )*
        #[test]
        fn decode_streaming_covers_all_encodings() {
            let covered: Vec<&'static Encoding> = vec![$(textcodec::$enc),*];
            assert_eq!(covered.len(), Encoding::all().len());
            for enc in Encoding::all() {
                assert!(covered.contains(enc), "{}", enc.name());
            }
        }
    };
}

decode_streaming_tests! {
    decode_stream_utf_8 => UTF_8,
    decode_stream_ibm866 => IBM866,
    decode_stream_iso_8859_2 => ISO_8859_2,
    decode_stream_iso_8859_3 => ISO_8859_3,
    decode_stream_iso_8859_4 => ISO_8859_4,
    decode_stream_iso_8859_5 => ISO_8859_5,
    decode_stream_iso_8859_6 => ISO_8859_6,
    decode_stream_iso_8859_7 => ISO_8859_7,
    decode_stream_iso_8859_8 => ISO_8859_8,
    decode_stream_iso_8859_8_i => ISO_8859_8_I,
    decode_stream_iso_8859_10 => ISO_8859_10,
    decode_stream_iso_8859_13 => ISO_8859_13,
    decode_stream_iso_8859_14 => ISO_8859_14,
    decode_stream_iso_8859_15 => ISO_8859_15,
    decode_stream_iso_8859_16 => ISO_8859_16,
    decode_stream_koi8_r => KOI8_R,
    decode_stream_koi8_u => KOI8_U,
    decode_stream_macintosh => MACINTOSH,
    decode_stream_windows_874 => WINDOWS_874,
    decode_stream_windows_1250 => WINDOWS_1250,
    decode_stream_windows_1251 => WINDOWS_1251,
    decode_stream_windows_1252 => WINDOWS_1252,
    decode_stream_windows_1253 => WINDOWS_1253,
    decode_stream_windows_1254 => WINDOWS_1254,
    decode_stream_windows_1255 => WINDOWS_1255,
    decode_stream_windows_1256 => WINDOWS_1256,
    decode_stream_windows_1257 => WINDOWS_1257,
    decode_stream_windows_1258 => WINDOWS_1258,
    decode_stream_x_mac_cyrillic => X_MAC_CYRILLIC,
    decode_stream_gbk => GBK,
    decode_stream_gb18030 => GB18030,
    decode_stream_big5 => BIG5,
    decode_stream_euc_jp => EUC_JP,
    decode_stream_iso_2022_jp => ISO_2022_JP,
    decode_stream_shift_jis => SHIFT_JIS,
    decode_stream_euc_kr => EUC_KR,
    decode_stream_replacement => REPLACEMENT,
    decode_stream_utf_16be => UTF_16BE,
    decode_stream_utf_16le => UTF_16LE,
    decode_stream_x_user_defined => X_USER_DEFINED,
}

/// Fatal-mode error count equals the number of error U+FFFDs: checked on inputs without literal
/// U+FFFD (the replacement output's U+FFFD count is then the error count).
#[test]
fn fatal_error_count_equals_replacement_count() {
    let mut rng = Rng::new(99);
    let mut f = Failures::new("fatal error count");
    for enc in Encoding::all() {
        for s in decode_samples(enc, &mut rng, 12, 200) {
            let (reference, replaced) = common::tc_decode_utf8(enc, &s.bytes, s.bom);
            let (resumed, errors) = common::tc_decode_fatal_resumed_utf8(enc, &s.bytes, s.bom);
            if resumed != reference {
                f.push(format!(
                    "{} {}: fatal resumed != replacement",
                    enc.name(),
                    hex(&s.bytes)
                ));
                continue;
            }
            // Without FFFDs in the fatal output itself, all FFFDs are errors.
            let fffd = reference.matches('\u{FFFD}').count();
            if errors > fffd || (errors == 0) == replaced {
                f.push(format!(
                    "{} {}: {errors} errors, {fffd} U+FFFD, replaced={replaced}",
                    enc.name(),
                    hex(&s.bytes)
                ));
            }
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// Max buffer lengths at random states mid-stream
// ------------------------------------------------------------------------------------------------

#[test]
fn max_buffer_lengths_mid_stream() {
    let mut rng = Rng::new(4242);
    let mut f = Failures::new("max_*_buffer_length mid-stream");
    for enc in Encoding::all() {
        for s in decode_samples(enc, &mut rng, 16, 120) {
            let src = &s.bytes;
            for _ in 0..8 {
                let cut = rng.below(src.len() + 1);
                let rest = src.len() - cut;
                let last = rng.chance(2);
                for fatal in [false, true] {
                    // Bring a decoder to a state by feeding a prefix (roomy dst).
                    let mut d8 = enc.new_decoder(dopts(fatal, s.bom));
                    let mut d16 = enc.new_decoder(dopts(fatal, s.bom));
                    let mut big = vec![0u8; 8192];
                    let mut big16 = vec![0u16; 8192];
                    // (With a roomy dst each call either reads everything or stops at an
                    // error; resume after errors.)
                    let mut p8 = 0;
                    for _ in 0..=cut + 1 {
                        match d8.decode_to_utf8(&src[p8..cut], &mut big, false) {
                            Ok(p) => {
                                p8 += p.read;
                                break;
                            }
                            Err(e) => p8 += e.read,
                        }
                    }
                    let mut p16 = 0;
                    for _ in 0..=cut + 1 {
                        match d16.decode_to_utf16(&src[p16..cut], &mut big16, false) {
                            Ok(p) => {
                                p16 += p.read;
                                break;
                            }
                            Err(e) => p16 += e.read,
                        }
                    }
                    assert_eq!((p8, p16), (cut, cut), "{} prefix not consumed", enc.name());
                    // Now a dst of exactly the advertised worst case for the rest.
                    let n8 = d8.max_utf8_buffer_length(rest).unwrap();
                    let mut dst = vec![0u8; n8];
                    match d8.decode_to_utf8(&src[cut..], &mut dst, last) {
                        Ok(p) if p.status == Status::OutputFull => f.push(format!(
                            "{} {} cut {cut} last={last} fatal={fatal}: OutputFull with max_utf8_buffer_length({rest}) = {n8}",
                            enc.name(),
                            hex(src)
                        )),
                        _ => {}
                    }
                    let n16 = d16.max_utf16_buffer_length(rest).unwrap();
                    let mut dst = vec![0u16; n16];
                    match d16.decode_to_utf16(&src[cut..], &mut dst, last) {
                        Ok(p) if p.status == Status::OutputFull => f.push(format!(
                            "{} {} cut {cut} last={last} fatal={fatal}: OutputFull with max_utf16_buffer_length({rest}) = {n16}",
                            enc.name(),
                            hex(src)
                        )),
                        _ => {}
                    }
                }
            }
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// The regression from the issue
// ------------------------------------------------------------------------------------------------

#[test]
fn utf8_pending_lead_then_empty_last_tiny_dst() {
    // [0xC2] with last=false, then [] with last=true into a dst of 0, 1, 2 bytes: Ok(OutputFull)
    // without panicking (replacement mode); then a 3-byte dst succeeds with U+FFFD.
    for n in 0..3 {
        let mut d = textcodec::UTF_8.new_decoder(dopts(false, BomHandling::Sniff));
        let mut dst = [0u8; 3];
        let p = d.decode_to_utf8(&[0xC2], &mut dst, false).unwrap();
        assert_eq!((p.status, p.read, p.written), (Status::InputEmpty, 1, 0));
        let p = d.decode_to_utf8(&[], &mut dst[..n], true).unwrap();
        assert_eq!(
            (p.status, p.read, p.written),
            (Status::OutputFull, 0, 0),
            "dst of {n}"
        );
        let p = d.decode_to_utf8(&[], &mut dst, true).unwrap();
        assert_eq!(p.status, Status::InputEmpty);
        assert_eq!(&dst[..p.written], "\u{FFFD}".as_bytes());
    }
}

// ------------------------------------------------------------------------------------------------
// Encoders
// ------------------------------------------------------------------------------------------------

/// Text for encoder tests: corpus text with scalars that exercise the encoder spliced in.
fn encode_samples(
    enc: &'static Encoding,
    rng: &mut Rng,
    count: usize,
    max_len: usize,
) -> Vec<String> {
    let text = common::corpus_text(common::corpus_language(enc));
    let specials = [
        "\u{A5}",
        "\u{203E}",
        "\\",
        "~",
        "\u{E}",
        "\u{F}",
        "\u{1B}",
        "\u{FF71}",
        "\u{FF9E}",
        "\u{2212}",
        "\u{E5E5}",
        "\u{E78D}",
        "\u{20AC}",
        "\u{80}",
        "\u{FFFD}",
        "😀",
        "\u{10FFFF}",
        "é",
        "漢",
        "\u{2550}",
        "\u{F780}",
        "\u{3000}",
        "\u{E7C7}",
        "\n",
    ];
    let mut out = Vec::new();
    for i in 0..count {
        let start = rng.below(text.len());
        let mut s = common::text_window(&text, start, max_len).to_string();
        for _ in 0..if i == 0 { 0 } else { rng.range(0, 8) } {
            let mut at = rng.below(s.len() + 1);
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            if rng.chance(3) {
                s.insert(at, rng.scalar());
            } else {
                s.insert_str(at, specials[rng.below(specials.len())]);
            }
        }
        out.push(s);
    }
    out
}

fn random_split_chunks<I: Input>(rng: &mut Rng, input: &I) -> Vec<usize> {
    let len = input.units().len();
    let mut v = Vec::new();
    let mut start = 0;
    while start < len {
        let mut end = (start
            + match rng.below(4) {
                0 => 0,
                1 => 1,
                _ => rng.range(1, 40),
            })
        .min(len);
        while !input.can_split(end) {
            end += 1;
        }
        v.push(end - start);
        start = end;
    }
    v.push(0);
    v
}

fn check_encode_input<I: Input>(
    enc: &'static Encoding,
    input: &I,
    want: &common::Expected<Vec<u8>>,
    rng: &mut Rng,
    every_split: bool,
    label: &str,
    f: &mut Failures,
) {
    let len = input.units().len();
    // Checks one run: the bytes (the html reference inserted at each fatal error: they must
    // equal the html-mode output exactly) and, in fatal mode, where each error was reported.
    let check =
        |fatal: bool, r: Result<common::Trace<Vec<u8>>, String>, what: &str, f: &mut Failures| {
            let r = r.and_then(|t| {
                if t.text != want.text {
                    return Err(format!("{} != {}", hex(&t.text), hex(&want.text)));
                }
                if fatal {
                    common::compare_errors(&t.errors, &want.errors)?;
                }
                Ok(())
            });
            match r {
                Ok(()) => true,
                Err(e) => {
                    f.push(format!("{} {label}: {what}: {e}", enc.name()));
                    false
                }
            }
        };
    if every_split {
        for i in 0..=len {
            if !input.can_split(i) {
                continue;
            }
            for fatal in [false, true] {
                let r = stream_encode(enc, fatal, input, &[i, len - i], Dst::Big);
                if !check(fatal, r, &format!("split at {i} fatal={fatal}"), f) {
                    return;
                }
            }
        }
    }
    let mut plans = vec![vec![len]];
    for _ in 0..5 {
        plans.push(random_split_chunks(rng, input));
    }
    for chunks in &plans {
        let seed = rng.next_u64();
        for policy in [Dst::Big, Dst::Exact, Dst::Tiny, Dst::Random(seed)] {
            for fatal in [false, true] {
                let r = stream_encode(enc, fatal, input, chunks, policy);
                if !check(
                    fatal,
                    r,
                    &format!("{policy:?} fatal={fatal} chunks {chunks:?}"),
                    f,
                ) {
                    return;
                }
            }
        }
    }
}

fn encode_streaming(encs: &[&'static Encoding], seed: u64) {
    let mut rng = Rng::new(seed);
    let mut f = Failures::new("streaming encode");
    for &enc in encs {
        for (i, text) in encode_samples(enc, &mut rng, 16, 240).iter().enumerate() {
            // Reference: one-shot, roomy buffer; and the oracle.
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let mut dst = vec![0u8; 16 * text.len() + 64];
            let p = e.encode_from_utf8(text, &mut dst, true).unwrap();
            let reference = dst[..p.written].to_vec();
            let (oracle, _) = common::er_encode_utf8(enc, text);
            if reference != oracle {
                f.push(format!(
                    "{} {}: textcodec {} != encoding_rs {}",
                    enc.name(),
                    cps(text),
                    hex(&reference),
                    hex(&oracle)
                ));
                continue;
            }
            // Where encoding_rs reports the unmappable characters; its fatal output with the
            // references inserted there is the html-mode output.
            let want = common::er_fatal_encode(enc, common::Either::Utf8(text));
            if want.text != reference {
                f.push(format!(
                    "{} {}: textcodec {} != encoding_rs fatal, references inserted {}",
                    enc.name(),
                    cps(text),
                    hex(&reference),
                    hex(&want.text)
                ));
                continue;
            }
            check_encode_input(enc, &Utf8In(text), &want, &mut rng, i < 6, "utf8", &mut f);
            let units: Vec<u16> = text.encode_utf16().collect();
            let want = common::er_fatal_encode(enc, common::Either::Utf16(&units));
            check_encode_input(
                enc,
                &Utf16In(&units),
                &want,
                &mut rng,
                i < 6,
                "utf16",
                &mut f,
            );
            // Lone surrogates in UTF-16 input encode as U+FFFD would.
            let mut lone = units.clone();
            for _ in 0..rng.range(1, 3) {
                let at = rng.below(lone.len() + 1);
                lone.insert(
                    at,
                    if rng.chance(2) {
                        0xD800 + rng.below(0x400) as u16
                    } else {
                        0xDC00 + rng.below(0x400) as u16
                    },
                );
            }
            let lossy = String::from_utf16_lossy(&lone);
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let mut dst = vec![0u8; 16 * lossy.len() + 64];
            let p = e.encode_from_utf8(&lossy, &mut dst, true).unwrap();
            let lossy_ref = dst[..p.written].to_vec();
            let want = common::er_fatal_encode(enc, common::Either::Utf16(&lone));
            if want.text != lossy_ref {
                f.push(format!(
                    "{} {:04X?}: textcodec {} != encoding_rs fatal, references inserted {}",
                    enc.name(),
                    lone,
                    hex(&lossy_ref),
                    hex(&want.text)
                ));
                continue;
            }
            check_encode_input(
                enc,
                &Utf16In(&lone),
                &want,
                &mut rng,
                i < 2,
                "utf16 lone surrogates",
                &mut f,
            );
        }
    }
    f.finish();
}

fn own(range: std::ops::Range<usize>) -> Vec<&'static Encoding> {
    let v: Vec<&'static Encoding> = Encoding::all()
        .iter()
        .copied()
        .filter(|e| common::has_own_encoder(e))
        .collect();
    v[range].to_vec()
}

#[test]
fn encode_streaming_1() {
    encode_streaming(&own(0..12), 1);
}

#[test]
fn encode_streaming_2() {
    encode_streaming(&own(12..24), 2);
}

#[test]
fn encode_streaming_3() {
    encode_streaming(&own(24..30), 3);
}

#[test]
fn encode_streaming_4() {
    encode_streaming(&own(30..37), 4);
}

/// Runs of characters the encoder has no bytes for (a word of another script), at the start,
/// at the end and between mappable ones, in html and fatal mode: after a reference the
/// driver takes a non-ASCII character itself instead of entering the fast path, which would
/// stop at it at once when it is unmappable too. Every output room from one byte (a reference
/// at the end of the room that does not fit whole), from UTF-8 and from UTF-16 (with lone
/// surrogates beside the runs), each call's `replaced` (whether it wrote a reference; the
/// inputs have no `&`, and no encoder's bytes for these characters hold `&#`), and the
/// streaming contract's random splits and rooms.
#[test]
fn encode_runs_of_unmappable_characters() {
    let mut rng = Rng::new(0x5E15);
    let mut f = Failures::new("runs of unmappable characters");
    let candidates = [
        'ก',
        'ข',
        '가',
        '각',
        '검',
        'あ',
        'ア',
        '漢',
        '字',
        'é',
        'ü',
        '€',
        'Ж',
        'Ā',
        'ẫ',
        '¥',
        '‾',
        '\u{E}',
        '\u{1B}',
        '\u{E5E5}',
        '\u{FFFD}',
        '😀',
        '\u{10FFFF}',
        '\u{20000}',
    ];
    let encs = [
        textcodec::SHIFT_JIS,
        textcodec::EUC_JP,
        textcodec::ISO_2022_JP,
        textcodec::EUC_KR,
        textcodec::BIG5,
        textcodec::GBK,
        textcodec::GB18030,
        textcodec::WINDOWS_1252,
        textcodec::WINDOWS_1258,
        textcodec::X_USER_DEFINED,
    ];
    for enc in encs {
        let (unmappable, mappable): (Vec<char>, Vec<char>) = candidates
            .iter()
            .partition(|c| common::er_encode_utf8(enc, &c.to_string()).1);
        for round in 0..24 {
            // Pieces: a run of one to four unmappable characters, an ASCII word, one to three
            // mappable non-ASCII characters; a run first or last in every other input.
            let mut text = String::new();
            let pieces = rng.range(1, 10);
            for k in 0..pieces {
                let kind = match (k, round % 4) {
                    (0, 0 | 1) => 0,
                    _ if k + 1 == pieces && round % 4 != 3 => 0,
                    _ => rng.below(3),
                };
                match kind {
                    0 if !unmappable.is_empty() => {
                        for _ in 0..rng.range(1, 5) {
                            text.push(unmappable[rng.below(unmappable.len())]);
                        }
                    }
                    1 | 0 => {
                        for _ in 0..rng.range(1, 7) {
                            text.push(b"ab=z 09"[rng.below(7)] as char);
                        }
                    }
                    _ if !mappable.is_empty() => {
                        for _ in 0..rng.range(1, 4) {
                            text.push(mappable[rng.below(mappable.len())]);
                        }
                    }
                    _ => text.push('q'),
                }
            }
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut lone = units.clone();
            for _ in 0..rng.range(1, 3) {
                let at = rng.below(lone.len() + 1);
                lone.insert(at, 0xD800 + rng.below(0x800) as u16);
            }
            let label = format!("{} {}", enc.name(), cps(&text));
            let want = common::er_fatal_encode(enc, common::Either::Utf8(&text));
            rooms(enc, &Utf8In(&text), &want.text, &label, &mut f);
            check_encode_input(
                enc,
                &Utf8In(&text),
                &want,
                &mut rng,
                round < 4,
                "utf8",
                &mut f,
            );
            for (units, what) in [(&units, "utf16"), (&lone, "utf16 lone surrogates")] {
                let want = common::er_fatal_encode(enc, common::Either::Utf16(units));
                rooms(
                    enc,
                    &Utf16In(units),
                    &want.text,
                    &format!("{label} {what}"),
                    &mut f,
                );
                check_encode_input(
                    enc,
                    &Utf16In(units),
                    &want,
                    &mut rng,
                    round < 4,
                    what,
                    &mut f,
                );
            }
        }
    }
    f.finish();

    /// Html mode with the same room at every call (one more when a call makes no progress):
    /// the bytes, the bytes past each call's output, and each call's `replaced`.
    fn rooms<I: Input>(
        enc: &'static Encoding,
        input: &I,
        want: &[u8],
        label: &str,
        f: &mut Failures,
    ) {
        let src = input.units();
        for room in 1..=12 {
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let mut got = Vec::new();
            let (mut pos, mut extra) = (0, 0);
            loop {
                let mut dst = vec![0xA5u8; room + extra];
                let p = I::encode(&mut e, &src[pos..], &mut dst, true).unwrap();
                let out = &dst[..p.written];
                let referenced = out.windows(2).any(|w| w == b"&#");
                if p.replaced != referenced || dst[p.written..].iter().any(|&b| b != 0xA5) {
                    f.push(format!(
                        "{label} room {room}: call at {pos} wrote {} (replaced {})",
                        hex(out),
                        p.replaced
                    ));
                    return;
                }
                got.extend_from_slice(out);
                pos += p.read;
                if p.status == Status::InputEmpty {
                    break;
                }
                extra = if p.read == 0 && p.written == 0 {
                    extra + 1
                } else {
                    0
                };
            }
            if got != want {
                f.push(format!(
                    "{label} room {room}: {} != {}",
                    hex(&got),
                    hex(want)
                ));
                return;
            }
        }
    }
}

#[test]
fn encode_max_buffer_length_mid_stream() {
    let mut rng = Rng::new(77);
    let mut f = Failures::new("encoder max_buffer_length mid-stream");
    for enc in own(0..37) {
        for text in encode_samples(enc, &mut rng, 12, 100) {
            let units: Vec<u16> = text.encode_utf16().collect();
            for _ in 0..8 {
                let mut cut = rng.below(text.len() + 1);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                let last = rng.chance(2);
                let mut e = enc.new_encoder(EncoderErrorMode::Html);
                let mut big = vec![0u8; 8192];
                e.encode_from_utf8(&text[..cut], &mut big, false).unwrap();
                let n = e.max_buffer_length_from_utf8(text.len() - cut).unwrap();
                let mut dst = vec![0u8; n];
                if let Ok(p) = e.encode_from_utf8(&text[cut..], &mut dst, last) {
                    if p.status == Status::OutputFull {
                        f.push(format!(
                            "{} {} cut {cut} last={last}: OutputFull with max_buffer_length_from_utf8({}) = {n}",
                            enc.name(),
                            cps(&text),
                            text.len() - cut
                        ));
                    }
                }
                // UTF-16, cut anywhere (possibly inside a pair).
                let cut16 = rng.below(units.len() + 1);
                let mut e = enc.new_encoder(EncoderErrorMode::Html);
                e.encode_from_utf16(&units[..cut16], &mut big, false)
                    .unwrap();
                let n = e.max_buffer_length_from_utf16(units.len() - cut16).unwrap();
                let mut dst = vec![0u8; n];
                if let Ok(p) = e.encode_from_utf16(&units[cut16..], &mut dst, last) {
                    if p.status == Status::OutputFull {
                        f.push(format!(
                            "{} {} cut16 {cut16} last={last}: OutputFull with max_buffer_length_from_utf16({}) = {n}",
                            enc.name(),
                            cps(&text),
                            units.len() - cut16
                        ));
                    }
                }
            }
        }
    }
    f.finish();
}

// ------------------------------------------------------------------------------------------------
// TextDecoder / TextEncoder streaming
// ------------------------------------------------------------------------------------------------

#[test]
fn text_decoder_stream_invariance() {
    let mut rng = Rng::new(5150);
    let mut f = Failures::new("TextDecoder streaming");
    for enc in Encoding::all() {
        if *enc == textcodec::REPLACEMENT {
            continue;
        }
        let label = enc.name();
        for s in decode_samples(enc, &mut rng, 8, 200) {
            let src = &s.bytes;
            for ignore_bom in [false, true] {
                // Reference: the Decoder without BOM handling, then "serialize I/O queue" drops a
                // first U+FEFF for UTF-8 and UTF-16BE/LE unless ignore BOM.
                let (mut want, _) = common::tc_decode_utf8(enc, src, BomHandling::Keep);
                let unicode =
                    [textcodec::UTF_8, textcodec::UTF_16BE, textcodec::UTF_16LE].contains(enc);
                if unicode && !ignore_bom && want.starts_with('\u{FEFF}') {
                    want.remove(0);
                }
                for _ in 0..4 {
                    let chunks = random_chunks(&mut rng, src.len());
                    let mut d = TextDecoder::new(
                        label,
                        TextDecoderOptions {
                            fatal: false,
                            ignore_bom,
                        },
                    )
                    .unwrap();
                    let mut got = String::new();
                    let mut got16 = Vec::new();
                    let mut d16 = TextDecoder::new(
                        label,
                        TextDecoderOptions {
                            fatal: false,
                            ignore_bom,
                        },
                    )
                    .unwrap();
                    let mut off = 0;
                    for &n in &chunks {
                        got += &d.decode(&src[off..off + n], true).unwrap();
                        got16.extend(d16.decode_to_utf16(&src[off..off + n], true).unwrap());
                        off += n;
                    }
                    got += &d.decode(&[], false).unwrap();
                    got16.extend(d16.decode_to_utf16(&[], false).unwrap());
                    if got != want || got16 != want.encode_utf16().collect::<Vec<u16>>() {
                        f.push(format!(
                            "{label} ignoreBOM={ignore_bom} {} chunks {chunks:?}: {} != {}",
                            hex(src),
                            cps(&got),
                            cps(&want)
                        ));
                        break;
                    }
                    // The decoder is reusable: a second stream gives the same.
                    let again = d.decode(src, false).unwrap();
                    if again != want {
                        f.push(format!(
                            "{label} {}: second stream {} != {}",
                            hex(src),
                            cps(&again),
                            cps(&want)
                        ));
                    }
                }
                // Fatal: Ok iff the replacement output had no errors.
                let mut d = TextDecoder::new(
                    label,
                    TextDecoderOptions {
                        fatal: true,
                        ignore_bom,
                    },
                )
                .unwrap();
                let errors = common::tc_decode_fatal_resumed_utf8(enc, src, BomHandling::Keep).1;
                match d.decode(src, false) {
                    Ok(s) if errors == 0 && s == want => {}
                    Err(_) if errors > 0 => {}
                    other => f.push(format!(
                        "{label} fatal {}: {other:?} but {errors} errors",
                        hex(src)
                    )),
                }
            }
        }
    }
    f.finish();
}

#[test]
fn text_encoder_encode_into_loop() {
    let mut rng = Rng::new(31337);
    let e = TextEncoder::new();
    for text in encode_samples(textcodec::UTF_8, &mut rng, 40, 200) {
        let want = e.encode(&text);
        assert_eq!(want, text.as_bytes());
        // Fill small buffers repeatedly; a scalar value is never split.
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < text.len() {
            let n = rng.range(0, 6);
            let mut dst = vec![0u8; n];
            let r = e.encode_into(&text[pos..], &mut dst);
            assert!(text.is_char_boundary(pos + r.read));
            assert_eq!(r.read, r.written, "UTF-8 to UTF-8");
            out.extend_from_slice(&dst[..r.written]);
            if r.read == 0 {
                // Only if the next scalar value does not fit.
                let next = text[pos..].chars().next().unwrap().len_utf8();
                assert!(next > n, "{n} bytes free, next needs {next}");
            }
            pos += r.read;
        }
        assert_eq!(out, want);
        // From UTF-16 with lone surrogates.
        let mut units: Vec<u16> = text.encode_utf16().collect();
        let at = rng.below(units.len() + 1);
        units.insert(at, 0xD800);
        let want16 = String::from_utf16_lossy(&units);
        assert_eq!(e.encode_utf16(&units), want16.as_bytes());
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < units.len() {
            let n = rng.range(0, 6);
            let mut dst = vec![0u8; n];
            let r = e.encode_utf16_into(&units[pos..], &mut dst);
            out.extend_from_slice(&dst[..r.written]);
            // Never ends between a leading and a trailing surrogate.
            if r.read > 0 && pos + r.read < units.len() {
                let prev = units[pos + r.read - 1];
                let next = units[pos + r.read];
                assert!(
                    !((0xD800..0xDC00).contains(&prev) && (0xDC00..0xE000).contains(&next)),
                    "split a surrogate pair"
                );
            }
            pos += r.read;
        }
        assert_eq!(out, want16.as_bytes());
    }
}

/// `TextEncoder::encode_utf16` on inputs longer than its 4 KiB buffer: characters, surrogate
/// pairs and lone surrogates across the buffer's edge, against the standard library.
#[test]
fn text_encoder_encode_utf16_across_its_buffer() {
    let e = textcodec::TextEncoder::new();
    let mut rng = Rng::new(29);
    for round in 0..400 {
        // About 4096 bytes of output and more, built from pieces of 1 to 4 bytes.
        let target = 4000 + rng.below(300) + (round % 4) * 4096;
        let mut units: Vec<u16> = Vec::new();
        let mut bytes = 0;
        while bytes < target {
            match rng.below(6) {
                0 => {
                    units.push(rng.range(0x20, 0x7F) as u16);
                    bytes += 1;
                }
                1 => {
                    units.push(rng.range(0x80, 0x800) as u16);
                    bytes += 2;
                }
                2 | 3 => {
                    units.push(rng.range(0x3000, 0xD800) as u16);
                    bytes += 3;
                }
                4 => {
                    units.push(rng.range(0xD800, 0xDC00) as u16);
                    units.push(rng.range(0xDC00, 0xE000) as u16);
                    bytes += 4;
                }
                _ => {
                    // A lone surrogate (U+FFFD, three bytes).
                    units.push(rng.range(0xD800, 0xE000) as u16);
                    bytes += 3;
                }
            }
        }
        if rng.chance(4) {
            units.push(0xD83D); // a leading surrogate ends the input
        }
        let want = String::from_utf16_lossy(&units);
        assert_eq!(e.encode_utf16(&units), want.as_bytes(), "round {round}");
    }
}
