//! Decoding into Python strings: the spec's "decode", `TextDecoder`, and the incremental
//! decoder behind the codec machinery, with Python's error handlers.
//!
//! Error handlers need the exact extent of each malformed sequence, which the core reports
//! by its end (`DecodeError::read`); its start is the last position before that end where the
//! decoder holds no partial sequence, found by replaying the few bytes before the end on
//! clones of the decoder ([`find_start`]). The incremental decoder keeps the same notion: its
//! state is a decoder with nothing pending plus the bytes after it ([`Stream`]), which is also
//! what `getstate()` returns, so `TextIOWrapper.tell()` works.

use std::cell::RefCell;
use std::ffi::CString;

use pyo3::exceptions::{PyIndexError, PyLookupError, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use textcodec::{
    BomHandling, Decoder, DecoderErrorMode, DecoderOptions, Encoding, ISO_2022_JP, REPLACEMENT,
};

use crate::ffi::{self, Bytes, Units};
use crate::text::{write_utf16, Class, Scan};
use crate::{lookup_label, PyEncoding};

/// Bytes before an error's end within which its start lies (the longest malformed sequence
/// of any decoder is four bytes; ISO-2022-JP escapes are three).
const WINDOW: usize = 16;

/// What to do with a malformed sequence.
pub(crate) enum Policy<'py> {
    /// U+FFFD, the spec's replacement mode.
    Replace,
    /// `UnicodeDecodeError`.
    Strict,
    /// A handler registered with `codecs.register_error`.
    Handler(Bound<'py, PyAny>),
}

impl<'py> Policy<'py> {
    pub(crate) fn new(py: Python<'py>, errors: &str) -> PyResult<Self> {
        Ok(match errors {
            "replace" => Policy::Replace,
            "strict" => Policy::Strict,
            _ => Policy::Handler(
                py.import("codecs")?
                    .call_method1("lookup_error", (errors,))?,
            ),
        })
    }
}

thread_local! {
    /// Reused UTF-16 output space of the decoding calls on this thread (zeroed once when it
    /// grows, instead of on every call).
    static SCRATCH: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// Scratch kept between calls is limited to this many units.
const KEEP_SCRATCH: usize = 1 << 22;

/// Decoded text being assembled: UTF-16 units, and Python strings that error handlers gave
/// (which may hold lone surrogates, so they are kept as strings).
pub(crate) struct Out<'py> {
    units: Vec<u16>,
    used: usize,
    pieces: Vec<Bound<'py, PyString>>,
}

impl<'py> Out<'py> {
    pub(crate) fn new() -> Self {
        let units = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
        Out {
            units,
            used: 0,
            pieces: Vec::new(),
        }
    }

    /// Room for `n` more units.
    fn spare(&mut self, n: usize) -> PyResult<&mut [u16]> {
        let need = self
            .used
            .checked_add(n)
            .ok_or_else(|| PyMemoryError::new_err(()))?;
        if self.units.len() < need {
            self.units.resize(
                need.max(2 * self.units.len())
                    .min(need.max(1 << 16) + self.units.len()),
                0,
            );
        }
        Ok(&mut self.units[self.used..need])
    }

    fn commit(&mut self, n: usize) {
        self.used += n;
    }

    fn push_unit(&mut self, u: u16) -> PyResult<()> {
        self.spare(1)?[0] = u;
        self.used += 1;
        Ok(())
    }

    fn push_str(&mut self, py: Python<'py>, s: Bound<'py, PyString>) -> PyResult<()> {
        self.flush(py)?;
        self.pieces.push(s);
        Ok(())
    }

    fn flush(&mut self, py: Python<'py>) -> PyResult<()> {
        if self.used > 0 {
            let units = &self.units[..self.used];
            let s = ffi::string_from_utf16(py, units, Scan::of(units))?;
            self.pieces.push(s);
            self.used = 0;
        }
        Ok(())
    }

    /// The string of `prefix` (Latin-1 characters, one byte each, of class `class`: `Ascii`
    /// or `Latin1`) followed by the units (no handler's strings among them).
    pub(crate) fn finish_after(
        self,
        py: Python<'py>,
        prefix: &[u8],
        class: Class,
    ) -> PyResult<Bound<'py, PyString>> {
        debug_assert!(self.pieces.is_empty());
        let units = &self.units[..self.used];
        let scan = Scan::of(units);
        let p = prefix.len();
        ffi::new_string(
            py,
            p + scan.chars(units.len()),
            class.max(scan.class()),
            |out| match out {
                Units::U8(d) => {
                    let (a, b) = d.split_at_mut(p);
                    a.copy_from_slice(prefix);
                    write_utf16(units, Units::U8(b));
                }
                Units::U16(d) => {
                    let (a, b) = d.split_at_mut(p);
                    for (d, &c) in a.iter_mut().zip(prefix) {
                        *d = u16::from(c);
                    }
                    write_utf16(units, Units::U16(b));
                }
                Units::U32(d) => {
                    let (a, b) = d.split_at_mut(p);
                    for (d, &c) in a.iter_mut().zip(prefix) {
                        *d = u32::from(c);
                    }
                    write_utf16(units, Units::U32(b));
                }
            },
        )
    }

    pub(crate) fn finish(mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        if self.pieces.is_empty() {
            let units = &self.units[..self.used];
            return ffi::string_from_utf16(py, units, Scan::of(units));
        }
        self.flush(py)?;
        let pieces = std::mem::take(&mut self.pieces);
        if pieces.len() == 1 {
            return Ok(pieces.into_iter().next().expect("one piece"));
        }
        let list = PyList::new(py, pieces)?;
        Ok(PyString::new(py, "")
            .call_method1("join", (list,))?
            .cast_into::<PyString>()?)
    }
}

