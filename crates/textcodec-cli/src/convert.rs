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
//! Malformed input, `--invalid replace` (the default): the decoder runs in replacement mode,
//! one call per chunk however many errors it holds, and a call that reports `replaced` has
//! its U+FFFDs counted in its output (a byte scan). That count is the number of errors unless
//! the input may hold a U+FFFD of its own (only UTF-8, UTF-16 and gb18030/GBK can encode it:
//! [`literal_replacement`]); a chunk whose bytes contain that encoding of U+FFFD, and the
//! first chunk with errors (for the first one's byte offset), are decoded once more from a
//! copy of the decoder as it was before the chunk, switched to fatal mode, which gives exact
//! counts and offsets (a fatal decoder resumed after each error is in the state of the
//! replacement decoder after its U+FFFD). `--invalid fail`: the decoder runs in fatal mode and
//! the first error ends the run.
//!
//! UTF-8 input to UTF-8 output ([`Converter::run_utf8`]): larger reads, each validated in
//! place and its valid part written straight from the input buffer; only what follows a
//! malformed sequence in a read (and the stream's first bytes, while the decoder sniffs a BOM)
//! goes through the decoder as above. Past the first MiB of a regular file, the reads and
//! their validation run on every core, the rest in the input's order
//! ([`Converter::utf8_parallel`]).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;

use textcodec::{
    BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, Encoder, EncoderErrorMode,
    Encoding, Status,
};

use crate::cli::{InvalidMode, UnmappableMode};
use crate::progress::Progress;
use crate::sink::{io_msg, Sink};
use crate::Failure;

/// Bytes read from an input at a time.
pub const CHUNK: usize = 64 * 1024;
/// Bytes read at a time when UTF-8 input is written through as UTF-8 ([`Converter::run_utf8`]):
/// measured (CPU time, 100 MB of en.html and ja.txt) slightly faster than 64 KiB and 1 MiB.
pub const UTF8_BLOCK: usize = 256 * 1024;
/// The alignment of those reads.
const PAGE: usize = 4096;
/// Bytes of a regular file read on one thread before [`Converter::run_utf8`] reads on
/// several, if at least [`PARALLEL_REST`] remain: smaller inputs do not pay for starting
/// threads (measured: the whole run of 1.5 and 2.3 MB took 0.1 to 0.6 ms more with the
/// rest read on two threads, of 4 MB about as long or up to 0.5 ms less).
const PARALLEL_AFTER: u64 = 1024 * 1024;
const PARALLEL_REST: u64 = 4 * 1024 * 1024;
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
    pub invalid: InvalidMode,
    pub unmappable: UnmappableMode,
    pub add_bom: bool,
    pub quiet: bool,
}

impl Plan {
    /// The encoder's error mode: HTML writes references itself; the other policies stop
    /// the encoder at each unmappable character.
    fn encoder_mode(&self) -> EncoderErrorMode {
        match self.unmappable {
            UnmappableMode::Html => EncoderErrorMode::Html,
            _ => EncoderErrorMode::Fatal,
        }
    }
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
pub fn run(
    plan: &Plan,
    inputs: Vec<Input>,
    sink: Sink,
    progress: &mut Progress,
) -> Result<(), Failure> {
    // Encoders are fed UTF-16 (decode_to_utf16 -> encode_from_utf16) except for ISO-2022-JP:
    // measured faster (up to 2x) for every other encoder, as it saves the `str::from_utf8`
    // pass that `encode_from_utf8` needs on the decoded UTF-8.
    let pivot16 = match plan.target {
        Target::Utf16 { .. } => true,
        Target::Encoder(enc) => enc != textcodec::ISO_2022_JP,
        Target::Utf8 => false,
    };
    if pivot16 {
        Converter::<u16>::new(plan, sink, progress).run(inputs)
    } else {
        Converter::<u8>::new(plan, sink, progress).run(inputs)
    }
}

/// The decoded text between decoder and encoder (or output): UTF-8 bytes (`u8`) or UTF-16
/// code units (`u16`). One pipeline, monomorphised for each.
trait Unit: Copy + Default + Send + 'static {
    /// Room kept beyond the decoder's worst case.
    const SLACK: usize;
    /// The number of U+FFFD in `text` (whole characters).
    fn count_replacements(text: &[Self]) -> u64;
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
    const SLACK: usize = 4;
    fn count_replacements(text: &[u8]) -> u64 {
        // EF BF BD: in whole UTF-8 text, BD after BF after EF is always U+FFFD. Three
        // shifted comparisons summed per byte, which the compiler vectorises.
        if text.len() < 3 {
            return 0;
        }
        let n = text.len() - 2;
        let (a, b, c) = (&text[..n], &text[1..n + 1], &text[2..]);
        let mut count = 0u64;
        for ((a, b), c) in a.chunks(4096).zip(b.chunks(4096)).zip(c.chunks(4096)) {
            let hits: u32 = a
                .iter()
                .zip(b)
                .zip(c)
                .map(|((&x, &y), &z)| u32::from((x == 0xEF) & (y == 0xBF) & (z == 0xBD)))
                .sum();
            count += u64::from(hits);
        }
        count
    }
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
    const SLACK: usize = 2;
    fn count_replacements(text: &[u16]) -> u64 {
        text.chunks(4096)
            .map(|c| u64::from(c.iter().map(|&u| u32::from(u == 0xFFFD)).sum::<u32>()))
            .sum()
    }
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
    /// Output of the fatal re-decoding of a chunk that had errors (discarded).
    scratch: Vec<U>,
    sink: Sink,
    progress: &'p mut Progress,
    /// The other threads' buffers in [`Self::utf8_parallel`], kept from one input to the
    /// next.
    parallel_buffers: Vec<Vec<u8>>,
}

