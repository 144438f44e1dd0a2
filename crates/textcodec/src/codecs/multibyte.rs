//! The plumbing shared by the multi-byte (CJK) codecs: pair tables (two-byte sequences
//! pre-decoded to UTF-8 or UTF-16) and the runs over them, the decoders' fast paths
//! ([`FastPath`], [`run_multi`]), and the encoders' fast path ([`encode_run`], over every
//! [`FastEncoder`]).

#[cfg(test)]
use super::driver::{DecodeHandler, Step};
use super::driver::{EncStep, EncodeHandler};
use super::handles::{Out, Sink, Source, Units, Utf16Sink, Utf8Sink};

/// The decoder fast path shared by EUC-JP, Shift_JIS and EUC-KR from the initial state:
/// ASCII runs, and the non-ASCII sequences `seq` decodes (`seq(src, i)`: the code point and
/// length of the valid sequence at `src[i]`, `src[i] >= 0x80`, complete inside `src`, or
/// `None`). Stops before anything else and before output that does not fit. All these code
/// points are in the BMP and at least U+0080.
#[inline(always)]
pub(crate) fn run_multi<S: Sink>(
    src: &[u8],
    sink: &mut S,
    seq: impl Fn(&[u8], usize) -> Option<(u32, usize)>,
) -> usize {
    match sink.out() {
        Out::Utf8(dst, pos) => run_multi_utf8(src, dst, pos, seq),
        Out::Utf16(dst, pos) => run_multi_utf16(src, dst, pos, seq),
    }
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

/// A two-byte decode table pre-encoded in UTF-8, indexed by (leading byte − 0x80) × 256 +
/// trailing byte: a non-ASCII BMP code point pre-encoded in UTF-8 ([`super::utf8_entry`]);
/// 0 for anything else
/// (null, not a leading or trailing byte, a supplementary code point, a pair of code
/// points: all left to the general path). 128 KiB.
pub(crate) type Utf8Pairs = [u32; 0x8000];

/// The [`Utf8Pairs`] entry for `cp` (0 for a code point the table leaves to the general
/// path).
pub(crate) const fn utf8_pair_entry(cp: u32) -> u32 {
    if cp < 0x80 || cp >= 0x10000 {
        0
    } else {
        super::utf8_entry(cp)
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

/// The index code points of a decoder's two-byte sequences, indexed as [`Utf8Pairs`]: a
/// non-ASCII BMP code point, or 0 for anything else. 64 KiB.
pub(crate) type Utf16Pairs = [u16; 0x8000];

/// The loop of [`PairSink::pairs`] for direct UTF-16 output at `dst[w..]`; returns the new `i`
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

/// The loop of [`PairSink::pairs`] for direct UTF-8 output at `dst[w..]`; returns the new
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
    // of input and 32 bytes of room, with one bounds check per eight. A two-byte sequence
    // is one load and one 4-byte store (its fourth byte, and the third of a two-byte
    // character, overwritten next). Between groups nothing past the output has been
    // stored to: the caller's 32 bytes at a group's start are kept before its stores (they
    // reach at most 7 * 3 + 4 = 25 bytes past it), and the four after its output put back
    // after them (the stores reach at most 2 bytes past the output's end).
    while let Some(s) = src.get(i..).and_then(|s| s.first_chunk::<16>()) {
        let Some(d) = dst.get_mut(w..).and_then(|d| d.first_chunk_mut::<32>()) else {
            break;
        };
        let kept: [u8; 32] = *d;
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
                o += super::utf8_entry_len(e);
                p += 2;
            }
            k += 1;
        }
        // At most 8 * 3 = 24 bytes of output: the mask changes nothing but bounds `o`.
        let o = o & 31;
        let after: &[u8; 4] = kept[o.min(28)..][..4].try_into().unwrap();
        d[o.min(28)..][..4].copy_from_slice(after);
        i += p;
        w += o;
        if k < 8 {
            return (i, w);
        }
        if p == 8 {
            // Eight ASCII bytes: the rest of the run in bulk.
            let n = crate::simd::copy_ascii_to_utf8(&src[i..], &mut dst[w..]);
            i += n;
            w += n;
        }
    }
    // The same one step at a time (near the end of the input or of the room), each
    // character written exactly.
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
        w += super::put_pair_utf8(dst, w, e);
        i += 2;
    }
    (i, w)
}

