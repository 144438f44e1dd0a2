//! `textcodec detect` and `-f auto` (the README's "Unknown encodings"): the BOM, then a
//! `<meta charset>` or XML declaration in the first 1024 bytes, then the guess over the first
//! MiB; conversion of the whole input after, streamed.

mod common;

use std::fs;

use common::*;
use textcodec::detect::Detector;
use textcodec::Encoding;

/// What the library's Detector guesses for `bytes` (the CLI's guess over its first MiB).
fn guess(bytes: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> &'static Encoding {
    let mut detector = Detector::new();
    detector.feed(&bytes[..bytes.len().min(1 << 20)], true);
    detector.guess(tld, allow_utf8)
}

/// Russian text that windows-1251 encodes whole.
fn russian() -> String {
    let text = corpus("ru");
    lib_decode(enc("windows-1251"), &lib_encode(enc("windows-1251"), &text))
}

/// Writes `files` into a new temporary directory; returns it and the paths.
fn files(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempdir();
    let paths = files
        .iter()
        .map(|(name, bytes)| {
            let path = dir.path().join(name);
            fs::write(&path, bytes).unwrap();
            path.display().to_string()
        })
        .collect();
    (dir, paths)
}

/// `NAME (guess, 0.97)`: the encoding and the score.
fn parse_guess(line: &str) -> (&str, f32) {
    let (name, rest) = line.split_once(" (guess, ").expect("a guess");
    let score: f32 = rest.strip_suffix(')').unwrap().parse().unwrap();
    assert!((0.0..=1.0).contains(&score), "{line}");
    assert_eq!(rest.len(), "0.97)".len(), "two decimals: {line}");
    (name, score)
}

#[test]
fn detect_prints_a_line_per_input() {
    let ru = lib_encode(enc("windows-1251"), &russian());
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("日本語".encode_utf16().flat_map(u16::to_le_bytes));
    let (_dir, paths) = files(&[
        ("bom.txt", &utf16),
        (
            "meta.html",
            b"<!doctype html><meta charset=euc-kr><p>\xb0\xa1</p>",
        ),
        (
            "xml.xhtml",
            b"<?xml version='1.0' encoding='iso-8859-2'?><p>\xb1</p>",
        ),
        ("ru.txt", &ru),
    ]);
    let args: Vec<&str> = ["detect"]
        .into_iter()
        .chain(paths.iter().map(String::as_str))
        .collect();
    let out = run(&args, b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stderr.is_empty());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], format!("{}: UTF-16LE (bom)", paths[0]));
    assert_eq!(lines[1], format!("{}: EUC-KR (meta)", paths[1]));
    assert_eq!(lines[2], format!("{}: ISO-8859-2 (meta)", paths[2]));
    let rest = lines[3].strip_prefix(&format!("{}: ", paths[3])).unwrap();
    assert_eq!(parse_guess(rest).0, "windows-1251");
}

#[test]
fn detect_reads_standard_input() {
    for args in [&["detect"][..], &["detect", "-"]] {
        let out = run(args, b"\xEF\xBB\xBFhello");
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), "-: UTF-8 (bom)\n");
    }
    let out = run(&["detect", "--json"], b"<meta charset=big5>");
    assert_eq!(
        stdout(&out),
        "[\n  {\"input\": \"-\", \"encoding\": \"Big5\", \"source\": \"meta\", \"score\": null}\n]\n"
    );
}

#[test]
fn detect_json() {
    let ru = lib_encode(enc("windows-1251"), &russian());
    let (_dir, paths) = files(&[("a \"quoted\" name.txt", b"\xFE\xFF\0a"), ("ru.txt", &ru)]);
    let out = run(&["detect", "--json", &paths[0], &paths[1]], b"");
    assert_eq!(code(&out), 0);
    let json = stdout(&out);
    let escaped = paths[0].replace('"', "\\\"");
    let first = format!(
        "[\n  {{\"input\": \"{escaped}\", \"encoding\": \"UTF-16BE\", \"source\": \"bom\", \"score\": null}},\n"
    );
    assert!(json.starts_with(&first), "{json}");
    let second = json[first.len()..].strip_suffix("\n]\n").unwrap();
    let prefix = format!(
        "  {{\"input\": \"{}\", \"encoding\": \"windows-1251\", \"source\": \"guess\", \"score\": ",
        paths[1]
    );
    let score: f32 = second
        .strip_prefix(&prefix)
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or_else(|| panic!("{json}"))
        .parse()
        .unwrap();
    assert!((0.0..=1.0).contains(&score));
}

