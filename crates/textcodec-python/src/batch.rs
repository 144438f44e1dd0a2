//! `decode_many` and `encode_many`: many inputs in one call, decoded or encoded without the
//! GIL, on several threads for large batches, each row with the same label or its own.
//!
//! Lists: the rows are decoded to UTF-16 on the threads, then (with the GIL) copied into new
//! strings of the right kind. pyarrow arrays: see `arrow.rs`.

use std::collections::HashMap;
use std::ops::Range;

use pyo3::exceptions::{PyLookupError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, Encoder, EncoderErrorMode, Encoding, ISO_2022_JP,
};

use crate::ffi::{self, Bytes, SendSlice, Units};
use crate::text::{Class, Scan};
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
    let mut out = Vec::with_capacity(n);
    for (i, item) in seq.enumerate() {
        let item = item?;
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

/// Input bytes per thread in one chunk of a list's rows.
const CHUNK_BYTES: usize = 1 << 20;

/// The rows split into consecutive chunks of about `CHUNK_BYTES` per thread.
fn chunks(weights: &[usize], threads: usize) -> Vec<Range<usize>> {
    let limit = CHUNK_BYTES * threads;
    let mut out = Vec::new();
    let (mut start, mut acc) = (0, 0usize);
    for (i, w) in weights.iter().enumerate() {
        acc += w + 16;
        if acc >= limit {
            out.push(start..i + 1);
            start = i + 1;
            acc = 0;
        }
    }
    if start < weights.len() || out.is_empty() {
        out.push(start..weights.len());
    }
    out
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

/// A row's decoded text, on a worker thread.
enum RowText {
    /// The input bytes themselves (ASCII that the decoder maps to itself).
    Ascii,
    /// UTF-16 units in the worker's buffer.
    Units {
        start: usize,
        len: usize,
        scan: Scan,
    },
    /// A malformed sequence in fatal mode.
    Failed,
}

struct Decoded {
    units: Vec<u16>,
    rows: Vec<RowText>,
}

/// Whether `enc`'s decoder maps ASCII `row` to itself.
pub(crate) fn ascii_passthrough(enc: &'static Encoding, row: &[u8]) -> bool {
    enc.is_ascii_compatible() && enc != ISO_2022_JP && row.is_ascii()
}

fn decode_rows(rows: &[SendSlice], encs: Encs<'_>, range: Range<usize>, fatal: bool) -> Decoded {
    let mut units: Vec<u16> = Vec::new();
    let mut used = 0;
    let mut out = Vec::with_capacity(range.len());
    for i in range {
        let row = rows[i].get();
        let enc = encs.get(i);
        if ascii_passthrough(enc, row) {
            out.push(RowText::Ascii);
            continue;
        }
        let mut dec = enc.new_decoder(DecoderOptions {
            error_mode: if fatal {
                DecoderErrorMode::Fatal
            } else {
                DecoderErrorMode::Replacement
            },
            bom: BomHandling::Sniff,
        });
        let Some(max) = dec.max_utf16_buffer_length(row.len()) else {
            out.push(RowText::Failed);
            continue;
        };
        if units.len() < used + max {
            units.resize((used + max).max(2 * units.len()), 0);
        }
        match dec.decode_to_utf16(row, &mut units[used..used + max], true) {
            Ok(p) => {
                let text = &units[used..used + p.written];
                out.push(RowText::Units {
                    start: used,
                    len: p.written,
                    scan: Scan::of(text),
                });
                used += p.written;
            }
            Err(_) => out.push(RowText::Failed),
        }
    }
    Decoded { units, rows: out }
}

/// A row of a list: its bytes (borrowed from an immutable `bytes`, or copied).
pub(crate) struct Rows<'py> {
    _views: Vec<Bytes<'py>>,
    _owned: Vec<Vec<u8>>,
    pub(crate) slices: Vec<SendSlice>,
}

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
/// batches).
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
    let rows = list_rows(items)?;
    let n = rows.slices.len();
    let one = one_label(label)?;
    let per_row = resolve_labels(py, label, n)?;
    let encs = match &per_row {
        Some(v) => Encs::PerRow(v),
        None => Encs::One(one),
    };
    let policy = crate::decode::Policy::new(py, errors)?;
    if let crate::decode::Policy::Handler(_) = policy {
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
    let slices = &rows.slices;
    let mut out = Vec::with_capacity(n);
    // Rows go in chunks of about CHUNK_BYTES per thread: decoded on the threads, then made
    // into strings, so that the UTF-16 buffers stay small and warm whatever the batch's size.
    for chunk in chunks(&weights, nthreads) {
        let base = chunk.start;
        let parts = py.detach(|| {
            parallel(&weights[chunk.clone()], nthreads, |r| {
                decode_rows(slices, encs, r.start + base..r.end + base, fatal)
            })
        });
        let mut i = base;
        for part in &parts {
            for row in &part.rows {
                let s = match *row {
                    RowText::Ascii => {
                        let bytes = rows.slices[i].get();
                        ffi::new_string(py, bytes.len(), Class::Ascii, |u| {
                            if let Units::U8(d) = u {
                                d.copy_from_slice(bytes)
                            }
                        })?
                    }
                    RowText::Units { start, len, scan } => {
                        ffi::string_from_utf16(py, &part.units[start..start + len], scan)?
                    }
                    RowText::Failed => {
                        // Decode the row again to raise its exact error.
                        let e = match crate::decode::decode_any(
                            py,
                            encs.get(i),
                            rows.slices[i].get(),
                            false,
                            "strict",
                        ) {
                            Err(e) => e,
                            Ok(_) => PyValueError::new_err("input too long"),
                        };
                        return Err(add_row_note(py, e, i));
                    }
                };
                out.push(s);
                i += 1;
            }
        }
    }
    Ok(PyList::new(py, out)?.into_any())
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
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    for part in &parts {
        for row in &part.rows {
            let b = match *row {
                RowBytes::Bytes { start, len } => PyBytes::new(py, &part.bytes[start..start + len]),
                RowBytes::Slow => {
                    let v = crate::encode::encode_all(py, encs.get(i), &strs[i], errors)
                        .map_err(|e| add_row_note(py, e, i))?;
                    PyBytes::new(py, &v)
                }
            };
            out.push(b);
            i += 1;
        }
    }
    Ok(PyList::new(py, out)?.into_any())
}
