//! The streaming pipeline: read a chunk, decode it, encode it, write it, through buffers
//! that are allocated once (grown only if a worst-case length function asks for more) and
//! reused for every chunk and every input:
//!
//! - UTF-8 output: `decode_to_utf8`, written as it is;
//! - UTF-16 output: `decode_to_utf16`, written as UTF-16LE/BE bytes;
//! - other outputs: `decode_to_utf16` -> `encode_from_utf16` (ISO-2022-JP:
//!   `decode_to_utf8` -> `encode_from_utf8`), see [`Converter::new`].
//!
//! The decoder always runs in fatal mode: after each malformed sequence we write U+FFFD
//! ourselves and resume, which by the library's contract gives exactly the output of
//! replacement mode, plus exact error counts and offsets.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use textcodec::{
    BomHandling, Decoder, DecoderErrorMode, DecoderOptions, Encoder, EncoderErrorMode, Encoding,
    Status,
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
const REPLACEMENT_UTF8: &[u8] = "\u{FFFD}".as_bytes();

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
    let mut conv = Converter::new(plan, sink, total);
    if plan.add_bom {
        let bom: &[u8] = match plan.target {
            Target::Utf16 { big_endian: false } => &[0xFF, 0xFE],
            Target::Utf16 { big_endian: true } => &[0xFE, 0xFF],
            _ => &[0xEF, 0xBB, 0xBF],
        };
        conv.sink.write_all(bom)?;
    }
    let mut input_buf = vec![0u8; CHUNK];
    for input in inputs {
        let name = input.name();
        match input {
            Input::Stdin => {
                let stdin = io::stdin();
                let mut lock = stdin.lock();
                conv.run_input(&name, &mut lock, &mut input_buf)?;
            }
            Input::File { mut file, .. } => conv.run_input(&name, &mut file, &mut input_buf)?,
        }
    }
    conv.progress.finish();
    conv.sink.finish()
}

struct Converter<'p> {
    plan: &'p Plan,
    /// Decoded UTF-8 not yet encoded/written; `text[..text_len]` is always whole characters.
    text: Vec<u8>,
    text_len: usize,
    /// Decoded UTF-16 not yet written or encoded (UTF-16 output, and most encoders).
    text16: Vec<u16>,
    text16_len: usize,
    /// Encoded bytes.
    out: Vec<u8>,
    sink: Sink,
    progress: Progress,
    /// Decode to UTF-16 (for UTF-16 output, and for encoders: see [`Converter::new`]).
    pivot16: bool,
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
    fn advance(&mut self, s: &str) {
        if !self.track {
            return;
        }
        let b = s.as_bytes();
        match b.iter().rposition(|&c| c == b'\n') {
            Some(i) => {
                self.line += b.iter().filter(|&&c| c == b'\n').count() as u64;
                self.col = 1 + s[i + 1..].chars().count() as u64;
            }
            None => self.col += s.chars().count() as u64,
        }
    }

    fn advance16(&mut self, s: &[u16]) {
        if !self.track {
            return;
        }
        let chars = |units: &[u16]| {
            units
                .iter()
                .filter(|&&u| !(0xDC00..0xE000).contains(&u))
                .count() as u64
        };
        match s.iter().rposition(|&u| u == 0x0A) {
            Some(i) => {
                self.line += s.iter().filter(|&&u| u == 0x0A).count() as u64;
                self.col = 1 + chars(&s[i + 1..]);
            }
            None => self.col += chars(s),
        }
    }
}