/// A destination of the pair-table fast paths ([`FastPath`]): the caller's UTF-8 or UTF-16
/// buffer, written through the table of its form.
pub(crate) trait PairSink: Sink {
    /// Decodes the ASCII bytes and the two-byte sequences with a non-zero entry in `t8` (see
    /// [`Utf8Pairs`]) or `t16` (see [`Utf16Pairs`]; `None`: no two-byte sequences) at
    /// `src[i..]`, as far as they go and there is room; returns the new `i`.
    fn pairs(&mut self, src: &[u8], i: usize, t8: &Utf8Pairs, t16: Option<&Utf16Pairs>) -> usize;
    /// Writes the code point of two-byte sequence `index` ([`Utf8Pairs`] indexing) from
    /// `t8` or `t16` and returns true, or returns false when its entry is 0; only after
    /// `room4()`.
    #[inline(always)]
    fn push_pair(&mut self, t8: &Utf8Pairs, t16: &Utf16Pairs, index: usize) -> bool {
        let _ = t8;
        match t16[index] {
            0 => false,
            cp => {
                self.push_bmp(cp);
                true
            }
        }
    }
}

impl PairSink for Utf8Sink<'_> {
    #[inline(always)]
    fn pairs(&mut self, src: &[u8], i: usize, t8: &Utf8Pairs, _: Option<&Utf16Pairs>) -> usize {
        let (i, w) = utf8_run(src, i, self.dst, self.pos, t8);
        self.pos = w;
        i
    }
    #[inline(always)]
    fn push_pair(&mut self, t8: &Utf8Pairs, _: &Utf16Pairs, index: usize) -> bool {
        let e = t8[index];
        if e == 0 {
            return false;
        }
        // Two or three bytes (room4() was checked).
        self.pos += super::put_pair_utf8(self.dst, self.pos, e);
        true
    }
}

impl PairSink for Utf16Sink<'_> {
    #[inline(always)]
    fn pairs(&mut self, src: &[u8], i: usize, _: &Utf8Pairs, t16: Option<&Utf16Pairs>) -> usize {
        let Some(table) = t16 else {
            return i;
        };
        let (i, w) = utf16_run(src, i, self.dst, self.pos, table);
        self.pos = w;
        i
    }
}

/// A decoder fast path over pair tables, generic over where it writes.
pub(crate) trait FastPath {
    /// Decodes a prefix of `src` into `out`; returns the bytes read.
    fn run<O: PairSink>(src: &[u8], out: &mut O) -> usize;
}

/// Runs fast path `F` over `src` into `sink`, writing directly into its buffer (through a
/// local copy of its position, which stays in a register). Returns the bytes read.
#[inline(always)]
pub(crate) fn run_out<F: FastPath, S: Sink>(src: &[u8], sink: &mut S) -> usize {
    match sink.out() {
        Out::Utf8(dst, pos) => {
            let mut out = Utf8Sink { dst, pos: *pos };
            let n = F::run(src, &mut out);
            *pos = out.pos;
            n
        }
        Out::Utf16(dst, pos) => {
            let mut out = Utf16Sink { dst, pos: *pos };
            let n = F::run(src, &mut out);
            *pos = out.pos;
            n
        }
    }
}

