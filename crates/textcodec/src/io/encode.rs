//! `EncodeWriter` and the encoding state machine shared with the async writer.

extern crate std;

use super::errors::{InvalidUtf8, UnmappableChar};
use crate::{Encoder, EncoderErrorMode, Encoding, Status};
use core::fmt;
use std::boxed::Box;
use std::io::{self, Write};
use std::vec;

/// The length of the UTF-8 sequence that `lead` starts (1 for a byte that cannot start one).
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xFF => 4,
        _ => 1,
    }
}

/// The buffers and the encoder of an encoding writer, independent of how bytes are written.
pub(crate) struct EncodeCore {
    encoder: Encoder,
    /// Encoded bytes; `out[out_start..out_end]` is still to be written to the inner writer.
    out: Box<[u8]>,
    out_start: usize,
    out_end: usize,
    /// The free room the encoder is always given: enough for its largest single step.
    min_free: usize,
    /// The start of a UTF-8 sequence whose end has not been written yet.
    carry: [u8; 4],
    carry_len: usize,
    /// Text bytes fully accepted so far (not counting `carry`).
    accepted: u64,
    /// The encoder was called with `last: true`.
    finished: bool,
}

impl EncodeCore {
    pub(crate) fn new(
        encoding: &'static Encoding,
        mode: EncoderErrorMode,
        capacity: usize,
    ) -> Self {
        let encoder = encoding.new_encoder(mode);
        // One character may take an escape sequence and a numeric character reference
        // (ISO-2022-JP: ESC ( B and &#1114111;); ask the encoder too.
        let min_free = encoder
            .max_buffer_length_from_utf8(4)
            .unwrap_or(64)
            .clamp(64, 1024);
        let len = capacity.max(min_free.saturating_mul(2));
        EncodeCore {
            encoder,
            out: vec![0; len].into_boxed_slice(),
            out_start: 0,
            out_end: 0,
            min_free,
            carry: [0; 4],
            carry_len: 0,
            accepted: 0,
            finished: false,
        }
    }

