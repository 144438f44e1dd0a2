//! gb18030 and GBK ("gb18030 decoder", "gb18030 encoder", "GBK decoder", "GBK encoder").
//!
//! GBK's decoder is gb18030's decoder; GBK's encoder is gb18030's encoder with "is GBK" set.
//! Two-byte sequences go through "index gb18030", four-byte sequences through "index gb18030
//! ranges" ("index gb18030 ranges code point" / "index gb18030 ranges pointer").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::Sink;
use super::multibyte::{
    run_out, utf8_pairs, FastEncoder, FastPath, PairSink, Steps, Utf16Pairs, Utf8Pairs,
};
#[cfg(test)]
use crate::tables::gb18030::GB18030_RANGES;
use crate::tables::gb18030::{ranges_code_point, ranges_pointer, GB18030_DECODE, GB18030_ENCODE};

/// The four-byte pointer of the decoder's step 3.2: ((first − 0x81) × (10 × 126 × 10)) +
/// ((second − 0x30) × (10 × 126)) + ((third − 0x81) × 10) + byte − 0x30.
#[inline(always)]
fn four_byte_pointer(first: u8, second: u8, third: u8, byte: u8) -> u32 {
    (first as u32 - 0x81) * (10 * 126 * 10)
        + (second as u32 - 0x30) * (10 * 126)
        + (third as u32 - 0x81) * 10
        + byte as u32
        - 0x30
}

/// The two-byte pointer of the decoder's steps 5.5 and 5.6: `None` unless `byte` is in the
/// range 0x40 to 0x7E or 0x80 to 0xFE (`leading` is 0x81 to 0xFE).
#[inline(always)]
fn two_byte_pointer(leading: u8, byte: u8) -> Option<usize> {
    // 5. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    // 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFE, inclusive, then
    //    set pointer to (leading − 0x81) × 190 + (byte − offset).
    if (0x40..=0x7E).contains(&byte) || (0x80..=0xFE).contains(&byte) {
        Some((leading as usize - 0x81) * 190 + (byte as usize - offset))
    } else {
        None
    }
}

/// The gb18030 decoder's state: "gb18030 first", "gb18030 second", "gb18030 third" (0x00:
/// unset).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Decoder {
    first: u8,
    second: u8,
    third: u8,
}

