//! Hand-written vectors for the traps the spec names. Each test quotes the spec step it checks
//! (the Encoding Standard, https://encoding.spec.whatwg.org/). Expected values were hand-traced through the spec text.

mod common;

use std::borrow::Cow;

use common::{cps, dopts, hex, ncr};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status, TextDecoder,
    TextDecoderOptions, TextEncoder,
};
use textcodec::{
    BIG5, EUC_JP, EUC_KR, GB18030, GBK, ISO_2022_JP, REPLACEMENT, SHIFT_JIS, UTF_16BE, UTF_16LE,
    UTF_8, WINDOWS_1252, X_USER_DEFINED,
};

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

/// Decode `bytes` (no BOM handling) in every way the API offers and check each gives `expected`:
/// one-shot to UTF-8, to UTF-16, to String, byte by byte, and fatal mode resumed after each error
/// (U+FFFD inserted at each Err), with as many errors as `expected` has U+FFFDs.
#[track_caller]
fn check_dec(enc: &'static Encoding, bytes: &[u8], expected: &str) {
    check_dec_errors(enc, bytes, expected, expected.matches('\u{FFFD}').count());
}

/// `check_dec` for an expected output with literal U+FFFDs: `n_fffd` is the number of errors.
#[track_caller]
fn check_dec_errors(enc: &'static Encoding, bytes: &[u8], expected: &str, n_fffd: usize) {
    let ctx = format!("{} {}", enc.name(), hex(bytes));
    let (got, replaced) = common::tc_decode_utf8(enc, bytes, BomHandling::Keep);
    assert_eq!(cps(&got), cps(expected), "{ctx}: one-shot to UTF-8");
    assert_eq!(replaced, n_fffd > 0, "{ctx}: replaced flag");
    let (got16, _) = common::tc_decode_utf16(enc, bytes, BomHandling::Keep);
    assert_eq!(
        got16,
        expected.encode_utf16().collect::<Vec<u16>>(),
        "{ctx}: one-shot to UTF-16"
    );
    // decode_to_string appends.
    let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
    let mut s = String::from("x");
    let p = d.decode_to_string(bytes, &mut s, true).unwrap();
    assert_eq!(
        p.status,
        Status::InputEmpty,
        "{ctx}: decode_to_string status"
    );
    assert_eq!(cps(&s[1..]), cps(expected), "{ctx}: decode_to_string");
    // Byte by byte, then an empty last call.
    let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
    let mut out = String::new();
    for b in bytes {
        let mut dst = [0u8; 64];
        let p = d
            .decode_to_utf8(std::slice::from_ref(b), &mut dst, false)
            .unwrap();
        assert_eq!(
            (p.status, p.read),
            (Status::InputEmpty, 1),
            "{ctx}: byte by byte"
        );
        out.push_str(std::str::from_utf8(&dst[..p.written]).unwrap());
    }
    let mut dst = [0u8; 64];
    let p = d.decode_to_utf8(&[], &mut dst, true).unwrap();
    out.push_str(std::str::from_utf8(&dst[..p.written]).unwrap());
    assert_eq!(cps(&out), cps(expected), "{ctx}: byte by byte");
    // Fatal mode.
    let (fatal, errors) = common::tc_decode_fatal_resumed_utf8(enc, bytes, BomHandling::Keep);
    assert_eq!(
        cps(&fatal),
        cps(expected),
        "{ctx}: fatal resumed (U+FFFD at each Err)"
    );
    assert_eq!(errors, n_fffd, "{ctx}: number of errors in fatal mode");
}

/// Fatal mode, one call at a time with `src[read..]`: the sequence of `Err { read, written }`.
#[track_caller]
fn check_fatal_steps(enc: &'static Encoding, bytes: &[u8], steps: &[(usize, usize)]) {
    let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
    let mut pos = 0;
    let mut got = Vec::new();
    loop {
        let mut dst = [0u8; 256];
        match d.decode_to_utf8(&bytes[pos..], &mut dst, true) {
            Ok(_) => break,
            Err(e) => {
                got.push((e.read, e.written));
                pos += e.read;
                assert!(got.len() <= bytes.len() + 1, "stuck");
            }
        }
    }
    assert_eq!(
        got,
        steps,
        "{} {}: fatal Err (read, written) steps",
        enc.name(),
        hex(bytes)
    );
}

/// Encode `text` in html mode (expected bytes) and fatal mode (expected unmappables), from UTF-8
/// and UTF-16, one-shot and char by char.
#[track_caller]
fn check_enc(enc: &'static Encoding, text: &str, html: &[u8], unmappables: &[char]) {
    let ctx = format!("{} {}", enc.name(), cps(text));
    let (got, replaced) = common::tc_encode_utf8(enc, text);
    assert_eq!(hex(&got), hex(html), "{ctx}: html mode");
    assert_eq!(replaced, !unmappables.is_empty(), "{ctx}: replaced flag");
    // From UTF-16.
    let u: Vec<u16> = text.encode_utf16().collect();
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut dst = vec![0u8; e.max_buffer_length_from_utf16(u.len()).unwrap()];
    let p = e.encode_from_utf16(&u, &mut dst, true).unwrap();
    assert_eq!(
        hex(&dst[..p.written]),
        hex(html),
        "{ctx}: html mode from UTF-16"
    );
    // Char by char, then an empty last call.
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        let mut dst = [0u8; 64];
        let p = e
            .encode_from_utf8(&text[i..i + c.len_utf8()], &mut dst, false)
            .unwrap();
        assert_eq!(p.status, Status::InputEmpty);
        out.extend_from_slice(&dst[..p.written]);
    }
    let mut dst = [0u8; 64];
    let p = e.encode_from_utf8("", &mut dst, true).unwrap();
    out.extend_from_slice(&dst[..p.written]);
    assert_eq!(hex(&out), hex(html), "{ctx}: html mode char by char");
    // Fatal.
    let (fatal, errs) = common::tc_encode_fatal_resumed_utf8(enc, text);
    assert_eq!(errs, unmappables, "{ctx}: fatal-mode unmappables");
    assert_eq!(
        hex(&fatal),
        hex(html),
        "{ctx}: fatal resumed, references inserted"
    );
}

// ------------------------------------------------------------------------------------------------
// Names, labels, get an encoding, get an output encoding
// ------------------------------------------------------------------------------------------------

/// The spec's table, "Names and labels" (from encodings.json), in order.
const SPEC_TABLE: &[(&str, &[&str])] = &[
    (
        "UTF-8",
        &[
            "unicode-1-1-utf-8",
            "unicode11utf8",
            "unicode20utf8",
            "utf-8",
            "utf8",
            "x-unicode20utf8",
        ],
    ),
    ("IBM866", &["866", "cp866", "csibm866", "ibm866"]),
    (
        "ISO-8859-2",
        &[
            "csisolatin2",
            "iso-8859-2",
            "iso-ir-101",
            "iso8859-2",
            "iso88592",
            "iso_8859-2",
            "iso_8859-2:1987",
            "l2",
            "latin2",
        ],
    ),
    (
        "ISO-8859-3",
        &[
            "csisolatin3",
            "iso-8859-3",
            "iso-ir-109",
            "iso8859-3",
            "iso88593",
            "iso_8859-3",
            "iso_8859-3:1988",
            "l3",
            "latin3",
        ],
    ),
    (
        "ISO-8859-4",
        &[
            "csisolatin4",
            "iso-8859-4",
            "iso-ir-110",
            "iso8859-4",
            "iso88594",
            "iso_8859-4",
            "iso_8859-4:1988",
            "l4",
            "latin4",
        ],
    ),
    (
        "ISO-8859-5",
        &[
            "csisolatincyrillic",
            "cyrillic",
            "iso-8859-5",
            "iso-ir-144",
            "iso8859-5",
            "iso88595",
            "iso_8859-5",
            "iso_8859-5:1988",
        ],
    ),
    (
        "ISO-8859-6",
        &[
            "arabic",
            "asmo-708",
            "csiso88596e",
            "csiso88596i",
            "csisolatinarabic",
            "ecma-114",
            "iso-8859-6",
            "iso-8859-6-e",
            "iso-8859-6-i",
            "iso-ir-127",
            "iso8859-6",
            "iso88596",
            "iso_8859-6",
            "iso_8859-6:1987",
        ],
    ),
    (
        "ISO-8859-7",
        &[
            "csisolatingreek",
            "ecma-118",
            "elot_928",
            "greek",
            "greek8",
            "iso-8859-7",
            "iso-ir-126",
            "iso8859-7",
            "iso88597",
            "iso_8859-7",
            "iso_8859-7:1987",
            "sun_eu_greek",
        ],
    ),
    (
        "ISO-8859-8",
        &[
            "csiso88598e",
            "csisolatinhebrew",
            "hebrew",
            "iso-8859-8",
            "iso-8859-8-e",
            "iso-ir-138",
            "iso8859-8",
            "iso88598",
            "iso_8859-8",
            "iso_8859-8:1988",
            "visual",
        ],
    ),
    ("ISO-8859-8-I", &["csiso88598i", "iso-8859-8-i", "logical"]),
    (
        "ISO-8859-10",
        &[
            "csisolatin6",
            "iso-8859-10",
            "iso-ir-157",
            "iso8859-10",
            "iso885910",
            "l6",
            "latin6",
        ],
    ),
    ("ISO-8859-13", &["iso-8859-13", "iso8859-13", "iso885913"]),
    ("ISO-8859-14", &["iso-8859-14", "iso8859-14", "iso885914"]),
    (
        "ISO-8859-15",
        &[
            "csisolatin9",
            "iso-8859-15",
            "iso8859-15",
            "iso885915",
            "iso_8859-15",
            "l9",
        ],
    ),
    ("ISO-8859-16", &["iso-8859-16"]),
    ("KOI8-R", &["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"]),
    ("KOI8-U", &["koi8-ru", "koi8-u"]),
    (
        "macintosh",
        &["csmacintosh", "mac", "macintosh", "x-mac-roman"],
    ),
    (
        "windows-874",
        &[
            "dos-874",
            "iso-8859-11",
            "iso8859-11",
            "iso885911",
            "tis-620",
            "windows-874",
        ],
    ),
    ("windows-1250", &["cp1250", "windows-1250", "x-cp1250"]),
    ("windows-1251", &["cp1251", "windows-1251", "x-cp1251"]),
    (
        "windows-1252",
        &[
            "ansi_x3.4-1968",
            "ascii",
            "cp1252",
            "cp819",
            "csisolatin1",
            "ibm819",
            "iso-8859-1",
            "iso-ir-100",
            "iso8859-1",
            "iso88591",
            "iso_8859-1",
            "iso_8859-1:1987",
            "l1",
            "latin1",
            "us-ascii",
            "windows-1252",
            "x-cp1252",
        ],
    ),
    ("windows-1253", &["cp1253", "windows-1253", "x-cp1253"]),
    (
        "windows-1254",
        &[
            "cp1254",
            "csisolatin5",
            "iso-8859-9",
            "iso-ir-148",
            "iso8859-9",
            "iso88599",
            "iso_8859-9",
            "iso_8859-9:1989",
            "l5",
            "latin5",
            "windows-1254",
            "x-cp1254",
        ],
    ),
    ("windows-1255", &["cp1255", "windows-1255", "x-cp1255"]),
    ("windows-1256", &["cp1256", "windows-1256", "x-cp1256"]),
    ("windows-1257", &["cp1257", "windows-1257", "x-cp1257"]),
    ("windows-1258", &["cp1258", "windows-1258", "x-cp1258"]),
    ("x-mac-cyrillic", &["x-mac-cyrillic", "x-mac-ukrainian"]),
    (
        "GBK",
        &[
            "chinese",
            "csgb2312",
            "csiso58gb231280",
            "gb2312",
            "gb_2312",
            "gb_2312-80",
            "gbk",
            "iso-ir-58",
            "x-gbk",
        ],
    ),
    ("gb18030", &["gb18030"]),
    (
        "Big5",
        &["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"],
    ),
    ("EUC-JP", &["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
    ("ISO-2022-JP", &["csiso2022jp", "iso-2022-jp"]),
    (
        "Shift_JIS",
        &[
            "csshiftjis",
            "ms932",
            "ms_kanji",
            "shift-jis",
            "shift_jis",
            "sjis",
            "windows-31j",
            "x-sjis",
        ],
    ),
    (
        "EUC-KR",
        &[
            "cseuckr",
            "csksc56011987",
            "euc-kr",
            "iso-ir-149",
            "korean",
            "ks_c_5601-1987",
            "ks_c_5601-1989",
            "ksc5601",
            "ksc_5601",
            "windows-949",
        ],
    ),
    (
        "replacement",
        &[
            "csiso2022kr",
            "hz-gb-2312",
            "iso-2022-cn",
            "iso-2022-cn-ext",
            "iso-2022-kr",
            "replacement",
        ],
    ),
    ("UTF-16BE", &["unicodefffe", "utf-16be"]),
    (
        "UTF-16LE",
        &[
            "csunicode",
            "iso-10646-ucs-2",
            "ucs-2",
            "unicode",
            "unicodefeff",
            "utf-16",
            "utf-16le",
        ],
    ),
    ("x-user-defined", &["x-user-defined"]),
];

#[test]
fn all_encodings_in_spec_order_with_names_and_labels() {
    // "The table below lists all encodings and their labels user agents must support."
    let all = Encoding::all();
    assert_eq!(all.len(), 40);
    for (enc, (name, labels)) in all.iter().zip(SPEC_TABLE) {
        assert_eq!(enc.name(), *name);
        let mut got: Vec<&str> = enc.labels().to_vec();
        got.sort_unstable();
        let mut want = labels.to_vec();
        want.sort_unstable();
        assert_eq!(got, want, "labels of {name}");
    }
    // Distinct statics.
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(a != b);
        }
    }
}

