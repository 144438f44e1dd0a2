//! pyarrow arrays in and out through the Arrow C data interface (the `__arrow_c_array__`
//! PyCapsule protocol), without copying: the input's buffers are read where pyarrow keeps
//! them, and the output's buffers, made here, become pyarrow's. Nulls are kept (the output
//! shares the input's validity bits).

use std::ops::Range;
use std::sync::Arc;

use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::types::{GenericBinaryType, GenericStringType};
use arrow_array::{Array, GenericByteArray, OffsetSizeTrait};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList};
use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions};

use crate::batch::{self, Encs, LabelCache};

/// Whether `obj` is a pyarrow array or chunked array (or any Arrow array producer).
pub(crate) fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.hasattr("__arrow_c_array__")? || obj.hasattr("__arrow_c_stream__")?)
}

fn is_chunked(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(!obj.hasattr("__arrow_c_array__")? && obj.hasattr("chunks")?)
}

/// Imports an array through `__arrow_c_array__`, taking ownership of the exported structure.
fn import(obj: &Bound<'_, PyAny>) -> PyResult<ArrayData> {
    let pair = obj.call_method0("__arrow_c_array__")?;
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = pair.extract()?;
    let schema_ptr = schema
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    let array_ptr = array
        .pointer_checked(Some(c"arrow_array"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: the PyCapsule protocol: an "arrow_array" capsule holds an ArrowArray structure
    // that the consumer may move out, leaving a released one (null `release`) for the
    // capsule's destructor; the "arrow_schema" capsule's structure is only borrowed while the
    // capsule (held here) lives. `from_ffi` trusts the producer to follow the C data
    // interface, as every consumer must, and validates the buffers' layout.
    let data = unsafe {
        let taken = std::ptr::replace(array_ptr.as_ptr(), FFI_ArrowArray::empty());
        from_ffi(taken, &*schema_ptr.as_ptr())
    };
    data.map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))
}

/// An exported array for `pyarrow.array()`, which calls `__arrow_c_array__` once.
#[pyclass(module = "textcodec", name = "_ArrowExport")]
struct ArrowExport {
    parts: std::sync::Mutex<Option<(FFI_ArrowSchema, FFI_ArrowArray)>>,
}

#[pymethods]
impl ArrowExport {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let (schema, array) = self
            .parts
            .lock()
            .map_err(|_| PyValueError::new_err("the array export was poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("the array was exported already"))?;
        // The structures' Drop releases them unless the consumer moved them out.
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }
}

/// `data` as a pyarrow array.
fn export<'py>(py: Python<'py>, data: ArrayData) -> PyResult<Bound<'py, PyAny>> {
    let array = FFI_ArrowArray::new(&data);
    let schema = FFI_ArrowSchema::try_from(data.data_type())
        .map_err(|e| PyValueError::new_err(format!("cannot export: {e}")))?;
    let holder = Bound::new(
        py,
        ArrowExport {
            parts: std::sync::Mutex::new(Some((schema, array))),
        },
    )?;
    py.import("pyarrow")?.call_method1("array", (holder,))
}

/// The rows of a binary or string array: offsets, values and validity.
struct Rows<'a, O: OffsetSizeTrait> {
    offsets: &'a [O],
    values: &'a [u8],
    nulls: Option<&'a NullBuffer>,
}

impl<O: OffsetSizeTrait> Rows<'_, O> {
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        if self.nulls.is_some_and(|n| n.is_null(i)) {
            return None;
        }
        Some(&self.values[self.offsets[i].as_usize()..self.offsets[i + 1].as_usize()])
    }

    fn weights(&self) -> Vec<usize> {
        self.offsets
            .windows(2)
            .map(|w| w[1].as_usize() - w[0].as_usize())
            .collect()
    }
}

/// The validity of the output: the input's bits, realigned to offset 0 if they are sliced.
fn out_nulls(nulls: Option<&NullBuffer>) -> Option<NullBuffer> {
    nulls.map(|n| {
        if n.offset() == 0 {
            n.clone()
        } else {
            NullBuffer::new(BooleanBuffer::new(n.inner().sliced(), 0, n.len()))
        }
    })
}