/// The state of one input stream.
struct Stream<'n> {
    name: &'n str,
    decoder: Decoder,
    encoder: Option<Encoder>,
    /// What an unmappable character does.
    policy: UnmappableMode,
    /// Input bytes consumed by the decoder so far (absolute offset, BOM included).
    consumed: u64,
    /// The last bytes of the input before the current chunk.
    history: [u8; HISTORY],
    history_len: usize,
    errors: u64,
    /// Characters the output encoding lacks, skipped or transliterated.
    unmappable: u64,
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
    fn new(plan: &'p Plan, sink: Sink, progress: &'p mut Progress) -> Self {
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
                let encoder = enc.new_encoder(plan.encoder_mode());
                vec![0u8; worst(U::max_encoded(&encoder, n), 16)]
            }
        };
        Converter {
            plan,
            text: vec![U::default(); n],
            text_len: 0,
            out,
            scratch: Vec::new(),
            sink,
            progress,
            parallel_buffers: Vec::new(),
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
        let mut input_buf = Vec::new();
        for input in inputs {
            let name = input.name();
            let mut source = match input {
                Input::Stdin => Source::Stdin(io::stdin().lock()),
                Input::File { file, .. } => Source::File(file),
            };
            self.run_input(&name, &mut source, &mut input_buf)?;
        }
        self.sink.finish()
    }

    fn run_input(
        &mut self,
        name: &str,
        reader: &mut Source,
        buf: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        let plan = self.plan;
        let encoder = match plan.target {
            Target::Encoder(enc) => Some(enc.new_encoder(plan.encoder_mode())),
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
                error_mode: if plan.invalid == InvalidMode::Replace {
                    DecoderErrorMode::Replacement
                } else {
                    DecoderErrorMode::Fatal
                },
                bom: plan.bom,
            }),
            encoder,
            policy: plan.unmappable,
            consumed: 0,
            history: [0; HISTORY],
            history_len: 0,
            errors: 0,
            unmappable: 0,
            first_error: None,
            pos: TextPos {
                track: matches!(plan.target, Target::Encoder(_))
                    && plan.unmappable == UnmappableMode::Fail,
                line: 1,
                col: 1,
            },
        };
        if matches!(plan.target, Target::Utf8) && from == textcodec::UTF_8 {
            if buf.len() < UTF8_BUFFER {
                buf.resize(UTF8_BUFFER, 0);
            }
            self.run_utf8(&mut st, reader, &head, buf)?;
        } else {
            if buf.len() < CHUNK {
                buf.resize(CHUNK, 0);
            }
            let buf = &mut buf[..CHUNK];
            if !head.is_empty() {
                self.decode_chunk(&mut st, &head, false)?;
                st.remember(&head);
                self.progress.inc(head.len());
            }
            loop {
                let n = read(reader, buf, name)?;
                let last = n == 0;
                let src = &buf[..n];
                self.decode_chunk(&mut st, src, last)?;
                st.remember(src);
                self.progress.inc(n);
                if last {
                    break;
                }
            }
        }
        if let (Some((first, enc)), false) = (st.first_error, plan.quiet) {
            let n = st.errors;
            let what = if n == 1 { "sequence" } else { "sequences" };
            let enc = enc.name();
            let done = match plan.invalid {
                InvalidMode::Skip => "skipped",
                _ => "replaced with U+FFFD",
            };
            self.progress.suspend(|| {
                crate::print_stderr(&format!(
                    "warning: {name}: {n} malformed {enc} {what} {done}, \
                     the first at byte offset {first}"
                ))
            });
        }
        if let (Target::Encoder(enc), n @ 1.., false) = (plan.target, st.unmappable, plan.quiet) {
            let what = if n == 1 { "character" } else { "characters" };
            let done = match plan.unmappable {
                UnmappableMode::Skip => "skipped",
                _ => "transliterated",
            };
            self.progress.suspend(|| {
                crate::print_stderr(&format!(
                    "warning: {name}: {n} {what} that {} cannot represent {done}",
                    enc.name()
                ))
            });
        }
        Ok(())
    }

    /// UTF-8 input to UTF-8 output: reads of [`UTF8_BLOCK`] bytes (after `head`, the bytes
    /// already read), each handled by [`Self::utf8_read`]. Once [`PARALLEL_AFTER`] bytes
    /// have been read from a regular file and [`PARALLEL_REST`] remain, [`Self::utf8_parallel`] reads and
    /// validates the following blocks on several threads; smaller inputs, pipes and
    /// terminals are read here.
    fn run_utf8(
        &mut self,
        st: &mut Stream,
        reader: &mut Source,
        head: &[u8],
        buf: &mut [u8],
    ) -> Result<(), Failure> {
        let mut carry = Carry::default();
        let mut read_so_far = head.len() as u64;
        if !head.is_empty() {
            let keep = self.utf8_block(st, head, None)?;
            carry.set(&head[head.len() - keep..]);
            self.progress.inc(head.len());
        }
        let mut may_go_parallel = true;
        loop {
            if may_go_parallel && read_so_far >= PARALLEL_AFTER {
                may_go_parallel = false;
                if let Some((file, from)) = parallel_file(reader) {
                    match self.utf8_parallel(st, file, from, buf, carry)? {
                        Parallel::End => return Ok(()),
                        // A block shorter than asked: the end of the file as it was then
                        // (the file may have grown since, or shrunk): read on from there on
                        // this thread, to a read of 0 bytes, as for any input.
                        Parallel::ShortRead {
                            carry: c,
                            resume_at,
                        } => {
                            carry = c;
                            let mut file = file;
                            file.seek(SeekFrom::Start(resume_at))
                                .map_err(|e| read_error(st.name, &e))?;
                        }
                    }
                }
            }
            let start = aligned_start(buf);
            let n = read(reader, &mut buf[start..start + UTF8_BLOCK], st.name)?;
            if self.utf8_read(st, buf, n, &mut carry, None)? {
                return Ok(());
            }
            read_so_far += n as u64;
        }
    }

    /// The rest of a regular file, from `from` (its current position), in blocks of
    /// [`UTF8_BLOCK`] bytes read at their offsets (`pread`) by [`parallel_workers`] threads
    /// (this one and others), each into a buffer of its own (`buf` for this thread): a
    /// thread takes the next block, reads it, validates what it can of it without the bytes
    /// before it ([`Prevalidated`]), then waits for the block's turn and, holding the
    /// converter, hands it to [`Self::utf8_read`] as the one-thread loop would, which writes
    /// it from that buffer. So reading and validation run on every core, each block's bytes
    /// stay in the cache of the core that read them, and everything that depends on what
    /// came before (characters cut by the edges, the decoder after a malformed sequence,
    /// counts, offsets, the output's order) happens in the input's order, one block at a
    /// time. A read error is reported at its block's turn, after everything before it was
    /// written; the other threads stop at their next turn.
    ///
    /// Reading on one thread and converting on another measured slower on a 2-core VM (the
    /// bytes then move from one core's cache to the other's): BENCHMARKS.md, "UTF-8 through
    /// the command (issue 16)".
    fn utf8_parallel(
        &mut self,
        st: &mut Stream,
        file: &File,
        from: u64,
        buf: &mut [u8],
        carry: Carry,
    ) -> Result<Parallel, Failure> {
        let mut spare = std::mem::take(&mut self.parallel_buffers);
        spare.resize_with(parallel_workers() - 1, || vec![0; UTF8_BUFFER]);
        let turns = Turns {
            claimed: AtomicU64::new(0),
            turn: AtomicU64::new(0),
            state: Mutex::new(TurnState {
                next: 0,
                carry,
                outcome: None,
            }),
            changed: Condvar::new(),
            converter: Mutex::new((&mut *self, &mut *st)),
        };
        thread::scope(|scope| {
            for buf in &mut spare {
                let turns = &turns;
                // Without another thread (a process or system limit), the others do it all.
                let _ = thread::Builder::new()
                    .name("read".into())
                    .spawn_scoped(scope, move || turns.work(file, from, buf));
            }
            turns.work(file, from, buf);
        });
        let state = turns.state.into_inner().unwrap_or_else(|e| e.into_inner());
        self.parallel_buffers = spare;
        match state.outcome {
            Some(Outcome::End) => Ok(Parallel::End),
            Some(Outcome::ShortRead { resume_at }) => Ok(Parallel::ShortRead {
                carry: state.carry,
                resume_at,
            }),
            Some(Outcome::Failed(failure)) => Err(failure),
            None => unreachable!("the threads stop on an outcome"),
        }
    }

    /// One read of `n` bytes (0: the end of the input) at `buf`'s page-aligned start
    /// ([`aligned_start`]): `carry` (the first bytes of a character that the previous read
    /// cut, as the decoder would hold them) goes just before them, then the block is handled
    /// by [`Self::utf8_block`], which may leave a new carry; at the end of the input the
    /// decoder gets the carry as its last chunk. Returns whether this was the end.
    fn utf8_read(
        &mut self,
        st: &mut Stream,
        buf: &mut [u8],
        n: usize,
        carry: &mut Carry,
        pre: Option<Prevalidated>,
    ) -> Result<bool, Failure> {
        let start = aligned_start(buf);
        let from = start - carry.len;
        buf[from..start].copy_from_slice(carry.bytes());
        if n == 0 {
            let src = &buf[from..start];
            self.decode_chunk(st, src, true)?;
            st.remember(src);
            self.progress.inc(0);
            return Ok(true);
        }
        let end = start + n;
        // The prevalidated range, in the block with the carry before it.
        let pre = pre.map(|p| Prevalidated {
            from: p.from + carry.len,
            to: p.to + carry.len,
            valid: p.valid,
        });
        let keep = self.utf8_block(st, &buf[from..end], pre)?;
        carry.set(&buf[end - keep..end]);
        self.progress.inc(n);
        Ok(false)
    }

    /// One block of UTF-8 input (not the end of it), UTF-8 output. Where the decoder holds
    /// nothing, valid UTF-8 is written as it is, straight from `block`; from the first
    /// malformed sequence on, the rest of the block goes through the decoder
    /// ([`Self::decode_chunk`], [`CHUNK`] bytes at a time), and at the start of the next
    /// block it reads on until it holds nothing again. The decoder reads the stream's first 3
    /// bytes, the most a BOM takes to sniff; if it sniffed a UTF-16 BOM, it gets everything. Returns the length of the incomplete character that ends `block` when the
    /// rest of the block was written as it is: those bytes are left for the next block (0
    /// otherwise).
    ///
    /// Exact because the UTF-8 decoder, once it has settled the BOM, holds nothing exactly
    /// where the input read so far does not end with an unfinished character
    /// ([`utf8_incomplete_tail`]), and there its state is its initial state: a valid prefix
    /// leaves it as it found it.
    fn utf8_block(
        &mut self,
        st: &mut Stream,
        block: &[u8],
        pre: Option<Prevalidated>,
    ) -> Result<usize, Failure> {
        // The first bytes of the stream, where the decoder sniffs the BOM.
        let mut pos = if st.consumed < 3 {
            let k = block.len().min(3 - st.consumed as usize);
            self.decode_chunks(st, &block[..k])?;
            k
        } else {
            0
        };
        if st.decoder.encoding() != textcodec::UTF_8 || st.consumed < 3 {
            self.decode_chunks(st, &block[pos..])?;
            return Ok(0);
        }
        // The decoder holds the start of a character: it reads on until it holds nothing.
        let start = pos;
        while pos < block.len() && st.decoder_holds(&block[start..pos]) {
            pos += 1;
        }
        self.decode_chunks(st, &block[start..pos])?;
        let tail = utf8_incomplete_tail(&block[pos..]);
        let end = block.len() - tail;
        let valid = pos
            + match pre {
                // Validated by a reading thread from `p.from`: what comes before it here
                // (the carried bytes and those that end their character) only needs to be
                // whole characters, as valid UTF-8 followed by valid UTF-8 is valid.
                Some(p)
                    if p.to == end
                        && p.from >= pos
                        && Encoding::utf8_valid_up_to(&block[pos..p.from]) == p.from - pos =>
                {
                    p.from - pos + p.valid
                }
                _ => Encoding::utf8_valid_up_to(&block[pos..end]),
            };
        if valid > pos {
            let text = &block[pos..valid];
            self.sink.write_all(text)?;
            st.consumed += text.len() as u64;
            st.remember(text);
        }
        if valid == end {
            return Ok(tail);
        }
        self.decode_chunks(st, &block[valid..])?;
        Ok(0)
    }

    /// [`Self::decode_chunk`] on `src`, [`CHUNK`] bytes at a time (not the end of the input).
    fn decode_chunks(&mut self, st: &mut Stream, src: &[u8]) -> Result<(), Failure> {
        for chunk in src.chunks(CHUNK) {
            self.decode_chunk(st, chunk, false)?;
            st.remember(chunk);
        }
        Ok(())
    }

    /// Decodes one chunk of input (`last`: the end of the input) into `self.text`, encoding
    /// or writing it as the buffer fills.
    fn decode_chunk(&mut self, st: &mut Stream, src: &[u8], last: bool) -> Result<(), Failure> {
        // The decoder before this chunk, for a fatal pass over it if it has errors.
        let before = (self.plan.invalid == InvalidMode::Replace).then(|| st.decoder.clone());
        let start = st.consumed;
        let mut replaced = 0u64;
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
                    if p.replaced {
                        let new = &self.text[self.text_len..self.text_len + p.written];
                        replaced += U::count_replacements(new);
                    }
                    self.text_len += p.written;
                    pos += p.read;
                    st.consumed += p.read as u64;
                    if p.status == Status::InputEmpty {
                        break;
                    }
                    self.flush(st, false)?;
                }
                Err(e) => {
                    // Fatal mode: `--invalid fail` (the first error ends the run) or
                    // `--invalid skip` (counted, and left out).
                    self.text_len += e.written;
                    pos += e.read;
                    st.consumed += e.read as u64;
                    let end = st.consumed;
                    if self.plan.invalid == InvalidMode::Skip {
                        st.errors += 1;
                        if st.first_error.is_none() {
                            let encoding = st.decoder.encoding();
                            let start = st.error_start(&src[..pos], end, encoding);
                            st.first_error = Some((start, encoding));
                        }
                        continue;
                    }
                    let start = st.error_start(&src[..pos], end, st.decoder.encoding());
                    // Write what came before the malformed sequence, then stop.
                    let _ = self.flush(st, false);
                    return Err(st.invalid_error(&src[..pos], start, end));
                }
            }
        }
        if replaced > 0 {
            let before = before.expect("replacement mode");
            let literal = literal_replacement(st.decoder.encoding())
                .is_some_and(|pattern| st.contains(src, pattern));
            if literal || st.first_error.is_none() {
                // Exact: the errors of this chunk (when the input may hold U+FFFDs of its
                // own), or the first one's offset.
                let counted = self.fatal_pass(st, before, src, start, last, literal);
                if literal {
                    replaced = counted;
                }
            }
            st.errors += replaced;
        }
        self.flush(st, last)
    }

    /// Decodes `src` again from the decoder state `before` in fatal mode, into a scratch
    /// buffer: records the first error of the stream if none is known yet, and returns the
    /// number of errors in `src` (all of them with `count_all`, else at most one).
    fn fatal_pass(
        &mut self,
        st: &mut Stream,
        mut decoder: Decoder,
        src: &[u8],
        start: u64,
        last: bool,
        count_all: bool,
    ) -> u64 {
        decoder.set_error_mode(DecoderErrorMode::Fatal);
        let mut errors = 0;
        let mut pos = 0;
        loop {
            let rest = &src[pos..];
            let need = worst(U::max_decoded(&decoder, rest.len()), U::SLACK);
            if self.scratch.len() < need {
                self.scratch.resize(need, U::default());
            }
            match U::decode(&mut decoder, rest, &mut self.scratch, last) {
                Ok(p) => {
                    pos += p.read;
                    if p.status == Status::InputEmpty {
                        return errors;
                    }
                }
                Err(e) => {
                    pos += e.read;
                    errors += 1;
                    if st.first_error.is_none() {
                        let end = start + pos as u64;
                        let first = st.error_start(&src[..pos], end, decoder.encoding());
                        st.first_error = Some((first, decoder.encoding()));
                    }
                    if !count_all {
                        return errors;
                    }
                }
            }
        }
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
    let mut out_len = 0;
    loop {
        let encoder = st
            .encoder
            .as_mut()
            .expect("an encoder for an encoded output");
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
                // The character as it is in the text (ISO-2022-JP reports U+000E, U+000F
                // and U+001B as U+FFFD).
                let (before, c) = text.last_char(e.read);
                let c = c.unwrap_or(e.unmappable);
                match st.policy {
                    UnmappableMode::Skip => st.unmappable += 1,
                    UnmappableMode::Translit => {
                        st.unmappable += 1;
                        let encoder = st.encoder.as_mut().expect("an encoder");
                        let mut buf = [0u8; 64];
                        let n = transliterate(encoder, c, &mut buf);
                        if out.len() - out_len < n {
                            sink.write_all(&out[..out_len])?;
                            out_len = 0;
                        }
                        out[out_len..out_len + n].copy_from_slice(&buf[..n]);
                        out_len += n;
                    }
                    _ => {
                        sink.write_all(&out[..out_len])?;
                        text.advance(before, &mut st.pos);
                        return Err(unmappable_error(st.name, &st.pos, c, enc));
                    }
                }
                text = text.tail(e.read);
            }
        }
    }
    sink.write_all(&out[..out_len])
}

