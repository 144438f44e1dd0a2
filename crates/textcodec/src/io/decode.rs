//! `DecodeReader` and the decoding state machine shared with the async reader.

extern crate std;

use super::detect::{DetectOptions, Sniffing};
use super::errors::MalformedInput;
use crate::detect::Sniffed;
use crate::{
    BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, Encoding, Progress,
    Status, UTF_8,
};
use core::fmt;
use std::boxed::Box;
use std::io::{self, BufRead, Read};
use std::vec;
use std::vec::Vec;

/// What the driver of a [`DecodeCore`] must do after [`DecodeCore::step`].
pub(crate) enum CoreStep {
    /// Output may be available, or more steps are needed: look again.
    Continue,
    /// Read into [`DecodeCore::input_space`] and report with [`DecodeCore::filled`].
    NeedInput,
    /// The end of the text.
    End,
    /// Malformed input in fatal mode; decoding resumes after it on the next step.
    Error(MalformedInput),
}

/// The most input bytes [`feed_clean`] leaves unfed at the end of a call.
pub(crate) const MAX_TAIL: usize = 8;

/// Where the output of [`feed_clean`] goes.
pub(crate) trait FeedOut {
    /// One decoder call with `last: false`, its output appended.
    fn decode(&mut self, decoder: &mut Decoder, src: &[u8]) -> Result<Progress, DecodeError>;
    /// Whether `n` more bytes fit.
    fn room_for(&self, n: usize) -> bool;
    /// Appends decoded UTF-8 (whole characters).
    fn push(&mut self, utf8: &[u8]);
    /// The length of the output so far.
    fn len(&self) -> usize;
    /// Forgets the output after the first `len` bytes.
    fn truncate(&mut self, len: usize);
}

/// What [`feed_clean`] did.
pub(crate) enum Fed {
    /// `read` bytes consumed; `full` when the output had no more room.
    Progress { read: usize, full: bool },
    /// Fatal mode: malformed input, consumed through it.
    Error { read: usize },
}

/// Feeds `src` (more input follows) so that, afterwards, the decoder holds no bytes of a
/// partial sequence: the bytes of an unfinished sequence at the end of `src` (at most
/// [`MAX_TAIL`]) are left unread, for the caller to give again with the input that follows.
///
/// The decoder counts the bytes it holds across calls as read, and when an error later
/// restores them to the input they are counted again; keeping every call free of such
/// bytes makes the sum of `read` the exact position in the stream, and error offsets exact,
/// whatever the read sizes. (If no point in the tail leaves the decoder empty, which takes an
/// odd run such as UTF-16 lone leading surrogates, the whole tail is fed.)
pub(crate) fn feed_clean<O: FeedOut>(decoder: &mut Decoder, src: &[u8], out: &mut O) -> Fed {
    let split = src.len().saturating_sub(MAX_TAIL);
    let (head, tail) = src.split_at(split);
    let before = (decoder.clone(), out.len());
    if !head.is_empty() {
        match out.decode(decoder, head) {
            Ok(p) if p.status == Status::OutputFull => {
                return Fed::Progress {
                    read: p.read,
                    full: true,
                }
            }
            Ok(_) => {}
            Err(e) => return Fed::Error { read: e.read },
        }
    }
    let mut scratch = [0u8; 8 * MAX_TAIL + 64];
    let mut flushed = [0u8; 64];
    for j in (0..=tail.len()).rev() {
        let mut trial = decoder.clone();
        let written = match trial.decode_to_utf8(&tail[..j], &mut scratch, false) {
            Ok(p) if p.status == Status::InputEmpty => p.written,
            // Malformed input in the tail is malformed whatever follows: report it now.
            Err(_) if j == tail.len() => break,
            _ => continue,
        };
        // Held bytes show at the end of the stream, as an error or as output.
        let mut probe = trial.clone();
        match probe.decode_to_utf8(&[], &mut flushed, true) {
            Ok(p) if p.written == 0 && p.status == Status::InputEmpty => {}
            _ => continue,
        }
        if !out.room_for(written) {
            continue;
        }
        out.push(&scratch[..written]);
        *decoder = trial;
        return Fed::Progress {
            read: split + j,
            full: false,
        };
    }
    // Decode all of `src` in one call instead, so that an error in the tail that gives back
    // bytes of the head counts them right.
    *decoder = before.0;
    out.truncate(before.1);
    match out.decode(decoder, src) {
        Ok(p) => Fed::Progress {
            read: p.read,
            full: p.status == Status::OutputFull,
        },
        Err(e) => Fed::Error { read: e.read },
    }
}

/// [`FeedOut`] into a byte buffer.
struct SliceOut<'a> {
    buf: &'a mut [u8],
    len: &'a mut usize,
}

impl FeedOut for SliceOut<'_> {
    fn decode(&mut self, decoder: &mut Decoder, src: &[u8]) -> Result<Progress, DecodeError> {
        let r = decoder.decode_to_utf8(src, &mut self.buf[*self.len..], false);
        *self.len += match &r {
            Ok(p) => p.written,
            Err(e) => e.written,
        };
        r
    }
    fn room_for(&self, n: usize) -> bool {
        self.buf.len() - *self.len >= n
    }
    fn push(&mut self, utf8: &[u8]) {
        self.buf[*self.len..*self.len + utf8.len()].copy_from_slice(utf8);
        *self.len += utf8.len();
    }
    fn len(&self) -> usize {
        *self.len
    }
    fn truncate(&mut self, len: usize) {
        *self.len = len;
    }
}

