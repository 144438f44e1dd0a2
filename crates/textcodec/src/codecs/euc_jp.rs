//! EUC-JP ("EUC-JP decoder", "EUC-JP encoder").
//!
//! Also home of the encoder fast-path loops shared by the stateless double-byte encoders of
//! this family (EUC-JP, Shift_JIS, EUC-KR): [`run_utf8_with`] and [`run_utf16_with`].

use crate::decoder::{DecodeHandler, Seq, Sink, Step};
use crate::encoder::{EncStep, EncodeHandler};
use crate::tables::jis0208::{JIS0208_DECODE, JIS0208_ENCODE};
use crate::tables::jis0212::JIS0212_DECODE;

/// The EUC-JP decoder's state: "EUC-JP jis0212" and "EUC-JP leading".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpDecoder {
    jis0212: bool,
    leading: u8,
}

/// The "index code point" for `pointer` in `index` (`None` for null or out of range).
#[inline(always)]
pub(super) fn index_code_point(index: &[u16], pointer: usize) -> Option<u32> {
    match index.get(pointer) {
        Some(&cp) if cp != 0 => Some(cp as u32),
        _ => None,
    }
}

/// Writes the run of ASCII bytes at the start of `src` (`src[0]` is ASCII) as themselves;
/// returns its length written (0 only when there is no room). A lone ASCII byte between
/// non-ASCII characters (a space, a punctuation mark) is written directly: the bulk copy has
/// a cost per call.
#[inline(always)]
pub(super) fn ascii_run<S: Sink>(src: &[u8], sink: &mut S) -> usize {
    if src.len() < 2 || src[1] >= 0x80 {
        return usize::from(sink.put(src[0] as u32));
    }
    sink.put_ascii_run(src)
}

/// The decoder fast path shared by EUC-JP, Shift_JIS and EUC-KR from the initial state:
/// ASCII runs, and the non-ASCII sequences `seq` decodes (`seq(src, i)`: the code point and
/// length of the valid sequence at `src[i]`, `src[i] >= 0x80`, complete inside `src`, or
/// `None`). Stops before anything else and before output that does not fit. All these code
/// points are in the BMP and at least U+0080.
#[inline(always)]
pub(super) fn run_multi<S: Sink>(
    src: &[u8],
    sink: &mut S,
    seq: impl Fn(&[u8], usize) -> Option<(u32, usize)>,
) -> usize {
    if let Some((dst, pos)) = sink.utf8_parts() {
        return run_multi_utf8(src, dst, pos, seq);
    }
    if let Some((dst, pos)) = sink.utf16_parts() {
        return run_multi_utf16(src, dst, pos, seq);
    }
    let mut i = 0;
    while i < src.len() {
        if src[i] < 0x80 {
            let n = ascii_run(&src[i..], sink);
            if n == 0 {
                break;
            }
            i += n;
            continue;
        }
        let Some((cp, len)) = seq(src, i) else { break };
        if !sink.put(cp) {
            break;
        }
        i += len;
    }
    i
}

#[inline(always)]
fn run_multi_utf8(
    src: &[u8],
    dst: &mut [u8],
    pos: &mut usize,
    seq: impl Fn(&[u8], usize) -> Option<(u32, usize)>,
) -> usize {
    let (mut i, mut o) = (0usize, *pos);
    while i < src.len() {
        let b = src[i];
        if b < 0x80 {
            // Short runs (spaces, punctuation, digits between words) byte by byte: the bulk
            // copy has a cost per call.
            let Some(d) = dst.get_mut(o) else { break };
            *d = b;
            o += 1;
            i += 1;
            let mut k = 0;
            while k < 8 {
                match (src.get(i), dst.get_mut(o)) {
                    (Some(&c), Some(d)) if c < 0x80 => {
                        *d = c;
                        i += 1;
                        o += 1;
                        k += 1;
                    }
                    _ => break,
                }
            }
            if k < 8 {
                continue;
            }
            // A longer run: the rest in bulk (possibly nothing, when the run or the room ends
            // right here).
            let n = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[o..]);
            i += n;
            o += n;
            continue;
        }
        let Some((cp, len)) = seq(src, i) else { break };
        debug_assert!((0x80..0x10000).contains(&cp));
        if cp < 0x800 {
            let Some(out) = dst.get_mut(o..o + 2) else {
                break;
            };
            out[0] = 0xC0 | (cp >> 6) as u8;
            out[1] = 0x80 | (cp & 0x3F) as u8;
            o += 2;
        } else {
            let Some(out) = dst.get_mut(o..o + 3) else {
                break;
            };
            out[0] = 0xE0 | (cp >> 12) as u8;
            out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[2] = 0x80 | (cp & 0x3F) as u8;
            o += 3;
        }
        i += len;
    }
    *pos = o;
    i
}

