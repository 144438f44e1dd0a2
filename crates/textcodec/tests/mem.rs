//! `textcodec::mem` against encoding_rs's `mem` (a dev-dependency, the oracle), on every 1- and
//! 2-byte input (every single UTF-16 unit and every pair of units from the classes that matter),
//! on the corpus, and on random inputs of every density around the kernels' block sizes, at
//! every SIMD dispatch level; the buffers past what each function reports as written are
//! checked untouched.
//!
//! Where encoding_rs promises nothing (`encode_latin1_lossy` and `convert_utf8_to_latin1_lossy`
//! on characters above U+00FF or on malformed UTF-8, where its debug builds panic), textcodec
//! defines the output: `?` for each such character and each malformed sequence. That is a
//! deliberate difference, tested here against its own reference.

use std::borrow::Cow;

use encoding_rs::mem as er;
use textcodec::dispatch::{level, set_level, Level};
use textcodec::mem;

mod support;
use support::Rng;

/// The corpus: UTF-8 text in many scripts, HTML and a binary file.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(support::corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("txt" | "html" | "jpg")
            )
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The levels of this CPU, lowest first (printed, with those skipped).
fn levels() -> Vec<Level> {
    support::dispatch_levels()
}

/// Bytes of random Latin-1 with high bytes in one of `density` out of 16 positions, in runs.
fn latin1_bytes(rng: &mut Rng, len: usize, density: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let b = rng.byte();
            if rng.below(16) < density {
                b | 0x80
            } else {
                b & 0x7F
            }
        })
        .collect()
}

/// Every check of the functions against encoding_rs on `bytes` (any bytes) and on the text
/// they stand for as Latin-1.
fn check_bytes(bytes: &[u8], what: &str) {
    assert_eq!(mem::is_ascii(bytes), er::is_ascii(bytes), "is_ascii {what}");
    assert_eq!(
        mem::is_utf8_latin1(bytes),
        er::is_utf8_latin1(bytes),
        "is_utf8_latin1 {what}"
    );
    let ours = mem::decode_latin1(bytes);
    let theirs = er::decode_latin1(bytes);
    assert_eq!(ours, theirs, "decode_latin1 {what}");
    assert_eq!(
        matches!(ours, Cow::Borrowed(_)),
        bytes.is_ascii(),
        "decode_latin1 borrows ASCII {what}"
    );
    // Into a buffer with a sentinel past the end of what is written.
    let mut dst = vec![0xA5u8; 2 * bytes.len() + 9];
    let n = mem::convert_latin1_to_utf8(bytes, &mut dst);
    let mut want = vec![0u8; 2 * bytes.len()];
    let m = er::convert_latin1_to_utf8(bytes, &mut want);
    assert_eq!(dst[..n], want[..m], "convert_latin1_to_utf8 {what}");
    assert!(
        dst[n..].iter().all(|&b| b == 0xA5),
        "written past {n}: {what}"
    );
    // Back: the text is all Latin-1, where encoding_rs defines the output.
    let text = &*ours;
    let back = mem::encode_latin1_lossy(text);
    assert_eq!(
        back,
        er::encode_latin1_lossy(text),
        "encode_latin1_lossy {what}"
    );
    assert_eq!(&*back, bytes, "round trip {what}");
    let mut dst = vec![0x5Au8; text.len() + 7];
    let n = mem::convert_utf8_to_latin1_lossy(text.as_bytes(), &mut dst);
    let mut want = vec![0u8; text.len()];
    let m = er::convert_utf8_to_latin1_lossy(text.as_bytes(), &mut want);
    assert_eq!(dst[..n], want[..m], "convert_utf8_to_latin1_lossy {what}");
    assert!(
        dst[n..].iter().all(|&b| b == 0x5A),
        "written past {n}: {what}"
    );
}

fn check_units(units: &[u16], what: &str) {
    assert_eq!(
        mem::utf16_valid_up_to(units),
        er::utf16_valid_up_to(units),
        "utf16_valid_up_to {what} {units:04X?}"
    );
}

/// The UTF-16 units whose class matters: ASCII, other BMP, each end of each surrogate half.
const UNIT_CLASSES: [u16; 12] = [
    0x0000, 0x0061, 0x00E9, 0x07FF, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF, 0xFFFF,
];

fn every_short_input() {
    check_bytes(&[], "empty");
    for a in 0..=255u8 {
        check_bytes(&[a], "1 byte");
        for b in 0..=255u8 {
            check_bytes(&[a, b], "2 bytes");
        }
    }
    check_units(&[], "empty");
    for u in 0..=0xFFFFu16 {
        check_units(&[u], "1 unit");
        for &v in &UNIT_CLASSES {
            check_units(&[u, v], "2 units");
            check_units(&[v, u], "2 units");
        }
    }
    for &a in &UNIT_CLASSES {
        for &b in &UNIT_CLASSES {
            for &c in &UNIT_CLASSES {
                check_units(&[a, b, c], "3 units");
            }
        }
    }
}

