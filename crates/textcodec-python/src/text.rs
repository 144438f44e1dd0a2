//! What a decoded text needs to become a Python string: its class (the kind CPython stores it
//! in: 1 byte per character for ASCII and Latin-1, 2 for the BMP, 4 otherwise) and its length
//! in characters, and the copy of UTF-16 units into a string of that kind.

use crate::ffi::Units;

/// The smallest representation CPython keeps a string in (a string in a larger kind than
/// its characters need breaks CPython's invariants: equal strings must have equal kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Class {
    /// Every character below U+0080.
    Ascii,
    /// Every character below U+0100, at least one at or above U+0080.
    Latin1,
    /// Every character below U+10000, at least one at or above U+0100.
    Bmp,
    /// At least one character above U+FFFF.
    Astral,
}

impl Class {
    /// The `maxchar` to give `PyUnicode_New` for a string of this class.
    pub(crate) fn max_char(self) -> u32 {
        match self {
            Class::Ascii => 0x7F,
            Class::Latin1 => 0xFF,
            Class::Bmp => 0xFFFF,
            Class::Astral => 0x10FFFF,
        }
    }
}

/// A summary of UTF-16 units (well-formed: surrogates only in pairs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scan {
    /// The bitwise OR of the units: a unit at or above U+0080 (U+0100) sets a bit of
    /// 0xFF80 (0xFF00).
    pub(crate) bits: u16,
    /// How many units are low (trailing) surrogates: one per character above U+FFFF.
    pub(crate) pairs: usize,
}

impl Scan {
    pub(crate) fn of(units: &[u16]) -> Scan {
        // One pass in eight 16-bit lanes of plain arithmetic (no comparisons, no widening),
        // which the compiler vectorises with SSE2 alone: the OR of the units, and a count of
        // low surrogates (`t == 0` for `t = (u & 0xFC00) ^ 0xDC00`, as `(t - 1) & !t` has
        // its top bit set just then). A lane counts at most 8,192 units of a block.
        const LANES: usize = 8;
        let low = |u: u16| {
            let t = (u & 0xFC00) ^ 0xDC00;
            (t.wrapping_sub(1) & !t) >> 15
        };
        let (mut bits, mut pairs) = (0u16, 0usize);
        for block in units.chunks(LANES << 13) {
            let (vectors, rest) = block.as_chunks::<LANES>();
            let (mut or, mut count) = ([0u16; LANES], [0u16; LANES]);
            for v in vectors {
                for k in 0..LANES {
                    or[k] |= v[k];
                    count[k] += low(v[k]);
                }
            }
            for &u in rest {
                bits |= u;
                pairs += usize::from(low(u));
            }
            bits |= or.iter().fold(0, |a, &b| a | b);
            pairs += count.iter().map(|&c| usize::from(c)).sum::<usize>();
        }
        Scan { bits, pairs }
    }

    pub(crate) fn class(self) -> Class {
        if self.pairs > 0 {
            Class::Astral
        } else if self.bits & 0xFF80 == 0 {
            Class::Ascii
        } else if self.bits & 0xFF00 == 0 {
            Class::Latin1
        } else {
            Class::Bmp
        }
    }

    /// The number of characters in `units` units.
    pub(crate) fn chars(self, units: usize) -> usize {
        units - self.pairs
    }
}

/// Writes well-formed UTF-16 `units` into `out`, which has exactly as many places as the text
/// has characters, of a kind its class fits in.
pub(crate) fn write_utf16(units: &[u16], out: Units<'_>) {
    match out {
        Units::U8(dst) => {
            for (d, &s) in dst.iter_mut().zip(units) {
                *d = s as u8;
            }
        }
        Units::U16(dst) => dst.copy_from_slice(units),
        Units::U32(dst) => {
            // Sixteen units at a time where none is a surrogate (widened as they are), the
            // pairs one character at a time.
            let (mut i, mut j) = (0, 0);
            while i < units.len() && j < dst.len() {
                if let (Some(block), Some(out)) = (units.get(i..i + 16), dst.get_mut(j..j + 16)) {
                    // Without an early exit: the test is vectorised with the widening.
                    let surrogates = block
                        .iter()
                        .fold(0u16, |a, &u| a | u16::from(u & 0xF800 == 0xD800));
                    if surrogates == 0 {
                        for (d, &u) in out.iter_mut().zip(block) {
                            *d = u32::from(u);
                        }
                        i += 16;
                        j += 16;
                        continue;
                    }
                }
                let u = units[i];
                if (0xD800..0xDC00).contains(&u) && i + 1 < units.len() {
                    dst[j] = 0x10000
                        + ((u32::from(u) - 0xD800) << 10)
                        + (u32::from(units[i + 1]) - 0xDC00);
                    i += 2;
                } else {
                    dst[j] = u32::from(u);
                    i += 1;
                }
                j += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let scan = |s: &str| Scan::of(&s.encode_utf16().collect::<Vec<_>>());
        assert_eq!(scan("").class(), Class::Ascii);
        assert_eq!(scan("abc").class(), Class::Ascii);
        assert_eq!(scan("caf\u{E9}").class(), Class::Latin1);
        assert_eq!(scan("\u{FF}").class(), Class::Latin1);
        assert_eq!(scan("\u{100}").class(), Class::Bmp);
        assert_eq!(scan("\u{FFFD}x").class(), Class::Bmp);
        let s = scan("a\u{1F600}b\u{10FFFF}");
        assert_eq!((s.class(), s.chars(6)), (Class::Astral, 4));
    }

    #[test]
    fn writes_each_kind() {
        let units: Vec<u16> = "h\u{E9}\u{1F600}".encode_utf16().collect();
        let mut out = [0u32; 3];
        write_utf16(&units, Units::U32(&mut out));
        assert_eq!(out, [0x68, 0xE9, 0x1F600]);
        let units: Vec<u16> = "h\u{E9}".encode_utf16().collect();
        let mut out = [0u8; 2];
        write_utf16(&units, Units::U8(&mut out));
        assert_eq!(out, [0x68, 0xE9]);
    }
}
