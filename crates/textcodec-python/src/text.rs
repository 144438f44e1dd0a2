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
    /// The largest unit.
    pub(crate) max: u16,
    /// How many units are low (trailing) surrogates: one per character above U+FFFF.
    pub(crate) pairs: usize,
}

impl Scan {
    pub(crate) fn of(units: &[u16]) -> Scan {
        // Both loops are plain reductions that the compiler vectorises.
        let max = units.iter().fold(0u16, |m, &u| m.max(u));
        let pairs = if max >= 0xD800 {
            units
                .iter()
                .filter(|&&u| (0xDC00..=0xDFFF).contains(&u))
                .count()
        } else {
            0
        };
        Scan { max, pairs }
    }

    pub(crate) fn class(self) -> Class {
        if self.pairs > 0 {
            Class::Astral
        } else if self.max < 0x80 {
            Class::Ascii
        } else if self.max < 0x100 {
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
            let chars = char::decode_utf16(units.iter().copied())
                .map(|c| c.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from));
            for (d, c) in dst.iter_mut().zip(chars) {
                *d = c;
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
