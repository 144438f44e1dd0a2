//! gb18030 and GBK ("gb18030 decoder", "gb18030 encoder", "GBK decoder", "GBK encoder").
//!
//! GBK's decoder is gb18030's decoder; GBK's encoder is gb18030's encoder with "is GBK" set.
//! Two-byte sequences go through "index gb18030", four-byte sequences through "index gb18030
//! ranges" ("index gb18030 ranges code point" / "index gb18030 ranges pointer").

use crate::decoder::{DecodeHandler, Seq, Sink, Step};
use crate::encoder::{EncStep, EncodeHandler};
use crate::tables::gb18030::{GB18030_DECODE, GB18030_ENCODE, GB18030_RANGES};

/// "index gb18030 ranges code point" for `pointer`.
#[inline]
pub(crate) fn ranges_code_point(pointer: u32) -> Option<u32> {
    // 1. If pointer is greater than 39419 and less than 189000, or pointer is greater than
    //    1237575, then return null.
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    // 2. If pointer is 7457, then return code point U+E7C7.
    if pointer == 7457 {
        return Some(0xE7C7);
    }
    // 3. Let offset be the last pointer in index gb18030 ranges that is less than or equal to
    //    pointer and let codePointOffset be its corresponding code point. (The first entry
    //    has pointer 0, so there always is one.)
    let i = GB18030_RANGES.partition_point(|&(p, _)| p <= pointer) - 1;
    let (offset, code_point_offset) = GB18030_RANGES[i];
    // 4. Return a code point whose value is codePointOffset + pointer − offset.
    Some(code_point_offset + pointer - offset)
}

/// "index gb18030 ranges pointer" for `code_point` (at least U+0080).
#[inline]
pub(crate) fn ranges_pointer(code_point: u32) -> u32 {
    // 1. If codePoint is U+E7C7, then return pointer 7457.
    if code_point == 0xE7C7 {
        return 7457;
    }
    // 2. Let offset be the last code point in index gb18030 ranges that is less than or equal
    //    to codePoint and let pointerOffset be its corresponding pointer.
    let i = GB18030_RANGES.partition_point(|&(_, c)| c <= code_point) - 1;
    let (pointer_offset, offset) = GB18030_RANGES[i];
    // 3. Return a pointer whose value is pointerOffset + codePoint − offset.
    pointer_offset + code_point - offset
}

/// The four-byte pointer of the decoder's step 3.2: ((first − 0x81) × (10 × 126 × 10)) +
/// ((second − 0x30) × (10 × 126)) + ((third − 0x81) × 10) + byte − 0x30.
#[inline(always)]
fn four_byte_pointer(first: u8, second: u8, third: u8, byte: u8) -> u32 {
    (first as u32 - 0x81) * (10 * 126 * 10)
        + (second as u32 - 0x30) * (10 * 126)
        + (third as u32 - 0x81) * 10
        + byte as u32
        - 0x30
}

/// The two-byte pointer of the decoder's steps 5.5 and 5.6: `None` unless `byte` is in the
/// range 0x40 to 0x7E or 0x80 to 0xFE (`leading` is 0x81 to 0xFE).
#[inline(always)]
fn two_byte_pointer(leading: u8, byte: u8) -> Option<usize> {
    // 5. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    // 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFE, inclusive, then
    //    set pointer to (leading − 0x81) × 190 + (byte − offset).
    if (0x40..=0x7E).contains(&byte) || (0x80..=0xFE).contains(&byte) {
        Some((leading as usize - 0x81) * 190 + (byte as usize - offset))
    } else {
        None
    }
}

/// The gb18030 decoder's state: "gb18030 first", "gb18030 second", "gb18030 third" (0x00:
/// unset).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Decoder {
    first: u8,
    second: u8,
    third: u8,
}

