//! Streaming encoding from UTF-8 or UTF-16 into caller buffers: the machinery shared by every
//! encoder.
//!
//! Each codec supplies an [`EncodeHandler`], the spec's encoder *handler*, plus optional fast
//! paths. This module implements "process an item" for encoders once: the html and fatal error
//! modes, ISO-2022-JP's "restore code point" (an escape sequence followed by the same code
//! point again), the end-of-queue flush, surrogate handling for UTF-16 input, and exact output
//! bookkeeping (a step that does not fit is rolled back whole).

use crate::codecs::EncoderVariant;
use crate::decoder::{Progress, Status};
use crate::encoding::Encoding;

/// What an encoder handler returns for one scalar value or for end-of-queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EncStep {
    /// One to four bytes.
    Bytes { buf: [u8; 4], len: u8 },
    /// Three bytes (an escape sequence), after which the same item is processed again: the
    /// spec's "restore codePoint to ioQueue ... return three bytes".
    Again([u8; 3]),
    /// "error" with this code point.
    Error(u32),
    /// "finished".
    Finished,
}

impl EncStep {
    #[inline(always)]
    pub(crate) fn one(b: u8) -> EncStep {
        EncStep::Bytes {
            buf: [b, 0, 0, 0],
            len: 1,
        }
    }
    #[inline(always)]
    pub(crate) fn two(a: u8, b: u8) -> EncStep {
        EncStep::Bytes {
            buf: [a, b, 0, 0],
            len: 2,
        }
    }
}

/// An encoder handler: the state and per-item algorithm of one encoder of the spec.
pub(crate) trait EncodeHandler: Copy {
    /// The handler for one scalar value.
    fn handle(&mut self, code_point: u32) -> EncStep;
    /// The handler for end-of-queue.
    fn end(&mut self) -> EncStep {
        EncStep::Finished
    }
    /// Fast path over UTF-8 input: encodes a prefix of `src` without errors into `dst`,
    /// exactly as [`handle`](Self::handle) would; returns (bytes read, bytes written). Stops at
    /// a character boundary before anything it does not handle.
    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        if !self.ascii_is_identity() {
            return (0, 0);
        }
        let n = crate::simd::copy_ascii_to_ascii(src.as_bytes(), dst);
        (n, n)
    }
    /// Fast path over UTF-16 input, like [`run_utf8`](Self::run_utf8).
    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        if !self.ascii_is_identity() {
            return (0, 0);
        }
        let n = crate::simd::copy_utf16_ascii_to_ascii(src, dst);
        (n, n)
    }
    /// Whether, in the current state, every ASCII code point encodes as itself (one byte).
    fn ascii_is_identity(&self) -> bool;
}

/// Where encoder input comes from: a `&str` or UTF-16 code units.
pub(crate) trait Source {
    fn len(&self) -> usize;
    /// The scalar value at `pos` and the position after it; `None` when `pos` holds a leading
    /// surrogate that ends the input and more input may complete it.
    fn next(&self, pos: usize, last: bool) -> Option<(u32, usize)>;
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize);
}

impl Source for &str {
    #[inline(always)]
    fn len(&self) -> usize {
        str::len(self)
    }
    #[inline]
    fn next(&self, pos: usize, _last: bool) -> Option<(u32, usize)> {
        let b = self.as_bytes();
        let lead = b[pos];
        if lead < 0x80 {
            return Some((lead as u32, pos + 1));
        }
        let c = self[pos..].chars().next().expect("character boundary");
        Some((c as u32, pos + c.len_utf8()))
    }
    #[inline(always)]
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize) {
        h.run_utf8(&self[pos..], dst)
    }
}

impl Source for &[u16] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[u16]>::len(self)
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
            Some(_) => Some((0xFFFD, pos + 1)),
            None if last => Some((0xFFFD, pos + 1)),
            None => None,
        }
    }
    #[inline(always)]
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize) {
        h.run_utf16(&self[pos..], dst)
    }
}

/// The outcome of processing one item.
enum One {
    Done,
    Full,
    Fail(u32),
}

