//! Streaming decoding into caller buffers: the machinery shared by every decoder.
//!
//! Each codec supplies a [`DecodeHandler`], a faithful transcription of the spec's decoder
//! *handler* ("Encoders and decoders"), plus an optional fast path for its common case. This
//! module is written once for all of them:
//!
//! - the *I/O queue* of the spec, including "restore" (bytes pushed back to the front of the
//!   input) across call boundaries;
//! - "process an item" with its error modes (replacement and fatal);
//! - BOM handling ("decode", "UTF-8 decode", "BOM sniff");
//! - exact output-buffer bookkeeping for UTF-8 and UTF-16 targets;
//! - error-dense input: after an error, a window of the handler's own steps (a whole sequence
//!   at a time) before the codec's fast path is tried again, and a short way in for a call that
//!   resumes after a fatal error ([`resume`]).
//!
//! A step whose output does not fit is rolled back (handler state, restore queue and input
//! position are all small `Copy` values), so no output is ever held back inside the decoder
//! and `read`/`written` always describe the same boundary.

use crate::codecs::DecoderVariant;
use crate::encoding::Encoding;

/// What a decoder handler returns for one byte or for end-of-queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// "continue": the byte was absorbed into the handler's state.
    Continue,
    /// One code point (a scalar value).
    Emit(u32),
    /// Two code points (Big5's four special pointers).
    Emit2(u32, u32),
    /// "error", with the last `n` consumed bytes restored to the input ("restore").
    /// `bytes[..n]` are those bytes, in input order.
    Error { n: u8, bytes: [u8; 3] },
    /// "finished".
    Finished,
}

impl Step {
    /// An error that restores nothing.
    pub(crate) const ERROR: Step = Step::Error {
        n: 0,
        bytes: [0; 3],
    };

    /// An error that restores the current byte (the spec's "restore byte to ioQueue").
    #[inline]
    pub(crate) fn error_restoring(byte: u8) -> Step {
        Step::Error {
            n: 1,
            bytes: [byte, 0, 0],
        }
    }
}

/// The output side of decoding: UTF-8 bytes or UTF-16 code units, written whole or not at all.
pub(crate) trait Sink {
    /// Units written so far.
    fn written(&self) -> usize;
    /// Units still free.
    fn room(&self) -> usize;
    /// Units needed for scalar value `cp`.
    fn units(cp: u32) -> usize;
    /// Writes scalar value `cp` if it fits whole; returns whether it did.
    fn put(&mut self, cp: u32) -> bool;
    /// Copies the longest run of ASCII bytes at the start of `src` that fits; returns its length.
    fn put_ascii_run(&mut self, src: &[u8]) -> usize;
    /// The buffer and position, if this sink writes UTF-8 (for codec fast paths).
    #[inline(always)]
    fn utf8_parts(&mut self) -> Option<(&mut [u8], &mut usize)> {
        None
    }
    /// The buffer and position, if this sink writes UTF-16 (for codec fast paths).
    #[inline(always)]
    fn utf16_parts(&mut self) -> Option<(&mut [u16], &mut usize)> {
        None
    }
}

/// A sink writing UTF-8.
pub(crate) struct Utf8Sink<'a> {
    pub(crate) dst: &'a mut [u8],
    pub(crate) pos: usize,
}