/// What a [`FastEncoder`]'s handler returns to [`encode_run`] for one scalar value or for
/// end-of-queue (see [`Steps`]): the driver's [`EncStep`] in another shape. Bytes are held in a `u32`, the first in its lowest
/// byte, and their number is the variant: every variant is one `u32` or nothing, so a step is
/// two values in registers (its kind and the `u32`), and [`encode_run`], into which the
/// handler is inlined, goes straight from each `return` to its store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastStep {
    /// One byte.
    One(u32),
    /// Two bytes.
    Two(u32),
    /// Three bytes.
    Three(u32),
    /// Four bytes.
    Four(u32),
    /// Three bytes (an escape sequence), after which the same item is processed again: the
    /// spec's "restore codePoint to ioQueue ... return three bytes".
    Again(u32),
    /// "error" with this code point.
    Error(u32),
    /// "finished".
    Finished,
}

/// The steps an encoder's handler returns, in the shape its caller wants: [`FastStep`] for
/// [`encode_run`], the driver's [`EncStep`] for the driver. The handler is written once,
/// generic over this, and makes each kind of step directly: no conversion between the two.
pub(crate) trait Steps: Copy {
    /// One byte, `b`.
    fn one(b: u8) -> Self;
    /// Two bytes, `a` then `b`.
    fn two(a: u8, b: u8) -> Self;
    /// Three bytes.
    fn three(bytes: [u8; 3]) -> Self;
    /// Four bytes.
    fn four(bytes: [u8; 4]) -> Self;
    /// An escape sequence, then the same item again (the spec's "restore codePoint to
    /// ioQueue ... return three bytes").
    fn again(escape: [u8; 3]) -> Self;
    /// "error" with code point `cp`.
    fn error(cp: u32) -> Self;
    /// "finished".
    fn finished() -> Self;
}

impl Steps for FastStep {
    #[inline(always)]
    fn one(b: u8) -> FastStep {
        FastStep::One(b as u32)
    }
    #[inline(always)]
    fn two(a: u8, b: u8) -> FastStep {
        FastStep::Two(u16::from_le_bytes([a, b]) as u32)
    }
    #[inline(always)]
    fn three(bytes: [u8; 3]) -> FastStep {
        FastStep::Three(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], 0]))
    }
    #[inline(always)]
    fn four(bytes: [u8; 4]) -> FastStep {
        FastStep::Four(u32::from_le_bytes(bytes))
    }
    #[inline(always)]
    fn again(escape: [u8; 3]) -> FastStep {
        FastStep::Again(u32::from_le_bytes([escape[0], escape[1], escape[2], 0]))
    }
    #[inline(always)]
    fn error(cp: u32) -> FastStep {
        FastStep::Error(cp)
    }
    #[inline(always)]
    fn finished() -> FastStep {
        FastStep::Finished
    }
}

impl Steps for EncStep {
    #[inline(always)]
    fn one(b: u8) -> EncStep {
        EncStep::one(b)
    }
    #[inline(always)]
    fn two(a: u8, b: u8) -> EncStep {
        EncStep::Bytes {
            buf: [a, b, 0, 0],
            len: 2,
        }
    }
    #[inline(always)]
    fn three(bytes: [u8; 3]) -> EncStep {
        EncStep::Bytes {
            buf: [bytes[0], bytes[1], bytes[2], 0],
            len: 3,
        }
    }
    #[inline(always)]
    fn four(bytes: [u8; 4]) -> EncStep {
        EncStep::Bytes { buf: bytes, len: 4 }
    }
    #[inline(always)]
    fn again(escape: [u8; 3]) -> EncStep {
        EncStep::Again(escape)
    }
    #[inline(always)]
    fn error(cp: u32) -> EncStep {
        EncStep::Error(cp)
    }
    #[inline(always)]
    fn finished() -> EncStep {
        EncStep::Finished
    }
}