impl DecodeHandler for Gb18030Decoder {
    // "gb18030 decoder" handler (steps 3 to 9; 1 and 2 are in `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If gb18030 third is not 0x00:
        if self.third != 0x00 {
            // 3.1. If byte is not in the range 0x30 to 0x39, inclusive:
            if !(0x30..=0x39).contains(&byte) {
                // 3.1.1. Restore « gb18030 second, gb18030 third, byte » to ioQueue.
                let bytes = [self.second, self.third, byte];
                // 3.1.2. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
                *self = Gb18030Decoder::default();
                // 3.1.3. Return error.
                return Step::Error { n: 3, bytes };
            }
            // 3.2. Let codePoint be the index gb18030 ranges code point for the four-byte
            //      pointer.
            let code_point =
                ranges_code_point(four_byte_pointer(self.first, self.second, self.third, byte));
            // 3.3. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
            *self = Gb18030Decoder::default();
            // 3.4. If codePoint is null, then return error.
            // 3.5. Return a code point whose value is codePoint.
            return match code_point {
                None => Step::ERROR,
                Some(cp) => Step::Emit(cp),
            };
        }
        // 4. If gb18030 second is not 0x00:
        if self.second != 0x00 {
            // 4.1. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third to
            //      byte and return continue.
            if (0x81..=0xFE).contains(&byte) {
                self.third = byte;
                return Step::Continue;
            }
            // 4.2. Restore « gb18030 second, byte » to ioQueue, set gb18030 first and
            //      gb18030 second to 0x00, and return error.
            let bytes = [self.second, byte, 0];
            self.first = 0x00;
            self.second = 0x00;
            return Step::Error { n: 2, bytes };
        }
        // 5. If gb18030 first is not 0x00:
        if self.first != 0x00 {
            // 5.1. If byte is in the range 0x30 to 0x39, inclusive, then set gb18030 second to
            //      byte and return continue.
            if (0x30..=0x39).contains(&byte) {
                self.second = byte;
                return Step::Continue;
            }
            // 5.2. Let leading be gb18030 first.
            let leading = self.first;
            // 5.3. Set gb18030 first to 0x00.
            self.first = 0x00;
            // 5.4 to 5.6. Let pointer be null; offset; pointer (see `two_byte_pointer`).
            let pointer = two_byte_pointer(leading, byte);
            // 5.7. Let codePoint be null if pointer is null; otherwise the index code point for
            //      pointer in index gb18030 (0 in the table: null).
            let code_point = pointer.map_or(0, |p| GB18030_DECODE[p]);
            // 5.8. If codePoint is non-null, then return a code point whose value is codePoint.
            if code_point != 0 {
                return Step::Emit(code_point as u32);
            }
            // 5.9. If byte is an ASCII byte, then restore byte to ioQueue.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            // 5.10. Return error.
            return Step::ERROR;
        }
        // 6. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 7. If byte is 0x80, then return code point U+20AC (€).
        if byte == 0x80 {
            return Step::Emit(0x20AC);
        }
        // 8. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to byte
        //    and return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.first = byte;
            return Step::Continue;
        }
        // 9. Return error.
        Step::ERROR
    }

    fn end(&mut self) -> Step {
        // 1. If byte is end-of-queue and gb18030 first, gb18030 second, and gb18030 third are
        //    0x00, then return finished.
        if self.first == 0x00 && self.second == 0x00 && self.third == 0x00 {
            return Step::Finished;
        }
        // 2. If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third is
        //    not 0x00, then set them to 0x00, and return error.
        *self = Gb18030Decoder::default();
        Step::ERROR
    }

    fn held(&self) -> usize {
        usize::from(self.first != 0) + usize::from(self.second != 0) + usize::from(self.third != 0)
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        // gb18030 second and third are set only after first.
        if self.first != 0 {
            return Seq::Bytes;
        }
        let b = src[0];
        match b {
            // 6.
            0x00..=0x7F => return Seq::Emit(b as u32, 1),
            // 7.
            0x80 => return Seq::Emit(0x20AC, 1),
            // 9.
            0xFF => return Seq::Error(1),
            // 8: gb18030 first.
            _ => {}
        }
        let Some(&second) = src.get(1) else {
            return Seq::Bytes;
        };
        if !(0x30..=0x39).contains(&second) {
            // 5.2 to 5.10.
            return match PAIRS[(b as usize - 0x80) * 256 + second as usize] {
                // 5.9-5.10: an ASCII byte is restored.
                0 => Seq::Error(if second < 0x80 { 1 } else { 2 }),
                cp => Seq::Emit(cp as u32, 2),
            };
        }
        // 5.1: gb18030 second.
        let Some(&third) = src.get(2) else {
            return Seq::Bytes;
        };
        if !(0x81..=0xFE).contains(&third) {
            // 4.2: second and this byte are restored.
            return Seq::Error(1);
        }
        // 4.1: gb18030 third.
        let Some(&byte) = src.get(3) else {
            return Seq::Bytes;
        };
        if !(0x30..=0x39).contains(&byte) {
            // 3.1: second, third and this byte are restored.
            return Seq::Error(1);
        }
        // 3.2 to 3.5.
        match ranges_code_point(four_byte_pointer(b, second, third, byte)) {
            Some(cp) => Seq::Emit(cp, 4),
            None => Seq::Error(4),
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.first != 0 {
            return 0;
        }
        run_out::<Gb18030Fast, S>(src, sink)
    }
}

/// The gb18030 decoder's fast path from the initial state: ASCII runs (step 6), 0x80 (step
/// 7), valid two-byte sequences (steps 8, 5.2 to 5.8) and valid four-byte sequences (steps 8,
/// 5.1, 4.1, 3.2 to 3.5). Stops before anything else: an error, a sequence not complete in
/// `src`, or less than one worst-case step of room.
struct Gb18030Fast;