/// What a worker made of its rows: their bytes (UTF-8 or encoded) and where each row ends.
struct Part {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// The first row that fatal mode refused (or that a handler must do with the GIL).
    failed: Option<usize>,
}

fn decode_part<O: OffsetSizeTrait>(
    rows: &Rows<'_, O>,
    encs: Encs<'_>,
    range: Range<usize>,
    fatal: bool,
    pooled: bool,
) -> Part {
    // Each row is decoded into a scratch buffer that lives as long as the part (grown, and
    // zeroed, only when a row needs more room than any before it, so its pages stay mapped
    // and in cache) and then appended to the part's bytes. The part's bytes are only ever
    // written past their end (`extend_from_slice`), never zero-filled ahead: a worst-case
    // buffer of twice the input, zeroed lazily by the kernel, cost a page fault per page on
    // each thread at once (and a TLB shootdown between the threads for every copy-on-write of
    // the shared zero page), which made two threads slower than one.
    let input: usize = range
        .clone()
        .map(|i| rows.get(i).map_or(0, <[u8]>::len))
        .sum();
    let mut bytes = if pooled {
        // One of several parts, which `join` copies into the output.
        spare_buffer()
    } else {
        // The only part, which becomes the output's buffer (`join`).
        Vec::with_capacity(input + input / 2 + 64)
    };
    let mut scratch: Vec<u8> = Vec::new();
    let mut ends = Vec::with_capacity(range.len());
    let failed = |bytes, ends, i| Part {
        bytes,
        ends,
        failed: Some(i),
    };
    for i in range {
        if let Some(row) = rows.get(i) {
            let enc = encs.get(i);
            if batch::ascii_passthrough(enc, row) {
                bytes.extend_from_slice(row);
            } else {
                let mut dec = enc.new_decoder(DecoderOptions {
                    error_mode: if fatal {
                        DecoderErrorMode::Fatal
                    } else {
                        DecoderErrorMode::Replacement
                    },
                    bom: BomHandling::Sniff,
                });
                let Some(max) = dec.max_utf8_buffer_length(row.len()) else {
                    return failed(bytes, ends, i);
                };
                if scratch.len() < max {
                    scratch.resize(max, 0);
                }
                match dec.decode_to_utf8(row, &mut scratch[..max], true) {
                    Ok(p) => bytes.extend_from_slice(&scratch[..p.written]),
                    Err(_) => return failed(bytes, ends, i),
                }
            }
        }
        ends.push(bytes.len());
    }
    Part {
        bytes,
        ends,
        failed: None,
    }
}

fn encode_part<O: OffsetSizeTrait>(
    rows: &Rows<'_, O>,
    encs: Encs<'_>,
    range: Range<usize>,
    html: bool,
) -> Part {
    let mut bytes: Vec<u8> = Vec::new();
    let mut used = 0;
    let mut ends = Vec::with_capacity(range.len());
    for i in range {
        if let Some(row) = rows.get(i) {
            let Ok(text) = std::str::from_utf8(row) else {
                bytes.truncate(used);
                return Part {
                    bytes,
                    ends,
                    failed: Some(i),
                };
            };
            if !batch::encode_one(encs.get(i), text, html, &mut bytes, &mut used) {
                bytes.truncate(used);
                return Part {
                    bytes,
                    ends,
                    failed: Some(i),
                };
            }
        }
        ends.push(used);
    }
    bytes.truncate(used);
    Part {
        bytes,
        ends,
        failed: None,
    }
}

/// The buffers of the parts when there are several, kept from one call to the next: `join`
/// copies them into the output, and a buffer whose pages are already mapped is written
/// without a page fault for each of its pages (a fault costs more than the copy).
static SPARE: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());

/// The most memory `SPARE` keeps, so that a huge batch does not hold its memory after.
const SPARE_MAX: usize = 256 << 20;

/// `try_lock`, never `lock`: workers take `SPARE` without the GIL, so a process forked while
/// one of them held it gives the child a mutex that nobody will ever release. Waiting on it
/// would hang the child's next call; skipping it only costs a fresh buffer (and two calls
/// that meet here at the same moment lose nothing but the reuse).
fn spare_buffer() -> Vec<u8> {
    SPARE
        .try_lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_default()
}

