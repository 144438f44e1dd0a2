//! Big5 ("Big5 decoder", "Big5 encoder").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::Sink;
use super::multibyte::{
    run_out, utf8_pair_entry, FastEncoder, FastPath, PairSink, Steps, Utf8Pairs,
};
use crate::tables::big5::{BIG5_DECODE, BIG5_ENCODE, BIG5_ENCODE_ASTRAL};

/// The pointer of the decoder's steps 3.3 to 3.5: `None` unless `byte` is in the range 0x40 to
/// 0x7E or 0xA1 to 0xFE (`leading` is 0x81 to 0xFE).
#[inline(always)]
fn pointer_for(leading: u8, byte: u8) -> Option<usize> {
    // 4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x62.
    let offset = if byte < 0x7F { 0x40 } else { 0x62 };
    // 5. If byte is in the range 0x40 to 0x7E, inclusive, or 0xA1 to 0xFE, inclusive, then set
    //    pointer to (leading − 0x81) × 157 + (byte − offset).
    if (0x40..=0x7E).contains(&byte) || (0xA1..=0xFE).contains(&byte) {
        Some((leading as usize - 0x81) * 157 + (byte as usize - offset))
    } else {
        None
    }
}

/// The two code points of the decoder's step 3.6 table, for `pointer`.
#[inline(always)]
fn two_code_points(pointer: usize) -> Option<(u32, u32)> {
    match pointer {
        1133 => Some((0x00CA, 0x0304)),
        1135 => Some((0x00CA, 0x030C)),
        1164 => Some((0x00EA, 0x0304)),
        1166 => Some((0x00EA, 0x030C)),
        _ => None,
    }
}

/// The Big5 decoder's state: "Big5 leading" (0x00: unset).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Decoder {
    leading: u8,
}

impl DecodeHandler for Big5Decoder {
    // "Big5 decoder" handler (steps 3 to 6; 1 and 2 are in `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If Big5 leading is not 0x00:
        if self.leading != 0x00 {
            // 3.1. Let leading be Big5 leading.
            let leading = self.leading;
            // 3.2. Set Big5 leading to 0x00.
            self.leading = 0x00;
            // 3.3 to 3.5. Let pointer be null; offset; pointer (see `pointer_for`).
            let pointer = pointer_for(leading, byte);
            if let Some(p) = pointer {
                // 3.6. If there is a row in the table whose first column is pointer, then
                //      return the two code points listed in its second column.
                if let Some((a, b)) = two_code_points(p) {
                    return Step::Emit2(a, b);
                }
            }
            // 3.7. Let codePoint be null if pointer is null; otherwise the index code point for
            //      pointer in index Big5 (0 in the table: null).
            let code_point = pointer.map_or(0, |p| BIG5_DECODE[p]);
            // 3.8. If codePoint is non-null, then return a code point whose value is codePoint.
            if code_point != 0 {
                return Step::Emit(code_point);
            }
            // 3.9. If byte is an ASCII byte, restore byte to ioQueue.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            // 3.10. Return error.
            return Step::ERROR;
        }
        // 4. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 5. If byte is in the range 0x81 to 0xFE, inclusive, then set Big5 leading to byte and
        //    return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.leading = byte;
            return Step::Continue;
        }
        // 6. Return error.
        Step::ERROR
    }

    fn end(&mut self) -> Step {
        // 1. If byte is end-of-queue and Big5 leading is not 0x00, then set Big5 leading to
        //    0x00 and return error.
        if self.leading != 0x00 {
            self.leading = 0x00;
            return Step::ERROR;
        }
        // 2. If byte is end-of-queue and Big5 leading is 0x00, then return finished.
        Step::Finished
    }

    fn held(&self) -> usize {
        usize::from(self.leading != 0)
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        if self.leading != 0 {
            return Seq::Bytes;
        }
        let b = src[0];
        // 4.
        if b < 0x80 {
            return Seq::Emit(b as u32, 1);
        }
        // 6.
        if !(0x81..=0xFE).contains(&b) {
            return Seq::Error(1);
        }
        // 5, then 3 with the next byte.
        let Some(&byte) = src.get(1) else {
            return Seq::Bytes;
        };
        let trail = TRAIL_INDEX[byte as usize];
        if trail != NO_TRAIL {
            let pointer = (b as usize - 0x81) * 157 + trail as usize;
            let cp = BIG5_DECODE[pointer];
            if cp != 0 {
                // 3.8 (none of the step 3.6 pointers has an index entry).
                return Seq::Emit(cp, 2);
            }
            if two_code_points(pointer).is_some() {
                // 3.6: two code points.
                return Seq::Bytes;
            }
        }
        // 3.9-3.10: an ASCII byte is restored.
        Seq::Error(if byte < 0x80 { 1 } else { 2 })
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.leading != 0 {
            return 0;
        }
        run_out::<Big5Fast, S>(src, sink)
    }
}

/// The Big5 decoder's fast path from the initial state: ASCII runs (step 4) and valid
/// two-byte sequences (steps 5 and 3.1 to 3.8). Stops before anything else: an error, a
/// sequence not complete in `src`, or less than one worst-case step of room.
struct Big5Fast;

