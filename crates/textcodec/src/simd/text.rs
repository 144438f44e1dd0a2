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

/// A byte of output: `u8` in a caller's buffer, `MaybeUninit<u8>` in the spare capacity of a
/// `Vec` (written, never read).
pub(crate) trait OutByte: Copy {
    /// `b` as output.
    fn byte(b: u8) -> Self;
    /// `block` stored into `out` (in the way the compiler makes one copy of).
    fn store(out: &mut [Self; 32], block: &[u8; 32]);
}

impl OutByte for u8 {
    #[inline(always)]
    fn byte(b: u8) -> Self {
        b
    }
    #[inline(always)]
    fn store(out: &mut [Self; 32], block: &[u8; 32]) {
        out.copy_from_slice(block);
    }
}

impl OutByte for core::mem::MaybeUninit<u8> {
    #[inline(always)]
    fn byte(b: u8) -> Self {
        core::mem::MaybeUninit::new(b)
    }
    #[inline(always)]
    fn store(out: &mut [Self; 32], block: &[u8; 32]) {
        // SAFETY: `out` is 32 writable slots of `MaybeUninit<u8>`, which has the layout of
        // `u8`, and does not overlap `block` (a shared and an exclusive borrow): the 32 bytes
        // are copied into them (`<[MaybeUninit<u8>]>::write_copy_of_slice`, stable after this
        // crate's minimum Rust).
        unsafe {
            core::ptr::copy_nonoverlapping(block.as_ptr(), out.as_mut_ptr().cast::<u8>(), 32)
        };
    }
}

/// Latin-1 bytes `src` (each byte the code point of its value) to UTF-8 in `dst`, at least
/// twice as long; returns the bytes written (`mem::convert_latin1_to_utf8`), which are the
/// first of `dst`, one character after another.
///
/// Thirty-two bytes at a time, tested as two 128-bit words: each block is stored as it is
/// (ASCII is itself in UTF-8); in a block with a byte at or above 0x80, the bytes before the
/// first such byte are kept, that byte becomes its two bytes of UTF-8, and the next block
/// starts after it. Latin text has a letter above 0x7F every few dozen bytes, so each costs a
/// few instructions, with no call and no branch per byte.
///
/// Nothing is left written past the output: a block's store reaches at most thirty bytes past
/// what the block gives, and the blocks stop while at least 48 bytes of input remain, so that
/// the output of what follows the block (at least thirty bytes) is written over it; the last
/// bytes go one at a time.
#[inline]
pub(crate) fn latin1_to_utf8<T: OutByte>(src: &[u8], dst: &mut [T]) -> usize {
    const BLOCK: usize = 32;
    const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
    assert!(dst.len() / 2 >= src.len(), "room for two bytes each");
    let (mut i, mut o) = (0, 0);
    // o <= 2 * i and i + 48 <= src.len() keep o + 32 within dst (at least 2 * src.len()).
    while i + BLOCK + 16 <= src.len() {
        let block: &[u8; BLOCK] = src[i..i + BLOCK].try_into().expect("a block");
        let out: &mut [T; BLOCK] = (&mut dst[o..o + BLOCK]).try_into().expect("a block");
        T::store(out, block);
        let lo = u128::from_le_bytes(block[..16].try_into().expect("16 bytes")) & HIGH;
        let hi = u128::from_le_bytes(block[16..].try_into().expect("16 bytes")) & HIGH;
        if lo | hi == 0 {
            i += BLOCK;
            o += BLOCK;
            continue;
        }
        let k = if lo != 0 {
            lo.trailing_zeros() / 8
        } else {
            16 + hi.trailing_zeros() / 8
        } as usize;
        let b = block[k];
        dst[o + k] = T::byte(0xC0 | (b >> 6));
        dst[o + k + 1] = T::byte(0x80 | (b & 0x3F));
        i += k + 1;
        o += k + 2;
    }
    for &b in &src[i..] {
        if b < 0x80 {
            dst[o] = T::byte(b);
            o += 1;
        } else {
            dst[o] = T::byte(0xC0 | (b >> 6));
            dst[o + 1] = T::byte(0x80 | (b & 0x3F));
            o += 2;
        }
    }
    o
}

/// Latin-1 bytes as a `String` (`mem::decode_latin1`): the ASCII prefix copied, the rest
/// converted by [`latin1_to_utf8`] straight into the string's spare capacity (neither cleared
/// first nor checked after).
pub(crate) fn latin1_to_string(src: &[u8]) -> alloc::string::String {
    let head = ascii_len(src);
    let tail = &src[head..];
    let mut bytes = alloc::vec::Vec::with_capacity(head + 2 * tail.len());
    bytes.extend_from_slice(&src[..head]);
    let n = latin1_to_utf8(tail, &mut bytes.spare_capacity_mut()[..2 * tail.len()]);
    // SAFETY: `latin1_to_utf8` returned n, having written the first n bytes of the spare
    // capacity (at least 2 * tail.len() long, asked for above), so `head + n` bytes are
    // initialized.
    unsafe { bytes.set_len(head + n) };
    debug_assert!(core::str::from_utf8(&bytes).is_ok());
    // SAFETY: the first `head` bytes are ASCII (`ascii_len`, checked against the standard
    // library at every level by the tests); after them `latin1_to_utf8` writes each byte
    // below 0x80 as itself and each other byte `b` as the two bytes `0xC0 | b >> 6` (0xC2 or
    // 0xC3) and `0x80 | b & 0x3F`, the UTF-8 of U+0080..=U+00FF, one character after another
    // (what its block stores put past a character is written over by the next ones, or lies
    // past n): the bytes are UTF-8.
    unsafe { alloc::string::String::from_utf8_unchecked(bytes) }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::simd::{set_level, Level};

    fn levels() -> std::vec::Vec<Level> {
        crate::simd::tests::all_levels().collect()
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
