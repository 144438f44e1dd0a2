//! The public streaming encoder ([`Encoder`]), its error mode and errors; the machinery it
//! drives every codec with is in `codecs::driver`.

use crate::codecs::driver::{EncDriven, EncodeHandler};
use crate::codecs::EncoderVariant;
use crate::encoding::Encoding;
use crate::status::{Progress, Status};

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
            variant: EncoderVariant::new(encoding.kind),
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