#[test]
fn statics_are_named_after_spec_names() {
    let statics: [(&'static Encoding, &str); 40] = [
        (textcodec::UTF_8, "UTF-8"),
        (textcodec::IBM866, "IBM866"),
        (textcodec::ISO_8859_2, "ISO-8859-2"),
        (textcodec::ISO_8859_3, "ISO-8859-3"),
        (textcodec::ISO_8859_4, "ISO-8859-4"),
        (textcodec::ISO_8859_5, "ISO-8859-5"),
        (textcodec::ISO_8859_6, "ISO-8859-6"),
        (textcodec::ISO_8859_7, "ISO-8859-7"),
        (textcodec::ISO_8859_8, "ISO-8859-8"),
        (textcodec::ISO_8859_8_I, "ISO-8859-8-I"),
        (textcodec::ISO_8859_10, "ISO-8859-10"),
        (textcodec::ISO_8859_13, "ISO-8859-13"),
        (textcodec::ISO_8859_14, "ISO-8859-14"),
        (textcodec::ISO_8859_15, "ISO-8859-15"),
        (textcodec::ISO_8859_16, "ISO-8859-16"),
        (textcodec::KOI8_R, "KOI8-R"),
        (textcodec::KOI8_U, "KOI8-U"),
        (textcodec::MACINTOSH, "macintosh"),
        (textcodec::WINDOWS_874, "windows-874"),
        (textcodec::WINDOWS_1250, "windows-1250"),
        (textcodec::WINDOWS_1251, "windows-1251"),
        (textcodec::WINDOWS_1252, "windows-1252"),
        (textcodec::WINDOWS_1253, "windows-1253"),
        (textcodec::WINDOWS_1254, "windows-1254"),
        (textcodec::WINDOWS_1255, "windows-1255"),
        (textcodec::WINDOWS_1256, "windows-1256"),
        (textcodec::WINDOWS_1257, "windows-1257"),
        (textcodec::WINDOWS_1258, "windows-1258"),
        (textcodec::X_MAC_CYRILLIC, "x-mac-cyrillic"),
        (textcodec::GBK, "GBK"),
        (textcodec::GB18030, "gb18030"),
        (textcodec::BIG5, "Big5"),
        (textcodec::EUC_JP, "EUC-JP"),
        (textcodec::ISO_2022_JP, "ISO-2022-JP"),
        (textcodec::SHIFT_JIS, "Shift_JIS"),
        (textcodec::EUC_KR, "EUC-KR"),
        (textcodec::REPLACEMENT, "replacement"),
        (textcodec::UTF_16BE, "UTF-16BE"),
        (textcodec::UTF_16LE, "UTF-16LE"),
        (textcodec::X_USER_DEFINED, "x-user-defined"),
    ];
    for (i, (enc, name)) in statics.iter().enumerate() {
        assert_eq!(enc.name(), *name);
        assert!(Encoding::all()[i] == *enc, "Encoding::all()[{i}] is {name}");
    }
}

#[test]
fn get_an_encoding_every_label() {
    // "If label is an ASCII case-insensitive match for any of the labels listed in the table
    // below, then return the corresponding encoding; otherwise return failure."
    for (enc, (_, labels)) in Encoding::all().iter().zip(SPEC_TABLE) {
        for label in *labels {
            assert!(
                Encoding::for_label(label.as_bytes()) == Some(*enc),
                "{label}"
            );
            let upper = label.to_ascii_uppercase();
            assert!(
                Encoding::for_label(upper.as_bytes()) == Some(*enc),
                "{upper}"
            );
            let mixed: String = label
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            assert!(
                Encoding::for_label(mixed.as_bytes()) == Some(*enc),
                "{mixed}"
            );
            // "Remove any leading and trailing ASCII whitespace from label."
            // ASCII whitespace is U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, or U+0020 SPACE.
            let padded = format!("\t\n\x0C\r {label}\t\n\x0C\r ");
            assert!(
                Encoding::for_label(padded.as_bytes()) == Some(*enc),
                "{padded:?}"
            );
            // Not whitespace: U+000B VT, U+00A0 NBSP; and whitespace inside is not trimmed.
            for bad in [
                format!("{label}\x0B"),
                format!("\x0B{label}"),
                format!("\u{A0}{label}"),
                format!("{label}\u{A0}"),
                format!("{label}\0"),
                format!("{label} x"),
                format!("{label}-"),
            ] {
                assert!(
                    Encoding::for_label(bad.as_bytes()).is_none(),
                    "{bad:?} must fail"
                );
            }
        }
        // The lowercased name is a label.
        assert!(Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes()) == Some(*enc));
        assert!(Encoding::for_label(enc.name().as_bytes()) == Some(*enc));
    }
}

#[test]
fn get_an_encoding_traps() {
    assert!(Encoding::for_label(b"UTF-8") == Some(UTF_8));
    assert!(Encoding::for_label(b" utf-8 ") == Some(UTF_8));
    assert!(
        Encoding::for_label(b"utf-8\x0B").is_none(),
        "U+000B is not ASCII whitespace"
    );
    assert!(Encoding::for_label(b"").is_none());
    assert!(Encoding::for_label(b"   ").is_none());
    assert!(Encoding::for_label(b"utf 8").is_none());
    assert!(Encoding::for_label(b"utf-16") == Some(UTF_16LE));
    assert!(Encoding::for_label(b"latin1") == Some(WINDOWS_1252));
    assert!(Encoding::for_label(b"iso-8859-1") == Some(WINDOWS_1252));
    assert!(Encoding::for_label(b"ascii") == Some(WINDOWS_1252));
    assert!(Encoding::for_label(b"iso-8859-9") == Some(textcodec::WINDOWS_1254));
    assert!(Encoding::for_label(b"iso-8859-11") == Some(textcodec::WINDOWS_874));
    assert!(Encoding::for_label(b"gb2312") == Some(GBK));
    assert!(Encoding::for_label(b"iso-2022-kr") == Some(REPLACEMENT));
    // "ASCII case-insensitive" only: U+212A KELVIN SIGN is not 'k', U+0131 is not 'i',
    // U+017F LATIN SMALL LETTER LONG S is not 's'.
    assert!(Encoding::for_label("\u{212A}oi8-r".as_bytes()).is_none());
    assert!(Encoding::for_label("koi8-r".as_bytes()) == Some(textcodec::KOI8_R));
    assert!(Encoding::for_label("\u{131}so-8859-2".as_bytes()).is_none());
    assert!(Encoding::for_label("\u{17F}hift_jis".as_bytes()).is_none());
    assert!(Encoding::for_label("utf-８".as_bytes()).is_none());
    // Unknown and removed encodings.
    for bad in [
        "utf-7",
        "utf-32",
        "iso-8859-1 ",
        "x-user-defined\u{0}",
        "cesu-8",
        "ebcdic",
    ] {
        if bad == "iso-8859-1 " {
            assert!(Encoding::for_label(bad.as_bytes()) == Some(WINDOWS_1252));
        } else {
            assert!(Encoding::for_label(bad.as_bytes()).is_none(), "{bad}");
        }
    }
    // Non-UTF-8 bytes are never a label.
    assert!(Encoding::for_label(b"utf-8\xFF").is_none());
    assert!(Encoding::for_label(b"\xC0").is_none());
}

#[test]
fn get_an_output_encoding() {
    // "If encoding is replacement or UTF-16BE/LE, then return UTF-8. Return encoding."
    for enc in Encoding::all() {
        let want = if [REPLACEMENT, UTF_16BE, UTF_16LE].contains(enc) {
            UTF_8
        } else {
            *enc
        };
        assert!(enc.output_encoding() == want, "{}", enc.name());
        assert!(enc.new_encoder(EncoderErrorMode::Html).encoding() == want);
    }
}

#[test]
fn bom_sniff() {
    // "BOM sniff": 0xEF 0xBB 0xBF UTF-8; 0xFE 0xFF UTF-16BE; 0xFF 0xFE UTF-16LE.
    assert_eq!(Encoding::for_bom(b"\xEF\xBB\xBF"), Some((UTF_8, 3)));
    assert_eq!(Encoding::for_bom(b"\xEF\xBB\xBFabc"), Some((UTF_8, 3)));
    assert_eq!(Encoding::for_bom(b"\xFE\xFF"), Some((UTF_16BE, 2)));
    assert_eq!(Encoding::for_bom(b"\xFF\xFE\x00\x00"), Some((UTF_16LE, 2)));
    assert_eq!(Encoding::for_bom(b"\xEF\xBB"), None);
    assert_eq!(Encoding::for_bom(b"\xEF"), None);
    assert_eq!(Encoding::for_bom(b""), None);
    assert_eq!(Encoding::for_bom(b"\xFE"), None);
    assert_eq!(Encoding::for_bom(b"\x00\x00\xFE\xFF"), None);
    assert_eq!(Encoding::for_bom(b"\xBB\xBF"), None);
}

// ------------------------------------------------------------------------------------------------
// Decoders: ASCII after a leading byte is never swallowed
// ------------------------------------------------------------------------------------------------

#[test]
fn ascii_after_leading_byte_is_restored() {
    // Shift_JIS decoder: "If byte is an ASCII byte, then restore byte to ioQueue."
    check_dec(SHIFT_JIS, b"\x81\x22", "\u{FFFD}\"");
    check_dec(SHIFT_JIS, b"\x81\x7F", "\u{FFFD}\u{7F}");
    check_dec(SHIFT_JIS, b"\xE0\x0A", "\u{FFFD}\n");
    check_dec(SHIFT_JIS, b"\x81\xFD", "\u{FFFD}"); // not ASCII: consumed
    check_fatal_steps(SHIFT_JIS, b"\x81\x22", &[(1, 0)]);
    check_fatal_steps(SHIFT_JIS, b"a\x81\x22", &[(2, 1)]);
    // EUC-JP decoder, same step.
    check_dec(EUC_JP, b"\xA1\x22", "\u{FFFD}\"");
    check_dec(EUC_JP, b"\x8E\x22", "\u{FFFD}\"");
    check_dec(EUC_JP, b"\x8F\x22", "\u{FFFD}\"");
    // 0x8F, 0xA1 sets "EUC-JP jis0212" and "EUC-JP leading" to 0xA1; then 0x22 is restored.
    check_dec(EUC_JP, b"\x8F\xA1\x22", "\u{FFFD}\"");
    check_fatal_steps(EUC_JP, b"\x8F\xA1\x22", &[(2, 0)]);
    // EUC-KR decoder.
    check_dec(EUC_KR, b"\x81\x22", "\u{FFFD}\"");
    check_dec(EUC_KR, b"\xFE\x40", "\u{FFFD}@"); // 0x40 is below 0x41: no pointer
                                                 // Big5 decoder: pointer 0 (0x81 0x40) is not in index Big5, and 0x40 is ASCII.
    check_dec(BIG5, b"\x81\x22", "\u{FFFD}\"");
    check_dec(BIG5, b"\x81\x40", "\u{FFFD}@");
    check_dec(BIG5, b"\xA1\x7F", "\u{FFFD}\u{7F}");
    check_dec(BIG5, b"\xA1\x80", "\u{FFFD}"); // not ASCII: consumed
                                              // gb18030 decoder (first not 0x00): "If byte is an ASCII byte, then restore byte to ioQueue."
    check_dec(GB18030, b"\x81\x22", "\u{FFFD}\"");
    check_dec(GB18030, b"\x81\x7F", "\u{FFFD}\u{7F}");
    check_dec(GB18030, b"\x81\xFF", "\u{FFFD}");
    check_dec(GBK, b"\x81\x22", "\u{FFFD}\"");
    check_fatal_steps(GB18030, b"\x81\x22\x81", &[(1, 0), (2, 1)]);
}

#[test]
fn shift_jis_decoder_details() {
    // "If byte is an ASCII byte or 0x80, then return a code point whose value is byte."
    check_dec(SHIFT_JIS, b"\x80", "\u{80}");
    // "If byte is in the range 0xA1 to 0xDF, inclusive, then return ... 0xFF61 − 0xA1 + byte."
    check_dec(SHIFT_JIS, b"\xA1\xDF", "\u{FF61}\u{FF9F}");
    // 0xA0, 0xFD-0xFF: "Return error."
    check_dec(
        SHIFT_JIS,
        b"\xA0\xFD\xFE\xFF",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    );
    // "If pointer is in the range 8836 to 10715, inclusive, then return a code point whose value
    // is 0xE000 − 8836 + pointer." (EUDC)
    check_dec(SHIFT_JIS, b"\xF0\x40", "\u{E000}");
    check_dec(SHIFT_JIS, b"\xF9\xFC", "\u{E757}");
    check_dec(SHIFT_JIS, b"\x82\xA0", "あ");
    check_dec(SHIFT_JIS, b"\xED\x40", "\u{7E8A}");
    check_dec(SHIFT_JIS, b"\x81", "\u{FFFD}");
}

