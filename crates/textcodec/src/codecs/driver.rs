//! The codec-facing driver: the machinery shared by every decoder and every encoder, written
//! once and monomorphised for each codec. The public [`Decoder`](crate::Decoder) and
//! [`Encoder`](crate::Encoder) call it through the enum dispatch of [`super`].
//!
//! ## Decoding
//!
//! Each codec supplies a [`DecodeHandler`], a faithful transcription of the spec's decoder
//! *handler* ("Encoders and decoders"), plus an optional fast path for its common case. This
//! module is written once for all of them:
//!
//! - the *I/O queue* of the spec, including "restore" (bytes pushed back to the front of the
//!   input) across call boundaries;
//! - "process an item" with its error modes (replacement and fatal);
//! - exact output-buffer bookkeeping for UTF-8 and UTF-16 targets;
//! - error-dense input: after an error, a window of the handler's own steps (a whole sequence
//!   at a time) before the codec's fast path is tried again, and a short way in for a call that
//!   resumes after a fatal error ([`resume`]).
//!
//! A step whose output does not fit is rolled back (handler state, restore queue and input
//! position are all small `Copy` values), so no output is ever held back inside the decoder
//! and `read`/`written` always describe the same boundary.
//!
//! ## Encoding
//!
//! Each codec supplies an [`EncodeHandler`], the spec's encoder *handler*, plus optional fast
//! paths. This module implements "process an item" for encoders once: the html and fatal error
//! modes, ISO-2022-JP's "restore code point" (an escape sequence followed by the same code
//! point again), the end-of-queue flush, surrogate handling for UTF-16 input, and exact output
//! bookkeeping (a step that does not fit is rolled back whole).

use super::handles::{Sink, Source};
use crate::status::Status;

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

/// What an encoder handler returns for one scalar value or for end-of-queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EncStep {
    /// One to four bytes.
    Bytes { buf: [u8; 4], len: u8 },
    /// Three bytes (an escape sequence), after which the same item is processed again: the
    /// spec's "restore codePoint to ioQueue ... return three bytes".
    Again([u8; 3]),
    /// "error" with this code point.
    Error(u32),
    /// "finished".
    Finished,
}

impl EncStep {
    #[inline(always)]
    pub(crate) fn one(b: u8) -> EncStep {
        EncStep::Bytes {
            buf: [b, 0, 0, 0],
            len: 1,
        }
    }
}

/// An encoder handler: the state and per-item algorithm of one encoder of the spec.
pub(crate) trait EncodeHandler: Copy {
    /// The handler for one scalar value.
    fn handle(&mut self, code_point: u32) -> EncStep;
    /// The handler for end-of-queue.
    fn end(&mut self) -> EncStep {
        EncStep::Finished
    }
    /// Fast path over UTF-8 input: encodes a prefix of `src` without errors into `dst`,
    /// exactly as [`handle`](Self::handle) would; returns (bytes read, bytes written). Stops at
    /// a character boundary before anything it does not handle.
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize);
    /// Fast path over UTF-16 input, like [`run_utf8`](Self::run_utf8).
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize);
}

/// An encoder's input as the driver runs it: a [`Source`] whose form picks the handler's fast
/// path.
pub(crate) trait EncoderInput: Source {
    /// The handler's fast path over the input from `pos` on: (units read, bytes written).
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize);
}

impl EncoderInput for &str {
    #[inline(always)]
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize) {
        h.run_utf8(&self[pos..], dst)
    }
}

impl EncoderInput for &[u16] {
    #[inline(always)]
    fn run<H: EncodeHandler>(&self, h: &mut H, pos: usize, dst: &mut [u8]) -> (usize, usize) {
        h.run_utf16(&self[pos..], dst)
    }
}

/// The outcome of processing one item.
enum One {
    Done,
    /// Html mode: an error, its numeric character reference written.
    Referenced,
    Full,
    Fail(u32),
}

/// Writes `&#N;` for `cp` at `dst[w..]` if it fits whole; returns the bytes written: html
/// mode's step for an error, the spec's "process an item": "Prepend 0x26 (&), 0x23 (#),
/// followed by the shortest sequence of 0x30 (0) to 0x39 (9), inclusive, representing
/// result's code point's value in base ten, followed by 0x3B (;) to output".
///
/// `w` goes in and the count comes out by value: this function stays out of line, and a
/// `&mut usize` would make the driver keep its output position in memory across the whole
/// loop, not only at this call.
fn write_ncr(cp: u32, dst: &mut [u8], w: usize) -> Option<usize> {
    // The number of digits first (a scalar value has at most seven), then the digits from the
    // last, in place: no buffer of digits to reverse.
    let digits = match cp {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1_000..=9_999 => 4,
        10_000..=99_999 => 5,
        100_000..=999_999 => 6,
        _ => 7,
    };
    let total = digits + 3;
    let out = dst.get_mut(w..)?.get_mut(..total)?;
    out[0] = b'&';
    out[1] = b'#';
    // Two digits at a time from the last: half the divisions.
    let mut v = cp as usize;
    let mut end = total - 1;
    while v >= 100 {
        let pair = v % 100;
        v /= 100;
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[2 * pair..2 * pair + 2]);
        end -= 2;
    }
    if v >= 10 {
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[2 * v..2 * v + 2]);
    } else {
        out[end - 1] = b'0' + v as u8;
    }
    out[total - 1] = b';';
    Some(total)
}

