//! Shift_JIS ("Shift_JIS decoder", "Shift_JIS encoder", "index Shift_JIS pointer").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::{Out, Sink};
use super::multibyte::{
    run_multi, utf16_run, utf8_pair_entry, utf8_pairs, utf8_run, FastEncoder, Steps, Utf16Pairs,
    Utf8Pairs,
};
use crate::tables::index_code_point;
use crate::tables::jis0208::{JIS0208_DECODE, SHIFT_JIS_ENCODE};

/// The Shift_JIS decoder's state: "Shift_JIS leading".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShiftJisDecoder {
    leading: u8,
}

/// Steps 3.4 to 3.9 of the "Shift_JIS decoder" handler for a pair: the code point, or `None`
/// for steps 3.10-3.11 (error, restoring `byte` if it is an ASCII byte).
#[inline(always)]
fn decode_pair(leading: u8, byte: u8) -> Option<u32> {
    // 3.4. offset is 0x40 if byte is less than 0x7F, otherwise 0x41.
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    // 3.5. leadingOffset is 0x81 if leading is less than 0xA0, otherwise 0xC1.
    let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
    // 3.6. If byte is in 0x40..=0x7E or 0x80..=0xFC, pointer is
    //      (leading - leadingOffset) × 188 + byte - offset.
    if !matches!(byte, 0x40..=0x7E | 0x80..=0xFC) {
        // 3.8. codePoint is null when pointer is null.
        return None;
    }
    let pointer = (leading as usize - leading_offset) * 188 + byte as usize - offset;
    // 3.7. If pointer is in 8836..=10715, return 0xE000 - 8836 + pointer (EUDC).
    if (8836..=10715).contains(&pointer) {
        return Some((0xE000 - 8836 + pointer) as u32);
    }
    // 3.8-3.9. The index code point for pointer in index jis0208, if non-null.
    index_code_point(&JIS0208_DECODE, pointer)
}

/// `decode_pair` for every leading byte 0x81..=0xFC and every byte, precomputed
/// ([`Utf16Pairs`]): the code point, or 0 for null. The fast paths' single lookup.
static PAIRS: Utf16Pairs = {
    let mut out = [0u16; 0x8000];
    let mut leading = 0x81;
    while leading <= 0xFC {
        if leading <= 0x9F || leading >= 0xE0 {
            let mut byte = 0;
            while byte < 256 {
                let offset = if byte < 0x7F { 0x40 } else { 0x41 };
                let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
                if (byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFC) {
                    let pointer = (leading - leading_offset) * 188 + byte - offset;
                    out[(leading - 0x80) * 256 + byte] = if pointer >= 8836 && pointer <= 10715 {
                        (0xE000 - 8836 + pointer) as u16
                    } else if pointer < JIS0208_DECODE.len() {
                        JIS0208_DECODE[pointer]
                    } else {
                        0
                    };
                }
                byte += 1;
            }
        }
        leading += 1;
    }
    out
};

/// [`PAIRS`] pre-encoded in UTF-8.
static PAIRS_UTF8: Utf8Pairs = utf8_pairs(&PAIRS);