impl FastPath for Gb18030Fast {
    #[inline(always)]
    fn run<O: PairSink>(src: &[u8], out: &mut O) -> usize {
        let len = src.len();
        let mut i = 0;
        while i < len {
            // Runs of ASCII and two-byte sequences (direct UTF-8 or UTF-16 output).
            let j = out.pairs(src, i, &PAIRS_UTF8, Some(&PAIRS));
            if j != i {
                i = j;
                continue;
            }
            let b = src[i];
            let lead = b.wrapping_sub(0x81);
            if lead < 0x7E && i + 1 < len {
                let b2 = src[i + 1];
                if TRAIL_INDEX[b2 as usize] != NO_TRAIL {
                    // Two bytes: one lookup.
                    if !out.room4()
                        || !out.push_pair(
                            &PAIRS_UTF8,
                            &PAIRS,
                            (lead as usize + 1) * 256 + b2 as usize,
                        )
                    {
                        break;
                    }
                    i += 2;
                    continue;
                }
                // Four bytes.
                if !(0x30..=0x39).contains(&b2) || i + 3 >= len || !out.room4() {
                    break;
                }
                let (b3, b4) = (src[i + 2], src[i + 3]);
                if !(0x81..=0xFE).contains(&b3) || !(0x30..=0x39).contains(&b4) {
                    break;
                }
                let Some(cp) = ranges_code_point(four_byte_pointer(b, b2, b3, b4)) else {
                    break;
                };
                out.push(cp);
                i += 4;
                continue;
            }
            if b < 0x80 {
                let n = out.ascii(&src[i..]);
                if n == 0 {
                    break;
                }
                i += n;
                continue;
            }
            if b != 0x80 || !out.room4() {
                break;
            }
            out.push(0x20AC);
            i += 1;
        }
        i
    }
}

/// Marks a byte that is no two-byte trail in [`TRAIL_INDEX`].
const NO_TRAIL: u8 = 0xFF;

/// `byte − offset` of the decoder's steps 5.5 and 5.6 for a byte in the range 0x40 to 0x7E or
/// 0x80 to 0xFE, [`NO_TRAIL`] for any other byte.
static TRAIL_INDEX: [u8; 256] = {
    let mut t = [NO_TRAIL; 256];
    let mut b = 0x40;
    while b <= 0xFE {
        if b < 0x7F {
            t[b] = (b - 0x40) as u8;
        } else if b > 0x7F {
            t[b] = (b - 0x41) as u8;
        }
        b += 1;
    }
    t
};

/// The index gb18030 code point of every two-byte sequence ([`Utf16Pairs`]; 0: null, or not
/// a trailing byte).
static PAIRS: Utf16Pairs = {
    let mut out = [0u16; 0x8000];
    let mut lead = 0;
    while lead < 0xFE - 0x81 + 1 {
        let mut b = 0;
        while b < 256 {
            if TRAIL_INDEX[b] != NO_TRAIL {
                out[(lead + 1) * 256 + b] = GB18030_DECODE[lead * 190 + TRAIL_INDEX[b] as usize];
            }
            b += 1;
        }
        lead += 1;
    }
    out
};

/// Steps 8 and 5.2 to 5.8 ([`PAIRS`]) pre-encoded in UTF-8.
static PAIRS_UTF8: Utf8Pairs = utf8_pairs(&PAIRS);

/// The 18 rows of the gb18030 encoder's step 5 table (Private Use code points kept on their
/// GB18030-2005 two-byte sequences), sorted by code point.
const PUA_SIDE_TABLE: [(u16, [u8; 2]); 18] = [
    (0xE78D, [0xA6, 0xD9]),
    (0xE78E, [0xA6, 0xDA]),
    (0xE78F, [0xA6, 0xDB]),
    (0xE790, [0xA6, 0xDC]),
    (0xE791, [0xA6, 0xDD]),
    (0xE792, [0xA6, 0xDE]),
    (0xE793, [0xA6, 0xDF]),
    (0xE794, [0xA6, 0xEC]),
    (0xE795, [0xA6, 0xED]),
    (0xE796, [0xA6, 0xF3]),
    (0xE81E, [0xFE, 0x59]),
    (0xE826, [0xFE, 0x61]),
    (0xE82B, [0xFE, 0x66]),
    (0xE82C, [0xFE, 0x67]),
    (0xE832, [0xFE, 0x6D]),
    (0xE843, [0xFE, 0x7E]),
    (0xE854, [0xFE, 0x90]),
    (0xE864, [0xFE, 0xA0]),
];

/// The gb18030 encoder's state: "is GBK".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Encoder {
    is_gbk: bool,
}

impl Gb18030Encoder {
    pub(crate) fn new(is_gbk: bool) -> Self {
        Gb18030Encoder { is_gbk }
    }
}

impl FastEncoder for Gb18030Encoder {
    // gb18030 has bytes for every supplementary code point (steps 9 to 16).
    const SUPPLEMENTARY: bool = true;

