//! `decode_many` and `encode_many`: many inputs in one call, decoded or encoded without the
//! GIL, on several threads for large batches, each row with the same label or its own.
//!
//! Lists: the rows are decoded, without the GIL, chunk by chunk into arenas that hold each
//! row in the form of the string CPython will keep (`row.rs`); each chunk's strings are then
//! made with the GIL (one allocation and one copy each). On several threads, the calling
//! thread and threads of a pool kept from one call to the next (`pool.rs`) take the chunks in
//! turn; the calling thread, with the GIL, also allocates the strings of each chunk a pool
//! thread has decoded, and that thread copies their characters, without the GIL, from its
//! arena ([`ffi::Blank`]) (see [`List::pipeline`]). `encode_many` on several threads
//! allocates its bytes objects on the calling thread and copies their bytes on the threads
//! ([`ffi::BlankBytes`]). pyarrow arrays: see `arrow.rs`.

use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use pyo3::exceptions::{PyLookupError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use textcodec::{Encoder, EncoderErrorMode, Encoding, ISO_2022_JP};

use crate::ffi::{self, Bytes, SendSlice};
use crate::pool;
use crate::row::{self, Arena, RowText};
use crate::{expect_str, PyEncoding};

/// Batches with fewer input bytes than this run on one thread.
pub(crate) const PARALLEL_BYTES: usize = 1 << 18;

/// The encoding of each row.
#[derive(Clone, Copy)]
pub(crate) enum Encs<'a> {
    One(&'static Encoding),
    PerRow(&'a [&'static Encoding]),
}

impl Encs<'_> {
    pub(crate) fn get(&self, i: usize) -> &'static Encoding {
        match self {
            Encs::One(e) => e,
            Encs::PerRow(v) => v[i],
        }
    }
}

/// Resolves labels with a cache (crawl data repeats a few labels many times).
#[derive(Default)]
pub(crate) struct LabelCache(HashMap<Vec<u8>, Option<&'static Encoding>>);

impl LabelCache {
    pub(crate) fn get(&mut self, label: &[u8]) -> Option<&'static Encoding> {
        if let Some(&e) = self.0.get(label) {
            return e;
        }
        let e = Encoding::for_label(label);
        self.0.insert(label.to_vec(), e);
        e
    }
}

pub(crate) fn unknown_row(row: usize, label: &str) -> PyErr {
    PyLookupError::new_err(format!("row {row}: unknown encoding: {label}"))
}

/// How many label objects `resolve_labels` remembers.
const SEEN_LABELS: usize = 16;

/// The labels argument: one label, or one per row (a sequence or a pyarrow array).
pub(crate) fn resolve_labels(
    py: Python<'_>,
    label: Option<&Bound<'_, PyAny>>,
    n: usize,
) -> PyResult<Option<Vec<&'static Encoding>>> {
    let Some(label) = label else { return Ok(None) };
    if label.is_instance_of::<PyString>() || label.cast::<PyEncoding>().is_ok() {
        return Ok(None);
    }
    if crate::arrow::is_arrow(label)? {
        return crate::arrow::labels(py, label, n).map(Some);
    }
    let seq = label.try_iter().map_err(|_| {
        PyTypeError::new_err("label must be a str or a sequence of str, one per row")
    })?;
    let mut cache = LabelCache::default();
    // The label objects last seen (a batch's labels are usually a few objects, each repeated
    // many times), kept alive so that their addresses stay theirs.
    let mut seen: Vec<(Bound<'_, PyAny>, &'static Encoding)> = Vec::new();
    let mut out = Vec::with_capacity(n);
    for (i, item) in seq.enumerate() {
        ffi::prefetch_item(label, i + PREFETCH_ROWS);
        let item = item?;
        if let Some(&(_, e)) = seen.iter().find(|(o, _)| o.is(&item)) {
            out.push(e);
            continue;
        }
        let enc = if let Ok(e) = item.cast::<PyEncoding>() {
            e.get().0
        } else if let Ok(s) = item.cast::<PyString>() {
            let text = ffi::utf8_of(s).ok_or_else(|| unknown_row(i, &s.to_string_lossy()))?;
            cache
                .get(text.as_bytes())
                .ok_or_else(|| unknown_row(i, text))?
        } else if item.is_none() {
            return Err(PyLookupError::new_err(format!("row {i}: no label (None)")));
        } else {
            return Err(PyTypeError::new_err(format!(
                "row {i}: a label must be a str, not '{}'",
                item.get_type().name()?
            )));
        };
        if seen.len() == SEEN_LABELS {
            seen.remove(0);
        }
        seen.push((item, enc));
        out.push(enc);
    }
    if out.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} labels for {n} rows: give one label, or one per row",
            out.len()
        )));
    }
    Ok(Some(out))
}