impl DecodeHandler for ShiftJisDecoder {
    // "Shift_JIS decoder" handler (steps 3 to 7; steps 1 and 2 are `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If Shift_JIS leading is not 0x00:
        if self.leading != 0x00 {
            // 3.1-3.2. Let leading be Shift_JIS leading; set Shift_JIS leading to 0x00.
            let leading = self.leading;
            self.leading = 0x00;
            // 3.3-3.9.
            if let Some(cp) = decode_pair(leading, byte) {
                return Step::Emit(cp);
            }
            // 3.10. If byte is an ASCII byte, restore byte to ioQueue.
            // 3.11. Return error.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            return Step::ERROR;
        }
        // 4. If byte is an ASCII byte or 0x80, return a code point whose value is byte.
        if byte <= 0x80 {
            return Step::Emit(byte as u32);
        }
        // 5. If byte is in 0xA1..=0xDF, return 0xFF61 - 0xA1 + byte.
        if (0xA1..=0xDF).contains(&byte) {
            return Step::Emit(0xFF61 - 0xA1 + byte as u32);
        }
        // 6. If byte is in 0x81..=0x9F or 0xE0..=0xFC: leading = byte, return continue.
        if matches!(byte, 0x81..=0x9F | 0xE0..=0xFC) {
            self.leading = byte;
            return Step::Continue;
        }
        // 7. Return error.
        Step::ERROR
    }

    fn end(&mut self) -> Step {
        // 1. End-of-queue and leading is not 0x00: leading = 0x00, return error.
        if self.leading != 0x00 {
            self.leading = 0x00;
            return Step::ERROR;
        }
        // 2. End-of-queue and leading is 0x00: return finished.
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
        match b {
            // 4. An ASCII byte or 0x80.
            0x00..=0x80 => Seq::Emit(b as u32, 1),
            // 5.
            0xA1..=0xDF => Seq::Emit(0xFF61 - 0xA1 + b as u32, 1),
            // 6, then 3 with the next byte.
            0x81..=0x9F | 0xE0..=0xFC => {
                let Some(&byte) = src.get(1) else {
                    return Seq::Bytes;
                };
                match PAIRS[(b as usize - 0x80) * 256 + byte as usize] {
                    // 3.10-3.11: an ASCII byte is restored.
                    0 => Seq::Error(if byte < 0x80 { 1 } else { 2 }),
                    cp => Seq::Emit(cp as u32, 2),
                }
            }
            // 7.
            _ => Seq::Error(1),
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.leading != 0 {
            return 0;
        }
        // Direct UTF-8 output: runs of steps 4 (ASCII), and 6 then 3 with a code point, by
        // table; and steps 4 (0x80) and 5 between them.
        let mut i = 0;
        match sink.out() {
            Out::Utf8(dst, pos) => {
                let mut w = *pos;
                loop {
                    (i, w) = utf8_run(src, i, dst, w, &PAIRS_UTF8);
                    let cp = match src.get(i) {
                        Some(0x80) => 0x80,
                        Some(&b @ 0xA1..=0xDF) => 0xFF61 - 0xA1 + b as u32,
                        _ => break,
                    };
                    if dst.len() < w + 4 {
                        break;
                    }
                    w += super::put_pair_utf8(dst, w, utf8_pair_entry(cp));
                    i += 1;
                }
                *pos = w;
            }
            Out::Utf16(dst, pos) => {
                // The same for direct UTF-16 output.
                let mut w = *pos;
                loop {
                    (i, w) = utf16_run(src, i, dst, w, &PAIRS);
                    let unit = match src.get(i) {
                        Some(0x80) => 0x80,
                        Some(&b @ 0xA1..=0xDF) => 0xFF61 - 0xA1 + b as u16,
                        _ => break,
                    };
                    let Some(d) = dst.get_mut(w) else {
                        break;
                    };
                    *d = unit;
                    w += 1;
                    i += 1;
                }
                *pos = w;
            }
        }
        // What is left (near the end of the room).
        i + run_multi(&src[i..], sink, |src, i| {
            let b = src[i];
            match b {
                // Step 6 then step 3 with a code point.
                0x81..=0x9F | 0xE0..=0xFC => {
                    match PAIRS[(b as usize - 0x80) * 256 + *src.get(i + 1)? as usize] {
                        0 => None,
                        cp => Some((cp as u32, 2)),
                    }
                }
                // Step 5.
                0xA1..=0xDF => Some((0xFF61 - 0xA1 + b as u32, 1)),
                // Step 4 (0x80; ASCII is handled by `run_multi`).
                0x80 => Some((0x80, 1)),
                _ => None,
            }
        })
    }
}

/// The Shift_JIS encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShiftJisEncoder;

impl FastEncoder for ShiftJisEncoder {
    // Index jis0208 has no supplementary code points.
    const SUPPLEMENTARY: bool = false;

    // "Shift_JIS encoder" handler (step 1, end-of-queue, is the default `end_of_queue`).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 2. If codePoint is an ASCII code point or U+0080, return a byte whose value is
        //    codePoint (an ASCII code point: the blanket `EncodeHandler`'s).
        if code_point == 0x80 {
            return S::one(0x80);
        }
        // 3. U+00A5 (¥) -> byte 0x5C.
        if code_point == 0xA5 {
            return S::one(0x5C);
        }
        // 4. U+203E (‾) -> byte 0x7E.
        if code_point == 0x203E {
            return S::one(0x7E);
        }
        // 5. U+FF61..=U+FF9F -> byte codePoint - 0xFF61 + 0xA1.
        if (0xFF61..=0xFF9F).contains(&code_point) {
            return S::one((code_point - 0xFF61 + 0xA1) as u8);
        }
        // 6. U+2212 (−) is set to U+FF0D (－).
        let code_point = if code_point == 0x2212 {
            0xFF0D
        } else {
            code_point
        };
        // 7. pointer: the index Shift_JIS pointer for codePoint (index jis0208 without the
        //    pointers 8272..=8835).
        // 8. If pointer is null, return error with codePoint (U+FF0D always has a pointer).
        let Some(pointer) = SHIFT_JIS_ENCODE.get(code_point) else {
            return S::error(code_point);
        };
        // 9. leading = pointer / 188.
        let leading = pointer / 188;
        // 10. leadingOffset = 0x81 if leading is less than 0x1F, otherwise 0xC1.
        let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
        // 11. trailing = pointer % 188.
        let trailing = pointer % 188;
        // 12. offset = 0x40 if trailing is less than 0x3F, otherwise 0x41.
        let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
        // 13. Return leading + leadingOffset, trailing + offset.
        S::two((leading + leading_offset) as u8, (trailing + offset) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_run_matches_the_handler() {
        super::super::multibyte::check_utf8_run::<ShiftJisDecoder>(&PAIRS_UTF8);
    }
}
