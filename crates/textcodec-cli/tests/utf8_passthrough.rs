//! UTF-8 input to UTF-8 output takes its own path (256 KiB reads validated in place, the valid
//! part written from the input buffer, only what follows a malformed sequence through the
//! decoder). It must give exactly what the general pipeline gives: the same conversion to
//! UTF-16LE (64 KiB reads, every byte through the decoder) is the reference here, its output
//! read back as UTF-8, its warnings and error messages byte for byte, its exit code; for
//! inputs from a file and from a pipe (written in small pieces, so that reads end inside
//! characters and inside a BOM), with characters, malformed sequences and U+FFFDs of the
//! input's own across every read's edge, BOMs and BOM prefixes that do not complete, and
//! every `--invalid` and `--bom` mode.

mod common;

use std::io::Write;
use std::process::Output;
use std::thread;
use std::time::Duration;

use common::*;

/// The UTF-8 path's read size.
const BLOCK: usize = 256 * 1024;
/// The general pipeline's read size.
const CHUNK: usize = 64 * 1024;

/// Runs `textcodec ARGS` with `input` written to its standard input in pieces of `pieces`
/// bytes (cycled), with a pause after each of the first few, so that its reads end there.
fn run_in_pieces(args: &[&str], input: &[u8], pieces: &[usize]) -> Output {
    let mut child = spawn_piped(args);
    let mut pipe = child.stdin.take().unwrap();
    let input = input.to_vec();
    let pieces = pieces.to_vec();
    let writer = thread::spawn(move || {
        let mut rest = &input[..];
        for (i, &len) in pieces.iter().cycle().enumerate() {
            if rest.is_empty() {
                break;
            }
            let (piece, after) = rest.split_at(len.min(rest.len()));
            if pipe.write_all(piece).is_err() {
                return;
            }
            if i < 12 {
                thread::sleep(Duration::from_millis(2));
            }
            rest = after;
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// UTF-16LE bytes as UTF-8 bytes (the decoder's output has no lone surrogates).
fn utf16le_to_utf8(bytes: &[u8]) -> Vec<u8> {
    assert_eq!(bytes.len() % 2, 0);
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    String::from_utf16(&units).unwrap().into_bytes()
}

/// `textcodec convert -f utf-8 -t utf-8 OPTS` on `input` (as a file and through a pipe)
/// against `-t utf-16le`: same exit code, same standard error, same text. Returns the UTF-8
/// run's output (from the file).
fn same_as_general(opts: &[&str], input: &[u8]) -> Output {
    let dir = tempdir();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, input).unwrap();
    let path = path.to_str().unwrap();
    let with = |to: &str, tail: &[&str]| -> Vec<String> {
        let mut args = vec!["convert", "-f", "utf-8", "-t", to];
        args.extend_from_slice(opts);
        args.extend_from_slice(tail);
        args.iter().map(|s| s.to_string()).collect()
    };
    let mut file_out = None;
    for source in ["file", "pipe"] {
        let tail: Vec<&str> = if source == "file" { vec![path] } else { vec![] };
        let (a, b) = (with("utf-8", &tail), with("utf-16le", &tail));
        let (fast, general) = if source == "file" {
            (
                bin().args(strs(&a)).output().unwrap(),
                bin().args(strs(&b)).output().unwrap(),
            )
        } else {
            (
                run_in_pieces(&strs(&a), input, &[1, 2, 1, 3, 5, 4097, 65536]),
                run(&strs(&b), input),
            )
        };
        let what = format!("{opts:?} from a {source}, {} bytes", input.len());
        assert_eq!(code(&fast), code(&general), "{what}: {}", stderr(&fast));
        assert_eq!(stderr(&fast), stderr(&general), "{what}");
        assert!(
            fast.stdout == utf16le_to_utf8(&general.stdout),
            "{what}: the output differs ({} and {} bytes)",
            fast.stdout.len(),
            utf16le_to_utf8(&general.stdout).len()
        );
        // `decode -e utf-8` is the same conversion.
        if source == "file" {
            let mut args = vec!["decode", "-e", "utf-8"];
            args.extend_from_slice(opts);
            args.push(path);
            let decode = bin().args(&args).output().unwrap();
            assert_eq!(decode.stdout, fast.stdout, "{what}: decode");
            assert_eq!(stderr(&decode), stderr(&fast), "{what}: decode");
            file_out = Some(fast);
        }
    }
    file_out.unwrap()
}

/// Text of one-, two-, three- and four-byte characters, `len` bytes or a little more.
fn mixed_text(len: usize) -> Vec<u8> {
    let unit = "Mars é あ 😀 ねこ ü\n".as_bytes();
    let mut out = Vec::with_capacity(len + unit.len());
    while out.len() < len {
        out.extend_from_slice(unit);
    }
    out
}

const MODES: [&[&str]; 3] = [&[], &["--invalid", "fail"], &["--invalid", "skip"]];

#[test]
fn reads_that_end_inside_characters() {
    // Shifted by 0 to 3 bytes, the 256 KiB (and pipe) edges cut characters of every length
    // at every place.
    for shift in 0..4 {
        let mut input = b"abc"[..shift].to_vec();
        input.extend(mixed_text(3 * BLOCK + 100));
        let out = same_as_general(&[], &input);
        assert_eq!(out.stdout, input);
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
    }
    // The corpus's Japanese, three bytes a character, across several reads.
    let ja = corpus("ja").repeat(3 * BLOCK / corpus("ja").len() + 1);
    let out = same_as_general(&[], ja.as_bytes());
    assert_eq!(out.stdout, ja.as_bytes());
}

#[test]
fn malformed_sequences_and_u_fffd_at_the_edges_of_reads() {
    let bad: [&[u8]; 8] = [
        b"\x80",
        b"\xFF",
        b"\xC0\xAF",
        b"\xE3\x81",         // a three-byte character cut short
        b"\xF0\x9F\x98",     // a four-byte one cut short
        b"\xED\xA0\x80",     // a surrogate
        b"\xF4\x90\x80\x80", // beyond U+10FFFF
        b"\xEF\xBF\xBD",     // U+FFFD of the input's own: not an error
    ];
    let clean = mixed_text(3 * BLOCK);
    for (i, seq) in bad.iter().enumerate() {
        // Ending 0 to 4 bytes before the first 256 KiB edge, starting 0 to 4 bytes before the
        // second, and at a 64 KiB edge (the general pipeline's).
        for d in 0..5 {
            let starts = [CHUNK - 1, BLOCK - d - seq.len(), 2 * BLOCK - d];
            let input = insert_at(&clean, seq, &starts);
            for opts in MODES {
                let out = same_as_general(opts, &input);
                if i == bad.len() - 1 {
                    // Only U+FFFDs of the input's own: nothing to say, the input as it is.
                    assert!(out.stderr.is_empty(), "{opts:?}: {}", stderr(&out));
                    assert_eq!(out.stdout, input);
                } else {
                    assert!(!out.stderr.is_empty(), "{opts:?}");
                }
            }
        }
    }
}

/// `clean` (UTF-8) with `seq` inserted so that its copies start at `starts` (ascending, in
/// the result), between characters of `clean` (ASCII `x` fills up to each start).
fn insert_at(clean: &[u8], seq: &[u8], starts: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut from = 0;
    for &start in starts {
        let mut to = from + (start - out.len());
        while clean[to] & 0xC0 == 0x80 {
            to -= 1;
        }
        out.extend_from_slice(&clean[from..to]);
        out.resize(start, b'x');
        out.extend_from_slice(seq);
        from = to;
    }
    out.extend_from_slice(&clean[from..]);
    out
}

#[test]
fn a_malformed_sequence_in_the_last_bytes_of_the_input() {
    let mut input = mixed_text(BLOCK);
    input.truncate(BLOCK);
    for end in [&b"\xE3"[..], b"\xE3\x81", b"\xF0\x9F\x98", b"\x80"] {
        let mut with = input.clone();
        with.extend_from_slice(end);
        for opts in MODES {
            same_as_general(opts, &with);
        }
    }
}

#[test]
fn byte_order_marks() {
    let text = mixed_text(BLOCK + 7);
    let utf16: Vec<u8> = std::str::from_utf8(&text)
        .unwrap()
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let cases: Vec<Vec<u8>> = vec![
        [&b"\xEF\xBB\xBF"[..], &text].concat(), // a UTF-8 BOM, removed
        [&b"\xEF\xBB\xBF\xEF\xBB\xBF"[..], &text].concat(), // the second is text
        [&b"\xEF\xBBA"[..], &text].concat(),    // prefixes that do not complete
        [&b"\xEFA"[..], &text].concat(),
        [&b"\xEF\xBB"[..], &text].concat(), // ...before a multibyte character
        [&b"\xFF\xFF"[..], &text].concat(),
        [&b"\xFE"[..], &text].concat(),
        [&b"\xFF\xFE"[..], &utf16].concat(), // a UTF-16LE BOM: the input is UTF-16LE
        b"\xEF\xBB\xBF".to_vec(),
        b"\xEF\xBB".to_vec(),
        b"\xEF".to_vec(),
        b"\xFF".to_vec(),
        b"\xFF\xFE".to_vec(),
        b"\xE3\x81".to_vec(),
        b"A".to_vec(),
        Vec::new(),
    ];
    for input in &cases {
        for bom in ["sniff", "strip", "keep"] {
            for invalid in ["replace", "fail"] {
                same_as_general(&["--bom", bom, "--invalid", invalid], input);
            }
        }
    }
    let out = same_as_general(&[], &cases[0]);
    assert_eq!(out.stdout, text);
    let out = same_as_general(&["--bom", "keep"], &cases[0]);
    assert_eq!(out.stdout, cases[0]);
}

#[test]
fn fatal_mode_offsets_across_reads() {
    // The first error at each place around the 256 KiB edge: the offset and the bytes shown
    // are the general pipeline's (checked there) and the ones expected here.
    let clean = mixed_text(2 * BLOCK);
    for at in [BLOCK - 3, BLOCK - 2, BLOCK - 1, BLOCK, BLOCK + 1] {
        fails_at(&clean, at, b"\xE3\x81A", "E3 81");
    }
}

#[test]
fn several_inputs_each_its_own_stream() {
    // The second file begins with a BOM (removed) and ends inside a character.
    let dir = tempdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    let first = mixed_text(BLOCK + 1);
    std::fs::write(&a, &first).unwrap();
    std::fs::write(&b, b"\xEF\xBB\xBFxy\xE3\x81").unwrap();
    let out = bin()
        .args(["decode", "-e", "utf-8"])
        .args([&a, &b])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, [&first[..], "xy\u{FFFD}".as_bytes()].concat());
    assert_eq!(
        stderr(&out),
        format!(
            "textcodec: warning: {}: 1 malformed UTF-8 sequence replaced with U+FFFD, \
             the first at byte offset 5\n",
            b.display()
        )
    );
}

#[test]
fn unfinished_characters_one_after_another_across_an_edge() {
    // Each unfinished character is an error only when the next lead byte comes; runs of them,
    // and a dense run of errors, over the 256 KiB edge, alone and after an earlier error in
    // the same read.
    let clean = mixed_text(2 * BLOCK);
    let runs: [&[u8]; 4] = [
        &b"\xE3\x81".repeat(6),
        &b"\xF0\x9F\x98\xE3".repeat(5),
        &b"\xC3\xE3\x81\xF0".repeat(5),
        &b"\x80\xFF\xE3\x81\xC0".repeat(400),
    ];
    for run in runs {
        for d in [0, 1, 2, 7] {
            for starts in [
                vec![BLOCK - run.len() / 2 - d],
                vec![100, BLOCK - d - run.len()],
            ] {
                let input = insert_at(&clean, run, &starts);
                for opts in MODES {
                    same_as_general(opts, &input);
                }
            }
        }
    }
}

#[test]
fn progress_counts_every_byte_once() {
    // 3 MiB exactly, in 12 reads of 256 KiB that end inside characters (with `-f auto`, the
    // first MiB read for the detection, then the rest): the summary line shows 3.00 MiB.
    let dir = tempdir();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    let size = 3 * 1024 * 1024;
    let mut text = mixed_text(size);
    let mut end = size;
    while text[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    text.truncate(end);
    text.resize(size, b'x');
    std::fs::write(&input, &text).unwrap();
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    for args in [
        &["decode", "-e", "utf-8", i, "-o", o][..],
        &["convert", "-f", "auto", "-t", "utf-8", i, "-o", o],
    ] {
        let shown = on_a_terminal(args);
        let summary = shown
            .lines()
            .find(|l| l.contains("textcodec: ") && l.contains(" in ") && l.ends_with("/s)"));
        assert!(
            summary.is_some_and(|l| l.contains("textcodec: 3.00 MiB in ")),
            "{args:?}: {shown:?}"
        );
        assert_eq!(std::fs::read(&output).unwrap(), text);
    }
}

/// Bytes of a regular file read on one thread before the rest, when at least `PARALLEL_REST`
/// remain, is read and validated on several, each 256 KiB block at its offset, then
/// converted in the input's order.
const PARALLEL_AFTER: usize = 1024 * 1024;
const PARALLEL_REST: usize = 4 * 1024 * 1024;

#[test]
fn blocks_read_on_several_threads() {
    // Past the first MiB, with every edge between blocks (the first one the edge between
    // the two ways of reading) cutting characters of every length, malformed sequences, U+FFFD
    // of the input's own and runs of unfinished characters at and around those edges.
    let clean = mixed_text(PARALLEL_AFTER + PARALLEL_REST + BLOCK + 100);
    for shift in 0..4 {
        let input = [&b"abc"[..shift], &clean].concat();
        let out = same_as_general(&[], &input);
        assert_eq!(out.stdout, input);
    }
    let bad: [&[u8]; 6] = [
        b"\x80",
        b"\xE3\x81",
        b"\xF0\x9F\x98",
        b"\xEF\xBF\xBD",
        &b"\xE3\x81".repeat(5),
        &b"\x80\xFF\xE3\x81\xC0".repeat(300),
    ];
    for seq in bad {
        for d in [0, 1, 3] {
            let starts = [
                PARALLEL_AFTER - d - seq.len(),
                PARALLEL_AFTER + BLOCK - seq.len() / 2 - d,
                PARALLEL_AFTER + 3 * BLOCK + d,
            ];
            let input = insert_at(&clean, seq, &starts);
            for opts in MODES {
                same_as_general(opts, &input);
            }
        }
    }
}

#[test]
fn fatal_mode_offsets_on_several_threads() {
    let clean = mixed_text(PARALLEL_AFTER + PARALLEL_REST + 5);
    for block in [0, 1, 3] {
        let edge = PARALLEL_AFTER + block * BLOCK;
        for at in [edge - 2, edge, edge + 1, edge + BLOCK / 2] {
            fails_at(&clean, at, b"\xF0\x9F\x98A", "F0 9F 98");
        }
    }
}

#[test]
fn large_inputs_one_after_another_and_auto_detection() {
    // Several large files in one run (the threads' buffers kept from one to the next), the
    // second with an error in its parallel part; and `-f auto`, whose first MiB is read for
    // the detection before the threads read the rest.
    let dir = tempdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    let first = mixed_text(PARALLEL_AFTER + PARALLEL_REST + 5);
    let second = insert_at(
        &mixed_text(PARALLEL_AFTER + PARALLEL_REST),
        b"\xFF",
        &[PARALLEL_AFTER + BLOCK + 7],
    );
    std::fs::write(&a, &first).unwrap();
    std::fs::write(&b, &second).unwrap();
    let out = bin()
        .args(["decode", "-e", "utf-8"])
        .args([&a, &b, &a])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let fixed = String::from_utf8_lossy(&second).into_owned().into_bytes();
    assert_eq!(out.stdout, [&first[..], &fixed, &first].concat());
    assert_eq!(
        stderr(&out),
        format!(
            "textcodec: warning: {}: 1 malformed UTF-8 sequence replaced with U+FFFD, \
             the first at byte offset {}\n",
            b.display(),
            PARALLEL_AFTER + BLOCK + 7
        )
    );
    for input in [&a, &b] {
        let auto = bin()
            .args(["convert", "-f", "auto", "-t", "utf-8", "-q"])
            .arg(input)
            .output()
            .unwrap();
        assert_eq!(code(&auto), 0, "{}", stderr(&auto));
        let expected = if input == &a { &first } else { &fixed };
        assert!(auto.stdout == *expected, "{}", input.display());
    }
}

/// `inserted` put into `clean` at the start of the character at or before `at` (so that the
/// offset is the sequence's), converted with `--invalid fail`: the command stops there with
/// `reported` as the malformed bytes, having written exactly what came before.
fn fails_at(clean: &[u8], at: usize, inserted: &[u8], reported: &str) {
    let mut at = at;
    while clean[at] & 0xC0 == 0x80 {
        at -= 1;
    }
    let input = [&clean[..at], inserted, &clean[at..]].concat();
    let out = same_as_general(&["--invalid", "fail"], &input);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).ends_with(&format!(
            "malformed UTF-8 at byte offset {at}: {reported}\n"
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(out.stdout, &clean[..at]);
}