/// The buffers and the decoder of a decoding reader, independent of how bytes are read.
pub(crate) struct DecodeCore {
    decoder: Decoder,
    input: Box<[u8]>,
    in_start: usize,
    in_end: usize,
    output: Box<[u8]>,
    out_start: usize,
    out_end: usize,
    /// The inner reader reported its end.
    eof: bool,
    /// The decoder was called with `last: true` and returned `InputEmpty`.
    finished: bool,
    /// The unread input is the tail of a sequence: read more before decoding again.
    wait_for_more: bool,
    /// The encoding in use, after BOM sniffing (the decoder forgets it when it finishes).
    encoding: &'static Encoding,
    /// Input bytes consumed by the decoder so far.
    consumed: u64,
    pending: Option<MalformedInput>,
    /// A detecting reader that has not decided on its encoding yet.
    sniffing: Option<Box<Sniffing>>,
    /// How a detecting reader found its encoding.
    sniffed: Option<Sniffed>,
    /// The size of the reads once decoding.
    capacity: usize,
    /// The bytes are handed out as read, not decoded (see [`DecodeReaderBuilder`]).
    passthru: bool,
    /// A reader from a [`DecodeReaderBuilder`] whose first bytes decide how to read it: the
    /// builder's options, until then.
    start: Option<Start>,
}

/// The options of a [`DecodeReaderBuilder`] that decide, from the first bytes of the stream,
/// in which encoding to decode it or whether to pass it through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    encoding: Option<&'static Encoding>,
    utf8_passthru: bool,
    bom_override: bool,
    strip_bom: bool,
    bom_sniffing: bool,
    error_mode: DecoderErrorMode,
}

impl Start {
    /// Whether a BOM may choose the encoding.
    fn sniffs(&self) -> bool {
        self.bom_sniffing && (self.bom_override || self.encoding.is_none())
    }

    /// Whether the decision needs the first bytes of the stream.
    fn needs_head(&self) -> bool {
        self.sniffs() || self.strip_bom
    }

    /// How to read a stream that starts with `head` (its first three bytes, or all of a
    /// shorter stream), given the encoding detection found, if it ran: the encoding to decode
    /// from (`None`: pass the bytes through) and how many bytes of `head` to skip (a BOM,
    /// with `strip_bom`).
    fn decide(
        &self,
        head: &[u8],
        detected: Option<&'static Encoding>,
    ) -> (Option<&'static Encoding>, usize) {
        let bom = Encoding::for_bom(head);
        let skip = match bom {
            Some((_, len)) if self.strip_bom => len,
            _ => 0,
        };
        let passes = |e: &'static Encoding| e == UTF_8 && self.utf8_passthru;
        let encoding = match detected {
            Some(found) => (!passes(found)).then_some(found),
            None => match bom {
                Some((found, _)) if self.sniffs() && !passes(found) => Some(found),
                _ => self.encoding,
            },
        };
        (encoding, skip)
    }

    /// The decoder for `encoding`: the error mode asked for, its own BOM removed.
    fn decoder(&self, encoding: &'static Encoding) -> Decoder {
        encoding.new_decoder(DecoderOptions {
            error_mode: self.error_mode,
            bom: BomHandling::Strip,
        })
    }
}

/// How many bytes at the end of `bytes` (at most three) may start a UTF-8 character that the
/// next bytes complete.
fn incomplete_utf8_tail(bytes: &[u8]) -> usize {
    for k in 1..=bytes.len().min(3) {
        let needs = match bytes[bytes.len() - k] {
            0x80..=0xBF => continue,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return 0,
        };
        return if k < needs { k } else { 0 };
    }
    0
}

/// The error of `read_str` and `fill_str` after a `read` or `consume` that split a character.
pub(crate) fn inside_character() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "the read position is inside a character (after a partial read or consume)",
    )
}

/// The error of `read_str` and `fill_str` when the bytes passed through are not UTF-8.
fn passed_through_not_utf8() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "the bytes passed through undecoded are not UTF-8 here (or a read or consume stopped \
         inside a character)",
    )
}

/// Is `b` a byte that continues a UTF-8 sequence?
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

impl DecodeCore {
    pub(crate) fn new(
        encoding: &'static Encoding,
        options: DecoderOptions,
        capacity: usize,
    ) -> Self {
        let decoder = encoding.new_decoder(options);
        let capacity = Self::room(capacity);
        let out_len = Self::output_room(&decoder, capacity);
        let input = vec![0; capacity].into_boxed_slice();
        Self::with_parts(decoder, input, out_len, capacity, None)
    }

    /// A core that reads the start of the input to find its encoding (see [`DetectOptions`])
    /// before decoding it with `options`.
    pub(crate) fn detecting(
        detect: DetectOptions,
        options: DecoderOptions,
        capacity: usize,
    ) -> Self {
        let capacity = Self::room(capacity);
        let out_len = Self::output_room_any(options, capacity);
        // The input buffer is the one the detection reads into (`Sniffing::into_input`).
        let sniffing = Box::new(Sniffing::new(detect, options));
        let decoder = UTF_8.new_decoder(options);
        Self::with_parts(decoder, Box::default(), out_len, capacity, Some(sniffing))
    }

    /// A core for a [`DecodeReaderBuilder`]: detecting the encoding with `detect` when no
    /// encoding is given, else reading the first bytes if `start` needs them.
    pub(crate) fn starting(start: Start, detect: Option<&DetectOptions>, capacity: usize) -> Self {
        let options = DecoderOptions {
            error_mode: start.error_mode,
            bom: BomHandling::Strip,
        };
        if let (None, Some(detect)) = (start.encoding, detect) {
            let mut core = Self::detecting(detect.clone(), options, capacity);
            core.start = Some(start);
            return core;
        }
        if start.needs_head() {
            // The first bytes are read into the input buffer, then `start` decides.
            let capacity = Self::room(capacity);
            let out_len = Self::output_room_any(options, capacity);
            let input = vec![0; capacity].into_boxed_slice();
            let mut core =
                Self::with_parts(UTF_8.new_decoder(options), input, out_len, capacity, None);
            core.start = Some(start);
            return core;
        }
        let mut core = Self::new(start.encoding.unwrap_or(UTF_8), options, capacity);
        if start.encoding.is_none() {
            core.passthru = true;
        }
        core
    }

