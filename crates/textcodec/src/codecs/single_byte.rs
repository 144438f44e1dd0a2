//! The 28 single-byte encodings ("single-byte decoder", "single-byte encoder"), sharing one
//! decoder and one encoder over "index single-byte".

use crate::decoder::{DecodeHandler, Sink, Step};
use crate::encoder::{EncStep, EncodeHandler};
use crate::tables::single_byte::{DECODE, ENCODE};

/// The single-byte decoder: stateless but for its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleByteDecoder {
    index: &'static [u16; 128],
}

impl SingleByteDecoder {
    pub(crate) fn new(which: u8) -> Self {
        SingleByteDecoder { index: DECODE[which as usize] }
    }
}

impl DecodeHandler for SingleByteDecoder {
    // "single-byte decoder" handler.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        match self.index[byte as usize - 0x80] {
            0 => Step::ERROR,
            cp => Step::Emit(cp as u32),
        }
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
            if b < 0x80 {
                let n = sink.put_ascii_run(&src[i..]);
                if n == 0 {
                    break;
                }
                i += n;
                continue;
            }
            let cp = self.index[b as usize - 0x80];
            if cp == 0 || !sink.put(cp as u32) {
                break;
            }
            i += 1;
        }
        i
    }
}

/// The single-byte encoder: stateless but for its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleByteEncoder {
    index: &'static [(u16, u8)],
}

impl SingleByteEncoder {
    pub(crate) fn new(which: u8) -> Self {
        SingleByteEncoder { index: ENCODE[which as usize] }
    }

    /// "index pointer" + 0x80 for a non-ASCII code point.
    #[inline(always)]
    fn byte_for(&self, cp: u32) -> Option<u8> {
        let cp = u16::try_from(cp).ok()?;
        self.index.binary_search_by_key(&cp, |&(c, _)| c).ok().map(|i| self.index[i].1)
    }
}

impl EncodeHandler for SingleByteEncoder {
    // "single-byte encoder" handler.
    #[inline]
    fn handle(&mut self, cp: u32) -> EncStep {
        if cp < 0x80 {
            return EncStep::one(cp as u8);
        }
        match self.byte_for(cp) {
            Some(b) => EncStep::one(b),
            None => EncStep::Error(cp),
        }
    }

    fn ascii_is_identity(&self) -> bool {
        true
    }
}
