//! The streaming pipeline: read a chunk, decode it, encode it, write it, through buffers
//! that are allocated once (grown only if a worst-case length function asks for more) and
//! reused for every chunk and every input:
//!
//! - UTF-8 output: `decode_to_utf8`, written as it is;
//! - UTF-16 output: `decode_to_utf16`, written as UTF-16LE/BE bytes;
//! - other outputs: `decode_to_utf16` -> `encode_from_utf16` (ISO-2022-JP:
//!   `decode_to_utf8` -> `encode_from_utf8`), see [`run`].
//!
//! The pipeline is written once, generic over the decoded text's code unit ([`Unit`]: UTF-8
//! bytes or UTF-16 units) and the encoder's input ([`EncodeText`]: `str` or `[u16]`).
//!
//! The decoder always runs in fatal mode: after each malformed sequence we write U+FFFD
//! ourselves and resume, which by the library's contract gives exactly the output of
//! replacement mode, plus exact error counts and offsets.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use textcodec::{
    BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, Encoder, EncoderErrorMode,
    Encoding, Status,
};

use crate::progress::Progress;
use crate::sink::{io_msg, Sink};
use crate::Failure;

/// Bytes read from an input at a time.
pub const CHUNK: usize = 64 * 1024;
/// Buffers never grow beyond this; past it the pipeline relies on `OutputFull`.
const MAX_BUF: usize = 16 * 1024 * 1024;
/// Bytes of input history kept across chunks to show a malformed sequence.
const HISTORY: usize = 8;

/// What the output is.
#[derive(Clone, Copy)]
pub enum Target {
    /// UTF-8: the decoder's output is written as it is.
    Utf8,
    /// UTF-16, written from `decode_to_utf16` output (the spec has no UTF-16 encoder).
    Utf16 { big_endian: bool },
    /// Any other output encoding, through the library's encoder.
    Encoder(&'static Encoding),
}

pub struct Plan {
    pub from: &'static Encoding,
    /// `-f auto`: each input's encoding is detected from its start (detect.rs) instead.
    pub auto: bool,
    pub target: Target,
    pub bom: BomHandling,
    pub fail_on_invalid: bool,
    pub unmappable: EncoderErrorMode,
    pub add_bom: bool,
    pub quiet: bool,
    /// A progress bar may be shown (standard error is a terminal that the output does not
    /// share, and not `--quiet`).
    pub progress: bool,
}

pub enum Input {
    Stdin,
    File { path: PathBuf, file: File },
}

impl Input {
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "standard input".to_string(),
            Input::File { path, .. } => path.display().to_string(),
        }
    }
}

/// Converts `inputs` in turn into `sink`, each as its own stream.
pub fn run(plan: &Plan, inputs: Vec<Input>, sink: Sink, total: Option<u64>) -> Result<(), Failure> {
    // Encoders are fed UTF-16 (decode_to_utf16 -> encode_from_utf16) except for ISO-2022-JP:
    // measured faster (up to 2x) for every other encoder, as it saves the `str::from_utf8`
    // pass that `encode_from_utf8` needs on the decoded UTF-8.
    let pivot16 = match plan.target {
        Target::Utf16 { .. } => true,
        Target::Encoder(enc) => enc != textcodec::ISO_2022_JP,
        Target::Utf8 => false,
    };
    if pivot16 {
        Converter::<u16>::new(plan, sink, total).run(inputs)
    } else {
        Converter::<u8>::new(plan, sink, total).run(inputs)
    }
}

