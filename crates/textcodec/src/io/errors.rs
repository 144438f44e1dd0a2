//! The payloads of the `InvalidData` errors of the adapters.

extern crate std;

use crate::Encoding;
use core::fmt;
use std::io;

/// Malformed input met by a reader or stream in fatal mode.
///
/// A [`DecodeReader`](super::DecodeReader) built with
/// [`DecoderErrorMode::Fatal`](crate::DecoderErrorMode::Fatal) returns it inside an
/// [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData), after handing out all
/// the good text before it. [`offset`](MalformedInput::offset) is the number of input bytes read
/// through the end of the malformed sequence: the malformed bytes lie just before that offset.
/// (Bytes that the spec gives back to the input after an error, such as the ASCII byte that
/// follows a lone lead byte, are not counted: they are decoded again as the start of what
/// follows.) The offset does not depend on how the input was split into reads or chunks: it is
/// the one that decoding the whole input in one call reports.
///
/// ```
/// use std::io::Read;
/// use textcodec::io::{DecodeReader, MalformedInput};
/// use textcodec::{DecoderErrorMode, DecoderOptions};
///
/// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
/// let mut reader = DecodeReader::with_options(&b"ok \xFF!"[..], textcodec::UTF_8, options);
/// let mut text = String::new();
/// let err = reader.read_to_string(&mut text).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let malformed = err.get_ref().unwrap().downcast_ref::<MalformedInput>().unwrap();
/// assert_eq!(malformed.offset(), 4); // the 0xFF is byte 3
/// assert_eq!(malformed.encoding(), textcodec::UTF_8);
/// assert_eq!(malformed.to_string(), "malformed UTF-8 input before byte offset 4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MalformedInput {
    pub(crate) encoding: &'static Encoding,
    pub(crate) offset: u64,
}

impl MalformedInput {
    /// The number of input bytes read through the end of the malformed sequence.
    ///
    /// ```
    /// # use textcodec::io::MalformedInput;
    /// # use textcodec::{DecoderErrorMode, DecoderOptions};
    /// # use std::io::Read;
    /// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
    /// let mut reader = textcodec::io::DecodeReader::with_options(&b"\x81"[..], textcodec::SHIFT_JIS, options);
    /// let err = reader.read_to_end(&mut Vec::new()).unwrap_err();
    /// // A lead byte at the end of the input: the malformed sequence is byte 0.
    /// assert_eq!(err.get_ref().unwrap().downcast_ref::<MalformedInput>().unwrap().offset(), 1);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The encoding being decoded (after BOM sniffing).
    ///
    /// ```
    /// # use textcodec::io::MalformedInput;
    /// # use textcodec::{DecoderErrorMode, DecoderOptions};
    /// # use std::io::Read;
    /// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
    /// // The BOM makes it UTF-16LE; the lone trailing byte is malformed.
    /// let mut reader = textcodec::io::DecodeReader::with_options(&b"\xFF\xFEa"[..], textcodec::WINDOWS_1252, options);
    /// let err = reader.read_to_end(&mut Vec::new()).unwrap_err();
    /// let malformed = err.get_ref().unwrap().downcast_ref::<MalformedInput>().unwrap();
    /// assert_eq!(malformed.encoding(), textcodec::UTF_16LE);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }
}

impl fmt::Display for MalformedInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed {} input before byte offset {}",
            self.encoding.name(),
            self.offset
        )
    }
}

impl std::error::Error for MalformedInput {}

impl From<MalformedInput> for io::Error {
    fn from(e: MalformedInput) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// A character that the target encoding cannot represent, met by a writer in fatal mode.
///
/// An [`EncodeWriter`](super::EncodeWriter) built with
/// [`EncoderErrorMode::Fatal`](crate::EncoderErrorMode::Fatal) returns it inside an
/// [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData). The character is dropped;
/// the writer stays usable.
///
/// ```
/// use std::io::Write;
/// use textcodec::io::{EncodeWriter, UnmappableChar};
///
/// let mut writer = EncodeWriter::with_mode(Vec::new(), textcodec::WINDOWS_1252, textcodec::EncoderErrorMode::Fatal);
/// let err = writer.write_all("caf\u{e9} \u{263A}".as_bytes()).unwrap_err();
/// let unmappable = err.get_ref().unwrap().downcast_ref::<UnmappableChar>().unwrap();
/// assert_eq!(unmappable.char(), '\u{263A}');
/// assert_eq!(unmappable.to_string(), "U+263A '\u{263A}' cannot be encoded in windows-1252");
/// assert_eq!(writer.finish()?, b"caf\xE9 ");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnmappableChar {
    pub(crate) encoding: &'static Encoding,
    pub(crate) ch: char,
}