fn keep_spare(mut v: Vec<u8>) {
    if let Ok(mut s) = SPARE.try_lock() {
        let kept: usize = s.iter().map(Vec::capacity).sum();
        if kept + v.capacity() <= SPARE_MAX {
            v.clear();
            s.push(v);
        }
    }
}

/// Joins the workers' parts into offsets and values.
fn join<O: OffsetSizeTrait>(parts: Vec<Part>) -> PyResult<(OffsetBuffer<O>, Buffer)> {
    let total: usize = parts.iter().map(|p| p.bytes.len()).sum();
    if O::from_usize(total).is_none() {
        return Err(PyOverflowError::new_err(
            "the output is larger than 2 GiB: use large_binary/large_string arrays",
        ));
    }
    let rows: usize = parts.iter().map(|p| p.ends.len()).sum();
    let mut offsets: Vec<O> = Vec::with_capacity(rows + 1);
    offsets.push(O::usize_as(0));
    let mut base = 0;
    for p in &parts {
        offsets.extend(p.ends.iter().map(|&e| O::usize_as(base + e)));
        base += p.bytes.len();
    }
    let v = if parts.len() == 1 {
        parts
            .into_iter()
            .next()
            .map(|p| p.bytes)
            .unwrap_or_default()
    } else {
        // The output (a large one is fresh pages, which the kernel zeroes when first
        // written, so `vec!` does not write them), and each part copied into its own range of
        // it on its own thread: the page faults of the output's first writes are shared
        // between the threads, and each page is written once.
        let mut v = vec![0; total];
        let mut rest = v.as_mut_slice();
        let mut pairs = Vec::with_capacity(parts.len());
        for p in &parts {
            let (dst, tail) = rest.split_at_mut(p.bytes.len());
            pairs.push((dst, p.bytes.as_slice()));
            rest = tail;
        }
        std::thread::scope(|s| {
            let mut pairs = pairs.into_iter();
            let first = pairs.next();
            for (dst, src) in pairs {
                s.spawn(move || dst.copy_from_slice(src));
            }
            if let Some((dst, src)) = first {
                dst.copy_from_slice(src);
            }
        });
        for p in parts {
            keep_spare(p.bytes);
        }
        v
    };
    let values = Buffer::from_vec(v);
    // Offsets made from increasing ends, starting at 0.
    Ok((OffsetBuffer::new(ScalarBuffer::from(offsets)), values))
}

/// The input as binary rows, with whether its offsets are 64-bit.
enum AnyRows<'a> {
    Small(Rows<'a, i32>),
    Large(Rows<'a, i64>),
}

fn rows_of(data: &ArrayData, strings: bool) -> PyResult<(Arc<dyn Array>, bool)> {
    let array = arrow_array::make_array(data.clone());
    let ok = match data.data_type() {
        DataType::Binary | DataType::LargeBinary => !strings,
        DataType::Utf8 | DataType::LargeUtf8 => true,
        _ => false,
    };
    if !ok {
        let want = if strings {
            "string or large_string"
        } else {
            "binary, large_binary, string or large_string"
        };
        return Err(PyTypeError::new_err(format!(
            "expected a pyarrow {want} array, got {}",
            data.data_type()
        )));
    }
    let large = matches!(
        data.data_type(),
        DataType::LargeBinary | DataType::LargeUtf8
    );
    Ok((array, large))
}

fn view(array: &dyn Array) -> AnyRows<'_> {
    let any = array.as_any();
    macro_rules! try_view {
        ($t:ty, $variant:ident) => {
            if let Some(a) = any.downcast_ref::<GenericByteArray<$t>>() {
                return AnyRows::$variant(Rows {
                    offsets: a.value_offsets(),
                    values: a.value_data(),
                    nulls: a.nulls(),
                });
            }
        };
    }
    try_view!(GenericBinaryType<i32>, Small);
    try_view!(GenericStringType<i32>, Small);
    try_view!(GenericBinaryType<i64>, Large);
    try_view!(GenericStringType<i64>, Large);
    // `rows_of` admitted only these four types.
    AnyRows::Small(Rows {
        offsets: &[0],
        values: &[],
        nulls: None,
    })
}