/// Writes into `buf` the first look-alike of `c` ([`crate::translit`]) that `encoder` can
/// encode whole, else `?`, and returns its length; `encoder` takes the state after it.
fn transliterate(encoder: &mut Encoder, c: char, buf: &mut [u8; 64]) -> usize {
    for candidate in crate::translit::candidates(c).into_iter().chain(["?"]) {
        let mut trial = encoder.clone();
        if let Ok(p) = trial.encode_from_utf8(candidate, buf, false) {
            if p.status == Status::InputEmpty && p.read == candidate.len() {
                *encoder = trial;
                return p.written;
            }
        }
    }
    0
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

    /// Whether the spec's UTF-8 decoder, having read the input through `seen` (the current
    /// block up to some point), holds the start of a character ([`utf8_incomplete_tail`]).
    fn decoder_holds(&self, seen: &[u8]) -> bool {
        let window = if seen.len() >= 3 {
            &seen[seen.len() - 3..]
        } else {
            &self.window(seen)[..]
        };
        utf8_incomplete_tail(window) > 0
    }

    /// The last (at most [`HISTORY`]) bytes of the input before `seen`'s end, where `seen`
    /// is the current chunk up to some point.
    fn window(&self, seen: &[u8]) -> Vec<u8> {
        let mut window = Vec::with_capacity(HISTORY);
        let from_seen = seen.len().min(HISTORY);
        let from_history = (HISTORY - from_seen).min(self.history_len);
        window.extend_from_slice(&self.history[self.history_len - from_history..self.history_len]);
        window.extend_from_slice(&seen[seen.len() - from_seen..]);
        window
    }

    /// Whether the input bytes from the history through `src` contain `pattern`.
    fn contains(&self, src: &[u8], pattern: &[u8]) -> bool {
        let carry = (pattern.len() - 1).min(self.history_len);
        let mut joint = self.history[self.history_len - carry..self.history_len].to_vec();
        joint.extend_from_slice(&src[..src.len().min(pattern.len() - 1)]);
        find(&joint, pattern) || find(src, pattern)
    }

    /// The offset where a malformed sequence of `encoding` that ended at offset `end`
    /// started; `seen` is the current chunk up to `end`.
    fn error_start(&self, seen: &[u8], end: u64, encoding: &'static Encoding) -> u64 {
        end - malformed_len(encoding, &self.window(seen), end) as u64
    }

    /// The `--invalid fail` message for the malformed sequence from `start` to `end`.
    fn invalid_error(&self, seen: &[u8], start: u64, end: u64) -> Failure {
        let window = self.window(seen);
        let len = (end - start) as usize;
        let hex: Vec<String> = window[window.len() - len..]
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect();
        let bytes = if hex.is_empty() {
            String::new()
        } else {
            format!(": {}", hex.join(" "))
        };
        Failure::Data(format!(
            "{}: malformed {} at byte offset {start}{bytes}",
            self.name,
            self.decoder.encoding().name()
        ))
    }
}