    /// Whether a `Read` may read the inner reader straight into the caller's buffer: the bytes
    /// pass through and none are waiting here.
    pub(crate) fn reads_directly(&self) -> bool {
        self.passthru && !self.has_output() && self.in_start == self.in_end
    }

    /// The error for output that is not a `str` where one was asked for.
    pub(crate) fn not_str(&self) -> io::Error {
        if self.passthru {
            passed_through_not_utf8()
        } else {
            inside_character()
        }
    }

    /// Decides how to read the stream, from its first bytes (and the encoding detection found,
    /// if it ran), as `start` says.
    fn begin(&mut self, start: Start, detected: Option<&'static Encoding>) {
        let head = &self.input[self.in_start..self.in_end.min(self.in_start + 3)];
        let (encoding, skip) = start.decide(head, detected);
        self.in_start += skip;
        self.consumed += skip as u64;
        match encoding {
            Some(encoding) => {
                self.decoder = start.decoder(encoding);
                self.encoding = encoding;
            }
            None => {
                self.passthru = true;
                self.encoding = UTF_8;
            }
        }
    }

    /// Hands out the input as it is: all of it at the end of the stream, else all but an
    /// unfinished UTF-8 character at its end, so that UTF-8 comes out in whole characters.
    fn pass_through(&mut self) {
        let src = &self.input[self.in_start..self.in_end];
        if src.is_empty() {
            self.finished = true;
            return;
        }
        let end = src.len().min(self.output.len());
        let n = if self.eof && end == src.len() {
            end
        } else {
            end - incomplete_utf8_tail(&src[..end])
        };
        self.output[..n].copy_from_slice(&src[..n]);
        self.out_end = n;
        self.in_start += n;
        self.consumed += n as u64;
        self.wait_for_more = !self.eof && self.in_start < self.in_end;
    }

    /// The input buffer's size for a `capacity` asked for: room for the tail that
    /// `feed_clean` keeps, and then some.
    fn room(capacity: usize) -> usize {
        capacity.max(4 * MAX_TAIL)
    }

    /// The output buffer's size: enough that one call decodes a whole input buffer of
    /// `capacity` bytes; never less than room for a few worst-case steps.
    fn output_room(decoder: &Decoder, capacity: usize) -> usize {
        decoder
            .max_utf8_buffer_length(capacity)
            .unwrap_or(capacity.saturating_mul(3))
            .max(32)
            + 64
    }

    /// The output room of the worst of the decoders a reader may pick.
    fn output_room_any(options: DecoderOptions, capacity: usize) -> usize {
        Encoding::all()
            .iter()
            .map(|e| Self::output_room(&e.new_decoder(options), capacity))
            .max()
            .unwrap_or(0)
    }

    fn with_parts(
        decoder: Decoder,
        input: Box<[u8]>,
        out_len: usize,
        capacity: usize,
        sniffing: Option<Box<Sniffing>>,
    ) -> Self {
        DecodeCore {
            encoding: decoder.encoding(),
            decoder,
            wait_for_more: false,
            input,
            in_start: 0,
            in_end: 0,
            output: vec![0; out_len].into_boxed_slice(),
            out_start: 0,
            out_end: 0,
            eof: false,
            finished: false,
            consumed: 0,
            pending: None,
            sniffing,
            sniffed: None,
            capacity,
            passthru: false,
            start: None,
        }
    }

    /// How a detecting reader found its encoding, once it has.
    pub(crate) fn sniffed(&self) -> Option<Sniffed> {
        self.sniffed
    }

    pub(crate) fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    pub(crate) fn has_output(&self) -> bool {
        self.out_start < self.out_end
    }

    /// The decoded UTF-8 not yet consumed.
    pub(crate) fn available(&self) -> &[u8] {
        &self.output[self.out_start..self.out_end]
    }

    pub(crate) fn consume(&mut self, amount: usize) {
        self.out_start = (self.out_start + amount).min(self.out_end);
    }

    /// How much of `available()` to copy into a buffer of `room` bytes: all that fits, cut at a
    /// character boundary unless not even one character fits.
    pub(crate) fn copy_len(&self, room: usize) -> usize {
        let avail = self.available();
        if room >= avail.len() {
            return avail.len();
        }
        let mut n = room;
        while n > 0 && is_continuation(avail[n]) {
            n -= 1;
        }
        if n == 0 {
            room
        } else {
            n
        }
    }

    /// Consumes all available output as a `&str`.
    pub(crate) fn take_str(&mut self) -> io::Result<&str> {
        let (start, end) = (self.out_start, self.out_end);
        match crate::simd::str_from_utf8(&self.output[start..end]) {
            Some(s) => {
                self.out_start = end;
                Ok(s)
            }
            None => Err(self.not_str()),
        }
    }

    /// The free input buffer to read into after [`CoreStep::NeedInput`].
    pub(crate) fn input_space(&mut self) -> &mut [u8] {
        match &mut self.sniffing {
            Some(sniffing) => sniffing.space(self.capacity),
            None => &mut self.input[self.in_end..],
        }
    }

    /// Reports that `n` bytes were read into `input_space()`; 0 is the end of the input.
    pub(crate) fn filled(&mut self, n: usize) {
        if let Some(sniffing) = &mut self.sniffing {
            sniffing.filled(n);
        }
        if n == 0 {
            self.eof = true;
        } else if self.sniffing.is_none() {
            self.in_end = (self.in_end + n).min(self.input.len());
            self.wait_for_more = false;
        }
    }

