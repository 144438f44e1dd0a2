//! The command-line contract (the README's "The command"): commands, options, exit codes and
//! messages, run against the built binary.

mod common;

use std::fs;
use std::io::Read;
use std::process::Stdio;

use common::*;

// ---------------------------------------------------------------- help, version, usage

#[test]
fn help_for_every_command_goes_to_stdout() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["help", "convert"],
        &["convert", "--help"],
        &["decode", "--help"],
        &["encode", "--help"],
        &["list", "--help"],
        &["label", "--help"],
    ] {
        let out = run(args, b"");
        assert_eq!(code(&out), 0, "{args:?}");
        let text = stdout(&out);
        assert!(text.contains("Usage:"), "{args:?}: {text}");
        assert!(text.contains("Examples:"), "{args:?}: {text}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    let text = stdout(&run(&["convert", "--help"], b""));
    for option in [
        "--from",
        "--to",
        "--output",
        "--bom",
        "--add-bom",
        "--invalid",
        "--unmappable",
        "--quiet",
    ] {
        assert!(
            text.contains(option),
            "{option} missing from convert --help"
        );
    }
}

#[test]
fn version_goes_to_stdout() {
    for args in [&["--version"][..], &["-V"], &["convert", "--version"]] {
        let out = run(args, b"");
        assert_eq!(code(&out), 0);
        assert_eq!(
            stdout(&out).trim(),
            format!("textcodec {}", env!("CARGO_PKG_VERSION"))
        );
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn usage_errors_exit_2_with_prefix() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["convert", "--bogus"],
        &["convert", "--bom", "maybe"],
        &["convert", "--invalid", "ignore"],
        &["convert", "--unmappable", "ignore"],
        &["decode", "-e", "latin1", "--unmappable", "html"],
        &["decode"],
        &["encode", "-e"],
        &["label"],
        &["list", "--yaml"],
    ] {
        let out = run(args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&out).starts_with("textcodec: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

// ---------------------------------------------------------------- labels

#[test]
fn unknown_label_suggests_real_labels() {
    for args in [
        &["convert", "-f", "sjiss"][..],
        &["convert", "-t", "sjiss"],
        &["decode", "-e", "sjiss"],
        &["encode", "-e", "sjiss"],
        &["label", "sjiss"],
    ] {
        let out = run(args, b"abc");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty());
        let err = stderr(&out);
        assert!(
            err.starts_with("textcodec: unknown encoding label 'sjiss'\n"),
            "{args:?}: {err}"
        );
        assert!(err.contains("'sjis' (Shift_JIS)"), "{err}");
        assert!(err.lines().all(|l| l.starts_with("textcodec: ")), "{err}");
    }
    let err = stderr(&run(&["label", "latin-l"], b""));
    assert!(err.contains("'latin1' (windows-1252)"), "{err}");
    let err = stderr(&run(&["label", "shiftjis"], b""));
    assert!(err.contains("'shift_jis'"), "{err}");
}

#[test]
fn label_prints_the_encoding_name() {
    for (label, name) in [
        ("latin1", "windows-1252"),
        (" SJIS \t", "Shift_JIS"),
        ("UTF8", "UTF-8"),
        ("utf-16", "UTF-16LE"),
        ("gb2312", "GBK"),
        ("csiso2022kr", "replacement"),
        ("x-user-defined", "x-user-defined"),
    ] {
        let out = run(&["label", label], b"");
        assert_eq!(code(&out), 0, "{label}");
        assert_eq!(stdout(&out), format!("{name}\n"));
        // Labels that mean another encoding outside the Web come with a note on stderr.
        let noted = ["latin1", "utf-16", "gb2312", "csiso2022kr"].contains(&label);
        assert_eq!(!out.stderr.is_empty(), noted, "{label}: {}", stderr(&out));
        let out = run(&["label", "-q", label], b"");
        assert_eq!(stdout(&out), format!("{name}\n"));
        assert!(out.stderr.is_empty());
    }
    // Every label of every encoding resolves to it.
    for enc in textcodec::Encoding::all() {
        for label in enc.labels() {
            let out = run(&["label", &label.to_ascii_uppercase()], b"");
            assert_eq!(stdout(&out), format!("{}\n", enc.name()), "{label}");
        }
    }
}

#[test]
fn list_table_and_json() {
    let all = textcodec::Encoding::all();
    assert_eq!(all.len(), 40);
    let out = run(&["list"], b"");
    assert_eq!(code(&out), 0);
    let table = stdout(&out);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 41, "{table}");
    for (line, enc) in lines[1..].iter().zip(all) {
        assert!(line.starts_with(enc.name()), "{line}");
        assert!(line.ends_with(enc.labels().last().unwrap()), "{line}");
    }

    let out = run(&["list", "--json"], b"");
    assert_eq!(code(&out), 0);
    let json = stdout(&out);
    assert!(json.starts_with('[') && json.trim_end().ends_with(']'));
    assert_eq!(json.matches("\"name\": ").count(), 40);
    for enc in all {
        let mut labels = String::new();
        for (i, l) in enc.labels().iter().enumerate() {
            if i > 0 {
                labels.push_str(", ");
            }
            labels.push_str(&format!("\"{l}\""));
        }
        let entry = format!("{{\"name\": \"{}\", \"labels\": [{labels}]}}", enc.name());
        assert!(json.contains(&entry), "{entry}");
    }
}

#[test]
fn replacement_and_bom_refusals() {
    for args in [
        &["convert", "-t", "replacement"][..],
        &["encode", "-e", "csiso2022kr"],
        &["convert", "-t", "latin1", "--add-bom"],
        &["encode", "-e", "shift_jis", "--add-bom"],
    ] {
        let out = run(args, b"abc");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(stderr(&out).starts_with("textcodec: "));
    }
    assert!(stderr(&run(&["convert", "-t", "replacement"], b"")).contains("replacement"));
    // Decoding from the replacement encoding is allowed: one U+FFFD for any input.
    let out = run(&["decode", "-e", "replacement", "--quiet"], b"abc");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "\u{FFFD}");
}

// ---------------------------------------------------------------- conversions

#[test]
fn defaults_are_utf8_to_utf8_with_replacement() {
    let out = run(&["convert"], b"caf\xC3\xA9 \xFF!");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "caf\u{E9} \u{FFFD}!");
    let err = stderr(&out);
    assert_eq!(
        err,
        "textcodec: warning: standard input: 1 malformed UTF-8 sequence replaced with U+FFFD, \
         the first at byte offset 6\n"
    );
}

