//! UTF-16BE and UTF-16LE decoding ("shared UTF-16 decoder"). There is no UTF-16 encoder in
//! the spec: their output encoding is UTF-8.

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::{Out, Sink};

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
        Utf16Decoder {
            leading_byte: None,
            leading_surrogate: None,
            is_be,
        }
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

/// UTF-16 (big-endian if `BE`) to UTF-8 over valid input; returns the bytes read (stops
/// before a lone surrogate, an incomplete unit or pair, or a character that does not fit).
#[inline(always)]
pub(crate) fn utf16_to_utf8<const BE: bool>(src: &[u8], dst: &mut [u8], pos: &mut usize) -> usize {
    #[inline(always)]
    fn unit<const BE: bool>(pair: &[u8]) -> u32 {
        let pair = [pair[0], pair[1]];
        (if BE {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }) as u32
    }
    let mut i = 0;
    let mut o = *pos;
    // While there is room for the worst case of a unit (3 bytes) or a pair (4), one check.
    while i + 2 <= src.len() && o + 4 <= dst.len() {
        let (r, w) = crate::simd::utf16_bytes_to_utf8::<BE>(&src[i..], &mut dst[o..]);
        i += r;
        o += w;
        if i + 2 > src.len() || o + 4 > dst.len() {
            break;
        }
        let u = unit::<BE>(&src[i..i + 2]);
        if u < 0x80 {
            if i + 4 <= src.len() && unit::<BE>(&src[i + 2..i + 4]) < 0x80 {
                // A run of ASCII.
                let k = crate::simd::copy_utf16_bytes_ascii::<BE>(&src[i..], &mut dst[o..]);
                o += k;
                i += 2 * k;
                continue;
            }
            dst[o] = u as u8;
            o += 1;
            i += 2;
            continue;
        }
        let out: &mut [u8; 4] = (&mut dst[o..o + 4]).try_into().unwrap();
        if u < 0x800 {
            out[0] = 0xC0 | (u >> 6) as u8;
            out[1] = 0x80 | (u & 0x3F) as u8;
            o += 2;
            i += 2;
        } else if !(0xD800..0xE000).contains(&u) {
            out[0] = 0xE0 | (u >> 12) as u8;
            out[1] = 0x80 | ((u >> 6) & 0x3F) as u8;
            out[2] = 0x80 | (u & 0x3F) as u8;
            o += 3;
            i += 2;
        } else {
            if u >= 0xDC00 || i + 4 > src.len() {
                break;
            }
            let t = unit::<BE>(&src[i + 2..i + 4]);
            if !(0xDC00..0xE000).contains(&t) {
                break;
            }
            let cp = 0x10000 + ((u - 0xD800) << 10) + (t - 0xDC00);
            out[0] = 0xF0 | (cp >> 18) as u8;
            out[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
            out[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[3] = 0x80 | (cp & 0x3F) as u8;
            o += 4;
            i += 4;
        }
    }
    *pos = o;
    // The last few characters, with exact room checks, go through the general path.
    i
}

/// Copies code units that are not surrogates, eight at a time, into `dst`; returns the bytes
/// read (even). Surrogates and the last few units are left to the general loop.
#[inline(always)]
fn copy_units<const BE: bool>(src: &[u8], dst: &mut [u16]) -> usize {
    let mut i = 0;
    let mut o = 0;
    while i + 16 <= src.len() && o + 8 <= dst.len() {
        let block: &[u8; 16] = src[i..i + 16].try_into().unwrap();
        let units: [u16; 8] = core::array::from_fn(|k| {
            let pair = [block[2 * k], block[2 * k + 1]];
            if BE {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            }
        });
        if units.iter().fold(false, |s, &u| s | (u & 0xF800 == 0xD800)) {
            break;
        }
        dst[o..o + 8].copy_from_slice(&units);
        i += 16;
        o += 8;
    }
    i
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
            return Step::Error {
                n: 2,
                bytes: [leading_byte, byte, 0],
            };
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
    fn sequence(&mut self, src: &[u8]) -> Seq {
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            return Seq::Bytes;
        }
        let (Some(&first), Some(&second)) = (src.first(), src.get(1)) else {
            return Seq::Bytes;
        };
        let code_unit = self.unit(first, second);
        if !(0xD800..0xE000).contains(&code_unit) {
            return Seq::Emit(code_unit as u32, 2);
        }
        if code_unit >= 0xDC00 {
            // A trailing surrogate alone.
            return Seq::Error(2);
        }
        // A leading surrogate, then the next code unit.
        let (Some(&third), Some(&fourth)) = (src.get(2), src.get(3)) else {
            return Seq::Bytes;
        };
        let next = self.unit(third, fourth);
        if (0xDC00..0xE000).contains(&next) {
            let cp = 0x10000 + ((code_unit as u32 - 0xD800) << 10) + (next as u32 - 0xDC00);
            return Seq::Emit(cp, 4);
        }
        // The next code unit's two bytes are restored.
        Seq::Error(2)
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            return 0;
        }
        match sink.out() {
            Out::Utf8(dst, pos) => {
                return if self.is_be {
                    utf16_to_utf8::<true>(src, dst, pos)
                } else {
                    utf16_to_utf8::<false>(src, dst, pos)
                };
            }
            Out::Utf16(dst, pos) => {
                let n = if self.is_be {
                    copy_units::<true>(src, &mut dst[*pos..])
                } else {
                    copy_units::<false>(src, &mut dst[*pos..])
                };
                *pos += n / 2;
                if n != 0 {
                    return n;
                }
            }
        }
        // UTF-16 output only, where the block copy stopped at once (a surrogate in its first
        // block, or less than a block left): one code unit or surrogate pair at a time.
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
