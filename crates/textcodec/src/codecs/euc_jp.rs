//! EUC-JP ("EUC-JP decoder", "EUC-JP encoder").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::Sink;
use super::multibyte::{run_multi, FastEncoder, Steps};
use crate::tables::index_code_point;
use crate::tables::jis0208::{JIS0208_DECODE, JIS0208_ENCODE};
use crate::tables::jis0212::JIS0212_DECODE;

/// The EUC-JP decoder's state: "EUC-JP jis0212" and "EUC-JP leading".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpDecoder {
    jis0212: bool,
    leading: u8,
}

/// The jis0208 code point for the EUC-JP pair (`leading`, `trailing`), both in 0xA1..=0xFE.
#[inline(always)]
fn jis0208_pair(leading: u8, trailing: u8) -> Option<u32> {
    index_code_point(
        &JIS0208_DECODE,
        (leading as usize - 0xA1) * 94 + trailing as usize - 0xA1,
    )
}

impl DecodeHandler for EucJpDecoder {
    // "EUC-JP decoder" handler (steps 3 to 8; steps 1 and 2 are `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If leading is 0x8E and byte is in 0xA1..=0xDF: leading = 0x00, return
        //    0xFF61 - 0xA1 + byte (half-width katakana).
        if self.leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            self.leading = 0x00;
            return Step::Emit(0xFF61 - 0xA1 + byte as u32);
        }
        // 4. If leading is 0x8F and byte is in 0xA1..=0xFE: jis0212 = true, leading = byte,
        //    return continue.
        if self.leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            self.jis0212 = true;
            self.leading = byte;
            return Step::Continue;
        }
        // 5. If leading is not 0x00:
        if self.leading != 0x00 {
            // 5.1-5.2. Let leading be EUC-JP leading; set EUC-JP leading to 0x00.
            let leading = self.leading;
            self.leading = 0x00;
            // 5.3-5.4. codePoint: if leading and byte are both in 0xA1..=0xFE, the index code
            //          point for (leading - 0xA1) × 94 + byte - 0xA1 in index jis0208 (jis0212
            //          false) or index jis0212 (jis0212 true).
            let mut code_point = None;
            if (0xA1..=0xFE).contains(&leading) && (0xA1..=0xFE).contains(&byte) {
                let pointer = (leading as usize - 0xA1) * 94 + byte as usize - 0xA1;
                code_point = if self.jis0212 {
                    index_code_point(&JIS0212_DECODE, pointer)
                } else {
                    index_code_point(&JIS0208_DECODE, pointer)
                };
            }
            // 5.5. Set jis0212 to false.
            self.jis0212 = false;
            // 5.6. If codePoint is non-null, return it.
            if let Some(cp) = code_point {
                return Step::Emit(cp);
            }
            // 5.7. If byte is an ASCII byte, restore byte to ioQueue.
            // 5.8. Return error.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            return Step::ERROR;
        }
        // 6. If byte is an ASCII byte, return a code point whose value is byte.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 7. If byte is 0x8E, 0x8F, or in 0xA1..=0xFE: leading = byte, return continue.
        if byte == 0x8E || byte == 0x8F || (0xA1..=0xFE).contains(&byte) {
            self.leading = byte;
            return Step::Continue;
        }
        // 8. Return error.
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
        match (self.leading, self.jis0212) {
            (0, _) => 0,
            (_, true) => 2,
            _ => 1,
        }
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        if self.leading != 0 || self.jis0212 {
            return Seq::Bytes;
        }
        let leading = src[0];
        // 6.
        if leading < 0x80 {
            return Seq::Emit(leading as u32, 1);
        }
        // 8.
        if !(leading == 0x8E || leading == 0x8F || (0xA1..=0xFE).contains(&leading)) {
            return Seq::Error(1);
        }
        // 7: EUC-JP leading, then the next byte.
        let Some(&byte) = src.get(1) else {
            return Seq::Bytes;
        };
        // 3.
        if leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            return Seq::Emit(0xFF61 - 0xA1 + byte as u32, 2);
        }
        // 4: jis0212, and the next byte is leading; then 5 with the third byte.
        if leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            let Some(&third) = src.get(2) else {
                return Seq::Bytes;
            };
            if (0xA1..=0xFE).contains(&third) {
                let pointer = (byte as usize - 0xA1) * 94 + third as usize - 0xA1;
                if let Some(cp) = index_code_point(&JIS0212_DECODE, pointer) {
                    return Seq::Emit(cp, 3);
                }
            }
            // 5.7-5.8: an ASCII byte is restored.
            return Seq::Error(if third < 0x80 { 2 } else { 3 });
        }
        // 5.
        if (0xA1..=0xFE).contains(&leading) && (0xA1..=0xFE).contains(&byte) {
            if let Some(cp) = jis0208_pair(leading, byte) {
                return Seq::Emit(cp, 2);
            }
        }
        // 5.7-5.8: an ASCII byte is restored.
        Seq::Error(if byte < 0x80 { 1 } else { 2 })
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        // Only from the initial state. (End-of-queue step 1 leaves jis0212 as it is; nothing
        // follows end-of-queue in the spec, but a caller continuing after a fatal error there
        // gets the handler's behaviour.)
        if self.leading != 0 || self.jis0212 {
            return 0;
        }
        // Step 6 (ASCII), and the sequences steps 7, 3, 4 and 5 decode to a code point.
        run_multi(src, sink, |src, i| {
            let b = src[i];
            match b {
                // Step 7 then step 5 with a jis0208 code point.
                0xA1..=0xFE => {
                    let t = *src.get(i + 1)?;
                    if !(0xA1..=0xFE).contains(&t) {
                        return None;
                    }
                    Some((jis0208_pair(b, t)?, 2))
                }
                // Step 7 then step 3.
                0x8E => {
                    let t = *src.get(i + 1)?;
                    if !(0xA1..=0xDF).contains(&t) {
                        return None;
                    }
                    Some((0xFF61 - 0xA1 + t as u32, 2))
                }
                // Step 7, step 4, then step 5 with a jis0212 code point.
                0x8F => {
                    let (l, t) = (*src.get(i + 1)?, *src.get(i + 2)?);
                    if !(0xA1..=0xFE).contains(&l) || !(0xA1..=0xFE).contains(&t) {
                        return None;
                    }
                    let pointer = (l as usize - 0xA1) * 94 + t as usize - 0xA1;
                    Some((index_code_point(&JIS0212_DECODE, pointer)?, 3))
                }
                _ => None,
            }
        })
    }
}