    fn malformed(&mut self, read: usize) {
        self.in_start += read;
        self.consumed += read as u64;
        self.pending = Some(MalformedInput {
            encoding: self.decoder.encoding(),
            offset: self.consumed,
        });
    }

    /// Advances the state machine; only call when `!has_output()`.
    pub(crate) fn step(&mut self) -> CoreStep {
        if let Some(e) = self.pending.take() {
            return CoreStep::Error(e);
        }
        if self.finished {
            return CoreStep::End;
        }
        if let Some(sniffing) = &mut self.sniffing {
            let Some(sniffed) = sniffing.decide(self.eof) else {
                return CoreStep::NeedInput;
            };
            // Decode what was read, and the rest, in the encoding found.
            let sniffing = self.sniffing.take().expect("a detecting reader");
            self.decoder = sniffed.encoding.new_decoder(sniffing.decoder_options);
            self.encoding = sniffed.encoding;
            self.sniffed = Some(sniffed);
            let (input, len) = sniffing.into_input(self.capacity);
            self.input = input;
            self.in_start = 0;
            self.in_end = len;
            if let Some(start) = self.start.take() {
                self.begin(start, Some(sniffed.encoding));
            }
        }
        if let Some(start) = self.start {
            if self.in_end - self.in_start < 3 && !self.eof {
                return CoreStep::NeedInput;
            }
            self.start = None;
            self.begin(start, None);
        }
        if !self.eof && (self.in_start == self.in_end || self.wait_for_more) {
            // Keep the unread tail, and read after it.
            self.input.copy_within(self.in_start..self.in_end, 0);
            self.in_end -= self.in_start;
            self.in_start = 0;
            return CoreStep::NeedInput;
        }
        self.out_start = 0;
        self.out_end = 0;
        if self.passthru {
            self.pass_through();
            return CoreStep::Continue;
        }
        if self.in_start == self.in_end {
            // The end of the stream.
            match self.decoder.decode_to_utf8(&[], &mut self.output, true) {
                Ok(progress) => {
                    self.out_end = progress.written;
                    if progress.status == Status::InputEmpty {
                        self.finished = true;
                    }
                }
                Err(e) => {
                    self.out_end = e.written;
                    self.malformed(e.read);
                }
            }
            return CoreStep::Continue;
        }
        let src = &self.input[self.in_start..self.in_end];
        let fed = if self.eof {
            // All the rest, as the end of the stream (`last`): an error among bytes the
            // decoder holds (the beginning of a BOM, an escape sequence cut short) is counted
            // in this call's `read`, not after bytes counted as read already.
            match self.decoder.decode_to_utf8(src, &mut self.output, true) {
                Ok(p) => {
                    self.out_end = p.written;
                    if p.status == Status::InputEmpty {
                        self.finished = true;
                    }
                    Fed::Progress {
                        read: p.read,
                        full: true,
                    }
                }
                Err(e) => {
                    self.out_end = e.written;
                    Fed::Error { read: e.read }
                }
            }
        } else {
            let mut out = SliceOut {
                buf: &mut self.output,
                len: &mut self.out_end,
            };
            feed_clean(&mut self.decoder, src, &mut out)
        };
        match fed {
            Fed::Progress { read, full } => {
                self.in_start += read;
                self.consumed += read as u64;
                self.wait_for_more = !full && self.in_start < self.in_end;
            }
            Fed::Error { read } => self.malformed(read),
        }
        self.encoding = self.decoder.encoding();
        CoreStep::Continue
    }
}

/// A [`Read`] and [`BufRead`] of UTF-8 text decoded from a [`Read`] of bytes in some encoding.
///
/// The reader is built from an [`Encoding`] and [`DecoderOptions`]: by default the BOM is sniffed,
/// as the spec's "decode" does, so that a file with a UTF-8, UTF-16LE or UTF-16BE BOM decodes as
/// such whatever the given encoding, and malformed input becomes U+FFFD.
///
/// * Any read size works, and the inner reader may return short reads; `Interrupted` errors of
///   the inner reader are retried.
/// * [`read_str`](DecodeReader::read_str), [`fill_str`](DecodeReader::fill_str) and
///   [`BufRead::fill_buf`] hand out whole characters. [`Read::read`] fills the caller's buffer
///   with whole characters too when at least one fits (a buffer of 4 bytes or more always gets
///   whole characters).
/// * In fatal mode ([`DecoderErrorMode::Fatal`](crate::DecoderErrorMode::Fatal)), malformed input
///   is an [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData) carrying a
///   [`MalformedInput`] with the byte offset (the same whatever the read sizes); the text
///   before it is handed out first. Reading may go on after the error: decoding resumes after
///   the malformed bytes, so the text read, errors skipped, is the replacement-mode text
///   without the U+FFFDs of those errors.
/// * The input and output buffers are allocated once, when the reader is built (8 KiB of input
///   by default, and the output room [`Decoder::max_utf8_buffer_length`] asks for); reading
///   allocates nothing.
///
/// ```
/// use std::io::BufRead;
/// use textcodec::io::DecodeReader;
///
/// let bytes: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea\n\x83\x65\x83\x4c\x83\x58\x83\x67\n";
/// let reader = DecodeReader::new(bytes, textcodec::SHIFT_JIS);
/// let lines: Vec<String> = reader.lines().collect::<Result<_, _>>()?;
/// assert_eq!(lines, ["日本語", "テキスト"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct DecodeReader<R> {
    inner: R,
    core: DecodeCore,
}