    pub(crate) fn encoding(&self) -> &'static Encoding {
        self.encoder.encoding()
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.finished
    }

    /// The encoded bytes not yet written to the inner writer.
    pub(crate) fn pending(&self) -> &[u8] {
        &self.out[self.out_start..self.out_end]
    }

    /// Reports that `n` bytes of `pending()` were written.
    pub(crate) fn advance(&mut self, n: usize) {
        self.out_start = (self.out_start + n).min(self.out_end);
        if self.out_start == self.out_end {
            self.out_start = 0;
            self.out_end = 0;
        }
    }

    /// Whether `pending()` must be written before the next `encode` or `finish`.
    pub(crate) fn needs_flush(&self) -> bool {
        self.out.len() - self.out_end < self.min_free
    }

    fn after_finish() -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "write to an encoding writer after finish",
        )
    }

    fn invalid_utf8(&self) -> io::Error {
        InvalidUtf8 {
            offset: self.accepted,
        }
        .into()
    }

    /// Encodes `text` into the free room. Returns the bytes of `text` read and whether the
    /// encoder stopped at an unmappable character (read then includes it).
    fn encode_str(&mut self, text: &str) -> (usize, Option<char>) {
        let dst = &mut self.out[self.out_end..];
        match self.encoder.encode_from_utf8(text, dst, false) {
            Ok(progress) => {
                self.out_end += progress.written;
                (progress.read, None)
            }
            Err(e) => {
                self.out_end += e.written;
                (e.read, Some(e.unmappable))
            }
        }
    }

    fn unmappable(&self, ch: char) -> io::Error {
        UnmappableChar {
            encoding: self.encoder.encoding(),
            ch,
        }
        .into()
    }

    /// Takes text from `buf`; only call when `!needs_flush()`. Returns the number of bytes of
    /// `buf` taken, more than 0 when `buf` is not empty, or an error:
    ///
    /// * an unmappable character (fatal mode) is an error only when it starts the text of this
    ///   call (or completes a character begun by earlier calls); it is then dropped. Otherwise
    ///   the call stops before it, and the next call reports it.
    /// * invalid UTF-8 likewise is an error only at the start of the call; nothing is taken
    ///   (the incomplete sequence carried from earlier calls is dropped).
    pub(crate) fn encode(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.finished {
            return Err(Self::after_finish());
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let mut taken = 0;
        if self.carry_len > 0 {
            let width = utf8_width(self.carry[0]);
            let mut carry = self.carry;
            let mut len = self.carry_len;
            while len < width && taken < buf.len() {
                carry[len] = buf[taken];
                len += 1;
                taken += 1;
            }
            match core::str::from_utf8(&carry[..len]) {
                Ok(ch) => {
                    let ch_len = ch.len();
                    let (read, unmappable) = self.encode_str(ch);
                    if let Some(c) = unmappable {
                        self.carry_len = 0;
                        self.accepted += ch_len as u64;
                        return Err(self.unmappable(c));
                    }
                    if read < ch_len {
                        // No room, which min_free rules out; keep the character for later.
                        self.carry = carry;
                        self.carry_len = len;
                        return Ok(taken);
                    }
                    self.carry_len = 0;
                    self.accepted += ch_len as u64;
                }
                Err(e) if e.error_len().is_none() => {
                    // Still incomplete: all of buf went into the carry.
                    self.carry = carry;
                    self.carry_len = len;
                    return Ok(taken);
                }
                Err(_) => {
                    let err = self.invalid_utf8();
                    self.carry_len = 0;
                    return Err(err);
                }
            }
        }

        let rest = &buf[taken..];
        if rest.is_empty() {
            return Ok(taken);
        }
        // Look at no more text than the free room can plausibly take, so that a huge buffer
        // written in many calls is validated once, not once per call.
        let free = self.out.len() - self.out_end;
        let window = &rest[..rest.len().min(free.max(self.min_free))];
        let (valid, tail, invalid) = match crate::simd::valid_prefix(window) {
            (s, []) => (s, &[][..], false),
            (good, bad) => {
                // What follows the valid prefix: a malformed sequence, or a character cut
                // short (the standard library's validator tells which from its first bytes).
                let error_len = match core::str::from_utf8(&bad[..bad.len().min(4)]) {
                    Err(e) => e.error_len(),
                    Ok(_) => Some(1),
                };
                match error_len {
                    Some(_) => (good, &[][..], true),
                    // A character cut by the end of buf is carried; one cut by the window is
                    // left for the next call.
                    None if window.len() == rest.len() => (good, bad, false),
                    None => (good, &[][..], false),
                }
            }
        };
        if valid.is_empty() && invalid {
            if taken > 0 {
                return Ok(taken);
            }
            return Err(self.invalid_utf8());
        }
        let (read, unmappable) = self.encode_str(valid);
        if let Some(c) = unmappable {
            // The unmappable character is the last one read. (Its length is not that of `c`:
            // ISO-2022-JP reports U+001B as U+FFFD.)
            let before = valid[..read]
                .char_indices()
                .next_back()
                .map_or(0, |(i, _)| i);
            if taken + before == 0 {
                // The character starts this call: report it, and drop it.
                self.accepted += read as u64;
                return Err(self.unmappable(c));
            }
            // Stop before it; the encoder reports it again when it is written again.
            self.accepted += before as u64;
            return Ok(taken + before);
        }
        self.accepted += read as u64;
        taken += read;
        if read == valid.len() && !tail.is_empty() {
            self.carry[..tail.len()].copy_from_slice(tail);
            self.carry_len = tail.len();
            taken += tail.len();
        }
        Ok(taken)
    }

    /// Ends the stream into the free room; only call when `!needs_flush()`. An incomplete
    /// character at the end of the text is an error, after which the stream is ended anyway.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        if self.carry_len > 0 {
            let carry = self.carry;
            if let Ok(ch) = core::str::from_utf8(&carry[..self.carry_len]) {
                // A complete character kept for lack of room.
                let (read, unmappable) = self.encode_str(ch);
                if let Some(c) = unmappable {
                    self.carry_len = 0;
                    return Err(self.unmappable(c));
                }
                if read < ch.len() {
                    return Ok(());
                }
                self.carry_len = 0;
            } else {
                let err = self.invalid_utf8();
                self.carry_len = 0;
                return Err(err);
            }
        }
        let dst = &mut self.out[self.out_end..];
        let written = match self.encoder.encode_from_utf8("", dst, true) {
            Ok(progress) if progress.status == Status::InputEmpty => progress.written,
            Ok(progress) => {
                // No room for the end of the stream; try again after the next flush.
                self.out_end += progress.written;
                return Ok(());
            }
            Err(e) => e.written,
        };
        self.out_end += written;
        self.finished = true;
        Ok(())
    }
}