#[test]
fn euc_jp_decoder_details() {
    // "If EUC-JP leading is 0x8E and byte is in the range 0xA1 to 0xDF ... 0xFF61 − 0xA1 + byte."
    check_dec(EUC_JP, b"\x8E\xA1\x8E\xDF", "\u{FF61}\u{FF9F}");
    // 0x8E then 0xE0: not katakana; leading 0x8E is not in A1-FE so no code point; 0xE0 is not
    // ASCII so it is consumed: a single error.
    check_dec(EUC_JP, b"\x8E\xE0", "\u{FFFD}");
    check_dec(EUC_JP, b"\x8E\xE0\xA1", "\u{FFFD}\u{FFFD}");
    // JIS X 0212 through 0x8F: (0xA2 − 0xA1) × 94 + 0xAF − 0xA1 = 108 -> U+02D8.
    check_dec(EUC_JP, b"\x8F\xA2\xAF", "\u{2D8}");
    // "Set EUC-JP jis0212 to false." after each use: the next pair is jis0208 again.
    check_dec(EUC_JP, b"\x8F\xA2\xAF\xB0\xA1", "\u{2D8}\u{4E9C}");
    check_dec(EUC_JP, b"\x8F\xA2\xAF\xA4\xA2", "\u{2D8}あ");
    // 0x8F then end-of-queue; 0x8F 0xA2 then end-of-queue: one error each.
    check_dec(EUC_JP, b"\x8F", "\u{FFFD}");
    check_dec(EUC_JP, b"\x8F\xA2", "\u{FFFD}");
    // An unmapped jis0212 pointer after 0x8F: 0x8F 0xA1 0xA1 (pointer 0) is not in jis0212.
    check_dec(EUC_JP, b"\x8F\xA1\xA1", "\u{FFFD}");
    check_dec(EUC_JP, b"\xA1\xA1", "\u{3000}");
    check_dec(EUC_JP, b"\x80\xA0\xFF", "\u{FFFD}\u{FFFD}\u{FFFD}");
}

// ------------------------------------------------------------------------------------------------
// gb18030
// ------------------------------------------------------------------------------------------------

#[test]
fn gb18030_end_of_queue() {
    // "If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third is not 0x00,
    // then set gb18030 first, gb18030 second, and gb18030 third to 0x00, and return error."
    // One error, and nothing restored.
    check_dec(GB18030, b"\x81", "\u{FFFD}");
    check_dec(GB18030, b"\x81\x30", "\u{FFFD}");
    check_dec(GB18030, b"\x81\x30\x81", "\u{FFFD}");
    check_dec(GB18030, b"a\x81\x30\x81", "a\u{FFFD}");
    check_fatal_steps(GB18030, b"\x81\x30\x81", &[(3, 0)]);
}

#[test]
fn gb18030_restores() {
    // gb18030 third not 0x00, byte not 0x30-0x39: "Restore « gb18030 second, gb18030 third,
    // byte » to ioQueue." -> the second (a digit) is output, the third starts a new sequence.
    // 0x81 0x30 0x81 0x22: error; then '0'; then 0x81 0x22: error, restore 0x22; '"'.
    check_dec(GB18030, b"\x81\x30\x81\x22", "\u{FFFD}0\u{FFFD}\"");
    // 0x81 0x30 0x81 0x81 0x40: error; '0'; 0x81 0x81 -> pointer 0x81 - 0x41 = 64 (U+4E96); '@'.
    check_dec(GB18030, b"\x81\x30\x81\x81\x40", "\u{FFFD}0\u{4E96}@");
    // Fatal: the first error reads only the first byte (the rest is restored), then '0' is
    // output and the next error reads 0x81 (0x22 restored).
    check_fatal_steps(GB18030, b"\x81\x30\x81\x22", &[(1, 0), (2, 1)]);
    // gb18030 second not 0x00, byte not 0x81-0xFE: "Restore « gb18030 second, byte »".
    check_dec(GB18030, b"\x81\x30\x22", "\u{FFFD}0\"");
    check_dec(GB18030, b"\x81\x30\x30", "\u{FFFD}00");
    check_dec(GB18030, b"\x81\x30\xFF", "\u{FFFD}0\u{FFFD}");
    check_fatal_steps(GB18030, b"\x81\x30\x22", &[(1, 0)]);
    // Split so the restored bytes arrived in an earlier call: the decoder keeps them, read may
    // be 0 (the crate documentation, "Streaming").
    for split in 1..4 {
        let src = b"\x81\x30\x81\x22";
        let mut d = GB18030.new_decoder(dopts(true, BomHandling::Keep));
        let mut out = String::new();
        let mut errors = 0;
        for (chunk, last) in [(&src[..split], false), (&src[split..], true)] {
            let mut pos = 0;
            loop {
                let mut dst = [0u8; 64];
                match d.decode_to_utf8(&chunk[pos..], &mut dst, last) {
                    Ok(p) => {
                        out.push_str(std::str::from_utf8(&dst[..p.written]).unwrap());
                        break;
                    }
                    Err(e) => {
                        out.push_str(std::str::from_utf8(&dst[..e.written]).unwrap());
                        out.push('\u{FFFD}');
                        errors += 1;
                        pos += e.read;
                        assert!(errors < 8);
                    }
                }
            }
        }
        assert_eq!(
            (cps(&out), errors),
            (cps("\u{FFFD}0\u{FFFD}\""), 2),
            "split {split}"
        );
    }
}

#[test]
fn gb18030_four_byte_and_ranges() {
    // "index gb18030 ranges code point": pointer 0 -> U+0080.
    check_dec(GB18030, b"\x81\x30\x81\x30", "\u{80}");
    // "If pointer is 7457, then return code point U+E7C7."
    check_dec(GB18030, b"\x81\x35\xF4\x37", "\u{E7C7}");
    check_dec(GB18030, b"\x81\x35\xF4\x36", "\u{1E3E}");
    check_dec(GB18030, b"\x84\x31\xA4\x39", "\u{FFFF}"); // pointer 39419
                                                         // "If pointer is greater than 39419 and less than 189000, or pointer is greater than
                                                         // 1237575, then return null." -> one error, four bytes consumed.
    check_dec(GB18030, b"\x84\x31\xA5\x30", "\u{FFFD}");
    check_dec(GB18030, b"\x8F\x39\xFE\x39", "\u{FFFD}");
    check_dec(GB18030, b"\x90\x30\x81\x30", "\u{10000}"); // pointer 189000
    check_dec(GB18030, b"\xE3\x32\x9A\x35", "\u{10FFFF}"); // pointer 1237575
    check_dec(GB18030, b"\xE3\x32\x9A\x36", "\u{FFFD}");
    check_dec(GB18030, b"\xFE\x39\xFE\x39", "\u{FFFD}");
    check_dec_errors(GB18030, b"\x84\x31\xA4\x37", "\u{FFFD}", 0); // a literal U+FFFD
    check_dec(GB18030, b"\x80", "\u{20AC}");
    check_dec(GB18030, b"\xFF", "\u{FFFD}");
    // index gb18030: "except for 0xA3 0xA0 which maps to U+3000".
    check_dec(GB18030, b"\xA3\xA0", "\u{3000}");
    // GB18030-2022: 0xA6 0xD9 is U+FE10 in index gb18030, and the 2005 four-byte form of
    // U+FE10 (pointer 39076) still decodes to U+FE10.
    check_dec(GB18030, b"\xA6\xD9", "\u{FE10}");
    check_dec(GB18030, b"\x84\x31\x82\x36", "\u{FE10}");
    check_dec(GB18030, b"\xFE\x59", "\u{9FB4}");
}

#[test]
fn gb18030_literal_fffd_is_not_an_error() {
    // A literal U+FFFD decoded from valid input is not an error: `replaced` stays false and
    // fatal mode does not fail.
    let (s, replaced) = common::tc_decode_utf8(GB18030, b"\x84\x31\xA4\x37", BomHandling::Keep);
    assert_eq!((s.as_str(), replaced), ("\u{FFFD}", false));
    let mut d = GB18030.new_decoder(dopts(true, BomHandling::Keep));
    let mut dst = [0u8; 16];
    let p = d
        .decode_to_utf8(b"\x84\x31\xA4\x37", &mut dst, true)
        .unwrap();
    assert_eq!(&dst[..p.written], "\u{FFFD}".as_bytes());
    let (s, replaced) = common::tc_decode_utf8(UTF_8, b"\xEF\xBF\xBD", BomHandling::Keep);
    assert_eq!((s.as_str(), replaced), ("\u{FFFD}", false));
    let (s, replaced) = common::tc_decode_utf8(UTF_16LE, b"\xFD\xFF", BomHandling::Keep);
    assert_eq!((s.as_str(), replaced), ("\u{FFFD}", false));
}

#[test]
fn gbk_and_gb18030_encoders() {
    // "If is GBK is true and codePoint is U+20AC (€), then return byte 0x80."
    check_enc(GBK, "€", b"\x80", &[]);
    // gb18030: index pointer 6432 -> 0xA2 0xE3.
    check_enc(GB18030, "€", b"\xA2\xE3", &[]);
    // "If is GBK is true, then return error with codePoint." (no four-byte forms)
    check_enc(GBK, "\u{80}", b"&#128;", &['\u{80}']);
    check_enc(GBK, "\u{10000}", b"&#65536;", &['\u{10000}']);
    check_enc(GBK, "\u{FFFD}", b"&#65533;", &['\u{FFFD}']);
    check_enc(GB18030, "\u{80}", b"\x81\x30\x81\x30", &[]);
    check_enc(GB18030, "\u{10000}", b"\x90\x30\x81\x30", &[]);
    check_enc(GB18030, "\u{10FFFF}", b"\xE3\x32\x9A\x35", &[]);
    check_enc(GB18030, "\u{FFFD}", b"\x84\x31\xA4\x37", &[]);
    // "If codePoint is U+E5E5, then return error with codePoint."
    check_enc(GB18030, "\u{E5E5}", b"&#58853;", &['\u{E5E5}']);
    check_enc(GBK, "\u{E5E5}", b"&#58853;", &['\u{E5E5}']);
    check_enc(GB18030, "\u{3000}", b"\xA1\xA1", &[]);
    // "index gb18030 ranges pointer": "If codePoint is U+E7C7, then return pointer 7457."
    check_enc(GB18030, "\u{E7C7}", b"\x81\x35\xF4\x37", &[]);
    check_enc(GBK, "\u{E7C7}", b"&#59335;", &['\u{E7C7}']);
    check_enc(GB18030, "\u{1E3F}", b"\xA8\xBC", &[]);
    // The GB18030-2022 side table: "U+E78D 0xA6 0xD9" ... "U+E864 0xFE 0xA0", for GBK too.
    let side: [(char, [u8; 2]); 18] = [
        ('\u{E78D}', [0xA6, 0xD9]),
        ('\u{E78E}', [0xA6, 0xDA]),
        ('\u{E78F}', [0xA6, 0xDB]),
        ('\u{E790}', [0xA6, 0xDC]),
        ('\u{E791}', [0xA6, 0xDD]),
        ('\u{E792}', [0xA6, 0xDE]),
        ('\u{E793}', [0xA6, 0xDF]),
        ('\u{E794}', [0xA6, 0xEC]),
        ('\u{E795}', [0xA6, 0xED]),
        ('\u{E796}', [0xA6, 0xF3]),
        ('\u{E81E}', [0xFE, 0x59]),
        ('\u{E826}', [0xFE, 0x61]),
        ('\u{E82B}', [0xFE, 0x66]),
        ('\u{E82C}', [0xFE, 0x67]),
        ('\u{E832}', [0xFE, 0x6D]),
        ('\u{E843}', [0xFE, 0x7E]),
        ('\u{E854}', [0xFE, 0x90]),
        ('\u{E864}', [0xFE, 0xA0]),
    ];
    for (c, bytes) in side {
        check_enc(GB18030, &c.to_string(), &bytes, &[]);
        check_enc(GBK, &c.to_string(), &bytes, &[]);
    }
    // And U+FE10 itself uses index gb18030's pointer.
    check_enc(GB18030, "\u{FE10}", b"\xA6\xD9", &[]);
    check_enc(GB18030, "\u{9FB4}", b"\xFE\x59", &[]);
}

// ------------------------------------------------------------------------------------------------
// Big5
// ------------------------------------------------------------------------------------------------