/// Per-row labels from a pyarrow string array (or chunked array, or dictionary array).
pub(crate) fn labels(
    py: Python<'_>,
    label: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<Vec<&'static textcodec::Encoding>> {
    let pa = py.import("pyarrow")?;
    let mut label = label.clone();
    if is_chunked(&label)? {
        label = label.call_method0("combine_chunks")?;
    }
    let ty = label.getattr("type")?;
    if pa
        .getattr("types")?
        .call_method1("is_dictionary", (&ty,))?
        .is_truthy()?
    {
        label = label.call_method1("cast", (ty.getattr("value_type")?,))?;
    }
    let data = import(&label)?;
    let (array, _) = rows_of(&data, true)?;
    let mut cache = LabelCache::default();
    let mut out = Vec::with_capacity(n);
    let mut resolve = |i: usize, l: Option<&[u8]>| -> PyResult<()> {
        let l = l.ok_or_else(|| {
            pyo3::exceptions::PyLookupError::new_err(format!("row {i}: no label (null)"))
        })?;
        let enc = cache
            .get(l)
            .ok_or_else(|| batch::unknown_row(i, &String::from_utf8_lossy(l)))?;
        out.push(enc);
        Ok(())
    };
    match view(array.as_ref()) {
        AnyRows::Small(r) => (0..r.len()).try_for_each(|i| resolve(i, r.get(i)))?,
        AnyRows::Large(r) => (0..r.len()).try_for_each(|i| resolve(i, r.get(i)))?,
    }
    if out.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} labels for {n} rows: give one label, or one per row",
            out.len()
        )));
    }
    Ok(out)
}

/// One array (not chunked) through `f`, which gets its rows and returns the output.
fn one_array<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    encs: Encs<'_>,
    errors: &str,
    threads: Option<usize>,
    decoding: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let data = import(obj)?;
    let (array, large) = rows_of(&data, !decoding)?;
    let rows = view(array.as_ref());
    let (fatal, slow) = if decoding {
        match crate::decode::Policy::new(py, errors)? {
            crate::decode::Policy::Replace => (false, false),
            crate::decode::Policy::Strict => (true, false),
            crate::decode::Policy::Handler(_) => (true, true),
        }
    } else {
        match crate::encode::Policy::new(py, errors)? {
            crate::encode::Policy::Html => (false, false),
            crate::encode::Policy::Strict => (true, false),
            crate::encode::Policy::Handler(_) => (true, true),
        }
    };
    let _ = fatal;
    macro_rules! go {
        ($rows:expr, $o:ty) => {{
            let rows = $rows;
            let weights = rows.weights();
            let nthreads = batch::thread_count(threads, weights.iter().sum(), weights.len())?;
            let encs_ref = encs;
            let parts = if slow {
                vec![Part {
                    bytes: Vec::new(),
                    ends: Vec::new(),
                    failed: Some(0),
                }]
            } else {
                py.detach(|| {
                    batch::parallel(&weights, nthreads, |r| {
                        if decoding {
                            decode_part(&rows, encs_ref, r, fatal, nthreads > 1)
                        } else {
                            encode_part(&rows, encs_ref, r, !fatal)
                        }
                    })
                })
            };
            let parts = if parts.iter().any(|p| p.failed.is_some()) {
                // Errors to raise, or a Python error handler: row by row with the GIL.
                vec![slow_part(py, &rows, encs, errors, decoding)?]
            } else {
                parts
            };
            let (offsets, values) = py.detach(|| join::<$o>(parts))?;
            let nulls = out_nulls(rows.nulls);
            let dt = match (decoding, large) {
                (true, false) => DataType::Utf8,
                (true, true) => DataType::LargeUtf8,
                (false, false) => DataType::Binary,
                (false, true) => DataType::LargeBinary,
            };
            let out = build(dt, offsets, values, nulls, decoding)?;
            export(py, out)
        }};
    }
    match rows {
        AnyRows::Small(r) => go!(r, i32),
        AnyRows::Large(r) => go!(r, i64),
    }
}

