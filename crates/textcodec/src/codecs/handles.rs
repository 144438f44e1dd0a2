//! The two ends every codec works between: the destination of a decoder ([`Sink`]: the
//! caller's UTF-8 or UTF-16 buffer) and the source of an encoder ([`Source`]: a `&str` or UTF-16
//! code units). One type for each, used by the driver's steps and by the codecs' fast paths.

/// The output side of decoding: UTF-8 bytes or UTF-16 code units, written whole or not at all.
pub(crate) trait Sink {
    /// Units written so far.
    fn written(&self) -> usize;
    /// Units still free.
    fn room(&self) -> usize;
    /// Units needed for scalar value `cp`.
    fn units(cp: u32) -> usize;
    /// Writes scalar value `cp` if it fits whole; returns whether it did.
    fn put(&mut self, cp: u32) -> bool;
    /// Copies the longest run of ASCII bytes at the start of `src` that fits; returns its length.
    fn put_ascii_run(&mut self, src: &[u8]) -> usize;
    /// Whether one more fast-path step of output fits: 4 UTF-8 bytes or 2 UTF-16 units (a
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
    /// returns its length (0 only when there is no room). A lone ASCII byte between non-ASCII
    /// characters (a space, a punctuation mark) is written directly: the bulk copy has a cost
    /// per call.
    fn ascii(&mut self, src: &[u8]) -> usize;
    /// The buffer and position (for codec fast paths that write into it directly).
    fn out(&mut self) -> Out<'_>;
}

/// A sink's buffer and position: one variant per sink, so a codec's match over them is
/// exhaustive and needs no branch for any other kind of sink.
pub(crate) enum Out<'a> {
    /// [`Utf8Sink`]'s.
    Utf8(&'a mut [u8], &'a mut usize),
    /// [`Utf16Sink`]'s.
    Utf16(&'a mut [u16], &'a mut usize),
}

/// A sink writing UTF-8.
pub(crate) struct Utf8Sink<'a> {
    pub(crate) dst: &'a mut [u8],
    pub(crate) pos: usize,
}