    // "gb18030 encoder" handler from step 3 (step 1, end-of-queue, is the default `end_of_queue`; step 2, ASCII, the blanket `EncodeHandler`'s).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 3. If codePoint is U+E5E5, then return error with codePoint.
        if code_point == 0xE5E5 {
            return S::error(code_point);
        }
        // 4. If is GBK is true and codePoint is U+20AC (€), then return byte 0x80.
        if self.is_gbk && code_point == 0x20AC {
            return S::one(0x80);
        }
        // 5. If there is a row in the table whose first column is codePoint, then return the
        //    two bytes on the same row listed in the second column.
        if (0xE78D..=0xE864).contains(&code_point) {
            if let Ok(i) = PUA_SIDE_TABLE.binary_search_by_key(&(code_point as u16), |&(c, _)| c) {
                let [a, b] = PUA_SIDE_TABLE[i].1;
                return S::two(a, b);
            }
        }
        // 6. Let pointer be the index pointer for codePoint in index gb18030.
        // 7. If pointer is non-null:
        if let Some(pointer) = GB18030_ENCODE.get(code_point) {
            // 7.1. Let leading be pointer / 190 + 0x81.
            let leading = (pointer / 190) as u8 + 0x81;
            // 7.2. Let trailing be pointer % 190.
            let trailing = (pointer % 190) as u8;
            // 7.3. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x41.
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            // 7.4. Return two bytes whose values are leading and trailing + offset.
            return S::two(leading, trailing + offset);
        }
        // 8. If is GBK is true, then return error with codePoint.
        if self.is_gbk {
            return S::error(code_point);
        }
        // 9. Set pointer to the index gb18030 ranges pointer for codePoint.
        let mut pointer = ranges_pointer(code_point);
        // 10. Let byte1 be pointer / (10 × 126 × 10).
        let byte1 = pointer / (10 * 126 * 10);
        // 11. Set pointer to pointer % (10 × 126 × 10).
        pointer %= 10 * 126 * 10;
        // 12. Let byte2 be pointer / (10 × 126).
        let byte2 = pointer / (10 * 126);
        // 13. Set pointer to pointer % (10 × 126).
        pointer %= 10 * 126;
        // 14. Let byte3 be pointer / 10.
        let byte3 = pointer / 10;
        // 15. Let byte4 be pointer % 10.
        let byte4 = pointer % 10;
        // 16. Return four bytes whose values are byte1 + 0x81, byte2 + 0x30, byte3 + 0x81,
        //     byte4 + 0x30.
        S::four([
            byte1 as u8 + 0x81,
            byte2 as u8 + 0x30,
            byte3 as u8 + 0x81,
            byte4 as u8 + 0x30,
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_run_matches_the_handler() {
        super::super::multibyte::check_utf8_run::<Gb18030Decoder>(&PAIRS_UTF8);
    }

    #[test]
    fn table_assumptions_of_the_fast_paths() {
        // `Sink::push_bmp` is for non-ASCII code points only.
        assert!(GB18030_DECODE.iter().all(|&cp| cp == 0 || cp >= 0x80));
        // Index gb18030 has no entry for U+E5E5 (step 3) or the side-table code points (step
        // 5), so step order never matters between them and the index.
        assert_eq!(GB18030_ENCODE.get(0xE5E5), None);
        for (cp, _) in PUA_SIDE_TABLE {
            assert_eq!(GB18030_ENCODE.get(cp as u32), None);
        }
        assert!(PUA_SIDE_TABLE.windows(2).all(|w| w[0].0 < w[1].0));
        // The ranges are sorted by pointer and by code point (both binary searches).
        assert!(GB18030_RANGES
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(GB18030_RANGES[0], (0, 0x80));
    }

    #[test]
    fn ranges() {
        assert_eq!(ranges_code_point(7457), Some(0xE7C7));
        assert_eq!(ranges_pointer(0xE7C7), 7457);
        assert_eq!(ranges_code_point(39419), Some(0xFFFF));
        assert_eq!(ranges_code_point(39420), None);
        assert_eq!(ranges_code_point(188999), None);
        assert_eq!(ranges_code_point(189000), Some(0x10000));
        assert_eq!(ranges_code_point(1237575), Some(0x10FFFF));
        assert_eq!(ranges_code_point(1237576), None);
        assert_eq!(ranges_pointer(0x10FFFF), 1237575);
    }
}