impl FastPath for Big5Fast {
    #[inline(always)]
    fn run<O: PairSink>(src: &[u8], out: &mut O) -> usize {
        let len = src.len();
        let mut i = 0;
        'run: while i < len {
            // Runs of ASCII and two-byte sequences (direct UTF-8 output).
            let j = out.pairs(src, i, &PAIRS_UTF8, None);
            if j != i {
                i = j;
                continue;
            }
            // Two-byte sequences, one after the other where the output is UTF-16 (no pair
            // table for it), one at a time where `pairs` takes the next ones.
            // (`i < len - 1`, not `i + 1 < len`: then neither index is checked.)
            while i < len - 1 {
                let lead = src[i].wrapping_sub(0x81);
                if lead >= 0x7E {
                    break;
                }
                let trail = TRAIL_INDEX[src[i + 1] as usize];
                if trail == NO_TRAIL || !out.room4() {
                    return i;
                }
                let pointer = lead as usize * 157 + trail as usize;
                let cp = BIG5_DECODE[pointer];
                if cp == 0 {
                    // An error, or one of step 3.6's four pointers (two code points, rare):
                    // both left to the handler.
                    return i;
                }
                // None of the step 3.6 pointers has an index entry, so a non-null code point
                // means the table did not apply.
                debug_assert!(two_code_points(pointer).is_none());
                if cp < 0x10000 {
                    out.push_bmp(cp as u16);
                } else {
                    out.push(cp);
                }
                i += 2;
                if O::units(0x80) != 1 {
                    continue 'run;
                }
            }
            let Some(&b) = src.get(i) else {
                break;
            };
            if b >= 0x80 {
                break;
            }
            let n = out.ascii(&src[i..]);
            if n == 0 {
                break;
            }
            i += n;
        }
        i
    }
}

/// Marks a byte that is no trail byte in [`TRAIL_INDEX`].
const NO_TRAIL: u8 = 0xFF;

/// `byte − offset` of the decoder's steps 3.4 and 3.5 for a byte in the range 0x40 to 0x7E or
/// 0xA1 to 0xFE, [`NO_TRAIL`] for any other byte.
static TRAIL_INDEX: [u8; 256] = {
    let mut t = [NO_TRAIL; 256];
    let mut b = 0x40;
    while b <= 0xFE {
        if b < 0x7F {
            t[b] = (b - 0x40) as u8;
        } else if b >= 0xA1 {
            t[b] = (b - 0x62) as u8;
        }
        b += 1;
    }
    t
};

/// Steps 5 and 3.1 to 3.8 pre-encoded in UTF-8 for every leading and trailing byte
/// ([`Utf8Pairs`]): the index Big5 code point of the pointer, where it is in the BMP.
static PAIRS_UTF8: Utf8Pairs = {
    let mut out = [0u32; 0x8000];
    let mut lead = 0x81;
    while lead <= 0xFE {
        let mut b = 0;
        while b < 256 {
            if TRAIL_INDEX[b] != NO_TRAIL {
                let pointer = (lead - 0x81) * 157 + TRAIL_INDEX[b] as usize;
                out[(lead - 0x80) * 256 + b] = utf8_pair_entry(BIG5_DECODE[pointer]);
            }
            b += 1;
        }
        lead += 1;
    }
    out
};

/// "index Big5 pointer" for `code_point` (the tables apply the rule: HKSCS pointers excluded,
/// the last pointer for U+2550, U+255E, U+2561, U+256A, U+5341 and U+5345).
#[inline(always)]
fn big5_pointer(code_point: u32) -> Option<u16> {
    if code_point <= 0xFFFF {
        BIG5_ENCODE.get(code_point)
    } else {
        BIG5_ENCODE_ASTRAL
            .binary_search_by_key(&code_point, |&(c, _)| c)
            .ok()
            .map(|i| BIG5_ENCODE_ASTRAL[i].1)
    }
}

/// The Big5 encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Encoder;

impl FastEncoder for Big5Encoder {
    // Index Big5 has supplementary code points.
    const SUPPLEMENTARY: bool = true;

    // "Big5 encoder" handler from step 3 (step 1, end-of-queue, is the default `end_of_queue`; step 2, ASCII, the blanket `EncodeHandler`'s).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 3. Let pointer be the index Big5 pointer for codePoint.
        // 4. If pointer is null, then return error with codePoint.
        let Some(pointer) = big5_pointer(code_point) else {
            return S::error(code_point);
        };
        // 5. Let leading be pointer / 157 + 0x81.
        let leading = (pointer / 157) as u8 + 0x81;
        // 6. Let trailing be pointer % 157.
        let trailing = (pointer % 157) as u8;
        // 7. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x62.
        let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
        // 8. Return two bytes whose values are leading and trailing + offset.
        S::two(leading, trailing + offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_run_matches_the_handler() {
        super::super::multibyte::check_utf8_run::<Big5Decoder>(&PAIRS_UTF8);
    }

    #[test]
    fn table_assumptions_of_the_fast_path() {
        // No step 3.6 pointer has an index entry; `Sink::push_bmp` is for non-ASCII only.
        for p in [1133, 1135, 1164, 1166] {
            assert_eq!(BIG5_DECODE[p], 0);
        }
        assert!(BIG5_DECODE.iter().all(|&cp| cp == 0 || cp >= 0x80));
        assert!(BIG5_ENCODE_ASTRAL.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