/// Writes `&#N;` for `cp` at `dst[*w..]` if it fits whole.
fn write_ncr(cp: u32, dst: &mut [u8], w: &mut usize) -> bool {
    let mut digits = [0u8; 7];
    let mut n = 0;
    let mut v = cp;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let total = n + 3;
    let Some(out) = dst.get_mut(*w..*w + total) else {
        return false;
    };
    out[0] = b'&';
    out[1] = b'#';
    for i in 0..n {
        out[2 + i] = digits[n - 1 - i];
    }
    out[total - 1] = b';';
    *w += total;
    true
}

#[inline(always)]
fn put(bytes: &[u8], dst: &mut [u8], w: &mut usize) -> bool {
    match dst.get_mut(*w..*w + bytes.len()) {
        Some(out) => {
            out.copy_from_slice(bytes);
            *w += bytes.len();
            true
        }
        None => false,
    }
}

/// "Process an item" for one scalar value (or end-of-queue when `cp` is `None`), with
/// rollback when the output does not fit.
#[inline(always)]
fn process<H: EncodeHandler>(
    h: &mut H,
    cp: Option<u32>,
    dst: &mut [u8],
    w: &mut usize,
    html: bool,
    replaced: &mut bool,
) -> One {
    let (mut snap_h, mut snap_w) = (*h, *w);
    loop {
        let step = match cp {
            Some(c) => h.handle(c),
            None => h.end(),
        };
        let ok = match step {
            EncStep::Bytes { buf, len } => {
                if put(&buf[..len as usize], dst, w) {
                    return One::Done;
                }
                false
            }
            EncStep::Again(esc) => {
                // The escape sequence is a step of its own: once written, it stays written
                // even if what follows must wait for more room (the item is then processed
                // again, in the new state, by the next call).
                let ok = put(&esc, dst, w);
                if ok {
                    (snap_h, snap_w) = (*h, *w);
                }
                ok
            }
            EncStep::Error(e) => {
                if !html {
                    return One::Fail(e);
                }
                if write_ncr(e, dst, w) {
                    *replaced = true;
                    return One::Done;
                }
                false
            }
            EncStep::Finished => return One::Done,
        };
        if !ok {
            *h = snap_h;
            *w = snap_w;
            return One::Full;
        }
    }
}

pub(crate) struct EncDriven {
    pub(crate) status: Status,
    pub(crate) read: usize,
    pub(crate) written: usize,
    pub(crate) replaced: bool,
    pub(crate) error: Option<u32>,
    /// A leading surrogate at the end of UTF-16 input was read and is held.
    pub(crate) hold_high: bool,
    /// The `first` item was not processed (no room for it); it must stay held.
    pub(crate) first_pending: bool,
}

/// "Process a queue" for one call of an encoder.
#[inline(always)]
pub(crate) fn drive_encoder<H: EncodeHandler, Src: Source>(
    h: &mut H,
    src: Src,
    first: Option<u32>,
    dst: &mut [u8],
    last: bool,
    html: bool,
) -> EncDriven {
    let mut w = 0usize;
    let mut pos = 0usize;
    let mut replaced = false;
    let done = |status, read, written, replaced, error| EncDriven {
        status,
        read,
        written,
        replaced,
        error,
        hold_high: false,
        first_pending: false,
    };
    if let Some(cp) = first {
        match process(h, Some(cp), dst, &mut w, html, &mut replaced) {
            One::Done => {}
            One::Full => {
                let mut d = done(Status::OutputFull, 0, w, replaced, None);
                d.first_pending = true;
                return d;
            }
            One::Fail(e) => return done(Status::InputEmpty, 0, w, replaced, Some(e)),
        }
    }
    let len = src.len();
    loop {
        let (r, n) = src.run(h, pos, &mut dst[w..]);
        pos += r;
        w += n;
        if pos >= len {
            break;
        }
        let Some((cp, next)) = src.next(pos, last) else {
            // A leading surrogate ends the input: hold it.
            let mut d = done(Status::InputEmpty, len, w, replaced, None);
            d.hold_high = true;
            return d;
        };
        match process(h, Some(cp), dst, &mut w, html, &mut replaced) {
            One::Done => pos = next,
            One::Full => return done(Status::OutputFull, pos, w, replaced, None),
            One::Fail(e) => return done(Status::InputEmpty, next, w, replaced, Some(e)),
        }
    }
    if last {
        match process(h, None, dst, &mut w, html, &mut replaced) {
            One::Done => {}
            One::Full => return done(Status::OutputFull, pos, w, replaced, None),
            One::Fail(e) => return done(Status::InputEmpty, pos, w, replaced, Some(e)),
        }
    }
    done(Status::InputEmpty, pos, w, replaced, None)
}

