//! What people coming from iconv and uconv reach for: option aliases, skipping, the
//! transliteration table, `//TRANSLIT` and `//IGNORE`, notes on labels whose meaning
//! differs on the Web, `--in-place` and `-r`, help texts, completions and the man page.

mod common;

use std::fs;
use std::process::Stdio;

use common::*;

#[test]
fn iconv_option_names() {
    let sjis = b"\x93\xfa\x96\x7b\x8c\xea";
    for args in [
        &["convert", "--from-code=SJIS", "--to-code=UTF-8"][..],
        &["convert", "--from-code", "sjis"],
        &["convert", "-f", "sjis", "--to-code", "utf8"],
    ] {
        let out = run(args, sjis);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "日本語", "{args:?}");
    }
    let list = stdout(&run(&["list"], b""));
    for args in [&["-l"][..], &["--list"]] {
        let out = run(args, b"");
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), list);
    }
    assert!(stdout(&run(&["-l", "--json"], b"")).starts_with('['));
}

#[test]
fn invalid_skip_leaves_malformed_input_out() {
    let out = run(
        &["decode", "-e", "shift_jis", "--invalid", "skip"],
        b"ab\x82 cd\xff\x82\xffxx\x82",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "ab cdxx");
    assert_eq!(
        stderr(&out),
        "textcodec: warning: standard input: 4 malformed Shift_JIS sequences skipped, the \
         first at byte offset 2\n"
    );
    // decode -c is the same; -q silences the warning.
    let out = run(&["decode", "-e", "shift_jis", "-c", "-q"], b"ab\x82 cd");
    assert_eq!((stdout(&out).as_str(), out.stderr.len()), ("ab cd", 0));
    // The input's own U+FFFD stays.
    let out = run(
        &["convert", "--invalid", "skip"],
        b"a\xef\xbf\xbd\xc2\x80b\x80",
    );
    assert_eq!(stdout(&out), "a\u{FFFD}\u{80}b");
}

#[test]
fn unmappable_skip_and_dash_c() {
    let text = "naïve ☃ snow ❄\n";
    let out = run(
        &["encode", "-e", "windows-1252", "--unmappable", "skip"],
        text.as_bytes(),
    );
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, b"na\xefve  snow \n");
    assert_eq!(
        stderr(&out),
        "textcodec: warning: standard input: 2 characters that windows-1252 cannot \
         represent skipped\n"
    );
    // -c: both malformed input and unmappable characters are left out.
    let out = run(
        &["convert", "-c", "-t", "windows-1252"],
        b"a\xffb \xe2\x98\x83!",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, b"ab !");
    let err = stderr(&out);
    assert!(err.contains("1 malformed UTF-8 sequence skipped"), "{err}");
    assert!(
        err.contains("1 character that windows-1252 cannot represent skipped"),
        "{err}"
    );
}