#[test]
fn big5_two_code_point_pointers() {
    // "If there is a row in the table below whose first column is pointer, then return the two
    // code points listed in its second column": 1133, 1135, 1164, 1166.
    check_dec(BIG5, b"\x88\x62", "\u{CA}\u{304}");
    check_dec(BIG5, b"\x88\x64", "\u{CA}\u{30C}");
    check_dec(BIG5, b"\x88\xA3", "\u{EA}\u{304}");
    check_dec(BIG5, b"\x88\xA5", "\u{EA}\u{30C}");
    check_dec(BIG5, b"a\x88\x62b\x88\xA5", "a\u{CA}\u{304}b\u{EA}\u{30C}");
    // Neighbours are ordinary pointers.
    check_dec(BIG5, b"\x88\x63", "\u{1EBE}");
    check_dec(BIG5, b"\x88\x59", "\u{C0}");
    check_dec(BIG5, b"\x87\x40", "\u{43F0}");
    check_dec(BIG5, b"\xA4\x40", "\u{4E00}");
    check_dec(BIG5, b"\x80", "\u{FFFD}");
    check_dec(BIG5, b"\xFF", "\u{FFFD}");
    check_dec(BIG5, b"\xA4", "\u{FFFD}");
}

#[test]
fn big5_two_code_points_into_small_buffers() {
    // U+00CA U+0304 is 4 UTF-8 bytes / 2 UTF-16 units from one step: the API lets the decoder
    // ask for room for one worst-case step, so it must fit a 4-byte / 2-unit dst.
    let mut d = BIG5.new_decoder(DecoderOptions::default());
    let mut dst = [0u8; 4];
    let p = d.decode_to_utf8(b"\x88\x62", &mut dst, true).unwrap();
    assert_eq!((p.read, &dst[..p.written]), (2, "\u{CA}\u{304}".as_bytes()));
    let mut d = BIG5.new_decoder(DecoderOptions::default());
    let mut dst = [0u16; 2];
    let p = d.decode_to_utf16(b"\x88\x62", &mut dst, true).unwrap();
    assert_eq!((p.read, &dst[..p.written]), (2, &[0xCA, 0x304][..]));
}

#[test]
fn big5_encoder() {
    // "If codePoint is U+2550, U+255E, U+2561, U+256A, U+5341, or U+5345, then return the last
    // pointer corresponding to codePoint in index."
    check_enc(BIG5, "\u{2550}", b"\xF9\xF9", &[]);
    check_enc(BIG5, "\u{255E}", b"\xF9\xE9", &[]);
    check_enc(BIG5, "\u{2561}", b"\xF9\xEB", &[]);
    check_enc(BIG5, "\u{256A}", b"\xF9\xEA", &[]);
    check_enc(BIG5, "\u{5341}", b"\xA4\x51", &[]);
    check_enc(BIG5, "\u{5345}", b"\xA4\xCA", &[]);
    // "There are other duplicate code points, but for those the first pointer is to be used."
    check_enc(BIG5, "\u{256D}", b"\xA2\x7E", &[]);
    check_enc(BIG5, "\u{3003}", b"\xA1\xB2", &[]);
    // "index Big5 excluding all entries whose pointer is less than (0xA1 - 0x81) × 157."
    // U+00C0 is only at 0x88 0x59 (HKSCS): unmappable.
    check_enc(BIG5, "\u{C0}", b"&#192;", &['\u{C0}']);
    check_enc(BIG5, "\u{CA}", b"&#202;", &['\u{CA}']);
    // U+4FBB is at 0x9C 0x53 (HKSCS) and 0xCD 0xE7: the latter.
    check_enc(BIG5, "\u{4FBB}", b"\xCD\xE7", &[]);
    check_enc(BIG5, "\u{4E00}", b"\xA4\x40", &[]);
    check_enc(BIG5, "\u{80}", b"&#128;", &['\u{80}']);
}

// ------------------------------------------------------------------------------------------------
// Japanese and Korean encoders
// ------------------------------------------------------------------------------------------------

#[test]
fn euc_jp_encoder() {
    // "If codePoint is U+00A5 (¥), then return byte 0x5C."
    check_enc(EUC_JP, "\u{A5}", b"\x5C", &[]);
    // "If codePoint is U+203E (‾), then return byte 0x7E."
    check_enc(EUC_JP, "\u{203E}", b"\x7E", &[]);
    // "If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then return two bytes
    // whose values are 0x8E and codePoint − 0xFF61 + 0xA1."
    check_enc(EUC_JP, "\u{FF61}\u{FF9F}", b"\x8E\xA1\x8E\xDF", &[]);
    // "If codePoint is U+2212 (−), then set it to U+FF0D (－)." (jis0208 pointer 60)
    check_enc(EUC_JP, "\u{2212}", b"\xA1\xDD", &[]);
    check_enc(EUC_JP, "\u{FF0D}", b"\xA1\xDD", &[]);
    // The first pointer in index jis0208, even in 8272..8835 (no Shift_JIS exclusion here).
    check_enc(EUC_JP, "\u{7E8A}", b"\xF9\xA1", &[]);
    check_enc(EUC_JP, "\u{2170}", b"\xFC\xF1", &[]);
    // JIS X 0212 is decode-only: U+02D8 is unmappable.
    check_enc(EUC_JP, "\u{2D8}", b"&#728;", &['\u{2D8}']);
    check_enc(EUC_JP, "\u{4E9C}\\~", b"\xB0\xA1\\~", &[]);
}

#[test]
fn shift_jis_encoder() {
    // "If codePoint is an ASCII code point or U+0080, then return a byte whose value is
    // codePoint."
    check_enc(SHIFT_JIS, "\u{80}", b"\x80", &[]);
    check_enc(SHIFT_JIS, "\u{A5}\u{203E}", b"\x5C\x7E", &[]);
    check_enc(SHIFT_JIS, "\u{FF61}\u{FF9F}", b"\xA1\xDF", &[]);
    check_enc(SHIFT_JIS, "\u{2212}", b"\x81\x7C", &[]);
    // "index Shift_JIS pointer": "index jis0208 excluding all entries whose pointer is in the
    // range 8272 to 8835, inclusive." U+7E8A is at 8272 and 10744; U+2170 at 8634 and 10716.
    check_enc(SHIFT_JIS, "\u{7E8A}", b"\xFA\x5C", &[]);
    check_enc(SHIFT_JIS, "\u{2170}", b"\xFA\x40", &[]);
    // U+FFE2 is at 137, 8644 and 10736: the first one.
    check_enc(SHIFT_JIS, "\u{FFE2}", b"\x81\xCA", &[]);
    check_enc(SHIFT_JIS, "\u{2252}", b"\x81\xE0", &[]);
    // EUDC is decode-only.
    check_enc(SHIFT_JIS, "\u{E000}", b"&#57344;", &['\u{E000}']);
    check_enc(SHIFT_JIS, "あ", b"\x82\xA0", &[]);
}

#[test]
fn euc_kr_codec() {
    check_dec(EUC_KR, b"\xB0\xA1", "가");
    check_dec(EUC_KR, b"\x81\x41", "\u{AC02}");
    check_enc(EUC_KR, "가\u{AC02}", b"\xB0\xA1\x81\x41", &[]);
    check_enc(EUC_KR, "\u{A5}", b"&#165;", &['\u{A5}']);
}

// ------------------------------------------------------------------------------------------------
// ISO-2022-JP
// ------------------------------------------------------------------------------------------------

#[test]
fn iso_2022_jp_decoder_escapes() {
    let e = ISO_2022_JP;
    // ESC ( B then end-of-queue: no error.
    check_dec(e, b"\x1B(B", "");
    check_dec(e, b"\x1B(Ba", "a");
    // Escape: "Return continue, if output is false, and error otherwise." Two consecutive
    // escape sequences: the second is an error.
    check_dec(e, b"\x1B(B\x1B(B", "\u{FFFD}");
    check_dec(e, b"\x1B(B\x1B(Ba", "\u{FFFD}a");
    check_dec(e, b"\x1B$B\x1B(B", "\u{FFFD}");
    check_dec(e, b"\x1B(Ba\x1B(Bb", "ab");
    check_fatal_steps(e, b"\x1B(B\x1B(B", &[(6, 0)]);
    // Escape start, end-of-queue: "Set ISO-2022-JP output to false, ... return error."
    check_dec(e, b"\x1B", "\u{FFFD}");
    check_dec(e, b"a\x1B", "a\u{FFFD}");
    // Escape start, other byte: "restore byte to ioQueue".
    check_dec(e, b"\x1BA", "\u{FFFD}A");
    check_dec(e, b"\x1B\x1B(Ba", "\u{FFFD}a");
    // Escape, end-of-queue: "restore leading to ioQueue".
    check_dec(e, b"\x1B$", "\u{FFFD}$");
    check_dec(e, b"\x1B(", "\u{FFFD}(");
    // Escape, other byte: "restore « leading, byte » to ioQueue".
    check_dec(e, b"\x1B$A", "\u{FFFD}$A");
    check_dec(e, b"\x1B(C", "\u{FFFD}(C");
    check_dec(e, b"\x1B(\x1B(B", "\u{FFFD}(");
    check_fatal_steps(e, b"\x1B$A", &[(1, 0)]);
    // After a failed escape, "ISO-2022-JP decoder state" returns to the output state.
    // ESC $ A fails, « $, A » are restored and read in leading byte state: pointer 314, U+3061.
    check_dec(e, b"\x1B$B\x1B$A", "\u{FFFD}\u{3061}");
    // ASCII state: 0x0E, 0x0F and non-ASCII are errors.
    check_dec(e, b"\x0E\x0F\x80\x7F", "\u{FFFD}\u{FFFD}\u{FFFD}\u{7F}");
}

#[test]
fn iso_2022_jp_decoder_states() {
    let e = ISO_2022_JP;
    // Roman: "0x5C: return code point U+00A5", "0x7E: return code point U+203E".
    check_dec(e, b"\x1B(J\\~a", "\u{A5}\u{203E}a");
    check_dec(e, b"\\~", "\\~");
    check_dec(e, b"\x1B(J\x0E", "\u{FFFD}");
    // Katakana: "0x21 to 0x5F: ... 0xFF61 − 0x21 + byte."
    check_dec(e, b"\x1B(I\x21\x5F", "\u{FF61}\u{FF9F}");
    check_dec(e, b"\x1B(I\x60a", "\u{FFFD}\u{FFFD}");
    // Leading/trailing byte (jis0208).
    check_dec(e, b"\x1B$B\x30\x21", "\u{4E9C}");
    check_dec(e, b"\x1B$@\x30\x21", "\u{4E9C}");
    check_dec(e, b"\x1B$B\x21\x21\x1B(Ba", "\u{3000}a");
    // Leading byte, other byte (LF): "Set ISO-2022-JP output to false and return error."
    check_dec(e, b"\x1B$B\n\x1B(B", "\u{FFFD}");
    // Trailing byte, end-of-queue: error.
    check_dec(e, b"\x1B$B\x30", "\u{FFFD}");
    // Trailing byte, 0x1B: "Set state to escape start and return error." (lead discarded)
    check_dec(e, b"\x1B$B\x30\x1B(Ba", "\u{FFFD}a");
    // Trailing byte, other: "Set state to leading byte and return error." (byte consumed)
    check_dec(e, b"\x1B$B\x30\n\x30\x21", "\u{FFFD}\u{4E9C}");
    // Trailing byte, unmapped pointer: error, state leading byte.
    check_dec(e, b"\x1B$B\x29\x21\x30\x21", "\u{FFFD}\u{4E9C}");
    // End-of-queue in leading byte state is not an error.
    check_dec(e, b"\x1B$B", "");
}

#[test]
fn iso_2022_jp_encoder() {
    let e = ISO_2022_JP;
    // The spec's example: "Encoding U+00A5 (¥) gives 0x1B 0x28 0x4A 0x5C 0x1B 0x28 0x42."
    check_enc(e, "\u{A5}", b"\x1B(J\x5C\x1B(B", &[]);
    check_enc(e, "a\u{A5}b", b"a\x1B(J\x5Cb\x1B(B", &[]);
    check_enc(e, "\u{203E}", b"\x1B(J\x7E\x1B(B", &[]);
    // Roman state, U+005C: "restore codePoint, set state to ASCII, return 0x1B 0x28 0x42".
    check_enc(e, "\u{A5}\\", b"\x1B(J\x5C\x1B(B\\", &[]);
    check_enc(e, "\u{A5}~", b"\x1B(J\x5C\x1B(B~", &[]);
    // U+000E, U+000F, U+001B in ASCII or Roman state: "return error with U+FFFD".
    check_enc(e, "\u{E}", b"&#65533;", &['\u{FFFD}']);
    check_enc(e, "\u{F}", b"&#65533;", &['\u{FFFD}']);
    check_enc(e, "\u{1B}", b"&#65533;", &['\u{FFFD}']);
    check_enc(
        e,
        "\u{A5}\u{1B}",
        b"\x1B(J\x5C&#65533;\x1B(B",
        &['\u{FFFD}'],
    );
    // In jis0208 state it first returns to ASCII ("If codePoint is an ASCII code point, and
    // state is not ASCII, then restore codePoint ... return three bytes 0x1B 0x28 0x42").
    check_enc(e, "漢\u{E}", b"\x1B$B\x34\x41\x1B(B&#65533;", &['\u{FFFD}']);
    // Unmappable in jis0208 state: "If state is jis0208, then restore codePoint to ioQueue, set
    // state to ASCII, and return three bytes 0x1B 0x28 0x42." then "Return error".
    check_enc(e, "漢é", b"\x1B$B\x34\x41\x1B(B&#233;", &['é']);
    check_enc(e, "é", b"&#233;", &['é']);
    // Half-width katakana are mapped to full-width through index ISO-2022-JP katakana.
    check_enc(e, "\u{FF71}", b"\x1B$B\x25\x22\x1B(B", &[]);
    check_enc(e, "\u{FF9E}\u{FF9F}", b"\x1B$B\x21\x2B\x21\x2C\x1B(B", &[]);
    // "If codePoint is U+2212 (−), then set it to U+FF0D (－)."
    check_enc(e, "\u{2212}", b"\x1B$B\x21\x5D\x1B(B", &[]);
    // Final ESC ( B only at end-of-queue, and only if not in ASCII.
    check_enc(e, "a", b"a", &[]);
    check_enc(e, "漢a", b"\x1B$B\x34\x41\x1B(Ba", &[]);
    check_enc(e, "", b"", &[]);
    // Roman -> jis0208 directly.
    check_enc(e, "\u{A5}漢", b"\x1B(J\x5C\x1B$B\x34\x41\x1B(B", &[]);
    // U+00A5 in Roman state, then ASCII letters stay in Roman state.
    check_enc(e, "\u{A5}ab\u{A5}", b"\x1B(J\x5Cab\x5C\x1B(B", &[]);
}

