//! EUC-KR ("EUC-KR decoder", "EUC-KR encoder").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::{Out, Sink};
use super::multibyte::{run_multi, utf8_pair_entry, utf8_run, FastEncoder, Steps, Utf8Pairs};
use crate::tables::euc_kr::{EUC_KR_DECODE, EUC_KR_ENCODE};
use crate::tables::index_code_point;

/// The EUC-KR decoder's state: "EUC-KR leading".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucKrDecoder {
    leading: u8,
}

/// Steps 3.3 to 3.6 of the "EUC-KR decoder" handler: the code point for (`leading`, `byte`),
/// or `None` (steps 3.7-3.8).
#[inline(always)]
fn decode_pair(leading: u8, byte: u8) -> Option<u32> {
    // 3.4. If byte is in 0x41..=0xFE, pointer is (leading - 0x81) × 190 + (byte - 0x41).
    if !(0x41..=0xFE).contains(&byte) {
        // 3.5. codePoint is null when pointer is null.
        return None;
    }
    let pointer = (leading as usize - 0x81) * 190 + (byte as usize - 0x41);
    // 3.5-3.6. The index code point for pointer in index EUC-KR, if non-null.
    index_code_point(&EUC_KR_DECODE, pointer)
}

/// Steps 5 and 3.1 to 3.6 pre-encoded in UTF-8 for every leading and trailing byte
/// ([`Utf8Pairs`]).
static PAIRS_UTF8: Utf8Pairs = {
    let mut out = [0u32; 0x8000];
    let mut leading = 0x81;
    while leading <= 0xFE {
        let mut byte = 0x41;
        while byte <= 0xFE {
            let pointer = (leading - 0x81) * 190 + (byte - 0x41);
            if pointer < EUC_KR_DECODE.len() {
                out[(leading - 0x80) * 256 + byte] = utf8_pair_entry(EUC_KR_DECODE[pointer] as u32);
            }
            byte += 1;
        }
        leading += 1;
    }
    out
};

impl DecodeHandler for EucKrDecoder {
    // "EUC-KR decoder" handler (steps 3 to 6; steps 1 and 2 are `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If EUC-KR leading is not 0x00:
        if self.leading != 0x00 {
            // 3.1-3.2. Let leading be EUC-KR leading; set EUC-KR leading to 0x00.
            let leading = self.leading;
            self.leading = 0x00;
            // 3.3-3.6.
            if let Some(cp) = decode_pair(leading, byte) {
                return Step::Emit(cp);
            }
            // 3.7. If byte is an ASCII byte, restore byte to ioQueue.
            // 3.8. Return error.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            return Step::ERROR;
        }
        // 4. If byte is an ASCII byte, return a code point whose value is byte.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 5. If byte is in 0x81..=0xFE: leading = byte, return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.leading = byte;
            return Step::Continue;
        }
        // 6. Return error.
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
        match decode_pair(b, byte) {
            Some(cp) => Seq::Emit(cp, 2),
            // 3.7-3.8: an ASCII byte is restored.
            None => Seq::Error(if byte < 0x80 { 1 } else { 2 }),
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.leading != 0 {
            return 0;
        }
        // Direct UTF-8 output: steps 4, and 5 then 3 with a code point, by table.
        let mut i = 0;
        if let Out::Utf8(dst, pos) = sink.out() {
            let w;
            (i, w) = utf8_run(src, 0, dst, *pos, &PAIRS_UTF8);
            *pos = w;
        }
        // Steps 4, then 5 and 3 with a code point (what is left: near the end of the room).
        i + run_multi(&src[i..], sink, |src, i| {
            let b = src[i];
            if !(0x81..=0xFE).contains(&b) {
                return None;
            }
            Some((decode_pair(b, *src.get(i + 1)?)?, 2))
        })
    }
}

/// The EUC-KR encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucKrEncoder;

impl FastEncoder for EucKrEncoder {
    // Index EUC-KR has no supplementary code points.
    const SUPPLEMENTARY: bool = false;

    // "EUC-KR encoder" handler from step 3 (step 1, end-of-queue, is the default `end_of_queue`; step 2, ASCII, the blanket `EncodeHandler`'s).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 3. pointer: the index pointer for codePoint in index EUC-KR.
        // 4. If pointer is null, return error with codePoint.
        let Some(pointer) = EUC_KR_ENCODE.get(code_point) else {
            return S::error(code_point);
        };
        // 5-7. leading = pointer / 190 + 0x81, trailing = pointer % 190 + 0x41.
        S::two((pointer / 190 + 0x81) as u8, (pointer % 190 + 0x41) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_run_matches_the_handler() {
        super::super::multibyte::check_utf8_run::<EucKrDecoder>(&PAIRS_UTF8);
    }
}