impl Sink for Utf8Sink<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn room(&self) -> usize {
        self.dst.len() - self.pos
    }
    #[inline(always)]
    fn units(cp: u32) -> usize {
        if cp < 0x80 {
            1
        } else if cp < 0x800 {
            2
        } else if cp < 0x10000 {
            3
        } else {
            4
        }
    }
    #[inline(always)]
    fn put(&mut self, cp: u32) -> bool {
        debug_assert!(char::from_u32(cp).is_some(), "not a scalar value: {cp:#X}");
        let pos = self.pos;
        let dst = &mut *self.dst;
        if cp < 0x80 {
            if pos < dst.len() {
                dst[pos] = cp as u8;
                self.pos = pos + 1;
                return true;
            }
            false
        } else if cp < 0x800 {
            if let Some(out) = dst.get_mut(pos..pos + 2) {
                out[0] = 0xC0 | (cp >> 6) as u8;
                out[1] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 2;
                return true;
            }
            false
        } else if cp < 0x10000 {
            if let Some(out) = dst.get_mut(pos..pos + 3) {
                out[0] = 0xE0 | (cp >> 12) as u8;
                out[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
                out[2] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 3;
                return true;
            }
            false
        } else {
            if let Some(out) = dst.get_mut(pos..pos + 4) {
                out[0] = 0xF0 | (cp >> 18) as u8;
                out[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
                out[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
                out[3] = 0x80 | (cp & 0x3F) as u8;
                self.pos = pos + 4;
                return true;
            }
            false
        }
    }
    #[inline(always)]
    fn put_ascii_run(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::copy_ascii_to_utf8(src, &mut self.dst[self.pos..]);
        self.pos += n;
        n
    }
    #[inline(always)]
    fn utf8_parts(&mut self) -> Option<(&mut [u8], &mut usize)> {
        Some((&mut *self.dst, &mut self.pos))
    }
}

/// A sink writing UTF-16 code units.
pub(crate) struct Utf16Sink<'a> {
    pub(crate) dst: &'a mut [u16],
    pub(crate) pos: usize,
}

impl Sink for Utf16Sink<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn room(&self) -> usize {
        self.dst.len() - self.pos
    }
    #[inline(always)]
    fn units(cp: u32) -> usize {
        if cp < 0x10000 {
            1
        } else {
            2
        }
    }
    #[inline(always)]
    fn put(&mut self, cp: u32) -> bool {
        debug_assert!(char::from_u32(cp).is_some(), "not a scalar value: {cp:#X}");
        let pos = self.pos;
        if cp < 0x10000 {
            if pos < self.dst.len() {
                self.dst[pos] = cp as u16;
                self.pos = pos + 1;
                return true;
            }
            false
        } else if let Some(out) = self.dst.get_mut(pos..pos + 2) {
            let c = cp - 0x10000;
            out[0] = 0xD800 | (c >> 10) as u16;
            out[1] = 0xDC00 | (c & 0x3FF) as u16;
            self.pos = pos + 2;
            true
        } else {
            false
        }
    }
    #[inline(always)]
    fn put_ascii_run(&mut self, src: &[u8]) -> usize {
        let n = crate::simd::copy_ascii_to_utf16(src, &mut self.dst[self.pos..]);
        self.pos += n;
        n
    }
    #[inline(always)]
    fn utf16_parts(&mut self) -> Option<(&mut [u16], &mut usize)> {
        Some((&mut *self.dst, &mut self.pos))
    }
}

/// A decoder handler: the state and per-byte algorithm of one decoder of the spec.
///
/// `Copy` so that a step whose output does not fit can be rolled back.
pub(crate) trait DecodeHandler: Copy {
    /// The handler for one byte.
    fn handle(&mut self, byte: u8) -> Step;
    /// The handler for end-of-queue.
    fn end(&mut self) -> Step;
    /// How many input bytes the state holds (an incomplete sequence), for buffer sizing.
    fn held(&self) -> usize;
    /// Decodes a prefix of `src` without errors, writing to `sink`; returns the bytes read.
    ///
    /// Must be exactly equivalent to calling [`handle`](Self::handle) on each of those bytes
    /// and writing the results. Stops before anything it does not handle (an error, a
    /// sequence that does not fit in `sink`, the end of `src` inside a sequence), leaving the
    /// rest to the byte-at-a-time path.
    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        let _ = (src, sink);
        0
    }
    /// The handler's steps over the sequence at the start of `src` (not empty) at once, from
    /// the state the handler is in: continue for each byte but the last, then a code point or
    /// an error ([`Seq`]).
    ///
    /// Must be exactly equivalent to calling [`handle`](Self::handle) on those bytes: the same
    /// outcome and state, and the bytes that step restores to the input are the last ones it
    /// was given (they are not counted as read, and come next). [`Seq::Bytes`] leaves the
    /// sequence to `handle`: when it is not complete in `src`, yields two code points, or
    /// starts from a state this does not handle. For the driver's steps after an error, where
    /// error-dense input would otherwise go byte by byte.
    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        let _ = src;
        Seq::Bytes
    }
}

