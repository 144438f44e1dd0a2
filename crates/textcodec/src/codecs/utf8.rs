//! UTF-8 ("UTF-8 decoder", "UTF-8 encoder").

use super::driver::{DecodeHandler, Seq, Step};
use super::driver::{EncStep, EncodeHandler};
use super::handles::{utf8_2, utf8_3, Out, Sink};

/// The UTF-8 decoder's state: "UTF-8 code point", "bytes seen", "bytes needed", "lower
/// boundary" and "upper boundary".
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf8Decoder {
    code_point: u32,
    bytes_seen: u8,
    bytes_needed: u8,
    lower: u8,
    upper: u8,
}

impl Default for Utf8Decoder {
    fn default() -> Self {
        Utf8Decoder {
            code_point: 0,
            bytes_seen: 0,
            bytes_needed: 0,
            lower: 0x80,
            upper: 0xBF,
        }
    }
}

/// The length of the valid UTF-8 sequence at the start of `s` (1 to 4), or 0 if `s` does not
/// start with a complete, valid sequence. Same boundaries as the spec's decoder.
#[inline(always)]
pub(crate) fn valid_sequence_len(s: &[u8]) -> usize {
    let b0 = s[0];
    let in_range = |i: usize, lo: u8, hi: u8| s.get(i).is_some_and(|&b| (lo..=hi).contains(&b));
    match b0 {
        0x00..=0x7F => 1,
        0xC2..=0xDF if in_range(1, 0x80, 0xBF) => 2,
        0xE0 if in_range(1, 0xA0, 0xBF) && in_range(2, 0x80, 0xBF) => 3,
        0xE1..=0xEC | 0xEE..=0xEF if in_range(1, 0x80, 0xBF) && in_range(2, 0x80, 0xBF) => 3,
        0xED if in_range(1, 0x80, 0x9F) && in_range(2, 0x80, 0xBF) => 3,
        0xF0 if in_range(1, 0x90, 0xBF) && in_range(2, 0x80, 0xBF) && in_range(3, 0x80, 0xBF) => 4,
        0xF1..=0xF3
            if in_range(1, 0x80, 0xBF) && in_range(2, 0x80, 0xBF) && in_range(3, 0x80, 0xBF) =>
        {
            4
        }
        0xF4 if in_range(1, 0x80, 0x8F) && in_range(2, 0x80, 0xBF) && in_range(3, 0x80, 0xBF) => 4,
        _ => 0,
    }
}

#[inline(always)]
fn scalar_of(s: &[u8], len: usize) -> u32 {
    match len {
        1 => s[0] as u32,
        2 => utf8_2(s[0], s[1]),
        3 => utf8_3(s[0], s[1], s[2]),
        _ => {
            ((s[0] as u32 & 0x07) << 18)
                | ((s[1] as u32 & 0x3F) << 12)
                | ((s[2] as u32 & 0x3F) << 6)
                | (s[3] as u32 & 0x3F)
        }
    }
}

/// For each byte that starts a sequence in the "UTF-8 decoder" (0xC2 to 0xF4): "bytes
/// needed" (bits 0-1), and the "lower boundary" and "upper boundary" for the next byte (bits
/// 8-15 and 16-23); 0 for the other bytes.
static LEADS: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 0xC2;
    while b <= 0xF4 {
        let (needed, lower, upper) = match b {
            0xC2..=0xDF => (1, 0x80, 0xBF),
            0xE0 => (2, 0xA0, 0xBF),
            0xED => (2, 0x80, 0x9F),
            0xE1..=0xEF => (2, 0x80, 0xBF),
            0xF0 => (3, 0x90, 0xBF),
            0xF4 => (3, 0x80, 0x8F),
            _ => (3, 0x80, 0xBF),
        };
        t[b] = needed | lower << 8 | upper << 16;
        b += 1;
    }
    t
};