impl DecodeHandler for Gb18030Decoder {
    // "gb18030 decoder" handler (steps 3 to 9; 1 and 2 are in `end`).
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 3. If gb18030 third is not 0x00:
        if self.third != 0x00 {
            // 3.1. If byte is not in the range 0x30 to 0x39, inclusive:
            if !(0x30..=0x39).contains(&byte) {
                // 3.1.1. Restore « gb18030 second, gb18030 third, byte » to ioQueue.
                let bytes = [self.second, self.third, byte];
                // 3.1.2. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
                *self = Gb18030Decoder::default();
                // 3.1.3. Return error.
                return Step::Error { n: 3, bytes };
            }
            // 3.2. Let codePoint be the index gb18030 ranges code point for the four-byte
            //      pointer.
            let code_point =
                ranges_code_point(four_byte_pointer(self.first, self.second, self.third, byte));
            // 3.3. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
            *self = Gb18030Decoder::default();
            // 3.4. If codePoint is null, then return error.
            // 3.5. Return a code point whose value is codePoint.
            return match code_point {
                None => Step::ERROR,
                Some(cp) => Step::Emit(cp),
            };
        }
        // 4. If gb18030 second is not 0x00:
        if self.second != 0x00 {
            // 4.1. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third to
            //      byte and return continue.
            if (0x81..=0xFE).contains(&byte) {
                self.third = byte;
                return Step::Continue;
            }
            // 4.2. Restore « gb18030 second, byte » to ioQueue, set gb18030 first and
            //      gb18030 second to 0x00, and return error.
            let bytes = [self.second, byte, 0];
            self.first = 0x00;
            self.second = 0x00;
            return Step::Error { n: 2, bytes };
        }
        // 5. If gb18030 first is not 0x00:
        if self.first != 0x00 {
            // 5.1. If byte is in the range 0x30 to 0x39, inclusive, then set gb18030 second to
            //      byte and return continue.
            if (0x30..=0x39).contains(&byte) {
                self.second = byte;
                return Step::Continue;
            }
            // 5.2. Let leading be gb18030 first.
            let leading = self.first;
            // 5.3. Set gb18030 first to 0x00.
            self.first = 0x00;
            // 5.4 to 5.6. Let pointer be null; offset; pointer (see `two_byte_pointer`).
            let pointer = two_byte_pointer(leading, byte);
            // 5.7. Let codePoint be null if pointer is null; otherwise the index code point for
            //      pointer in index gb18030 (0 in the table: null).
            let code_point = pointer.map_or(0, |p| GB18030_DECODE[p]);
            // 5.8. If codePoint is non-null, then return a code point whose value is codePoint.
            if code_point != 0 {
                return Step::Emit(code_point as u32);
            }
            // 5.9. If byte is an ASCII byte, then restore byte to ioQueue.
            if byte < 0x80 {
                return Step::error_restoring(byte);
            }
            // 5.10. Return error.
            return Step::ERROR;
        }
        // 6. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 7. If byte is 0x80, then return code point U+20AC (€).
        if byte == 0x80 {
            return Step::Emit(0x20AC);
        }
        // 8. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to byte
        //    and return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.first = byte;
            return Step::Continue;
        }
        // 9. Return error.
        Step::ERROR
    }

    fn end(&mut self) -> Step {
        // 1. If byte is end-of-queue and gb18030 first, gb18030 second, and gb18030 third are
        //    0x00, then return finished.
        if self.first == 0x00 && self.second == 0x00 && self.third == 0x00 {
            return Step::Finished;
        }
        // 2. If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third is
        //    not 0x00, then set them to 0x00, and return error.
        *self = Gb18030Decoder::default();
        Step::ERROR
    }

    fn held(&self) -> usize {
        usize::from(self.first != 0) + usize::from(self.second != 0) + usize::from(self.third != 0)
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        // gb18030 second and third are set only after first.
        if self.first != 0 {
            return Seq::Bytes;
        }
        let b = src[0];
        match b {
            // 6.
            0x00..=0x7F => return Seq::Emit(b as u32, 1),
            // 7.
            0x80 => return Seq::Emit(0x20AC, 1),
            // 9.
            0xFF => return Seq::Error(1),
            // 8: gb18030 first.
            _ => {}
        }
        let Some(&second) = src.get(1) else {
            return Seq::Bytes;
        };
        if !(0x30..=0x39).contains(&second) {
            // 5.2 to 5.10.
            return match PAIRS[(b as usize - 0x80) * 256 + second as usize] {
                // 5.9-5.10: an ASCII byte is restored.
                0 => Seq::Error(if second < 0x80 { 1 } else { 2 }),
                cp => Seq::Emit(cp as u32, 2),
            };
        }
        // 5.1: gb18030 second.
        let Some(&third) = src.get(2) else {
            return Seq::Bytes;
        };
        if !(0x81..=0xFE).contains(&third) {
            // 4.2: second and this byte are restored.
            return Seq::Error(1);
        }
        // 4.1: gb18030 third.
        let Some(&byte) = src.get(3) else {
            return Seq::Bytes;
        };
        if !(0x30..=0x39).contains(&byte) {
            // 3.1: second, third and this byte are restored.
            return Seq::Error(1);
        }
        // 3.2 to 3.5.
        match ranges_code_point(four_byte_pointer(b, second, third, byte)) {
            Some(cp) => Seq::Emit(cp, 4),
            None => Seq::Error(4),
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        if self.first != 0 {
            return 0;
        }
        run_out::<Gb18030Fast, S>(src, sink)
    }
}

/// The gb18030 decoder's fast path from the initial state: ASCII runs (step 6), 0x80 (step
/// 7), valid two-byte sequences (steps 8, 5.2 to 5.8) and valid four-byte sequences (steps 8,
/// 5.1, 4.1, 3.2 to 3.5). Stops before anything else: an error, a sequence not complete in
/// `src`, or less than one worst-case step of room.
struct Gb18030Fast;

impl FastPath for Gb18030Fast {
    #[inline(always)]
    fn run<O: Out>(src: &[u8], out: &mut O) -> usize {
        let len = src.len();
        let mut i = 0;
        while i < len {
            // Runs of ASCII and two-byte sequences (direct UTF-8 or UTF-16 output).
            let j = out.pairs(src, i, &PAIRS_UTF8, Some(&PAIRS));
            if j != i {
                i = j;
                continue;
            }
            let b = src[i];
            let lead = b.wrapping_sub(0x81);
            if lead < 0x7E && i + 1 < len {
                let b2 = src[i + 1];
                if TRAIL_INDEX[b2 as usize] != NO_TRAIL {
                    // Two bytes: one lookup.
                    if !out.room4() || !out.push_gb_pair(lead as usize, b2 as usize) {
                        break;
                    }
                    i += 2;
                    continue;
                }
                // Four bytes.
                if !(0x30..=0x39).contains(&b2) || i + 3 >= len || !out.room4() {
                    break;
                }
                let (b3, b4) = (src[i + 2], src[i + 3]);
                if !(0x81..=0xFE).contains(&b3) || !(0x30..=0x39).contains(&b4) {
                    break;
                }
                let Some(cp) = ranges_code_point(four_byte_pointer(b, b2, b3, b4)) else {
                    break;
                };
                out.push(cp);
                i += 4;
                continue;
            }
            if b < 0x80 {
                let n = out.ascii(&src[i..]);
                if n == 0 {
                    break;
                }
                i += n;
                continue;
            }
            if b != 0x80 || !out.room4() {
                break;
            }
            out.push(0x20AC);
            i += 1;
        }
        i
    }
}