impl Sink for Utf8Sink<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn room(&self) -> usize {
        self.dst.len() - self.pos
    }
    #[inline(always)]
    fn units(cp: u32) -> usize {
        if cp < 0x80 {
            1
        } else if cp < 0x800 {
            2
        } else if cp < 0x10000 {
            3
        } else {
            4
        }
    }
    #[inline(always)]
    fn put(&mut self, cp: u32) -> bool {
        debug_assert!(char::from_u32(cp).is_some(), "not a scalar value: {cp:#X}");
        let pos = self.pos;
        let dst = &mut *self.dst;
        if cp < 0x80 {
            if pos < dst.len() {
                dst[pos] = cp as u8;
                self.pos = pos + 1;
                return true;
            }
            false
        } else if cp < 0x800 {
            if let Some(out) = dst.get_mut(pos..pos + 2) {
                out[0] = 0xC0 | (cp >> 6) as u8;
                out[1] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 2;
                return true;
            }
            false
        } else if cp < 0x10000 {
            if let Some(out) = dst.get_mut(pos..pos + 3) {
                out[0] = 0xE0 | (cp >> 12) as u8;
                out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
                out[2] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 3;
                return true;
            }
            false
        } else {
            if let Some(out) = dst.get_mut(pos..pos + 4) {
                out[0] = 0xF0 | (cp >> 18) as u8;
                out[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
                out[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
                out[3] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 4;
                return true;
            }
            false
        }
    }
    #[inline(always)]
    fn put_ascii_run(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::copy_ascii_to_utf8(src, &mut self.dst[self.pos..]);
        self.pos += n;
        n
    }
    #[inline(always)]
    fn room4(&self) -> bool {
        self.dst.len() - self.pos >= 4
    }
    #[inline(always)]
    fn push_bmp(&mut self, cp: u16) {
        debug_assert!(cp >= 0x80);
        let w = self.pos;
        let cp = cp as u32;
        if cp >= 0x800 {
            // room4() was checked.
            self.dst[w..w + 3].copy_from_slice(&[
                0xE0 | (cp >> 12) as u8,
                0x80 | ((cp >> 6) & 0x3F) as u8,
                0x80 | (cp & 0x3F) as u8,
            ]);
            self.pos = w + 3;
        } else {
            self.dst[w..w + 2].copy_from_slice(&[0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
            self.pos = w + 2;
        }
    }
    #[inline(always)]
    fn push(&mut self, cp: u32) {
        let w = self.pos;
        if cp < 0x80 {
            self.dst[w] = cp as u8;
            self.pos = w + 1;
        } else if cp < 0x800 {
            let out = &mut self.dst[w..w + 2];
            out[0] = 0xC0 | (cp >> 6) as u8;
            out[1] = 0x80 | (cp & 0x3F) as u8;
            self.pos = w + 2;
        } else if cp < 0x10000 {
            let out = &mut self.dst[w..w + 3];
            out[0] = 0xE0 | (cp >> 12) as u8;
            out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[2] = 0x80 | (cp & 0x3F) as u8;
            self.pos = w + 3;
        } else {
            let out = &mut self.dst[w..w + 4];
            out[0] = 0xF0 | (cp >> 18) as u8;
            out[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
            out[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
            out[3] = 0x80 | (cp & 0x3F) as u8;
            self.pos = w + 4;
        }
    }
    #[inline(always)]
    fn ascii(&mut self, src: &[u8]) -> usize {
        let w = self.pos;
        if w >= self.dst.len() {
            return 0;
        }
        // A lone ASCII byte between multi-byte characters is common: no run copy for it.
        if src.len() < 2 || src[1] >= 0x80 {
            self.dst[w] = src[0];
            self.pos = w + 1;
            return 1;
        }
        let n = crate::simd::copy_ascii_to_utf8(src, &mut self.dst[w..]);
        self.pos = w + n;
        n
    }
    #[inline(always)]
    fn out(&mut self) -> Out<'_> {
        Out::Utf8(&mut *self.dst, &mut self.pos)
    }
}

/// A sink writing UTF-16 code units.
pub(crate) struct Utf16Sink<'a> {
    pub(crate) dst: &'a mut [u16],
    pub(crate) pos: usize,
}

impl Sink for Utf16Sink<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn room(&self) -> usize {
        self.dst.len() - self.pos
    }
    #[inline(always)]
    fn units(cp: u32) -> usize {
        if cp < 0x10000 {
            1
        } else {
            2
        }
    }
    #[inline(always)]
    fn put(&mut self, cp: u32) -> bool {
        debug_assert!(char::from_u32(cp).is_some(), "not a scalar value: {cp:#X}");
        let pos = self.pos;
        if cp < 0x10000 {
            if pos < self.dst.len() {
                self.dst[pos] = cp as u16;
                self.pos = pos + 1;
                return true;
            }
            false
        } else if let Some(out) = self.dst.get_mut(pos..pos + 2) {
            let c = cp - 0x10000;
            out[0] = 0xD800 | (c >> 10) as u16;
            out[1] = 0xDC00 | (c & 0x3FF) as u16;
            self.pos = pos + 2;
            true
        } else {
            false
        }
    }
    #[inline(always)]
    fn put_ascii_run(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::copy_ascii_to_utf16(src, &mut self.dst[self.pos..]);
        self.pos += n;
        n
    }
    #[inline(always)]
    fn room4(&self) -> bool {
        self.dst.len() - self.pos >= 2
    }
    #[inline(always)]
    fn push_bmp(&mut self, cp: u16) {
        self.dst[self.pos] = cp;
        self.pos += 1;
    }
    #[inline(always)]
    fn push(&mut self, cp: u32) {
        let w = self.pos;
        if cp < 0x10000 {
            self.dst[w] = cp as u16;
            self.pos = w + 1;
        } else {
            let out = &mut self.dst[w..w + 2];
            let c = cp - 0x10000;
            out[0] = 0xD800 | (c >> 10) as u16;
            out[1] = 0xDC00 | (c & 0x3FF) as u16;
            self.pos = w + 2;
        }
    }
    #[inline(always)]
    fn ascii(&mut self, src: &[u8]) -> usize {
        let w = self.pos;
        if w >= self.dst.len() {
            return 0;
        }
        if src.len() < 2 || src[1] >= 0x80 {
            self.dst[w] = src[0] as u16;
            self.pos = w + 1;
            return 1;
        }
        let n = crate::simd::copy_ascii_to_utf16(src, &mut self.dst[w..]);
        self.pos = w + n;
        n
    }
    #[inline(always)]
    fn out(&mut self) -> Out<'_> {
        Out::Utf16(&mut *self.dst, &mut self.pos)
    }
}

/// An encoder's input as its code units: one variant per [`Source`], so a codec's match over
/// them is exhaustive (and, the source's type being known, compiled to one arm).
pub(crate) enum Units<'a> {
    /// A `&str`'s bytes.
    Utf8(&'a [u8]),
    /// UTF-16 code units.
    Utf16(&'a [u16]),
}

/// Where encoder input comes from: a `&str` or UTF-16 code units.
pub(crate) trait Source: Copy {
    /// Its length in code units.
    fn len(&self) -> usize;
    /// Its code units.
    fn units(&self) -> Units<'_>;
    /// The code unit at `r` (a byte of UTF-8, or a UTF-16 code unit): an ASCII code point
    /// when it is less than 0x80.
    fn unit(&self, r: usize) -> u32;
    /// The scalar value at `pos` and the position after it; `None` when `pos` holds a leading
    /// surrogate that ends the input and more input may complete it.
    fn next(&self, pos: usize, last: bool) -> Option<(u32, usize)>;
    /// Whether the ASCII run at `r` is known to be long at a glance: then the encoders' fast
    /// path gives all of it to the bulk copy at once.
    fn long_ascii_run(&self, r: usize) -> bool;
    /// Copies the ASCII run in `r..end` as far as it fits in `dst`; returns its length.
    fn ascii_run(&self, r: usize, end: usize, dst: &mut [u8]) -> usize;
    /// The BMP scalar value at `r` (not a surrogate) and its length in units, or `None` for a
    /// supplementary one or a surrogate: for an encoder that has bytes for no supplementary
    /// code point.
    fn bmp_scalar(&self, r: usize) -> Option<(u32, usize)>;
    /// The scalar value at `r` and its length in units; `None` for a lone surrogate (or a
    /// leading surrogate ending the input), which the fast paths leave to the driver.
    fn scalar(&self, r: usize) -> Option<(u32, usize)>;
}

impl Source for &str {
    #[inline(always)]
    fn len(&self) -> usize {
        str::len(self)
    }
    #[inline(always)]
    fn units(&self) -> Units<'_> {
        Units::Utf8(self.as_bytes())
    }
    #[inline(always)]
    fn unit(&self, r: usize) -> u32 {
        self.as_bytes()[r] as u32
    }
    #[inline(always)]
    fn next(&self, pos: usize, _last: bool) -> Option<(u32, usize)> {
        let lead = self.as_bytes()[pos];
        if lead < 0x80 {
            return Some((lead as u32, pos + 1));
        }
        let (cp, len) = utf8_at(self.as_bytes(), pos);
        Some((cp, pos + len))
    }
    /// Eight ASCII bytes at `r` (one load).
    #[inline(always)]
    fn long_ascii_run(&self, r: usize) -> bool {
        match self.as_bytes().get(r..).and_then(|s| s.first_chunk::<8>()) {
            Some(q) => u64::from_le_bytes(*q) & 0x8080_8080_8080_8080 == 0,
            None => false,
        }
    }
    #[inline(always)]
    fn ascii_run(&self, r: usize, end: usize, dst: &mut [u8]) -> usize {
        crate::simd::copy_ascii_to_ascii(&self.as_bytes()[r..end], dst)
    }
    #[inline(always)]
    fn bmp_scalar(&self, r: usize) -> Option<(u32, usize)> {
        // `self` is valid UTF-8 and `r` is a character boundary.
        let s = self.as_bytes();
        let b = s[r];
        if b < 0x80 {
            Some((b as u32, 1))
        } else if b < 0xE0 {
            Some((utf8_2(b, s[r + 1]), 2))
        } else if b < 0xF0 {
            Some((utf8_3(b, s[r + 1], s[r + 2]), 3))
        } else {
            None
        }
    }
    #[inline(always)]
    fn scalar(&self, r: usize) -> Option<(u32, usize)> {
        Some(utf8_at(self.as_bytes(), r))
    }
}

impl Source for &[u16] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[u16]>::len(self)
    }
    #[inline(always)]
    fn units(&self) -> Units<'_> {
        Units::Utf16(self)
    }
    #[inline(always)]
    fn unit(&self, r: usize) -> u32 {
        self[r] as u32
    }
    #[inline]
    fn next(&self, pos: usize, last: bool) -> Option<(u32, usize)> {
        let u = self[pos] as u32;
        if !(0xD800..0xE000).contains(&u) {
            return Some((u, pos + 1));
        }
        if u >= 0xDC00 {
            // A lone trailing surrogate is U+FFFD.
            return Some((0xFFFD, pos + 1));
        }
        match self.get(pos + 1) {
            Some(&t) if (0xDC00..0xE000).contains(&t) => Some((
                0x10000 + ((u - 0xD800) << 10) + (t as u32 - 0xDC00),
                pos + 2,
            )),
            // A leading surrogate not followed by a trailing one is U+FFFD; at the end of the
            // input it waits for more, unless this is the last input.
            Some(_) => Some((0xFFFD, pos + 1)),
            None if last => Some((0xFFFD, pos + 1)),
            None => None,
        }
    }
    /// Never: four UTF-16 code units looked at cost more than they save (Japanese HTML from
    /// UTF-16, callgrind).
    #[inline(always)]
    fn long_ascii_run(&self, r: usize) -> bool {
        let _ = r;
        false
    }
    #[inline(always)]
    fn ascii_run(&self, r: usize, end: usize, dst: &mut [u8]) -> usize {
        crate::simd::copy_utf16_ascii_to_ascii(&self[r..end], dst)
    }
    #[inline(always)]
    fn bmp_scalar(&self, r: usize) -> Option<(u32, usize)> {
        let u = self[r];
        if (0xD800..0xE000).contains(&u) {
            None
        } else {
            Some((u as u32, 1))
        }
    }
    #[inline(always)]
    fn scalar(&self, r: usize) -> Option<(u32, usize)> {
        utf16_at(self, r)
    }
}

