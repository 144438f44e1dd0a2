//! Whole-buffer scans built on the kernels: the length of an ASCII or valid UTF-8 prefix, and
//! `str` views of bytes checked by the dispatched UTF-8 validator.
//!
//! The hooks ("decode", "UTF-8 decode", "encode") and `Decoder::decode_to_string` use these
//! in place of `core::str::from_utf8`, whose byte-at-a-time validation of non-ASCII text cost
//! more than the decoding itself (callgrind, ru.txt windows-1251 through `decode`: 4.9M
//! instructions in `from_utf8` against 1.8M in the decoder).

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

/// `src` split into its longest ASCII prefix, as a `str`, and the rest.
pub(crate) fn ascii_prefix(src: &[u8]) -> (&str, &[u8]) {
    let (head, tail) = src.split_at(ascii_len(src));
    debug_assert!(head.is_ascii());
    // SAFETY: every byte of `head` is below 0x80 (`ascii_len`, checked against the standard
    // library at every level by the tests), and ASCII is valid UTF-8.
    (unsafe { core::str::from_utf8_unchecked(head) }, tail)
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

/// Writes `src` into `dst` at byte `at` (a character boundary of `dst`) and zeroes the bytes
/// after it that continued a character `src` overwrote the start of (at most three), so that
/// `dst` stays UTF-8; every other byte of `dst` is left as it was.
///
/// # Panics
///
/// If `at` is not a character boundary of `dst` or `src` does not fit after it.
pub(crate) fn write_str_at(dst: &mut str, at: usize, src: &str) {
    assert!(dst.is_char_boundary(at), "not a character boundary");
    let end = at
        .checked_add(src.len())
        .filter(|&end| end <= dst.len())
        .expect("no room");
    // SAFETY: the bytes are UTF-8 again before this block ends, and nothing in it can panic
    // (the ranges are in bounds, checked above): `dst[..at]` is unchanged and ends at a
    // character boundary; `src` is UTF-8; the bytes after `end` that continue a character
    // (those whose top bits are 10) are overwritten with NUL, after which what follows is
    // the rest of `dst` from the start of one of its characters on, unchanged.
    unsafe {
        let bytes = dst.as_bytes_mut();
        bytes[at..end].copy_from_slice(src.as_bytes());
        for b in bytes[end..].iter_mut().take(3) {
            if *b & 0xC0 != 0x80 {
                break;
            }
            *b = 0;
        }
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
    fn write_str_at_keeps_the_rest_of_the_str() {
        let mut buf = std::string::String::from("aé火😀z");
        let text = buf.as_mut_str();
        write_str_at(text, 0, "xy"); // over "a" and the first byte of "é"
        assert_eq!(text, "xy\0火😀z");
        write_str_at(text, 3, "q"); // over the first byte of "火"
        assert_eq!(text, "xy\0q\0\0😀z");
        write_str_at(text, 6, "ab"); // over the first two bytes of "😀"
        assert_eq!(text, "xy\0q\0\0ab\0\0z");
        write_str_at(text, 10, "w"); // the last byte, nothing after it
        assert_eq!(text, "xy\0q\0\0ab\0\0w");
        write_str_at(text, 11, ""); // at the end: nothing written, nothing changed
        assert_eq!(text, "xy\0q\0\0ab\0\0w");
    }

    #[test]
    #[should_panic(expected = "not a character boundary")]
    fn write_str_at_refuses_the_middle_of_a_character() {
        let mut buf = std::string::String::from("é");
        write_str_at(buf.as_mut_str(), 1, "a");
    }

    #[test]
    #[should_panic(expected = "no room")]
    fn write_str_at_refuses_what_does_not_fit() {
        let mut buf = std::string::String::from("ab");
        write_str_at(buf.as_mut_str(), 1, "cd");
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
                let (head, tail) = ascii_prefix(&case);
                assert_eq!((head.as_bytes(), tail), case.split_at(ascii));
            }
        }
        set_level(before);
    }
}