/// The EUC-JP encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpEncoder;

impl FastEncoder for EucJpEncoder {
    // Index jis0208 has no supplementary code points.
    const SUPPLEMENTARY: bool = false;

    // "EUC-JP encoder" handler from step 3 (step 1, end-of-queue, is the default `end_of_queue`; step 2, ASCII, the blanket `EncodeHandler`'s).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 3. U+00A5 (¥) -> byte 0x5C.
        if code_point == 0xA5 {
            return S::one(0x5C);
        }
        // 4. U+203E (‾) -> byte 0x7E.
        if code_point == 0x203E {
            return S::one(0x7E);
        }
        // 5. U+FF61..=U+FF9F -> 0x8E, codePoint - 0xFF61 + 0xA1.
        if (0xFF61..=0xFF9F).contains(&code_point) {
            return S::two(0x8E, (code_point - 0xFF61 + 0xA1) as u8);
        }
        // 6. U+2212 (−) is set to U+FF0D (－).
        let code_point = if code_point == 0x2212 {
            0xFF0D
        } else {
            code_point
        };
        // 7. pointer: the index pointer for codePoint in index jis0208.
        // 8. If pointer is null, return error with codePoint (U+FF0D always has a pointer, so
        //    the substitution never reaches an error).
        let Some(pointer) = JIS0208_ENCODE.get(code_point) else {
            return S::error(code_point);
        };
        // 9-11. leading = pointer / 94 + 0xA1, trailing = pointer % 94 + 0xA1.
        S::two((pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8)
    }
}
