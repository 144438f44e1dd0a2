//! x-user-defined ("x-user-defined decoder", "x-user-defined encoder").

use crate::decoder::{DecodeHandler, Sink, Step};
use crate::encoder::{EncStep, EncodeHandler};

/// The x-user-defined decoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedDecoder;

impl DecodeHandler for XUserDefinedDecoder {
    // "x-user-defined decoder" handler.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        Step::Emit(0xF780 + byte as u32 - 0x80)
    }

    fn end(&mut self) -> Step {
        Step::Finished
    }

    fn held(&self) -> usize {
        0
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        let mut i = 0;
        while i < src.len() {
            let b = src[i];
            let cp = if b < 0x80 {
                b as u32
            } else {
                0xF780 + b as u32 - 0x80
            };
            if !sink.put(cp) {
                break;
            }
            i += 1;
        }
        i
    }
}

/// The x-user-defined encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedEncoder;

impl EncodeHandler for XUserDefinedEncoder {
    // "x-user-defined encoder" handler.
    #[inline]
    fn handle(&mut self, cp: u32) -> EncStep {
        if cp < 0x80 {
            return EncStep::one(cp as u8);
        }
        if (0xF780..=0xF7FF).contains(&cp) {
            return EncStep::one((cp - 0xF780 + 0x80) as u8);
        }
        EncStep::Error(cp)
    }

    fn ascii_is_identity(&self) -> bool {
        true
    }
}