impl UnmappableChar {
    /// The character that could not be encoded.
    ///
    /// ISO-2022-JP reports U+000E, U+000F and U+001B as U+FFFD, as the spec does.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use textcodec::io::{EncodeWriter, UnmappableChar};
    /// let mut writer = EncodeWriter::with_mode(Vec::new(), textcodec::ISO_2022_JP, textcodec::EncoderErrorMode::Fatal);
    /// let err = writer.write_all(b"\x1B").unwrap_err();
    /// let unmappable = err.get_ref().unwrap().downcast_ref::<UnmappableChar>().unwrap();
    /// assert_eq!(unmappable.char(), '\u{FFFD}');
    /// ```
    pub fn char(&self) -> char {
        self.ch
    }

    /// The encoding written.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use textcodec::io::{EncodeWriter, UnmappableChar};
    /// let mut writer = EncodeWriter::with_mode(Vec::new(), textcodec::BIG5, textcodec::EncoderErrorMode::Fatal);
    /// let err = writer.write_all("\u{1F600}".as_bytes()).unwrap_err();
    /// let unmappable = err.get_ref().unwrap().downcast_ref::<UnmappableChar>().unwrap();
    /// assert_eq!(unmappable.encoding(), textcodec::BIG5);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }
}

impl fmt::Display for UnmappableChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "U+{:04X} {:?} cannot be encoded in {}",
            u32::from(self.ch),
            self.ch,
            self.encoding.name()
        )
    }
}

impl std::error::Error for UnmappableChar {}

impl From<UnmappableChar> for io::Error {
    fn from(e: UnmappableChar) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// Bytes given to a writer as text that are not UTF-8.
///
/// An [`EncodeWriter`](super::EncodeWriter) takes UTF-8: a character split across `write`
/// calls is joined, but bytes that cannot be UTF-8 are refused with an [`io::Error`] of kind
/// [`InvalidData`](io::ErrorKind::InvalidData) carrying this, rather than damaged silently.
/// [`offset`](InvalidUtf8::offset) counts the text bytes accepted before the bad sequence.
///
/// ```
/// use std::io::Write;
/// use textcodec::io::{EncodeWriter, InvalidUtf8};
///
/// let mut writer = EncodeWriter::new(Vec::new(), textcodec::WINDOWS_1252);
/// let err = writer.write_all(b"abc\xC3(").unwrap_err();
/// let invalid = err.get_ref().unwrap().downcast_ref::<InvalidUtf8>().unwrap();
/// assert_eq!(invalid.offset(), 3);
/// assert_eq!(invalid.to_string(), "invalid UTF-8 at byte offset 3 of the text");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidUtf8 {
    pub(crate) offset: u64,
}

impl InvalidUtf8 {
    /// The number of text bytes accepted by the writer before the invalid sequence.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use textcodec::io::{EncodeWriter, InvalidUtf8};
    /// let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_8);
    /// writer.write_all("h\u{e9}".as_bytes())?;
    /// // An incomplete character at the end of the text.
    /// writer.write_all(b"\xE2\x82")?;
    /// let err = writer.finish().unwrap_err();
    /// assert_eq!(err.get_ref().unwrap().downcast_ref::<InvalidUtf8>().unwrap().offset(), 3);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid UTF-8 at byte offset {} of the text",
            self.offset
        )
    }
}

impl std::error::Error for InvalidUtf8 {}

impl From<InvalidUtf8> for io::Error {
    fn from(e: InvalidUtf8) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}
