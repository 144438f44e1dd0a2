//! UTF-8 (after BOM sniffing) in replacement mode, straight into Python's string
//! representation where the text allows:
//!
//! - ASCII: checked, then copied into an ASCII string.
//! - Characters below U+0100 (Latin-1 text): the core's `utf8_to_isomorphic` writes them into
//!   a 1-byte string in one pass, which is then shrunk to the characters written.
//! - Otherwise, after that prefix: the rest counted (its characters and largest byte); if it
//!   holds no four-byte sequence, the core's decoder in fatal mode writes it into a 2-byte
//!   string of exactly that length (valid text fills it; malformed text is decoded again
//!   below).
//! - Anything else (malformed or astral text): the rest decoded to UTF-16 in replacement mode
//!   and copied into a string of its kind after the prefix.

use pyo3::prelude::*;
use pyo3::types::PyString;
use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, UTF_8};

use crate::decode::{utf16_replace, Out};
use crate::ffi::{self, Building, Units};
use crate::text::Class;

/// The length of the ASCII prefix of `data`.
pub(crate) fn ascii_len(data: &[u8]) -> usize {
    const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let (blocks, _) = data.as_chunks::<16>();
    let mut i = 0;
    for b in blocks {
        if u128::from_le_bytes(*b) & HIGH != 0 {
            break;
        }
        i += 16;
    }
    i + data[i..]
        .iter()
        .position(|&b| b >= 0x80)
        .unwrap_or(data.len() - i)
}

/// The number of bytes of `data` that are not continuation bytes (its characters if it is
/// valid UTF-8), and whether a byte is at or above 0xF0 (a character above U+FFFF, or an
/// error).
pub(crate) fn census(data: &[u8]) -> (usize, bool) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW16: u64 = 0x00FF_00FF_00FF_00FF;
    // Eight bytes at a time: bit 7 of each byte of `x & !(x << 1)` is set for 10xxxxxx, of
    // `x & x << 1 & x << 2 & x << 3` for 1111xxxx. The counts are added in byte lanes,
    // emptied before a lane can overflow.
    let (mut conts, mut four) = (0usize, 0u64);
    for block in data.chunks(8 * 255) {
        let (words, rest) = block.as_chunks::<8>();
        let mut lanes = 0u64;
        for w in words {
            let x = u64::from_le_bytes(*w);
            lanes += (x & !(x << 1) & HIGH) >> 7;
            four |= x & (x << 1) & (x << 2) & (x << 3);
        }
        let pairs = (lanes & LOW16) + ((lanes >> 8) & LOW16);
        conts += (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
        for &b in rest {
            conts += usize::from(b & 0xC0 == 0x80);
            four |= u64::from(b >= 0xF0) << 7;
        }
    }
    (data.len() - conts, four & HIGH != 0)
}

/// "UTF-8 decode without BOM" of all of `data` into a string; returns it and whether anything
/// was replaced.
pub(crate) fn decode<'py>(
    py: Python<'py>,
    data: &[u8],
    immutable: bool,
) -> PyResult<(Bound<'py, PyString>, bool)> {
    let n = data.len();
    let detach = immutable && n > crate::DETACH_BYTES;
    let ascii = ascii_len(data);
    if ascii == n {
        let s = ffi::new_string(py, n, Class::Ascii, |out| {
            if let Units::U8(d) = out {
                d.copy_from_slice(data);
            }
        })?;
        return Ok((s, false));
    }
    // The prefix converted to Latin-1 (one byte per character) in `latin`: bytes read and
    // characters written; none if the first character that is not ASCII is above U+00FF.
    let (mut read, mut chars) = (0, 0);
    let mut latin = None;
    if data[ascii] & 0xFE == 0xC2 {
        if let Some(mut b) = Building::new(py, n, Class::Latin1)? {
            if let Units::U8(buf) = b.units() {
                let (r, w) =
                    crate::detach_if(py, detach, || textcodec::utf8_to_isomorphic(data, buf));
                if r == n {
                    // At least one character at or above U+0080 (the ASCII prefix ended).
                    return Ok((b.finish(w)?, false));
                }
                (read, chars) = (r, w);
            }
            latin = Some(b);
        }
    }
    let mut latin_units = latin.as_mut().map(|b| b.units());
    let (prefix, class): (&[u8], Class) = match &mut latin_units {
        Some(Units::U8(buf)) if chars < read => (&buf[..chars], Class::Latin1),
        Some(Units::U8(buf)) => (&buf[..chars], Class::Ascii),
        _ => (&[], Class::Ascii),
    };
    // The rest, from the ASCII prefix on when there is no Latin-1 prefix (the decoder copies
    // ASCII as fast as the prefix would be widened).
    let rest = &data[read..];
    let (rest_chars, four) = census(&data[read.max(ascii)..]);
    let rest_chars = rest_chars + ascii.saturating_sub(read);
    // If the rest is valid, its first character that is not ASCII is at or above U+0100
    // (the prefix ended before it), and without a four-byte sequence none is above U+FFFF.
    if !four {
        if let Some(mut s) = Building::new(py, chars + rest_chars, Class::Bmp)? {
            if let Units::U16(out) = s.units() {
                let (head, tail) = out.split_at_mut(chars);
                for (d, &c) in head.iter_mut().zip(prefix) {
                    *d = u16::from(c);
                }
                let mut dec = UTF_8.new_decoder(DecoderOptions {
                    error_mode: DecoderErrorMode::Fatal,
                    bom: BomHandling::Keep,
                });
                let r = crate::detach_if(py, detach, || dec.decode_to_utf16(rest, tail, true));
                if matches!(r, Ok(p) if p.read == rest.len() && p.written == rest_chars) {
                    return Ok((s.finish(chars + rest_chars)?, false));
                }
            }
            // Malformed: decoded again below, in replacement mode.
        }
    }
    let mut out = Out::new();
    let replaced = utf16_replace(py, UTF_8, rest, immutable, &mut out)?;
    Ok((out.finish_after(py, prefix, class)?, replaced))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_len_and_census() {
        for len in [0, 1, 15, 16, 17, 40, 5000] {
            let mut v = vec![b'a'; len];
            assert_eq!(ascii_len(&v), len);
            v.push(0xC3);
            v.extend_from_slice(&[b'b'; 20]);
            assert_eq!(ascii_len(&v), len);
        }
        for text in [
            "aé火😀".repeat(3000),
            "aé火".repeat(3001),
            "😀".into(),
            String::new(),
        ] {
            let want = (text.chars().count(), text.contains('😀'));
            assert_eq!(census(text.as_bytes()), want, "{}", text.len());
        }
        assert_eq!(census(b"\xF5"), (1, true));
    }
}