/// An encoder's error mode ("error mode" in the spec).
///
/// ```
/// use textcodec::{EncoderErrorMode, WINDOWS_1252};
/// let mut out = [0u8; 16];
/// let p = WINDOWS_1252.new_encoder(EncoderErrorMode::Html).encode_from_utf8("☃", &mut out, true).unwrap();
/// assert_eq!(&out[..p.written], b"&#9731;");
/// assert!(WINDOWS_1252.new_encoder(EncoderErrorMode::Fatal).encode_from_utf8("☃", &mut out, true).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EncoderErrorMode {
    /// An unmappable scalar value becomes `&#NNNN;`, as HTML form submission does.
    #[default]
    Html,
    /// An unmappable scalar value stops encoding with an [`EncodeError`].
    Fatal,
}

/// An unmappable scalar value in fatal mode.
///
/// `read` includes the unmappable character; encoding may continue with `src[read..]`.
///
/// ```
/// use textcodec::{EncoderErrorMode, EUC_KR};
/// let mut e = EUC_KR.new_encoder(EncoderErrorMode::Fatal);
/// let mut out = [0u8; 16];
/// let err = e.encode_from_utf8("a¥b", &mut out, true).unwrap_err();
/// assert_eq!((err.read, err.written, err.unmappable), (3, 1, '¥'));
/// let p = e.encode_from_utf8("b", &mut out, true).unwrap(); // resume after it
/// assert_eq!(&out[..p.written], b"b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// Units of `src` consumed, through the unmappable character.
    pub read: usize,
    /// Bytes written to `dst` before it.
    pub written: usize,
    /// The character that the encoding cannot represent (U+FFFD for ISO-2022-JP's U+000E,
    /// U+000F and U+001B, as the spec says).
    pub unmappable: char,
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "U+{:04X} cannot be encoded", self.unmappable as u32)
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for EncodeError {}

/// A streaming encoder: encodes UTF-8 or UTF-16 into caller buffers of bytes in the output
/// encoding ("get an output encoding") of the encoding it was made from.
///
/// Made by [`Encoding::new_encoder`].
///
/// ```
/// let mut e = textcodec::ISO_2022_JP.new_encoder(Default::default());
/// let mut out = [0u8; 16];
/// let p = e.encode_from_utf8("¥", &mut out, true).unwrap();
/// assert_eq!(&out[..p.written], b"\x1B(J\x5C\x1B(B");
/// ```
#[derive(Clone, Debug)]
pub struct Encoder {
    encoding: &'static Encoding,
    mode: EncoderErrorMode,
    variant: EncoderVariant,
    /// A leading surrogate that ended the previous `encode_from_utf16` input.
    high: Option<u16>,
}

impl Encoder {
    #[inline]
    pub(crate) fn new(encoding: &'static Encoding, mode: EncoderErrorMode) -> Encoder {
        let encoding = encoding.output_encoding();
        Encoder {
            encoding,
            mode,
            variant: EncoderVariant::new(encoding),
            high: None,
        }
    }

    /// The output encoding.
    ///
    /// ```
    /// let e = textcodec::UTF_16LE.new_encoder(Default::default());
    /// assert_eq!(e.encoding(), textcodec::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The error mode.
    ///
    /// ```
    /// let e = textcodec::GBK.new_encoder(textcodec::EncoderErrorMode::Fatal);
    /// assert_eq!(e.error_mode(), textcodec::EncoderErrorMode::Fatal);
    /// ```
    pub fn error_mode(&self) -> EncoderErrorMode {
        self.mode
    }