/// The outcome of [`DecodeHandler::sequence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seq {
    /// Nothing done: the sequence is left to [`DecodeHandler::handle`], byte by byte.
    Bytes,
    /// A code point, after reading this many bytes.
    Emit(u32, usize),
    /// An error, after reading this many bytes (at least one: the bytes restored to the input
    /// are not counted).
    Error(usize),
}

/// Bytes restored to the front of the input that arrived in earlier calls (or were held by
/// BOM sniffing). The spec's restore never gives back more than three bytes, plus up to three
/// undecided BOM bytes.
///
/// It also carries one fact from a call to the next: the call stopped at an error (fatal
/// mode), so the next one, which a caller resuming after the error makes, starts with the
/// driver's steps ([`resume`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Replay {
    buf: [u8; 8],
    start: u8,
    end: u8,
    /// 0, or the last call stopped at an error and this is the window after it to go on
    /// with ([`MAX_WINDOW`]).
    resume_window: u16,
}

impl Replay {
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// Whether the last call stopped at an error (fatal mode).
    #[inline(always)]
    pub(crate) fn after_error(&self) -> bool {
        self.resume_window != 0
    }
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    #[inline]
    fn pop(&mut self) -> Option<u8> {
        if self.is_empty() {
            return None;
        }
        let b = self.buf[self.start as usize];
        self.start += 1;
        Some(b)
    }
    /// Puts `bytes` in front of what is queued.
    pub(crate) fn push_front(&mut self, bytes: &[u8]) {
        let mut tmp = [0u8; 8];
        let old = &self.buf[self.start as usize..self.end as usize];
        let total = bytes.len() + old.len();
        assert!(total <= tmp.len(), "restore queue overflow");
        tmp[..bytes.len()].copy_from_slice(bytes);
        tmp[bytes.len()..total].copy_from_slice(old);
        self.buf = tmp;
        self.start = 0;
        self.end = total as u8;
    }
}

/// The outcome of one [`drive`] call.
pub(crate) struct Driven {
    pub(crate) status: Status,
    pub(crate) read: usize,
    pub(crate) replaced: bool,
    /// Fatal mode: the call stopped at an error.
    pub(crate) error: bool,
    /// End-of-queue was reached and the handler returned finished.
    pub(crate) finished: bool,
}

/// How many bytes after a lone error the driver takes by its own steps (a sequence or a byte
/// at a time, [`DecodeHandler::sequence`]) before it tries the codec's fast path again.
/// Errors seldom come alone (a damaged stretch, a wrong label): in error-dense input the fast
/// path would decline at once after almost every error, and its set-up (vector loads, tables,
/// the bulk copies' calls) costs more than the steps it saves. After a lone error, clean text
/// loses this many bytes' worth of fast path.
const AFTER_ERROR: usize = 16;

/// The longest window after an error: what clean text after a damaged stretch loses at most.
///
/// The window doubles each time the fast path, tried again after one, stops within a window
/// (a damaged stretch, where it would only start and stop again), and falls back to
/// [`AFTER_ERROR`] when it goes further.
const MAX_WINDOW: usize = 256;