/// The scalar value of a valid two-byte UTF-8 sequence (`lead`, then continuation byte `c1`):
/// the spec's "UTF-8 decoder" steps for it, at once.
#[inline(always)]
pub(crate) const fn utf8_2(lead: u8, c1: u8) -> u32 {
    ((lead as u32 & 0x1F) << 6) | (c1 as u32 & 0x3F)
}

/// The scalar value of a valid three-byte UTF-8 sequence, as [`utf8_2`].
#[inline(always)]
pub(crate) const fn utf8_3(lead: u8, c1: u8, c2: u8) -> u32 {
    ((lead as u32 & 0x0F) << 12) | ((c1 as u32 & 0x3F) << 6) | (c2 as u32 & 0x3F)
}

/// The scalar value of the valid UTF-8 sequence at `s[i..]` (`i` a character boundary) and
/// its length.
#[inline(always)]
pub(crate) fn utf8_at(s: &[u8], i: usize) -> (u32, usize) {
    let b0 = s[i];
    if b0 < 0x80 {
        (b0 as u32, 1)
    } else if b0 < 0xE0 {
        (utf8_2(b0, s[i + 1]), 2)
    } else if b0 < 0xF0 {
        (utf8_3(b0, s[i + 1], s[i + 2]), 3)
    } else {
        (
            ((b0 as u32 & 0x07) << 18)
                | ((s[i + 1] as u32 & 0x3F) << 12)
                | ((s[i + 2] as u32 & 0x3F) << 6)
                | (s[i + 3] as u32 & 0x3F),
            4,
        )
    }
}

/// The scalar value at `s[i..]` and its length in units; `None` for a lone surrogate (or a
/// leading surrogate ending `s`).
#[inline(always)]
pub(crate) fn utf16_at(s: &[u16], i: usize) -> Option<(u32, usize)> {
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
