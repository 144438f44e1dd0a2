//! The public streaming decoder ([`Decoder`]), its options and errors; the machinery it
//! drives every codec with is in `codecs::driver`.

use crate::codecs::driver::{Driven, Replay};
use crate::codecs::handles::{Sink, Utf16Sink, Utf8Sink};
use crate::codecs::DecoderVariant;
use crate::encoding::Encoding;
use crate::status::{Progress, Status};

/// The options of a streaming decoder.
///
/// ```
/// use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, UTF_8};
/// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, bom: BomHandling::Keep };
/// let mut d = UTF_8.new_decoder(options);
/// let mut out = [0u8; 8];
/// let p = d.decode_to_utf8(b"\xEF\xBB\xBFa", &mut out, true).unwrap();
/// assert_eq!(&out[..p.written], "\u{FEFF}a".as_bytes());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecoderOptions {
    /// What a malformed byte sequence does.
    pub error_mode: DecoderErrorMode,
    /// How a byte order mark at the start of the input is handled.
    pub bom: BomHandling,
}

/// A decoder's error mode ("error mode" in the spec).
///
/// ```
/// use textcodec::{DecoderErrorMode, DecoderOptions, SHIFT_JIS};
/// let fatal = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
/// let mut out = [0u8; 8];
/// assert!(SHIFT_JIS.new_decoder(fatal).decode_to_utf8(b"\x81", &mut out, true).is_err());
/// let p = SHIFT_JIS.new_decoder(Default::default()).decode_to_utf8(b"\x81", &mut out, true).unwrap();
/// assert_eq!((&out[..p.written], p.replaced), ("\u{FFFD}".as_bytes(), true));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DecoderErrorMode {
    /// A malformed sequence becomes U+FFFD, as browsers do.
    #[default]
    Replacement,
    /// A malformed sequence stops decoding with a [`DecodeError`].
    Fatal,
}

/// Byte order mark handling at the start of the stream.
///
/// ```
/// use textcodec::{BomHandling, DecoderOptions, WINDOWS_1252};
/// let mut out = [0u8; 8];
/// let mut d = WINDOWS_1252.new_decoder(DecoderOptions { bom: BomHandling::Sniff, ..Default::default() });
/// d.decode_to_utf8(b"\xFE\xFF\x00a", &mut out, true).unwrap();
/// assert_eq!(d.encoding(), textcodec::UTF_16BE);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BomHandling {
    /// As the spec's "decode": a UTF-8, UTF-16LE or UTF-16BE BOM overrides the encoding and is
    /// removed ("BOM sniff").
    #[default]
    Sniff,
    /// This encoding's own BOM is removed (UTF-8, UTF-16LE and UTF-16BE only), as "UTF-8 decode".
    Strip,
    /// No BOM handling, as "UTF-8 decode without BOM".
    Keep,
}

/// A malformed byte sequence in fatal mode.
///
/// `written` units of good output precede it in `dst`; `read` bytes of `src` were consumed
/// through the malformed sequence (bytes the spec restores to the input are not counted).
/// Decoding may continue with `src[read..]`.
///
/// ```
/// use textcodec::{DecodeError, DecoderErrorMode, DecoderOptions, UTF_8};
/// let fatal = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
/// let mut d = UTF_8.new_decoder(fatal);
/// let mut out = [0u8; 8];
/// let e = d.decode_to_utf8(b"ab\xFFc", &mut out, true).unwrap_err();
/// assert_eq!(e, DecodeError { read: 3, written: 2 });
/// let p = d.decode_to_utf8(b"c", &mut out, true).unwrap(); // resume after it
/// assert_eq!(&out[..p.written], b"c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Bytes of `src` consumed, through the malformed sequence.
    pub read: usize,
    /// Units written to `dst` before it.
    pub written: usize,
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "malformed byte sequence ending before input byte {} of this call",
            self.read
        )
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for DecodeError {}

#[derive(Clone, Copy, Debug)]
enum BomState {
    /// BOM handling is over (decided, or not wanted).
    Done,
    /// Collecting the first bytes of the stream to decide.
    Pending { buf: [u8; 3], len: u8 },
}