impl Drop for Out<'_> {
    fn drop(&mut self) {
        if self.units.len() <= KEEP_SCRATCH {
            let units = std::mem::take(&mut self.units);
            SCRATCH.with(|s| {
                let mut s = s.borrow_mut();
                if s.len() < units.len() {
                    *s = units;
                }
            });
        }
    }
}

/// Feeds `bytes` to `d` (not the end of the stream), discarding the output.
fn feed(d: &mut Decoder, bytes: &[u8]) {
    let mut buf = [0u16; 64];
    let mut rest = bytes;
    loop {
        match d.decode_to_utf16(rest, &mut buf, false) {
            Ok(p) => {
                rest = &rest[p.read..];
                if p.status == textcodec::Status::InputEmpty {
                    return;
                }
            }
            Err(e) => rest = &rest[e.read..],
        }
    }
}

/// Feeds `bytes` to `d` up to its first error; the bytes read through it, if there is one.
fn until_error(d: &mut Decoder, bytes: &[u8], last: bool) -> Option<usize> {
    let mut buf = [0u16; 64];
    let mut done = 0;
    loop {
        match d.decode_to_utf16(&bytes[done..], &mut buf, last) {
            Ok(p) => {
                done += p.read;
                if p.status == textcodec::Status::InputEmpty {
                    return None;
                }
            }
            Err(e) => return Some(done + e.read),
        }
    }
}

/// Whether `d` holds a partial sequence (the end of the stream now would give output or an
/// error).
pub(crate) fn pending(d: &Decoder) -> bool {
    let mut x = d.clone();
    let mut buf = [0u16; 8];
    match x.decode_to_utf16(&[], &mut buf, true) {
        Ok(p) => p.written > 0 || p.replaced,
        Err(_) => true,
    }
}

/// The start of the malformed sequence that ends at `end`: the last position before `end`
/// where the decoder, started at `clean` (a state with nothing pending at position
/// `clean.1`, with no error between it and `end`), holds nothing pending.
fn find_start(clean: &(Decoder, usize), data: &[u8], end: usize) -> usize {
    let (ref c_dec, c) = *clean;
    let w = c.max(end.saturating_sub(WINDOW));
    let mut at_w = c_dec.clone();
    feed(&mut at_w, &data[c..w]);
    for s in (w..end).rev() {
        let mut d = at_w.clone();
        feed(&mut d, &data[w..s]);
        if !pending(&d) {
            return s;
        }
    }
    // Longer than any malformed sequence: search the rest, from the clean state.
    for s in (c..w).rev() {
        let mut d = c_dec.clone();
        feed(&mut d, &data[c..s]);
        if !pending(&d) {
            return s;
        }
    }
    c
}