/// `encode -e LABEL --unmappable translit` of `text`.
fn translit(label: &str, text: &str) -> Vec<u8> {
    let out = run(
        &["encode", "-e", label, "--unmappable", "translit", "-q"],
        text.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{label}: {}", stderr(&out));
    out.stdout
}

#[test]
fn transliteration_table() {
    // KOI8-R has no Latin letters beyond ASCII, no typographic quotes or dashes.
    let text = "“Œuvre” — l’été… ﬁn ß Æ Ł ő ½ © € 1–2 ☃ x\u{A0}y";
    // (KOI8-R has © and the no-break space.)
    let want = "\"OEuvre\" -- l'ete... fin ss AE L o 1/2 © EUR 1-2 ? x\u{A0}y";
    assert_eq!(translit("koi8-r", text), lib_encode(enc("koi8-r"), want));
    // A close letter first where the encoding has it: ő is ö in windows-1252, Ł is L; the
    // quotes and dashes are windows-1252's own.
    let text = "“Győr” – Łódź ☃ ﬁ";
    let want = "“Györ” – Lódz ? fi";
    assert_eq!(
        translit("windows-1252", text),
        lib_encode(enc("windows-1252"), want)
    );
    // ISO-2022-JP: a look-alike between JIS runs switches to ASCII and back.
    let text = "日本 ő 語";
    assert_eq!(
        translit("iso-2022-jp", text),
        lib_encode(enc("iso-2022-jp"), "日本 o 語")
    );
    // Zero-width characters and the soft hyphen disappear.
    assert_eq!(translit("koi8-r", "a\u{200B}b\u{AD}c\u{FEFF}"), b"abc");
    // The warning counts the characters transliterated.
    let out = run(
        &["encode", "-e", "koi8-r", "--unmappable", "translit"],
        "é☃".as_bytes(),
    );
    assert_eq!(out.stdout, b"e?");
    assert_eq!(
        stderr(&out),
        "textcodec: warning: standard input: 2 characters that KOI8-R cannot represent \
         transliterated\n"
    );
}

#[test]
fn translit_and_ignore_suffixes() {
    let text = "“é” ☃\n".as_bytes();
    let translit = run(
        &["encode", "-e", "koi8-r", "--unmappable", "translit", "-q"],
        text,
    );
    for args in [
        &["encode", "-e", "koi8-r//TRANSLIT", "-q"][..],
        &["convert", "-t", "KOI8-R//translit", "-q"],
        &["convert", "--to-code=koi8-r//TRANSLIT//IGNORE", "-q"],
    ] {
        let out = run(args, text);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert_eq!(out.stdout, translit.stdout, "{args:?}");
    }
    let out = run(
        &["convert", "-t", "koi8-r//IGNORE", "-q"],
        b"\xff\xe2\x80\x9cab",
    );
    assert_eq!((code(&out), out.stdout), (0, b"ab".to_vec()));
    // //TRANSLIT//IGNORE: look-alikes for unmappable characters, malformed input left out.
    let out = run(
        &["convert", "-t", "koi8-r//TRANSLIT//IGNORE", "-q"],
        b"\xff\xc3\xa9",
    );
    assert_eq!(out.stdout, b"e");
    // Refused, with what to use instead.
    for (args, says) in [
        (&["convert", "-f", "latin1//IGNORE"][..], "--invalid skip"),
        (&["convert", "-f", "latin1//TRANSLIT"], "output encoding"),
        (&["convert", "-t", "latin1//FOO"], "//TRANSLIT"),
        (
            &["convert", "-t", "latin1//TRANSLIT", "--unmappable", "html"],
            "contradicts",
        ),
        (&["convert", "-c", "--invalid", "fail"], "contradicts"),
    ] {
        let out = run(args, b"abc");
        assert_eq!(code(&out), 2, "{args:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("textcodec: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn labels_that_mean_another_encoding_elsewhere_get_a_note() {
    let out = run(&["decode", "-e", "latin1"], b"caf\xe9 \x80");
    assert_eq!(stdout(&out), "café €");
    assert_eq!(
        stderr(&out),
        "textcodec: note: 'latin1' is windows-1252 on the Web (the Encoding Standard, as \
         browsers), not ISO-8859-1: bytes 0x80-0x9F are windows-1252's characters (€ ‚ „ … \
         ‘ ’ “ ” – —), not C1 controls\n"
    );
    // Once per run, also when both sides use such a label; not with -q; not for the
    // Web's own names.
    let out = run(&["convert", "-f", "iso-8859-1", "-t", "iso-8859-1"], b"x");
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let out = run(&["convert", "-f", "us-ascii", "-t", "tis-620"], b"x");
    assert_eq!(stderr(&out).lines().count(), 2, "{}", stderr(&out));
    assert!(run(&["decode", "-e", "latin1", "-q"], b"x")
        .stderr
        .is_empty());
    for label in ["windows-1252", "shift_jis", "sjis", "gbk", "utf-8"] {
        let out = run(&["decode", "-e", label], b"x");
        assert!(out.stderr.is_empty(), "{label}: {}", stderr(&out));
    }
    for (label, says) in [
        ("gb2312", "is GBK on the Web"),
        ("utf-16", "is UTF-16LE on the Web"),
        ("iso-8859-9", "is windows-1254 on the Web"),
        ("iso-2022-kr", "is replacement on the Web"),
    ] {
        let err = stderr(&run(&["label", label], b""));
        assert!(err.contains(says), "{label}: {err}");
    }
}

#[test]
fn help_speaks_of_each_command_side() {
    let decode = stdout(&run(&["decode", "--help"], b""));
    assert!(!decode.contains("--unmappable"), "{decode}");
    assert!(
        !decode.contains("FROM") && !decode.contains(" TO"),
        "{decode}"
    );
    for option in [
        "--encoding",
        "--bom",
        "--invalid",
        "--add-bom",
        "--in-place",
        "-r,",
    ] {
        assert!(
            decode.contains(option),
            "{option} missing from decode --help"
        );
    }
    let encode = stdout(&run(&["encode", "--help"], b""));
    assert!(
        !encode.contains("FROM") && !encode.contains(" TO"),
        "{encode}"
    );
    assert!(
        encode.contains("--unmappable") && encode.contains("translit"),
        "{encode}"
    );
    assert!(encode.contains("UTF-8 input"), "{encode}");
    let convert = stdout(&run(&["convert", "--help"], b""));
    for option in ["--from-code", "--to-code", "//TRANSLIT", "-c"] {
        assert!(
            convert.contains(option),
            "{option} missing from convert --help"
        );
    }
}

#[cfg(unix)]
#[test]
fn in_place_converts_each_file_into_itself() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    fs::write(&a, b"caf\xe9\n").unwrap();
    fs::write(&b, b"\x80 na\xefve\n").unwrap();
    fs::set_permissions(&a, fs::Permissions::from_mode(0o640)).unwrap();
    let (pa, pb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = run(&["decode", "-e", "windows-1252", "--in-place", pa, pb], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_to_string(&a).unwrap(), "café\n");
    assert_eq!(fs::read_to_string(&b).unwrap(), "€ naïve\n");
    assert_eq!(
        fs::metadata(&a).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert_eq!(entries(dir.path()), ["a.txt", "b.txt"]);
    // A failure stops at that file, which is left as it was (the ones before are done).
    fs::write(&a, "ok 한\n").unwrap();
    fs::write(&b, "bad ☃\n").unwrap();
    let out = run(&["encode", "-e", "euc-kr", "-i", pa, pb], b"");
    assert_eq!(code(&out), 1);
    assert_eq!(fs::read(&a).unwrap(), lib_encode(enc("euc-kr"), "ok 한\n"));
    assert_eq!(fs::read_to_string(&b).unwrap(), "bad ☃\n");
    assert_eq!(entries(dir.path()), ["a.txt", "b.txt"]);
    // Standard input and -o are refused.
    for args in [
        &["decode", "-e", "latin1", "-i"][..],
        &["decode", "-e", "latin1", "-i", "-"],
    ] {
        let out = run(args, b"x");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains("standard input"), "{}", stderr(&out));
    }
    let out = run(&["decode", "-e", "latin1", "-i", "-o", pa, pb], b"");
    assert_eq!(code(&out), 2);
}

#[cfg(unix)]
#[test]
fn recursive_with_include() {
    let dir = tempdir();
    let root = dir.path().join("tree");
    fs::create_dir_all(root.join("sub/deeper")).unwrap();
    for (name, bytes) in [
        ("b.txt", &b"b \xe9\n"[..]),
        ("a.txt", b"a \xe9\n"),
        ("page.html", b"<p>\xe9</p>\n"),
        ("notes.md", b"md \xe9\n"),
        ("sub/c.txt", b"c \xe9\n"),
        ("sub/deeper/d.html", b"d \xe9\n"),
    ] {
        fs::write(root.join(name), bytes).unwrap();
    }
    // A link to the tree's own root is not followed.
    std::os::unix::fs::symlink(&root, root.join("sub/loop")).unwrap();
    let r = root.to_str().unwrap();
    // To standard output: the matching files in name order, depth first.
    let out = run(
        &[
            "decode",
            "-e",
            "windows-1252",
            "-r",
            "--include",
            "*.txt",
            "--include",
            "*.html",
            r,
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "a é\nb é\n<p>é</p>\nc é\nd é\n");
    // In place.
    let out = run(
        &[
            "decode",
            "-e",
            "windows-1252",
            "-r",
            "-i",
            "--include",
            "*.txt",
            r,
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_to_string(root.join("sub/c.txt")).unwrap(), "c é\n");
    assert_eq!(fs::read(root.join("notes.md")).unwrap(), b"md \xe9\n");
    assert_eq!(fs::read(root.join("page.html")).unwrap(), b"<p>\xe9</p>\n");
    // Without -r a directory is refused; --include needs -r.
    let out = run(&["decode", "-e", "windows-1252", r], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("-r"), "{}", stderr(&out));
    let out = run(
        &["decode", "-e", "windows-1252", "--include", "*.txt", r],
        b"",
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell], b"");
        assert_eq!(code(&out), 0, "{shell}");
        let script = stdout(&out);
        for word in ["convert", "decode", "unmappable", "translit", "from-code"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    assert_eq!(code(&run(&["completions", "tcsh"], b"")), 2);
}

#[test]
fn man_page_renders() {
    let out = run(&["man"], b"");
    assert_eq!(code(&out), 0);
    let roff = stdout(&out);
    assert!(roff.contains(".TH textcodec 1"), "{roff}");
    for word in ["convert", "decode", "encode", "completions"] {
        assert!(roff.contains(word), "{word}");
    }
    // Rendered by groff (the man page formatter), as `man` would show it.
    let mut child = std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-Wall", "-z"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("groff (package groff-base) renders man pages");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(roff.as_bytes())
        .unwrap();
    let rendered = child.wait_with_output().unwrap();
    assert!(rendered.status.success());
    assert!(
        rendered.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    // A page per command, each rendered without a warning.
    for command in [
        "convert",
        "decode",
        "encode",
        "list",
        "label",
        "completions",
    ] {
        let out = run(&["man", command], b"");
        assert_eq!(code(&out), 0, "{command}");
        let roff = stdout(&out);
        assert!(
            roff.contains(&format!(".TH textcodec-{command} 1")),
            "{roff}"
        );
        let mut child = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-Wall", "-z"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(roff.as_bytes())
            .unwrap();
        let rendered = child.wait_with_output().unwrap();
        assert!(
            rendered.status.success() && rendered.stderr.is_empty(),
            "{command}"
        );
    }
    assert!(stdout(&run(&["man", "encode"], b"")).contains("translit"));
    assert!(!stdout(&run(&["man", "decode"], b"")).contains("unmappable"));
    assert_eq!(code(&run(&["man", "frobnicate"], b"")), 2);
    let text = std::process::Command::new("sh")
        .arg("-c")
        .arg("\"$0\" man | groff -man -Tutf8 -P-c | col -b")
        .arg(env!("CARGO_BIN_EXE_textcodec"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("NAME"), "{text}");
    assert!(
        text.contains("textcodec-convert(1)") || text.contains("convert"),
        "{text}"
    );
}