/// "Process a queue" for one call: runs `h` over `replay` then `src` (then end-of-queue if
/// `last`), writing to `sink`, until the input is exhausted, the output is full, or (fatal mode)
/// an error.
#[inline(always)]
pub(crate) fn drive<H: DecodeHandler, S: Sink>(
    h: &mut H,
    replay: &mut Replay,
    src: &[u8],
    sink: &mut S,
    last: bool,
    fatal: bool,
) -> Driven {
    debug_assert!(!replay.after_error());
    if !replay.is_empty() {
        return steps(h, replay, src, sink, last, fatal, 0, 0, AFTER_ERROR);
    }
    match fast(h, src, sink, last) {
        (pos, Fast::InputEmpty) => Driven {
            status: Status::InputEmpty,
            read: pos,
            replaced: false,
            error: false,
            finished: false,
        },
        (pos, Fast::Finished) => Driven {
            status: Status::InputEmpty,
            read: pos,
            replaced: false,
            error: false,
            finished: true,
        },
        (pos, Fast::Steps) => steps(h, replay, src, sink, last, fatal, pos, pos + 1, AFTER_ERROR),
    }
}

/// How [`fast`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fast {
    /// All of `src` was read, and more is to come.
    InputEmpty,
    /// All of `src` was read, and the handler is finished.
    Finished,
    /// The rest is for [`steps`].
    Steps,
}

/// The common case of [`drive`], taken without the per-step bookkeeping of [`steps`]: the fast
/// path reads all of `src`, and then either more input is to come or the handler is finished.
/// Returns the bytes read and how it ended. A function of its own for each decoder and
/// output, with few values to keep across the fast path's calls, and which changes to the
/// other decoders do not recompile differently.
#[inline(never)]
fn fast<H: DecodeHandler, S: Sink>(
    h: &mut H,
    src: &[u8],
    sink: &mut S,
    last: bool,
) -> (usize, Fast) {
    let pos = h.run(src, sink);
    if pos == src.len() {
        if !last {
            return (pos, Fast::InputEmpty);
        }
        let snap = *h;
        if h.end() == Step::Finished {
            return (pos, Fast::Finished);
        }
        *h = snap;
    }
    (pos, Fast::Steps)
}

/// [`drive`] for a call after one that stopped at an error (fatal mode), most likely
/// resuming right after it: in error-dense input the next error is a few sequences away, and
/// this call is one of many. Sequences go through [`DecodeHandler::sequence`] in a short loop
/// inlined into `decode_to_*` (no call to enter, no set-up) until the next error; anything
/// else goes on in [`steps`], without the fast path for a while.
#[inline(always)]
pub(crate) fn resume<H: DecodeHandler, S: Sink>(
    h: &mut H,
    replay: &mut Replay,
    src: &[u8],
    sink: &mut S,
    last: bool,
    fatal: bool,
) -> Driven {
    debug_assert!(fatal, "only fatal mode stops at errors");
    let window = replay.resume_window as usize;
    replay.resume_window = 0;
    let mut pos = 0;
    if replay.is_empty() {
        // The handler's state in a local copy (see `byte_steps`).
        let mut state = *h;
        while pos < src.len() && pos < window {
            let snap = state;
            match state.sequence(&src[pos..]) {
                Seq::Emit(cp, n) => {
                    if !sink.put(cp) {
                        // `steps` finds the output full.
                        state = snap;
                        break;
                    }
                    pos += n;
                }
                Seq::Error(n) => {
                    *h = state;
                    replay.resume_window = window as u16;
                    return Driven {
                        status: Status::InputEmpty,
                        read: pos + n,
                        replaced: false,
                        error: true,
                        finished: false,
                    };
                }
                Seq::Bytes => break,
            }
        }
        *h = state;
    }
    steps(h, replay, src, sink, last, fatal, pos, window, window)
}

/// Where [`byte_steps`] stopped.
enum Stop {
    /// At `fast_from` or the end of `src`.
    Window,
    /// Before a step that needs the restore queue: two code points, or an error that restores
    /// bytes of earlier calls.
    General,
    /// Fatal mode: after an error.
    Error,
    /// Before a step whose output does not fit.
    Full,
}

