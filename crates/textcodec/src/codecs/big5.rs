//! SCAFFOLD (temporary, being replaced now): ASCII only.

use crate::decoder::{DecodeHandler, Step};
use crate::encoder::{EncStep, EncodeHandler};

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Decoder;

impl DecodeHandler for Big5Decoder {
    fn handle(&mut self, byte: u8) -> Step {
        if byte < 0x80 {
            Step::Emit(byte as u32)
        } else {
            Step::ERROR
        }
    }
    fn end(&mut self) -> Step {
        Step::Finished
    }
    fn held(&self) -> usize {
        0
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Encoder;

impl EncodeHandler for Big5Encoder {
    fn handle(&mut self, cp: u32) -> EncStep {
        if cp < 0x80 {
            EncStep::one(cp as u8)
        } else {
            EncStep::Error(cp)
        }
    }
    fn ascii_is_identity(&self) -> bool {
        true
    }
}
