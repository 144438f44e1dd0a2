//! The JavaScript API of the spec ("Interface TextDecoder", "Interface TextEncoder") in Rust.

use alloc::string::String;
use alloc::vec::Vec;

use crate::codecs::Kind;
use crate::decoder::{BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions};
use crate::encoding::Encoding;
use crate::status::Status;
use crate::{REPLACEMENT, UTF_8};

/// The options of [`TextDecoder::new`] (the `TextDecoderOptions` dictionary).
///
/// ```
/// use textcodec::{TextDecoder, TextDecoderOptions};
/// let mut d = TextDecoder::new("utf-8", TextDecoderOptions { fatal: false, ignore_bom: true }).unwrap();
/// assert_eq!(d.decode(b"\xEF\xBB\xBFa", false).unwrap(), "\u{FEFF}a");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextDecoderOptions {
    /// Malformed input is an error instead of U+FFFD.
    pub fatal: bool,
    /// Keep a leading byte order mark as U+FEFF.
    pub ignore_bom: bool,
}

/// A label that is not a label of any encoding, or is one of the replacement encoding's
/// (JavaScript's `RangeError` from `new TextDecoder(label)`).
///
/// ```
/// let err = textcodec::TextDecoder::new("replacement", Default::default()).unwrap_err();
/// assert_eq!(err.label(), "replacement");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLabel {
    label: String,
}

impl UnknownLabel {
    /// The label as given.
    ///
    /// ```
    /// let err = textcodec::TextDecoder::new("nope", Default::default()).unwrap_err();
    /// assert_eq!(err.label(), "nope");
    /// ```
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl core::fmt::Display for UnknownLabel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the encoding label {:?} is not supported", self.label)
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for UnknownLabel {}

/// The lowercase name of `encoding` (one of its labels, as the spec notes).
fn lowercase_name(encoding: &'static Encoding) -> &'static str {
    encoding
        .labels()
        .iter()
        .find(|l| l.eq_ignore_ascii_case(encoding.name()))
        .copied()
        .expect("the lowercased name is a label")
}

/// `TextDecoder`: decodes a stream given in chunks to `String`s, with the JavaScript API's
/// semantics (`fatal`, `ignoreBOM`, `stream`).
///
/// ```
/// use textcodec::{TextDecoder, TextDecoderOptions};
/// let mut d = TextDecoder::new("shift_jis", TextDecoderOptions::default()).unwrap();
/// let mut s = d.decode(b"\x82", true).unwrap();
/// s += &d.decode(b"\xA0", false).unwrap();
/// assert_eq!(s, "あ");
/// assert_eq!(d.encoding(), "shift_jis");
/// ```
#[derive(Clone, Debug)]
pub struct TextDecoder {
    encoding: &'static Encoding,
    fatal: bool,
    ignore_bom: bool,
    decoder: Decoder,
    /// "do not flush".
    do_not_flush: bool,
    /// "BOM seen".
    bom_seen: bool,
    /// Input left in the I/O queue after a fatal error in a `stream: true` call.
    queued: Vec<u8>,
}

impl TextDecoder {
    /// `new TextDecoder(label, options)`: fails for unknown labels and the replacement
    /// encoding's labels.
    ///
    /// ```
    /// assert!(textcodec::TextDecoder::new(" Latin1 ", Default::default()).is_ok());
    /// assert!(textcodec::TextDecoder::new("iso-2022-kr", Default::default()).is_err()); // a replacement label
    /// ```
    pub fn new(label: &str, options: TextDecoderOptions) -> Result<TextDecoder, UnknownLabel> {
        let encoding = match Encoding::for_label(label.as_bytes()) {
            Some(e) if e != REPLACEMENT => e,
            _ => {
                return Err(UnknownLabel {
                    label: label.into(),
                })
            }
        };
        Ok(TextDecoder {
            encoding,
            fatal: options.fatal,
            ignore_bom: options.ignore_bom,
            decoder: Self::fresh(encoding, options.fatal),
            do_not_flush: false,
            bom_seen: false,
            queued: Vec::new(),
        })
    }

    fn fresh(encoding: &'static Encoding, fatal: bool) -> Decoder {
        let error_mode = if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        };
        // BOM handling is done on the decoded items, as "serialize I/O queue" does.
        encoding.new_decoder(DecoderOptions {
            error_mode,
            bom: BomHandling::Keep,
        })
    }

    /// The encoding's name, ASCII-lowercased (`"utf-8"`, `"shift_jis"`).
    ///
    /// ```
    /// let d = textcodec::TextDecoder::new("latin1", Default::default()).unwrap();
    /// assert_eq!(d.encoding(), "windows-1252");
    /// ```
    pub fn encoding(&self) -> &'static str {
        lowercase_name(self.encoding)
    }

