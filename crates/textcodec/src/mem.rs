//! Fast checks and conversions between Latin-1, ASCII, UTF-8 and UTF-16 in memory, with the
//! names and meanings of encoding_rs's `mem` module (`encoding_rs::mem` becomes
//! `textcodec::mem`).
//!
//! "Latin-1" here is what encoding_rs's `mem` calls it: each byte is the code point of the same
//! value, U+0000 to U+00FF (the Infra standard's "isomorphic decode" and "isomorphic encode").
//! It is not the label `latin1`, which the Encoding Standard maps to windows-1252 (bytes
//! 0x80..=0x9F differ); use [`WINDOWS_1252`](crate::WINDOWS_1252) for that.
//!
//! Every function runs on the crate's SIMD fast paths at the level [`crate::dispatch`] chose
//! (the ASCII scan, the UTF-8 validator, the single-byte encoder's blocks of two-byte
//! characters; `utf16_valid_up_to` in blocks the compiler vectorizes; Latin-1 to UTF-8 in
//! 32-byte blocks tested as two 128-bit words), and none writes past the end of what it
//! reports as written.
//!
//! ```
//! use textcodec::mem;
//! let text = mem::decode_latin1(b"caf\xE9");
//! assert_eq!(text, "café");
//! assert!(mem::is_utf8_latin1(text.as_bytes()));
//! assert_eq!(&*mem::encode_latin1_lossy(&text), b"caf\xE9");
//! ```

use alloc::borrow::Cow;
use alloc::vec::Vec;

/// Whether every byte of `buffer` is ASCII (below 0x80). encoding_rs's `mem::is_ascii`.
///
/// ```
/// assert!(textcodec::mem::is_ascii(b"plain text"));
/// assert!(!textcodec::mem::is_ascii(b"caf\xE9"));
/// ```
pub fn is_ascii(buffer: &[u8]) -> bool {
    crate::simd::ascii_len(buffer) == buffer.len()
}

/// Whether `buffer` is valid UTF-8 in which every character is at most U+00FF (so that
/// [`encode_latin1_lossy`] and [`convert_utf8_to_latin1_lossy`] lose nothing). Returns as soon
/// as a byte says no. encoding_rs's `mem::is_utf8_latin1`.
///
/// ```
/// use textcodec::mem::is_utf8_latin1;
/// assert!(is_utf8_latin1("Grüße".as_bytes()));
/// assert!(!is_utf8_latin1("Œuvre".as_bytes())); // U+0152
/// assert!(!is_utf8_latin1(b"\xE9")); // Latin-1, not UTF-8
/// ```
pub fn is_utf8_latin1(buffer: &[u8]) -> bool {
    // In valid UTF-8, the characters up to U+00FF are exactly those whose bytes are all at most
    // 0xC3 (lead bytes C2 and C3; C0 and C1 are never valid): a byte above 0xC3 answers at once,
    // and otherwise the UTF-8 validator decides, a chunk at a time: 16 KiB, which the
    // validator reads again from the L1 data cache (32 KiB or more wherever AVX2 is), and a
    // quarter of the validator's calls of 4 KiB chunks (each call's entry and end cost
    // about 1.5 % of the instructions on Latin text).
    const CHUNK: usize = 16384;
    let mut start = 0;
    while start < buffer.len() {
        let end = buffer.len().min(start + CHUNK);
        let chunk = &buffer[start..end];
        if chunk.iter().fold(0u8, |max, &b| max.max(b)) > 0xC3 {
            return false;
        }
        let valid = crate::simd::valid_utf8_prefix(chunk);
        if valid == chunk.len() {
            start = end;
        } else if end < buffer.len() && valid + 1 == chunk.len() && chunk[valid] >= 0xC2 {
            // A lead byte that ends the chunk: its character continues in the next one.
            start += valid;
        } else {
            return false;
        }
    }
    true
}