impl<R: Read> DecodeReader<R> {
    /// Decodes `reader` from `encoding`, with the default options: BOM sniffing and
    /// replacement of malformed input by U+FFFD.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut text = String::new();
    /// textcodec::io::DecodeReader::new(&b"caf\xE9"[..], textcodec::WINDOWS_1252).read_to_string(&mut text)?;
    /// assert_eq!(text, "café");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(reader: R, encoding: &'static Encoding) -> Self {
        Self::with_options(reader, encoding, DecoderOptions::default())
    }

    /// Decodes `reader` from `encoding` with the given options.
    ///
    /// ```
    /// use std::io::Read;
    /// use textcodec::{BomHandling, DecoderOptions};
    ///
    /// // Keep the BOM in the text ("UTF-8 decode without BOM").
    /// let options = DecoderOptions { bom: BomHandling::Keep, ..Default::default() };
    /// let mut text = String::new();
    /// textcodec::io::DecodeReader::with_options(&b"\xEF\xBB\xBFhi"[..], textcodec::UTF_8, options)
    ///     .read_to_string(&mut text)?;
    /// assert_eq!(text, "\u{FEFF}hi");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_options(reader: R, encoding: &'static Encoding, options: DecoderOptions) -> Self {
        Self::with_capacity(super::DEFAULT_CAPACITY, reader, encoding, options)
    }

    /// Like [`with_options`](DecodeReader::with_options), with an input buffer of `capacity`
    /// bytes (at least 32) instead of 8 KiB.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut text = String::new();
    /// let mut reader = textcodec::io::DecodeReader::with_capacity(
    ///     1, &b"\xA4\xA4\xA4\xE5"[..], textcodec::BIG5, Default::default());
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "中文");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_capacity(
        capacity: usize,
        reader: R,
        encoding: &'static Encoding,
        options: DecoderOptions,
    ) -> Self {
        DecodeReader {
            inner: reader,
            core: DecodeCore::new(encoding, options, capacity),
        }
    }

    /// Decodes `reader` from the encoding it is found to be in, with the default options: BOM
    /// sniffing and replacement of malformed input by U+FFFD. Before the first read returns, the
    /// reader reads the start of the input (at most 64 KiB) to find the encoding: a byte order
    /// mark, then an HTML `<meta charset>` or XML declaration in the first 1024 bytes, then the
    /// statistical guess of the [`Detector`](crate::detect::Detector), UTF-8 allowed (see
    /// [`DetectOptions`]). Those bytes are then decoded, and the rest of the stream after them,
    /// as any reader does; the input is never read whole.
    ///
    /// ```
    /// use std::io::Read;
    /// use textcodec::detect::Source;
    /// use textcodec::io::DecodeReader;
    ///
    /// // Russian in windows-1251, declared nowhere.
    /// let bytes: &[u8] = b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xca\xe0\xea \xe4\xe5\xeb\xe0?";
    /// let mut reader = DecodeReader::detect(bytes);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "Привет, мир! Как дела?");
    /// assert_eq!(reader.encoding(), textcodec::WINDOWS_1251);
    /// assert_eq!(reader.sniffed().unwrap().source, Source::Detector);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn detect(reader: R) -> Self {
        Self::detect_with(reader, DetectOptions::default(), DecoderOptions::default())
    }

    /// Like [`detect`](DecodeReader::detect), with the given detection and decoder options.
    ///
    /// ```
    /// use std::io::Read;
    /// use textcodec::detect::Source;
    /// use textcodec::io::{DecodeReader, DetectOptions};
    ///
    /// let page: &[u8] = b"<meta charset=euc-jp><p>\xc6\xfc\xcb\xdc\xb8\xec</p>";
    /// let options = DetectOptions::new().tld(b"jp");
    /// let mut reader = DecodeReader::detect_with(page, options, Default::default());
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "<meta charset=euc-jp><p>日本語</p>");
    /// assert_eq!(reader.sniffed().unwrap().source, Source::Prescan);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn detect_with(reader: R, detect: DetectOptions, options: DecoderOptions) -> Self {
        DecodeReader {
            inner: reader,
            core: DecodeCore::detecting(detect, options, super::DEFAULT_CAPACITY),
        }
    }

    /// How a reader made with [`detect`](DecodeReader::detect) found its encoding: `None` until
    /// its first read returns, and for readers given an encoding. The [`Sniffed`] says which
    /// step found it ([`Source::Bom`](crate::detect::Source::Bom), `Prescan`,
    /// `XmlDeclaration`, `Detector`, or `Default` for ASCII) and how sure it is (certain for a
    /// BOM).
    ///
    /// ```
    /// use std::io::BufRead;
    /// use textcodec::detect::{Confidence, Source};
    ///
    /// let mut reader = textcodec::io::DecodeReader::detect(&b"\xEF\xBB\xBFcaf\xC3\xA9"[..]);
    /// assert_eq!(reader.sniffed(), None);
    /// assert_eq!(reader.fill_str()?, "café");
    /// let sniffed = reader.sniffed().unwrap();
    /// assert_eq!((sniffed.encoding, sniffed.source), (textcodec::UTF_8, Source::Bom));
    /// assert_eq!(sniffed.confidence, Confidence::Certain);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn sniffed(&self) -> Option<Sniffed> {
        self.core.sniffed()
    }

    /// The encoding in use: the one given, or the one its BOM says once the BOM has been
    /// sniffed, which is done by the first read (or `fill_buf`) that returns. A reader made
    /// with [`detect`](DecodeReader::detect) says UTF-8 until then, and the encoding found after.
    ///
    /// ```
    /// use std::io::BufRead;
    /// let mut reader = textcodec::io::DecodeReader::new(&b"\xFE\xFF\0h\0i"[..], textcodec::WINDOWS_1252);
    /// assert_eq!(reader.encoding(), textcodec::WINDOWS_1252);
    /// reader.fill_buf()?;
    /// assert_eq!(reader.encoding(), textcodec::UTF_16BE);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.core.encoding()
    }

    /// Decodes the next piece of text and returns it as a `&str` of whole characters, consumed;
    /// the empty string at the end of the text.
    ///
    /// Returns an error of kind [`InvalidInput`](io::ErrorKind::InvalidInput) if an earlier
    /// [`read`](Read::read) into a buffer of less than 4 bytes, or a
    /// [`consume`](BufRead::consume), stopped inside a character.
    ///
    /// ```
    /// let mut reader = textcodec::io::DecodeReader::new(&b"\xC4\xE3\xBA\xC3"[..], textcodec::GBK);
    /// let mut text = String::new();
    /// loop {
    ///     let piece = reader.read_str()?;
    ///     if piece.is_empty() {
    ///         break;
    ///     }
    ///     text.push_str(piece);
    /// }
    /// assert_eq!(text, "你好");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn read_str(&mut self) -> io::Result<&str> {
        self.fill_buf()?;
        self.core.take_str()
    }

    /// Like [`BufRead::fill_buf`], as a `&str`: the decoded text not yet consumed, decoding more
    /// if there is none; the empty string at the end of the text. Pair it with
    /// [`BufRead::consume`].
    ///
    /// ```
    /// use std::io::BufRead;
    /// let mut reader = textcodec::io::DecodeReader::new(&b"\xE0\xB8\x81"[..], textcodec::UTF_8);
    /// let text = reader.fill_str()?;
    /// assert_eq!(text, "ก");
    /// let n = text.len();
    /// reader.consume(n);
    /// assert_eq!(reader.fill_str()?, "");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn fill_str(&mut self) -> io::Result<&str> {
        self.fill_buf()?;
        let avail = self.core.available();
        match core::str::from_utf8(avail) {
            Ok(s) => Ok(s),
            Err(_) => Err(self.core.not_str()),
        }
    }

    /// The inner reader.
    ///
    /// ```
    /// let reader = textcodec::io::DecodeReader::new(&b"abc"[..], textcodec::UTF_8);
    /// assert_eq!(reader.get_ref().len(), 3);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, mutably. Reading from it directly makes the decoder skip those bytes.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut reader = textcodec::io::DecodeReader::new(&b"abc"[..], textcodec::UTF_8);
    /// let mut skipped = [0; 1];
    /// reader.get_mut().read_exact(&mut skipped)?;
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "bc");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Returns the inner reader. Bytes already read from it but not yet handed out as text are
    /// lost.
    ///
    /// ```
    /// let reader = textcodec::io::DecodeReader::new(std::io::empty(), textcodec::UTF_8);
    /// let _empty: std::io::Empty = reader.into_inner();
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> BufRead for DecodeReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            if self.core.has_output() {
                return Ok(self.core.available());
            }
            match self.core.step() {
                CoreStep::Continue => {}
                CoreStep::End => return Ok(&[]),
                CoreStep::Error(e) => return Err(e.into()),
                CoreStep::NeedInput => loop {
                    match self.inner.read(self.core.input_space()) {
                        Ok(n) => {
                            self.core.filled(n);
                            break;
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                },
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        self.core.consume(amount);
    }
}

impl<R: Read> Read for DecodeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.core.reads_directly() {
            // Bytes passed through: straight from the inner reader, no copy.
            loop {
                match self.inner.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    result => return result,
                }
            }
        }
        self.fill_buf()?;
        let n = self.core.copy_len(buf.len());
        buf[..n].copy_from_slice(&self.core.available()[..n]);
        self.core.consume(n);
        Ok(n)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            let avail = self.fill_buf()?;
            if avail.is_empty() {
                return Ok(buf.len() - start);
            }
            let n = avail.len();
            buf.extend_from_slice(avail);
            self.consume(n);
        }
    }
}