    /// Whether the error mode is fatal.
    ///
    /// ```
    /// let opts = textcodec::TextDecoderOptions { fatal: true, ..Default::default() };
    /// assert!(textcodec::TextDecoder::new("utf-8", opts).unwrap().fatal());
    /// ```
    pub fn fatal(&self) -> bool {
        self.fatal
    }

    /// Whether a byte order mark is kept.
    ///
    /// ```
    /// assert!(!textcodec::TextDecoder::new("utf-8", Default::default()).unwrap().ignore_bom());
    /// ```
    pub fn ignore_bom(&self) -> bool {
        self.ignore_bom
    }

    /// Whether "serialize I/O queue" strips a leading U+FEFF for this decoder.
    fn strips_bom(&self) -> bool {
        matches!(
            self.encoding.kind,
            Kind::Utf8 | Kind::Utf16Be | Kind::Utf16Le
        ) && !self.ignore_bom
    }

    /// The steps shared by both output forms: reset unless "do not flush", then run the
    /// decoder over the queue; `sink` receives each chunk of output.
    fn run(
        &mut self,
        input: &[u8],
        stream: bool,
        mut sink: impl FnMut(&mut Decoder, &[u8], bool) -> Result<(usize, Status), DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.do_not_flush {
            self.decoder = Self::fresh(self.encoding, self.fatal);
            self.bom_seen = false;
            self.queued.clear();
        }
        self.do_not_flush = stream;
        let queued = core::mem::take(&mut self.queued);
        let joined;
        let input = if queued.is_empty() {
            input
        } else {
            joined = [&queued[..], input].concat();
            &joined[..]
        };
        let mut pos = 0;
        loop {
            match sink(&mut self.decoder, &input[pos..], !stream) {
                Ok((read, Status::OutputFull)) => pos += read,
                Ok((_, Status::InputEmpty)) => return Ok(()),
                Err(e) => {
                    if stream {
                        // The rest of the input stays in the I/O queue for the next call.
                        self.queued = input[pos + e.read..].to_vec();
                    }
                    return Err(DecodeError {
                        read: pos + e.read,
                        written: e.written,
                    });
                }
            }
        }
    }

    /// `decode(input, { stream })`: returns the text decoded so far. With `stream: true`,
    /// an incomplete sequence at the end of `input` waits for the next call; `stream: false`
    /// ends the stream (the next call starts a new one).
    ///
    /// In fatal mode a malformed sequence is an error (JavaScript's `TypeError`) and this call's
    /// output is dropped.
    ///
    /// ```
    /// let mut d = textcodec::TextDecoder::new("utf-8", Default::default()).unwrap();
    /// assert_eq!(d.decode(b"\xE2\x82", true).unwrap(), "");
    /// assert_eq!(d.decode(b"\xAC", false).unwrap(), "€");
    /// ```
    pub fn decode(&mut self, input: &[u8], stream: bool) -> Result<String, DecodeError> {
        let mut out = String::new();
        self.run(input, stream, |d, src, last| {
            let p = d.decode_to_string(src, &mut out, last)?;
            Ok((p.read, p.status))
        })?;
        if self.strips_bom() && !self.bom_seen && !out.is_empty() {
            self.bom_seen = true;
            if out.starts_with('\u{FEFF}') {
                out.drain(..3);
            }
        }
        Ok(out)
    }

    /// Like [`decode`](Self::decode), returning UTF-16 code units.
    ///
    /// ```
    /// use textcodec::TextDecoder;
    /// let mut d = TextDecoder::new("utf-16be", Default::default()).unwrap();
    /// assert_eq!(d.decode_to_utf16(b"\xFE\xFF\x00A", false).unwrap(), [0x41]);
    /// ```
    pub fn decode_to_utf16(&mut self, input: &[u8], stream: bool) -> Result<Vec<u16>, DecodeError> {
        let mut out: Vec<u16> = Vec::new();
        self.run(input, stream, |d, src, last| {
            let start = out.len();
            let max = d
                .max_utf16_buffer_length(src.len())
                .expect("input too long");
            out.resize(start + max, 0);
            let r = d.decode_to_utf16(src, &mut out[start..], last);
            let written = match r {
                Ok(p) => p.written,
                Err(e) => e.written,
            };
            out.truncate(start + written);
            r.map(|p| (p.read, p.status))
        })?;
        if self.strips_bom() && !self.bom_seen && !out.is_empty() {
            self.bom_seen = true;
            if out[0] == 0xFEFF {
                out.remove(0);
            }
        }
        Ok(out)
    }
}