/// How many threads to use for `bytes` of input in `rows` rows.
pub(crate) fn thread_count(threads: Option<usize>, bytes: usize, rows: usize) -> PyResult<usize> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let want = threads.unwrap_or_else(|| {
        if bytes < PARALLEL_BYTES {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    });
    Ok(want.min(rows).max(1))
}

/// Runs `f` over `weights.len()` rows split into `threads` contiguous ranges of about equal
/// weight, each on its own thread (the first on the calling one); results in row order. A
/// panic on a thread is resumed on the caller (and becomes a Python exception there).
pub(crate) fn parallel<T: Send>(
    weights: &[usize],
    threads: usize,
    f: impl Fn(Range<usize>) -> T + Sync,
) -> Vec<T> {
    let n = weights.len();
    if threads <= 1 || n <= 1 {
        return vec![f(0..n)];
    }
    let total: usize = weights.iter().sum::<usize>() + n;
    let mut ranges = Vec::with_capacity(threads);
    let (mut start, mut acc, mut k) = (0, 0usize, 1);
    for (i, w) in weights.iter().enumerate() {
        acc += w + 1;
        if acc * threads >= total * k && k < threads {
            ranges.push(start..i + 1);
            start = i + 1;
            k += 1;
        }
    }
    ranges.push(start..n);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = ranges[1..]
            .iter()
            .cloned()
            .map(|r| s.spawn(move || f(r)))
            .collect();
        let mut out = vec![f(ranges[0].clone())];
        for h in handles {
            match h.join() {
                Ok(v) => out.push(v),
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        out
    })
}

/// Whether `enc`'s decoder maps ASCII `row` to itself.
pub(crate) fn ascii_passthrough(enc: &'static Encoding, row: &[u8]) -> bool {
    enc.is_ascii_compatible() && enc != ISO_2022_JP && row.is_ascii()
}

/// A row of a list: its bytes (borrowed from an immutable `bytes`, or copied).
pub(crate) struct Rows<'py> {
    _views: Vec<Bytes<'py>>,
    _owned: Vec<Vec<u8>>,
    pub(crate) slices: Vec<SendSlice>,
}

/// How far ahead of the row it reads `list_rows` prefetches the rows' objects.
const PREFETCH_ROWS: usize = 8;

fn list_rows<'py>(items: &Bound<'py, PyAny>) -> PyResult<Rows<'py>> {
    if items.is_instance_of::<PyString>() || items.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "items must be a sequence of bytes-like objects, not a single one",
        ));
    }
    let iter = items.try_iter().map_err(|_| {
        PyTypeError::new_err(
            "items must be a sequence of bytes-like objects or a pyarrow binary array",
        )
    })?;
    let mut rows = Rows {
        _views: Vec::new(),
        _owned: Vec::new(),
        slices: Vec::new(),
    };
    for (i, item) in iter.enumerate() {
        ffi::prefetch_item(items, i + PREFETCH_ROWS);
        let item = item?;
        let b = Bytes::new(&item)
            .map_err(|e| PyTypeError::new_err(format!("row {i}: {}", e.value(items.py()))))?;
        if b.is_immutable() {
            rows.slices.push(b.send_slice());
            rows._views.push(b);
        } else {
            // Mutable buffers are copied: another thread could change them while we read.
            let v = b.as_slice().to_vec();
            rows.slices.push(SendSlice(v.as_ptr(), v.len()));
            rows._owned.push(v);
        }
    }
    Ok(rows)
}

fn add_row_note(py: Python<'_>, err: PyErr, row: usize) -> PyErr {
    let v = err.value(py);
    if v.hasattr("add_note").unwrap_or(false) {
        let _ = v.call_method1("add_note", (format!("in row {row}"),));
    }
    err
}