#[test]
fn detect_tld_and_no_utf8() {
    let utf8 = russian().into_bytes();
    let sjis = lib_encode(enc("shift_jis"), &corpus("ja"));
    let (_dir, paths) = files(&[("utf8.txt", &utf8), ("sjis.txt", &sjis)]);
    let line = |args: &[&str]| {
        let out = run(args, b"");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        let (_, rest) = text.trim_end().split_once(": ").unwrap();
        parse_guess(rest).0.to_string()
    };
    assert_eq!(line(&["detect", &paths[0]]), "UTF-8");
    // Browsers never guess UTF-8: --no-utf8 gives what the Detector says without it.
    let without = line(&["detect", "--no-utf8", &paths[0]]);
    assert_ne!(without, "UTF-8");
    assert_eq!(without, guess(&utf8, None, false).name());
    assert_eq!(
        line(&["detect", "--no-utf8", "--tld", "ru", &paths[0]]),
        guess(&utf8, Some(b"ru"), false).name()
    );
    // The TLD is given without a dot, or with one, in any case.
    for tld in ["jp", ".jp", "JP"] {
        assert_eq!(
            line(&["detect", "--tld", tld, &paths[1]]),
            guess(&sjis, Some(b"jp"), true).name()
        );
    }
}

#[test]
fn detect_looks_at_the_first_mib_and_1024_bytes() {
    // A declaration past byte 1024 is not one; the guess reads the first MiB only.
    let mut late_meta = vec![b' '; 2000];
    late_meta.extend_from_slice(b"<meta charset=euc-kr>");
    let mut late_text = vec![b'.'; 1 << 20];
    late_text.extend(lib_encode(enc("windows-1251"), &russian()));
    let (_dir, paths) = files(&[("late.html", &late_meta), ("late.txt", &late_text)]);
    let out = run(&["detect", &paths[0], &paths[1]], b"");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines[0].contains("(meta)"), "{}", lines[0]);
    let rest = lines[1].split_once(": ").unwrap().1;
    assert_eq!(parse_guess(rest).0, guess(&late_text, None, true).name());
    assert_ne!(parse_guess(rest).0, "windows-1251");
}

#[test]
fn a_character_cut_at_the_first_mib_is_not_an_error() {
    // UTF-8 whose byte 1 MiB is inside a character: the guess over the first MiB is UTF-8.
    let mut text = String::new();
    while text.len() <= 1 << 20 {
        text.push_str(&corpus("ja"));
    }
    let mut cut = 1 << 20;
    while text.is_char_boundary(cut) {
        text.insert(0, 'x');
        cut = 1 << 20;
    }
    let out = run(&["detect"], text.as_bytes());
    assert!(
        stdout(&out).starts_with("-: UTF-8 (guess, "),
        "{}",
        stdout(&out)
    );
    let out = run(&["decode", "-e", "auto", "-q"], text.as_bytes());
    assert!(stdout(&out) == text);
}

#[test]
fn detect_usage_errors() {
    let out = run(&["detect", "/nonexistent/file.txt"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with("textcodec: cannot read '/nonexistent/file.txt'"));
    assert!(out.stdout.is_empty());
    let dir = tempdir();
    let out = run(&["detect", dir.path().to_str().unwrap()], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("is a directory"));
    let out = run(&["detect", "--bogus"], b"");
    assert_eq!(code(&out), 2);
    let out = run(&["detect", "--help"], b"");
    assert_eq!(code(&out), 0);
    for option in ["--tld", "--no-utf8", "--json", "Examples:"] {
        assert!(stdout(&out).contains(option), "{option}");
    }
    // `auto` is for the input only.
    let out = run(&["convert", "-t", "auto"], b"x");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("unknown encoding label 'auto'"));
}