#[test]
fn decode_and_encode_shortcuts() {
    let sjis = b"\x93\xfa\x96\x7b\x8c\xea abc";
    let out = run(&["decode", "-e", "shift_jis"], sjis);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "日本語 abc");
    let out = run(&["encode", "-e", "sjis"], "日本語 abc".as_bytes());
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, sjis);
    let out = run(&["convert", "-f", "sjis", "-t", "euc-jp"], sjis);
    assert_eq!(out.stdout, b"\xc6\xfc\xcb\xdc\xb8\xec abc");
    let out = run(&["convert", "--from", "SJIS", "--to", "UTF-8", "-"], sjis);
    assert_eq!(stdout(&out), "日本語 abc");
    // `-o -` is standard output.
    let out = run(&["decode", "-e", "sjis", "-o", "-"], sjis);
    assert_eq!(stdout(&out), "日本語 abc");
}

#[test]
fn invalid_replace_warns_once_per_input_with_count_and_first_offset() {
    let out = run(
        &["decode", "-e", "shift_jis"],
        b"ab\x82 cd\xff\x82\xffxx\x82",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "ab\u{FFFD} cd\u{FFFD}\u{FFFD}xx\u{FFFD}");
    assert_eq!(
        stderr(&out),
        "textcodec: warning: standard input: 4 malformed Shift_JIS sequences replaced with \
         U+FFFD, the first at byte offset 2\n"
    );
    // --quiet silences the warning.
    let out = run(&["decode", "-e", "shift_jis", "-q"], b"ab\x82 cd");
    assert_eq!(code(&out), 0);
    assert!(out.stderr.is_empty());
    // Clean input: no warning.
    let out = run(&["decode", "-e", "shift_jis"], b"plain");
    assert!(out.stderr.is_empty());
}

