//! The single-byte encodings (the spec's "single-byte decoder") in replacement mode, straight
//! into Python's string representation: one character per byte, so the string's length is
//! the input's, and each byte is looked up in the encoding's table (the code points of the
//! decoder for each byte, U+FFFD for the unmapped ones, taken from the core once).
//!
//! The string's kind depends on the bytes present: the table is written into a 1-byte string
//! for encodings whose bytes 80..FF mostly decode below U+0100 (Latin scripts), else into a
//! 2-byte string; the OR of the code points written tells whether the guess held, and if not
//! the text is written again in the other kind.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyString;
use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, Encoding};

use crate::ffi::{self, Building, Units};
use crate::text::Class;

/// One encoding's decoder, byte by byte.
pub(crate) struct Table {
    pub(crate) units: [u16; 256],
    /// The bytes the decoder reports as errors (U+FFFD).
    pub(crate) unmapped: [bool; 256],
    pub(crate) any_unmapped: bool,
    /// Most of the bytes 80..FF decode below U+0100: try a 1-byte string first.
    pub(crate) latin: bool,
    /// The letters of a script other than Latin, not in runs of bytes that decode to
    /// consecutive code points (KOI8-R's Cyrillic, windows-1256's Arabic): the core's decoder,
    /// which converts such runs sixteen bytes at a time, looks these letters up one by one
    /// in dense text, and [`write`] does it in fewer instructions.
    pub(crate) scattered: bool,
}

pub(crate) fn table(enc: &'static Encoding) -> Option<&'static Table> {
    static TABLES: OnceLock<Vec<(&'static Encoding, Table)>> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        Encoding::all()
            .iter()
            .filter(|&&e| crate::is_single_byte(e))
            .map(|&e| (e, build(e)))
            .collect()
    });
    all.iter().find(|(e, _)| *e == enc).map(|(_, t)| t)
}

fn build(enc: &'static Encoding) -> Table {
    let mut t = Table {
        units: [0; 256],
        unmapped: [false; 256],
        any_unmapped: false,
        latin: false,
        scattered: false,
    };
    for b in 0..=255u8 {
        let mut dec = enc.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: BomHandling::Keep,
        });
        let mut out = [0u16; 4];
        let p = dec
            .decode_to_utf16(&[b], &mut out, true)
            .expect("replacement mode never fails");
        debug_assert_eq!(p.written, 1);
        t.units[usize::from(b)] = out[0];
        t.unmapped[usize::from(b)] = p.replaced;
        t.any_unmapped |= p.replaced;
    }
    t.latin = t.units[0x80..].iter().filter(|&&u| u < 0x100).count() >= 64;
    // The letters (U+00C0..U+1FFF) in runs of bytes that decode to the byte plus one offset,
    // as the core's decoder finds them: without two runs that hold half of the letters, and
    // with letters of a script other than Latin (dense text), the letters are scattered.
    let letter = |u: u16| (0xC0..0x2000).contains(&u) && u != 0xFFFD;
    let (mut runs, mut b) = (Vec::new(), 0x80);
    while b < 0x100 {
        let u = t.units[b];
        if !letter(u) {
            b += 1;
            continue;
        }
        let delta = u.wrapping_sub(b as u16);
        let mut end = b + 1;
        while end < 0x100 && letter(t.units[end]) && t.units[end].wrapping_sub(end as u16) == delta
        {
            end += 1;
        }
        runs.push(end - b);
        b = end;
    }
    let letters: usize = runs.iter().sum();
    runs.sort_unstable_by(|a, b| b.cmp(a));
    let in_runs: usize = runs.iter().take(2).sum();
    let non_latin = t.units[0x80..]
        .iter()
        .filter(|&&u| (0x370..0x2000).contains(&u))
        .count();
    t.scattered = 2 * in_runs < letters && non_latin >= 32;
    t
}

/// A place of a string: one byte (code points below U+0100) or two.
pub(crate) trait Unit: Copy + From<u8> {
    fn of(u: u16) -> Self;
}

impl Unit for u8 {
    #[inline(always)]
    fn of(u: u16) -> u8 {
        u as u8
    }
}

impl Unit for u16 {
    #[inline(always)]
    fn of(u: u16) -> u16 {
        u
    }
}

/// Writes the code points of `src` into `dst` (as long) in units of `U` (truncated to them);
/// returns the OR of the code points written (at or above U+0100 when a byte needed two).
pub(crate) fn write<U: Unit>(t: &[u16; 256], src: &[u8], dst: &mut [U]) -> u16 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut or = 0u16;
    let (blocks, tail) = src.as_chunks::<32>();
    let (outs, out_tail) = dst.as_chunks_mut::<32>();
    for (s, d) in blocks.iter().zip(outs.iter_mut()) {
        let (words, _) = s.as_chunks::<8>();
        let high = words.iter().fold(0, |a, w| a | u64::from_le_bytes(*w)) & HIGH;
        if high == 0 {
            // Markup and spaces: thirty-two bytes widened at once.
            for k in 0..32 {
                d[k] = U::from(s[k]);
            }
            continue;
        }
        for k in 0..32 {
            let u = t[usize::from(s[k])];
            d[k] = U::of(u);
            or |= u;
        }
    }
    for (d, &b) in out_tail.iter_mut().zip(tail) {
        let u = t[usize::from(b)];
        *d = U::of(u);
        or |= u;
    }
    or
}