#[test]
fn auto_converts_and_reports_on_stderr() {
    let text = russian();
    let ru = lib_encode(enc("windows-1251"), &text);
    for args in [
        &["convert", "-f", "auto"][..],
        &["convert", "--from", "AUTO"],
        &["decode", "-e", "auto"],
    ] {
        let out = run(args, &ru);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(stdout(&out) == text, "{args:?}");
        let report = stderr(&out);
        let rest = report
            .strip_prefix("textcodec: standard input: ")
            .and_then(|r| r.strip_suffix('\n'))
            .unwrap_or_else(|| panic!("{report}"));
        assert_eq!(parse_guess(rest).0, "windows-1251");
    }
    // --quiet: no report.
    let out = run(&["decode", "-e", "auto", "-q"], &ru);
    assert!(out.stderr.is_empty());
    assert!(stdout(&out) == text);
    // To another encoding.
    let args = [
        "convert",
        "-f",
        "auto",
        "-t",
        "koi8-r",
        "--unmappable",
        "html",
        "-q",
    ];
    let out = run(&args, &ru);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout == lib_encode(enc("koi8-r"), &text));
}

#[test]
fn auto_detects_each_input_on_its_own() {
    let text = russian();
    let mut utf16 = vec![0xFE, 0xFF];
    utf16.extend("日本語\n".encode_utf16().flat_map(u16::to_be_bytes));
    let (_dir, paths) = files(&[
        ("a.txt", &lib_encode(enc("windows-1251"), &text)),
        ("b.txt", &utf16),
        ("c.html", b"<meta charset=euc-kr>\xb0\xa1\n"),
        ("d.txt", b""),
    ]);
    let out = run(
        &[
            "decode", "-e", "auto", &paths[0], &paths[1], &paths[2], &paths[3],
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out) == format!("{text}日本語\n<meta charset=euc-kr>가\n"));
    let report = stderr(&out);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 4, "{report}");
    assert!(lines[0].starts_with(&format!("textcodec: {}: windows-1251 (guess, ", paths[0])));
    assert_eq!(lines[1], format!("textcodec: {}: UTF-16BE (bom)", paths[1]));
    assert_eq!(lines[2], format!("textcodec: {}: EUC-KR (meta)", paths[2]));
    assert!(lines[3].starts_with(&format!("textcodec: {}: ", paths[3])));
}

#[test]
fn auto_streams_standard_input_past_the_first_mib() {
    // Several MiB: the first one decides, and all of it is converted, in order.
    let text = russian().repeat(60);
    let ru = lib_encode(enc("windows-1251"), &text);
    assert!(ru.len() > 3 << 20);
    let out = run(&["decode", "-e", "auto", "-q"], &ru);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out) == text);
    // The same from a file.
    let (_dir, paths) = files(&[("big.txt", &ru)]);
    let out = run(&["decode", "-e", "auto", "-q", &paths[0]], b"");
    assert!(stdout(&out) == text);
}

#[test]
fn auto_keeps_offsets_and_policies() {
    // Malformed UTF-8 past the first MiB: the offset counts from the start of the input.
    let mut bytes = russian().into_bytes();
    while bytes.len() < (3 << 20) / 2 {
        bytes.extend_from_within(..);
    }
    bytes.truncate(3 << 19);
    while std::str::from_utf8(&bytes).is_err() {
        bytes.pop();
    }
    let offset = bytes.len();
    bytes.extend_from_slice(b"\xFF end");
    let out = run(&["decode", "-e", "auto", "--invalid", "fail", "-q"], &bytes);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        format!("textcodec: standard input: malformed UTF-8 at byte offset {offset}: FF\n")
    );
    // Replaced by default, with the warning.
    let out = run(&["decode", "-e", "auto"], &bytes);
    assert_eq!(code(&out), 0);
    let report = stderr(&out);
    assert!(report.contains("UTF-8 (guess"), "{report}");
    assert!(
        report.contains(&format!("the first at byte offset {offset}")),
        "{report}"
    );
    // A BOM found by detection is removed, as with --bom sniff.
    let out = run(&["decode", "-e", "auto", "-q"], b"\xEF\xBB\xBFabc");
    assert_eq!(out.stdout, b"abc");
}
