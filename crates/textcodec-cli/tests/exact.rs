//! For each of the 40 encodings, the CLI's output is byte for byte the library's.

mod common;

use common::*;
use textcodec::Encoding;

/// The corpus language that goes with each encoding (data/corpus/README.md).
fn language(name: &str) -> &'static str {
    match name {
        "IBM866" | "ISO-8859-5" | "KOI8-R" | "KOI8-U" | "windows-1251" | "x-mac-cyrillic" => "ru",
        "ISO-8859-2" | "windows-1250" => "cs",
        "ISO-8859-6" | "windows-1256" => "ar",
        "ISO-8859-7" | "windows-1253" => "el",
        "ISO-8859-8" | "ISO-8859-8-I" | "windows-1255" => "he",
        "windows-874" => "th",
        "windows-1254" => "tr",
        "windows-1258" => "vi",
        "GBK" | "gb18030" => "zh_cn",
        "Big5" => "zh_tw",
        "EUC-JP" | "ISO-2022-JP" | "Shift_JIS" => "ja",
        "EUC-KR" => "ko",
        "ISO-8859-3" | "ISO-8859-4" | "ISO-8859-10" | "ISO-8859-13" | "ISO-8859-14"
        | "ISO-8859-15" | "ISO-8859-16" | "windows-1257" | "macintosh" => "de",
        _ => "fr",
    }
}

#[test]
fn every_encoding_matches_the_library() {
    assert_eq!(Encoding::all().len(), 40);
    for &encoding in Encoding::all() {
        let name = encoding.name();
        let text = corpus(language(name));
        if encoding == textcodec::REPLACEMENT {
            let out = run(&["decode", "-e", name], text.as_bytes());
            assert_eq!(code(&out), 0);
            assert_eq!(stdout(&out), lib_decode(encoding, text.as_bytes()));
            continue;
        }
        let (bytes, encode_args): (Vec<u8>, Vec<&str>) = if encoding == textcodec::UTF_16LE
            || encoding == textcodec::UTF_16BE
        {
            let be = encoding == textcodec::UTF_16BE;
            let bytes = text
                .encode_utf16()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect();
            (bytes, vec!["convert", "-t", name])
        } else if encoding == textcodec::X_USER_DEFINED {
            let jpg = std::fs::read(repo_root().join("data/corpus/wikipedia/binary.jpg")).unwrap();
            (jpg, vec!["encode", "-e", name])
        } else {
            (
                lib_encode(encoding, &text),
                vec!["encode", "-e", name, "--unmappable", "html"],
            )
        };
        // Decoding: the CLI's output is the library's decoding.
        let out = run(&["decode", "-e", name], &bytes);
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
        let decoded = lib_decode(encoding, &bytes);
        assert!(
            out.stdout == decoded.as_bytes(),
            "decode -e {name} differs from the library"
        );
        // Encoding: the CLI's output is the library's encoding.
        let out = run(&encode_args, decoded.as_bytes());
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        assert!(
            out.stdout == bytes,
            "encode -e {name} differs from the library"
        );
        // And a conversion from this encoding to UTF-16BE.
        let out = run(&["convert", "-f", name, "-t", "utf-16be"], &bytes);
        let be: Vec<u8> = decoded.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert!(out.stdout == be, "convert -f {name} -t utf-16be");
    }
}

#[test]
fn legacy_to_legacy_matches_the_library() {
    let text = corpus("ja");
    for (from, to) in [
        ("shift_jis", "euc-jp"),
        ("euc-jp", "iso-2022-jp"),
        ("iso-2022-jp", "shift_jis"),
        ("shift_jis", "gb18030"),
    ] {
        let src = lib_encode(enc(from), &text);
        let expected = lib_encode(enc(to), &lib_decode(enc(from), &src));
        let out = run(
            &["convert", "-f", from, "-t", to, "--unmappable", "html"],
            &src,
        );
        assert_eq!(code(&out), 0);
        assert!(out.stdout == expected, "{from} -> {to}");
    }
}
