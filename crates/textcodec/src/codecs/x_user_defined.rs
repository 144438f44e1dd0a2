//! x-user-defined ("x-user-defined decoder", "x-user-defined encoder").

use super::driver::{DecodeHandler, Step};
use super::driver::{EncStep, EncodeHandler};
use super::handles::{Out, Sink};

/// The x-user-defined decoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedDecoder;

/// The decoder's fast path to UTF-8 at `dst[pos..]`: returns the bytes read and the new
/// position. A function of its own, where the loop keeps its values in registers across the
/// vector kernels' calls.
#[inline(never)]
fn to_utf8(src: &[u8], dst: &mut [u8], pos: usize) -> (usize, usize) {
    let (mut i, mut o) = (0, pos);
    while i < src.len() {
        let b = src[i];
        if b < 0x80 {
            // ASCII: in bulk, exactly up to the next high byte.
            let k = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[o..]);
            if k == 0 {
                break;
            }
            i += k;
            o += k;
            continue;
        }
        if let Some(block) = src.get(i..i + 32) {
            let block: &[u8; 32] = block.try_into().unwrap();
            if dense(block) {
                // Binary data, about half high bytes: the thirty-two become code
                // units on the stack (no branch per byte), which the UTF-16 to UTF-8
                // kernel expands (AVX2; elsewhere it does nothing).
                let mut units = [0u16; 32];
                for (u, &b) in units.iter_mut().zip(block) {
                    // 0x80 + n is U+F780 + n.
                    *u = b as u16 + ((b as i8 >> 7) as u16 & 0xF700);
                }
                let (r, w) = crate::simd::utf16_bytes_to_utf8::<{ cfg!(target_endian = "big") }>(
                    crate::simd::u16_bytes(&units),
                    &mut dst[o..],
                );
                if r != 0 {
                    i += r / 2;
                    o += w;
                    continue;
                }
            }
        }
        // U+F780 + b - 0x80 is EF 9E/9F xx in UTF-8.
        let Some(out) = dst.get_mut(o..o + 3) else {
            break;
        };
        out.copy_from_slice(&[0xEF, 0x9C + (b >> 6), 0x80 | (b & 0x3F)]);
        i += 1;
        o += 3;
    }
    (i, o)
}

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
        match sink.out() {
            Out::Utf16(dst, pos) => {
                // Every byte decodes: one code unit each.
                let n = src.len().min(dst.len() - *pos);
                let (src, dst) = (&src[..n], &mut dst[*pos..*pos + n]);
                let k = crate::simd::x_user_defined_to_utf16(src, dst);
                for (d, &b) in dst[k..].iter_mut().zip(&src[k..]) {
                    // 0x80 + n is U+F780 + n; no branch, so the loop vectorizes.
                    *d = b as u16 + ((b as i8 >> 7) as u16 & 0xF700);
                }
                *pos += n;
                n
            }
            Out::Utf8(dst, pos) => {
                let (i, o) = to_utf8(src, dst, *pos);
                *pos = o;
                i
            }
        }
    }
}

/// Whether at least six of the first 16 of the 32 bytes are 0x80 or above (binary
/// data rather than text with a few non-ASCII characters).
#[inline(always)]
fn dense(block: &[u8; 32]) -> bool {
    // Per word, the high bits as ones in each byte, summed into the top byte.
    let count =
        |w: u64| ((w >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    let lo = u64::from_le_bytes(block[..8].try_into().unwrap());
    let hi = u64::from_le_bytes(block[8..16].try_into().unwrap());
    count(lo) + count(hi) >= 6
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

#[cfg(test)]
mod tests {
    use crate::{DecoderOptions, X_USER_DEFINED};
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn binary_and_text_to_utf8_at_every_output_size() {
        // Pseudo-random bytes, runs of several densities of high bytes.
        let mut x = 0x1234_5678u32;
        let mut src = Vec::new();
        for run in 0..40 {
            for _ in 0..(run * 7 % 50 + 1) {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let b = (x >> 16) as u8;
                src.push(match run % 4 {
                    0 => b & 0x7F,
                    1 => b | 0x80,
                    2 => b,
                    _ => b & 0x7F | if b < 0x20 { 0x80 } else { 0 },
                });
            }
        }
        let want: String = src
            .iter()
            .map(|&b| {
                char::from_u32(if b < 0x80 {
                    b as u32
                } else {
                    0xF700 + b as u32
                })
                .unwrap()
            })
            .collect();
        for start in 0..4 {
            let want: String = want.chars().skip(start).collect();
            for size in (0..80).chain([want.len() - 1, want.len(), want.len() + 40]) {
                let mut d = X_USER_DEFINED.new_decoder(DecoderOptions::default());
                let mut out = vec![0u8; size];
                let p = d.decode_to_utf8(&src[start..], &mut out, true).unwrap();
                assert!(
                    want.as_bytes().starts_with(&out[..p.written]),
                    "size {size}"
                );
                assert_eq!(
                    want.chars().take(p.read).map(char::len_utf8).sum::<usize>(),
                    p.written
                );
                assert!(p.read == src.len() - start || size - p.written < 3);
            }
        }
    }
}