/// Marks a byte that is no two-byte trail in [`TRAIL_INDEX`].
const NO_TRAIL: u8 = 0xFF;

/// `byte − offset` of the decoder's steps 5.5 and 5.6 for a byte in the range 0x40 to 0x7E or
/// 0x80 to 0xFE, [`NO_TRAIL`] for any other byte.
static TRAIL_INDEX: [u8; 256] = {
    let mut t = [NO_TRAIL; 256];
    let mut b = 0x40;
    while b <= 0xFE {
        if b < 0x7F {
            t[b] = (b - 0x40) as u8;
        } else if b > 0x7F {
            t[b] = (b - 0x41) as u8;
        }
        b += 1;
    }
    t
};

/// The index gb18030 code point of every two-byte sequence ([`Utf16Pairs`]; 0: null, or not
/// a trailing byte).
static PAIRS: Utf16Pairs = {
    let mut out = [0u16; 0x8000];
    let mut lead = 0;
    while lead < 0xFE - 0x81 + 1 {
        let mut b = 0;
        while b < 256 {
            if TRAIL_INDEX[b] != NO_TRAIL {
                out[(lead + 1) * 256 + b] = GB18030_DECODE[lead * 190 + TRAIL_INDEX[b] as usize];
            }
            b += 1;
        }
        lead += 1;
    }
    out
};

/// Where the decoders' fast paths write: straight into the caller's UTF-8 or UTF-16 buffer,
/// or through any other [`Sink`]. Shared with big5.rs.
pub(crate) trait Out {
    /// Whether one more step of output fits: 4 UTF-8 bytes or 2 UTF-16 units (a
    /// supplementary code point, or Big5's two code points).
    fn room4(&self) -> bool;
    /// Writes scalar value `cp`; only after `room4()` (at most twice for Big5's pair).
    fn push(&mut self, cp: u32);
    /// Writes a non-ASCII BMP scalar value; only after `room4()`.
    #[inline(always)]
    fn push_bmp(&mut self, cp: u16) {
        self.push(cp as u32);
    }
    /// Copies the ASCII run at the start of `src` (`src[0]` is ASCII) as far as it fits;
    /// returns its length.
    fn ascii(&mut self, src: &[u8]) -> usize;
    /// Writes the index gb18030 code point of a two-byte sequence (`lead` = leading byte -
    /// 0x81, `trail` a trailing byte) and returns true, or returns false when it is null;
    /// only after `room4()`.
    #[inline(always)]
    fn push_gb_pair(&mut self, lead: usize, trail: usize) -> bool {
        match PAIRS[(lead + 1) * 256 + trail] {
            0 => false,
            cp => {
                self.push_bmp(cp);
                true
            }
        }
    }
    /// Direct UTF-8 or UTF-16 output only: decodes the ASCII bytes and the two-byte
    /// sequences with a non-zero entry in `t8` (see [`Utf8Pairs`]) or `t16` (see
    /// [`Utf16Pairs`]; `None`: no two-byte sequences) at `src[i..]`, as far as they go and
    /// there is room; returns the new `i`. The other outputs return `i` (the caller's general
    /// step then follows).
    #[inline(always)]
    fn pairs(&mut self, src: &[u8], i: usize, t8: &Utf8Pairs, t16: Option<&Utf16Pairs>) -> usize {
        let _ = (src, t8, t16);
        i
    }
}

/// A two-byte decode table pre-encoded in UTF-8, indexed by (leading byte − 0x80) × 256 +
/// trailing byte: the UTF-8 bytes of a non-ASCII BMP code point in the low three bytes
/// (little-endian) and their length (2 or 3) in the top two bits; 0 for anything else
/// (null, not a leading or trailing byte, a supplementary code point, a pair of code
/// points: all left to the general path). 128 KiB.
pub(crate) type Utf8Pairs = [u32; 0x8000];

/// The [`Utf8Pairs`] entry for `cp` (0 for a code point the table leaves to the general
/// path).
pub(crate) const fn utf8_pair_entry(cp: u32) -> u32 {
    if cp < 0x80 || cp >= 0x10000 {
        0
    } else if cp < 0x800 {
        (0xC0 | cp >> 6) | (0x80 | (cp & 0x3F)) << 8 | 2 << 30
    } else {
        (0xE0 | cp >> 12) | (0x80 | ((cp >> 6) & 0x3F)) << 8 | (0x80 | (cp & 0x3F)) << 16 | 3 << 30
    }
}

