//! Finding the encoding of a stream before decoding it: what [`DecodeReader::detect`] and
//! [`AsyncDecodeReader::detect`] do.
//!
//! [`DecodeReader::detect`]: super::DecodeReader::detect
//! [`AsyncDecodeReader::detect`]: super::AsyncDecodeReader::detect

extern crate std;

use crate::detect::{guess, prescan_declaration, Confidence, Sniffed, Source, PRESCAN_BYTES};
use crate::{DecoderOptions, Encoding};
use std::boxed::Box;
use std::vec::Vec;

/// The bytes a detecting reader reads, at most, before it decides, by default.
pub const DEFAULT_DETECT_LIMIT: usize = 64 * 1024;

/// How a detecting reader ([`DecodeReader::detect_with`](super::DecodeReader::detect_with))
/// finds the encoding of its input, before it decodes it:
///
/// 1. a UTF-8, UTF-16LE or UTF-16BE byte order mark ([`Source::Bom`]);
/// 2. unless turned off with [`declarations`](DetectOptions::declarations), an HTML
///    `<meta charset>` or an XML declaration in the first 1024 bytes
///    ([`prescan`](crate::detect::prescan): [`Source::Prescan`], [`Source::XmlDeclaration`]);
/// 3. the [`Detector`](crate::detect::Detector)'s guess over the first
///    [`limit`](DetectOptions::limit) bytes (64 KiB by default), with the top-level domain
///    given by [`tld`](DetectOptions::tld) and UTF-8 allowed unless turned off with
///    [`allow_utf8`](DetectOptions::allow_utf8) ([`Source::Detector`], or [`Source::Default`]
///    where those bytes are all ASCII).
///
/// The reader reads no more than it needs: 3 bytes when there is a BOM, 1024 when there is a
/// declaration, the limit otherwise (or all of a shorter input). Those bytes are then decoded
/// with the rest of the stream; nothing is read twice, and memory stays bounded by the limit.
///
/// ```
/// use textcodec::io::DetectOptions;
/// let options = DetectOptions::new().tld(b"jp").allow_utf8(false).limit(16 * 1024);
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetectOptions {
    tld: Option<Box<[u8]>>,
    allow_utf8: bool,
    declarations: bool,
    limit: usize,
}

impl Default for DetectOptions {
    fn default() -> Self {
        DetectOptions {
            tld: None,
            allow_utf8: true,
            declarations: true,
            limit: DEFAULT_DETECT_LIMIT,
        }
    }
}

impl DetectOptions {
    /// The defaults: no top-level domain, UTF-8 allowed, declarations read, a limit of 64 KiB.
    ///
    /// ```
    /// assert_eq!(textcodec::io::DetectOptions::new(), Default::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The top-level domain the text came from, ASCII without the dot (`b"jp"`), which the
    /// guess takes as a hint, as [`Detector::guess`](crate::detect::Detector::guess) does.
    ///
    /// ```
    /// let options = textcodec::io::DetectOptions::new().tld(b"ru");
    /// # let _ = options;
    /// ```
    pub fn tld(mut self, tld: &[u8]) -> Self {
        self.tld = Some(tld.into());
        self
    }

    /// Whether UTF-8 may be the guess (default: true, as for files; browsers do not guess UTF-8
    /// for Web content).
    ///
    /// ```
    /// let options = textcodec::io::DetectOptions::new().allow_utf8(false);
    /// # let _ = options;
    /// ```
    pub fn allow_utf8(mut self, allow: bool) -> Self {
        self.allow_utf8 = allow;
        self
    }

    /// Whether an HTML `<meta charset>` or an XML declaration in the first 1024 bytes decides
    /// (default: true). Turn it off for text that is not markup.
    ///
    /// ```
    /// let options = textcodec::io::DetectOptions::new().declarations(false);
    /// # let _ = options;
    /// ```
    pub fn declarations(mut self, read: bool) -> Self {
        self.declarations = read;
        self
    }

    /// How many bytes at most the guess reads before decoding starts (default 64 KiB; never
    /// less than 1024).
    ///
    /// ```
    /// let options = textcodec::io::DetectOptions::new().limit(1 << 20);
    /// # let _ = options;
    /// ```
    pub fn limit(mut self, bytes: usize) -> Self {
        self.limit = bytes.max(PRESCAN_BYTES);
        self
    }
}

/// Which step a detecting reader is waiting to run.
#[derive(Clone, Copy, Debug)]
enum Stage {
    Bom,
    Declaration,
    Guess,
}

/// The state of a reader that has not decided on its encoding yet: the options and the bytes
/// read so far.
pub(crate) struct Sniffing {
    options: DetectOptions,
    pub(crate) decoder_options: DecoderOptions,
    /// `prefix[..len]` are the bytes read; the rest is room for the next read.
    prefix: Vec<u8>,
    len: usize,
    stage: Stage,
}

impl Sniffing {
    pub(crate) fn new(options: DetectOptions, decoder_options: DecoderOptions) -> Self {
        Sniffing {
            options,
            decoder_options,
            prefix: Vec::new(),
            len: 0,
            stage: Stage::Bom,
        }
    }

    /// Room for the next read, of at most `chunk` bytes and never past the limit.
    pub(crate) fn space(&mut self, chunk: usize) -> &mut [u8] {
        let room = chunk.min(self.options.limit - self.len).max(1);
        self.prefix.resize(self.len + room, 0);
        &mut self.prefix[self.len..]
    }

    /// `n` bytes were read into [`space`](Self::space).
    pub(crate) fn filled(&mut self, n: usize) {
        self.len += n;
        self.prefix.truncate(self.len);
    }

    /// Runs the steps that the bytes read so far allow (`eof`: there are no more): the
    /// encoding, once it is known.
    pub(crate) fn decide(&mut self, eof: bool) -> Option<Sniffed> {
        let bytes = &self.prefix[..self.len];
        loop {
            match self.stage {
                Stage::Bom => {
                    if bytes.len() < 3 && !eof {
                        return None;
                    }
                    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
                        return Some(Sniffed {
                            encoding,
                            confidence: Confidence::Certain,
                            source: Source::Bom,
                        });
                    }
                    self.stage = if self.options.declarations {
                        Stage::Declaration
                    } else {
                        Stage::Guess
                    };
                }
                Stage::Declaration => {
                    if bytes.len() < PRESCAN_BYTES && !eof {
                        return None;
                    }
                    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
                    if let Some((encoding, source)) = prescan_declaration(head) {
                        return Some(Sniffed {
                            encoding,
                            confidence: Confidence::Tentative,
                            source,
                        });
                    }
                    self.stage = Stage::Guess;
                }
                Stage::Guess => {
                    if bytes.len() < self.options.limit && !eof {
                        return None;
                    }
                    // Stopped at the limit, the text goes on: a character cut there is no error.
                    let tld = self.options.tld.as_deref();
                    return Some(guess(bytes, tld, self.options.allow_utf8, eof));
                }
            }
        }
    }

    /// The bytes read, with room for `capacity` bytes at least, to decode from.
    pub(crate) fn into_input(self, capacity: usize) -> (Box<[u8]>, usize) {
        let mut buf = self.prefix;
        buf.resize(self.len.max(capacity), 0);
        (buf.into_boxed_slice(), self.len)
    }
}