/// ASCII of every length up to 100 (around the sixteen-byte blocks and the 32-byte margin
/// that the conversions keep before the end) with bytes above 0x7F at every position, alone,
/// in pairs and in runs.
fn every_position_near_the_blocks() {
    for len in 0..=100 {
        let ascii = vec![b'a'; len];
        check_bytes(&ascii, "ascii");
        check_bytes(&vec![0xE9; len], "all high");
        for p in 0..len {
            for b in [0x80, 0x9F, 0xC3, 0xE9, 0xFF] {
                let mut one = ascii.clone();
                one[p] = b;
                check_bytes(&one, "one high byte");
                let mut run = one.clone();
                for x in &mut run[p..len.min(p + 5)] {
                    *x = b;
                }
                check_bytes(&run, "a run of high bytes");
            }
            // Two-byte UTF-8 (é) and three-byte UTF-8 (☃) at each position.
            let mut text = ascii.clone();
            text.splice(p..p + 1, "é".bytes());
            check_bytes(&text, "é");
            let mut text = ascii.clone();
            text.splice(p..p + 1, "☃".bytes());
            check_bytes(&text, "☃");
        }
    }
}

fn corpus_inputs() {
    for (name, bytes) in corpus() {
        // The file's bytes as Latin-1 (every byte is a character), whole and in windows.
        check_bytes(&bytes, &name);
        for start in [1, 2, 3, 31, 33, 1000] {
            let end = bytes.len().min(start + 5000);
            check_bytes(&bytes[start.min(end)..end], &name);
        }
        // The file as UTF-8 text (where encoding_rs defines the Latin-1 output only for text
        // up to U+00FF: the checks of `is_utf8_latin1`, which is what says so).
        assert_eq!(
            mem::is_utf8_latin1(&bytes),
            er::is_utf8_latin1(&bytes),
            "{name}"
        );
        let text = String::from_utf8_lossy(&bytes);
        // Latin-1 text, as Latin text in Latin-1 is: the characters up to U+00FF without the
        // C1 controls (the windows-1252 decoder's path), then with C1 bytes here and there.
        let mut latin1: Vec<u8> = text
            .chars()
            .filter(|&c| c < '\u{100}' && !('\u{80}'..'\u{A0}').contains(&c))
            .map(|c| c as u8)
            .collect();
        check_bytes(&latin1, &name);
        for k in (5..latin1.len()).step_by(2999) {
            latin1[k] = 0x80 + (k % 32) as u8;
            check_bytes(
                &latin1[k.saturating_sub(2500)..latin1.len().min(k + 2500)],
                &name,
            );
        }
        check_bytes(&latin1, &name);
        let units: Vec<u16> = text.encode_utf16().collect();
        check_units(&units, &name);
        // And with lone surrogates put in along the way.
        let mut damaged = units.clone();
        for k in (7..damaged.len()).step_by(997) {
            damaged[k] = [0xD800, 0xDFFF, 0xDBFF, 0xDC00][k % 4];
            check_units(&damaged, &name);
            check_units(&damaged[k.saturating_sub(40)..], &name);
        }
    }
}

/// Random inputs of every density of non-ASCII, every length around the 16- and 32-byte
/// blocks, at odd offsets.
fn random_inputs() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for round in 0..4000 {
        let len = match round % 4 {
            0 => rng.below(40),
            1 => 32 + rng.below(100),
            2 => 60 + rng.below(16),
            _ => rng.below(600),
        };
        let density = round % 17;
        let bytes = latin1_bytes(&mut rng, len + 3, density);
        let start = rng.below(4);
        check_bytes(&bytes[start..start + len], "random");
        // UTF-8 around the edges: is_utf8_latin1 on valid, cut and damaged text.
        let mut utf8 = mem::decode_latin1(&bytes).into_owned().into_bytes();
        if round % 3 == 0 && !utf8.is_empty() {
            let at = rng.below(utf8.len());
            utf8[at] = [0xC4, 0xE2, 0x80, 0xC0, 0xFF, 0xC3][rng.below(6)];
        }
        for cut in [0, 1, 2, utf8.len() / 2] {
            let s = &utf8[..utf8.len() - cut.min(utf8.len())];
            assert_eq!(
                mem::is_utf8_latin1(s),
                er::is_utf8_latin1(s),
                "is_utf8_latin1 {s:02X?}"
            );
        }
        let units: Vec<u16> = (0..len)
            .map(|_| match rng.below(40) {
                0 => UNIT_CLASSES[rng.below(UNIT_CLASSES.len())],
                1 => 0xD800 + rng.below(0x800) as u16,
                _ => rng.next_u64() as u16 & 0x7FFF,
            })
            .collect();
        check_units(&units, "random");
    }
    // Around the 16384-byte chunks of `is_utf8_latin1` (and at 4096, where they were): a
    // two-byte character across the edge.
    for at in (4090..4100).chain(16378..16388) {
        let mut s = vec![b'a'; 33000];
        s[at] = 0xC3;
        s[at + 1] = 0xA9;
        assert!(mem::is_utf8_latin1(&s), "{at}");
        s[at + 1] = b'a';
        assert!(!mem::is_utf8_latin1(&s), "{at}");
        assert!(!er::is_utf8_latin1(&s), "{at}");
    }
}