/// A [`Utf16Pairs`] table pre-encoded in UTF-8 ([`Utf8Pairs`]).
pub(crate) const fn utf8_pairs(pairs: &Utf16Pairs) -> Utf8Pairs {
    let mut out = [0u32; 0x8000];
    let mut i = 0;
    while i < 0x8000 {
        out[i] = utf8_pair_entry(pairs[i] as u32);
        i += 1;
    }
    out
}

/// Steps 8 and 5.2 to 5.8 ([`PAIRS`]) pre-encoded in UTF-8.
static PAIRS_UTF8: Utf8Pairs = utf8_pairs(&PAIRS);

/// The index code points of a decoder's two-byte sequences, indexed as [`Utf8Pairs`]: a
/// non-ASCII BMP code point, or 0 for anything else. 64 KiB.
pub(crate) type Utf16Pairs = [u16; 0x8000];

/// The loop of [`Out::pairs`] for direct UTF-16 output at `dst[w..]`; returns the new `i`
/// and `w`. As [`utf8_run`].
#[inline(never)]
pub(crate) fn utf16_run(
    src: &[u8],
    mut i: usize,
    dst: &mut [u16],
    mut w: usize,
    table: &Utf16Pairs,
) -> (usize, usize) {
    // A run that starts with ASCII (a short string, a tag, after a four-byte sequence): the
    // ASCII in bulk first.
    if src.get(i).is_some_and(|&b| b < 0x80) {
        let n = crate::simd::copy_ascii_to_utf16(&src[i..], &mut dst[w..]);
        i += n;
        w += n;
    }
    while let (Some(s), Some(d)) = (
        src.get(i..).and_then(|s| s.first_chunk::<16>()),
        dst.get_mut(w..).and_then(|d| d.first_chunk_mut::<8>()),
    ) {
        let mut p = 0;
        let mut k = 0;
        while k < 8 {
            let v = u16::from_be_bytes([s[p], s[p + 1]]);
            if v < 0x8000 {
                d[k] = v >> 8;
                p += 1;
            } else {
                let c = table[(v - 0x8000) as usize];
                if c == 0 {
                    break;
                }
                d[k] = c;
                p += 2;
            }
            k += 1;
        }
        i += p;
        w += k;
        if k < 8 {
            return (i, w);
        }
        if p == 8 {
            // Eight ASCII bytes: the rest of the run in bulk.
            let n = crate::simd::copy_ascii_to_utf16(&src[i..], &mut dst[w..]);
            i += n;
            w += n;
        }
    }
    // The same one step at a time (near the end of the input or of the room).
    while let (Some(&b), Some(d)) = (src.get(i), dst.get_mut(w)) {
        if b < 0x80 {
            *d = b as u16;
            w += 1;
            i += 1;
            continue;
        }
        let Some(&next) = src.get(i + 1) else {
            break;
        };
        let c = table[(u16::from_be_bytes([b, next]) - 0x8000) as usize];
        if c == 0 {
            break;
        }
        *d = c;
        w += 1;
        i += 2;
    }
    (i, w)
}

/// The loop of [`Out::pairs`] for direct UTF-8 output at `dst[w..]`; returns the new
/// `i` and `w`. Not inlined: in a function of its own the loop keeps everything in
/// registers.
#[inline(never)]
pub(crate) fn utf8_run(
    src: &[u8],
    mut i: usize,
    dst: &mut [u8],
    mut w: usize,
    table: &Utf8Pairs,
) -> (usize, usize) {
    // A run that starts with ASCII (a short string, a tag, after a four-byte sequence): the
    // ASCII in bulk first.
    if src.get(i).is_some_and(|&b| b < 0x80) {
        let n = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[w..]);
        i += n;
        w += n;
    }
    // Eight steps (an ASCII byte or a two-byte sequence) at a time while there are 16 bytes
    // of input and room for eight steps, with one bounds check per eight. A two-byte
    // sequence is one load and one 4-byte store (the fourth byte is overwritten next, or put
    // back before returning).
    let mut ring = crate::simd::spill::Ring::<u8>::new();
    let mut spill = crate::simd::Spill::new(w, &mut ring);
    const STEPS8: usize = 7 * 3 + 4;
    while let Some(s) = src.get(i..).and_then(|s| s.first_chunk::<16>()) {
        if dst.len() < w + STEPS8 {
            break;
        }
        spill.cover(dst, w, w + STEPS8);
        let d: &mut [u8; STEPS8] = (&mut dst[w..w + STEPS8]).try_into().unwrap();
        let (mut p, mut o) = (0, 0);
        let mut k = 0;
        while k < 8 {
            let v = u16::from_be_bytes([s[p], s[p + 1]]);
            if v < 0x8000 {
                d[o] = (v >> 8) as u8;
                o += 1;
                p += 1;
            } else {
                let e = table[(v - 0x8000) as usize];
                if e == 0 {
                    break;
                }
                d[o..o + 4].copy_from_slice(&e.to_le_bytes());
                o += (e >> 30) as usize;
                p += 2;
            }
            k += 1;
        }
        i += p;
        w += o;
        if k < 8 {
            spill.restore(dst, w);
            return (i, w);
        }
        if p == 8 {
            // Eight ASCII bytes: the rest of the run in bulk.
            let n = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[w..]);
            i += n;
            w += n;
        }
    }
    // The same one step at a time (near the end of the input or of the room).
    while let Some(&b) = src.get(i) {
        if b < 0x80 {
            let k = super::ascii_tail_to_utf8(src, i, &mut dst[w..]);
            if k > 0 {
                i += k;
                w += k;
                continue;
            }
        }
        if dst.len() < w + 4 {
            break;
        }
        if b < 0x80 {
            dst[w] = b;
            w += 1;
            i += 1;
            continue;
        }
        let Some(&next) = src.get(i + 1) else {
            break;
        };
        let e = table[(u16::from_be_bytes([b, next]) - 0x8000) as usize];
        if e == 0 {
            break;
        }
        spill.cover(dst, w, w + 4);
        dst[w..w + 4].copy_from_slice(&e.to_le_bytes());
        w += (e >> 30) as usize;
        i += 2;
    }
    spill.restore(dst, w);
    (i, w)
}

