//! The methods that give textcodec encoding_rs's API (`Encoding::decode`, `encode`,
//! `decode_with_bom_removal`, `decode_without_bom_handling`,
//! `decode_without_bom_handling_and_without_replacement`, `new_decoder_with_bom_removal`,
//! `new_decoder_without_bom_handling`, `for_label_no_replacement`, `is_single_byte`,
//! `can_encode_everything`, `is_ascii_compatible`, `utf8_valid_up_to`, `ascii_valid_up_to`,
//! `Decoder::decode_to_str`, `Encoder::encode_from_utf8_to_vec`) against encoding_rs itself (a
//! dev-dependency, the oracle): every 0-, 1- and 2-byte input of every encoding, each BOM
//! followed by every byte, the corpus in every encoding (whole, damaged, with BOMs, in random
//! chunks and into random buffer sizes), every scalar value through every encoder, and every
//! label.

use std::borrow::Cow;

use textcodec::dispatch::{level, set_level, Level};
use textcodec::{CoderResult, DecoderErrorMode, Encoding, Status};

mod support;
use support::Rng;

/// encoding_rs's encoding of the same name.
fn er(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    // An encoding's name, ASCII-lowercased, is one of its labels.
    encoding_rs::Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes()).unwrap()
}

/// The corpus text in the language that suits `enc` (or English).
fn corpus_text(enc: &'static Encoding) -> String {
    let lang = match enc.name() {
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
        "ISO-8859-14" | "ISO-8859-15" | "macintosh" | "windows-1252" => "fr",
        "UTF-8" | "UTF-16LE" | "UTF-16BE" => "th",
        _ => "en",
    };
    let text = support::corpus_text(lang);
    let mut end = text.len().min(40_000);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// `text` in `enc` (encoding_rs's encoder; UTF-16 by hand).
fn legacy_bytes(enc: &'static Encoding, text: &str) -> Vec<u8> {
    match enc.name() {
        "UTF-16LE" => text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect(),
        "UTF-16BE" => text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect(),
        _ => er(enc).encode(text).0.into_owned(),
    }
}

/// The whole-input methods on `bytes`, against encoding_rs's.
fn check_whole(enc: &'static Encoding, bytes: &[u8]) {
    let theirs = er(enc);
    let (text, used, had_errors) = enc.decode(bytes);
    let (want, want_used, want_errors) = theirs.decode(bytes);
    assert_eq!(
        (&*text, used.name(), had_errors),
        (&*want, want_used.name(), want_errors),
        "decode {} {bytes:02X?}",
        enc.name()
    );
    let (text, had_errors) = enc.decode_with_bom_removal(bytes);
    let (want, want_errors) = theirs.decode_with_bom_removal(bytes);
    assert_eq!(
        (&*text, had_errors),
        (&*want, want_errors),
        "decode_with_bom_removal {} {bytes:02X?}",
        enc.name()
    );
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    let (want, want_errors) = theirs.decode_without_bom_handling(bytes);
    assert_eq!(
        (&*text, had_errors),
        (&*want, want_errors),
        "decode_without_bom_handling {} {bytes:02X?}",
        enc.name()
    );
    assert_eq!(
        enc.decode_without_bom_handling_and_without_replacement(bytes)
            .as_deref(),
        theirs
            .decode_without_bom_handling_and_without_replacement(bytes)
            .as_deref(),
        "decode_without_bom_handling_and_without_replacement {} {bytes:02X?}",
        enc.name()
    );
}

/// The streaming decoders of `new_decoder_with_bom_removal` and
/// `new_decoder_without_bom_handling`, fed `bytes` whole and a byte at a time, against
/// encoding_rs's.
fn check_streaming(enc: &'static Encoding, bytes: &[u8]) {
    let theirs = er(enc);
    for removal in [true, false] {
        let mut want = String::with_capacity(4 * bytes.len() + 16);
        let mut d = if removal {
            theirs.new_decoder_with_bom_removal()
        } else {
            theirs.new_decoder_without_bom_handling()
        };
        let (result, _, want_errors) = d.decode_to_string(bytes, &mut want, true);
        assert_eq!(result, encoding_rs::CoderResult::InputEmpty);
        for whole in [true, false] {
            let mut ours = if removal {
                enc.new_decoder_with_bom_removal()
            } else {
                enc.new_decoder_without_bom_handling()
            };
            let mut text = String::new();
            let mut replaced = false;
            if whole {
                let p = ours.decode_to_string(bytes, &mut text, true).unwrap();
                replaced = p.replaced;
            } else {
                for (k, b) in bytes.iter().enumerate() {
                    let p = ours
                        .decode_to_string(&[*b], &mut text, k + 1 == bytes.len())
                        .unwrap();
                    replaced |= p.replaced;
                }
                if bytes.is_empty() {
                    ours.decode_to_string(&[], &mut text, true).unwrap();
                }
            }
            assert_eq!(
                (&*text, replaced),
                (&*want, want_errors),
                "{} removal {removal} whole {whole} {bytes:02X?}",
                enc.name()
            );
        }
    }
}

fn exhaustive_short(enc: &'static Encoding) {
    check_whole(enc, &[]);
    check_streaming(enc, &[]);
    for a in 0..=255u8 {
        check_whole(enc, &[a]);
        check_streaming(enc, &[a]);
        for b in 0..=255u8 {
            check_whole(enc, &[a, b]);
        }
    }
    // Every BOM (and its start) followed by every byte, and by some pairs.
    for bom in [&b"\xEF\xBB\xBF"[..], b"\xEF\xBB", b"\xFF\xFE", b"\xFE\xFF"] {
        for a in 0..=255u8 {
            let mut input = bom.to_vec();
            input.push(a);
            check_whole(enc, &input);
            check_streaming(enc, &input);
            for b in [0x00, 0x41, 0x80, 0xA4, 0xBF, 0xD8, 0xDC, 0xFF] {
                input.push(b);
                check_whole(enc, &input);
                check_streaming(enc, &input);
                input.pop();
            }
        }
    }
}

macro_rules! per_encoding {
    ($($test:ident => $enc:ident,)*) => {
        $(
            #[test]
            fn $test() {
                exhaustive_short(textcodec::$enc);
                corpus(textcodec::$enc);
            }
        )*
        #[test]
        fn every_encoding_is_covered() {
            let covered = [$(textcodec::$enc),*];
            assert!(Encoding::all().iter().all(|e| covered.contains(e)));
        }
    };
}

per_encoding! {
    utf_8 => UTF_8,
    ibm866 => IBM866,
    iso_8859_2 => ISO_8859_2,
    iso_8859_3 => ISO_8859_3,
    iso_8859_4 => ISO_8859_4,
    iso_8859_5 => ISO_8859_5,
    iso_8859_6 => ISO_8859_6,
    iso_8859_7 => ISO_8859_7,
    iso_8859_8 => ISO_8859_8,
    iso_8859_8_i => ISO_8859_8_I,
    iso_8859_10 => ISO_8859_10,
    iso_8859_13 => ISO_8859_13,
    iso_8859_14 => ISO_8859_14,
    iso_8859_15 => ISO_8859_15,
    iso_8859_16 => ISO_8859_16,
    koi8_r => KOI8_R,
    koi8_u => KOI8_U,
    macintosh => MACINTOSH,
    windows_874 => WINDOWS_874,
    windows_1250 => WINDOWS_1250,
    windows_1251 => WINDOWS_1251,
    windows_1252 => WINDOWS_1252,
    windows_1253 => WINDOWS_1253,
    windows_1254 => WINDOWS_1254,
    windows_1255 => WINDOWS_1255,
    windows_1256 => WINDOWS_1256,
    windows_1257 => WINDOWS_1257,
    windows_1258 => WINDOWS_1258,
    x_mac_cyrillic => X_MAC_CYRILLIC,
    gbk => GBK,
    gb18030 => GB18030,
    big5 => BIG5,
    euc_jp => EUC_JP,
    iso_2022_jp => ISO_2022_JP,
    shift_jis => SHIFT_JIS,
    euc_kr => EUC_KR,
    replacement => REPLACEMENT,
    utf_16be => UTF_16BE,
    utf_16le => UTF_16LE,
    x_user_defined => X_USER_DEFINED,
}

/// A `str` of exactly `len` bytes, of one- to four-byte characters, for `decode_to_str` to
/// write over.
fn filler(len: usize) -> String {
    let mut s = String::with_capacity(len);
    for c in ['é', '火', '😀', 'x'].iter().cycle() {
        if s.len() + c.len_utf8() > len {
            break;
        }
        s.push(*c);
    }
    while s.len() < len {
        s.push('y');
    }
    s
}

/// `src` through `decode_to_str`, in `chunks` (the last with `last: true`), into `str`s of the
/// sizes `sizes` gives: the text and whether a U+FFFD was written. Checks that each call
/// leaves the bytes past `written` as they were, but for the continuation bytes right after
/// it, zeroed.
fn tc_decode_to_str(
    decoder: &mut textcodec::Decoder,
    src: &[u8],
    chunks: &[usize],
    sizes: &mut dyn FnMut() -> usize,
) -> (String, bool) {
    let mut out = String::new();
    let mut replaced = false;
    let mut at = 0;
    for (k, &end) in chunks.iter().enumerate() {
        let last = k + 1 == chunks.len();
        let mut stuck = 0;
        loop {
            let mut buf = filler(sizes());
            let before = buf.clone().into_bytes();
            let (result, read, written, rep) = decoder.decode_to_str(&src[at..end], &mut buf, last);
            let after = buf.as_bytes();
            let zeroed = before[written..]
                .iter()
                .take(3)
                .take_while(|&&b| b & 0xC0 == 0x80)
                .count();
            assert!(after[written..written + zeroed].iter().all(|&b| b == 0));
            assert_eq!(after[written + zeroed..], before[written + zeroed..]);
            out.push_str(&buf[..written]);
            at += read;
            replaced |= rep;
            match result {
                CoderResult::InputEmpty => {
                    assert_eq!(at, end);
                    break;
                }
                CoderResult::OutputFull => {
                    stuck = if read + written == 0 { stuck + 1 } else { 0 };
                    assert!(stuck < 50, "no progress");
                }
            }
        }
    }
    (out, replaced)
}

/// The same through encoding_rs's `decode_to_str`.
fn er_decode_to_str(
    decoder: &mut encoding_rs::Decoder,
    src: &[u8],
    chunks: &[usize],
    size: usize,
) -> (String, bool) {
    let mut out = String::new();
    let mut replaced = false;
    let mut at = 0;
    for (k, &end) in chunks.iter().enumerate() {
        let last = k + 1 == chunks.len();
        loop {
            let mut buf = filler(size);
            let (result, read, written, rep) = decoder.decode_to_str(&src[at..end], &mut buf, last);
            out.push_str(&buf[..written]);
            at += read;
            replaced |= rep;
            if result == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
    }
    (out, replaced)
}

/// Random chunk ends for `len` bytes (the last is `len`).
fn chunk_ends(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut at = 0;
    while at < len {
        let most = if rng.below(4) == 0 { 7 } else { 3000 };
        at = len.min(at + 1 + rng.below(most));
        ends.push(at);
    }
    if ends.is_empty() {
        ends.push(0);
    }
    ends
}

/// Corpus text in `enc`, whole, with BOMs and damaged: the whole-input methods, the streaming
/// decoders, `decode_to_str` in random chunks into random sizes, and the encoder methods.
fn corpus(enc: &'static Encoding) {
    let text = corpus_text(enc);
    let bytes = legacy_bytes(enc, &text);
    let mut rng = Rng::new(0x1234_5678 ^ enc.name().len() as u64);
    let mut inputs = vec![bytes.clone()];
    for bom in [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"] {
        let mut with = bom.to_vec();
        with.extend_from_slice(&bytes[..bytes.len().min(3000)]);
        inputs.push(with);
    }
    let mut damaged = bytes.clone();
    for _ in 0..damaged.len() / 200 + 1 {
        if !damaged.is_empty() {
            let at = rng.below(damaged.len());
            damaged[at] = rng.byte();
        }
    }
    inputs.push(damaged);
    for input in &inputs {
        check_whole(enc, input);
        check_streaming(enc, &input[..input.len().min(2000)]);
        let chunks = chunk_ends(&mut rng, input.len());
        for removal in [true, false] {
            let (mut ours, mut theirs) = if removal {
                (
                    enc.new_decoder_with_bom_removal(),
                    er(enc).new_decoder_with_bom_removal(),
                )
            } else {
                (
                    enc.new_decoder_without_bom_handling(),
                    er(enc).new_decoder_without_bom_handling(),
                )
            };
            // Sizes from the smallest that always makes progress to more than enough.
            let mut sizes = || match rng.below(3) {
                0 => 4 + rng.below(12),
                1 => 16 + rng.below(300),
                _ => 3 * input.len() + 16,
            };
            let got = tc_decode_to_str(&mut ours, input, &chunks, &mut sizes);
            let want = er_decode_to_str(&mut theirs, input, &chunks, 64);
            assert_eq!(got, want, "decode_to_str {} removal {removal}", enc.name());
        }
    }
    // The encoder methods, on the text, on every scalar value, and on text with characters
    // the encoding lacks.
    let mut all_scalars: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    all_scalars.push_str(&text);
    for input in [
        &text[..],
        &all_scalars,
        "a☃b\u{E5E5}\u{FFFD}\u{1B}\u{0E}¥~é",
    ] {
        let (bytes, used, replaced) = enc.encode(input);
        let (want, want_used, want_replaced) = er(enc).encode(input);
        assert_eq!(
            (&*bytes, used.name(), replaced),
            (&*want, want_used.name(), want_replaced),
            "encode {}",
            enc.name()
        );
        let ours = tc_encode_to_vec(enc, input, &mut rng);
        let theirs = er_encode_to_vec(enc, input);
        assert_eq!(ours, theirs, "encode_from_utf8_to_vec {}", enc.name());
        assert_eq!(ours.0, want.into_owned());
    }
}

/// `text` through `encode_from_utf8_to_vec` in random pieces into random capacities, each
/// call checked not to reallocate: the bytes and whether a character was replaced.
fn tc_encode_to_vec(enc: &'static Encoding, text: &str, rng: &mut Rng) -> (Vec<u8>, bool) {
    // An encoder in fatal mode: the method replaces whatever the mode, and keeps it.
    let mut encoder = enc.new_encoder(textcodec::EncoderErrorMode::Fatal);
    let mut out = Vec::with_capacity(rng.below(40));
    let mut replaced = false;
    let mut at = 0;
    while at < text.len() || at == 0 {
        let mut end = text.len().min(at + 1 + rng.below(5000));
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let last = end == text.len();
        let mut read = at;
        loop {
            let (ptr, capacity) = (out.as_ptr(), out.capacity());
            let (result, r, rep) =
                encoder.encode_from_utf8_to_vec(&text[read..end], &mut out, last);
            assert_eq!(
                (out.as_ptr(), out.capacity()),
                (ptr, capacity),
                "reallocated"
            );
            read += r;
            replaced |= rep;
            if result == Status::InputEmpty {
                break;
            }
            out.reserve(16 + rng.below(3000));
        }
        assert_eq!(read, end);
        at = end;
        if last {
            break;
        }
    }
    assert_eq!(
        encoder.error_mode(),
        textcodec::EncoderErrorMode::Fatal,
        "the mode is kept"
    );
    (out, replaced)
}

fn er_encode_to_vec(enc: &'static Encoding, text: &str) -> (Vec<u8>, bool) {
    let mut encoder = er(enc).new_encoder();
    let mut out = Vec::with_capacity(16);
    let mut replaced = false;
    let mut read = 0;
    loop {
        let (result, r, rep) = encoder.encode_from_utf8_to_vec(&text[read..], &mut out, true);
        read += r;
        replaced |= rep;
        if result == encoding_rs::CoderResult::InputEmpty {
            return (out, replaced);
        }
        out.reserve(4096);
    }
}

#[test]
fn decode_to_str_replaces_in_a_fatal_decoder_and_keeps_its_mode() {
    let mut decoder = textcodec::UTF_8.new_decoder(textcodec::DecoderOptions {
        error_mode: DecoderErrorMode::Fatal,
        ..Default::default()
    });
    let mut buf = filler(16);
    let (result, read, written, replaced) = decoder.decode_to_str(b"a\xFFb", &mut buf, true);
    assert_eq!(
        (result, read, written, replaced),
        (Status::InputEmpty, 3, 5, true)
    );
    assert_eq!(&buf[..written], "a\u{FFFD}b");
    assert_eq!(decoder.options().error_mode, DecoderErrorMode::Fatal);
    let mut out = [0u8; 8];
    assert!(decoder.decode_to_utf8(b"\xFF", &mut out, true).is_err());
}

#[test]
fn labels_without_the_replacement_encoding() {
    let mut labels: Vec<Vec<u8>> = Vec::new();
    for enc in Encoding::all() {
        for label in enc.labels() {
            labels.push(label.as_bytes().to_vec());
            labels.push(label.to_ascii_uppercase().into_bytes());
            labels.push(format!(" \t{label}\n\x0C").into_bytes());
            labels.push(format!("{label}\x0B").into_bytes());
            labels.push(format!("{label}x").into_bytes());
        }
    }
    for junk in [
        &b""[..],
        b" ",
        b"utf8 ",
        b"\xC3\xA9",
        b"unicode-1-1-utf-7",
        b"x-mac-ukrainian",
    ] {
        labels.push(junk.to_vec());
    }
    for label in &labels {
        let ours = Encoding::for_label_no_replacement(label).map(|e| e.name());
        let theirs = encoding_rs::Encoding::for_label_no_replacement(label).map(|e| e.name());
        assert_eq!(ours, theirs, "{label:02X?}");
        assert_ne!(ours, Some("replacement"));
    }
}

#[test]
fn predicates_of_every_encoding() {
    for &enc in Encoding::all() {
        let theirs = er(enc);
        assert_eq!(
            enc.is_single_byte(),
            theirs.is_single_byte(),
            "{}",
            enc.name()
        );
        assert_eq!(
            enc.can_encode_everything(),
            theirs.can_encode_everything(),
            "{}",
            enc.name()
        );
        assert_eq!(
            enc.is_ascii_compatible(),
            theirs.is_ascii_compatible(),
            "{}",
            enc.name()
        );
    }
    let single: Vec<_> = Encoding::all()
        .iter()
        .filter(|e| e.is_single_byte())
        .collect();
    assert_eq!(single.len(), 29); // the 28 legacy single-byte encodings and x-user-defined
}

/// The levels of this CPU, lowest first (printed, with those skipped).
fn levels() -> Vec<Level> {
    support::dispatch_levels()
}

fn check_valid_up_to(bytes: &[u8]) {
    let std = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let ours = Encoding::utf8_valid_up_to(bytes);
    assert_eq!(
        ours,
        encoding_rs::Encoding::utf8_valid_up_to(bytes),
        "{bytes:02X?}"
    );
    assert_eq!(ours, std, "{bytes:02X?}");
    assert_eq!(
        Encoding::ascii_valid_up_to(bytes),
        encoding_rs::Encoding::ascii_valid_up_to(bytes),
        "{bytes:02X?}"
    );
}

/// `utf8_valid_up_to` and `ascii_valid_up_to` at every level of this CPU (the only test here
/// that changes the level, which is global): every input of up to two bytes, every three- and
/// four-byte input whose bytes matter (each lead with each second byte, and edge values
/// after), and the corpus with errors at every position of a window, at every alignment.
#[test]
fn valid_up_to_at_every_level() {
    let edges = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF,
    ];
    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    for a in 0..=255u8 {
        inputs.push(vec![a]);
        for b in 0..=255u8 {
            inputs.push(vec![a, b]);
            if a >= 0xC0 {
                for &c in &edges {
                    inputs.push(vec![a, b, c]);
                    if a >= 0xF0 {
                        for &d in &edges {
                            inputs.push(vec![a, b, c, d]);
                        }
                    }
                }
            }
        }
    }
    let mut text = Vec::new();
    for lang in ["ja", "ru", "en", "th", "fr"] {
        text.extend_from_slice(&support::corpus_text(lang).as_bytes()[..5000]);
    }
    let before = level();
    for l in levels() {
        set_level(l);
        for input in &inputs {
            check_valid_up_to(input);
            // At the end of a long run of ASCII, and inside one.
            let mut long = vec![b'a'; 67];
            long.extend_from_slice(input);
            check_valid_up_to(&long);
            long.extend_from_slice(&[b'b'; 40]);
            check_valid_up_to(&long);
        }
        for at in 0..300 {
            for bad in [0xFF, 0x80, 0xC3, 0xE2] {
                let mut damaged = text.clone();
                damaged[4000 + at] = bad;
                check_valid_up_to(&damaged[at % 64..]);
                check_valid_up_to(&damaged[at % 64..4001 + at]);
            }
            let mut ascii = [b'z'; 200];
            ascii[at % 200] = 0x80 | at as u8;
            check_valid_up_to(&ascii[at / 200..]);
        }
        check_valid_up_to(&text);
    }
    set_level(before);
}

#[test]
fn borrowed_when_nothing_changes() {
    assert!(matches!(
        textcodec::UTF_8.decode(b"abc").0,
        Cow::Borrowed("abc")
    ));
    assert!(matches!(
        textcodec::SHIFT_JIS.decode_without_bom_handling(b"abc").0,
        Cow::Borrowed("abc")
    ));
    assert!(matches!(
        textcodec::UTF_8
            .decode_with_bom_removal(b"\xEF\xBB\xBFabc")
            .0,
        Cow::Borrowed("abc")
    ));
    assert!(matches!(
        textcodec::EUC_KR.decode_without_bom_handling_and_without_replacement(b"abc"),
        Some(Cow::Borrowed("abc"))
    ));
    assert!(matches!(
        textcodec::UTF_16LE.encode("abc").0,
        Cow::Borrowed(b"abc")
    ));
}