/// Every function against encoding_rs, and the lossy conversions against their definition,
/// at every level of this CPU (the only test that changes the level, which is global).
#[test]
fn mem_functions_match_encoding_rs_at_every_level() {
    let before = level();
    let lossy = lossy_inputs();
    for l in levels() {
        set_level(l);
        every_short_input();
        every_position_near_the_blocks();
        corpus_inputs();
        random_inputs();
        check_lossy(&lossy, &format!("{l:?}"));
    }
    set_level(before);
}

/// What textcodec's lossy conversions write for characters above U+00FF and for malformed
/// UTF-8: `?` for each (a malformed sequence as "UTF-8 decode" delimits it), where encoding_rs
/// promises nothing (and its debug builds panic).
fn lossy_reference(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| u8::try_from(c as u32).unwrap_or(b'?'))
        .collect()
}

/// Text in many scripts, malformed UTF-8 and U+FFFD itself (above U+00FF too: `?` as well).
fn lossy_inputs() -> Vec<Vec<u8>> {
    let samples: [&[u8]; 8] = [
        "Œuvre, ☃ and 😀 in Grüße".as_bytes(),
        b"a\xE2\x82b\xFF\xC3\xA9\xC3",
        b"\xF0\x9F\x98",
        "\u{FFFD}\u{100}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}".as_bytes(),
        b"\xC0\xAF\xED\xA0\x80\xF4\x90\x80\x80",
        b"",
        b"\xC3",
        "ÿ\u{100}".as_bytes(),
    ];
    let mut rng = Rng::new(7);
    let mut inputs: Vec<Vec<u8>> = samples.iter().map(|s| s.to_vec()).collect();
    for (_, bytes) in corpus() {
        inputs.push(bytes[..bytes.len().min(20_000)].to_vec());
    }
    for _ in 0..3000 {
        let len = rng.below(200);
        inputs.push(
            (0..len)
                .map(|_| match rng.below(8) {
                    0 => 0xC3,
                    1 => 0x80 + rng.below(64) as u8,
                    2 => rng.byte(),
                    3 => 0xE2,
                    _ => b'a' + rng.below(26) as u8,
                })
                .collect(),
        );
    }
    inputs
}

fn check_lossy(inputs: &[Vec<u8>], what: &str) {
    for input in inputs {
        let want = lossy_reference(input);
        let mut dst = vec![0xEEu8; input.len() + 5];
        let n = mem::convert_utf8_to_latin1_lossy(input, &mut dst);
        assert_eq!(dst[..n], want[..], "{what} {input:02X?}");
        assert!(dst[n..].iter().all(|&b| b == 0xEE), "{what} written past");
        if let Ok(text) = std::str::from_utf8(input) {
            assert_eq!(*mem::encode_latin1_lossy(text), want[..], "{what} {text:?}");
        }
    }
}

#[test]
fn lossy_conversions_replace_what_latin1_lacks_with_a_question_mark() {
    check_lossy(&lossy_inputs(), "default level");
    assert_eq!(&*mem::encode_latin1_lossy("Œuvre ☃"), b"?uvre ?");
    // encoding_rs differs here (its release builds write bytes made of the UTF-8 lead and
    // trail bytes: "Ł" is 0x41, an ASCII letter); its debug builds panic.
    if !cfg!(debug_assertions) {
        assert_eq!(&*mem::encode_latin1_lossy("Ł"), b"?");
        assert_eq!(&*er::encode_latin1_lossy("Ł"), b"A");
    }
}

#[test]
#[should_panic(expected = "twice as long")]
fn convert_latin1_to_utf8_wants_twice_the_room() {
    mem::convert_latin1_to_utf8(b"abc", &mut [0u8; 5]);
}

#[test]
#[should_panic(expected = "at least as long")]
fn convert_utf8_to_latin1_lossy_wants_as_much_room() {
    mem::convert_utf8_to_latin1_lossy(b"abc", &mut [0u8; 2]);
}

#[test]
fn examples_of_each() {
    assert!(mem::is_ascii(b""));
    assert!(mem::is_utf8_latin1(b""));
    assert_eq!(mem::decode_latin1(b"\x00\x7F\x80\xFF"), "\0\u{7F}\u{80}ÿ");
    assert_eq!(mem::utf16_valid_up_to(&[0xDBFF, 0xDFFF, 0xDBFF]), 2);
    assert!(matches!(
        mem::encode_latin1_lossy("plain"),
        Cow::Borrowed(b"plain")
    ));
}