/// Direct UTF-8 output.
pub(crate) struct Utf8Out<'a> {
    dst: &'a mut [u8],
    w: usize,
}

impl Out for Utf8Out<'_> {
    #[inline(always)]
    fn room4(&self) -> bool {
        self.dst.len() - self.w >= 4
    }
    #[inline(always)]
    fn pairs(&mut self, src: &[u8], i: usize, t8: &Utf8Pairs, _: Option<&Utf16Pairs>) -> usize {
        let (i, w) = utf8_run(src, i, self.dst, self.w, t8);
        self.w = w;
        i
    }
    #[inline(always)]
    fn push_gb_pair(&mut self, lead: usize, trail: usize) -> bool {
        let e = PAIRS_UTF8[(lead + 1) * 256 + trail];
        if e == 0 {
            return false;
        }
        // Two or three bytes (room4() was checked).
        self.w += super::put_pair_utf8(self.dst, self.w, e);
        true
    }
    #[inline(always)]
    fn push_bmp(&mut self, cp: u16) {
        debug_assert!(cp >= 0x80);
        let w = self.w;
        let cp = cp as u32;
        if cp >= 0x800 {
            // room4() was checked.
            self.dst[w..w + 3].copy_from_slice(&[
                0xE0 | (cp >> 12) as u8,
                0x80 | ((cp >> 6) & 0x3F) as u8,
                0x80 | (cp & 0x3F) as u8,
            ]);
            self.w = w + 3;
        } else {
            self.dst[w..w + 2].copy_from_slice(&[0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
            self.w = w + 2;
        }
    }
    #[inline(always)]
    fn push(&mut self, cp: u32) {
        let w = self.w;
        if cp < 0x80 {
            self.dst[w] = cp as u8;
            self.w = w + 1;
        } else if cp < 0x800 {
            let out = &mut self.dst[w..w + 2];
            out[0] = 0xC0 | (cp >> 6) as u8;
            out[1] = 0x80 | (cp & 0x3F) as u8;
            self.w = w + 2;
        } else if cp < 0x10000 {
            let out = &mut self.dst[w..w + 3];
            out[0] = 0xE0 | (cp >> 12) as u8;
            out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[2] = 0x80 | (cp & 0x3F) as u8;
            self.w = w + 3;
        } else {
            let out = &mut self.dst[w..w + 4];
            out[0] = 0xF0 | (cp >> 18) as u8;
            out[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
            out[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[3] = 0x80 | (cp & 0x3F) as u8;
            self.w = w + 4;
        }
    }
    #[inline(always)]
    fn ascii(&mut self, src: &[u8]) -> usize {
        let w = self.w;
        if w >= self.dst.len() {
            return 0;
        }
        // A lone ASCII byte between multi-byte characters is common: no run copy for it.
        if src.len() < 2 || src[1] >= 0x80 {
            self.dst[w] = src[0];
            self.w = w + 1;
            return 1;
        }
        let n = crate::simd::copy_ascii_to_utf8(src, &mut self.dst[w..]);
        self.w = w + n;
        n
    }
}

/// Direct UTF-16 output.
pub(crate) struct Utf16Out<'a> {
    dst: &'a mut [u16],
    w: usize,
}

impl Out for Utf16Out<'_> {
    #[inline(always)]
    fn room4(&self) -> bool {
        self.dst.len() - self.w >= 2
    }
    #[inline(always)]
    fn pairs(&mut self, src: &[u8], i: usize, _: &Utf8Pairs, t16: Option<&Utf16Pairs>) -> usize {
        let Some(table) = t16 else {
            return i;
        };
        let (i, w) = utf16_run(src, i, self.dst, self.w, table);
        self.w = w;
        i
    }
    #[inline(always)]
    fn push_bmp(&mut self, cp: u16) {
        self.dst[self.w] = cp;
        self.w += 1;
    }
    #[inline(always)]
    fn push(&mut self, cp: u32) {
        let w = self.w;
        if cp < 0x10000 {
            self.dst[w] = cp as u16;
            self.w = w + 1;
        } else {
            let out = &mut self.dst[w..w + 2];
            let c = cp - 0x10000;
            out[0] = 0xD800 | (c >> 10) as u16;
            out[1] = 0xDC00 | (c & 0x3FF) as u16;
            self.w = w + 2;
        }
    }
    #[inline(always)]
    fn ascii(&mut self, src: &[u8]) -> usize {
        let w = self.w;
        if w >= self.dst.len() {
            return 0;
        }
        if src.len() < 2 || src[1] >= 0x80 {
            self.dst[w] = src[0] as u16;
            self.w = w + 1;
            return 1;
        }
        let n = crate::simd::copy_ascii_to_utf16(src, &mut self.dst[w..]);
        self.w = w + n;
        n
    }
}

/// Output through a [`Sink`] without direct buffer access.
struct SinkOut<'a, S: Sink>(&'a mut S);