/// A [`Write`] that takes UTF-8 text and writes it to an inner [`Write`] in some encoding.
///
/// The writer encodes to the [output encoding](Encoding::output_encoding) of the given encoding
/// (UTF-8 for UTF-16LE, UTF-16BE and replacement), as the spec's "encode" does.
///
/// * A character split across `write` calls is joined. Bytes that are not UTF-8 are refused
///   with an [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData) carrying an
///   [`InvalidUtf8`]: a `write` call takes the text before them, the next call returns the
///   error.
/// * In [`EncoderErrorMode::Html`] (the default) a character the encoding cannot represent is
///   written as a decimal numeric character reference, `&#NNNN;`, as browsers do for forms. In
///   [`EncoderErrorMode::Fatal`] it is an error of kind
///   [`InvalidData`](io::ErrorKind::InvalidData) carrying an [`UnmappableChar`] that names it; a
///   `write` call takes the text before it, the next call returns the error, and the character
///   is then dropped: writing the text after it goes on.
/// * Encoded bytes are buffered (8 KiB by default, allocated once) and written to the inner
///   writer when the buffer fills, on [`flush`](Write::flush), and on
///   [`finish`](EncodeWriter::finish). Short writes and `Interrupted` errors of the inner writer
///   are handled.
/// * [`finish`](EncodeWriter::finish) ends the stream: the encoder's end (ISO-2022-JP returns to
///   ASCII with `ESC ( B`), then everything is written and flushed, and the inner writer is
///   returned. `flush` alone does not end the stream.
///
/// **Dropping** a writer that was not finished finishes it as well as it can: it ends the
/// stream, writes what it can and flushes, ignoring errors (an incomplete character at the end
/// of the text is dropped). Nothing is written in `Drop` after the inner writer panicked. Call
/// `finish` to see the errors.
///
/// ```
/// use std::io::Write;
/// use textcodec::io::EncodeWriter;
///
/// let mut writer = EncodeWriter::new(Vec::new(), textcodec::ISO_2022_JP);
/// writer.write_all("日本".as_bytes())?;
/// let bytes = writer.finish()?;
/// assert_eq!(bytes, b"\x1B$BF|K\\\x1B(B");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct EncodeWriter<W: Write> {
    /// `None` only after `finish` took it.
    inner: Option<W>,
    core: EncodeCore,
    /// The inner writer panicked during a write: `Drop` must not write again.
    panicked: bool,
}

