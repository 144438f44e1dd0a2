//! Whole-buffer scans built on the kernels: the length of an ASCII or valid UTF-8 prefix, and
//! `str` views of bytes checked by the dispatched UTF-8 validator.
//!
//! The hooks ("decode", "UTF-8 decode", "encode") and `Decoder::decode_to_string` use these
//! in place of `core::str::from_utf8`, whose byte-at-a-time validation of non-ASCII text cost
//! more than the decoding itself (BENCHMARKS.md, "Measurements behind the code").

/// The ASCII kernels copy as they check; the scan hands them a small scratch buffer that
/// stays in L1, so it costs the check and a cache-resident store.
const SCRATCH: usize = 4096;

/// The length of the longest prefix of `src` that is ASCII.
pub(crate) fn ascii_len(src: &[u8]) -> usize {
    let mut scratch = [0u8; SCRATCH];
    let mut done = 0;
    while done < src.len() {
        let chunk = &src[done..src.len().min(done + SCRATCH)];
        let n = super::copy_ascii_to_ascii(chunk, &mut scratch);
        done += n;
        if n < chunk.len() {
            break;
        }
    }
    done
}

/// `src` as a `str`, if it is all ASCII (one pass: the ASCII scan is the UTF-8 check).
pub(crate) fn ascii_str(src: &[u8]) -> Option<&str> {
    if ascii_len(src) != src.len() {
        return None;
    }
    debug_assert!(src.is_ascii());
    // SAFETY: every byte of `src` is below 0x80, and ASCII is valid UTF-8.
    Some(unsafe { core::str::from_utf8_unchecked(src) })
}

/// `src` split into its longest valid UTF-8 prefix, as a `str`, and the rest.
pub(crate) fn valid_prefix(src: &[u8]) -> (&str, &[u8]) {
    let (good, rest) = src.split_at(super::valid_utf8_prefix(src));
    debug_assert!(core::str::from_utf8(good).is_ok());
    // SAFETY: `valid_utf8_prefix` found all of `good` to be valid UTF-8 (the dispatched
    // validator is checked against `core::str::from_utf8` at every level by the tests).
    (unsafe { core::str::from_utf8_unchecked(good) }, rest)
}

/// `src` as a `str`, if it is valid UTF-8.
pub(crate) fn str_from_utf8(src: &[u8]) -> Option<&str> {
    match valid_prefix(src) {
        (s, []) => Some(s),
        _ => None,
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::simd::{detected_level, set_level, Level};

    fn levels() -> std::vec::Vec<Level> {
        let mut v = std::vec![Level::Scalar];
        let best = detected_level();
        if best > Level::Scalar {
            v.push(best);
        }
        v
    }

    /// Inputs around the scratch size, with errors and characters at and across its edges.
    fn cases() -> std::vec::Vec<std::vec::Vec<u8>> {
        let mut out = std::vec::Vec::new();
        let pieces: [&[u8]; 8] = [
            b"a",
            "é".as_bytes(),
            "火".as_bytes(),
            "😀".as_bytes(),
            b"\xFF",
            b"\xE2\x82",
            b"\xED\xA0\x80",
            b"\xC0\xAF",
        ];
        for len in [
            0usize, 1, 15, 63, 64, 4093, 4094, 4095, 4096, 4097, 8191, 9000,
        ] {
            for (k, piece) in pieces.iter().enumerate() {
                for at in [0, len / 2, len.saturating_sub(1), len] {
                    let mut v = std::vec![b'x'; len];
                    let at = at.min(v.len());
                    v.splice(at..at, piece.iter().copied());
                    if k % 2 == 1 {
                        // Some non-ASCII filler too.
                        v.extend_from_slice("ж".repeat(len % 7).as_bytes());
                    }
                    out.push(v);
                }
            }
        }
        out
    }

    #[test]
    fn scans_agree_with_std_at_every_level() {
        let before = crate::simd::level();
        for level in levels() {
            set_level(level);
            for case in cases() {
                let want = match core::str::from_utf8(&case) {
                    Ok(_) => case.len(),
                    Err(e) => e.valid_up_to(),
                };
                assert_eq!(
                    crate::simd::valid_utf8_prefix(&case),
                    want,
                    "{level:?} {case:?}"
                );
                assert_eq!(str_from_utf8(&case).is_some(), want == case.len());
                let (good, rest) = valid_prefix(&case);
                assert_eq!((good.as_bytes(), rest), case.split_at(want));
                let ascii = case.iter().position(|&b| b >= 0x80).unwrap_or(case.len());
                assert_eq!(ascii_len(&case), ascii, "{level:?}");
                assert_eq!(ascii_str(&case).is_some(), ascii == case.len());
            }
        }
        set_level(before);
    }
}