    /// Changes the error mode for the rest of the stream, keeping the encoder's state (the
    /// mode only decides what an unmappable character does).
    ///
    /// ```
    /// use textcodec::{EncoderErrorMode, WINDOWS_1252};
    /// let mut e = WINDOWS_1252.new_encoder(EncoderErrorMode::Fatal);
    /// e.set_error_mode(EncoderErrorMode::Html);
    /// let mut out = [0u8; 16];
    /// let p = e.encode_from_utf8("☃", &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], b"&#9731;");
    /// ```
    pub fn set_error_mode(&mut self, mode: EncoderErrorMode) {
        self.mode = mode;
    }

    /// Starts a new stream: the state after construction.
    ///
    /// ```
    /// let mut e = textcodec::ISO_2022_JP.new_encoder(Default::default());
    /// let mut out = [0u8; 16];
    /// e.encode_from_utf8("あ", &mut out, false).unwrap();
    /// e.reset(); // back to the ASCII state, without the final ESC ( B
    /// let p = e.encode_from_utf8("a", &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], b"a");
    /// ```
    pub fn reset(&mut self) {
        *self = Encoder::new(self.encoding, self.mode);
    }

    fn finish(&mut self, d: EncDriven, last: bool) -> Result<Progress, EncodeError> {
        if let Some(e) = d.error {
            return Err(EncodeError {
                read: d.read,
                written: d.written,
                unmappable: char::from_u32(e).unwrap_or('\u{FFFD}'),
            });
        }
        if last && d.status == Status::InputEmpty {
            // A new stream (what `reset` does, without looking up the output encoding again).
            self.variant.new_stream();
            self.high = None;
        }
        Ok(Progress {
            status: d.status,
            read: d.read,
            written: d.written,
            replaced: d.replaced,
        })
    }

    /// Encodes `src` into `dst`. `last: true` ends the stream (ISO-2022-JP then returns to
    /// ASCII); once such a call returns `InputEmpty` the encoder starts a new stream.
    ///
    /// ```
    /// let mut e = textcodec::SHIFT_JIS.new_encoder(Default::default());
    /// let mut out = [0u8; 16];
    /// let p = e.encode_from_utf8("あé", &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], b"\x82\xa0&#233;");
    /// assert!(p.replaced);
    /// ```
    pub fn encode_from_utf8(
        &mut self,
        src: &str,
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        let html = self.mode == EncoderErrorMode::Html;
        // A leading surrogate held from UTF-16 input, now followed by UTF-8: U+FFFD.
        let held = self.high.take();
        let first = held.map(|_| 0xFFFD);
        let d = self.variant.drive(src, first, dst, last, html);
        if d.first_pending {
            // No room for it yet: it stays held.
            self.high = held;
        }
        self.finish(d, last)
    }