fn reason(enc: &'static Encoding) -> &'static std::ffi::CStr {
    if enc == textcodec::UTF_16LE || enc == textcodec::UTF_16BE {
        c"unpaired surrogate or truncated data"
    } else if enc == textcodec::UTF_8 {
        c"invalid utf-8"
    } else if enc == REPLACEMENT {
        c"the replacement encoding decodes any input to one U+FFFD"
    } else if crate::is_single_byte(enc) {
        c"character maps to <undefined>"
    } else {
        c"illegal multibyte sequence"
    }
}

pub(crate) fn decode_error<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    data: &[u8],
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let name = CString::new(enc.name()).expect("no NUL in names");
    Ok(
        pyo3::exceptions::PyUnicodeDecodeError::new(py, &name, data, start..end, reason(enc))?
            .into_any(),
    )
}

/// A handler's `(replacement, new position)`, the position made absolute and checked.
fn handler_result<'py>(
    r: &Bound<'py, PyAny>,
    len: usize,
    what: &str,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let bad = || PyTypeError::new_err(format!("{what} error handler must return (str, int) tuple"));
    let t = r.cast::<PyTuple>().map_err(|_| bad())?;
    if t.len() != 2 {
        return Err(bad());
    }
    let rep = t.get_item(0)?;
    let pos: isize = t.get_item(1)?.extract().map_err(|_| bad())?;
    let abs = if pos < 0 { len as isize + pos } else { pos };
    if abs < 0 || abs as usize > len {
        return Err(PyIndexError::new_err(format!(
            "position {pos} from error handler out of bounds"
        )));
    }
    Ok((rep, abs as usize))
}

/// Where a call left the decoder, for the next call of a stream: a state with nothing
/// pending and the position in `data` from which the rest is still to be decoded.
pub(crate) type Resume = (Decoder, usize);