/// `textcodec.decode_many(items, label="utf-8", errors="replace", *, threads=None)`.
///
/// `items`: a sequence of bytes-like objects (gives `list[str]`), or a pyarrow
/// Binary/LargeBinary array or chunked array (gives the String/LargeString equivalent, nulls
/// kept). `label`: one for every row, or one per row (a sequence of str or a pyarrow string
/// array of the same length). `threads`: how many threads (default: all cores for large
/// batches; for lists, the calling thread and threads kept for the next calls until idle for
/// 2 seconds).
///
/// >>> textcodec.decode_many([b"caf\xe9", b"\x82\xa0"], ["latin1", "sjis"])
/// ['café', 'あ']
#[pyfunction]
#[pyo3(signature = (items, label = None, errors = "replace", *, threads = None))]
pub(crate) fn decode_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    if crate::arrow::is_arrow(items)? {
        return crate::arrow::decode_many(py, items, label, errors, threads);
    }
    let mut rows = list_rows(items)?;
    let n = rows.slices.len();
    let one = one_label(label)?;
    let per_row = resolve_labels(py, label, n)?;
    let policy = crate::decode::Policy::new(py, errors)?;
    if let crate::decode::Policy::Handler(_) = policy {
        let encs = match &per_row {
            Some(v) => Encs::PerRow(v),
            None => Encs::One(one),
        };
        let mut out = Vec::with_capacity(n);
        for (i, s) in rows.slices.iter().enumerate() {
            let r = crate::decode::decode_any(py, encs.get(i), s.get(), false, errors)
                .map_err(|e| add_row_note(py, e, i))?;
            out.push(r);
        }
        return Ok(PyList::new(py, out)?.into_any());
    }
    let fatal = matches!(policy, crate::decode::Policy::Strict);
    let weights: Vec<usize> = rows.slices.iter().map(|s| s.1).collect();
    let nthreads = thread_count(threads, weights.iter().sum(), n)?;
    let chunks = chunks(&weights);
    let helpers = (nthreads - 1).min(chunks.len().saturating_sub(1));
    let list = Arc::new(List {
        slices: std::mem::take(&mut rows.slices),
        one,
        per_row,
        fatal,
        chunks,
        next: AtomicUsize::new(0),
        limit: AtomicUsize::new(usize::MAX),
        stop: AtomicBool::new(false),
    });
    let out = if helpers == 0 {
        list.alone(py)?
    } else {
        list.pipeline(py, helpers)?
    };
    // (The rows' views, `rows`, are released after every thread is done with them.)
    drop(rows);
    Ok(PyList::new(py, out)?.into_any())
}

/// Input bytes of a list's rows in one chunk, decoded into one arena: small enough that the
/// arena stays in the cache until the strings are made from it.
const CHUNK_BYTES: usize = 1 << 18;

/// The rows split into consecutive chunks of about `CHUNK_BYTES`.
fn chunks(weights: &[usize]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut acc) = (0, 0usize);
    for (i, w) in weights.iter().enumerate() {
        acc += w + 16;
        if acc >= CHUNK_BYTES {
            out.push(start..i + 1);
            start = i + 1;
            acc = 0;
        }
    }
    if start < weights.len() {
        out.push(start..weights.len());
    }
    out
}

/// A chunk of rows decoded (without the GIL): their characters and where each row's are.
#[derive(Default)]
struct Decoded {
    arena: Arena,
    rows: Vec<RowText>,
}

/// Arenas kept from one call to the next: an arena whose pages are already mapped is written
/// without a page fault for each of its pages (and, freed, would be unmapped again: with
/// threads, each unmapping interrupts the other cores to flush their TLBs).
static SPARE: Mutex<Vec<Decoded>> = Mutex::new(Vec::new());

/// The most memory `SPARE` keeps, so that a batch of huge rows does not hold its memory after.
const SPARE_MAX: usize = 32 << 20;

impl Decoded {
    /// The bytes of memory it holds.
    fn size(&self) -> usize {
        self.arena.bytes() + self.rows.capacity() * std::mem::size_of::<RowText>()
    }

    /// A kept arena, or a new one (with the GIL: `SPARE` is never locked by a thread
    /// without it, so never while the process forks).
    fn take(_py: Python<'_>) -> Decoded {
        SPARE
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_default()
    }

    /// Keeps the arena for the next call (if `SPARE` has room; with the GIL, see
    /// [`Decoded::take`]).
    fn keep(self, _py: Python<'_>) {
        if let Ok(mut s) = SPARE.lock() {
            let kept: usize = s.iter().map(Decoded::size).sum();
            if kept + self.size() <= SPARE_MAX {
                s.push(self);
            }
        }
    }
}