impl<R> fmt::Debug for DecodeReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeReader")
            .field("encoding", &self.core.encoding().name())
            .field("buffered", &self.core.available().len())
            .finish_non_exhaustive()
    }
}

/// Builds a [`DecodeReader`] with the options of encoding_rs_io's `DecodeReaderBytesBuilder`
/// (which ripgrep and others read files through), with their meanings, and textcodec's own:
/// the error mode, detection of the encoding, the buffer size.
///
/// Code written for encoding_rs_io keeps its calls: `DecodeReaderBytesBuilder::new()` becomes
/// `DecodeReaderBuilder::new()`, and `.encoding(..)`, `.utf8_passthru(..)`, `.bom_override(..)`,
/// `.strip_bom(..)`, `.bom_sniffing(..)` and `.build(reader)` stay (`build_with_buffer` becomes
/// `.capacity(n).build(reader)`: the reader allocates its buffers once).
///
/// What the options decide, from the first three bytes of the stream (read before the first
/// read returns, and never read twice):
///
/// | | no BOM | a UTF-16LE or UTF-16BE BOM | a UTF-8 BOM |
/// |---|---|---|---|
/// | no encoding (the default) | bytes passed through | decoded as the BOM says, BOM removed | decoded as UTF-8, BOM removed; passed through with `utf8_passthru` |
/// | `encoding(Some(e))` | decoded as `e` | decoded as `e` (the BOM is text unless it is `e`'s own, which is removed) | the same |
/// | `encoding(Some(e))` and `bom_override` | decoded as `e` | decoded as the BOM says, BOM removed | decoded as UTF-8, BOM removed; with `utf8_passthru`, decoded as `e` (as encoding_rs_io does) |
///
/// - "Passed through": the bytes are handed out as they are, taken to be UTF-8 and not checked
///   (invalid bytes stay, U+FFFD replaces nothing); [`Read::read`] then reads the inner reader
///   straight into the caller's buffer. This is encoding_rs_io's behaviour for text without a
///   BOM when no encoding is given: most files are UTF-8, and a search tool handles invalid
///   bytes itself. [`read_str`](DecodeReader::read_str) and
///   [`fill_str`](DecodeReader::fill_str) still hand out whole characters, and return an
///   [`InvalidData`](io::ErrorKind::InvalidData) error where the bytes are not UTF-8.
/// - `bom_sniffing(false)`: no BOM chooses anything (with no encoding, everything is passed
///   through).
/// - `strip_bom(true)`: a BOM (UTF-8, UTF-16LE or UTF-16BE) at the start is removed before
///   anything else, whatever the other options, passing through or not (a UTF-16LE BOM before
///   windows-1252 text is then not decoded as `ÿþ`).
/// - [`detect`](Self::detect): with no encoding given, the encoding is found as
///   [`DecodeReader::detect_with`] finds it (BOM, declaration, statistical guess) instead of
///   passing the bytes through; with `utf8_passthru`, text found to be UTF-8 is passed through.
/// - [`error_mode`](Self::error_mode) (textcodec's): malformed input becomes U+FFFD
///   (encoding_rs_io's only behaviour) or, in fatal mode, an error, as [`DecodeReader`] says.
///
/// ```
/// use std::io::Read;
/// use textcodec::io::DecodeReaderBuilder;
///
/// // ripgrep's set-up: UTF-8 (valid or not) passes through, a UTF-16 BOM is decoded, no BOM
/// // reaches the output.
/// let mut builder = DecodeReaderBuilder::new();
/// builder.encoding(None).utf8_passthru(true).strip_bom(true).bom_override(true).bom_sniffing(true);
///
/// let mut out = Vec::new();
/// builder.build(&b"\xEF\xBB\xBFfoo\xFFbar"[..]).read_to_end(&mut out)?;
/// assert_eq!(out, b"foo\xFFbar");
///
/// let mut out = Vec::new();
/// builder.build(&b"\xFF\xFEh\0i\0"[..]).read_to_end(&mut out)?;
/// assert_eq!(out, b"hi");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeReaderBuilder {
    start: Start,
    detect: Option<DetectOptions>,
    capacity: usize,
}