/// Decodes `data[from..]` with `dec` (in fatal mode, unless `policy` is `Replace`, for which
/// either mode works; BOM handling `Keep`: BOMs are handled by the callers, because
/// [`find_start`] asks clones whether they hold a partial sequence, and a decoder still
/// sniffing holds the bytes that may begin a BOM: "EF BB" before an error would make its start
/// 0), appending to `out`. Returns
/// whether anything was replaced and, unless `last`, where the next call resumes.
pub(crate) fn run<'py>(
    py: Python<'py>,
    dec: &mut Decoder,
    data: &[u8],
    from: usize,
    last: bool,
    policy: &Policy<'py>,
    out: &mut Out<'py>,
) -> PyResult<(bool, Option<Resume>)> {
    // Where the next call resumes matters only when this one does not end the stream.
    let want_resume = !last;
    let len = data.len();
    let mut pos = from;
    let mut clean: (Decoder, usize) = (dec.clone(), from);
    let mut snap: Option<(Decoder, usize)> = None;
    // The resume search replays at most the last WINDOW bytes: the decoder's state there is
    // kept by decoding in two calls.
    let split = if want_resume && len > WINDOW {
        len - WINDOW
    } else {
        0
    };
    let mut replaced = false;
    // The position of a byte that the last error left in the decoder (see below).
    let mut held: Option<usize> = None;
    let mut held_now: Option<usize>;
    loop {
        let stop = if pos < split { split } else { len };
        let src = &data[pos..stop];
        let max = dec
            .max_utf16_buffer_length(src.len())
            .ok_or_else(|| PyMemoryError::new_err("input too long"))?;
        let spare = out.spare(max)?;
        match dec.decode_to_utf16(src, spare, last && stop == len) {
            Ok(p) => {
                out.commit(p.written);
                replaced |= p.replaced;
                pos = stop;
                held = None;
                if stop == len {
                    break;
                }
                snap = Some((dec.clone(), stop));
            }
            Err(e) => {
                out.commit(e.written);
                let mut end = pos + e.read;
                if pos != clean.1 {
                    // This call began inside a character (at the split): bytes that the error
                    // restored may have come from the call before, and be held in the
                    // decoder, uncounted. Decoding again from the clean state in one call
                    // gives the error's exact end, and the decoder after it.
                    let mut again = clean.0.clone();
                    if let Some(read) =
                        until_error(&mut again, &data[clean.1..stop], last && stop == len)
                    {
                        end = clean.1 + read;
                        *dec = again;
                    }
                }
                replaced = true;
                held_now = None;
                if let Policy::Replace = policy {
                    out.push_unit(0xFFFD)?;
                } else {
                    let (start, err_end) = match held.take() {
                        // The error is about the byte an earlier error left in the decoder.
                        Some(h) if e.read == 0 => (h, h + 1),
                        _ => {
                            let start = find_start(&clean, data, end);
                            // ISO-2022-JP reports a lone leading byte when the next byte is
                            // ESC, which it keeps as the start of an escape sequence: the
                            // malformed sequence is the leading byte alone.
                            if dec.encoding() == ISO_2022_JP
                                && end > start + 1
                                && data[end - 1] == 0x1B
                                && pending(dec)
                            {
                                held_now = Some(end - 1);
                                (start, end - 1)
                            } else {
                                (start, end)
                            }
                        }
                    };
                    let exc = decode_error(py, dec.encoding(), data, start, err_end)?;
                    let Policy::Handler(h) = policy else {
                        return Err(PyErr::from_value(exc));
                    };
                    let r = h.call1((exc,))?;
                    let (rep, newpos) = handler_result(&r, len, "decoding")?;
                    let rep = rep.cast_into::<PyString>().map_err(|_| {
                        PyTypeError::new_err("decoding error handler must return (str, int) tuple")
                    })?;
                    out.push_str(py, rep)?;
                    if newpos != err_end {
                        // Resume elsewhere: a new decoder of the encoding in use.
                        *dec = dec.encoding().new_decoder(DecoderOptions {
                            error_mode: DecoderErrorMode::Fatal,
                            bom: BomHandling::Keep,
                        });
                        pos = newpos;
                        clean = (dec.clone(), pos);
                        snap = None;
                        held = None;
                        if pos == len && !last {
                            break;
                        }
                        continue;
                    }
                }
                held = held_now;
                pos = end;
                clean = (dec.clone(), end);
                snap = None;
                if pos == len && !last {
                    break;
                }
            }
        }
    }
    if !want_resume {
        return Ok((replaced, None));
    }
    if !pending(dec) {
        return Ok((replaced, Some((dec.clone(), len))));
    }
    for (state, q) in snap.iter().chain(std::iter::once(&clean)) {
        for s in (*q..len).rev() {
            let mut d = state.clone();
            feed(&mut d, &data[*q..s]);
            if !pending(&d) {
                return Ok((replaced, Some((d, s))));
            }
        }
    }
    Ok((replaced, Some(clean)))
}

/// The encoding to decode `data` with and the length of its BOM to skip: "BOM sniff" for
/// `Sniff`, this encoding's own BOM for `Strip`, none for `Keep`.
pub(crate) fn bom(
    enc: &'static Encoding,
    mode: BomHandling,
    data: &[u8],
) -> (&'static Encoding, usize) {
    match (mode, Encoding::for_bom(data)) {
        (BomHandling::Sniff, Some((found, n))) => (found, n),
        (BomHandling::Strip, Some((found, n))) if found == enc => (enc, n),
        _ => (enc, 0),
    }
}

/// A decoder over a stream of byte chunks, whose state is a decoder with nothing pending
/// (`base`) and the bytes after it (`tail`), which each call decodes again before its input.
#[derive(Clone)]
pub(crate) struct Stream {
    encoding: &'static Encoding,
    bom: BomHandling,
    base: Decoder,
    tail: Vec<u8>,
    /// No byte has been decoded since the start (or `reset`).
    fresh: bool,
}

fn fatal(enc: &'static Encoding, bom: BomHandling) -> Decoder {
    enc.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Fatal,
        bom,
    })
}