#[test]
fn invalid_fail_names_input_offset_and_bytes() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("shift_jis", b"ab\x82 cd", "at byte offset 2: 82"),
        ("shift_jis", b"ab\x82\xffcd", "at byte offset 2: 82 FF"),
        ("utf-8", b"abc\xE2\x82", "at byte offset 3: E2 82"),
        ("utf-8", b"h\xC3(", "at byte offset 1: C3"),
        // BOM included in offsets.
        ("utf-8", b"\xEF\xBB\xBFa\xFF", "at byte offset 4: FF"),
        ("euc-kr", b"x\xA1", "at byte offset 1: A1"),
        ("utf-16le", b"a\x00\x00\xD8b\x00", "at byte offset 2: 00 D8"),
        ("utf-16be", b"\x00a\x00", "at byte offset 2: 00"),
        ("gb18030", b"ab\x81\x30\x81X", "at byte offset 2: 81"),
        ("gb18030", b"ab\x84\x31\xa5", "at byte offset 2: 84 31 A5"),
        ("euc-jp", b"a\x8f\xa1X", "at byte offset 1: 8F A1"),
        ("iso-2022-jp", b"ab\x1b$Z", "at byte offset 2: 1B"),
        ("iso-2022-jp", b"ab\x1b$B\x30", "at byte offset 5: 30"),
        (
            "iso-2022-jp",
            b"ab\x1b(Bxx\x1b(B\x1b(B",
            "at byte offset 10: 1B 28 42",
        ),
        ("utf-8", b"a\xed\xa0\x80", "at byte offset 1: ED"),
    ];
    for (label, input, expected) in cases {
        let out = run(&["decode", "-e", label, "--invalid", "fail"], input);
        assert_eq!(code(&out), 1, "{label} {input:?}");
        // What came before the malformed sequence was written.
        let mut good = String::new();
        let mut decoder = enc(label).new_decoder(textcodec::DecoderOptions {
            error_mode: textcodec::DecoderErrorMode::Fatal,
            bom: textcodec::BomHandling::Sniff,
        });
        let _ = decoder.decode_to_string(input, &mut good, true);
        assert_eq!(stdout(&out), good, "{label} {input:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("textcodec: standard input: malformed "),
            "{err}"
        );
        assert!(err.contains(expected), "{label} {input:?}: {err}");
    }
    let dir = tempdir();
    let file = dir.path().join("in.txt");
    fs::write(&file, b"ok\n\x81").unwrap();
    let out = run(
        &[
            "decode",
            "-e",
            "sjis",
            "--invalid",
            "fail",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains(&format!(
        "{}: malformed Shift_JIS at byte offset 3: 81",
        file.display()
    )));
}

#[test]
fn unmappable_fail_names_line_column_and_character() {
    let out = run(
        &["encode", "-e", "windows-1252"],
        "first\nab\u{101}c\n".as_bytes(),
    );
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.starts_with("textcodec: standard input: line 2, column 3: U+0101 'ā' cannot be encoded in windows-1252"), "{err}");
    // Columns count characters, not bytes.
    let out = run(&["encode", "-e", "shift_jis"], "日本\n語語é".as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 2, column 3: U+00E9 'é'"),
        "{}",
        stderr(&out)
    );
    // Line/column across chunk boundaries (a long first line).
    let mut long = "x".repeat(200_000);
    long.push_str("\n\n\u{3042}");
    let out = run(&["encode", "-e", "latin1"], long.as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 3, column 1: U+3042 'あ'"),
        "{}",
        stderr(&out)
    );
    // Astral characters count as one column.
    let out = run(&["encode", "-e", "gb18030"], "x\n😀😀\u{E5E5}".as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 2, column 3: U+E5E5"),
        "{}",
        stderr(&out)
    );
    // ISO-2022-JP (encoded from UTF-8 rather than UTF-16).
    let out = run(&["encode", "-e", "iso-2022-jp"], "日本\n\n語😀é".as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 3, column 2: U+1F600 '😀'"),
        "{}",
        stderr(&out)
    );
    let out = run(&["encode", "-e", "iso-2022-jp"], "ab\u{E}".as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 1, column 3: U+000E '\\u{e}'"),
        "{}",
        stderr(&out)
    );
    // After a conversion, through the decoder.
    let out = run(
        &["convert", "-f", "shift_jis", "-t", "iso-8859-2"],
        b"a\x82\xa0",
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 1, column 2: U+3042 'あ'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn unmappable_html_writes_references() {
    let out = run(
        &["encode", "-e", "windows-1252", "--unmappable", "html"],
        "a\u{101}b\u{1F600}".as_bytes(),
    );
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, b"a&#257;b&#128512;");
    assert!(out.stderr.is_empty());
    let out = run(
        &["encode", "-e", "iso-2022-jp", "--unmappable", "html"],
        "\u{E9}日".as_bytes(),
    );
    assert_eq!(out.stdout, b"&#233;\x1b$BF|\x1b(B");
}