/// The bytes of `src` from `pos` a sequence ([`DecodeHandler::sequence`]) or a byte at a time,
/// until `fast_from` (which each error moves to `window` bytes after it): the steps that need
/// no restore queue (a code point, continue, an error that restores only bytes of `src`).
///
/// The handler works on a local copy of its state, written back once, which stays in registers:
/// in memory, a decoder whose steps store its fields one by one and then copy them whole for
/// the snapshot would wait on those stores at every step (a load that spans several recent
/// stores is not forwarded from them; ISO-2022-JP ran at half of encoding_rs's speed with
/// fewer instructions).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn byte_steps<H: DecodeHandler, S: Sink>(
    h: &mut H,
    src: &[u8],
    pos: &mut usize,
    fast_from: &mut usize,
    window: usize,
    src_start: usize,
    sink: &mut S,
    fatal: bool,
    replaced: &mut bool,
) -> Stop {
    let mut state = *h;
    let stop = loop {
        if *pos >= src.len() || *pos >= *fast_from {
            break Stop::Window;
        }
        let snap = state;
        let at = *pos;
        let code_point = match state.sequence(&src[at..]) {
            Seq::Emit(cp, n) => {
                *pos += n;
                Some(cp)
            }
            Seq::Error(n) => {
                *pos += n;
                None
            }
            Seq::Bytes => {
                *pos += 1;
                // Through a copy: `handle` may not be inlined, and `state` is to stay out of
                // memory.
                let mut copy = state;
                let step = copy.handle(src[at]);
                state = copy;
                match step {
                    Step::Continue => continue,
                    Step::Emit(cp) => Some(cp),
                    Step::Error { n, .. } if n as usize <= *pos - src_start => {
                        *pos -= n as usize;
                        None
                    }
                    _ => {
                        state = snap;
                        *pos = at;
                        break Stop::General;
                    }
                }
            }
        };
        let fitted = match code_point {
            Some(cp) => sink.put(cp),
            None => {
                *fast_from = *pos + window;
                if fatal {
                    break Stop::Error;
                }
                let fitted = sink.put(0xFFFD);
                *replaced |= fitted;
                fitted
            }
        };
        if !fitted {
            state = snap;
            *pos = at;
            break Stop::Full;
        }
    };
    *h = state;
    stop
}

/// The fast path from [`steps`]. A function of its own: inlined, its set-up (tables, vector
/// constants) would be hoisted into the set-up of `steps`, which every call resuming after
/// an error pays.
#[inline(never)]
fn run_again<H: DecodeHandler, S: Sink>(h: &mut H, src: &[u8], sink: &mut S) -> usize {
    h.run(src, sink)
}