/// ISO-2022-JP decoder states ("ISO-2022-JP decoder state" with nothing pending, and the
/// "ISO-2022-JP output flag"), told apart by what a clone decodes.
fn iso2022jp_state(d: &Decoder) -> u64 {
    let mut x = d.clone();
    let mut buf = [0u16; 8];
    let mode = match x.decode_to_utf16(b"\x5C", &mut buf, false) {
        Ok(p) if p.written == 1 && buf[0] == 0x5C => 0, // ASCII
        Ok(p) if p.written == 1 && buf[0] == 0xA5 => 1, // Roman
        Ok(p) if p.written == 1 && buf[0] == 0xFF9C => 2, // Katakana
        _ => 3,                                         // lead byte (JIS X 0208)
    };
    let mut x = d.clone();
    let flag = u64::from(x.decode_to_utf16(b"\x1B(B", &mut buf, false).is_err());
    mode + 4 * flag
}

fn iso2022jp_decoder(state: u64) -> Decoder {
    let mut d = fatal(ISO_2022_JP, BomHandling::Keep);
    let (escape, one): (&[u8], &[u8]) = match state % 4 {
        0 => (b"\x1B(B", b"!"),
        1 => (b"\x1B(J", b"!"),
        2 => (b"\x1B(I", b"!"),
        _ => (b"\x1B$B", b"!!"),
    };
    feed(&mut d, escape); // sets the output flag
    if state / 4 == 0 {
        feed(&mut d, one); // output unsets it
    }
    d
}

impl Stream {
    pub(crate) fn new(encoding: &'static Encoding, bom: BomHandling) -> Self {
        Stream {
            encoding,
            bom,
            base: fatal(encoding, BomHandling::Keep),
            tail: Vec::new(),
            fresh: true,
        }
    }

    /// Whether `data`, at the start of the stream, may still become a BOM this stream
    /// handles.
    fn bom_pending(&self, data: &[u8]) -> bool {
        let prefixes: &[&[u8]] = match self.bom {
            BomHandling::Keep => &[],
            BomHandling::Sniff => &[b"\xEF", b"\xEF\xBB", b"\xFF", b"\xFE"],
            BomHandling::Strip if self.encoding == textcodec::UTF_8 => &[b"\xEF", b"\xEF\xBB"],
            BomHandling::Strip if self.encoding == textcodec::UTF_16LE => &[b"\xFF"],
            BomHandling::Strip if self.encoding == textcodec::UTF_16BE => &[b"\xFE"],
            BomHandling::Strip => &[],
        };
        data.is_empty() && !prefixes.is_empty() || prefixes.contains(&data)
    }

    pub(crate) fn reset(&mut self) {
        *self = Stream::new(self.encoding, self.bom);
    }