/// A multi-byte encoder, as the fast path [`encode_run`] runs it: the spec's handler and
/// what the fast path needs to know of it. Every `FastEncoder` is an [`EncodeHandler`] (the
/// blanket impl below), whose fast paths over UTF-8 and UTF-16 are `encode_run`.
pub(crate) trait FastEncoder: Copy {
    /// Whether some supplementary code point has bytes (gb18030, Big5): the fast path then
    /// decodes four-byte UTF-8 sequences and surrogate pairs, and otherwise stops at them (the
    /// driver then reports the error).
    const SUPPLEMENTARY: bool;
    /// Whether every ASCII code point encodes as its byte in every state: the handler's step
    /// "If codePoint is an ASCII code point, return a byte whose value is codePoint", before
    /// any other that applies to it (all but ISO-2022-JP). That step is then the blanket
    /// [`EncodeHandler`]'s, and [`handler`](Self::handler) is only for the other code points.
    const ASCII_IS_IDENTITY: bool = true;
    /// The encoder's handler for one scalar value (not an ASCII one, if
    /// [`ASCII_IS_IDENTITY`](Self::ASCII_IS_IDENTITY)).
    fn handler<S: Steps>(&mut self, code_point: u32) -> S;
    /// The encoder's handler for end-of-queue.
    #[inline(always)]
    fn end_of_queue<S: Steps>(&mut self) -> S {
        S::finished()
    }
    /// Whether ASCII code point `u` encodes as the byte `u` in the current state: always if
    /// [`ASCII_IS_IDENTITY`](Self::ASCII_IS_IDENTITY).
    #[inline(always)]
    fn plain_ascii(&self, u: u32) -> bool {
        let _ = u;
        true
    }
    /// The length of the run of [`plain_ascii`](Self::plain_ascii) code points at
    /// `units[r..]`, which starts with one; `None`: the whole ASCII run.
    #[inline(always)]
    fn plain_ascii_len(&self, units: Units<'_>, r: usize) -> Option<usize> {
        let _ = (units, r);
        None
    }
}

/// How many characters of an ASCII run [`encode_run`] copies one by one before it calls the
/// bulk copy for the rest, which has a cost per call: most ASCII runs between CJK characters
/// are a few characters long (of ja.html's 3,027, 1,464 are 1 to 8). Four: fewer or more
/// (1, 3, 5, 6, 8, 16) counted more instructions on Japanese HTML from UTF-8 or UTF-16.
const SHORT_RUN: usize = 4;