impl<S: Sink> Out for SinkOut<'_, S> {
    #[inline(always)]
    fn room4(&self) -> bool {
        self.0.room() >= 4
    }
    #[inline(always)]
    fn push(&mut self, cp: u32) {
        let fitted = self.0.put(cp);
        debug_assert!(fitted);
    }
    #[inline(always)]
    fn ascii(&mut self, src: &[u8]) -> usize {
        self.0.put_ascii_run(src)
    }
}

/// A decoder fast path, generic over where it writes.
pub(crate) trait FastPath {
    /// Decodes a prefix of `src` into `out`; returns the bytes read.
    fn run<O: Out>(src: &[u8], out: &mut O) -> usize;
}

/// Runs fast path `F` over `src` into `sink`, writing directly into its buffer when it has
/// one. Returns the bytes read.
#[inline(always)]
pub(crate) fn run_out<F: FastPath, S: Sink>(src: &[u8], sink: &mut S) -> usize {
    if let Some((dst, pos)) = sink.utf8_parts() {
        let mut out = Utf8Out { dst, w: *pos };
        let n = F::run(src, &mut out);
        *pos = out.w;
        return n;
    }
    if let Some((dst, pos)) = sink.utf16_parts() {
        let mut out = Utf16Out { dst, w: *pos };
        let n = F::run(src, &mut out);
        *pos = out.w;
        return n;
    }
    F::run(src, &mut SinkOut(sink))
}

/// The 18 rows of the gb18030 encoder's step 5 table (Private Use code points kept on their
/// GB18030-2005 two-byte sequences), sorted by code point.
const PUA_SIDE_TABLE: [(u16, [u8; 2]); 18] = [
    (0xE78D, [0xA6, 0xD9]),
    (0xE78E, [0xA6, 0xDA]),
    (0xE78F, [0xA6, 0xDB]),
    (0xE790, [0xA6, 0xDC]),
    (0xE791, [0xA6, 0xDD]),
    (0xE792, [0xA6, 0xDE]),
    (0xE793, [0xA6, 0xDF]),
    (0xE794, [0xA6, 0xEC]),
    (0xE795, [0xA6, 0xED]),
    (0xE796, [0xA6, 0xF3]),
    (0xE81E, [0xFE, 0x59]),
    (0xE826, [0xFE, 0x61]),
    (0xE82B, [0xFE, 0x66]),
    (0xE82C, [0xFE, 0x67]),
    (0xE832, [0xFE, 0x6D]),
    (0xE843, [0xFE, 0x7E]),
    (0xE854, [0xFE, 0x90]),
    (0xE864, [0xFE, 0xA0]),
];

/// The gb18030 encoder's state: "is GBK".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Encoder {
    is_gbk: bool,
}

impl Gb18030Encoder {
    pub(crate) fn new(is_gbk: bool) -> Self {
        Gb18030Encoder { is_gbk }
    }
}

impl EncodeHandler for Gb18030Encoder {
    // "gb18030 encoder" handler (step 1, end-of-queue, is the default `end`).
    #[inline(always)]
    fn handle(&mut self, code_point: u32) -> EncStep {
        // 2. If codePoint is an ASCII code point, then return a byte whose value is codePoint.
        if code_point < 0x80 {
            return EncStep::one(code_point as u8);
        }
        // 3. If codePoint is U+E5E5, then return error with codePoint.
        if code_point == 0xE5E5 {
            return EncStep::Error(code_point);
        }
        // 4. If is GBK is true and codePoint is U+20AC (€), then return byte 0x80.
        if self.is_gbk && code_point == 0x20AC {
            return EncStep::one(0x80);
        }
        // 5. If there is a row in the table whose first column is codePoint, then return the
        //    two bytes on the same row listed in the second column.
        if (0xE78D..=0xE864).contains(&code_point) {
            if let Ok(i) = PUA_SIDE_TABLE.binary_search_by_key(&(code_point as u16), |&(c, _)| c) {
                let [a, b] = PUA_SIDE_TABLE[i].1;
                return EncStep::two(a, b);
            }
        }
        // 6. Let pointer be the index pointer for codePoint in index gb18030.
        // 7. If pointer is non-null:
        if let Some(pointer) = GB18030_ENCODE.get(code_point) {
            // 7.1. Let leading be pointer / 190 + 0x81.
            let leading = (pointer / 190) as u8 + 0x81;
            // 7.2. Let trailing be pointer % 190.
            let trailing = (pointer % 190) as u8;
            // 7.3. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x41.
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            // 7.4. Return two bytes whose values are leading and trailing + offset.
            return EncStep::two(leading, trailing + offset);
        }
        // 8. If is GBK is true, then return error with codePoint.
        if self.is_gbk {
            return EncStep::Error(code_point);
        }
        // 9. Set pointer to the index gb18030 ranges pointer for codePoint.
        let mut pointer = ranges_pointer(code_point);
        // 10. Let byte1 be pointer / (10 × 126 × 10).
        let byte1 = pointer / (10 * 126 * 10);
        // 11. Set pointer to pointer % (10 × 126 × 10).
        pointer %= 10 * 126 * 10;
        // 12. Let byte2 be pointer / (10 × 126).
        let byte2 = pointer / (10 * 126);
        // 13. Set pointer to pointer % (10 × 126).
        pointer %= 10 * 126;
        // 14. Let byte3 be pointer / 10.
        let byte3 = pointer / 10;
        // 15. Let byte4 be pointer % 10.
        let byte4 = pointer % 10;
        // 16. Return four bytes whose values are byte1 + 0x81, byte2 + 0x30, byte3 + 0x81,
        //     byte4 + 0x30.
        EncStep::Bytes {
            buf: [
                byte1 as u8 + 0x81,
                byte2 as u8 + 0x30,
                byte3 as u8 + 0x81,
                byte4 as u8 + 0x30,
            ],
            len: 4,
        }
    }