#[test]
fn iso_2022_jp_encoder_last_call_flushes() {
    // "last: true ends the stream: ISO-2022-JP then returns to ASCII (ESC ( B) if needed."
    let mut enc = ISO_2022_JP.new_encoder(EncoderErrorMode::Html);
    let mut dst = [0u8; 16];
    let p = enc.encode_from_utf8("漢", &mut dst, false).unwrap();
    assert_eq!(&dst[..p.written], b"\x1B$B\x34\x41");
    let p = enc.encode_from_utf8("", &mut dst, true).unwrap();
    assert_eq!(&dst[..p.written], b"\x1B(B");
    // The flush needs 3 bytes: with less, OutputFull, then it completes.
    let mut enc = ISO_2022_JP.new_encoder(EncoderErrorMode::Html);
    let p = enc.encode_from_utf8("\u{A5}", &mut dst, false).unwrap();
    assert_eq!(&dst[..p.written], b"\x1B(J\x5C");
    let mut small = [0u8; 2];
    let p = enc.encode_from_utf8("", &mut small, true).unwrap();
    assert_eq!((p.status, p.written), (Status::OutputFull, 0));
    let p = enc.encode_from_utf8("", &mut dst, true).unwrap();
    assert_eq!(
        (p.status, &dst[..p.written]),
        (Status::InputEmpty, &b"\x1B(B"[..])
    );
}

#[test]
fn iso_2022_jp_encoder_fatal_continues_in_state() {
    // "encode or fail" note: the encoder can be in two states when returning an error; the
    // caller continues with the same instance.
    let mut enc = ISO_2022_JP.new_encoder(EncoderErrorMode::Fatal);
    let mut dst = [0u8; 32];
    let err = enc
        .encode_from_utf8("\u{A5}éa", &mut dst, true)
        .unwrap_err();
    assert_eq!(err.unmappable, 'é');
    assert_eq!(&dst[..err.written], b"\x1B(J\x5C");
    assert_eq!(err.read, "\u{A5}é".len());
    let p = enc.encode_from_utf8("a", &mut dst, true).unwrap();
    assert_eq!(&dst[..p.written], b"a\x1B(B");
}

// ------------------------------------------------------------------------------------------------
// UTF-8
// ------------------------------------------------------------------------------------------------

#[test]
fn utf8_decoder() {
    // "If byte is 0xED, then set UTF-8 upper boundary to 0x9F." -> surrogates: 3 errors.
    check_dec(UTF_8, b"\xED\xA0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}");
    check_dec(UTF_8, b"\xED\x9F\xBF", "\u{D7FF}");
    // "If byte is 0xE0, then set UTF-8 lower boundary to 0xA0." -> overlong: 2 errors.
    check_dec(UTF_8, b"\xE0\x80", "\u{FFFD}\u{FFFD}");
    check_dec(UTF_8, b"\xE0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}");
    check_fatal_steps(UTF_8, b"\xE0\x80", &[(1, 0), (1, 0)]);
    check_dec(
        UTF_8,
        b"\xC0\x80\xC1\xBF",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    );
    check_dec(
        UTF_8,
        b"\xF0\x8F\xBF\xBF",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    );
    // "If byte is 0xF4, then set UTF-8 upper boundary to 0x8F."
    check_dec(
        UTF_8,
        b"\xF4\x90\x80\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
    );
    check_dec(UTF_8, b"\xF4\x8F\xBF\xBF", "\u{10FFFF}");
    check_dec(UTF_8, b"\xF5\x80", "\u{FFFD}\u{FFFD}");
    check_dec(UTF_8, b"\xFF", "\u{FFFD}");
    // Truncated sequences: one error for the whole prefix.
    check_dec(UTF_8, b"\xF0\x90\x80", "\u{FFFD}");
    check_dec(UTF_8, b"\xE2\x82", "\u{FFFD}");
    check_dec(UTF_8, b"\xE2\x82a", "\u{FFFD}a");
    check_dec(UTF_8, b"\xF0\x90\x80\xF0\x9F\x92\xA9", "\u{FFFD}\u{1F4A9}");
    check_fatal_steps(UTF_8, b"\xF0\x90\x80a", &[(3, 0)]);
    check_fatal_steps(UTF_8, b"ab\xF0\x90\x80", &[(5, 2)]);
    check_dec(UTF_8, b"\x80\xBF", "\u{FFFD}\u{FFFD}");
    // A BOM is just U+FEFF to the decoder itself.
    check_dec(UTF_8, b"\xEF\xBB\xBFa", "\u{FEFF}a");
}

// ------------------------------------------------------------------------------------------------
// UTF-16
// ------------------------------------------------------------------------------------------------

#[test]
fn utf16_decoder() {
    // Odd trailing byte: end-of-queue with "UTF-16 leading byte" non-null -> error.
    check_dec(UTF_16LE, b"a", "\u{FFFD}");
    check_dec(UTF_16LE, b"a\x00b", "a\u{FFFD}");
    check_dec(UTF_16BE, b"\x00ab", "a\u{FFFD}");
    // Lone leading surrogate at the end.
    check_dec(UTF_16LE, b"\x00\xD8", "\u{FFFD}");
    check_dec(UTF_16LE, b"\x00\xD8a", "\u{FFFD}");
    // Leading surrogate then a non-trailing unit: "Restore bytes to ioQueue and return error."
    check_dec(UTF_16LE, b"\x00\xD8a\x00", "\u{FFFD}a");
    check_dec(UTF_16BE, b"\xD8\x00\x00a", "\u{FFFD}a");
    check_dec(UTF_16LE, b"\x00\xD8\x00\xD8\x00\xDC", "\u{FFFD}\u{10000}");
    check_dec(UTF_16BE, b"\xD8\x00\xD8\x00\xDC\x00", "\u{FFFD}\u{10000}");
    check_fatal_steps(UTF_16LE, b"\x00\xD8a\x00", &[(2, 0)]);
    // Lone trailing surrogate.
    check_dec(UTF_16LE, b"\x00\xDCa\x00", "\u{FFFD}a");
    check_dec(UTF_16LE, b"\x3D\xD8\x00\xDE", "\u{1F600}");
    check_dec(UTF_16BE, b"\xD8\x3D\xDE\x00", "\u{1F600}");
    // Byte order: a BOM is just U+FEFF to the decoder.
    check_dec(UTF_16LE, b"\xFF\xFE", "\u{FEFF}");
    check_dec(UTF_16BE, b"\xFF\xFE", "\u{FFFE}");
}

// ------------------------------------------------------------------------------------------------
// replacement and x-user-defined, single-byte
// ------------------------------------------------------------------------------------------------

#[test]
fn replacement_decoder() {
    // "If byte is end-of-queue, then return finished." -> empty input, empty output.
    check_dec(REPLACEMENT, b"", "");
    // "If replacement error returned is false, then set it to true and return error."
    // "Return finished." -> any input: exactly one U+FFFD.
    check_dec(REPLACEMENT, b"a", "\u{FFFD}");
    check_dec(REPLACEMENT, b"abc\xFF\x00", "\u{FFFD}");
    // Streaming: the error comes with the first byte, nothing after.
    let mut d = REPLACEMENT.new_decoder(DecoderOptions::default());
    let mut s = String::new();
    d.decode_to_string(b"", &mut s, false).unwrap();
    assert_eq!(s, "");
    d.decode_to_string(b"x", &mut s, false).unwrap();
    assert_eq!(s, "\u{FFFD}");
    d.decode_to_string(b"yz", &mut s, false).unwrap();
    d.decode_to_string(b"w", &mut s, true).unwrap();
    assert_eq!(s, "\u{FFFD}");
}

#[test]
fn x_user_defined() {
    // Decoder: "Return a code point whose value is 0xF780 + byte − 0x80."
    check_dec(X_USER_DEFINED, b"a\x80\xFF", "a\u{F780}\u{F7FF}");
    let all: Vec<u8> = (0..=255).collect();
    let expected: String = (0..=255u32)
        .map(|b| char::from_u32(if b < 0x80 { b } else { 0xF780 + b - 0x80 }).unwrap())
        .collect();
    check_dec(X_USER_DEFINED, &all, &expected);
    // Encoder: "If codePoint is in the range U+F780 to U+F7FF, inclusive, then return a byte
    // whose value is codePoint − 0xF780 + 0x80."
    check_enc(X_USER_DEFINED, &expected, &all, &[]);
    check_enc(
        X_USER_DEFINED,
        "\u{80}\u{F77F}\u{F800}",
        b"&#128;&#63359;&#63488;",
        &['\u{80}', '\u{F77F}', '\u{F800}'],
    );
}

#[test]
fn single_byte_spot_checks() {
    check_dec(
        WINDOWS_1252,
        b"\x80\x81\x9F\xFF",
        "\u{20AC}\u{81}\u{178}\u{FF}",
    );
    // ISO-8859-8 has no mapping for 0xA1: "If codePoint is null, then return error."
    check_dec(textcodec::ISO_8859_8, b"\xA1", "\u{FFFD}");
    check_dec(textcodec::ISO_8859_8_I, b"\xE0", "\u{5D0}");
    check_enc(WINDOWS_1252, "€\u{81}ÿ", b"\x80\x81\xFF", &[]);
    check_enc(WINDOWS_1252, "\u{100}", b"&#256;", &['\u{100}']);
    check_enc(textcodec::KOI8_U, "\u{404}", b"\xB4", &[]);
}

#[test]
fn html_mode_references_are_decimal_and_shortest() {
    // "0x26 (&), 0x23 (#), followed by the shortest sequence of 0x30 (0) to 0x39 (9) ...
    // representing result's code point's value in base ten, followed by 0x3B (;)".
    check_enc(WINDOWS_1252, "\u{100}", b"&#256;", &['\u{100}']);
    check_enc(WINDOWS_1252, "\u{10FFFF}", b"&#1114111;", &['\u{10FFFF}']);
    check_enc(WINDOWS_1252, "😀", b"&#128512;", &['😀']);
    check_enc(EUC_KR, "a\u{1F600}b", b"a&#128512;b", &['\u{1F600}']);
}

#[test]
fn encoder_html_reference_is_never_split() {
    // "if dst cannot take the whole reference, OutputFull, and nothing of it is written."
    for enc in [
        WINDOWS_1252,
        SHIFT_JIS,
        ISO_2022_JP,
        GBK,
        BIG5,
        EUC_KR,
        X_USER_DEFINED,
    ] {
        for n in 0..9 {
            let mut e = enc.new_encoder(EncoderErrorMode::Html);
            let mut dst = vec![0u8; n];
            let p = e.encode_from_utf8("😀", &mut dst, true).unwrap();
            if n < "&#128512;".len() {
                assert_eq!(
                    (p.status, p.written, p.read),
                    (Status::OutputFull, 0, 0),
                    "{} {n}",
                    enc.name()
                );
            }
        }
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let mut dst = vec![0u8; 9];
        let p = e.encode_from_utf8("😀", &mut dst, true).unwrap();
        if p.status == Status::InputEmpty {
            assert_eq!(&dst[..p.written], b"&#128512;");
            assert!(p.replaced);
        }
    }
}