/// A list's rows to decode, owned by the call (shared with the pool's threads, see
/// [`List::pipeline`]).
struct List {
    /// Each row's bytes (valid until the call returns: see [`pool::Scope`]).
    slices: Vec<SendSlice>,
    one: &'static Encoding,
    per_row: Option<Vec<&'static Encoding>>,
    fatal: bool,
    chunks: Vec<Range<usize>>,
    /// The next chunk to decode (taken by any thread).
    next: AtomicUsize,
    /// No chunk from this one on is decoded: fatal mode failed on a row of this chunk.
    limit: AtomicUsize,
    /// The call is returning: the threads stop at their next step.
    stop: AtomicBool,
}

impl List {
    fn encs(&self) -> Encs<'_> {
        match &self.per_row {
            Some(v) => Encs::PerRow(v),
            None => Encs::One(self.one),
        }
    }

    /// Decodes the rows `range` into `d` (no Python call: runs without the GIL).
    fn decode(&self, d: &mut Decoded, range: Range<usize>) {
        d.arena.clear();
        d.rows.clear();
        let encs = self.encs();
        for i in range {
            let r = row::decode(&mut d.arena, encs.get(i), self.slices[i].get(), self.fatal);
            d.rows.push(r);
        }
    }

    /// The next chunk to decode, if any is left (none after one with a failed row).
    fn claim(&self) -> Option<usize> {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        (k < self.chunks.len() && k < self.limit.load(Ordering::Relaxed)).then_some(k)
    }

    /// The error of row `i`, which fatal mode could not decode: the row decoded again with
    /// the GIL, to raise its exact error.
    fn failed(&self, py: Python<'_>, i: usize) -> PyErr {
        let e = match crate::decode::decode_any(
            py,
            self.encs().get(i),
            self.slices[i].get(),
            false,
            "strict",
        ) {
            Err(e) => e,
            Ok(_) => PyValueError::new_err("input too long"),
        };
        add_row_note(py, e, i)
    }

    /// The first row of chunk `d` (decoded from row `base` on) that fatal mode failed on.
    fn first_failed(d: &Decoded, base: usize) -> Option<usize> {
        d.rows
            .iter()
            .position(|r| matches!(r, RowText::Failed))
            .map(|k| base + k)
    }

    /// The strings of the decoded rows from `base` on (none failed), appended to `out`: one
    /// allocation and one copy each.
    fn strings<'py>(
        &self,
        py: Python<'py>,
        d: &Decoded,
        base: usize,
        out: &mut Vec<Bound<'py, PyString>>,
    ) -> PyResult<()> {
        for (k, &text) in d.rows.iter().enumerate() {
            let i = base + k;
            let input = self.slices[i].get();
            let Some((class, len)) = text.shape(input) else {
                return Err(self.failed(py, i));
            };
            out.push(ffi::new_string(py, len, class, |u| {
                text.write(&d.arena, input, u)
            })?);
        }
        Ok(())
    }

    /// The strings of the decoded rows from `base` on (none failed), allocated (with the
    /// GIL) but not yet written: [`List::fill`] writes them.
    fn blanks(&self, py: Python<'_>, d: &Decoded, base: usize) -> PyResult<Vec<ffi::Blank>> {
        let mut out = Vec::with_capacity(d.rows.len());
        for (k, &text) in d.rows.iter().enumerate() {
            let i = base + k;
            let Some((class, len)) = text.shape(self.slices[i].get()) else {
                return Err(self.failed(py, i));
            };
            out.push(ffi::Blank::new(py, len, class)?);
        }
        Ok(out)
    }

    /// Writes the characters of the decoded rows from `base` on into their strings (no
    /// Python call: runs without the GIL).
    fn fill(&self, d: &Decoded, base: usize, blanks: &mut [ffi::Blank]) {
        for (k, (&text, blank)) in d.rows.iter().zip(blanks).enumerate() {
            let input = self.slices[base + k].get();
            blank.fill(|u| text.write(&d.arena, input, u));
        }
    }

    /// The strings of every row, on one thread: each chunk decoded (without the GIL when it
    /// is large enough), then its strings made.
    fn alone<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        let mut out = Vec::with_capacity(self.slices.len());
        let mut d = Decoded::take(py);
        for c in &self.chunks {
            let bytes: usize = self.slices[c.clone()].iter().map(|s| s.1).sum();
            crate::detach_if(py, bytes >= crate::DETACH_BYTES, || {
                self.decode(&mut d, c.clone())
            });
            self.strings(py, &d, c.start, &mut out)?;
        }
        d.keep(py);
        Ok(out)
    }

    /// The strings of every row, on this thread and `helpers` threads of the pool. Any
    /// thread takes the next chunk to decode; this one, with the GIL, also allocates the
    /// strings of each chunk a helper has decoded and sends them back to it, and the helper
    /// writes their characters, without the GIL, from its arena (still in its cache). This
    /// thread allocates first, decodes a chunk of its own (and makes its strings) when no
    /// chunk waits for its strings, and waits only when no chunk is left to take. A helper
    /// has [`ARENAS`] arenas, lent from when their chunk is decoded to when its strings are
    /// written, and decodes only into a free one (its memory stays warm and bounded). The
    /// strings are given to Python once every chunk is written.
    ///
    /// Fatal mode: a chunk with a failed row stops the chunks after it from being decoded;
    /// the error raised is that of the first failed row, once every chunk before it is known
    /// to have none (as on one thread).
    fn pipeline<'py>(
        self: &Arc<List>,
        py: Python<'py>,
        helpers: usize,
    ) -> PyResult<Vec<Bound<'py, PyString>>> {
        let n = self.chunks.len();
        let scope = pool::Scope::new();
        let (done_tx, mut done_rx) = mpsc::channel::<Done>();
        let mut fill_txs = Vec::with_capacity(helpers);
        let mut tasks: Vec<pool::Task> = Vec::with_capacity(helpers);
        for w in 0..helpers {
            let (fill_tx, fill_rx) = mpsc::channel::<Fill>();
            fill_txs.push(fill_tx);
            let (door, list, done_tx) = (scope.door(), self.clone(), done_tx.clone());
            tasks.push(Box::new(move || {
                if let Some(_inside) = door.enter() {
                    list.helper(w, &fill_rx, &done_tx);
                }
            }));
        }
        drop(done_tx);
        pool::Pool::get(py).submit(tasks);
        // Whatever happens below, the helpers stop and leave before the rows' memory is
        // released (`scope` is dropped after `stop`).
        let stop = Stop(self);
        let mut parts: Vec<Part<'py>> = (0..n).map(|_| Part::Pending).collect();
        let mut ready: VecDeque<(usize, usize, Decoded)> = VecDeque::new();
        let mut mine = Decoded::take(py);
        let mut failed: Option<usize> = None;
        // Chunks whose strings are made or written.
        let mut finished = 0;
        let result = (|| -> PyResult<()> {
            loop {
                let limit = self.limit.load(Ordering::Relaxed).min(n);
                match failed {
                    Some(_) if parts[..limit].iter().all(|p| !p.pending()) => break,
                    None if finished == n => break,
                    _ => {}
                }
                if let Ok(m) = done_rx.try_recv() {
                    finished += m.receive(&mut ready, &mut parts)?;
                    continue;
                }
                if let Some((k, w, d)) = ready.pop_front() {
                    let base = self.chunks[k].start;
                    let blanks = if k >= limit {
                        None
                    } else if let Some(i) = List::first_failed(&d, base) {
                        failed = Some(failed.map_or(i, |f| f.min(i)));
                        self.limit.fetch_min(k, Ordering::Relaxed);
                        parts[k] = Part::Failed;
                        None
                    } else {
                        parts[k] = Part::Writing;
                        Some(self.blanks(py, &d, base)?)
                    };
                    // (A helper that stopped has nothing left to write.)
                    let _ = fill_txs[w].send(Fill(k, d, blanks));
                    continue;
                }
                if let Some(k) = self.claim() {
                    let base = self.chunks[k].start;
                    py.detach(|| self.decode(&mut mine, self.chunks[k].clone()));
                    if let Some(i) = List::first_failed(&mine, base) {
                        failed = Some(failed.map_or(i, |f| f.min(i)));
                        self.limit.fetch_min(k, Ordering::Relaxed);
                        parts[k] = Part::Failed;
                    } else {
                        let mut out = Vec::with_capacity(mine.rows.len());
                        self.strings(py, &mine, base, &mut out)?;
                        parts[k] = Part::Made(out);
                        finished += 1;
                    }
                    continue;
                }
                // Nothing to do but wait for a helper (one is decoding or writing a chunk).
                let m;
                (done_rx, m) = py.detach(move || {
                    let m = done_rx.recv();
                    (done_rx, m)
                });
                let m = m.map_err(|_| PyRuntimeError::new_err("a decoding thread stopped"))?;
                finished += m.receive(&mut ready, &mut parts)?;
            }
            Ok(())
        })();
        mine.keep(py);
        drop(stop);
        // Helpers waiting for a chunk to write stop at once; then wait for them to leave.
        drop(fill_txs);
        py.detach(|| scope.close());
        result?;
        if let Some(i) = failed {
            return Err(self.failed(py, i));
        }
        let mut out = Vec::with_capacity(self.slices.len());
        for part in parts {
            match part {
                Part::Made(strings) => out.extend(strings),
                Part::Written(blanks) => {
                    for b in blanks {
                        out.push(b.into_string(py)?);
                    }
                }
                _ => unreachable!("every chunk made or written"),
            }
        }
        Ok(out)
    }

    /// A helper of [`List::pipeline`] (number `w`), on a thread of the pool: writes the
    /// strings of its chunks as soon as they are allocated, else decodes the next chunk into
    /// a free arena; stops when no chunk is left to decode and its arenas are all back, or
    /// when told to.
    fn helper(&self, w: usize, fill_rx: &mpsc::Receiver<Fill>, done_tx: &mpsc::Sender<Done>) {
        let mut free = HELPER_ARENAS.with(|a| std::mem::take(&mut *a.borrow_mut()));
        free.resize_with(ARENAS, Decoded::default);
        let mut lent = 0usize;
        let mut exhausted = false;
        let caught = |p: Box<dyn std::any::Any + Send>| {
            Done::Panicked(
                p.downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a Rust panic".into()),
            )
        };
        loop {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let job = match fill_rx.try_recv() {
                Ok(job) => Some(job),
                Err(mpsc::TryRecvError::Disconnected) => break,
                Err(mpsc::TryRecvError::Empty) if !free.is_empty() && !exhausted => None,
                Err(mpsc::TryRecvError::Empty) if lent == 0 => break,
                Err(mpsc::TryRecvError::Empty) => match fill_rx.recv() {
                    Ok(job) => Some(job),
                    Err(_) => break,
                },
            };
            let message = match job {
                Some(Fill(k, d, blanks)) => {
                    lent -= 1;
                    let Some(mut blanks) = blanks else {
                        free.push(d);
                        continue;
                    };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.fill(&d, self.chunks[k].start, &mut blanks)
                    }));
                    free.push(d);
                    match r {
                        Ok(()) => Done::Written(k, blanks),
                        Err(p) => caught(p),
                    }
                }
                None => {
                    let Some(k) = self.claim() else {
                        exhausted = true;
                        continue;
                    };
                    let mut d = free.pop().expect("a free arena");
                    lent += 1;
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.decode(&mut d, self.chunks[k].clone());
                        d
                    })) {
                        Ok(d) => Done::Decoded(k, w, d),
                        Err(p) => caught(p),
                    }
                }
            };
            if done_tx.send(message).is_err() {
                break;
            }
        }
        // The arenas stay with the thread for the next call (at most `ARENA_KEEP` bytes of
        // them: not those grown by huge rows).
        let mut kept = 0;
        free.retain(|d| {
            kept += d.size();
            kept <= ARENA_KEEP
        });
        HELPER_ARENAS.with(|a| *a.borrow_mut() = free);
    }
}