#[test]
fn bom_options() {
    let utf8_bom = b"\xEF\xBB\xBFhi";
    let cases: &[(&str, &str, &[u8], &str)] = &[
        ("utf-8", "sniff", utf8_bom, "hi"),
        ("utf-8", "strip", utf8_bom, "hi"),
        ("utf-8", "keep", utf8_bom, "\u{FEFF}hi"),
        ("windows-1252", "sniff", utf8_bom, "hi"),
        ("windows-1252", "strip", utf8_bom, "ï»¿hi"),
        ("windows-1252", "keep", utf8_bom, "ï»¿hi"),
        ("windows-1252", "sniff", b"\xFF\xFEh\x00i\x00", "hi"),
        ("windows-1252", "sniff", b"\xFE\xFF\x00h\x00i", "hi"),
        ("utf-16le", "strip", b"\xFF\xFEh\x00i\x00", "hi"),
        ("utf-16le", "keep", b"\xFF\xFEh\x00i\x00", "\u{FEFF}hi"),
        ("utf-16le", "strip", b"\xEF\xBB\xBFh", "\u{BBEF}\u{68BF}"),
    ];
    for (from, bom, input, expected) in cases {
        let out = run(&["convert", "-q", "-f", from, "--bom", bom], input);
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), *expected, "{from} --bom {bom}");
    }
    // Default is sniff.
    assert_eq!(stdout(&run(&["decode", "-e", "latin1"], utf8_bom)), "hi");
}

#[test]
fn utf16_output_and_add_bom() {
    let text = "aé日😀\n";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let sjis_free = text.as_bytes();
    let out = run(&["convert", "-t", "utf-16le"], sjis_free);
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, le);
    let out = run(&["convert", "-t", "UTF-16BE"], sjis_free);
    assert_eq!(out.stdout, be);
    let out = run(&["convert", "-t", "utf-16"], sjis_free);
    assert_eq!(out.stdout, le, "utf-16 is UTF-16LE");
    let out = run(&["convert", "-t", "utf-16le", "--add-bom"], sjis_free);
    assert_eq!(out.stdout, [&[0xFF, 0xFE][..], &le].concat());
    let out = run(&["convert", "-t", "utf-16be", "--add-bom"], sjis_free);
    assert_eq!(out.stdout, [&[0xFE, 0xFF][..], &be].concat());
    let out = run(&["convert", "--add-bom"], b"x");
    assert_eq!(out.stdout, b"\xEF\xBB\xBFx");
    // Malformed input becomes U+FFFD in UTF-16 too, with the warning.
    let out = run(&["decode", "-e", "shift_jis", "--invalid", "replace"], b"");
    assert_eq!(out.stdout, b"");
    let out = run(&["convert", "-f", "shift_jis", "-t", "utf-16be"], b"a\xff");
    assert_eq!(out.stdout, b"\x00a\xff\xfd");
    assert!(stderr(&out).contains(
        "1 malformed Shift_JIS sequence replaced with U+FFFD, the first at byte offset 1"
    ));
    let out = run(
        &[
            "convert",
            "-f",
            "shift_jis",
            "-t",
            "utf-16be",
            "--invalid",
            "fail",
        ],
        b"a\xff",
    );
    assert_eq!(code(&out), 1);
    // UTF-16 to UTF-16.
    let out = run(&["convert", "-f", "utf-16be", "-t", "utf-16le"], &be);
    assert_eq!(out.stdout, le);
}