/// A streaming decoder for one encoding: decodes bytes into caller buffers of UTF-8 or UTF-16.
///
/// Made by [`Encoding::new_decoder`].
///
/// ```
/// let mut d = textcodec::BIG5.new_decoder(Default::default());
/// let mut s = String::new();
/// d.decode_to_string(b"\xA4", &mut s, false).unwrap();
/// d.decode_to_string(b"\xA4", &mut s, true).unwrap();
/// assert_eq!(s, "中");
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    /// The encoding given at construction (restored when a stream ends).
    label_encoding: &'static Encoding,
    /// The encoding in use (after BOM sniffing).
    encoding: &'static Encoding,
    options: DecoderOptions,
    variant: DecoderVariant,
    replay: Replay,
    bom: BomState,
    /// The stream ended (a `last: true` call returned `InputEmpty`): the next call starts a
    /// new one. Until then [`encoding`](Decoder::encoding) still tells what was used.
    finished: bool,
}

/// Which BOM, if any, `bytes` starts with, among those `allowed`; `None` when `bytes` is a
/// proper prefix of an allowed BOM and more input could decide.
fn sniff(
    bytes: &[u8],
    allowed: &[&'static Encoding],
    last: bool,
) -> Option<Option<(&'static Encoding, usize)>> {
    for &enc in allowed {
        let bom: &[u8] = crate::encoding::bom_of(enc);
        if bytes.starts_with(bom) {
            return Some(Some((enc, bom.len())));
        }
    }
    if !last {
        for &enc in allowed {
            let bom: &[u8] = crate::encoding::bom_of(enc);
            if bytes.len() < bom.len() && bom.starts_with(bytes) {
                return None;
            }
        }
    }
    Some(None)
}

impl Decoder {
    #[inline]
    pub(crate) fn new(encoding: &'static Encoding, options: DecoderOptions) -> Decoder {
        let wants_bom = match options.bom {
            BomHandling::Sniff => true,
            BomHandling::Strip => !crate::encoding::bom_of(encoding).is_empty(),
            BomHandling::Keep => false,
        };
        Decoder {
            label_encoding: encoding,
            encoding,
            options,
            variant: DecoderVariant::new(encoding.kind),
            replay: Replay::default(),
            bom: if wants_bom {
                BomState::Pending {
                    buf: [0; 3],
                    len: 0,
                }
            } else {
                BomState::Done
            },
            finished: false,
        }
    }

    /// The encoding in use: after BOM sniffing, the encoding of the BOM found.
    ///
    /// ```
    /// let d = textcodec::GBK.new_decoder(Default::default());
    /// assert_eq!(d.encoding(), textcodec::GBK);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The options this decoder was made with.
    ///
    /// ```
    /// let d = textcodec::GBK.new_decoder(Default::default());
    /// assert_eq!(d.options(), textcodec::DecoderOptions::default());
    /// ```
    pub fn options(&self) -> DecoderOptions {
        self.options
    }

    /// Changes the error mode for the rest of the stream, keeping the decoder's state: a
    /// fatal decoder resumed after each error is in the state a replacement decoder is in
    /// after writing its U+FFFD, so a copy of a replacement decoder switched to fatal finds
    /// the errors that the original replaced.
    ///
    /// ```
    /// use textcodec::{DecoderErrorMode, UTF_8};
    /// let mut d = UTF_8.new_decoder(Default::default());
    /// let mut out = [0u8; 16];
    /// d.decode_to_utf8(b"a\xE2\x82", &mut out, false).unwrap();
    /// let mut fatal = d.clone();
    /// fatal.set_error_mode(DecoderErrorMode::Fatal);
    /// let e = fatal.decode_to_utf8(b"b", &mut out, true).unwrap_err();
    /// assert_eq!((e.read, e.written), (0, 0)); // E2 82 is malformed before the "b"
    /// let p = d.decode_to_utf8(b"b", &mut out, true).unwrap();
    /// assert_eq!((&out[..p.written], p.replaced), ("\u{FFFD}b".as_bytes(), true));
    /// ```
    pub fn set_error_mode(&mut self, mode: DecoderErrorMode) {
        self.options.error_mode = mode;
    }

    /// Starts a new stream: the state after construction.
    ///
    /// ```
    /// let mut d = textcodec::UTF_8.new_decoder(Default::default());
    /// let mut out = [0u8; 8];
    /// d.decode_to_utf8(b"\xE2\x82", &mut out, false).unwrap();
    /// d.reset(); // the held bytes are dropped
    /// let p = d.decode_to_utf8(b"a", &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], b"a");
    /// ```
    pub fn reset(&mut self) {
        *self = Decoder::new(self.label_encoding, self.options);
    }

    /// Feeds the BOM phase; returns the number of `src` bytes it consumed.
    #[inline(always)]
    fn bom_phase(&mut self, src: &[u8], last: bool) -> usize {
        match self.bom {
            BomState::Done => 0,
            BomState::Pending { len: 0, .. }
                if src
                    .first()
                    .is_some_and(|b| !matches!(b, 0xEF | 0xFE | 0xFF)) =>
            {
                // The common case: the stream does not start like any BOM.
                self.bom = BomState::Done;
                0
            }
            BomState::Pending { buf, len } => self.bom_sniff(buf, len, src, last),
        }
    }

    /// The BOM phase when the first bytes may be a BOM ("BOM sniff", which may have to wait
    /// for more input).
    ///
    /// "BOM sniff" only peeks at the bytes: once it is decided, the bytes of `src` that are
    /// not part of a BOM are left unread, for the decoder to read from `src` itself, so that
    /// an error among them counts `read` as any other error does. Only the bytes held from
    /// earlier calls go to the restore queue.
    #[cold]
    #[inline(never)]
    fn bom_sniff(&mut self, mut buf: [u8; 3], mut len: u8, src: &[u8], last: bool) -> usize {
        let held = len as usize;
        let mut read = 0;
        let allowed: &[&'static Encoding] = match self.options.bom {
            BomHandling::Sniff => &[crate::UTF_8, crate::UTF_16BE, crate::UTF_16LE],
            _ => core::slice::from_ref(&self.label_encoding),
        };
        loop {
            match sniff(&buf[..len as usize], allowed, last && read == src.len()) {
                None => {
                    if read == src.len() {
                        self.bom = BomState::Pending { buf, len };
                        return read;
                    }
                    buf[len as usize] = src[read];
                    len += 1;
                    read += 1;
                }
                Some(found) => {
                    let skip = if let Some((enc, bom_len)) = found {
                        if enc != self.encoding {
                            self.encoding = enc;
                            self.variant = DecoderVariant::new(enc.kind);
                        }
                        bom_len
                    } else {
                        0
                    };
                    // Held bytes after the BOM (none: a BOM found is longer than what was held
                    // undecided), then the BOM bytes taken from `src`.
                    self.replay.push_front(&buf[skip.min(held)..held]);
                    self.bom = BomState::Done;
                    return skip.saturating_sub(held);
                }
            }
        }
    }

    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S, last: bool) -> Driven {
        if self.finished {
            // A new stream.
            self.reset();
        }
        let pre = self.bom_phase(src, last);
        if matches!(self.bom, BomState::Pending { .. }) {
            // Not decided yet: everything went into the BOM buffer.
            let d = Driven {
                status: Status::InputEmpty,
                read: pre,
                replaced: false,
                error: false,
                finished: false,
            };
            return d;
        }
        let fatal = self.options.error_mode == DecoderErrorMode::Fatal;
        let mut d = self
            .variant
            .drive(&mut self.replay, &src[pre..], sink, last, fatal);
        d.read += pre;
        self.finished = d.finished;
        d
    }

    fn finish<S: Sink>(d: Driven, sink: &S) -> Result<Progress, DecodeError> {
        if d.error {
            Err(DecodeError {
                read: d.read,
                written: sink.written(),
            })
        } else {
            Ok(Progress {
                status: d.status,
                read: d.read,
                written: sink.written(),
                replaced: d.replaced,
            })
        }
    }

    /// Decodes `src` into `dst` as UTF-8. See the crate documentation for the protocol.
    ///
    /// `last: true` marks the end of the stream ("end-of-queue"); once such a call returns
    /// `InputEmpty` the stream is over, and the next call starts a new one (until then
    /// [`encoding`](Self::encoding) still tells which encoding the stream used).
    ///
    /// ```
    /// let mut d = textcodec::SHIFT_JIS.new_decoder(Default::default());
    /// let mut out = [0u8; 16];
    /// let p = d.decode_to_utf8(b"\x82\xa0", &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], "あ".as_bytes());
    /// ```
    pub fn decode_to_utf8(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        let mut sink = Utf8Sink { dst, pos: 0 };
        let d = self.run(src, &mut sink, last);
        Self::finish(d, &sink)
    }

    /// Decodes `src` into `dst` as UTF-16 code units. Same protocol as
    /// [`decode_to_utf8`](Self::decode_to_utf8); a surrogate pair is never split.
    ///
    /// ```
    /// let mut d = textcodec::UTF_8.new_decoder(Default::default());
    /// let mut out = [0u16; 4];
    /// let p = d.decode_to_utf16("😀".as_bytes(), &mut out, true).unwrap();
    /// assert_eq!(&out[..p.written], &[0xD83D, 0xDE00]);
    /// ```
    pub fn decode_to_utf16(
        &mut self,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        let mut sink = Utf16Sink { dst, pos: 0 };
        let d = self.run(src, &mut sink, last);
        Self::finish(d, &sink)
    }

    /// Decodes `src`, appending to `dst` (grown as needed; never `OutputFull`).
    ///
    /// `written` counts bytes appended.
    ///
    /// ```
    /// let mut d = textcodec::WINDOWS_1252.new_decoder(Default::default());
    /// let mut s = String::from("x");
    /// d.decode_to_string(b"caf\xe9", &mut s, true).unwrap();
    /// assert_eq!(s, "xcafé");
    /// ```
    pub fn decode_to_string(
        &mut self,
        src: &[u8],
        dst: &mut alloc::string::String,
        last: bool,
    ) -> Result<Progress, DecodeError> {
        // The output goes through a buffer on the stack, which is cleared first: a small one
        // when the output is sure to fit (short strings), else 8 KiB, which stays in L1.
        if self
            .max_utf8_buffer_length(src.len())
            .is_some_and(|n| n <= 256)
        {
            self.decode_to_string_through(src, dst, last, &mut [0u8; 256])
        } else {
            self.decode_to_string_through(src, dst, last, &mut [0u8; 8192])
        }
    }

    /// [`Decoder::decode_to_string`] through `buf`.
    #[inline(always)]
    fn decode_to_string_through(
        &mut self,
        src: &[u8],
        dst: &mut alloc::string::String,
        last: bool,
        buf: &mut [u8],
    ) -> Result<Progress, DecodeError> {
        let mut read = 0;
        let mut written = 0;
        let mut replaced = false;
        loop {
            let r = self.decode_to_utf8(&src[read..], buf, last);
            let (p_read, p_written, done, err) = match r {
                Ok(p) => {
                    replaced |= p.replaced;
                    (p.read, p.written, p.status == Status::InputEmpty, false)
                }
                Err(e) => (e.read, e.written, true, true),
            };
            // The decoder never ends a call's output inside a character.
            dst.push_str(
                crate::simd::str_from_utf8(&buf[..p_written]).expect("decoder output is UTF-8"),
            );
            read += p_read;
            written += p_written;
            if err {
                return Err(DecodeError { read, written });
            }
            if done {
                return Ok(Progress {
                    status: Status::InputEmpty,
                    read,
                    written,
                    replaced,
                });
            }
        }
    }

    fn held(&self) -> usize {
        let bom = match self.bom {
            BomState::Pending { len, .. } => len as usize,
            BomState::Done => 0,
        };
        bom + self.replay.len() + self.variant.held()
    }

    /// The worst-case UTF-8 output for `src_len` more input bytes in the current state: a
    /// `dst` at least this long never gets `OutputFull`. `None` on overflow.
    ///
    /// ```
    /// let d = textcodec::UTF_16LE.new_decoder(Default::default());
    /// assert!(d.max_utf8_buffer_length(10).unwrap() >= 15);
    /// ```
    pub fn max_utf8_buffer_length(&self, src_len: usize) -> Option<usize> {
        // A byte given back by "restore" is decoded again, but every unit of output still
        // consumes at least one byte for good; no single byte yields more than three UTF-8
        // bytes (U+FFFD or a BMP code point), and only sequences of two or more bytes yield
        // four (a supplementary code point, or Big5's two code points).
        src_len.checked_add(self.held())?.checked_mul(3)
    }

    /// The worst-case UTF-16 output for `src_len` more input bytes in the current state: a
    /// `dst` at least this long never gets `OutputFull`. `None` on overflow.
    ///
    /// ```
    /// let d = textcodec::UTF_8.new_decoder(Default::default());
    /// assert_eq!(d.max_utf16_buffer_length(10), Some(10));
    /// ```
    pub fn max_utf16_buffer_length(&self, src_len: usize) -> Option<usize> {
        // Every code unit of output accounts for at least one input byte.
        src_len.checked_add(self.held())
    }
}