/// Writes the code points of `src` into `dst` (as long) as bytes, if all are below U+0100
/// (else stops at the first word of eight bytes with one that is not).
pub(crate) fn write_latin1(t: &[u16; 256], src: &[u8], dst: &mut [u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let (words, tail) = src.as_chunks::<8>();
    let (outs, out_tail) = dst.as_chunks_mut::<8>();
    for (s, d) in words.iter().zip(outs.iter_mut()) {
        if u64::from_le_bytes(*s) & HIGH == 0 {
            *d = *s;
        } else {
            let mut or = 0;
            for k in 0..8 {
                let u = t[usize::from(s[k])];
                d[k] = u as u8;
                or |= u;
            }
            if or >= 0x100 {
                return false;
            }
        }
    }
    write(t, tail, out_tail) < 0x100
}

/// Decodes all of `data` (no BOM: the caller sniffed it) with the single-byte encoding `enc`
/// in replacement mode; the string and, if `want_replaced`, whether a byte was unmapped.
/// `None` where strings are not built in place.
pub(crate) fn decode<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    data: &[u8],
    want_replaced: bool,
) -> PyResult<Option<(Bound<'py, PyString>, bool)>> {
    let Some(t) = table(enc) else {
        return Ok(None);
    };
    let n = data.len();
    if crate::utf8::ascii_len(data) == n {
        let s = ffi::new_string(py, n, Class::Ascii, |out| {
            if let Units::U8(d) = out {
                d.copy_from_slice(data);
            }
        })?;
        return Ok(Some((s, false)));
    }
    let replaced =
        want_replaced && t.any_unmapped && data.iter().any(|&b| t.unmapped[usize::from(b)]);
    // A byte at or above 0x80 is there, and decodes at or above U+0080: Latin1 at least.
    if t.latin {
        let Some(mut s) = Building::new(py, n, Class::Latin1)? else {
            return Ok(None);
        };
        if let Units::U8(d) = s.units() {
            if write_latin1(&t.units, data, d) {
                return Ok(Some((s.finish(n)?, replaced)));
            }
        }
    }
    let Some(mut s) = Building::new(py, n, Class::Bmp)? else {
        return Ok(None);
    };
    let Units::U16(d) = s.units() else {
        return Ok(None);
    };
    let wide = if t.scattered {
        write(&t.units, data, d) >= 0x100
    } else {
        // One unit per byte: the string has room for all of them.
        let mut dec = enc.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: BomHandling::Keep,
        });
        match dec.decode_to_utf16(data, d, true) {
            Ok(p) if p.read == n && p.written == n => {}
            _ => return Ok(None),
        }
        // Usually found in the first letters.
        d.chunks(256)
            .any(|c| c.iter().fold(0, |a, &u| a | u) >= 0x100)
    };
    if wide {
        return Ok(Some((s.finish(n)?, replaced)));
    }
    // Every character below U+0100: a 1-byte string.
    let Some(mut narrow) = Building::new(py, n, Class::Latin1)? else {
        return Ok(None);
    };
    if let Units::U8(out) = narrow.units() {
        for (o, &u) in out.iter_mut().zip(d.iter()) {
            *o = u as u8;
        }
    }
    Ok(Some((narrow.finish(n)?, replaced)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scattered_letters() {
        let scattered: Vec<&str> = Encoding::all()
            .iter()
            .filter(|&&e| crate::is_single_byte(e) && build(e).scattered)
            .map(|e| e.name())
            .collect();
        assert_eq!(scattered, ["KOI8-R", "KOI8-U", "windows-1256"]);
    }

    #[test]
    fn write_agrees_with_the_decoder() {
        for &enc in Encoding::all()
            .iter()
            .filter(|&&e| crate::is_single_byte(e))
        {
            let t = build(enc);
            let mut x = 7u32;
            let mut data = Vec::new();
            for i in 0..3000u32 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                // Runs of ASCII, sparse and dense letters.
                data.push(match (i / 64) % 3 {
                    0 => b'a' + (x % 26) as u8,
                    1 if !x.is_multiple_of(8) => b' ',
                    _ => x as u8,
                });
            }
            // Latin-1 text too, with a letter above U+00FF at the end or not.
            let latin: Vec<u8> = (0..300u32)
                .map(|i| [b'a', 0xE9, b' ', 0xFC][i as usize % 4])
                .collect();
            let mut with_euro = latin.clone();
            with_euro.push(0x80);
            let cases = [data.clone(), latin, with_euro];
            for data in &cases {
                for len in [0, 1, 15, 16, 17, 100, data.len()] {
                    let src = &data[..len];
                    let want: Vec<u16> = textcodec::decode(src, enc).0.encode_utf16().collect();
                    let mut got = vec![0u16; len];
                    let or = write(&t.units, src, &mut got);
                    assert_eq!(got, want, "{}", enc.name());
                    let mut bytes = vec![0u8; len];
                    let latin = write_latin1(&t.units, src, &mut bytes);
                    assert_eq!(latin, want.iter().all(|&u| u < 0x100), "{}", enc.name());
                    if latin {
                        assert!(bytes.iter().zip(&want).all(|(&b, &u)| u16::from(b) == u));
                    }
                    let high = src.iter().fold(0, |a, &b| a | t.units[usize::from(b)]);
                    assert_eq!((or >= 0x80, or >= 0x100), (high >= 0x80, high >= 0x100));
                }
            }
        }
    }
}