#[inline(always)]
fn run_multi_utf16(
    src: &[u8],
    dst: &mut [u16],
    pos: &mut usize,
    seq: impl Fn(&[u8], usize) -> Option<(u32, usize)>,
) -> usize {
    let (mut i, mut o) = (0usize, *pos);
    while i < src.len() {
        let b = src[i];
        if b < 0x80 {
            let Some(d) = dst.get_mut(o) else { break };
            *d = b as u16;
            o += 1;
            i += 1;
            let mut k = 0;
            while k < 8 {
                match (src.get(i), dst.get_mut(o)) {
                    (Some(&c), Some(d)) if c < 0x80 => {
                        *d = c as u16;
                        i += 1;
                        o += 1;
                        k += 1;
                    }
                    _ => break,
                }
            }
            if k < 8 {
                continue;
            }
            // A longer run: the rest in bulk (possibly nothing, when the run or the room ends
            // right here).
            let n = crate::simd::copy_ascii_to_utf16(&src[i..], &mut dst[o..]);
            i += n;
            o += n;
            continue;
        }
        let Some((cp, len)) = seq(src, i) else { break };
        let Some(d) = dst.get_mut(o) else { break };
        *d = cp as u16;
        o += 1;
        i += len;
    }
    *pos = o;
    i
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

/// What a stateless encoder makes of one non-ASCII scalar value: one or two bytes, or nothing
/// (an error with that code point).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mapped {
    /// 0 (unmappable), 1 or 2.
    pub(super) len: u8,
    pub(super) bytes: [u8; 2],
}

impl Mapped {
    pub(super) const NONE: Mapped = Mapped {
        len: 0,
        bytes: [0, 0],
    };
    #[inline(always)]
    pub(super) fn one(b: u8) -> Mapped {
        Mapped {
            len: 1,
            bytes: [b, 0],
        }
    }
    #[inline(always)]
    pub(super) fn two(a: u8, b: u8) -> Mapped {
        Mapped {
            len: 2,
            bytes: [a, b],
        }
    }
    /// The handler's result for code point `cp` mapped to `self`.
    #[inline(always)]
    pub(super) fn step(self, cp: u32) -> EncStep {
        match self.len {
            0 => EncStep::Error(cp),
            1 => EncStep::one(self.bytes[0]),
            _ => EncStep::two(self.bytes[0], self.bytes[1]),
        }
    }
}