#[test]
fn several_inputs_are_separate_streams() {
    let dir = tempdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    fs::write(&a, "日本".as_bytes()).unwrap();
    fs::write(&b, "語\n".as_bytes()).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    // ISO-2022-JP returns to ASCII at the end of each input.
    let out = run(&["encode", "-e", "iso-2022-jp", a, b], b"");
    assert_eq!(code(&out), 0);
    let jis = enc("iso-2022-jp");
    assert_eq!(
        out.stdout,
        [lib_encode(jis, "日本"), lib_encode(jis, "語\n")].concat()
    );
    assert!(out.stdout.starts_with(b"\x1b$BF|K\\\x1b(B\x1b$B"));
    // Standard input in the middle.
    let out = run(&["encode", "-e", "iso-2022-jp", a, "-", b], "x".as_bytes());
    assert_eq!(
        out.stdout,
        [
            lib_encode(jis, "日本"),
            b"x".to_vec(),
            lib_encode(jis, "語\n")
        ]
        .concat()
    );
    // BOM sniffing restarts per input; offsets count from each input's start.
    let c = dir.path().join("c.txt");
    let d = dir.path().join("d.txt");
    fs::write(&c, b"\xFF\xFEo\x00k\x00").unwrap();
    fs::write(&d, b"\xEF\xBB\xBFx\xFFy").unwrap();
    let out = run(
        &[
            "decode",
            "-e",
            "windows-1252",
            c.to_str().unwrap(),
            d.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "okx\u{FFFD}y");
    assert_eq!(
        stderr(&out),
        format!(
            "textcodec: warning: {}: 1 malformed UTF-8 sequence replaced with U+FFFD, the first at byte offset 4\n",
            d.display()
        )
    );
    // An incomplete sequence at the end of one input does not join the next.
    let e = dir.path().join("e.txt");
    fs::write(&e, b"\x82").unwrap();
    let out = run(
        &[
            "decode",
            "-e",
            "sjis",
            "-q",
            e.to_str().unwrap(),
            e.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(stdout(&out), "\u{FFFD}\u{FFFD}");
    // --add-bom writes one BOM at the start of the output.
    let out = run(&["convert", "--add-bom", a, b], b"");
    assert_eq!(out.stdout, "\u{FEFF}日本語\n".as_bytes());
}

#[test]
fn unreadable_input_and_unwritable_output_exit_2() {
    let dir = tempdir();
    let missing = dir.path().join("missing.txt");
    let out = run(&["convert", missing.to_str().unwrap()], b"");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("textcodec: cannot read '{}'", missing.display())),
        "{err}"
    );
    // A directory is not an input.
    let out = run(&["convert", dir.path().to_str().unwrap()], b"");
    assert_eq!(code(&out), 2);
    // A missing file among several: nothing is written.
    let good = dir.path().join("good.txt");
    fs::write(&good, "ok").unwrap();
    let out = run(
        &["convert", good.to_str().unwrap(), missing.to_str().unwrap()],
        b"",
    );
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    // Output into a missing directory, or onto a directory.
    let bad = dir.path().join("no/such/dir/out.txt");
    let out = run(&["convert", "-o", bad.to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with(&format!("textcodec: cannot write '{}'", bad.display())));
    let out = run(&["convert", "-o", dir.path().to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 2);
    assert_eq!(entries(dir.path()), ["good.txt"]);
}

// ---------------------------------------------------------------- -o atomicity

#[test]
fn output_file_appears_only_on_success() {
    let dir = tempdir();
    let target = dir.path().join("out.txt");
    let t = target.to_str().unwrap();

    // Success.
    let out = run(
        &["encode", "-e", "shift_jis", "-o", t],
        "日本語\n".as_bytes(),
    );
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read(&target).unwrap(), b"\x93\xfa\x96\x7b\x8c\xea\n");
    assert_eq!(entries(dir.path()), ["out.txt"]);

    // A failing run leaves an existing file untouched, and no temporary file.
    let mut big = "abc\n".repeat(100_000);
    big.push('\u{101}');
    for args in [
        &["encode", "-e", "shift_jis", "-o", t][..],
        &["decode", "-e", "shift_jis", "--invalid", "fail", "-o", t],
    ] {
        let input: Vec<u8> = if args[0] == "encode" {
            big.clone().into_bytes()
        } else {
            [big.as_bytes(), b"\xff"].concat()
        };
        let out = run(args, &input);
        assert_eq!(code(&out), 1, "{args:?}");
        assert_eq!(fs::read(&target).unwrap(), b"\x93\xfa\x96\x7b\x8c\xea\n");
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    // A failing run with no existing file leaves nothing.
    let other = dir.path().join("other.txt");
    let out = run(
        &["encode", "-e", "latin1", "-o", other.to_str().unwrap()],
        big.as_bytes(),
    );
    assert_eq!(code(&out), 1);
    assert_eq!(entries(dir.path()), ["out.txt"]);

    // A missing input leaves nothing either.
    let out = run(
        &[
            "convert",
            "-o",
            other.to_str().unwrap(),
            "/nonexistent/input",
        ],
        b"",
    );
    assert_eq!(code(&out), 2);
    assert_eq!(entries(dir.path()), ["out.txt"]);

    // Converting a file onto itself is safe.
    let out = run(&["decode", "-e", "shift_jis", "-o", t, t], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(fs::read_to_string(&target).unwrap(), "日本語\n");
}

#[cfg(unix)]
#[test]
fn output_file_keeps_existing_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let target = dir.path().join("out.txt");
    fs::write(&target, "old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(&["convert", "-o", target.to_str().unwrap()], b"new");
    assert_eq!(code(&out), 0);
    assert_eq!(fs::read_to_string(&target).unwrap(), "new");
    assert_eq!(
        fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[cfg(unix)]
#[test]
fn output_through_a_symlink_replaces_its_target() {
    let dir = tempdir();
    let real = dir.path().join("real.txt");
    let link = dir.path().join("link.txt");
    fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = run(&["convert", "-o", link.to_str().unwrap()], b"new");
    assert_eq!(code(&out), 0);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(entries(dir.path()), ["link.txt", "real.txt"]);
}

// ---------------------------------------------------------------- pipes

#[cfg(unix)]
#[test]
fn broken_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempdir();
    let input = dir.path().join("big.txt");
    fs::write(&input, "0123456789abcdef".repeat(1 << 20)).unwrap();
    for args in [
        &["convert"][..],
        &["convert", "-t", "utf-16le"],
        &["encode", "-e", "shift_jis"],
        &["decode", "-e", "windows-1252", "-"],
    ] {
        let mut child = bin()
            .args(args)
            .stdin(fs::File::open(&input).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut buf = [0u8; 1000];
        stdout.read_exact(&mut buf).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let ok = out.status.code() == Some(0) || out.status.signal() == Some(13);
        assert!(ok, "{args:?}: {:?}", out.status);
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));
    }
    // `list` too.
    let mut child = bin()
        .arg("list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.stderr.is_empty());
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    // Several megabytes take a while in a debug build; nothing may appear on stderr.
    let input = "Mars est la quatrième planète.\n".repeat(100_000);
    let out = run(&["encode", "-e", "windows-1252"], input.as_bytes());
    assert_eq!(code(&out), 0);
    assert!(out.stderr.is_empty());
    assert_eq!(out.stdout, lib_encode(enc("windows-1252"), &input));
}

#[test]
fn progress_bar_on_a_terminal_shows_bytes_rate_and_eta() {
    let dir = tempdir();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    // Big enough for the bar to be drawn at least once while converting.
    let text = "Mars est la quatrième planète par ordre de distance au Soleil.\n".repeat(400_000);
    fs::write(&input, lib_encode(enc("windows-1252"), &text)).unwrap();
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());

    let shown = on_a_terminal(&["convert", "-f", "windows-1252", i, "-o", o]);
    // The input size is known: bytes done of the total, the rate and the time left.
    assert!(shown.contains(" left)"), "{shown:?}");
    assert!(shown.contains("B/s"), "{shown:?}");
    assert!(shown.contains("MiB"), "{shown:?}");
    // One summary line when the bar finishes: bytes, time, rate.
    let summary = shown
        .lines()
        .find(|l| l.contains("textcodec: ") && l.contains(" in ") && l.ends_with("/s)"));
    assert!(summary.is_some(), "{shown:?}");
    assert_eq!(fs::read_to_string(&output).unwrap(), text);

    let quiet = on_a_terminal(&["convert", "-q", "-f", "windows-1252", i, "-o", o]);
    assert!(!quiet.contains("B/s"), "{quiet:?}");
}

// ---------------------------------------------------------------- the shipped sample

#[test]
fn readme_command_decodes_the_sample() {
    let out = bin()
        .current_dir(repo_root())
        .args([
            "convert",
            "-f",
            "shift_jis",
            "-t",
            "utf-8",
            "data/samples/ja.sjis.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    // The first 40 lines of the Japanese article, encoded by the library in HTML mode (as
    // the corpus README prescribes): the three characters Shift_JIS lacks (Ά, ς, 剝) are
    // numeric character references, everything else comes back exactly.
    let original: String = corpus("ja").split_inclusive('\n').take(40).collect();
    let sample = fs::read(repo_root().join("data/samples/ja.sjis.txt")).unwrap();
    assert_eq!(sample, lib_encode(enc("shift_jis"), &original));
    let expected = original
        .replace('\u{386}', "&#902;")
        .replace('\u{3C2}', "&#962;")
        .replace('\u{525D}', "&#21085;");
    assert_eq!(stdout(&out), expected);
}
