//! UTF-16BE and UTF-16LE decoding ("shared UTF-16 decoder"). There is no UTF-16 encoder in
//! the spec: their output encoding is UTF-8.

use crate::decoder::{DecodeHandler, Sink, Step};

/// The shared UTF-16 decoder's state: "UTF-16 leading byte", "UTF-16 leading surrogate" and
/// "is UTF-16BE decoder".
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf16Decoder {
    leading_byte: Option<u8>,
    leading_surrogate: Option<u16>,
    is_be: bool,
}

impl Utf16Decoder {
    pub(crate) fn new(is_be: bool) -> Self {
        Utf16Decoder { leading_byte: None, leading_surrogate: None, is_be }
    }

    #[inline(always)]
    fn unit(&self, first: u8, second: u8) -> u16 {
        if self.is_be {
            u16::from_be_bytes([first, second])
        } else {
            u16::from_le_bytes([first, second])
        }
    }
}

impl DecodeHandler for Utf16Decoder {
    // "shared UTF-16 decoder" handler.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        let Some(leading_byte) = self.leading_byte else {
            self.leading_byte = Some(byte);
            return Step::Continue;
        };
        let code_unit = self.unit(leading_byte, byte);
        self.leading_byte = None;
        if let Some(leading) = self.leading_surrogate.take() {
            if (0xDC00..0xE000).contains(&code_unit) {
                let cp = 0x10000 + ((leading as u32 - 0xD800) << 10) + (code_unit as u32 - 0xDC00);
                return Step::Emit(cp);
            }
            // "Restore bytes to ioQueue and return error": the two bytes of the code unit, in
            // input order.
            return Step::Error { n: 2, bytes: [leading_byte, byte, 0] };
        }
        if (0xD800..0xDC00).contains(&code_unit) {
            self.leading_surrogate = Some(code_unit);
            return Step::Continue;
        }
        if (0xDC00..0xE000).contains(&code_unit) {
            return Step::ERROR;
        }
        Step::Emit(code_unit as u32)
    }

    fn end(&mut self) -> Step {
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            self.leading_byte = None;
            self.leading_surrogate = None;
            return Step::ERROR;
        }
        Step::Finished
    }

    fn held(&self) -> usize {
        usize::from(self.leading_byte.is_some()) + 2 * usize::from(self.leading_surrogate.is_some())
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            return 0;
        }
        let mut i = 0;
        while i + 2 <= src.len() {
            let u = self.unit(src[i], src[i + 1]);
            if (0xD800..0xE000).contains(&u) {
                if u >= 0xDC00 || i + 4 > src.len() {
                    break;
                }
                let t = self.unit(src[i + 2], src[i + 3]);
                if !(0xDC00..0xE000).contains(&t) {
                    break;
                }
                let cp = 0x10000 + ((u as u32 - 0xD800) << 10) + (t as u32 - 0xDC00);
                if !sink.put(cp) {
                    break;
                }
                i += 4;
            } else {
                if !sink.put(u as u32) {
                    break;
                }
                i += 2;
            }
        }
        i
    }
}