/// Writes `m` at `dst[*w..]` if it fits whole and is not unmappable.
#[inline(always)]
fn put_mapped(m: Mapped, dst: &mut [u8], w: &mut usize) -> bool {
    match m.len {
        1 => match dst.get_mut(*w) {
            Some(d) => {
                *d = m.bytes[0];
                *w += 1;
                true
            }
            None => false,
        },
        2 => match dst.get_mut(*w..*w + 2) {
            Some(d) => {
                d[0] = m.bytes[0];
                d[1] = m.bytes[1];
                *w += 2;
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// The encoder fast path over UTF-8 for an encoder where ASCII is the identity and `map`
/// gives the result for every non-ASCII scalar value (stateless). Stops before an unmappable
/// character or one that does not fit.
#[inline(always)]
pub(super) fn run_utf8_with(
    src: &str,
    dst: &mut [u8],
    map: impl Fn(u32) -> Mapped,
) -> (usize, usize) {
    let s = src.as_bytes();
    let (mut r, mut w) = (0usize, 0usize);
    while r < s.len() {
        let b = s[r];
        if b < 0x80 {
            let n = crate::simd::copy_ascii_to_ascii(&s[r..], &mut dst[w..]);
            if n == 0 {
                break;
            }
            r += n;
            w += n;
            continue;
        }
        // `src` is valid UTF-8 and `r` is a character boundary.
        let (cp, len) = if b < 0xE0 {
            (((b as u32 & 0x1F) << 6) | (s[r + 1] as u32 & 0x3F), 2)
        } else if b < 0xF0 {
            (
                ((b as u32 & 0x0F) << 12)
                    | ((s[r + 1] as u32 & 0x3F) << 6)
                    | (s[r + 2] as u32 & 0x3F),
                3,
            )
        } else {
            // Supplementary: never mappable in these encodings.
            break;
        };
        if !put_mapped(map(cp), dst, &mut w) {
            break;
        }
        r += len;
    }
    (r, w)
}

/// The encoder fast path over UTF-16, like [`run_utf8_with`]. Surrogates (paired or not) stop
/// it: no supplementary code point is mappable in these encodings.
#[inline(always)]
pub(super) fn run_utf16_with(
    src: &[u16],
    dst: &mut [u8],
    map: impl Fn(u32) -> Mapped,
) -> (usize, usize) {
    let (mut r, mut w) = (0usize, 0usize);
    while r < src.len() {
        let u = src[r];
        if u < 0x80 {
            let n = crate::simd::copy_utf16_ascii_to_ascii(&src[r..], &mut dst[w..]);
            if n == 0 {
                break;
            }
            r += n;
            w += n;
            continue;
        }
        if (0xD800..0xE000).contains(&u) {
            break;
        }
        if !put_mapped(map(u as u32), dst, &mut w) {
            break;
        }
        r += 1;
    }
    (r, w)
}

/// The EUC-JP encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpEncoder;

/// "EUC-JP encoder" handler steps 3 to 11 for a non-ASCII scalar value.
#[inline(always)]
fn euc_jp_map(code_point: u32) -> Mapped {
    // 3. U+00A5 (¥) -> byte 0x5C.
    if code_point == 0xA5 {
        return Mapped::one(0x5C);
    }
    // 4. U+203E (‾) -> byte 0x7E.
    if code_point == 0x203E {
        return Mapped::one(0x7E);
    }
    // 5. U+FF61..=U+FF9F -> 0x8E, codePoint - 0xFF61 + 0xA1.
    if (0xFF61..=0xFF9F).contains(&code_point) {
        return Mapped::two(0x8E, (code_point - 0xFF61 + 0xA1) as u8);
    }
    // 6. U+2212 (−) is set to U+FF0D (－).
    let code_point = if code_point == 0x2212 {
        0xFF0D
    } else {
        code_point
    };
    // 7. pointer: the index pointer for codePoint in index jis0208.
    // 8. If pointer is null, return error with codePoint (the caller's, see `Mapped::step`;
    //    U+FF0D always has a pointer, so the substitution never reaches an error).
    let Some(pointer) = JIS0208_ENCODE.get(code_point) else {
        return Mapped::NONE;
    };
    // 9-11. leading = pointer / 94 + 0xA1, trailing = pointer % 94 + 0xA1.
    Mapped::two((pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8)
}

impl EncodeHandler for EucJpEncoder {
    // "EUC-JP encoder" handler (step 1, end-of-queue, is the default `end`).
    #[inline]
    fn handle(&mut self, code_point: u32) -> EncStep {
        // 2. ASCII code point -> byte.
        if code_point < 0x80 {
            return EncStep::one(code_point as u8);
        }
        euc_jp_map(code_point).step(code_point)
    }

    fn ascii_is_identity(&self) -> bool {
        true
    }

    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        run_utf8_with(src, dst, euc_jp_map)
    }

    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        run_utf16_with(src, dst, euc_jp_map)
    }
}