/// The decimal digits of 0 to 99, two each ("00", "01", ... "99").
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

#[inline(always)]
fn put(bytes: &[u8], dst: &mut [u8], w: &mut usize) -> bool {
    match dst.get_mut(*w..*w + bytes.len()) {
        Some(out) => {
            out.copy_from_slice(bytes);
            *w += bytes.len();
            true
        }
        None => false,
    }
}

/// "Process an item" for one scalar value (or end-of-queue when `cp` is `None`), with
/// rollback when the output does not fit.
#[inline(always)]
fn process<H: EncodeHandler>(
    h: &mut H,
    cp: Option<u32>,
    dst: &mut [u8],
    w: &mut usize,
    html: bool,
    replaced: &mut bool,
) -> One {
    let (mut snap_h, mut snap_w) = (*h, *w);
    loop {
        let step = match cp {
            Some(c) => h.handle(c),
            None => h.end(),
        };
        let ok = match step {
            EncStep::Bytes { buf, len } => {
                if put(&buf[..len as usize], dst, w) {
                    return One::Done;
                }
                false
            }
            EncStep::Again(esc) => {
                // The escape sequence is a step of its own: once written, it stays written
                // even if what follows must wait for more room (the item is then processed
                // again, in the new state, by the next call).
                let ok = put(&esc, dst, w);
                if ok {
                    (snap_h, snap_w) = (*h, *w);
                }
                ok
            }
            EncStep::Error(e) => {
                if !html {
                    return One::Fail(e);
                }
                if let Some(n) = write_ncr(e, dst, *w) {
                    *w += n;
                    *replaced = true;
                    return One::Referenced;
                }
                false
            }
            EncStep::Finished => return One::Done,
        };
        if !ok {
            *h = snap_h;
            *w = snap_w;
            return One::Full;
        }
    }
}

pub(crate) struct EncDriven {
    pub(crate) status: Status,
    pub(crate) read: usize,
    pub(crate) written: usize,
    pub(crate) replaced: bool,
    pub(crate) error: Option<u32>,
    /// A leading surrogate at the end of UTF-16 input was read and is held.
    pub(crate) hold_high: bool,
    /// The `first` item was not processed (no room for it); it must stay held.
    pub(crate) first_pending: bool,
}

/// "Process a queue" for one call of an encoder.
#[inline(always)]
pub(crate) fn drive_encoder<H: EncodeHandler, Src: EncoderInput>(
    h: &mut H,
    src: Src,
    first: Option<u32>,
    dst: &mut [u8],
    last: bool,
    html: bool,
) -> EncDriven {
    let mut w = 0usize;
    let mut pos = 0usize;
    let mut replaced = false;
    let done = |status, read, written, replaced, error| EncDriven {
        status,
        read,
        written,
        replaced,
        error,
        hold_high: false,
        first_pending: false,
    };
    if let Some(cp) = first {
        match process(h, Some(cp), dst, &mut w, html, &mut replaced) {
            One::Done | One::Referenced => {}
            One::Full => {
                let mut d = done(Status::OutputFull, 0, w, replaced, None);
                d.first_pending = true;
                return d;
            }
            One::Fail(e) => return done(Status::InputEmpty, 0, w, replaced, Some(e)),
        }
    }
    let len = src.len();
    'fast: loop {
        let (r, n) = src.run(h, pos, &mut dst[w..]);
        pos += r;
        w += n;
        loop {
            if pos >= len {
                break 'fast;
            }
            let Some((cp, next)) = src.next(pos, last) else {
                // A leading surrogate ends the input: hold it.
                let mut d = done(Status::InputEmpty, len, w, replaced, None);
                d.hold_high = true;
                return d;
            };
            match process(h, Some(cp), dst, &mut w, html, &mut replaced) {
                One::Done => pos = next,
                One::Referenced => {
                    pos = next;
                    // Unmappable characters often come together (a word of another
                    // script): a non-ASCII one after a reference is the driver's too, and
                    // the fast path, which would stop at it at once, is not entered for it.
                    if pos < len && src.unit(pos) >= 0x80 {
                        continue;
                    }
                }
                One::Full => return done(Status::OutputFull, pos, w, replaced, None),
                One::Fail(e) => return done(Status::InputEmpty, next, w, replaced, Some(e)),
            }
            continue 'fast;
        }
    }
    if last {
        match process(h, None, dst, &mut w, html, &mut replaced) {
            One::Done | One::Referenced => {}
            One::Full => return done(Status::OutputFull, pos, w, replaced, None),
            One::Fail(e) => return done(Status::InputEmpty, pos, w, replaced, Some(e)),
        }
    }
    done(Status::InputEmpty, pos, w, replaced, None)
}