#[test]
fn encode_from_utf16_lone_surrogates() {
    // "encode_from_utf16 treats a lone surrogate as U+FFFD (which then encodes as any U+FFFD
    // would: gb18030 maps it, the others report it)."
    let units = [0x61u16, 0xD800, 0x62, 0xDC00, 0xD83D];
    let cases: [(&'static Encoding, &[u8], usize); 4] = [
        (WINDOWS_1252, b"a&#65533;b&#65533;&#65533;", 3),
        (
            GB18030,
            b"a\x84\x31\xA4\x37b\x84\x31\xA4\x37\x84\x31\xA4\x37",
            0,
        ),
        (UTF_8, "a\u{FFFD}b\u{FFFD}\u{FFFD}".as_bytes(), 0),
        (SHIFT_JIS, b"a&#65533;b&#65533;&#65533;", 3),
    ];
    for (enc, want, nerr) in cases {
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let mut dst = vec![0u8; e.max_buffer_length_from_utf16(units.len()).unwrap()];
        let p = e.encode_from_utf16(&units, &mut dst, true).unwrap();
        assert_eq!(hex(&dst[..p.written]), hex(want), "{}", enc.name());
        let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
        let mut errs = 0;
        let mut pos = 0;
        loop {
            let mut dst = [0u8; 64];
            match e.encode_from_utf16(&units[pos..], &mut dst, true) {
                Ok(_) => break,
                Err(err) => {
                    assert_eq!(err.unmappable, '\u{FFFD}');
                    errs += 1;
                    pos += err.read;
                }
            }
        }
        assert_eq!(errs, nerr, "{}", enc.name());
    }
    // A surrogate pair split across calls is joined.
    let mut e = GB18030.new_encoder(EncoderErrorMode::Fatal);
    let mut dst = [0u8; 16];
    let p = e
        .encode_from_utf16(&[0x61, 0xD83D], &mut dst, false)
        .unwrap();
    assert_eq!(
        (p.status, p.read, &dst[..p.written]),
        (Status::InputEmpty, 2, &b"a"[..])
    );
    let p = e.encode_from_utf16(&[0xDE00], &mut dst, true).unwrap();
    assert_eq!(&dst[..p.written], b"\x94\x39\xFC\x36");
    // A high surrogate at the end of the last call is a lone surrogate.
    let mut e = WINDOWS_1252.new_encoder(EncoderErrorMode::Html);
    let p = e.encode_from_utf16(&[0xD83D], &mut dst, false).unwrap();
    assert_eq!((p.read, p.written), (1, 0));
    let p = e.encode_from_utf16(&[], &mut dst, true).unwrap();
    assert_eq!(&dst[..p.written], b"&#65533;");
    // A held high surrogate followed by a non-trail unit.
    let mut e = WINDOWS_1252.new_encoder(EncoderErrorMode::Html);
    let p = e.encode_from_utf16(&[0xD83D], &mut dst, false).unwrap();
    assert_eq!(p.written, 0);
    let p = e.encode_from_utf16(&[0x41], &mut dst, true).unwrap();
    assert_eq!(&dst[..p.written], b"&#65533;A");
}

#[test]
fn encode_error_fields() {
    // "Fatal mode returns Err with the unmappable scalar value; read includes it."
    let mut e = WINDOWS_1252.new_encoder(EncoderErrorMode::Fatal);
    let mut dst = [0u8; 16];
    let err = e
        .encode_from_utf8("ab\u{1F600}c", &mut dst, true)
        .unwrap_err();
    assert_eq!((err.read, err.written, err.unmappable), (6, 2, '\u{1F600}'));
    let err16 = WINDOWS_1252
        .new_encoder(EncoderErrorMode::Fatal)
        .encode_from_utf16(&[0x61, 0x62, 0xD83D, 0xDE00, 0x63], &mut dst, true)
        .unwrap_err();
    assert_eq!(
        (err16.read, err16.written, err16.unmappable),
        (4, 2, '\u{1F600}')
    );
    let _: &dyn std::error::Error = &err;
    assert!(!format!("{err}").is_empty());
}

// ------------------------------------------------------------------------------------------------
// BOM handling: the Decoder's options and the hooks
// ------------------------------------------------------------------------------------------------

/// Decode `chunks` with `last: false`, then an empty `last: true` call; returns the text and
/// `Decoder::encoding()` as seen before that final call.
fn decode_with(
    enc: &'static Encoding,
    bom: BomHandling,
    chunks: &[&[u8]],
) -> (String, &'static Encoding) {
    let mut d = enc.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Replacement,
        bom,
    });
    let mut s = String::new();
    for c in chunks {
        d.decode_to_string(c, &mut s, false).unwrap();
    }
    let seen = d.encoding();
    d.decode_to_string(b"", &mut s, true).unwrap();
    (s, seen)
}

#[test]
fn decoder_encoding_after_bom_sniffing() {
    // `Decoder::encoding`: "The encoding in use: after BOM sniffing, the encoding of the BOM
    // found". After a one-shot decode the caller asks which encoding was used.
    let mut d = WINDOWS_1252.new_decoder(DecoderOptions::default());
    let mut s = String::new();
    d.decode_to_string(b"\xEF\xBB\xBFa", &mut s, false).unwrap();
    assert_eq!((s.as_str(), d.encoding()), ("a", UTF_8), "mid-stream");
    d.decode_to_string(b"", &mut s, true).unwrap();
    assert_eq!(d.encoding(), UTF_8, "after the last call");
    let mut d = WINDOWS_1252.new_decoder(DecoderOptions::default());
    let mut s = String::new();
    d.decode_to_string(b"\xFE\xFF\x00a", &mut s, true).unwrap();
    assert_eq!((s.as_str(), d.encoding()), ("a", UTF_16BE), "one-shot");
}

#[test]
fn decoder_bom_options() {
    use BomHandling::*;
    assert_eq!(
        DecoderOptions::default(),
        DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: Sniff
        }
    );
    // Sniff ("decode"): a UTF-8, UTF-16LE or UTF-16BE BOM overrides the encoding and is removed.
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF\xBB\xBFa"]),
        ("a".into(), UTF_8)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xFE\xFF\x00a"]),
        ("a".into(), UTF_16BE)
    );
    assert_eq!(
        decode_with(UTF_8, Sniff, &[b"\xFF\xFEa\x00"]),
        ("a".into(), UTF_16LE)
    );
    assert_eq!(
        decode_with(UTF_16BE, Sniff, &[b"\xFF\xFEa\x00"]),
        ("a".into(), UTF_16LE)
    );
    assert_eq!(
        decode_with(REPLACEMENT, Sniff, &[b"\xEF\xBB\xBFa"]),
        ("a".into(), UTF_8)
    );
    assert_eq!(
        decode_with(SHIFT_JIS, Sniff, &[b"\xEF\xBB\xBF\xEF\xBB\xBF"]),
        ("\u{FEFF}".into(), UTF_8)
    );
    // Split inside the BOM.
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF", b"\xBB", b"\xBFa"]),
        ("a".into(), UTF_8)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF", b"", b"\xBB\xBF", b"a"]),
        ("a".into(), UTF_8)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xFF", b"\xFEa", b"\x00"]),
        ("a".into(), UTF_16LE)
    );
    // Not a BOM: the fallback decodes the bytes, even when they came in separate calls.
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF", b"\xBB"]),
        ("ï»".into(), WINDOWS_1252)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF"]),
        ("ï".into(), WINDOWS_1252)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xEF\xBB", b"a"]),
        ("ï»a".into(), WINDOWS_1252)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b"\xFE", b"a"]),
        ("þa".into(), WINDOWS_1252)
    );
    assert_eq!(
        decode_with(UTF_8, Sniff, &[b"\xEF\xBB"]),
        ("\u{FFFD}".into(), UTF_8)
    );
    assert_eq!(
        decode_with(UTF_16LE, Sniff, &[b"\xFF"]),
        ("\u{FFFD}".into(), UTF_16LE)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Sniff, &[b""]),
        ("".into(), WINDOWS_1252)
    );
    // Strip ("UTF-8 decode"): only this encoding's own BOM.
    assert_eq!(decode_with(UTF_8, Strip, &[b"\xEF\xBB\xBFa"]).0, "a");
    assert_eq!(
        decode_with(UTF_8, Strip, &[b"\xEF", b"\xBB", b"\xBF", b"a"]).0,
        "a"
    );
    assert_eq!(
        decode_with(UTF_8, Strip, &[b"\xFE\xFFa"]).0,
        "\u{FFFD}\u{FFFD}a"
    );
    assert_eq!(decode_with(UTF_16LE, Strip, &[b"\xFF\xFEa\x00"]).0, "a");
    assert_eq!(
        decode_with(UTF_16LE, Strip, &[b"\xFE\xFFa\x00"]).0,
        "\u{FFFE}a"
    );
    assert_eq!(decode_with(UTF_16BE, Strip, &[b"\xFE\xFF\x00a"]).0, "a");
    assert_eq!(
        decode_with(UTF_16BE, Strip, &[b"\xFF\xFE\x00a"]).0,
        "\u{FFFE}a"
    );
    assert_eq!(
        decode_with(UTF_8, Strip, &[b"\xEF\xBB\xBF\xEF\xBB\xBF"]).0,
        "\u{FEFF}"
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Strip, &[b"\xEF\xBB\xBF"]).0,
        "ï»¿"
    );
    assert_eq!(decode_with(UTF_8, Strip, &[b"\xEF\xBB"]).0, "\u{FFFD}");
    // Keep ("UTF-8 decode without BOM").
    assert_eq!(
        decode_with(UTF_8, Keep, &[b"\xEF\xBB\xBFa"]),
        ("\u{FEFF}a".into(), UTF_8)
    );
    assert_eq!(
        decode_with(WINDOWS_1252, Keep, &[b"\xFE\xFF"]),
        ("þÿ".into(), WINDOWS_1252)
    );
}

#[test]
fn hook_decode() {
    // "decode": "If BOMEncoding is non-null: Set encoding to BOMEncoding."
    let (s, e, err) = textcodec::decode(b"\xEF\xBB\xBFa", WINDOWS_1252);
    assert_eq!((&*s, e, err), ("a", UTF_8, false));
    let (s, e, _) = textcodec::decode(b"\xFE\xFF\x00a", UTF_8);
    assert_eq!((&*s, e), ("a", UTF_16BE));
    let (s, e, _) = textcodec::decode(b"\xFF\xFEa\x00", UTF_8);
    assert_eq!((&*s, e), ("a", UTF_16LE));
    let (s, e, err) = textcodec::decode(b"\xFF\xFE", GBK);
    assert_eq!((&*s, e, err), ("", UTF_16LE, false));
    let (s, e, err) = textcodec::decode(b"\xFF\xFE\x00", GBK);
    assert_eq!((&*s, e, err), ("\u{FFFD}", UTF_16LE, true));
    let (s, e, _) = textcodec::decode(b"\xEF\xBB\xBF\xEF\xBB\xBF", WINDOWS_1252);
    assert_eq!((&*s, e), ("\u{FEFF}", UTF_8));
    let (s, e, _) = textcodec::decode(b"\xEF\xBB", WINDOWS_1252);
    assert_eq!((&*s, e), ("ï»", WINDOWS_1252));
    let (s, e, err) = textcodec::decode(b"\xEF\xBB\xBFa", REPLACEMENT);
    assert_eq!((&*s, e, err), ("a", UTF_8, false));
    let (s, e, err) = textcodec::decode(b"a", REPLACEMENT);
    assert_eq!((&*s, e, err), ("\u{FFFD}", REPLACEMENT, true));
    let (s, e, err) = textcodec::decode(b"", REPLACEMENT);
    assert_eq!((&*s, e, err), ("", REPLACEMENT, false));
    let (s, _, err) = textcodec::decode(b"\x82\xA0\x81", SHIFT_JIS);
    assert_eq!((&*s, err), ("あ\u{FFFD}", true));
    // Borrowed where nothing changes.
    assert!(matches!(
        textcodec::decode(b"plain ascii", WINDOWS_1252).0,
        Cow::Borrowed("plain ascii")
    ));
    assert!(matches!(
        textcodec::decode("héllo".as_bytes(), UTF_8).0,
        Cow::Borrowed("héllo")
    ));
    assert!(matches!(
        textcodec::decode(b"\xEF\xBB\xBFabc", SHIFT_JIS).0,
        Cow::Borrowed("abc")
    ));
    // ISO-2022-JP: ESC is not plain ASCII.
    let (s, _, _) = textcodec::decode(b"\x1B$B\x30\x21\x1B(B", ISO_2022_JP);
    assert_eq!(&*s, "\u{4E9C}");
    let (s, _, err) = textcodec::decode(b"a\x0Eb", ISO_2022_JP);
    assert_eq!((&*s, err), ("a\u{FFFD}b", true));
    // UTF-16 ASCII-looking input is not borrowed text.
    let (s, _, _) = textcodec::decode(b"ab", UTF_16LE);
    assert_eq!(&*s, "\u{6261}");
}

