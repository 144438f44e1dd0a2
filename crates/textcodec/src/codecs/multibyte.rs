//! The plumbing shared by the multi-byte (CJK) codecs: pair tables (two-byte sequences
//! pre-decoded to UTF-8 or UTF-16) and the runs over them, the decoders' fast paths
//! ([`FastPath`], [`run_multi`]), the encoders' fast paths ([`encode_fast`], [`run_mapped_utf8`])
//! and the stateless mapped encoders ([`Mapped`], [`MapEncoder`]).

#[cfg(test)]
use super::driver::{DecodeHandler, Step};
use super::driver::{EncStep, EncodeHandler};
use super::handles::{Out, Sink, Source, Utf16Sink, Utf8Sink};

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

/// The encoders' fast path: `h.handle` on each scalar value of `src` (ASCII runs copied),
/// stopping at a character boundary before an error, a lone surrogate, or when fewer than 4
/// bytes of `dst` are free. Returns (units read, bytes written).
#[inline(always)]
pub(crate) fn encode_fast<H: EncodeHandler, I: Source>(
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
            // The two bytes as one 16-bit value: one store, not a byte store each.
            2 => dst[w..w + 2].copy_from_slice(&(u32::from_le_bytes(buf) as u16).to_le_bytes()),
            4 => dst[w..w + 4].copy_from_slice(&buf),
            _ => dst[w] = buf[0],
        }
        w += n as usize;
        r += units;
    }
    (r, w)
}

/// What a stateless encoder makes of one non-ASCII scalar value: one or two bytes, or nothing
/// (an error with that code point).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mapped {
    /// 0 (unmappable), 1 or 2.
    pub(crate) len: u8,
    pub(crate) bytes: [u8; 2],
}

impl Mapped {
    pub(crate) const NONE: Mapped = Mapped {
        len: 0,
        bytes: [0, 0],
    };
    #[inline(always)]
    pub(crate) fn one(b: u8) -> Mapped {
        Mapped {
            len: 1,
            bytes: [b, 0],
        }
    }
    #[inline(always)]
    pub(crate) fn two(a: u8, b: u8) -> Mapped {
        Mapped {
            len: 2,
            bytes: [a, b],
        }
    }
    /// The handler's result for code point `cp` mapped to `self`.
    #[inline(always)]
    pub(crate) fn step(self, cp: u32) -> EncStep {
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
pub(crate) fn run_mapped_utf8(
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

/// The encoder fast path over UTF-16, like [`run_mapped_utf8`]. Surrogates (paired or not) stop
/// it: no supplementary code point is mappable in these encodings.
#[inline(always)]
pub(crate) fn run_mapped_utf16(
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

/// A stateless encoder whose ASCII is the identity and whose other code points map one by
/// one ([`Mapped`]): EUC-JP, Shift_JIS and EUC-KR. Its [`EncodeHandler`] is the blanket one
/// below: the spec's step "If codePoint is an ASCII code point, return a byte whose value is
/// codePoint", then [`map`](Self::map) for the rest of the handler's steps.
pub(crate) trait MapEncoder: Copy {
    /// The handler's steps for a non-ASCII scalar value.
    fn map(code_point: u32) -> Mapped;
}

impl<M: MapEncoder> EncodeHandler for M {
    // Step 1, end-of-queue, is the default `end`.
    #[inline]
    fn handle(&mut self, code_point: u32) -> EncStep {
        // ASCII code point -> byte.
        if code_point < 0x80 {
            return EncStep::one(code_point as u8);
        }
        M::map(code_point).step(code_point)
    }

    fn ascii_is_identity(&self) -> bool {
        true
    }

    #[inline(never)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        run_mapped_utf8(src, dst, M::map)
    }

    #[inline(never)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        run_mapped_utf16(src, dst, M::map)
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