impl Default for DecodeReaderBuilder {
    fn default() -> Self {
        DecodeReaderBuilder {
            start: Start {
                encoding: None,
                utf8_passthru: false,
                bom_override: false,
                strip_bom: false,
                bom_sniffing: true,
                error_mode: DecoderErrorMode::Replacement,
            },
            detect: None,
            capacity: super::DEFAULT_CAPACITY,
        }
    }
}

impl DecodeReaderBuilder {
    /// encoding_rs_io's defaults: no encoding given (a BOM chooses one; text without a BOM
    /// passes through), BOM sniffing on, no pass-through of UTF-8 with a BOM, no BOM override,
    /// no BOM stripping; and malformed input replaced by U+FFFD, 8 KiB reads.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut reader = textcodec::io::DecodeReaderBuilder::new().build(&b"\xFE\xFF\0h\0i"[..]);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The encoding to decode from (`None`: none given, the default). Given one, it is used
    /// whatever BOM the text has (unless [`bom_override`](Self::bom_override)); only its own
    /// BOM is removed. encoding_rs_io's option of this name.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut builder = textcodec::io::DecodeReaderBuilder::new();
    /// builder.encoding(Some(textcodec::SHIFT_JIS));
    /// let mut text = String::new();
    /// builder.build(&b"\x82\xa0"[..]).read_to_string(&mut text)?;
    /// assert_eq!(text, "あ");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn encoding(&mut self, encoding: Option<&'static Encoding>) -> &mut Self {
        self.start.encoding = encoding;
        self
    }

    /// With no encoding given, text that starts with a UTF-8 BOM passes through unchanged (BOM
    /// included, unless [`strip_bom`](Self::strip_bom)) instead of being decoded as UTF-8,
    /// which would replace its invalid bytes. Text without a BOM passes through in any case.
    /// encoding_rs_io's option of this name (default: off).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut out = Vec::new();
    /// textcodec::io::DecodeReaderBuilder::new()
    ///     .utf8_passthru(true)
    ///     .build(&b"\xEF\xBB\xBFfoo\xFFbar"[..])
    ///     .read_to_end(&mut out)?;
    /// assert_eq!(out, b"\xEF\xBB\xBFfoo\xFFbar"); // without it: "foo\u{FFFD}bar"
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn utf8_passthru(&mut self, yes: bool) -> &mut Self {
        self.start.utf8_passthru = yes;
        self
    }

    /// With an encoding given, a BOM still chooses the encoding (and is removed): the spec's
    /// "decode", what [`DecodeReader::new`] does. encoding_rs_io's option of this name
    /// (default: off).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut text = String::new();
    /// textcodec::io::DecodeReaderBuilder::new()
    ///     .encoding(Some(textcodec::WINDOWS_1252))
    ///     .bom_override(true)
    ///     .build(&b"\xFF\xFEh\0i\0"[..])
    ///     .read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn bom_override(&mut self, yes: bool) -> &mut Self {
        self.start.bom_override = yes;
        self
    }

    /// A BOM (UTF-8, UTF-16LE or UTF-16BE) at the start of the text never reaches the output,
    /// even when the bytes pass through or an encoding other than the BOM's is given.
    /// encoding_rs_io's option of this name (default: off).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut out = Vec::new();
    /// textcodec::io::DecodeReaderBuilder::new()
    ///     .utf8_passthru(true)
    ///     .strip_bom(true)
    ///     .build(&b"\xEF\xBB\xBFfoo\xFFbar"[..])
    ///     .read_to_end(&mut out)?;
    /// assert_eq!(out, b"foo\xFFbar");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn strip_bom(&mut self, yes: bool) -> &mut Self {
        self.start.strip_bom = yes;
        self
    }

    /// Whether a BOM may choose the encoding (default: on). Off, a BOM chooses nothing: with no
    /// encoding given, all bytes pass through (BOM included, unless
    /// [`strip_bom`](Self::strip_bom)). encoding_rs_io's option of this name.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut out = Vec::new();
    /// textcodec::io::DecodeReaderBuilder::new()
    ///     .bom_sniffing(false)
    ///     .build(&b"\xFF\xFEa\0"[..])
    ///     .read_to_end(&mut out)?;
    /// assert_eq!(out, b"\xFF\xFEa\0");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn bom_sniffing(&mut self, yes: bool) -> &mut Self {
        self.start.bom_sniffing = yes;
        self
    }

    /// What malformed input does when decoding (passing through never changes a byte):
    /// [`DecoderErrorMode::Replacement`] (the default, and encoding_rs_io's only behaviour)
    /// writes U+FFFD; [`DecoderErrorMode::Fatal`] makes it an error, as [`DecodeReader`] says.
    ///
    /// ```
    /// use std::io::Read;
    /// use textcodec::DecoderErrorMode;
    /// let mut reader = textcodec::io::DecodeReaderBuilder::new()
    ///     .encoding(Some(textcodec::UTF_8))
    ///     .error_mode(DecoderErrorMode::Fatal)
    ///     .build(&b"ok \xFF"[..]);
    /// let mut text = String::new();
    /// let error = reader.read_to_string(&mut text).unwrap_err();
    /// assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
    /// ```
    pub fn error_mode(&mut self, mode: DecoderErrorMode) -> &mut Self {
        self.start.error_mode = mode;
        self
    }

    /// With no encoding given, find the encoding as [`DecodeReader::detect_with`] does (BOM,
    /// then a declaration, then the statistical guess), instead of passing the bytes through;
    /// with [`utf8_passthru`](Self::utf8_passthru), text found to be UTF-8 passes through.
    /// [`DecodeReader::sniffed`] then says how it was found.
    ///
    /// ```
    /// use std::io::Read;
    /// use textcodec::io::{DecodeReaderBuilder, DetectOptions};
    /// let mut reader = DecodeReaderBuilder::new()
    ///     .detect(DetectOptions::new())
    ///     .build(&b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xca\xe0\xea \xe4\xe5\xeb\xe0?"[..]);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!((text.as_str(), reader.encoding()), ("Привет, мир! Как дела?", textcodec::WINDOWS_1251));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn detect(&mut self, options: DetectOptions) -> &mut Self {
        self.detect = Some(options);
        self
    }

    /// The size of the reads from the inner reader (default 8 KiB; at least 32), as
    /// [`DecodeReader::with_capacity`] says. It stands for encoding_rs_io's
    /// `build_with_buffer`: the reader allocates its buffers once, when it is built.
    ///
    /// ```
    /// let reader = textcodec::io::DecodeReaderBuilder::new().capacity(64 * 1024).build(std::io::empty());
    /// # let _ = reader;
    /// ```
    pub fn capacity(&mut self, bytes: usize) -> &mut Self {
        self.capacity = bytes;
        self
    }

    /// A reader of `reader` with these options. Nothing is read until the first read.
    ///
    /// ```
    /// use std::io::Read;
    /// let builder = textcodec::io::DecodeReaderBuilder::new();
    /// let mut text = String::new();
    /// for file in [&b"\xFF\xFEh\0i\0"[..], b" there"] {
    ///     builder.build(file).read_to_string(&mut text)?;
    /// }
    /// assert_eq!(text, "hi there");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn build<R: Read>(&self, reader: R) -> DecodeReader<R> {
        DecodeReader {
            inner: reader,
            core: DecodeCore::starting(self.start, self.detect.as_ref(), self.capacity),
        }
    }

    /// encoding_rs_io's `build_with_buffer`, so that code calling it compiles unchanged: a
    /// reader of `reader` whose reads from it are `buffer`'s length (as
    /// [`capacity`](Self::capacity) sets them), or an error if `buffer` is shorter than 4
    /// bytes, as encoding_rs_io refuses it. textcodec's reader allocates its own buffers once,
    /// when it is built; `buffer` gives their size and is not otherwise used.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut scratch = vec![0u8; 16 * 1024];
    /// let mut reader = textcodec::io::DecodeReaderBuilder::new()
    ///     .build_with_buffer(&b"\xFF\xFEh\0i\0"[..], &mut scratch)?;
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// assert!(textcodec::io::DecodeReaderBuilder::new().build_with_buffer(&b""[..], [0u8; 3]).is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn build_with_buffer<R: Read, B: AsMut<[u8]>>(
        &self,
        reader: R,
        mut buffer: B,
    ) -> io::Result<DecodeReader<R>> {
        let len = buffer.as_mut().len();
        if len < 4 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                std::format!(
                    "DecodeReaderBuilder: a buffer of {len} bytes is too small (4 at least)"
                ),
            ));
        }
        Ok(DecodeReader {
            inner: reader,
            core: DecodeCore::starting(self.start, self.detect.as_ref(), len),
        })
    }
}

/// encoding_rs_io's name of [`DecodeReaderBuilder`], so that code written for encoding_rs_io
/// compiles with `encoding_rs_io` replaced by `textcodec::io`.
///
/// ```
/// use std::io::Read;
/// use textcodec::io::DecodeReaderBytesBuilder;
/// let mut text = String::new();
/// DecodeReaderBytesBuilder::new().build(&b"\xFE\xFF\0h\0i"[..]).read_to_string(&mut text)?;
/// assert_eq!(text, "hi");
/// # Ok::<(), std::io::Error>(())
/// ```
pub type DecodeReaderBytesBuilder = DecodeReaderBuilder;