const ASCII_MASK: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// UTF-8 to UTF-16 over valid input; returns the bytes read (stops before an error, an
/// incomplete sequence or a character that does not fit).
#[inline(always)]
fn utf8_to_utf16(src: &[u8], dst: &mut [u16], pos: &mut usize) -> usize {
    let n = src.len();
    let mut i = 0;
    let mut o = *pos;
    // The vector kernel failed at a byte before this one (the next sixteen bytes hold
    // something it leaves to this loop): ASCII bytes before it go one at a time.
    let mut scalar_until = 0;
    while i < n {
        let b0 = src[i];
        if b0 < 0x80 {
            if i + 16 <= n && o + 16 <= dst.len() {
                let block: [u8; 16] = src[i..i + 16].try_into().unwrap();
                let high = u128::from_le_bytes(block) & ASCII_MASK;
                if high == 0 {
                    let k = crate::simd::copy_ascii_to_utf16(&src[i..], &mut dst[o..]);
                    i += k;
                    o += k;
                    continue;
                }
                // The ASCII bytes before the first byte at or above 0x80 (at least b0).
                let k = (high.trailing_zeros() / 8) as usize;
                // The vector kernel is worth a try from here if that byte and the next one
                // look like the start of a two- or three-byte character (mixed text, not
                // binary data, where the kernel would fail).
                if i >= scalar_until
                    && (0xC2..0xF0).contains(&block[k])
                    && src.get(i + k + 1).is_some_and(|&b| b & 0xC0 == 0x80)
                {
                    let (r, w) = crate::simd::utf8_to_utf16(src, i, &mut dst[o..]);
                    if r != 0 {
                        i += r;
                        o += w;
                        continue;
                    }
                    scalar_until = i + 16;
                }
                for (d, &b) in dst[o..o + k].iter_mut().zip(&block) {
                    *d = b as u16;
                }
                i += k;
                o += k;
                continue;
            }
            if i >= scalar_until && n >= 16 && o + 16 <= dst.len() {
                // The last bytes of the input: the kernel reads the last sixteen bytes of
                // `src` to convert them.
                let (r, w) = crate::simd::utf8_to_utf16(src, i, &mut dst[o..]);
                if r != 0 {
                    i += r;
                    o += w;
                    continue;
                }
                scalar_until = n;
            }
            if o >= dst.len() {
                break;
            }
            dst[o] = b0 as u16;
            i += 1;
            o += 1;
            continue;
        }
        if n >= 16 && o + 16 <= dst.len() {
            let (r, w) = crate::simd::utf8_to_utf16(src, i, &mut dst[o..]);
            if r != 0 {
                i += r;
                o += w;
                continue;
            }
        }
        if (0xC2..0xE0).contains(&b0) {
            // The common non-ASCII case of alphabetic scripts: two bytes.
            match src.get(i + 1) {
                Some(&b1) if b1 & 0xC0 == 0x80 && o < dst.len() => {
                    dst[o] = utf8_2(b0, b1) as u16;
                    i += 2;
                    o += 1;
                    continue;
                }
                _ => break,
            }
        }
        let len = valid_sequence_len(&src[i..]);
        if len == 0 {
            break;
        }
        let cp = scalar_of(&src[i..], len);
        if cp < 0x10000 {
            if o >= dst.len() {
                break;
            }
            dst[o] = cp as u16;
            o += 1;
        } else {
            if o + 2 > dst.len() {
                break;
            }
            let c = cp - 0x10000;
            dst[o] = 0xD800 | (c >> 10) as u16;
            dst[o + 1] = 0xDC00 | (c & 0x3FF) as u16;
            o += 2;
        }
        i += len;
    }
    *pos = o;
    i
}