    /// Decodes `input` after what came before; `last` ends the stream (and resets it).
    /// On an error the stream is left as it was before the call.
    pub(crate) fn decode<'py>(
        &mut self,
        py: Python<'py>,
        input: &[u8],
        last: bool,
        policy: &Policy<'py>,
    ) -> PyResult<Bound<'py, PyString>> {
        let joined;
        let data = if self.tail.is_empty() {
            input
        } else {
            joined = [self.tail.as_slice(), input].concat();
            &joined
        };
        let (mut dec, from) = if self.fresh {
            if !last && self.bom_pending(data) {
                self.tail = data.to_vec();
                return Ok(PyString::new(py, ""));
            }
            let (enc, skip) = bom(self.encoding, self.bom, data);
            (fatal(enc, BomHandling::Keep), skip)
        } else {
            (self.base.clone(), 0)
        };
        let mut out = Out::new();
        let (_, resume) = run(py, &mut dec, data, from, last, policy, &mut out)?;
        let text = out.finish(py)?;
        match resume {
            Some((base, at)) => {
                self.fresh = false;
                self.base = base;
                self.tail = data[at..].to_vec();
            }
            None => self.reset(),
        }
        Ok(text)
    }

    /// `(bytes still to decode, flags)`, as `codecs.IncrementalDecoder.getstate()`.
    pub(crate) fn getstate(&self) -> (Vec<u8>, u64) {
        if self.fresh {
            return (self.tail.clone(), 0);
        }
        let enc = self.base.encoding();
        let index = Encoding::all()
            .iter()
            .position(|e| *e == enc)
            .expect("one of all()") as u64;
        let iso = if enc == ISO_2022_JP {
            iso2022jp_state(&self.base)
        } else if enc == REPLACEMENT {
            // Whether its one error was returned already (input after it decodes to nothing).
            let mut x = self.base.clone();
            let mut buf = [0u16; 4];
            u64::from(matches!(x.decode_to_utf16(b"x", &mut buf, false), Ok(p) if p.written == 0))
        } else {
            0
        };
        (self.tail.clone(), 1 + 8 * index + iso)
    }

    pub(crate) fn setstate(&mut self, tail: &[u8], flags: u64) -> PyResult<()> {
        let base = if flags == 0 {
            fatal(self.encoding, BomHandling::Keep)
        } else {
            let index = ((flags - 1) / 8) as usize;
            let Some(&enc) = Encoding::all().get(index) else {
                return Err(PyValueError::new_err("invalid decoder state"));
            };
            if enc == ISO_2022_JP {
                iso2022jp_decoder((flags - 1) % 8)
            } else if enc == REPLACEMENT && (flags - 1) % 8 == 1 {
                let mut d = fatal(enc, BomHandling::Keep);
                feed(&mut d, b"x");
                d
            } else {
                fatal(enc, BomHandling::Keep)
            }
        };
        self.base = base;
        self.tail = tail.to_vec();
        self.fresh = flags == 0;
        Ok(())
    }
}

/// Decodes all of `data` with a new decoder of `enc` in replacement mode (BOM handling
/// `Keep`) into `out`; returns whether anything was replaced. Long immutable input is
/// decoded without the GIL (`out` is our own buffer).
pub(crate) fn utf16_replace(
    py: Python<'_>,
    enc: &'static Encoding,
    data: &[u8],
    immutable: bool,
    out: &mut Out<'_>,
) -> PyResult<bool> {
    let mut dec = enc.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Replacement,
        bom: BomHandling::Keep,
    });
    let max = dec
        .max_utf16_buffer_length(data.len())
        .ok_or_else(|| PyMemoryError::new_err("input too long"))?;
    let spare = out.spare(max)?;
    // A decoder in replacement mode never fails.
    let r = crate::detach_if(py, immutable && data.len() > crate::DETACH_BYTES, || {
        dec.decode_to_utf16(data, spare, true)
    });
    match r {
        Ok(p) => {
            out.commit(p.written);
            Ok(p.replaced)
        }
        Err(_) => Err(PyMemoryError::new_err("replacement mode failed")),
    }
}

/// Decodes a whole input in replacement mode straight into a string: the spec's "decode"
/// with `bom: Sniff`. Returns the string, the encoding used and whether anything was replaced
/// (found out for the single-byte encodings only if `want_replaced`).
pub(crate) fn decode_replace<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    data: &[u8],
    immutable: bool,
    bom: BomHandling,
    want_replaced: bool,
) -> PyResult<(Bound<'py, PyString>, &'static Encoding, bool)> {
    let (enc, skip) = self::bom(enc, bom, data);
    let data = &data[skip..];
    if enc == textcodec::UTF_8 {
        let (s, replaced) = crate::utf8::decode(py, data, immutable)?;
        return Ok((s, enc, replaced));
    }
    if crate::is_single_byte(enc) {
        if let Some((s, replaced)) = crate::single::decode(py, enc, data, want_replaced)? {
            return Ok((s, enc, replaced));
        }
    }
    if let Some(s) = crate::fast::ascii(py, enc, data)? {
        return Ok((s, enc, false));
    }
    let mut out = Out::new();
    let replaced = utf16_replace(py, enc, data, immutable, &mut out)?;
    Ok((out.finish(py)?, enc, replaced))
}