/// Arenas per helper of [`List::pipeline`].
const ARENAS: usize = 4;

/// The most memory of arenas a helper's thread keeps from one call to the next.
const ARENA_KEEP: usize = 8 << 20;

thread_local! {
    /// A pool thread's arenas, kept from one call to the next (see [`Decoded::take`]).
    static HELPER_ARENAS: std::cell::RefCell<Vec<Decoded>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets `stop` when dropped (the helpers of [`List::pipeline`] stop at their next step).
struct Stop<'a>(&'a List);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
}

/// The strings of a chunk, in [`List::pipeline`].
enum Part<'py> {
    /// Not decoded yet, or its strings not made or written yet.
    Pending,
    /// Fatal mode failed on one of its rows.
    Failed,
    /// Its strings allocated, being written by a helper.
    Writing,
    /// Made by the calling thread.
    Made(Vec<Bound<'py, PyString>>),
    /// Written by a helper.
    Written(Vec<ffi::Blank>),
}

impl Part<'_> {
    /// Whether nothing is known yet of its rows (not decoded, or its strings not allocated).
    fn pending(&self) -> bool {
        matches!(self, Part::Pending)
    }
}

impl Done {
    /// Keeps what the message brings: a decoded chunk in `ready`, written strings in
    /// `parts` (then 1: the chunks finished); a panic's message as the error.
    fn receive(
        self,
        ready: &mut VecDeque<(usize, usize, Decoded)>,
        parts: &mut [Part<'_>],
    ) -> PyResult<usize> {
        match self {
            Done::Decoded(k, w, d) => ready.push_back((k, w, d)),
            Done::Written(k, blanks) => {
                parts[k] = Part::Written(blanks);
                return Ok(1);
            }
            Done::Panicked(msg) => return Err(PanicException::new_err(msg)),
        }
        Ok(0)
    }
}

/// A chunk's strings to write (`None`: nothing to write, the arena given back), sent to the
/// helper that decoded it: the chunk's number, its arena, its strings.
struct Fill(usize, Decoded, Option<Vec<ffi::Blank>>);

/// What a helper of [`List::pipeline`] tells the calling thread.
enum Done {
    /// Chunk `.0` decoded by helper `.1`.
    Decoded(usize, usize, Decoded),
    /// The strings of chunk `.0`, written.
    Written(usize, Vec<ffi::Blank>),
    /// A panic's message.
    Panicked(String),
}

/// The single label (UTF-8 when none), when `label` is one.
pub(crate) fn one_label(label: Option<&Bound<'_, PyAny>>) -> PyResult<&'static Encoding> {
    match label {
        None => Ok(textcodec::UTF_8),
        Some(l) if l.is_instance_of::<PyString>() || l.cast::<PyEncoding>().is_ok() => {
            crate::lookup_label(l)
        }
        Some(_) => Ok(textcodec::UTF_8),
    }
}

/// A row's encoded bytes, on a worker thread.
enum RowBytes {
    Bytes {
        start: usize,
        len: usize,
    },
    /// Unencodable in fatal mode, or text with lone surrogates (done with the GIL).
    Slow,
}

struct Encoded {
    bytes: Vec<u8>,
    rows: Vec<RowBytes>,
}

/// Encodes `text` to the end of `buf` (kept at its capacity, `used` bytes used); false if
/// fatal mode met an unencodable character.
pub(crate) fn encode_one(
    enc: &'static Encoding,
    text: &str,
    html: bool,
    buf: &mut Vec<u8>,
    used: &mut usize,
) -> bool {
    let mut e: Encoder = enc.new_encoder(if html {
        EncoderErrorMode::Html
    } else {
        EncoderErrorMode::Fatal
    });
    let Some(max) = e.max_buffer_length_from_utf8(text.len()) else {
        return false;
    };
    if buf.len() < *used + max {
        buf.resize((*used + max).max(2 * buf.len()), 0);
    }
    match e.encode_from_utf8(text, &mut buf[*used..*used + max], true) {
        Ok(p) => {
            *used += p.written;
            true
        }
        Err(_) => false,
    }
}

fn encode_rows(
    rows: &[Option<ffi::SendStr>],
    encs: Encs<'_>,
    range: Range<usize>,
    html: bool,
) -> Encoded {
    let mut bytes = Vec::new();
    let mut used = 0;
    let mut out = Vec::with_capacity(range.len());
    for i in range {
        let Some(text) = &rows[i] else {
            out.push(RowBytes::Slow);
            continue;
        };
        let start = used;
        if encode_one(encs.get(i), text.get(), html, &mut bytes, &mut used) {
            out.push(RowBytes::Bytes {
                start,
                len: used - start,
            });
        } else {
            used = start;
            out.push(RowBytes::Slow);
        }
    }
    Encoded { bytes, rows: out }
}

/// `textcodec.encode_many(items, label, errors="xmlcharrefreplace", *, threads=None)`: the
/// reverse of `decode_many`: a sequence of str gives `list[bytes]`, a pyarrow String or
/// LargeString array gives the Binary/LargeBinary equivalent (nulls kept).
///
/// >>> textcodec.encode_many(["café", "あ"], ["latin1", "sjis"])
/// [b'caf\xe9', b'\x82\xa0']
#[pyfunction]
#[pyo3(signature = (items, label = None, errors = "xmlcharrefreplace", *, threads = None))]
pub(crate) fn encode_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    if crate::arrow::is_arrow(items)? {
        return crate::arrow::encode_many(py, items, label, errors, threads);
    }
    if items.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "items must be a sequence of str, not a single str",
        ));
    }
    let iter = items.try_iter().map_err(|_| {
        PyTypeError::new_err("items must be a sequence of str or a pyarrow string array")
    })?;
    let mut strs = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        let s = expect_str(&item)
            .map_err(|e| PyTypeError::new_err(format!("row {i}: {}", e.value(py))))?;
        strs.push(s.clone());
    }
    let n = strs.len();
    let one = one_label(label)?;
    let per_row = resolve_labels(py, label, n)?;
    let encs = match &per_row {
        Some(v) => Encs::PerRow(v),
        None => Encs::One(one),
    };
    let policy = crate::encode::Policy::new(py, errors)?;
    let html = matches!(policy, crate::encode::Policy::Html);
    let rows: Vec<Option<ffi::SendStr>> = strs
        .iter()
        .map(|s| ffi::utf8_of(s).map(ffi::SendStr::new))
        .collect();
    let parts = if let crate::encode::Policy::Handler(_) = policy {
        vec![Encoded {
            bytes: Vec::new(),
            rows: (0..n).map(|_| RowBytes::Slow).collect(),
        }]
    } else {
        let weights: Vec<usize> = rows
            .iter()
            .map(|r| r.as_ref().map_or(0, |s| s.get().len()))
            .collect();
        let nthreads = thread_count(threads, weights.iter().sum(), n)?;
        let rows = &rows;
        py.detach(|| parallel(&weights, nthreads, |r| encode_rows(rows, encs, r, html)))
    };
    let slow = |i: usize| -> PyResult<Bound<'py, PyBytes>> {
        let v = crate::encode::encode_all(py, encs.get(i), &strs[i], errors)
            .map_err(|e| add_row_note(py, e, i))?;
        Ok(PyBytes::new(py, &v))
    };
    if parts.len() == 1 {
        let mut out = Vec::with_capacity(n);
        for (i, row) in parts[0].rows.iter().enumerate() {
            out.push(match *row {
                RowBytes::Bytes { start, len } => {
                    PyBytes::new(py, &parts[0].bytes[start..start + len])
                }
                RowBytes::Slow => slow(i)?,
            });
        }
        return Ok(PyList::new(py, out)?.into_any());
    }
    // Several parts: the objects are allocated here, with the GIL (the slow rows made
    // whole), and their bytes copied by one thread per part, without it.
    let mut out: Vec<Option<Bound<'py, PyBytes>>> = (0..n).map(|_| None).collect();
    let mut blanks: Vec<Vec<(usize, usize, ffi::BlankBytes)>> = Vec::with_capacity(parts.len());
    let mut i = 0;
    for part in &parts {
        let mut mine = Vec::with_capacity(part.rows.len());
        for row in &part.rows {
            match *row {
                RowBytes::Bytes { start, len } => {
                    mine.push((i, start, ffi::BlankBytes::new(py, len)?))
                }
                RowBytes::Slow => out[i] = Some(slow(i)?),
            }
            i += 1;
        }
        blanks.push(mine);
    }
    let fill = |part: &Encoded, blanks: &mut Vec<(usize, usize, ffi::BlankBytes)>| {
        for (_, start, b) in blanks.iter_mut() {
            b.fill(|d| d.copy_from_slice(&part.bytes[*start..*start + d.len()]));
        }
    };
    py.detach(|| {
        std::thread::scope(|s| {
            let mut todo = parts.iter().zip(blanks.iter_mut());
            let first = todo.next();
            for (part, b) in todo {
                s.spawn(move || fill(part, b));
            }
            if let Some((part, b)) = first {
                fill(part, b);
            }
        })
    });
    for (i, _, b) in blanks.into_iter().flatten() {
        out[i] = Some(b.into_bytes(py));
    }
    Ok(PyList::new(py, out.into_iter().map(|b| b.expect("every row made")))?.into_any())
}
