//! The `detect` target: `textcodec::detect::Detector` on arbitrary bytes.
//!
//! Input layout: `[flags, seed, bytes...]`: `flags % 8` picks the top-level domain, bit 3
//! whether UTF-8 is allowed; the seed drives the chunk splits. Asserts:
//! - no panic;
//! - linear time: the detector's count of candidate updates is at most `WORK_PER_BYTE` per
//!   byte fed (a count, not the clock);
//! - any split of the input into chunks gives the same candidates and guess;
//! - the candidates are non-empty, best first (the guess first), scores in 0..=1;
//! - every candidate decodes the input without error (a candidate is "still possible");
//! - valid UTF-8 with non-ASCII is UTF-8 when allowed, and UTF-8 is never the answer when not;
//! - ASCII-only input without escape bytes is UTF-8 when allowed, else the domain's fallback.

use textcodec::detect::Detector;

use crate::Rng;

/// Candidate updates per byte: every single-byte candidate twice (the pair before and after
/// a non-ASCII byte), the CJK and UTF-8 trackers, pruning; far below this.
const WORK_PER_BYTE: u64 = 256;

const TLDS: [Option<&[u8]>; 8] = [
    None,
    Some(b"com"),
    Some(b"jp"),
    Some(b"ru"),
    Some(b"cz"),
    Some(b"TW"),
    Some(b"xn--p1ai"),
    Some(b"a.very.long.label"),
];

/// Whether `encoding` decodes `input` without error (no BOM sniffing: the detector reads
/// the bytes as the encoding itself).
fn decodes_cleanly(input: &[u8], encoding: &'static textcodec::Encoding) -> bool {
    let options = textcodec::DecoderOptions {
        error_mode: textcodec::DecoderErrorMode::Fatal,
        bom: textcodec::BomHandling::Keep,
    };
    let mut out = String::new();
    encoding
        .new_decoder(options)
        .decode_to_string(input, &mut out, true)
        .is_ok()
}

pub fn detect(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (flags, seed, input) = (data[0], data[1], &data[2..]);
    let tld = TLDS[(flags % 8) as usize];
    let allow_utf8 = flags & 8 != 0;

    let mut whole = Detector::new();
    whole.feed(input, true);
    assert!(
        whole.work() <= WORK_PER_BYTE * (input.len() as u64 + 1),
        "work {} for {} bytes",
        whole.work(),
        input.len()
    );
    let candidates = whole.candidates(tld, allow_utf8);
    let guess = whole.guess(tld, allow_utf8);
    assert!(!candidates.is_empty());
    assert_eq!(candidates[0].0, guess, "the guess comes first");
    for w in candidates.windows(2) {
        assert!(w[0].1 >= w[1].1, "best first: {candidates:?}");
    }
    for &(e, s) in &candidates {
        assert!((0.0..=1.0).contains(&s), "score {s}");
        assert!(
            decodes_cleanly(input, e) || candidates.len() == 1,
            "{e:?} cannot decode the input"
        );
    }
    let non_ascii = !input.is_ascii();
    if allow_utf8 && non_ascii && std::str::from_utf8(input).is_ok() {
        assert_eq!(guess, textcodec::UTF_8);
    }
    if !allow_utf8 {
        assert!(candidates.iter().all(|&(e, _)| e != textcodec::UTF_8));
    }
    if !non_ascii && !input.contains(&0x1B) {
        let mut none = Detector::new();
        none.feed(&[], true);
        assert_eq!(guess, none.guess(tld, allow_utf8));
        if allow_utf8 {
            assert_eq!(guess, textcodec::UTF_8);
        }
    }

    // The same input in random chunks.
    let mut rng = Rng::new(u64::from(seed) | (input.len() as u64) << 8);
    let mut d = Detector::new();
    let mut at = 0;
    while at < input.len() {
        let n = match rng.below(4) {
            0 => 0,
            1 => 1,
            _ => rng.below(40),
        };
        let end = (at + n).min(input.len());
        d.feed(&input[at..end], false);
        at = end;
    }
    d.feed(&[], true);
    assert_eq!(d.candidates(tld, allow_utf8), candidates, "split input");
    assert_eq!(d.guess(tld, allow_utf8), guess);
}