/// The encoders' fast path: the handler of `e` on each scalar value of `src` into `dst`,
/// ASCII runs copied; stops at a character boundary before an error, a lone surrogate, a
/// supplementary code point the encoder has no bytes for (not
/// [`SUPPLEMENTARY`](FastEncoder::SUPPLEMENTARY)), or when fewer than 4 bytes of `dst` are
/// free. An escape sequence (ISO-2022-JP's "restore codePoint ... return three bytes") is a
/// step of its own, as in the driver: it may end the run before its code point. Returns
/// (units read, bytes written).
#[inline(always)]
pub(crate) fn encode_run<E: FastEncoder, I: Source>(
    e: &mut E,
    src: I,
    dst: &mut [u8],
) -> (usize, usize) {
    // The state in a local (in a register through the loop), written back at the end; the
    // room left as a slice (its pointer and length in registers: one comparison says whether
    // a step fits, and no store checks again).
    let mut h = *e;
    let room = dst.len();
    let mut out: &mut [u8] = dst;
    let len = src.len();
    let mut r = 0usize;
    'run: while r < len {
        let u = src.unit(r);
        if u < 0x80 && h.plain_ascii(u) {
            // Up to `SHORT_RUN` ASCII characters one by one (a lone one between others is
            // common, and short runs: spaces, punctuation, digits, short tags), the rest of a
            // longer run in bulk: the bulk copy has a cost per call. A run known to be long
            // goes to it at once.
            if !(E::ASCII_IS_IDENTITY && src.long_ascii_run(r)) {
                let mut u = u;
                let mut k = 1;
                loop {
                    let Some((d, rest)) = core::mem::take(&mut out).split_first_mut() else {
                        break 'run;
                    };
                    *d = u as u8;
                    out = rest;
                    r += 1;
                    if r >= len {
                        break 'run;
                    }
                    u = src.unit(r);
                    if u >= 0x80 || !h.plain_ascii(u) {
                        continue 'run;
                    }
                    if k >= SHORT_RUN {
                        break;
                    }
                    k += 1;
                }
            }
            let end = match h.plain_ascii_len(src.units(), r) {
                Some(n) => r + n,
                None => len,
            };
            let n = src.ascii_run(r, end, out);
            if n == 0 {
                // No room (the run starts with a plain ASCII character).
                break;
            }
            out = &mut core::mem::take(&mut out)[n..];
            r += n;
            continue 'run;
        }
        // The characters up to the next plain ASCII one, in a loop of their own.
        loop {
            if out.len() < 4 {
                break 'run;
            }
            // Not ASCII if `E::ASCII_IS_IDENTITY` (valid UTF-8 or UTF-16 from a unit of 0x80
            // or more), as `handler` then wants.
            let scalar = if E::SUPPLEMENTARY {
                src.scalar(r)
            } else {
                src.bmp_scalar(r)
            };
            let Some((cp, units)) = scalar else {
                break 'run;
            };
            // Each kind of step with its own store and advance (room for 4 bytes was checked).
            let rest = core::mem::take(&mut out);
            match h.handler::<FastStep>(cp) {
                FastStep::One(v) => {
                    rest[0] = v as u8;
                    out = &mut rest[1..];
                }
                FastStep::Two(v) => {
                    // Byte by byte: where the handler computes the two bytes apart, the stores
                    // take them as they are (and merge where it has them together).
                    rest[0] = v as u8;
                    rest[1] = (v >> 8) as u8;
                    out = &mut rest[2..];
                }
                FastStep::Three(v) => {
                    rest[..3].copy_from_slice(&v.to_le_bytes()[..3]);
                    out = &mut rest[3..];
                }
                FastStep::Four(v) => {
                    rest[..4].copy_from_slice(&v.to_le_bytes());
                    out = &mut rest[4..];
                }
                FastStep::Again(v) => {
                    // The escape sequence, then the same code point again in the new state.
                    rest[..3].copy_from_slice(&v.to_le_bytes()[..3]);
                    out = &mut rest[3..];
                    continue 'run;
                }
                FastStep::Error(_) | FastStep::Finished => {
                    out = rest;
                    break 'run;
                }
            }
            r += units;
            if r >= len {
                break 'run;
            }
            let u = src.unit(r);
            if u < 0x80 && h.plain_ascii(u) {
                continue 'run;
            }
        }
    }
    *e = h;
    (r, room - out.len())
}

impl<E: FastEncoder> EncodeHandler for E {
    #[inline(always)]
    fn handle(&mut self, code_point: u32) -> EncStep {
        // "If codePoint is an ASCII code point, return a byte whose value is codePoint."
        if E::ASCII_IS_IDENTITY && code_point < 0x80 {
            return EncStep::one(code_point as u8);
        }
        self.handler(code_point)
    }

    #[inline(always)]
    fn end(&mut self) -> EncStep {
        self.end_of_queue()
    }