impl<W: Write> EncodeWriter<W> {
    /// Encodes to `encoding` in html mode: unmappable characters become `&#NNNN;`.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::WINDOWS_1252);
    /// write!(writer, "{} \u{263A}", "café")?;
    /// assert_eq!(writer.finish()?, b"caf\xE9 &#9786;");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(writer: W, encoding: &'static Encoding) -> Self {
        Self::with_mode(writer, encoding, EncoderErrorMode::Html)
    }

    /// Encodes to `encoding` with the given error mode.
    ///
    /// ```
    /// use std::io::Write;
    /// use textcodec::EncoderErrorMode;
    /// let mut writer = textcodec::io::EncodeWriter::with_mode(Vec::new(), textcodec::KOI8_R, EncoderErrorMode::Fatal);
    /// assert!(writer.write_all("мир".as_bytes()).is_ok());
    /// assert!(writer.write_all("世界".as_bytes()).is_err());
    /// ```
    pub fn with_mode(writer: W, encoding: &'static Encoding, mode: EncoderErrorMode) -> Self {
        Self::with_capacity(super::DEFAULT_CAPACITY, writer, encoding, mode)
    }

    /// Like [`with_mode`](EncodeWriter::with_mode), with an output buffer of about `capacity`
    /// bytes instead of 8 KiB (never less than the room for a few characters).
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = textcodec::io::EncodeWriter::with_capacity(
    ///     1, Vec::new(), textcodec::EUC_KR, Default::default());
    /// writer.write_all("한국어".as_bytes())?;
    /// assert_eq!(writer.finish()?, b"\xC7\xD1\xB1\xB9\xBE\xEE");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_capacity(
        capacity: usize,
        writer: W,
        encoding: &'static Encoding,
        mode: EncoderErrorMode,
    ) -> Self {
        EncodeWriter {
            inner: Some(writer),
            core: EncodeCore::new(encoding, mode, capacity),
            panicked: false,
        }
    }

    /// The encoding written: the output encoding of the one given.
    ///
    /// ```
    /// let writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::UTF_16LE);
    /// assert_eq!(writer.encoding(), textcodec::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.core.encoding()
    }

    /// The inner writer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::UTF_8);
    /// writer.write_all(b"abc")?;
    /// assert!(writer.get_ref().is_empty()); // still buffered
    /// writer.flush()?;
    /// assert_eq!(writer.get_ref(), b"abc");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn get_ref(&self) -> &W {
        match &self.inner {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by finish"),
        }
    }

    /// The inner writer, mutably. Writing to it directly puts bytes before the ones still
    /// buffered.
    ///
    /// ```
    /// let mut writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::UTF_8);
    /// writer.get_mut().extend_from_slice(b"raw ");
    /// assert_eq!(writer.finish()?, b"raw ");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        match &mut self.inner {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by finish"),
        }
    }

    /// Writes all buffered bytes to the inner writer (without flushing it).
    fn flush_buf(&mut self) -> io::Result<()> {
        let inner = match &mut self.inner {
            Some(w) => w,
            None => return Ok(()),
        };
        while !self.core.pending().is_empty() {
            self.panicked = true;
            let r = inner.write(self.core.pending());
            self.panicked = false;
            match r {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "failed to write the encoded bytes",
                    ))
                }
                Ok(n) => self.core.advance(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Ends the stream, writes everything and flushes the inner writer, keeping it. Calling it
    /// again retries what failed; writing after it is an error.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::ISO_2022_JP);
    /// writer.write_all("ｱ".as_bytes())?; // halfwidth katakana: written as fullwidth
    /// writer.try_finish()?;
    /// assert_eq!(writer.get_ref(), b"\x1B$B%\"\x1B(B");
    /// assert!(writer.write_all(b"more").is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn try_finish(&mut self) -> io::Result<()> {
        let mut result = Ok(());
        while !self.core.is_finished() {
            if self.core.needs_flush() {
                self.flush_buf()?;
            }
            let was_empty = self.core.pending().is_empty();
            if let Err(e) = self.core.finish() {
                // Keep ending the stream; report the first error.
                result = Err(e);
                continue;
            }
            if !self.core.is_finished() {
                if was_empty {
                    return Err(io::Error::other("the encoder made no progress"));
                }
                self.flush_buf()?;
            }
        }
        self.flush_buf()?;
        if let Some(w) = &mut self.inner {
            w.flush()?;
        }
        result
    }

    /// Ends the stream (see [`try_finish`](EncodeWriter::try_finish)) and returns the inner
    /// writer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = textcodec::io::EncodeWriter::new(Vec::new(), textcodec::GB18030);
    /// writer.write_all("€".as_bytes())?;
    /// assert_eq!(writer.finish()?, b"\xA2\xE3");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        match self.inner.take() {
            Some(w) => Ok(w),
            None => unreachable!("the inner writer is only taken by finish"),
        }
    }
}

impl<W: Write> Write for EncodeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.core.needs_flush() {
            self.flush_buf()?;
        }
        self.core.encode(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_buf()?;
        match &mut self.inner {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl<W: Write> Drop for EncodeWriter<W> {
    fn drop(&mut self) {
        if self.inner.is_some() && !self.panicked {
            let _ = self.try_finish();
        }
    }
}

impl<W: Write> fmt::Debug for EncodeWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodeWriter")
            .field("encoding", &self.core.encoding().name())
            .field("buffered", &self.core.pending().len())
            .field("finished", &self.core.is_finished())
            .finish_non_exhaustive()
    }
}