    fn ascii_is_identity(&self) -> bool {
        true
    }

    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        encode_fast(self, Utf8In(src.as_bytes()), dst)
    }

    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        encode_fast(self, Utf16In(src), dst)
    }
}

/// Input of the encoders' fast paths: UTF-8 or UTF-16.
pub(crate) trait EncIn {
    fn len(&self) -> usize;
    /// The unit at `r` if it is ASCII.
    fn ascii_at(&self, r: usize) -> Option<u8>;
    /// Copies the ASCII run at `r` as far as it fits in `dst`; returns its length.
    fn ascii_run(&self, r: usize, dst: &mut [u8]) -> usize;
    /// The non-ASCII scalar value at `r` and its length in units; `None` for a lone
    /// surrogate (left to the driver).
    fn scalar(&self, r: usize) -> Option<(u32, usize)>;
}

pub(crate) struct Utf8In<'a>(pub(crate) &'a [u8]);

impl EncIn for Utf8In<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn ascii_at(&self, r: usize) -> Option<u8> {
        let u = self.0[r];
        if u < 0x80 {
            Some(u)
        } else {
            None
        }
    }
    #[inline(always)]
    fn ascii_run(&self, r: usize, dst: &mut [u8]) -> usize {
        crate::simd::copy_ascii_to_ascii(&self.0[r..], dst)
    }
    #[inline(always)]
    fn scalar(&self, r: usize) -> Option<(u32, usize)> {
        Some(decode_utf8_at(self.0, r))
    }
}

pub(crate) struct Utf16In<'a>(pub(crate) &'a [u16]);

impl EncIn for Utf16In<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn ascii_at(&self, r: usize) -> Option<u8> {
        let u = self.0[r];
        if u < 0x80 {
            Some(u as u8)
        } else {
            None
        }
    }
    #[inline(always)]
    fn ascii_run(&self, r: usize, dst: &mut [u8]) -> usize {
        crate::simd::copy_utf16_ascii_to_ascii(&self.0[r..], dst)
    }
    #[inline(always)]
    fn scalar(&self, r: usize) -> Option<(u32, usize)> {
        decode_utf16_at(self.0, r)
    }
}

/// The encoders' fast path: `h.handle` on each scalar value of `src` (ASCII runs copied),
/// stopping at a character boundary before an error, a lone surrogate, or when fewer than 4
/// bytes of `dst` are free. Returns (units read, bytes written).
#[inline(always)]
pub(crate) fn encode_fast<H: EncodeHandler, I: EncIn>(
    h: &mut H,
    src: I,
    dst: &mut [u8],
) -> (usize, usize) {
    let len = src.len();
    let (mut r, mut w) = (0, 0);
    while r < len {
        if let Some(b) = src.ascii_at(r) {
            // A lone ASCII character between others is common: no run copy for it.
            if r + 1 >= len || src.ascii_at(r + 1).is_none() {
                let Some(d) = dst.get_mut(w) else {
                    break;
                };
                *d = b;
                r += 1;
                w += 1;
                continue;
            }
            let n = src.ascii_run(r, &mut dst[w..]);
            if n == 0 {
                break;
            }
            r += n;
            w += n;
            continue;
        }
        if dst.len() - w < 4 {
            break;
        }
        let Some((cp, units)) = src.scalar(r) else {
            break;
        };
        let EncStep::Bytes { buf, len: n } = h.handle(cp) else {
            break;
        };
        match n {
            2 => dst[w..w + 2].copy_from_slice(&buf[..2]),
            4 => dst[w..w + 4].copy_from_slice(&buf),
            _ => dst[w] = buf[0],
        }
        w += n as usize;
        r += units;
    }
    (r, w)
}

/// The scalar value of the (valid) non-ASCII UTF-8 sequence at `s[i..]` and its length.
#[inline(always)]
pub(crate) fn decode_utf8_at(s: &[u8], i: usize) -> (u32, usize) {
    let b0 = s[i] as u32;
    if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | (s[i + 1] as u32 & 0x3F), 2)
    } else if b0 < 0xF0 {
        (
            ((b0 & 0x0F) << 12) | ((s[i + 1] as u32 & 0x3F) << 6) | (s[i + 2] as u32 & 0x3F),
            3,
        )
    } else {
        (
            ((b0 & 0x07) << 18)
                | ((s[i + 1] as u32 & 0x3F) << 12)
                | ((s[i + 2] as u32 & 0x3F) << 6)
                | (s[i + 3] as u32 & 0x3F),
            4,
        )
    }
}