    #[inline(never)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        encode_run(self, src, dst)
    }

    #[inline(never)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        encode_run(self, src, dst)
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
            let len = super::utf8_entry_len(e);
            assert_eq!(
                reference::<H>(&pair).as_deref(),
                Some(&e.to_le_bytes()[..len]),
                "{pair:02X?}"
            );
            valid.push(pair);
        }
    }
    assert!(valid.len() > 5_000);
    let mut x = 0x2545_F491u32;
    let mut next = move || crate::xorshift32(&mut x) as u64;
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
    use super::super::big5::Big5Encoder;
    use super::super::euc_jp::EucJpEncoder;
    use super::super::euc_kr::EucKrEncoder;
    use super::super::gb18030::Gb18030Encoder;
    use super::super::iso_2022_jp::Iso2022JpEncoder;
    use super::super::shift_jis::ShiftJisEncoder;
    use super::*;
    use core::fmt::Debug;
    use std::string::String;
    use std::vec::Vec;

    /// One item of a test input: a scalar value, or (UTF-16 only) a lone surrogate.
    #[derive(Clone, Copy)]
    enum Item {
        Scalar(u32),
        Lone(u16),
    }

    /// The input as UTF-8 (`None` when it has a lone surrogate) and as UTF-16.
    fn forms(items: &[Item]) -> (Option<String>, Vec<u16>) {
        let mut s = Some(String::new());
        let mut u = Vec::new();
        for &item in items {
            match item {
                Item::Scalar(cp) => {
                    let c = char::from_u32(cp).unwrap();
                    if let Some(s) = s.as_mut() {
                        s.push(c);
                    }
                    u.extend_from_slice(c.encode_utf16(&mut [0; 2]));
                }
                Item::Lone(x) => {
                    s = None;
                    u.push(x);
                }
            }
        }
        (s, u)
    }

    /// A point between two steps of the handler: units read, bytes written, the state, and
    /// whether the step after it is for a supplementary code point.
    struct Boundary<E> {
        read: usize,
        written: usize,
        state: E,
        next_supplementary: bool,
    }

    /// The handler's steps over `items` from state `h` as far as they go (to an error or a
    /// lone surrogate): the bytes and the boundaries between the steps, the start first.
    fn reference<E: FastEncoder>(
        mut h: E,
        items: &[Item],
        utf16: bool,
    ) -> (Vec<u8>, Vec<Boundary<E>>) {
        let mut out = Vec::new();
        let mut at = std::vec![Boundary {
            read: 0,
            written: 0,
            state: h,
            next_supplementary: false,
        }];
        let mut read = 0;
        'items: for &item in items {
            let Item::Scalar(cp) = item else {
                break;
            };
            let units = match char::from_u32(cp).unwrap() {
                c if utf16 => c.len_utf16(),
                c => c.len_utf8(),
            };
            loop {
                let again = match EncodeHandler::handle(&mut h, cp) {
                    EncStep::Bytes { buf, len } => {
                        out.extend_from_slice(&buf[..len as usize]);
                        false
                    }
                    EncStep::Again(escape) => {
                        out.extend_from_slice(&escape);
                        true
                    }
                    EncStep::Error(_) | EncStep::Finished => break 'items,
                };
                if !again {
                    read += units;
                }
                at.last_mut().unwrap().next_supplementary = cp >= 0x10000;
                at.push(Boundary {
                    read,
                    written: out.len(),
                    state: h,
                    next_supplementary: false,
                });
                if !again {
                    break;
                }
            }
        }
        (out, at)
    }

    /// Runs the fast path of `h` (its `run_utf8` and `run_utf16`, which are [`encode_run`])
    /// over `items` into buffers of every room below `rooms` and of room to spare, filled with
    /// `fill`, and checks it against the handler: it stops between two of the handler's steps
    /// with their bytes and state, leaves what follows its output untouched, and stops only
    /// where it may (fewer than 4 bytes free, a next step that does not fit, a supplementary
    /// code point the encoder has no bytes for, or where the handler stops).
    fn check<E: FastEncoder + Debug>(name: &str, h: E, items: &[Item], rooms: usize, fill: u8) {
        let (utf8, utf16) = forms(items);
        for form16 in [false, true] {
            if !form16 && utf8.is_none() {
                continue;
            }
            let (want, at) = reference(h, items, form16);
            for room in (0..rooms).chain([want.len() + 8]) {
                let mut dst = std::vec![fill; room];
                let mut e = h;
                let (r, w) = match (form16, utf8.as_deref()) {
                    (false, Some(s)) => e.run_utf8(s, &mut dst),
                    _ => e.run_utf16(&utf16, &mut dst),
                };
                let what =
                    std::format!("{name} from {h:?}, UTF-16 {form16}, room {room}: {utf16:04X?}");
                let Some(k) = at.iter().position(|b| b.written == w) else {
                    panic!("{what}: {w} bytes written, not between two steps");
                };
                assert_eq!(r, at[k].read, "{what}: read");
                assert_eq!(dst[..w], want[..w], "{what}: bytes");
                assert!(
                    dst[w..].iter().all(|&b| b == fill),
                    "{what}: past the output"
                );
                assert_eq!(
                    std::format!("{e:?}"),
                    std::format!("{:?}", at[k].state),
                    "{what}: state"
                );
                if let Some(next) = at.get(k + 1) {
                    let free = room - w;
                    assert!(
                        free < 4
                            || free < next.written - w
                            || (at[k].next_supplementary && !E::SUPPLEMENTARY),
                        "{what}: stopped early at {r} ({w} bytes written)"
                    );
                }
            }
        }
    }

    /// Every BMP scalar value between two ASCII characters and between two of `cjk`, from the
    /// initial state `h`, then random inputs from states the handler reaches.
    fn check_encoder<E: FastEncoder + Debug>(name: &str, h: E, cjk: u32) {
        let scalars = (0..0x11_0000u32).filter(|cp| char::from_u32(*cp).is_some());
        // The code points with bytes (or an escape first) from the initial state.
        let repertoire: Vec<u32> = scalars
            .clone()
            .filter(|&cp| !matches!(EncodeHandler::handle(&mut h.clone(), cp), EncStep::Error(_)))
            .collect();
        assert!(repertoire.len() > 7000, "{name}");
        for cp in scalars.filter(|cp| *cp < 0x10000 || cp % 61 == 0) {
            for around in [0x61, cjk] {
                let items = [Item::Scalar(around), Item::Scalar(cp), Item::Scalar(around)];
                check(name, h, &items, 0, 0xEE);
            }
        }
        let mut x = 0x2545_F491u32;
        let mut next = move || crate::xorshift32(&mut x) as usize;
        let special = [
            0x0E, 0x0F, 0x1B, 0x5C, 0x7E, 0x80, 0xA5, 0x203E, 0x2212, 0xFF61, 0xFF9F, 0xE5E5,
            0x20AC, 0xFFFD, 0x1_0000, 0x2_0000, 0x2_8CCD,
        ];
        for round in 0..3000 {
            let mut items = Vec::new();
            for _ in 0..1 + next() % 24 {
                let cp = match next() % 16 {
                    0..=2 => (next() % 0x80) as u32,
                    3 => {
                        let n = next() % 40;
                        items.extend((0..n).map(|k| Item::Scalar(0x61 + (k % 26) as u32)));
                        0x20
                    }
                    4 => special[next() % special.len()],
                    5 => loop {
                        // Mostly what the encoder has no bytes for.
                        if let Some(c) = char::from_u32((next() % 0x11_0000) as u32) {
                            break c as u32;
                        }
                    },
                    6 if round % 4 == 0 => {
                        items.push(Item::Lone((0xD800 + next() % 0x800) as u16));
                        0x61
                    }
                    _ => repertoire[next() % repertoire.len()],
                };
                items.push(Item::Scalar(cp));
            }
            // The state after some first character (ISO-2022-JP's ASCII, Roman or jis0208).
            let mut start = h;
            let first = [0x61, 0xA5, cjk][round % 3];
            while let EncStep::Again(_) = EncodeHandler::handle(&mut start, first) {}
            let fill = [0x00, 0xEE, 0xFF][round % 3];
            check(name, start, &items, 48, fill);
        }
    }

    #[test]
    fn encode_run_matches_the_handlers() {
        check_encoder("gb18030", Gb18030Encoder::new(false), 0x4E00);
        check_encoder("GBK", Gb18030Encoder::new(true), 0x4E00);
        check_encoder("Big5", Big5Encoder, 0x4E00);
        check_encoder("EUC-JP", EucJpEncoder, 0x3042);
        check_encoder("ISO-2022-JP", Iso2022JpEncoder::default(), 0x3042);
        check_encoder("Shift_JIS", ShiftJisEncoder, 0x3042);
        check_encoder("EUC-KR", EucKrEncoder, 0xAC00);
    }
}