#[test]
fn hook_utf8_decode() {
    // "UTF-8 decode": "If buffer is 0xEF 0xBB 0xBF, then read three bytes from ioQueue."
    assert_eq!(textcodec::utf8_decode(b"\xEF\xBB\xBFa"), "a");
    assert_eq!(textcodec::utf8_decode(b"\xEF\xBB\xBF"), "");
    assert_eq!(
        textcodec::utf8_decode(b"\xEF\xBB\xBF\xEF\xBB\xBF"),
        "\u{FEFF}"
    );
    assert_eq!(textcodec::utf8_decode(b"\xEF\xBB"), "\u{FFFD}");
    // Only the UTF-8 BOM.
    assert_eq!(textcodec::utf8_decode(b"\xFE\xFFa"), "\u{FFFD}\u{FFFD}a");
    assert_eq!(
        textcodec::utf8_decode(b"\xFF\xFEa\x00"),
        "\u{FFFD}\u{FFFD}a\u{0}"
    );
    assert!(matches!(
        textcodec::utf8_decode(b"abc"),
        Cow::Borrowed("abc")
    ));
    assert!(matches!(
        textcodec::utf8_decode(b"\xEF\xBB\xBFabc"),
        Cow::Borrowed("abc")
    ));
    assert_eq!(textcodec::utf8_decode(b"a\xFFb"), "a\u{FFFD}b");
    // "UTF-8 decode without BOM": the BOM is kept.
    assert_eq!(
        textcodec::utf8_decode_without_bom(b"\xEF\xBB\xBFa"),
        "\u{FEFF}a"
    );
    assert!(matches!(
        textcodec::utf8_decode_without_bom(b"\xEF\xBB\xBFa"),
        Cow::Borrowed(_)
    ));
    assert_eq!(
        textcodec::utf8_decode_without_bom(b"\xED\xA0\x80"),
        "\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    // "UTF-8 decode without BOM or fail".
    assert_eq!(
        textcodec::utf8_decode_without_bom_or_fail(b"\xEF\xBB\xBFa"),
        Ok("\u{FEFF}a")
    );
    assert_eq!(textcodec::utf8_decode_without_bom_or_fail(b""), Ok(""));
    assert!(textcodec::utf8_decode_without_bom_or_fail(b"a\xFF").is_err());
    assert!(textcodec::utf8_decode_without_bom_or_fail(b"\xE2\x82").is_err());
    assert!(textcodec::utf8_decode_without_bom_or_fail(b"\xED\xA0\x80").is_err());
    // The error has the decoder's read/written (`DecodeError`): E0 80 -> 0x80 restored.
    let e = textcodec::utf8_decode_without_bom_or_fail(b"ab\xE0\x80").unwrap_err();
    assert_eq!((e.read, e.written), (3, 2));
    let e = textcodec::utf8_decode_without_bom_or_fail(b"ab\xF0\x90\x80").unwrap_err();
    assert_eq!((e.read, e.written), (5, 2));
}

#[test]
fn hook_encode() {
    // "encode": html mode, after "get an output encoding".
    let (b, e, rep) = textcodec::encode("aé€", WINDOWS_1252);
    assert_eq!((&*b, e, rep), (&b"a\xE9\x80"[..], WINDOWS_1252, false));
    let (b, e, rep) = textcodec::encode("a☃", textcodec::ISO_8859_2);
    assert_eq!(
        (&*b, e, rep),
        (&b"a&#9731;"[..], textcodec::ISO_8859_2, true)
    );
    let (b, e, _) = textcodec::encode("é", UTF_16LE);
    assert_eq!((&*b, e), ("é".as_bytes(), UTF_8));
    let (b, e, _) = textcodec::encode("é", REPLACEMENT);
    assert_eq!((&*b, e), ("é".as_bytes(), UTF_8));
    let (b, _, _) = textcodec::encode("\u{A5}", ISO_2022_JP);
    assert_eq!(&*b, b"\x1B(J\x5C\x1B(B");
    let (b, _, rep) = textcodec::encode("\u{1B}", ISO_2022_JP);
    assert_eq!((&*b, rep), (&b"&#65533;"[..], true));
    assert!(matches!(
        textcodec::encode("abc", SHIFT_JIS).0,
        Cow::Borrowed(b"abc")
    ));
    assert!(matches!(textcodec::encode("é☃", UTF_8).0, Cow::Borrowed(_)));
    // "encode or fail".
    assert_eq!(&*textcodec::encode_or_fail("abc", EUC_KR).unwrap(), b"abc");
    assert!(matches!(
        textcodec::encode_or_fail("abc", EUC_KR).unwrap(),
        Cow::Borrowed(b"abc")
    ));
    // (index EUC-KR has U+20AC at pointer 6435, but not U+00A5.)
    assert_eq!(
        &*textcodec::encode_or_fail("€", EUC_KR).unwrap(),
        b"\xA2\xE6"
    );
    let err = textcodec::encode_or_fail("a\u{A5}b", EUC_KR).unwrap_err();
    assert_eq!((err.unmappable, err.read, err.written), ('\u{A5}', 3, 1));
    let err = textcodec::encode_or_fail("\u{E}", ISO_2022_JP).unwrap_err();
    assert_eq!(err.unmappable, '\u{FFFD}');
    assert_eq!(
        &*textcodec::encode_or_fail("\u{10FFFF}", GB18030).unwrap(),
        b"\xE3\x32\x9A\x35"
    );
    assert!(textcodec::encode_or_fail("\u{10FFFF}", GBK).is_err());
}

// ------------------------------------------------------------------------------------------------
// TextDecoder
// ------------------------------------------------------------------------------------------------

fn td(label: &str, fatal: bool, ignore_bom: bool) -> TextDecoder {
    TextDecoder::new(label, TextDecoderOptions { fatal, ignore_bom }).unwrap()
}

#[test]
fn text_decoder_constructor_and_attributes() {
    // "If encoding is failure or replacement, then throw a RangeError."
    for label in [
        "replacement",
        "iso-2022-kr",
        "csiso2022kr",
        "hz-gb-2312",
        "iso-2022-cn",
        "iso-2022-cn-ext",
        " ISO-2022-KR ",
    ] {
        assert!(
            TextDecoder::new(label, TextDecoderOptions::default()).is_err(),
            "{label}"
        );
    }
    for label in ["", "utf-7", "\u{212A}oi8-r", "utf-8\u{B}"] {
        let err = TextDecoder::new(label, TextDecoderOptions::default()).unwrap_err();
        let _: &dyn std::error::Error = &err;
        assert!(!err.to_string().is_empty());
    }
    // "The encoding getter steps are to return this's encoding's name, ASCII lowercased."
    for enc in Encoding::all() {
        if *enc == REPLACEMENT {
            continue;
        }
        for label in enc.labels() {
            let d = td(label, false, false);
            assert_eq!(d.encoding(), enc.name().to_ascii_lowercase(), "{label}");
        }
    }
    assert_eq!(td(" Shift_JIS\n", false, false).encoding(), "shift_jis");
    assert_eq!(td("utf-16", false, false).encoding(), "utf-16le");
    assert_eq!(td("latin1", false, false).encoding(), "windows-1252");
    assert_eq!(
        td("x-mac-ukrainian", false, false).encoding(),
        "x-mac-cyrillic"
    );
    let d = td("utf8", true, false);
    assert!(d.fatal() && !d.ignore_bom());
    let d = td("utf8", false, true);
    assert!(!d.fatal() && d.ignore_bom());
}

#[test]
fn text_decoder_bom() {
    // "serialize I/O queue": for UTF-8 and UTF-16BE/LE, unless ignore BOM, a first U+FEFF is
    // dropped; other encodings never drop it.
    assert_eq!(
        td("utf-8", false, false)
            .decode(b"\xEF\xBB\xBFa", false)
            .unwrap(),
        "a"
    );
    assert_eq!(
        td("utf-8", false, true)
            .decode(b"\xEF\xBB\xBFa", false)
            .unwrap(),
        "\u{FEFF}a"
    );
    assert_eq!(
        td("utf-16le", false, false)
            .decode(b"\xFF\xFEa\x00", false)
            .unwrap(),
        "a"
    );
    assert_eq!(
        td("utf-16be", false, false)
            .decode(b"\xFE\xFF\x00a", false)
            .unwrap(),
        "a"
    );
    assert_eq!(
        td("utf-16be", false, true)
            .decode(b"\xFE\xFF\x00a", false)
            .unwrap(),
        "\u{FEFF}a"
    );
    // No sniffing: a UTF-16 BOM under utf-8 is two errors, and the other way round.
    assert_eq!(
        td("utf-8", false, false)
            .decode(b"\xFF\xFEa\x00", false)
            .unwrap(),
        "\u{FFFD}\u{FFFD}a\u{0}"
    );
    assert_eq!(
        td("utf-16le", false, false)
            .decode(b"\xEF\xBB\xBF", false)
            .unwrap(),
        "\u{BBEF}\u{FFFD}"
    );
    assert_eq!(
        td("windows-1252", false, false)
            .decode(b"\xEF\xBB\xBF", false)
            .unwrap(),
        "ï»¿"
    );
    // Only the first item: a second BOM, or a BOM after text, stays.
    assert_eq!(
        td("utf-8", false, false)
            .decode(b"\xEF\xBB\xBF\xEF\xBB\xBF", false)
            .unwrap(),
        "\u{FEFF}"
    );
    assert_eq!(
        td("utf-8", false, false)
            .decode(b"a\xEF\xBB\xBF", false)
            .unwrap(),
        "a\u{FEFF}"
    );
    assert_eq!(
        td("utf-8", false, false)
            .decode(b"\xFF\xEF\xBB\xBF", false)
            .unwrap(),
        "\u{FFFD}\u{FEFF}"
    );
    // Streaming: BOM seen persists across stream: true calls, and resets with a new stream.
    let mut d = td("utf-8", false, false);
    assert_eq!(d.decode(b"", true).unwrap(), "");
    assert_eq!(d.decode(b"\xEF", true).unwrap(), "");
    assert_eq!(d.decode(b"\xBB", true).unwrap(), "");
    assert_eq!(d.decode(b"\xBFa", true).unwrap(), "a");
    assert_eq!(d.decode(b"\xEF\xBB\xBF", false).unwrap(), "\u{FEFF}");
    assert_eq!(d.decode(b"\xEF\xBB\xBFb", false).unwrap(), "b");
    // Fatal + ignoreBOM.
    let mut d = td("utf-8", true, true);
    assert_eq!(d.decode(b"\xEF\xBB\xBF", false).unwrap(), "\u{FEFF}");
    // To UTF-16.
    let mut d = td("utf-16be", false, false);
    assert_eq!(
        d.decode_to_utf16(b"\xFE\xFF\x00a", false).unwrap(),
        vec![0x61]
    );
}

#[test]
fn text_decoder_streaming_and_fatal() {
    // "If this's do not flush is false, then set this's decoder to a new instance".
    let mut d = td("utf-8", false, false);
    assert_eq!(d.decode(b"\xE2\x82", true).unwrap(), "");
    assert_eq!(d.decode(b"\xAC", true).unwrap(), "€");
    assert_eq!(d.decode(b"\xE2", true).unwrap(), "");
    assert_eq!(d.decode(b"", false).unwrap(), "\u{FFFD}");
    assert_eq!(d.decode(b"a", false).unwrap(), "a");
    // Fatal: "if result is error, throw a TypeError."
    let mut d = td("utf-8", true, false);
    assert!(d.decode(b"a\xFF", false).is_err());
    assert_eq!(d.decode(b"ok", false).unwrap(), "ok"); // a new stream after stream: false
    assert_eq!(d.decode(b"\xE2\x82", true).unwrap(), "");
    assert!(d.decode(b"", false).is_err()); // incomplete at end-of-queue
    assert_eq!(d.decode(b"\xE2\x82\xAC", false).unwrap(), "€");
    let mut d = td("shift_jis", true, false);
    assert!(d.decode(b"\x81\x22", false).is_err());
    let mut d = td("gb18030", false, false);
    let mut s = d.decode(b"\x81\x30", true).unwrap();
    s += &d.decode(b"\x81", true).unwrap();
    s += &d.decode(b"\x22", false).unwrap();
    assert_eq!(s, "\u{FFFD}0\u{FFFD}\"");
    let mut d = td("iso-2022-jp", false, false);
    let mut s = d.decode(b"\x1B$", true).unwrap();
    s += &d.decode(b"B\x30", true).unwrap();
    s += &d.decode(b"\x21\x1B(B", false).unwrap();
    assert_eq!(s, "\u{4E9C}");
    let mut d = td("utf-16le", false, false);
    assert_eq!(
        d.decode_to_utf16(b"\x3D\xD8", true).unwrap(),
        Vec::<u16>::new()
    );
    assert_eq!(
        d.decode_to_utf16(b"\x00\xDE", false).unwrap(),
        vec![0xD83D, 0xDE00]
    );
}

// ------------------------------------------------------------------------------------------------
// TextEncoder
// ------------------------------------------------------------------------------------------------

#[test]
fn text_encoder() {
    let e = TextEncoder::new();
    assert_eq!(e.encoding(), "utf-8");
    assert_eq!(e.encode(""), b"");
    assert_eq!(e.encode("a€😀"), "a€😀".as_bytes());
    // USVString conversion: lone surrogates become U+FFFD.
    assert_eq!(e.encode_utf16(&[0xD800]), "\u{FFFD}".as_bytes());
    assert_eq!(
        e.encode_utf16(&[0xDE00, 0xD83D]),
        "\u{FFFD}\u{FFFD}".as_bytes()
    );
    assert_eq!(e.encode_utf16(&[0xD83D, 0xDE00, 0x61]), "😀a".as_bytes());
    assert_eq!(e.encode_utf16(&[0x61, 0xD83D]), "a\u{FFFD}".as_bytes());
}

#[test]
fn text_encoder_encode_into() {
    // "If destination's byte length − written is greater than or equal to the number of bytes in
    // result ... Otherwise, break." Never part of a scalar value; stop at the first that does
    // not fit, even if a later one would.
    let e = TextEncoder::new();
    let cases: [(&str, usize, usize, usize); 9] = [
        ("a€", 3, 1, 1),
        ("a€", 4, 4, 4),
        ("€a", 2, 0, 0),
        ("😀a", 3, 0, 0),
        ("😀a", 4, 4, 4),
        ("é", 1, 0, 0),
        ("é", 2, 2, 2),
        ("", 0, 0, 0),
        ("abc", 0, 0, 0),
    ];
    for (src, n, read, written) in cases {
        let mut dst = vec![0xAAu8; n];
        let r = e.encode_into(src, &mut dst);
        assert_eq!((r.read, r.written), (read, written), "{src:?} into {n}");
        assert_eq!(&dst[..written], &src.as_bytes()[..written]);
        assert!(
            dst[written..].iter().all(|&b| b == 0xAA),
            "bytes after written untouched"
        );
    }
    // UTF-16 source: read counts code units, a pair is 2, never split.
    let cases16: [(&[u16], usize, usize, usize); 7] = [
        (&[0xD83D, 0xDE00], 3, 0, 0),
        (&[0xD83D, 0xDE00], 4, 2, 4),
        (&[0x61, 0xD83D, 0xDE00], 4, 1, 1),
        (&[0xD800, 0x61], 3, 1, 3),
        (&[0xD800, 0x61], 2, 0, 0),
        (&[0xDC00], 3, 1, 3),
        (&[0x61, 0x62], 1, 1, 1),
    ];
    for (src, n, read, written) in cases16 {
        let mut dst = vec![0u8; n];
        let r = e.encode_utf16_into(src, &mut dst);
        assert_eq!((r.read, r.written), (read, written), "{src:04X?} into {n}");
    }
    let mut dst = [0u8; 8];
    let r = e.encode_utf16_into(&[0xD800, 0x61], &mut dst);
    assert_eq!(&dst[..r.written], "\u{FFFD}a".as_bytes());
}

// ------------------------------------------------------------------------------------------------
// Small-buffer regressions
// ------------------------------------------------------------------------------------------------

#[test]
fn utf8_pending_lead_then_empty_last_into_tiny_dst() {
    // The regression from the issue: [0xC2] with last=false, then [] with last=true into a dst
    // of 0, 1, 2 bytes must be Ok(OutputFull) without panicking; then a 3-byte dst succeeds.
    for n in 0..3 {
        let mut d = UTF_8.new_decoder(DecoderOptions::default());
        let mut dst = [0u8; 8];
        let p = d.decode_to_utf8(b"\xC2", &mut dst, false).unwrap();
        assert_eq!((p.status, p.read, p.written), (Status::InputEmpty, 1, 0));
        let p = d.decode_to_utf8(b"", &mut dst[..n], true).unwrap();
        assert_eq!((p.status, p.written), (Status::OutputFull, 0), "dst {n}");
        let p = d.decode_to_utf8(b"", &mut dst[..3], true).unwrap();
        assert_eq!(
            (p.status, &dst[..p.written]),
            (Status::InputEmpty, "\u{FFFD}".as_bytes())
        );
        assert!(p.replaced);
    }
    // UTF-16: a 0-unit dst.
    let mut d = UTF_8.new_decoder(DecoderOptions::default());
    let mut dst = [0u16; 2];
    d.decode_to_utf16(b"\xC2", &mut dst, false).unwrap();
    let p = d.decode_to_utf16(b"", &mut dst[..0], true).unwrap();
    assert_eq!((p.status, p.written), (Status::OutputFull, 0));
    let p = d.decode_to_utf16(b"", &mut dst[..1], true).unwrap();
    assert_eq!(
        (p.status, &dst[..p.written]),
        (Status::InputEmpty, &[0xFFFD][..])
    );
}

#[test]
fn pending_state_at_end_into_tiny_dst_every_decoder() {
    // The same for every decoder with a pending lead at the end.
    let leads: [(&'static Encoding, &[u8], &str); 9] = [
        (SHIFT_JIS, b"\x81", "\u{FFFD}"),
        (EUC_JP, b"\x8F\xA2", "\u{FFFD}"),
        (EUC_KR, b"\x81", "\u{FFFD}"),
        (BIG5, b"\x81", "\u{FFFD}"),
        (GB18030, b"\x81\x30\x81", "\u{FFFD}"),
        (ISO_2022_JP, b"\x1B$", "\u{FFFD}$"),
        (UTF_16LE, b"\x3D\xD8\x00", "\u{FFFD}"),
        (UTF_16BE, b"\xD8", "\u{FFFD}"),
        (UTF_8, b"\xF0\x9F\x98", "\u{FFFD}"),
    ];
    for (enc, src, want) in leads {
        for n in 0..want.len() {
            let mut d = enc.new_decoder(dopts(false, BomHandling::Keep));
            let mut dst = [0u8; 16];
            let p = d.decode_to_utf8(src, &mut dst, false).unwrap();
            assert_eq!((p.read, p.written), (src.len(), 0), "{}", enc.name());
            let p = d.decode_to_utf8(b"", &mut dst[..n], true).unwrap();
            assert_eq!(p.status, Status::OutputFull, "{} dst {n}", enc.name());
            assert!(std::str::from_utf8(&dst[..p.written]).is_ok());
        }
    }
}

#[test]
fn decode_error_is_an_error() {
    let mut d = UTF_8.new_decoder(dopts(true, BomHandling::Keep));
    let mut dst = [0u8; 8];
    let e = d.decode_to_utf8(b"a\xFF", &mut dst, true).unwrap_err();
    assert_eq!((e.read, e.written), (2, 1));
    let _: &dyn std::error::Error = &e;
    assert!(!e.to_string().is_empty());
    // Replacement mode never returns Err.
    let _ = ncr('a');
}

#[test]
fn max_buffer_lengths_never_wrap() {
    // The `max_*_buffer_length` functions: `None` on overflow. In release builds an unchecked multiplication would wrap to
    // a small number instead: the answer must be None or a true upper bound (at least one unit
    // of output per input byte / unit, since ASCII maps to itself; the replacement decoder
    // writes at most one U+FFFD; UTF-16 decoders one unit per two bytes).
    for &enc in Encoding::all() {
        for n in [
            usize::MAX,
            usize::MAX / 2,
            usize::MAX / 3,
            usize::MAX / 4 + 1,
            1 << 62,
        ] {
            let d = enc.new_decoder(DecoderOptions::default());
            let (min8, min16) = match enc.name() {
                "replacement" => (3, 1),
                "UTF-16BE" | "UTF-16LE" => (n / 2, n / 2),
                _ => (n, n),
            };
            if let Some(m) = d.max_utf8_buffer_length(n) {
                assert!(
                    m >= min8,
                    "{} max_utf8_buffer_length({n}) = {m}",
                    enc.name()
                );
            }
            if let Some(m) = d.max_utf16_buffer_length(n) {
                assert!(
                    m >= min16,
                    "{} max_utf16_buffer_length({n}) = {m}",
                    enc.name()
                );
            }
            let e = enc.new_encoder(EncoderErrorMode::Html);
            if let Some(m) = e.max_buffer_length_from_utf8(n) {
                assert!(
                    m >= n,
                    "{} max_buffer_length_from_utf8({n}) = {m}",
                    enc.name()
                );
            }
            if let Some(m) = e.max_buffer_length_from_utf16(n) {
                assert!(
                    m >= n,
                    "{} max_buffer_length_from_utf16({n}) = {m}",
                    enc.name()
                );
            }
        }
    }
}

#[test]
fn decode_to_string_fatal() {
    // decode_to_string appends; in fatal mode `written` counts the bytes appended before the
    // error and `read` the input through it; the caller continues with src[read..].
    let mut d = UTF_8.new_decoder(dopts(true, BomHandling::Keep));
    let mut s = String::from(">");
    let e = d
        .decode_to_string(b"ab\xFFc\xE2\x82", &mut s, true)
        .unwrap_err();
    assert_eq!((e.read, e.written, s.as_str()), (3, 2, ">ab"));
    let e = d.decode_to_string(b"c\xE2\x82", &mut s, true).unwrap_err();
    assert_eq!((e.read, e.written, s.as_str()), (3, 1, ">abc"));
    let p = d.decode_to_string(b"", &mut s, true).unwrap();
    assert_eq!(
        (p.status, p.read, p.written, s.as_str()),
        (Status::InputEmpty, 0, 0, ">abc")
    );
}

#[test]
fn text_decoder_fatal_error_in_stream_keeps_the_queue() {
    // decode(input, options): with stream: true, "do not flush" stays true when the error is
    // thrown, so the next call keeps the decoder and the rest of the I/O queue (including a byte
    // the decoder restored).
    let mut d = td("utf-8", true, false);
    assert!(d.decode(b"\xFFA", true).is_err());
    assert_eq!(d.decode(b"B", false).unwrap(), "AB");
    // Shift_JIS: 0x81 0x22 -> error, 0x22 restored to the queue.
    let mut d = td("shift_jis", true, false);
    assert!(d.decode(b"\x81\x22A", true).is_err());
    assert_eq!(d.decode(b"", false).unwrap(), "\"A");
    // With stream: false the next call starts a new stream: the rest is dropped.
    let mut d = td("utf-8", true, false);
    assert!(d.decode(b"\xFFA", false).is_err());
    assert_eq!(d.decode(b"B", false).unwrap(), "B");
    // An error at the end of a streamed chunk, then more input.
    let mut d = td("utf-8", true, false);
    assert!(d.decode(b"a\xE2\x82A", true).is_err());
    assert_eq!(d.decode(b"\xE2\x82\xAC", false).unwrap(), "A€");
}

#[test]
fn api_shapes() {
    // The derives and trait impls the public types promise (a compile-time check, mostly).
    use std::fmt::{Debug, Display};
    fn value<T: Clone + Copy + Debug + Default + PartialEq + Eq>() -> T {
        T::default()
    }
    fn plain<T: Clone + Copy + Debug + PartialEq + Eq>(_: T) {}
    fn error<T: std::error::Error + Display + Debug + Clone + PartialEq + Eq>(_: &T) {}
    assert_eq!(value::<DecoderErrorMode>(), DecoderErrorMode::Replacement);
    assert_eq!(value::<BomHandling>(), BomHandling::Sniff);
    assert_eq!(value::<EncoderErrorMode>(), EncoderErrorMode::Html);
    assert_eq!(
        value::<DecoderOptions>(),
        DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: BomHandling::Sniff
        }
    );
    assert_eq!(
        value::<TextDecoderOptions>(),
        TextDecoderOptions {
            fatal: false,
            ignore_bom: false
        }
    );
    plain(Status::InputEmpty);
    plain(textcodec::Progress {
        status: Status::OutputFull,
        read: 1,
        written: 2,
        replaced: true,
    });
    let de = textcodec::DecodeError {
        read: 1,
        written: 0,
    };
    plain(de);
    error(&de);
    let ee = textcodec::EncodeError {
        read: 1,
        written: 0,
        unmappable: 'x',
    };
    plain(ee);
    error(&ee);
    plain(textcodec::EncodeIntoResult {
        read: 0,
        written: 0,
    });
    let ul = TextDecoder::new("bogus", TextDecoderOptions::default()).unwrap_err();
    error(&ul);
    // `&'static Encoding` compares with ==.
    let a: &'static Encoding = UTF_8;
    assert!(a == Encoding::for_label(b"utf8").unwrap());
    assert!(a != UTF_16LE);
}

/// `decode_to_string` in fatal mode, with the error after outputs of every size class of its
/// internal buffer (short strings, one buffer, several): the error's counts are exact, the
/// text before it is appended, and decoding resumes after it.
#[test]
fn decode_to_string_fatal_error_at_any_distance() {
    for enc in [
        textcodec::UTF_8,
        textcodec::WINDOWS_1253,
        textcodec::SHIFT_JIS,
    ] {
        for len in [0, 1, 50, 85, 86, 200, 8191, 8192, 8193, 30_000] {
            let text: String = "Ωω火a".chars().cycle().take(len).collect();
            let (good, _, _) = textcodec::encode(&text, enc);
            let good = good.into_owned();
            // Malformed in UTF-8 and Shift_JIS; unassigned in windows-1253.
            let bad: &[u8] = if enc == textcodec::WINDOWS_1253 {
                b"\xAA"
            } else {
                b"\xFF"
            };
            let src = [&good[..], bad, b"tail"].concat();
            let mut d = enc.new_decoder(dopts(true, BomHandling::Keep));
            let mut s = String::from("x");
            let err = d.decode_to_string(&src, &mut s, true).unwrap_err();
            let (want, _, _) = textcodec::decode(&good, enc);
            assert_eq!(
                (err.read, err.written),
                (good.len() + 1, want.len()),
                "{} {len}",
                enc.name()
            );
            assert_eq!(s[1..], *want, "{} {len}", enc.name());
            let p = d.decode_to_string(&src[err.read..], &mut s, true).unwrap();
            assert_eq!((p.read, p.written), (4, 4));
            assert!(s.ends_with("tail") && s.len() == 1 + want.len() + 4);
        }
    }
}