impl DecodeHandler for Utf8Decoder {
    // "UTF-8 decoder" handler.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        if self.bytes_needed == 0 {
            match byte {
                0x00..=0x7F => return Step::Emit(byte as u32),
                0xC2..=0xDF => {
                    self.bytes_needed = 1;
                    self.code_point = byte as u32 & 0x1F;
                }
                0xE0..=0xEF => {
                    if byte == 0xE0 {
                        self.lower = 0xA0;
                    }
                    if byte == 0xED {
                        self.upper = 0x9F;
                    }
                    self.bytes_needed = 2;
                    self.code_point = byte as u32 & 0xF;
                }
                0xF0..=0xF4 => {
                    if byte == 0xF0 {
                        self.lower = 0x90;
                    }
                    if byte == 0xF4 {
                        self.upper = 0x8F;
                    }
                    self.bytes_needed = 3;
                    self.code_point = byte as u32 & 0x7;
                }
                _ => return Step::ERROR,
            }
            return Step::Continue;
        }
        if !(self.lower..=self.upper).contains(&byte) {
            *self = Utf8Decoder::default();
            // "Restore byte to ioQueue."
            return Step::error_restoring(byte);
        }
        self.lower = 0x80;
        self.upper = 0xBF;
        self.code_point = (self.code_point << 6) | (byte as u32 & 0x3F);
        self.bytes_seen += 1;
        if self.bytes_seen != self.bytes_needed {
            return Step::Continue;
        }
        let cp = self.code_point;
        *self = Utf8Decoder::default();
        Step::Emit(cp)
    }

    fn end(&mut self) -> Step {
        if self.bytes_needed != 0 {
            *self = Utf8Decoder::default();
            return Step::ERROR;
        }
        Step::Finished
    }

    fn held(&self) -> usize {
        if self.bytes_needed == 0 {
            0
        } else {
            1 + self.bytes_seen as usize
        }
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        if self.bytes_needed != 0 {
            return Seq::Bytes;
        }
        let byte = src[0];
        if byte < 0x80 {
            return Seq::Emit(byte as u32, 1);
        }
        // The handler's steps over the sequence, a byte at a time: each byte that is not in the
        // boundaries is an error that restores it.
        let lead = LEADS[byte as usize];
        if lead == 0 {
            return Seq::Error(1);
        }
        let (needed, lower, upper) = (lead & 3, (lead >> 8) as u8, (lead >> 16) as u8);
        let Some(&b1) = src.get(1) else {
            return Seq::Bytes;
        };
        if !(lower..=upper).contains(&b1) {
            return Seq::Error(1);
        }
        let bits = (byte as u32 & (0x7F >> needed)) << 6 | (b1 as u32 & 0x3F);
        if needed == 1 {
            return Seq::Emit(bits, 2);
        }
        let Some(&b2) = src.get(2) else {
            return Seq::Bytes;
        };
        if b2 & 0xC0 != 0x80 {
            return Seq::Error(2);
        }
        let bits = bits << 6 | (b2 as u32 & 0x3F);
        if needed == 2 {
            return Seq::Emit(bits, 3);
        }
        let Some(&b3) = src.get(3) else {
            return Seq::Bytes;
        };
        if b3 & 0xC0 != 0x80 {
            return Seq::Error(3);
        }
        Seq::Emit(bits << 6 | (b3 as u32 & 0x3F), 4)
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.bytes_needed != 0 {
            return 0;
        }
        match sink.out() {
            Out::Utf8(dst, pos) => {
                // UTF-8 to UTF-8: validate and copy.
                let n = crate::simd::copy_valid_utf8(src, &mut dst[*pos..]);
                *pos += n;
                n
            }
            Out::Utf16(dst, pos) => utf8_to_utf16(src, dst, pos),
        }
    }
}

/// The UTF-8 encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Utf8Encoder;

impl EncodeHandler for Utf8Encoder {
    // "UTF-8 encoder" handler.
    #[inline]
    fn handle(&mut self, cp: u32) -> EncStep {
        let mut buf = [0u8; 4];
        let len = char::from_u32(cp)
            .expect("scalar value")
            .encode_utf8(&mut buf)
            .len();
        EncStep::Bytes {
            buf,
            len: len as u8,
        }
    }

    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        let mut n = src.len().min(dst.len());
        while !src.is_char_boundary(n) {
            n -= 1;
        }
        dst[..n].copy_from_slice(&src.as_bytes()[..n]);
        (n, n)
    }

    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        // The UTF-16 decoder's fast path over the units' bytes in native order: it stops at
        // a lone surrogate (the driver makes it U+FFFD) and keeps pairs whole.
        let bytes = crate::simd::u16_bytes(src);
        let mut w = 0;
        let read = if cfg!(target_endian = "big") {
            super::utf16::utf16_to_utf8::<true>(bytes, dst, &mut w)
        } else {
            super::utf16::utf16_to_utf8::<false>(bytes, dst, &mut w)
        };
        (read / 2, w)
    }
}