/// The scalar value at `s[i..]` and its length in units; `None` for a lone surrogate (or a
/// leading surrogate ending `s`), which the fast paths leave to the driver.
#[inline(always)]
pub(crate) fn decode_utf16_at(s: &[u16], i: usize) -> Option<(u32, usize)> {
    let u = s[i] as u32;
    if !(0xD800..0xE000).contains(&u) {
        return Some((u, 1));
    }
    if u >= 0xDC00 {
        return None;
    }
    match s.get(i + 1) {
        Some(&t) if (0xDC00..0xE000).contains(&t) => {
            Some((0x10000 + ((u - 0xD800) << 10) + (t as u32 - 0xDC00), 2))
        }
        _ => None,
    }
}

/// Checks `utf8_run` with `table` against decoder handler `H` byte by byte: every non-zero
/// table entry, and runs over long mixed inputs (ASCII, table sequences, other bytes) at
/// every output room.
#[cfg(test)]
pub(crate) fn check_utf8_run<H: DecodeHandler + Default>(table: &Utf8Pairs) {
    fn utf8(cp: u32) -> std::vec::Vec<u8> {
        let mut b = [0u8; 4];
        char::from_u32(cp)
            .unwrap()
            .encode_utf8(&mut b)
            .as_bytes()
            .to_vec()
    }
    // The handler's output for `src` from the initial state, if it is only code points and
    // ends in the initial state.
    fn reference<H: DecodeHandler + Default>(src: &[u8]) -> Option<std::vec::Vec<u8>> {
        let mut h = H::default();
        let mut out = std::vec::Vec::new();
        for &b in src {
            match h.handle(b) {
                Step::Continue => {}
                Step::Emit(cp) => out.extend(utf8(cp)),
                _ => return None,
            }
        }
        (h.held() == 0).then_some(out)
    }
    let mut valid = std::vec::Vec::new();
    for (index, &e) in table.iter().enumerate() {
        let pair = [(index >> 8) as u8 + 0x80, index as u8];
        if e != 0 {
            let len = (e >> 30) as usize;
            assert_eq!(
                reference::<H>(&pair).as_deref(),
                Some(&e.to_le_bytes()[..len]),
                "{pair:02X?}"
            );
            valid.push(pair);
        }
    }
    assert!(valid.len() > 5_000);
    // A small deterministic generator (xorshift).
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..4000 {
        let mut src = std::vec::Vec::new();
        let n = 1 + (next() % 60) as usize;
        for _ in 0..n {
            match next() % 16 {
                0..=2 => src.push((next() % 0x80) as u8),
                3 => src.extend(core::iter::repeat_n(b'a', (next() % 40) as usize)),
                4 if round % 4 == 0 => src.push(next() as u8),
                _ => src.extend(valid[(next() % valid.len() as u64) as usize]),
            }
        }
        let mut full = std::vec![0u8; src.len() * 3 + 8];
        let (i, w) = utf8_run(&src, 0, &mut full, 0, table);
        assert_eq!(
            reference::<H>(&src[..i]).as_deref(),
            Some(&full[..w]),
            "{src:02X?}"
        );
        if round % 4 != 0 {
            // Only ASCII and table sequences: all of it is read.
            assert_eq!(i, src.len(), "{src:02X?}");
        }
        // Less room: a prefix of the same, stopping only for want of room.
        for room in 0..w.min(40) {
            let mut dst = std::vec![0u8; room];
            let (i2, w2) = utf8_run(&src, 0, &mut dst, 0, table);
            assert!(
                i2 <= i && w2 <= room && dst[..w2] == full[..w2],
                "{src:02X?} {room}"
            );
            assert!(w2 + 4 > room, "{src:02X?} {room}: stopped early");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_run_matches_the_handler() {
        check_utf8_run::<Gb18030Decoder>(&PAIRS_UTF8);
    }

    #[test]
    fn table_assumptions_of_the_fast_paths() {
        // `Out::push_bmp` is for non-ASCII code points only.
        assert!(GB18030_DECODE.iter().all(|&cp| cp == 0 || cp >= 0x80));
        // Index gb18030 has no entry for U+E5E5 (step 3) or the side-table code points (step
        // 5), so step order never matters between them and the index.
        assert_eq!(GB18030_ENCODE.get(0xE5E5), None);
        for (cp, _) in PUA_SIDE_TABLE {
            assert_eq!(GB18030_ENCODE.get(cp as u32), None);
        }
        assert!(PUA_SIDE_TABLE.windows(2).all(|w| w[0].0 < w[1].0));
        // The ranges are sorted by pointer and by code point (both binary searches).
        assert!(GB18030_RANGES
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(GB18030_RANGES[0], (0, 0x80));
    }

    #[test]
    fn ranges() {
        assert_eq!(ranges_code_point(7457), Some(0xE7C7));
        assert_eq!(ranges_pointer(0xE7C7), 7457);
        assert_eq!(ranges_code_point(39419), Some(0xFFFF));
        assert_eq!(ranges_code_point(39420), None);
        assert_eq!(ranges_code_point(188999), None);
        assert_eq!(ranges_code_point(189000), Some(0x10000));
        assert_eq!(ranges_code_point(1237575), Some(0x10FFFF));
        assert_eq!(ranges_code_point(1237576), None);
        assert_eq!(ranges_pointer(0x10FFFF), 1237575);
    }
}