/// The result of [`TextEncoder::encode_into`] (`TextEncoderEncodeIntoResult`).
///
/// ```
/// let mut buf = [0u8; 3];
/// let r = textcodec::TextEncoder::new().encode_into("añb", &mut buf);
/// assert_eq!(r, textcodec::EncodeIntoResult { read: 3, written: 3 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeIntoResult {
    /// Units of input consumed (bytes of a `&str`, code units of UTF-16).
    pub read: usize,
    /// Bytes written.
    pub written: usize,
}

/// `TextEncoder`: encodes to UTF-8.
///
/// ```
/// use textcodec::TextEncoder;
/// let e = TextEncoder::new();
/// assert_eq!(e.encode_utf16(&[0x61, 0xD800]), b"a\xEF\xBF\xBD");
/// let mut buf = [0u8; 4];
/// let r = e.encode_into("a😀", &mut buf);
/// assert_eq!((r.read, r.written), (1, 1)); // never a part of a character
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct TextEncoder;

impl TextEncoder {
    /// `new TextEncoder()`.
    ///
    /// ```
    /// let e = textcodec::TextEncoder::new();
    /// assert_eq!(e.encode("é"), [0xC3, 0xA9]);
    /// ```
    pub fn new() -> TextEncoder {
        TextEncoder
    }

    /// Always `"utf-8"`.
    ///
    /// ```
    /// assert_eq!(textcodec::TextEncoder::new().encoding(), "utf-8");
    /// ```
    pub fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// `encode(input)`.
    ///
    /// ```
    /// assert_eq!(textcodec::TextEncoder::new().encode("a"), b"a");
    /// ```
    pub fn encode(&self, input: &str) -> Vec<u8> {
        input.as_bytes().to_vec()
    }

    /// `encode(input)` for UTF-16 input: lone surrogates become U+FFFD.
    ///
    /// ```
    /// assert_eq!(textcodec::TextEncoder::new().encode_utf16(&[0xD83D, 0xDE00]), "😀".as_bytes());
    /// ```
    pub fn encode_utf16(&self, input: &[u16]) -> Vec<u8> {
        // Through a small buffer into the result, reserved for one byte per unit and grown if
        // need be (a zeroed worst-case result, three bytes per unit, cost more to clear than
        // the conversion and kept that capacity).
        let mut e = UTF_8.new_encoder(Default::default());
        let mut out = Vec::with_capacity(input.len() + 16);
        let mut buf = [0u8; 4096];
        let mut read = 0;
        loop {
            // `last`: a leading surrogate ending the input is U+FFFD, not held.
            let Ok(p) = e.encode_from_utf16(&input[read..], &mut buf, true) else {
                unreachable!("UTF-8 encodes every scalar value");
            };
            out.extend_from_slice(&buf[..p.written]);
            read += p.read;
            if p.status == Status::InputEmpty {
                return out;
            }
        }
    }

    /// `encodeInto(src, dst)`: as much of `src` as fits in `dst`, never part of a character.
    ///
    /// ```
    /// let mut buf = [0u8; 2];
    /// let r = textcodec::TextEncoder::new().encode_into("€", &mut buf);
    /// assert_eq!((r.read, r.written), (0, 0)); // never a part of a character
    /// ```
    pub fn encode_into(&self, src: &str, dst: &mut [u8]) -> EncodeIntoResult {
        let mut n = src.len().min(dst.len());
        while !src.is_char_boundary(n) {
            n -= 1;
        }
        dst[..n].copy_from_slice(&src.as_bytes()[..n]);
        EncodeIntoResult {
            read: n,
            written: n,
        }
    }

    /// `encodeInto(src, dst)` for UTF-16 input: never splits a surrogate pair; a lone
    /// surrogate is U+FFFD.
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// let r = textcodec::TextEncoder::new().encode_utf16_into(&[0x61, 0xDC00], &mut buf);
    /// assert_eq!(&buf[..r.written], b"a\xEF\xBF\xBD");
    /// ```
    pub fn encode_utf16_into(&self, src: &[u16], dst: &mut [u8]) -> EncodeIntoResult {
        let mut e = UTF_8.new_encoder(Default::default());
        // `last` so that a leading surrogate ending `src` is U+FFFD, not held.
        match e.encode_from_utf16(src, dst, true) {
            Ok(p) => EncodeIntoResult {
                read: p.read,
                written: p.written,
            },
            Err(_) => unreachable!("UTF-8 encodes every scalar value"),
        }
    }
}