/// Reads into `buf`, retrying when interrupted; 0 at the end of the input.
fn read(reader: &mut dyn Read, buf: &mut [u8], name: &str) -> Result<usize, Failure> {
    read_retrying(reader, buf).map_err(|e| read_error(name, &e))
}

/// One `read`, again if a signal interrupted it.
fn read_retrying(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

fn read_error(name: &str, e: &io::Error) -> Failure {
    Failure::Usage(format!("cannot read '{name}': {}", io_msg(e)))
}

/// The size of a buffer for [`Converter::run_utf8`]'s reads: a page-aligned block of
/// [`UTF8_BLOCK`] bytes and the (at most 3) bytes carried before it.
const UTF8_BUFFER: usize = UTF8_BLOCK + PAGE + 3;

/// Where [`Converter::run_utf8`] reads into `buf`: the first page boundary with at least 3
/// bytes before it (the kernel's copy from the page cache into a buffer 16 bytes past a page
/// boundary measured 3 to 4 times slower here).
fn aligned_start(buf: &[u8]) -> usize {
    let base = buf.as_ptr().addr();
    (base + 3).next_multiple_of(PAGE) - base
}

/// The first bytes (at most 3) of a character that a read cut, carried to the next read.
#[derive(Default)]
struct Carry {
    bytes: [u8; 3],
    len: usize,
}

impl Carry {
    fn set(&mut self, bytes: &[u8]) {
        self.bytes[..bytes.len()].copy_from_slice(bytes);
        self.len = bytes.len();
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Where a stream's bytes come from.
enum Source {
    Stdin(io::StdinLock<'static>),
    File(File),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stdin(r) => r.read(buf),
            Source::File(f) => f.read(buf),
        }
    }
}

/// The input as a regular file that [`Converter::utf8_parallel`] can read at offsets, and
/// its current position, if it is one (on Unix) with at least [`PARALLEL_REST`] bytes
/// after that position, and there is more than one core.
fn parallel_file(source: &Source) -> Option<(&File, u64)> {
    match source {
        Source::File(file) if cfg!(unix) && parallel_workers() > 1 => {
            let meta = file.metadata().ok().filter(|m| m.is_file())?;
            let mut f = file;
            let pos = f.stream_position().ok()?;
            (meta.len().saturating_sub(pos) >= PARALLEL_REST).then_some((file, pos))
        }
        _ => None,
    }
}

/// The threads of [`Converter::utf8_parallel`]: one a core, at most 4.
fn parallel_workers() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// How [`Converter::utf8_parallel`] ended, if not on an error.
enum Parallel {
    /// At the end of the input.
    End,
    /// A block came back shorter than asked (at least its bytes were converted): the
    /// stream goes on at `resume_at` with `carry`.
    ShortRead { carry: Carry, resume_at: u64 },
}

/// What a reading thread of [`Converter::utf8_parallel`] found of its block without the
/// bytes before it: `block[from..to]` (after the continuation bytes that may end a character
/// begun in the previous block, before an unfinished character at the end) starts with
/// `valid` bytes of valid UTF-8. [`Converter::utf8_block`] takes that instead of validating
/// when the range is exactly the one it would validate.
#[derive(Clone, Copy)]
struct Prevalidated {
    from: usize,
    to: usize,
    valid: usize,
}

impl Prevalidated {
    fn of(block: &[u8]) -> Option<Prevalidated> {
        let from = block
            .iter()
            .take(3)
            .take_while(|&&b| (0x80..0xC0).contains(&b))
            .count();
        let to = block.len() - utf8_incomplete_tail(block);
        (from < to).then(|| Prevalidated {
            from,
            to,
            valid: Encoding::utf8_valid_up_to(&block[from..to]),
        })
    }
}

/// How the threads of [`Converter::utf8_parallel`] take turns.
struct Turns<'a, 'p, 'n, U: Unit> {
    /// The next block to take.
    claimed: AtomicU64,
    /// `state.next`, or [`STOPPED`] once `state.outcome` is set: written with `state` held,
    /// read without it by a thread that spins ([`TURN_SPINS`]) before it waits on `changed`.
    turn: AtomicU64,
    state: Mutex<TurnState>,
    /// Signalled when `state` changes.
    changed: Condvar,
    /// Held by the thread whose block's turn it is.
    converter: Mutex<(&'a mut Converter<'p, U>, &'a mut Stream<'n>)>,
}

struct TurnState {
    /// The block whose turn it is.
    next: u64,
    carry: Carry,
    /// Set once: the threads stop.
    outcome: Option<Outcome>,
}

/// [`Turns::turn`] once the threads stop.
const STOPPED: u64 = u64::MAX;

/// How many times a thread of [`Turns::work`] reads [`Turns::turn`] (about 55 µs here)
/// before it sleeps on the condition variable until its block's turn: a turn often comes
/// within the time one block takes to write, and a sleep and wake-up cost more than that
/// wait (en.html to a file: 1.67x -> 1.80x the encoding_rs converter).
const TURN_SPINS: u32 = 4096;

enum Outcome {
    End,
    ShortRead { resume_at: u64 },
    Failed(Failure),
}

impl<U: Unit> Turns<'_, '_, '_, U> {
    /// One thread's part: blocks of `file` from `from`, into `buf`, until an outcome.
    #[cfg(unix)]
    fn work(&self, file: &File, from: u64, buf: &mut [u8]) {
        use std::os::unix::fs::FileExt;
        // A thread that panics in its turn would leave the others waiting for it.
        let _stop = PanicStop(self);
        let start = aligned_start(buf);
        loop {
            let k = self.claimed.fetch_add(1, Ordering::Relaxed);
            let offset = from + k * UTF8_BLOCK as u64;
            let block = &mut buf[start..start + UTF8_BLOCK];
            // As many bytes as the block holds, fewer only at the end of the file.
            let mut n = 0;
            let read = loop {
                match file.read_at(&mut block[n..], offset + n as u64) {
                    Ok(0) => break Ok(n),
                    Ok(m) => {
                        n += m;
                        if n == block.len() {
                            break Ok(n);
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => break Err(e),
                }
            };
            let pre = read
                .as_ref()
                .ok()
                .and_then(|&n| Prevalidated::of(&block[..n]));
            // Spinning only saves the sleep: the turn is checked again below, with `state`
            // held, before any wait (which a thread that changes the turn, with `state`
            // held, then notifies), so no wake-up is lost however the spin ends.
            for _ in 0..TURN_SPINS {
                let turn = self.turn.load(Ordering::Acquire);
                if turn == k || turn == STOPPED {
                    break;
                }
                std::hint::spin_loop();
            }
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            while state.next != k && state.outcome.is_none() {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.outcome.is_some() {
                return;
            }
            // This block's turn (the other threads read on meanwhile).
            let mut carry = std::mem::take(&mut state.carry);
            drop(state);
            let outcome = {
                let mut converter = self.converter.lock().unwrap_or_else(|e| e.into_inner());
                let (conv, st) = &mut *converter;
                match read {
                    Err(e) => Some(Outcome::Failed(read_error(st.name, &e))),
                    Ok(n) => match conv.utf8_read(st, buf, n, &mut carry, pre) {
                        Err(failure) => Some(Outcome::Failed(failure)),
                        Ok(true) => Some(Outcome::End),
                        Ok(false) if n < UTF8_BLOCK => Some(Outcome::ShortRead {
                            resume_at: offset + n as u64,
                        }),
                        Ok(false) => None,
                    },
                }
            };
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.carry = carry;
            state.next = k + 1;
            let stop = outcome.is_some();
            state.outcome = outcome;
            let turn = if stop { STOPPED } else { k + 1 };
            self.turn.store(turn, Ordering::Release);
            drop(state);
            self.changed.notify_all();
            if stop {
                return;
            }
        }
    }

    #[cfg(not(unix))]
    fn work(&self, _: &File, _: u64, _: &mut [u8]) {
        unreachable!("parallel_file is for Unix")
    }
}

/// Stops the threads of [`Turns::work`] if one of them panics.
struct PanicStop<'t, 'a, 'p, 'n, U: Unit>(&'t Turns<'a, 'p, 'n, U>);

impl<U: Unit> Drop for PanicStop<'_, '_, '_, '_, U> {
    fn drop(&mut self) {
        if thread::panicking() {
            let mut state = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
            if state.outcome.is_none() {
                state.outcome = Some(Outcome::Failed(Failure::Usage(
                    "a reading thread failed".into(),
                )));
            }
            self.0.turn.store(STOPPED, Ordering::Release);
            drop(state);
            self.0.changed.notify_all();
        }
    }
}

/// The number of bytes at the end of `bytes` (0 to 3) that the spec's UTF-8 decoder, having
/// read input that ends with `bytes` (its last 3 bytes or more, or all of it) and with more
/// to come, holds as the start of a character it has not finished
/// (https://encoding.spec.whatwg.org/#utf-8-decoder): the last lead byte, if it is among the
/// last 3 bytes, with the continuation bytes after it, when they are fewer than its
/// character needs and each is in the range its position allows. A lead byte always starts
/// a new character (after an unfinished one it is an error and is read again), so nothing
/// before it matters.
fn utf8_incomplete_tail(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=n.min(3) {
        let lead = bytes[n - back];
        if lead < 0x80 {
            return 0;
        }
        if lead < 0xC0 {
            continue;
        }
        // UTF-8 bytes needed, and the range of the byte after the lead.
        let (needed, lower, upper) = match lead {
            0xC2..=0xDF => (2, 0x80, 0xBF),
            0xE0 => (3, 0xA0, 0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
            0xED => (3, 0x80, 0x9F),
            0xF0 => (4, 0x90, 0xBF),
            0xF1..=0xF3 => (4, 0x80, 0xBF),
            0xF4 => (4, 0x80, 0x8F),
            _ => return 0,
        };
        if back >= needed {
            return 0;
        }
        let second_ok = back == 1 || (lower..=upper).contains(&bytes[n - back + 1]);
        return if second_ok { back } else { 0 };
    }
    0
}

/// Whether `haystack` contains `needle` (not empty).
fn find(haystack: &[u8], needle: &[u8]) -> bool {
    let (first, rest) = needle.split_first().expect("a pattern");
    let mut from = 0;
    while let Some(i) = haystack[from..].iter().position(|b| b == first) {
        let at = from + i + 1;
        if haystack[at..].starts_with(rest) {
            return true;
        }
        from = at;
    }
    false
}

/// The bytes by which `encoding`'s input can hold a U+FFFD of its own (not a replaced
/// error): UTF-8 EF BF BD, UTF-16 FFFD as a code unit, gb18030's four-byte FFFD (the GBK
/// decoder is gb18030's). No other decoder maps any input to U+FFFD: their indexes have no
/// U+FFFD (tests/errors.rs reads `data/whatwg`), x-user-defined maps to U+F780..U+F7FF, and
/// the replacement decoder's U+FFFD is its error.
fn literal_replacement(encoding: &'static Encoding) -> Option<&'static [u8]> {
    if encoding == textcodec::UTF_8 {
        Some(b"\xEF\xBF\xBD")
    } else if encoding == textcodec::UTF_16LE {
        Some(b"\xFD\xFF")
    } else if encoding == textcodec::UTF_16BE {
        Some(b"\xFF\xFD")
    } else if encoding == textcodec::GB18030 || encoding == textcodec::GBK {
        Some(b"\x84\x31\xA4\x37")
    } else {
        None
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's UTF-8 decoder, given `bytes` with more input to come, holds back
    /// exactly [`utf8_incomplete_tail`]'s bytes: decoding the rest as the whole input gives
    /// the same text, and the held bytes, if any, are an unfinished character (one U+FFFD
    /// at the end of the input).
    #[test]
    fn incomplete_tail_is_what_the_decoder_holds() {
        let alphabet = [
            0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
            0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
        ];
        let decode = |bytes: &[u8], last: bool| {
            let mut decoder = textcodec::UTF_8.new_decoder(DecoderOptions {
                error_mode: DecoderErrorMode::Replacement,
                bom: BomHandling::Keep,
            });
            let mut out = [0u8; 64];
            let p = decoder.decode_to_utf8(bytes, &mut out, last).unwrap();
            assert_eq!(p.read, bytes.len());
            out[..p.written].to_vec()
        };
        let mut checked = 0;
        for len in 1..=4 {
            let mut index = vec![0usize; len];
            loop {
                let bytes: Vec<u8> = index.iter().map(|&i| alphabet[i]).collect();
                let tail = utf8_incomplete_tail(&bytes);
                let body = &bytes[..bytes.len() - tail];
                assert_eq!(decode(&bytes, false), decode(body, true), "{bytes:02X?}");
                if tail > 0 {
                    assert_eq!(decode(&bytes[body.len()..], true), "\u{FFFD}".as_bytes());
                }
                checked += 1;
                // The next combination.
                let mut k = 0;
                while k < len && index[k] == alphabet.len() - 1 {
                    index[k] = 0;
                    k += 1;
                }
                if k == len {
                    break;
                }
                index[k] += 1;
            }
        }
        assert_eq!(checked, 21 + 21 * 21 + 21 * 21 * 21 + 21 * 21 * 21 * 21);
    }
}