impl<'p> Converter<'p> {
    fn new(plan: &'p Plan, sink: Sink, total: Option<u64>) -> Self {
        // Size the buffers once from the worst-case length functions of a fresh decoder
        // and encoder; they grow (rarely, e.g. when a BOM switches the decoder to UTF-16)
        // only if those functions ask for more.
        let probe = plan.from.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: plan.bom,
        });
        let (mut text, mut text16, mut out) = (Vec::new(), Vec::new(), Vec::new());
        // Encoders are fed UTF-16 (decode_to_utf16 -> encode_from_utf16) except for
        // ISO-2022-JP: measured faster (up to 2x) for every other encoder, as it saves the
        // `str::from_utf8` pass that `encode_from_utf8` needs on the decoded UTF-8.
        let pivot16 = match plan.target {
            Target::Utf16 { .. } => true,
            Target::Encoder(enc) => enc != textcodec::ISO_2022_JP,
            Target::Utf8 => false,
        };
        match plan.target {
            Target::Utf16 { .. } => {
                let n = worst(probe.max_utf16_buffer_length(CHUNK), 2);
                text16 = vec![0u16; n];
                out = vec![0u8; 2 * n];
            }
            Target::Utf8 => text = vec![0u8; worst(probe.max_utf8_buffer_length(CHUNK), 4)],
            Target::Encoder(enc) if pivot16 => {
                let n = worst(probe.max_utf16_buffer_length(CHUNK), 2);
                text16 = vec![0u16; n];
                let encoder = enc.new_encoder(plan.unmappable);
                out = vec![0u8; worst(encoder.max_buffer_length_from_utf16(n), 16)];
            }
            Target::Encoder(enc) => {
                let n = worst(probe.max_utf8_buffer_length(CHUNK), 4);
                text = vec![0u8; n];
                let encoder = enc.new_encoder(plan.unmappable);
                out = vec![0u8; worst(encoder.max_buffer_length_from_utf8(n), 16)];
            }
        }
        Converter {
            plan,
            text,
            text_len: 0,
            text16,
            text16_len: 0,
            out,
            sink,
            progress: Progress::new(plan.progress, total),
            pivot16,
        }
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
        let mut st = Stream {
            name,
            decoder: plan.from.new_decoder(DecoderOptions {
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
            if self.pivot16 {
                self.decode_chunk16(&mut st, src, last)?;
            } else {
                self.decode_chunk8(&mut st, src, last)?;
            }
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

    fn decode_chunk8(&mut self, st: &mut Stream, src: &[u8], last: bool) -> Result<(), Failure> {
        let mut pos = 0;
        loop {
            let rest = &src[pos..];
            let need = worst(st.decoder.max_utf8_buffer_length(rest.len()), 4);
            if self.text.len() - self.text_len < need {
                self.flush_text(st, false)?;
                if self.text.len() < need {
                    self.text.resize(need, 0);
                }
            }
            match st
                .decoder
                .decode_to_utf8(rest, &mut self.text[self.text_len..], last)
            {
                Ok(p) => {
                    self.text_len += p.written;
                    pos += p.read;
                    st.consumed += p.read as u64;
                    if p.status == Status::InputEmpty {
                        break;
                    }
                    self.flush_text(st, false)?;
                }
                Err(e) => {
                    self.text_len += e.written;
                    pos += e.read;
                    st.consumed += e.read as u64;
                    if let Err(failure) = st.malformed(&src[..pos], self.plan.fail_on_invalid) {
                        // Write what came before the malformed sequence, then stop.
                        let _ = self.flush_text(st, false);
                        return Err(failure);
                    }
                    if self.text.len() - self.text_len < REPLACEMENT_UTF8.len() {
                        self.flush_text(st, false)?;
                    }
                    self.text[self.text_len..self.text_len + REPLACEMENT_UTF8.len()]
                        .copy_from_slice(REPLACEMENT_UTF8);
                    self.text_len += REPLACEMENT_UTF8.len();
                }
            }
        }
        self.flush_text(st, last)
    }

    /// Encodes and writes the decoded text; with `last`, also ends the encoder's stream.
    fn flush_text(&mut self, st: &mut Stream, last: bool) -> Result<(), Failure> {
        let text = &self.text[..self.text_len];
        self.text_len = 0;
        match (&mut st.encoder, self.plan.target) {
            (Some(encoder), Target::Encoder(enc)) => {
                if text.is_empty() && !last {
                    return Ok(());
                }
                // The decoder's output never ends inside a character (a library guarantee).
                let s = std::str::from_utf8(text).expect("decoder output is whole UTF-8");
                encode_str(
                    encoder,
                    enc,
                    s,
                    last,
                    &mut self.out,
                    &mut self.sink,
                    st.name,
                    &mut st.pos,
                )
            }
            _ => self.sink.write_all(text),
        }
    }

    fn decode_chunk16(&mut self, st: &mut Stream, src: &[u8], last: bool) -> Result<(), Failure> {
        let mut pos = 0;
        loop {
            let rest = &src[pos..];
            let need = worst(st.decoder.max_utf16_buffer_length(rest.len()), 2);
            if self.text16.len() - self.text16_len < need {
                self.flush_text16(st, false)?;
                if self.text16.len() < need {
                    self.text16.resize(need, 0);
                }
            }
            match st
                .decoder
                .decode_to_utf16(rest, &mut self.text16[self.text16_len..], last)
            {
                Ok(p) => {
                    self.text16_len += p.written;
                    pos += p.read;
                    st.consumed += p.read as u64;
                    if p.status == Status::InputEmpty {
                        break;
                    }
                    self.flush_text16(st, false)?;
                }
                Err(e) => {
                    self.text16_len += e.written;
                    pos += e.read;
                    st.consumed += e.read as u64;
                    if let Err(failure) = st.malformed(&src[..pos], self.plan.fail_on_invalid) {
                        // Write what came before the malformed sequence, then stop.
                        let _ = self.flush_text16(st, false);
                        return Err(failure);
                    }
                    if self.text16.len() == self.text16_len {
                        self.flush_text16(st, false)?;
                    }
                    self.text16[self.text16_len] = 0xFFFD;
                    self.text16_len += 1;
                }
            }
        }
        self.flush_text16(st, last)
    }

    /// Writes the decoded UTF-16 as UTF-16 bytes, or encodes it; with `last`, also ends
    /// the encoder's stream.
    fn flush_text16(&mut self, st: &mut Stream, last: bool) -> Result<(), Failure> {
        let units = &self.text16[..self.text16_len];
        self.text16_len = 0;
        let big_endian = match (&mut st.encoder, self.plan.target) {
            (Some(encoder), Target::Encoder(enc)) => {
                if units.is_empty() && !last {
                    return Ok(());
                }
                return encode_utf16(
                    encoder,
                    enc,
                    units,
                    last,
                    &mut self.out,
                    &mut self.sink,
                    st.name,
                    &mut st.pos,
                );
            }
            (_, Target::Utf16 { big_endian }) => big_endian,
            _ => unreachable!("UTF-8 output does not pivot through UTF-16"),
        };
        if self.out.len() < 2 * units.len() {
            self.out.resize(2 * units.len(), 0);
        }
        let bytes = &mut self.out[..2 * units.len()];
        if big_endian {
            for (d, u) in bytes.chunks_exact_mut(2).zip(units) {
                d.copy_from_slice(&u.to_be_bytes());
            }
        } else {
            for (d, u) in bytes.chunks_exact_mut(2).zip(units) {
                d.copy_from_slice(&u.to_le_bytes());
            }
        }
        self.sink.write_all(bytes)
    }
}

#[allow(clippy::too_many_arguments)]
fn encode_str(
    encoder: &mut Encoder,
    enc: &'static Encoding,
    mut s: &str,
    last: bool,
    out: &mut Vec<u8>,
    sink: &mut Sink,
    name: &str,
    pos: &mut TextPos,
) -> Result<(), Failure> {
    let mut out_len = 0;
    loop {
        let need = worst(encoder.max_buffer_length_from_utf8(s.len()), 16);
        if out.len() - out_len < need {
            sink.write_all(&out[..out_len])?;
            out_len = 0;
            if out.len() < need {
                out.resize(need, 0);
            }
        }
        match encoder.encode_from_utf8(s, &mut out[out_len..], last) {
            Ok(p) => {
                out_len += p.written;
                pos.advance(&s[..p.read]);
                s = &s[p.read..];
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
                let (before, c) = match s[..e.read].chars().next_back() {
                    Some(c) => (&s[..e.read - c.len_utf8()], c),
                    None => ("", e.unmappable),
                };
                pos.advance(before);
                return Err(unmappable_error(name, pos, c, enc));
            }
        }
    }
    sink.write_all(&out[..out_len])
}

#[allow(clippy::too_many_arguments)]
fn encode_utf16(
    encoder: &mut Encoder,
    enc: &'static Encoding,
    mut s: &[u16],
    last: bool,
    out: &mut Vec<u8>,
    sink: &mut Sink,
    name: &str,
    pos: &mut TextPos,
) -> Result<(), Failure> {
    let mut out_len = 0;
    loop {
        let need = worst(encoder.max_buffer_length_from_utf16(s.len()), 16);
        if out.len() - out_len < need {
            sink.write_all(&out[..out_len])?;
            out_len = 0;
            if out.len() < need {
                out.resize(need, 0);
            }
        }
        match encoder.encode_from_utf16(s, &mut out[out_len..], last) {
            Ok(p) => {
                out_len += p.written;
                pos.advance16(&s[..p.read]);
                s = &s[p.read..];
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
                let read = &s[..e.read];
                let (before, c) = match char::decode_utf16(read.iter().copied()).last() {
                    Some(Ok(c)) => (&read[..read.len() - c.len_utf16()], c),
                    _ => (read, e.unmappable),
                };
                pos.advance16(before);
                return Err(unmappable_error(name, pos, c, enc));
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
        if utf16 && (end - len as u64) % 2 != 0 {
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
