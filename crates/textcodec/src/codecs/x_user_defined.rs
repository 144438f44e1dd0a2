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
        if let Some((dst, pos)) = sink.utf16_parts() {
            // Every byte decodes: one code unit each.
            let n = src.len().min(dst.len() - *pos);
            for (d, &b) in dst[*pos..*pos + n].iter_mut().zip(&src[..n]) {
                *d = if b < 0x80 {
                    b as u16
                } else {
                    0xF780 + b as u16 - 0x80
                };
            }
            *pos += n;
            return n;
        }
        if let Some((dst, pos)) = sink.utf8_parts() {
            let (mut i, mut o) = (0, *pos);
            while i < src.len() {
                let b = src[i];
                if b < 0x80 {
                    let k = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[o..]);
                    if k == 0 {
                        break;
                    }
                    i += k;
                    o += k;
                    continue;
                }
                // U+F780 + b - 0x80 is EF 9E/9F xx in UTF-8.
                let Some(out) = dst.get_mut(o..o + 3) else {
                    break;
                };
                let cp = 0xF780 + b as u32 - 0x80;
                out[0] = 0xEF;
                out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
                out[2] = 0x80 | (cp & 0x3F) as u8;
                i += 1;
                o += 3;
            }
            *pos = o;
            return i;
        }
        0
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

    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        let src = src.as_bytes();
        let (mut r, mut w) = (0, 0);
        while r < src.len() && w < dst.len() {
            let b = src[r];
            if b < 0x80 {
                let k = crate::simd::copy_ascii_to_ascii(&src[r..], &mut dst[w..]);
                r += k;
                w += k;
                continue;
            }
            // U+F780..=U+F7FF is EF 9E 80..=EF 9F BF.
            match src.get(r..r + 3) {
                Some(&[0xEF, b1 @ 0x9E..=0x9F, b2]) => {
                    dst[w] = (((b1 as u32 & 0x3F) << 6 | (b2 as u32 & 0x3F)) - 0x780 + 0x80) as u8;
                    r += 3;
                    w += 1;
                }
                _ => break,
            }
        }
        (r, w)
    }

    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i < n {
            let u = src[i];
            dst[i] = match u {
                0..=0x7F => u as u8,
                0xF780..=0xF7FF => (u - 0xF780 + 0x80) as u8,
                _ => break,
            };
            i += 1;
        }
        (i, i)
    }
}