/// Latin-1 bytes as text: each byte is the code point of its value (U+0000 to U+00FF).
/// Borrows `bytes` when it is all ASCII. encoding_rs's `mem::decode_latin1`.
///
/// ```
/// use std::borrow::Cow;
/// assert_eq!(textcodec::mem::decode_latin1(b"Gr\xFC\xDFe \x80"), "Grüße \u{80}");
/// assert!(matches!(textcodec::mem::decode_latin1(b"ascii"), Cow::Borrowed("ascii")));
/// ```
pub fn decode_latin1(bytes: &[u8]) -> Cow<'_, str> {
    match crate::simd::ascii_str(bytes) {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(crate::simd::latin1_to_string(bytes)),
    }
}

/// Text as Latin-1 bytes: each character up to U+00FF is the byte of its value; each character
/// above U+00FF becomes `?` (0x3F), as Python's `errors="replace"` and Java's ISO-8859-1
/// encoder do. Borrows `string` when it is all ASCII. encoding_rs's `mem::encode_latin1_lossy`,
/// which promises nothing for characters above U+00FF (and panics on them in debug builds):
/// here that output is defined, and never a control character.
///
/// ```
/// assert_eq!(&*textcodec::mem::encode_latin1_lossy("Grüße"), b"Gr\xFC\xDFe");
/// assert_eq!(&*textcodec::mem::encode_latin1_lossy("Œuvre ☃"), b"?uvre ?");
/// ```
pub fn encode_latin1_lossy(string: &str) -> Cow<'_, [u8]> {
    let (head, _) = crate::simd::ascii_prefix(string.as_bytes());
    if head.len() == string.len() {
        return Cow::Borrowed(string.as_bytes());
    }
    let mut bytes = Vec::with_capacity(string.len());
    bytes.extend_from_slice(head.as_bytes());
    // Through a buffer on the stack that stays in L1 (rather than clearing the whole result
    // first), a chunk of whole characters at a time.
    let mut buf = [0u8; 4096];
    let mut rest = &string[head.len()..];
    while !rest.is_empty() {
        let mut end = rest.len().min(buf.len());
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let n = str_to_latin1(&rest[..end], &mut buf);
        bytes.extend_from_slice(&buf[..n]);
        rest = &rest[end..];
    }
    Cow::Owned(bytes)
}

/// Converts Latin-1 bytes `src` (each byte the code point of its value) to UTF-8 in `dst`;
/// returns the number of bytes written. Nothing after them is modified (unlike encoding_rs,
/// which may write past them). encoding_rs's `mem::convert_latin1_to_utf8`.
///
/// # Panics
///
/// If `dst` is shorter than twice `src`.
///
/// ```
/// let mut utf8 = [0u8; 8];
/// let n = textcodec::mem::convert_latin1_to_utf8(b"caf\xE9", &mut utf8);
/// assert_eq!(&utf8[..n], "café".as_bytes());
/// ```
pub fn convert_latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() / 2 >= src.len(),
        "the destination must be at least twice as long as the source"
    );
    crate::simd::latin1_to_utf8(src, dst)
}

/// Converts UTF-8 `src` to Latin-1 in `dst`: each character up to U+00FF becomes the byte of
/// its value; each character above U+00FF, and each malformed sequence (as "UTF-8 decode"
/// would replace it with one U+FFFD), becomes `?` (0x3F). Returns the number of bytes written;
/// nothing after them is modified. encoding_rs's `mem::convert_utf8_to_latin1_lossy`, which
/// promises nothing for other input than UTF-8 of characters up to U+00FF (and panics on it in
/// debug builds): here that output is defined.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
///
/// ```
/// let mut latin1 = [0u8; 16];
/// let n = textcodec::mem::convert_utf8_to_latin1_lossy("Grüße".as_bytes(), &mut latin1);
/// assert_eq!(&latin1[..n], b"Gr\xFC\xDFe");
/// let n = textcodec::mem::convert_utf8_to_latin1_lossy(b"a\xE2\x82b\xFF\xC3\xA9", &mut latin1);
/// assert_eq!(&latin1[..n], b"a?b?\xE9");
/// ```
pub fn convert_utf8_to_latin1_lossy(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "the destination must be at least as long as the source"
    );
    let (mut read, mut written) = (0, 0);
    loop {
        let (valid, rest) = crate::simd::valid_prefix(&src[read..]);
        written += str_to_latin1(valid, &mut dst[written..]);
        read += valid.len();
        if rest.is_empty() {
            return written;
        }
        // A malformed sequence: its maximal part ("UTF-8 decoder"), which the standard
        // library's validator measures; the first four bytes decide it.
        let window = &rest[..rest.len().min(4)];
        let bad = match core::str::from_utf8(window) {
            Err(e) => e.error_len().unwrap_or(window.len()),
            Ok(_) => window.len(),
        };
        dst[written] = b'?';
        written += 1;
        read += bad;
    }
}