/// The spec's "decode" with any error policy.
pub(crate) fn decode_any<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    data: &[u8],
    immutable: bool,
    errors: &str,
) -> PyResult<Bound<'py, PyString>> {
    let policy = Policy::new(py, errors)?;
    if let Policy::Replace = policy {
        return Ok(decode_replace(py, enc, data, immutable, BomHandling::Sniff, false)?.0);
    }
    if let Some(s) = crate::fast::ascii(py, enc, data)? {
        return Ok(s);
    }
    let (enc, skip) = bom(enc, BomHandling::Sniff, data);
    let mut dec = fatal(enc, BomHandling::Keep);
    let mut out = Out::new();
    run(py, &mut dec, data, skip, true, &policy, &mut out)?;
    out.finish(py)
}

/// `textcodec.decode(data, label="utf-8", errors="replace")`: the spec's "decode" (a BOM wins
/// over the label). A `METH_FASTCALL` function (see [`ffi::FastMethodDef`]): the call costs
/// about as much as one of `bytes.decode`.
pub(crate) static DECODE: ffi::FastMethodDef =
    ffi::FastMethodDef::new(c"decode", decode_fastcall, DECODE_DOC);

const DECODE_DOC: &std::ffi::CStr = cr#"decode(data, label='utf-8', errors='replace')
--

The spec's "decode" (a BOM wins over the label). errors: "replace", "strict" or any name
registered with codecs.register_error; LookupError for an unknown label.

>>> textcodec.decode(b"caf\xe9", "latin1")  # the Web's latin1 is windows-1252
'café'
>>> textcodec.decode(b"\x82\xa0\x80", "shift_jis")
'あ\x80'"#;

/// # Safety
/// Called by CPython as a `METH_FASTCALL | METH_KEYWORDS` function.
unsafe extern "C" fn decode_fastcall(
    _module: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: CPython's calling convention for this function (the caller's contract).
    unsafe {
        ffi::fastcall(
            "decode",
            ["data", "label", "errors"],
            args,
            nargs,
            kwnames,
            |py, [data, label, errors]| {
                let data = data.ok_or_else(|| {
                    PyTypeError::new_err("decode() missing required argument 'data' (pos 1)")
                })?;
                let label = label.filter(|l| !l.is_none());
                let errors = match &errors {
                    None => "replace",
                    Some(e) => ffi::utf8_of(crate::expect_str(e)?).unwrap_or(""),
                };
                Ok(decode(py, &data, label.as_ref(), errors)?.into_any())
            },
        )
    }
}

/// `textcodec.decode`, its arguments parsed.
fn decode<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
) -> PyResult<Bound<'py, PyString>> {
    let enc = crate::label_or_utf8(label)?;
    let bytes = Bytes::new(data)?;
    decode_any(py, enc, bytes.as_slice(), bytes.is_immutable(), errors)
}

/// `textcodec.decode_with_encoding(data, label="utf-8")`: the spec's "decode" in replacement
/// mode; returns `(text, encoding used, had errors)`.
///
/// >>> textcodec.decode_with_encoding(b"\xff\xfeh\x00i\x00", "windows-1252")
/// ('hi', <Encoding UTF-16LE>, False)
#[pyfunction]
#[pyo3(signature = (data, label = None))]
pub(crate) fn decode_with_encoding<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyString>, PyEncoding, bool)> {
    let enc = crate::label_or_utf8(label)?;
    let bytes = Bytes::new(data)?;
    let (s, used, replaced) = decode_replace(
        py,
        enc,
        bytes.as_slice(),
        bytes.is_immutable(),
        BomHandling::Sniff,
        true,
    )?;
    Ok((s, PyEncoding(used), replaced))
}

/// The JavaScript `TextDecoder`.
///
/// >>> d = textcodec.TextDecoder("euc-jp")
/// >>> d.decode(b"\xa4", stream=True) + d.decode(b"\xa2")
/// 'あ'
#[pyclass(name = "TextDecoder", module = "textcodec")]
pub(crate) struct TextDecoder {
    enc: &'static Encoding,
    fatal: bool,
    ignore_bom: bool,
    stream: Stream,
    do_not_flush: bool,
}