/// The decoded text between decoder and encoder (or output): UTF-8 bytes (`u8`) or UTF-16
/// code units (`u16`). One pipeline, monomorphised for each.
trait Unit: Copy + Default + 'static {
    /// U+FFFD in this form.
    const REPLACEMENT: &'static [Self];
    /// Room kept beyond the decoder's worst case.
    const SLACK: usize;
    fn max_decoded(decoder: &Decoder, n: usize) -> Option<usize>;
    /// The encoder's worst case for `n` units of this text.
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize>;
    fn decode(
        decoder: &mut Decoder,
        src: &[u8],
        dst: &mut [Self],
        last: bool,
    ) -> Result<textcodec::Progress, DecodeError>;
    /// Writes `text` to the output without an encoder (UTF-8 as it is, UTF-16 as bytes).
    fn write_plain(
        text: &[Self],
        target: Target,
        out: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure>;
    /// Encodes `text` (whole characters) with the stream's encoder and writes it.
    fn encode(
        text: &[Self],
        st: &mut Stream,
        enc: &'static Encoding,
        last: bool,
        out: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure>;
}

impl Unit for u8 {
    const REPLACEMENT: &'static [u8] = "\u{FFFD}".as_bytes();
    const SLACK: usize = 4;
    fn max_decoded(decoder: &Decoder, n: usize) -> Option<usize> {
        decoder.max_utf8_buffer_length(n)
    }
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize> {
        encoder.max_buffer_length_from_utf8(n)
    }
    fn decode(
        decoder: &mut Decoder,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<textcodec::Progress, DecodeError> {
        decoder.decode_to_utf8(src, dst, last)
    }
    fn write_plain(
        text: &[u8],
        _: Target,
        _: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure> {
        sink.write_all(text)
    }
    fn encode(
        text: &[u8],
        st: &mut Stream,
        enc: &'static Encoding,
        last: bool,
        out: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure> {
        // The decoder's output never ends inside a character (a library guarantee).
        let text = std::str::from_utf8(text).expect("decoder output is whole UTF-8");
        encode_text(text, st, enc, last, out, sink)
    }
}

impl Unit for u16 {
    const REPLACEMENT: &'static [u16] = &[0xFFFD];
    const SLACK: usize = 2;
    fn max_decoded(decoder: &Decoder, n: usize) -> Option<usize> {
        decoder.max_utf16_buffer_length(n)
    }
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize> {
        encoder.max_buffer_length_from_utf16(n)
    }
    fn decode(
        decoder: &mut Decoder,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> Result<textcodec::Progress, DecodeError> {
        decoder.decode_to_utf16(src, dst, last)
    }
    fn write_plain(
        units: &[u16],
        target: Target,
        out: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure> {
        let Target::Utf16 { big_endian } = target else {
            unreachable!("UTF-8 output does not pivot through UTF-16")
        };
        if out.len() < 2 * units.len() {
            out.resize(2 * units.len(), 0);
        }
        let bytes = &mut out[..2 * units.len()];
        if big_endian {
            for (d, u) in bytes.chunks_exact_mut(2).zip(units) {
                d.copy_from_slice(&u.to_be_bytes());
            }
        } else {
            for (d, u) in bytes.chunks_exact_mut(2).zip(units) {
                d.copy_from_slice(&u.to_le_bytes());
            }
        }
        sink.write_all(bytes)
    }
    fn encode(
        text: &[u16],
        st: &mut Stream,
        enc: &'static Encoding,
        last: bool,
        out: &mut Vec<u8>,
        sink: &mut Sink,
    ) -> Result<(), Failure> {
        encode_text(text, st, enc, last, out, sink)
    }
}

struct Converter<'p, U: Unit> {
    plan: &'p Plan,
    /// Decoded text not yet encoded or written; `text[..text_len]` is always whole
    /// characters.
    text: Vec<U>,
    text_len: usize,
    /// Encoded bytes (and UTF-16 output as bytes).
    out: Vec<u8>,
    sink: Sink,
    progress: Progress,
}

/// The state of one input stream.
struct Stream<'n> {
    name: &'n str,
    decoder: Decoder,
    encoder: Option<Encoder>,
    /// Input bytes consumed by the decoder so far (absolute offset, BOM included).
    consumed: u64,
    /// The last bytes of the input before the current chunk.
    history: [u8; HISTORY],
    history_len: usize,
    errors: u64,
    /// Offset of the first malformed sequence, and the encoding in use then (the decoder
    /// forgets a sniffed BOM once its stream has ended).
    first_error: Option<(u64, &'static Encoding)>,
    pos: TextPos,
}

/// Line and column (from 1, columns in characters) of the next character to encode.
struct TextPos {
    track: bool,
    line: u64,
    col: u64,
}

impl TextPos {
    /// Moves past `text`, given as its code units (bytes or UTF-16 units): `newline` is a
    /// line feed, `starts_char` whether a unit begins a character.
    fn advance<T: Copy + PartialEq>(
        &mut self,
        text: &[T],
        newline: T,
        starts_char: impl Fn(T) -> bool,
    ) {
        if !self.track {
            return;
        }
        let chars = |units: &[T]| units.iter().filter(|&&u| starts_char(u)).count() as u64;
        match text.iter().rposition(|&u| u == newline) {
            Some(i) => {
                self.line += text.iter().filter(|&&u| u == newline).count() as u64;
                self.col = 1 + chars(&text[i + 1..]);
            }
            None => self.col += chars(text),
        }
    }
}

impl<'p, U: Unit> Converter<'p, U> {
    fn new(plan: &'p Plan, sink: Sink, total: Option<u64>) -> Self {
        // Size the buffers once from the worst-case length functions of a fresh decoder
        // and encoder; they grow (rarely, e.g. when a BOM switches the decoder to UTF-16)
        // only if those functions ask for more.
        let probe = plan.from.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: plan.bom,
        });
        let n = worst(U::max_decoded(&probe, CHUNK), U::SLACK);
        let out = match plan.target {
            Target::Utf8 => Vec::new(),
            Target::Utf16 { .. } => vec![0u8; 2 * n],
            Target::Encoder(enc) => {
                let encoder = enc.new_encoder(plan.unmappable);
                vec![0u8; worst(U::max_encoded(&encoder, n), 16)]
            }
        };
        Converter {
            plan,
            text: vec![U::default(); n],
            text_len: 0,
            out,
            sink,
            progress: Progress::new(plan.progress, total),
        }
    }

    fn run(mut self, inputs: Vec<Input>) -> Result<(), Failure> {
        if self.plan.add_bom {
            let bom: &[u8] = match self.plan.target {
                Target::Utf16 { big_endian: false } => &[0xFF, 0xFE],
                Target::Utf16 { big_endian: true } => &[0xFE, 0xFF],
                _ => &[0xEF, 0xBB, 0xBF],
            };
            self.sink.write_all(bom)?;
        }
        let mut input_buf = vec![0u8; CHUNK];
        for input in inputs {
            let name = input.name();
            match input {
                Input::Stdin => {
                    let stdin = io::stdin();
                    let mut lock = stdin.lock();
                    self.run_input(&name, &mut lock, &mut input_buf)?;
                }
                Input::File { mut file, .. } => self.run_input(&name, &mut file, &mut input_buf)?,
            }
        }
        self.progress.finish();
        self.sink.finish()
    }

    fn run_input(
        &mut self,
        name: &str,
        reader: &mut dyn Read,
        buf: &mut [u8],
    ) -> Result<(), Failure> {
        let plan = self.plan;
        let encoder = match plan.target {
            Target::Encoder(enc) => Some(enc.new_encoder(plan.unmappable)),
            _ => None,
        };
        // `-f auto`: the first MiB decides the encoding; it is then decoded like any chunk.
        let (from, head) = if plan.auto {
            let head = crate::detect::read_head(reader, name)?;
            let found = crate::detect::detect(&head, None, true);
            if !plan.quiet {
                let msg = format!("{name}: {}", found.describe());
                self.progress.suspend(|| crate::print_stderr(&msg));
            }
            (found.encoding, head)
        } else {
            (plan.from, Vec::new())
        };
        let mut st = Stream {
            name,
            decoder: from.new_decoder(DecoderOptions {
                error_mode: DecoderErrorMode::Fatal,
                bom: plan.bom,
            }),
            encoder,
            consumed: 0,
            history: [0; HISTORY],
            history_len: 0,
            errors: 0,
            first_error: None,
            pos: TextPos {
                track: matches!(plan.target, Target::Encoder(_))
                    && plan.unmappable == EncoderErrorMode::Fatal,
                line: 1,
                col: 1,
            },
        };
        if !head.is_empty() {
            self.decode_chunk(&mut st, &head, false)?;
            st.remember(&head);
            self.progress.inc(head.len());
        }
        loop {
            let n = loop {
                match reader.read(buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        return Err(Failure::Usage(format!(
                            "cannot read '{name}': {}",
                            io_msg(&e)
                        )))
                    }
                }
            };
            let last = n == 0;
            let src = &buf[..n];
            self.decode_chunk(&mut st, src, last)?;
            st.remember(src);
            self.progress.inc(n);
            if last {
                break;
            }
        }
        if let (Some((first, enc)), false) = (st.first_error, plan.quiet) {
            let n = st.errors;
            let what = if n == 1 { "sequence" } else { "sequences" };
            let enc = enc.name();
            self.progress.suspend(|| {
                crate::print_stderr(&format!(
                    "warning: {name}: {n} malformed {enc} {what} replaced with U+FFFD, \
                     the first at byte offset {first}"
                ))
            });
        }
        Ok(())
    }

    fn decode_chunk(&mut self, st: &mut Stream, src: &[u8], last: bool) -> Result<(), Failure> {
        let mut pos = 0;
        loop {
            let rest = &src[pos..];
            let need = worst(U::max_decoded(&st.decoder, rest.len()), U::SLACK);
            if self.text.len() - self.text_len < need {
                self.flush(st, false)?;
                if self.text.len() < need {
                    self.text.resize(need, U::default());
                }
            }
            match U::decode(&mut st.decoder, rest, &mut self.text[self.text_len..], last) {
                Ok(p) => {
                    self.text_len += p.written;
                    pos += p.read;
                    st.consumed += p.read as u64;
                    if p.status == Status::InputEmpty {
                        break;
                    }
                    self.flush(st, false)?;
                }
                Err(e) => {
                    self.text_len += e.written;
                    pos += e.read;
                    st.consumed += e.read as u64;
                    if let Err(failure) = st.malformed(&src[..pos], self.plan.fail_on_invalid) {
                        // Write what came before the malformed sequence, then stop.
                        let _ = self.flush(st, false);
                        return Err(failure);
                    }
                    let r = U::REPLACEMENT;
                    if self.text.len() - self.text_len < r.len() {
                        self.flush(st, false)?;
                    }
                    self.text[self.text_len..self.text_len + r.len()].copy_from_slice(r);
                    self.text_len += r.len();
                }
            }
        }
        self.flush(st, last)
    }

    /// Encodes (or writes) the decoded text; with `last`, also ends the encoder's stream.
    fn flush(&mut self, st: &mut Stream, last: bool) -> Result<(), Failure> {
        let text = &self.text[..self.text_len];
        self.text_len = 0;
        match self.plan.target {
            Target::Encoder(enc) => {
                if text.is_empty() && !last {
                    return Ok(());
                }
                U::encode(text, st, enc, last, &mut self.out, &mut self.sink)
            }
            target => U::write_plain(text, target, &mut self.out, &mut self.sink),
        }
    }
}

/// Text an encoder takes: `str` (UTF-8) or `[u16]` (UTF-16).
trait EncodeText {
    /// Length in code units.
    fn units(&self) -> usize;
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize>;
    fn encode(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> Result<textcodec::Progress, textcodec::EncodeError>;
    fn tail(&self, from: usize) -> &Self;
    /// Moves `pos` past the first `len` units.
    fn advance(&self, len: usize, pos: &mut TextPos);
    /// The length of the first `read` units without their last character, and that
    /// character (none if it cannot be read back).
    fn last_char(&self, read: usize) -> (usize, Option<char>);
}

impl EncodeText for str {
    fn units(&self) -> usize {
        self.len()
    }
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize> {
        encoder.max_buffer_length_from_utf8(n)
    }
    fn encode(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> Result<textcodec::Progress, textcodec::EncodeError> {
        encoder.encode_from_utf8(self, dst, last)
    }
    fn tail(&self, from: usize) -> &str {
        &self[from..]
    }
    fn advance(&self, len: usize, pos: &mut TextPos) {
        pos.advance(&self.as_bytes()[..len], b'\n', |b| b & 0xC0 != 0x80);
    }
    fn last_char(&self, read: usize) -> (usize, Option<char>) {
        match self[..read].chars().next_back() {
            Some(c) => (read - c.len_utf8(), Some(c)),
            None => (read, None),
        }
    }
}

impl EncodeText for [u16] {
    fn units(&self) -> usize {
        self.len()
    }
    fn max_encoded(encoder: &Encoder, n: usize) -> Option<usize> {
        encoder.max_buffer_length_from_utf16(n)
    }
    fn encode(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> Result<textcodec::Progress, textcodec::EncodeError> {
        encoder.encode_from_utf16(self, dst, last)
    }
    fn tail(&self, from: usize) -> &[u16] {
        &self[from..]
    }
    fn advance(&self, len: usize, pos: &mut TextPos) {
        pos.advance(&self[..len], 0x0A, |u| !(0xDC00..0xE000).contains(&u));
    }
    fn last_char(&self, read: usize) -> (usize, Option<char>) {
        match char::decode_utf16(self[..read].iter().copied()).last() {
            Some(Ok(c)) => (read - c.len_utf16(), Some(c)),
            _ => (read, None),
        }
    }
}

/// Encodes `text` with the stream's encoder into `out`, writing it to `sink` as the buffer
/// fills; with `last`, also ends the encoder's stream.
fn encode_text<T: EncodeText + ?Sized>(
    mut text: &T,
    st: &mut Stream,
    enc: &'static Encoding,
    last: bool,
    out: &mut Vec<u8>,
    sink: &mut Sink,
) -> Result<(), Failure> {
    let encoder = st
        .encoder
        .as_mut()
        .expect("an encoder for an encoded output");
    let mut out_len = 0;
    loop {
        let need = worst(T::max_encoded(encoder, text.units()), 16);
        if out.len() - out_len < need {
            sink.write_all(&out[..out_len])?;
            out_len = 0;
            if out.len() < need {
                out.resize(need, 0);
            }
        }
        match text.encode(encoder, &mut out[out_len..], last) {
            Ok(p) => {
                out_len += p.written;
                text.advance(p.read, &mut st.pos);
                text = text.tail(p.read);
                if p.status == Status::InputEmpty {
                    break;
                }
                sink.write_all(&out[..out_len])?;
                out_len = 0;
            }
            Err(e) => {
                out_len += e.written;
                sink.write_all(&out[..out_len])?;
                // The character as it is in the text (ISO-2022-JP reports U+000E, U+000F
                // and U+001B as U+FFFD).
                let (before, c) = text.last_char(e.read);
                text.advance(before, &mut st.pos);
                return Err(unmappable_error(
                    st.name,
                    &st.pos,
                    c.unwrap_or(e.unmappable),
                    enc,
                ));
            }
        }
    }
    sink.write_all(&out[..out_len])
}

fn unmappable_error(name: &str, pos: &TextPos, c: char, enc: &Encoding) -> Failure {
    let hint = if c == '\u{FFFD}' {
        " (malformed input was replaced by U+FFFD; see --invalid)".to_string()
    } else {
        format!("; --unmappable html would write &#{};", c as u32)
    };
    Failure::Data(format!(
        "{name}: line {}, column {}: {} cannot be encoded in {}{hint}",
        pos.line,
        pos.col,
        describe_char(c),
        enc.name(),
    ))
}

/// `U+00E9 'é'`; control characters are shown escaped.
pub fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("U+{:04X} '{}'", c as u32, c.escape_default())
    } else {
        format!("U+{:04X} '{c}'", c as u32)
    }
}

impl Stream<'_> {
    /// Keeps the last bytes of the input for showing malformed sequences.
    fn remember(&mut self, src: &[u8]) {
        if src.len() >= HISTORY {
            self.history.copy_from_slice(&src[src.len() - HISTORY..]);
            self.history_len = HISTORY;
        } else {
            let keep = (HISTORY - src.len()).min(self.history_len);
            let mut h = [0u8; HISTORY];
            h[..keep].copy_from_slice(&self.history[self.history_len - keep..self.history_len]);
            h[keep..keep + src.len()].copy_from_slice(src);
            self.history = h;
            self.history_len = keep + src.len();
        }
    }

    /// A malformed sequence ended at `self.consumed`; `seen` is the current chunk up to
    /// there.
    fn malformed(&mut self, seen: &[u8], fail: bool) -> Result<(), Failure> {
        self.errors += 1;
        if self.errors > 1 && !fail {
            return Ok(());
        }
        let mut window = Vec::with_capacity(HISTORY);
        let from_seen = seen.len().min(HISTORY);
        let from_history = (HISTORY - from_seen).min(self.history_len);
        window.extend_from_slice(&self.history[self.history_len - from_history..self.history_len]);
        window.extend_from_slice(&seen[seen.len() - from_seen..]);
        let encoding = self.decoder.encoding();
        let len = malformed_len(encoding, &window, self.consumed) as u64;
        let start = self.consumed - len;
        if fail {
            let hex: Vec<String> = window[window.len() - len as usize..]
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect();
            let bytes = if hex.is_empty() {
                String::new()
            } else {
                format!(": {}", hex.join(" "))
            };
            return Err(Failure::Data(format!(
                "{}: malformed {} at byte offset {start}{bytes}",
                self.name,
                encoding.name()
            )));
        }
        self.first_error = Some((start, encoding));
        Ok(())
    }
}

/// How many of the bytes before `end` (the last of `window`) form the malformed sequence
/// the decoder just reported: the longest suffix (of at most 4 bytes) that a fresh decoder
/// reads, at the end of the input, as exactly one malformed sequence and nothing else, and
/// none of whose proper prefixes decodes cleanly (which would make it a unit of its own,
/// such as an ISO-2022-JP escape sequence). The decoder's state before the sequence is not
/// known here, so this is a best effort for stateful cases.
fn malformed_len(encoding: &'static Encoding, window: &[u8], end: u64) -> usize {
    let utf16 = encoding == textcodec::UTF_16LE || encoding == textcodec::UTF_16BE;
    let probe = |bytes: &[u8]| {
        let mut decoder = encoding.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Keep,
        });
        let mut dst = [0u8; 64];
        decoder.decode_to_utf8(bytes, &mut dst, true)
    };
    for len in (1..=window.len().min(4)).rev() {
        if utf16 && !(end - len as u64).is_multiple_of(2) {
            continue;
        }
        let candidate = &window[window.len() - len..];
        let whole = matches!(probe(candidate), Err(e) if e.read == len && e.written == 0);
        if whole && (1..len).all(|k| probe(&candidate[..k]).is_err()) {
            return len;
        }
    }
    // ISO-2022-JP: an escape sequence right after another one is an error.
    if encoding == textcodec::ISO_2022_JP {
        if let [.., 0x1B, 0x28, 0x42 | 0x4A | 0x49] | [.., 0x1B, 0x24, 0x40 | 0x42] = window {
            return 3;
        }
    }
    window.len().min(1)
}

/// A worst-case length plus `slack`, capped at [`MAX_BUF`].
fn worst(n: Option<usize>, slack: usize) -> usize {
    n.map_or(MAX_BUF, |n| n.saturating_add(slack).min(MAX_BUF))
        .max(slack)
}