/// The output array. Decoded rows are UTF-8 by construction (the decoders' output), so the
/// string array is made without checking them again.
fn build<O: OffsetSizeTrait>(
    dt: DataType,
    offsets: OffsetBuffer<O>,
    values: Buffer,
    nulls: Option<NullBuffer>,
    _utf8: bool,
) -> PyResult<ArrayData> {
    let len = offsets.len() - 1;
    let builder = ArrayData::builder(dt)
        .len(len)
        .add_buffer(offsets.into_inner().into_inner())
        .add_buffer(values)
        .nulls(nulls);
    // SAFETY: the offsets start at 0, increase, and end at the values' length (`join`); the
    // validity has `len` bits at offset 0 (`out_nulls`); for string arrays every row is the
    // UTF-8 a decoder wrote (`Decoder::decode_to_utf8` writes only whole, valid UTF-8
    // characters) or a copy of ASCII input, or the string a Python decode returned, encoded
    // as UTF-8 by CPython. So the layout is valid for the type, which is what `build`
    // would check.
    Ok(unsafe { builder.build_unchecked() })
}

/// All rows with the GIL, through the one-row functions (exact errors, Python handlers).
fn slow_part<O: OffsetSizeTrait>(
    py: Python<'_>,
    rows: &Rows<'_, O>,
    encs: Encs<'_>,
    errors: &str,
    decoding: bool,
) -> PyResult<Part> {
    let mut bytes = Vec::new();
    let mut ends = Vec::with_capacity(rows.len());
    for i in 0..rows.len() {
        if let Some(row) = rows.get(i) {
            let note = |e: PyErr| {
                let v = e.value(py);
                if v.hasattr("add_note").unwrap_or(false) {
                    let _ = v.call_method1("add_note", (format!("in row {i}"),));
                }
                e
            };
            if decoding {
                let s =
                    crate::decode::decode_any(py, encs.get(i), row, false, errors).map_err(note)?;
                match crate::ffi::utf8_of(&s) {
                    Some(t) => bytes.extend_from_slice(t.as_bytes()),
                    None => {
                        return Err(note(PyValueError::new_err(
                            "the error handler produced lone surrogates, which an Arrow string cannot hold",
                        )))
                    }
                }
            } else {
                let text = std::str::from_utf8(row).map_err(|_| {
                    note(PyValueError::new_err(
                        "the Arrow string array holds invalid UTF-8",
                    ))
                })?;
                let s = pyo3::types::PyString::new(py, text);
                let v = crate::encode::encode_all(py, encs.get(i), &s, errors).map_err(note)?;
                bytes.extend_from_slice(&v);
            }
        }
        ends.push(bytes.len());
    }
    Ok(Part {
        bytes,
        ends,
        failed: None,
    })
}

fn arrow_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    threads: Option<usize>,
    decoding: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let n: usize = items.len()?;
    let one = batch::one_label(label)?;
    let per_row = batch::resolve_labels(py, label, n)?;
    if !is_chunked(items)? {
        let encs = match &per_row {
            Some(v) => Encs::PerRow(v),
            None => Encs::One(one),
        };
        return one_array(py, items, encs, errors, threads, decoding);
    }
    let pa = py.import("pyarrow")?;
    let mut outs = Vec::new();
    let mut at = 0;
    for chunk in items.getattr("chunks")?.try_iter()? {
        let chunk = chunk?;
        let len: usize = chunk.len()?;
        let encs = match &per_row {
            Some(v) => Encs::PerRow(&v[at..at + len]),
            None => Encs::One(one),
        };
        outs.push(one_array(py, &chunk, encs, errors, threads, decoding)?);
        at += len;
    }
    let ty = items.getattr("type")?;
    let large =
        ty.eq(pa.call_method0("large_binary")?)? || ty.eq(pa.call_method0("large_string")?)?;
    let out_ty = match (decoding, large) {
        (true, false) => pa.call_method0("string")?,
        (true, true) => pa.call_method0("large_string")?,
        (false, false) => pa.call_method0("binary")?,
        (false, true) => pa.call_method0("large_binary")?,
    };
    pa.call_method1("chunked_array", (PyList::new(py, outs)?, out_ty))
}

pub(crate) fn decode_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    arrow_many(py, items, label, errors, threads, true)
}

pub(crate) fn encode_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    arrow_many(py, items, label, errors, threads, false)
}