/// [`drive`] from `src[pos..]` by the handler's steps, with the fast path tried again from
/// `fast_from` on (it has just declined the byte before, or an error was met less than
/// `window` bytes before: see [`MAX_WINDOW`]). A function of its own: what clean text needs of [`drive`] stays
/// small.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn steps<H: DecodeHandler, S: Sink>(
    h: &mut H,
    replay: &mut Replay,
    src: &[u8],
    sink: &mut S,
    last: bool,
    fatal: bool,
    mut pos: usize,
    mut fast_from: usize,
    mut window: usize,
) -> Driven {
    // Where the current run of bytes taken directly from `src` began: restored bytes before
    // it came from `replay` or from earlier calls.
    let mut src_start = 0usize;
    let mut replaced = false;
    loop {
        if replay.is_empty() {
            if pos >= fast_from {
                let n = run_again(h, &src[pos..], sink);
                pos += n;
                fast_from = pos + 1;
                window = if n < window {
                    (2 * window).min(MAX_WINDOW)
                } else {
                    AFTER_ERROR
                };
            }
            let stop = byte_steps(
                h,
                src,
                &mut pos,
                &mut fast_from,
                window,
                src_start,
                sink,
                fatal,
                &mut replaced,
            );
            match stop {
                Stop::Window if pos < src.len() => continue,
                Stop::Window | Stop::General => {}
                Stop::Error => {
                    replay.resume_window = window as u16;
                    return Driven {
                        status: Status::InputEmpty,
                        read: pos,
                        replaced,
                        error: true,
                        finished: false,
                    };
                }
                Stop::Full => {
                    return Driven {
                        status: Status::OutputFull,
                        read: pos,
                        replaced,
                        error: false,
                        finished: false,
                    };
                }
            }
        }
        let (snap_h, snap_replay, snap_pos) = (*h, *replay, pos);
        let step = if let Some(b) = replay.pop() {
            src_start = pos;
            h.handle(b)
        } else if pos < src.len() {
            let b = src[pos];
            pos += 1;
            h.handle(b)
        } else if last {
            h.end()
        } else {
            return Driven {
                status: Status::InputEmpty,
                read: pos,
                replaced,
                error: false,
                finished: false,
            };
        };
        match step {
            Step::Continue => {}
            Step::Emit(cp) => {
                if !sink.put(cp) {
                    *h = snap_h;
                    *replay = snap_replay;
                    return Driven {
                        status: Status::OutputFull,
                        read: snap_pos,
                        replaced,
                        error: false,
                        finished: false,
                    };
                }
            }
            Step::Emit2(a, b) => {
                if sink.room() < S::units(a) + S::units(b) {
                    *h = snap_h;
                    *replay = snap_replay;
                    return Driven {
                        status: Status::OutputFull,
                        read: snap_pos,
                        replaced,
                        error: false,
                        finished: false,
                    };
                }
                sink.put(a);
                sink.put(b);
            }
            Step::Error { n, bytes } => {
                let n = n as usize;
                let from_src = n.min(pos - src_start);
                pos -= from_src;
                if n > from_src {
                    replay.push_front(&bytes[..n - from_src]);
                    src_start = pos;
                }
                fast_from = pos + window;
                if fatal {
                    replay.resume_window = window as u16;
                    return Driven {
                        status: Status::InputEmpty,
                        read: pos,
                        replaced,
                        error: true,
                        finished: false,
                    };
                }
                if !sink.put(0xFFFD) {
                    *h = snap_h;
                    *replay = snap_replay;
                    return Driven {
                        status: Status::OutputFull,
                        read: snap_pos,
                        replaced,
                        error: false,
                        finished: false,
                    };
                }
                replaced = true;
            }
            Step::Finished => {
                if pos >= src.len() && replay.is_empty() && last {
                    return Driven {
                        status: Status::InputEmpty,
                        read: pos,
                        replaced,
                        error: false,
                        finished: true,
                    };
                }
                // A handler that is finished before end-of-queue (the replacement decoder)
                // ignores the rest of the stream.
                *replay = Replay::default();
                pos = src.len();
                src_start = pos;
            }
        }
    }
}

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

/// Why a streaming call returned.
///
/// ```
/// use textcodec::{Status, UTF_8};
/// let mut d = UTF_8.new_decoder(Default::default());
/// let mut out = [0u8; 2];
/// let src = "añ".as_bytes();
/// let p = d.decode_to_utf8(src, &mut out[..1], true).unwrap();
/// assert_eq!((p.status, p.written), (Status::OutputFull, 1));
/// let p = d.decode_to_utf8(&src[p.read..], &mut out, true).unwrap(); // the rest
/// assert_eq!((p.status, &out[..p.written]), (Status::InputEmpty, "ñ".as_bytes()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// All of `src` was read (a partial sequence at its end is held inside the decoder or
    /// encoder).
    InputEmpty,
    /// `dst` cannot take the next output; call again with `src[read..]` and more room.
    OutputFull,
}

/// The result of a successful streaming call.
///
/// ```
/// let mut d = textcodec::EUC_KR.new_decoder(Default::default());
/// let mut out = [0u8; 16];
/// let p = d.decode_to_utf8(b"\xB0\xA1!", &mut out, true).unwrap();
/// assert_eq!((p.read, p.written, p.replaced), (3, 4, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Why the call returned.
    pub status: Status,
    /// Units of `src` consumed.
    pub read: usize,
    /// Units of `dst` written.
    pub written: usize,
    /// Whether a U+FFFD (decoding) or a numeric character reference (encoding) was written.
    pub replaced: bool,
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
            variant: DecoderVariant::new(encoding),
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
                            self.variant = DecoderVariant::new(enc);
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