/// The length of the longest prefix of `buffer` that is valid UTF-16: the index of the first
/// lone surrogate, or `buffer.len()`. A leading surrogate that ends the buffer is lone.
/// encoding_rs's `mem::utf16_valid_up_to`.
///
/// ```
/// use textcodec::mem::utf16_valid_up_to;
/// assert_eq!(utf16_valid_up_to(&[0x61, 0xD83D, 0xDE00, 0x62]), 4);
/// assert_eq!(utf16_valid_up_to(&[0x61, 0xDE00, 0x62]), 1);
/// assert_eq!(utf16_valid_up_to(&[0x61, 0xD83D]), 1);
/// ```
pub fn utf16_valid_up_to(buffer: &[u16]) -> usize {
    const BLOCK: usize = 16;
    let len = buffer.len();
    let mut i = 0;
    loop {
        // Whole blocks without a surrogate, tested with no branch per unit (the loop
        // vectorizes).
        while let Some(block) = buffer.get(i..i + BLOCK) {
            let block: &[u16; BLOCK] = block.try_into().expect("a block");
            if block
                .iter()
                .fold(false, |any, &u| any | (u & 0xF800 == 0xD800))
            {
                break;
            }
            i += BLOCK;
        }
        // Unit by unit through the block with a surrogate (or the last units).
        let end = len.min(i + BLOCK);
        while i < end {
            let u = buffer[i];
            if u & 0xF800 != 0xD800 {
                i += 1;
            } else if u < 0xDC00 && buffer.get(i + 1).is_some_and(|&t| t & 0xFC00 == 0xDC00) {
                i += 2;
            } else {
                return i;
            }
        }
        if i >= len {
            return len;
        }
    }
}

/// For the single-byte encoder's block kernel: the byte of each code point below U+0800 that
/// Latin-1 maps (U+0080..=U+00FF to itself), 0 for the others (ASCII is copied, not looked
/// up).
static LATIN1_LOW: [u8; 0x800] = {
    let mut table = [0u8; 0x800];
    let mut cp = 0x80;
    while cp < 0x100 {
        table[cp] = cp as u8;
        cp += 1;
    }
    table
};

/// `src` as Latin-1 in `dst` (at least as long as `src`), `?` for characters above U+00FF;
/// returns the bytes written.
fn str_to_latin1(src: &str, dst: &mut [u8]) -> usize {
    debug_assert!(dst.len() >= src.len());
    let bytes = src.as_bytes();
    let (mut r, mut w) = (0, 0);
    while r < bytes.len() {
        let k = crate::simd::copy_ascii_to_ascii(&bytes[r..], &mut dst[w..]);
        r += k;
        w += k;
        if r == bytes.len() {
            break;
        }
        // Blocks of ASCII and two-byte characters up to U+00FF (the single-byte encoder's
        // kernel: SSE2 and AVX2; elsewhere `None`).
        if let Some((kr, kw)) =
            crate::simd::encode_utf8_low(&bytes[r..], &mut dst[w..], &LATIN1_LOW)
        {
            if kr != 0 {
                r += kr;
                w += kw;
                continue;
            }
        }
        // Character by character to the next ASCII byte: C2 and C3 lead U+0080..=U+00FF.
        while r < bytes.len() && bytes[r] >= 0x80 {
            let lead = bytes[r];
            if lead <= 0xC3 {
                dst[w] = (lead << 6) | (bytes[r + 1] & 0x3F);
                r += 2;
            } else {
                dst[w] = b'?';
                r += match lead {
                    0xC4..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    _ => 4,
                };
            }
            w += 1;
        }
    }
    w
}