#[pymethods]
impl TextDecoder {
    #[new]
    #[pyo3(signature = (label = None, *, fatal = false, ignore_bom = false))]
    fn new(label: Option<&Bound<'_, PyAny>>, fatal: bool, ignore_bom: bool) -> PyResult<Self> {
        let enc = crate::label_or_utf8(label)?;
        if enc == REPLACEMENT {
            return Err(PyLookupError::new_err(format!(
                "unknown encoding: {} (TextDecoder refuses the replacement encoding)",
                label.map(|l| l.to_string()).unwrap_or_default()
            )));
        }
        let bom = if ignore_bom {
            BomHandling::Keep
        } else {
            BomHandling::Strip
        };
        Ok(TextDecoder {
            enc,
            fatal,
            ignore_bom,
            stream: Stream::new(enc, bom),
            do_not_flush: false,
        })
    }

    /// The encoding's name in lower case, as in JavaScript: `"shift_jis"`.
    #[getter]
    fn encoding(&self) -> String {
        self.enc.name().to_ascii_lowercase()
    }

    #[getter]
    fn fatal(&self) -> bool {
        self.fatal
    }

    #[getter]
    fn ignore_bom(&self) -> bool {
        self.ignore_bom
    }

    /// Decodes `data`; with `stream=True` a partial sequence at its end waits for the next
    /// call. With `fatal=True` a malformed sequence raises `UnicodeDecodeError` (JavaScript's
    /// TypeError).
    #[pyo3(signature = (data = None, *, stream = false))]
    fn decode<'py>(
        &mut self,
        py: Python<'py>,
        data: Option<&Bound<'py, PyAny>>,
        stream: bool,
    ) -> PyResult<Bound<'py, PyString>> {
        if !self.do_not_flush {
            self.stream.reset();
        }
        self.do_not_flush = stream;
        let bytes = data.map(Bytes::new).transpose()?;
        let input = bytes.as_ref().map_or(&[][..], |b| b.as_slice());
        let policy = if self.fatal {
            Policy::Strict
        } else {
            Policy::Replace
        };
        let r = self.stream.decode(py, input, !stream, &policy);
        if r.is_err() {
            self.stream.reset();
            self.do_not_flush = false;
        }
        r
    }

    fn __repr__(&self) -> String {
        format!(
            "TextDecoder({:?}, fatal={}, ignore_bom={})",
            self.encoding(),
            if self.fatal { "True" } else { "False" },
            if self.ignore_bom { "True" } else { "False" }
        )
    }
}

/// The incremental decoder behind `register()`: the spec's "decode" (BOM sniffing) over
/// chunks, with any error handler, `getstate`/`setstate` for `TextIOWrapper.tell`/`seek`.
#[pyclass(name = "_IncrementalDecoder", module = "textcodec")]
pub(crate) struct IncrementalDecoder {
    stream: Stream,
}

#[pymethods]
impl IncrementalDecoder {
    #[new]
    fn new(label: &Bound<'_, PyAny>) -> PyResult<Self> {
        let enc = lookup_label(label)?;
        Ok(IncrementalDecoder {
            stream: Stream::new(enc, BomHandling::Sniff),
        })
    }

    #[pyo3(signature = (data, r#final = false, errors = "strict"))]
    fn decode<'py>(
        &mut self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        r#final: bool,
        errors: &str,
    ) -> PyResult<Bound<'py, PyString>> {
        let policy = Policy::new(py, errors)?;
        let bytes = Bytes::new(data)?;
        self.stream.decode(py, bytes.as_slice(), r#final, &policy)
    }

    fn reset(&mut self) {
        self.stream.reset();
    }

    fn getstate<'py>(&self, py: Python<'py>) -> (Bound<'py, pyo3::types::PyBytes>, u64) {
        let (tail, flags) = self.stream.getstate();
        (pyo3::types::PyBytes::new(py, &tail), flags)
    }

    fn setstate(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let (tail, flags): (Vec<u8>, u64) = state
            .extract()
            .map_err(|_| PyTypeError::new_err("decoder state must be a (bytes, int) tuple"))?;
        self.stream.setstate(&tail, flags)
    }
}