    /// Encodes UTF-16 `src` into `dst`. A lone surrogate is U+FFFD; a surrogate pair split
    /// across calls is joined (a leading surrogate ending `src` is read and held).
    ///
    /// ```
    /// let mut e = textcodec::UTF_8.new_encoder(Default::default());
    /// let mut out = [0u8; 8];
    /// let p = e.encode_from_utf16(&[0xD83D], &mut out, false).unwrap();
    /// assert_eq!((p.read, p.written), (1, 0));
    /// let p = e.encode_from_utf16(&[0xDE00], &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], "😀".as_bytes());
    /// ```
    pub fn encode_from_utf16(
        &mut self,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        let html = self.mode == EncoderErrorMode::Html;
        if let (EncoderVariant::Utf8(h), None) = (&mut self.variant, self.high) {
            // UTF-8 output (stateless): the fast path over as much as it takes, the general
            // drive only for the rest (a lone surrogate, a full `dst`, the last few units).
            let (read, written) = h.run_utf16(src, dst);
            if read == src.len() {
                return Ok(Progress {
                    status: Status::InputEmpty,
                    read,
                    written,
                    replaced: false,
                });
            }
            let mut d = self
                .variant
                .drive(&src[read..], None, &mut dst[written..], last, html);
            d.read += read;
            d.written += written;
            if d.hold_high {
                self.high = Some(src[src.len() - 1]);
            }
            return self.finish(d, last);
        }
        let mut src = src;
        let mut skip = 0;
        let mut first = None;
        if let Some(high) = self.high {
            match src.first() {
                Some(&t) if (0xDC00..0xE000).contains(&t) => {
                    first = Some(0x10000 + ((high as u32 - 0xD800) << 10) + (t as u32 - 0xDC00));
                    skip = 1;
                }
                Some(_) => first = Some(0xFFFD),
                None if last => first = Some(0xFFFD),
                None => {
                    return Ok(Progress {
                        status: Status::InputEmpty,
                        read: 0,
                        written: 0,
                        replaced: false,
                    });
                }
            }
            src = &src[skip..];
        }
        let mut d = self.variant.drive(src, first, dst, last, html);
        if first.is_some() {
            if d.first_pending {
                // No room for it yet: the held surrogate stays held (an ISO-2022-JP escape
                // before it may have been written).
                return Ok(Progress {
                    status: Status::OutputFull,
                    read: 0,
                    written: d.written,
                    replaced: d.replaced,
                });
            }
            self.high = None;
            d.read += skip;
        }
        if d.hold_high {
            self.high = Some(src[src.len() - 1]);
        }
        self.finish(d, last)
    }

    fn held_units(&self) -> usize {
        usize::from(self.high.is_some())
    }

    /// The worst-case output for `src_len` more bytes of UTF-8 input in the current state,
    /// numeric character references and ISO-2022-JP escapes included: a `dst` at least this
    /// long never gets `OutputFull`. `None` on overflow.
    ///
    /// ```
    /// let e = textcodec::UTF_8.new_encoder(Default::default());
    /// assert_eq!(e.max_buffer_length_from_utf8(10), Some(10));
    /// ```
    pub fn max_buffer_length_from_utf8(&self, src_len: usize) -> Option<usize> {
        // A held lone surrogate from UTF-16 input becomes U+FFFD: at most "&#65533;" or an
        // escape and it.
        let held = self.held_units() * 11;
        let body = if self.encoding == crate::UTF_8 {
            src_len
        } else if self.encoding == crate::ISO_2022_JP {
            // Worst per byte: U+000E, U+000F or U+001B (one byte each) become "&#65533;" (the
            // spec's error with U+FFFD). Only the first error after a character in the
            // jis0208 state needs ESC ( B before it: 3 more bytes, also enough for the final
            // ESC ( B when no such error returned to ASCII. (An escape before any other
            // character is paid for by that character's own input bytes: at most 3 + 7 bytes
            // for a two-byte character, 3 + 2 for a three-byte one.)
            src_len.checked_mul(8)?.checked_add(3)?
        } else {
            // Worst per byte: "&#NNNN;" (7 bytes) for a two-byte character.
            src_len.checked_mul(7)?.div_ceil(2)
        };
        body.checked_add(held)
    }

    /// The worst-case output for `src_len` more UTF-16 code units in the current state:
    /// a `dst` at least this long never gets `OutputFull`. `None` on overflow.
    ///
    /// ```
    /// let e = textcodec::UTF_8.new_encoder(Default::default());
    /// assert_eq!(e.max_buffer_length_from_utf16(2), Some(6));
    /// ```
    pub fn max_buffer_length_from_utf16(&self, src_len: usize) -> Option<usize> {
        let units = src_len.checked_add(self.held_units())?;
        if self.encoding == crate::UTF_8 {
            units.checked_mul(3)
        } else if self.encoding == crate::ISO_2022_JP {
            // An escape and "&#NNNNN;" per unit, plus the final ESC ( B.
            units.checked_mul(11)?.checked_add(3)
        } else {
            units.checked_mul(8)
        }
    }
}
