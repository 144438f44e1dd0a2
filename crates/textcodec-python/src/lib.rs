//! `textcodec` for Python: the WHATWG Encoding Standard (the browser's encodings) from the
//! Rust core, as the Python module `textcodec._textcodec` (re-exported by the `textcodec`
//! package, which adds `register()` for Python's codec machinery).
//!
//! The module's functions and classes, documented in `python/textcodec/__init__.pyi`: `lookup`, `decode`, `decode_with_encoding`,
//! `encode`, `TextDecoder`, `TextEncoder`, `decode_many`, `encode_many`, `detect`,
//! `sniff_html`.

use pyo3::exceptions::{PyLookupError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use textcodec::Encoding;

mod arrow;
mod batch;
mod decode;
mod detect;
mod encode;
mod fast;
mod ffi;
mod pool;
mod row;
mod single;
mod text;
mod utf8;

/// Inputs longer than this are decoded without the GIL.
pub(crate) const DETACH_BYTES: usize = 1 << 16;

/// `f()`, without the GIL if `detach`.
pub(crate) fn detach_if<T: Send>(py: Python<'_>, detach: bool, f: impl FnOnce() -> T + Send) -> T {
    if detach {
        py.detach(f)
    } else {
        f()
    }
}

/// Whether `enc` is one of the single-byte encodings (IBM866 to x-mac-cyrillic in the spec's
/// table).
pub(crate) fn is_single_byte(enc: &'static Encoding) -> bool {
    Encoding::all()[1..29].contains(&enc)
}

/// An encoding of the Encoding Standard: `.name` (the spec's name, `"Shift_JIS"`), `.labels`,
/// `.output_encoding`; equal (and hashed) by name.
///
/// >>> textcodec.lookup("sjis")
/// <Encoding Shift_JIS>
#[pyclass(name = "Encoding", module = "textcodec", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyEncoding(pub(crate) &'static Encoding);

#[pymethods]
impl PyEncoding {
    /// The spec's name: `"Shift_JIS"`, `"windows-1252"`.
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name()
    }

    /// Every label of the encoding, as in the spec's table.
    #[getter]
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.labels())
    }

    /// "get an output encoding": UTF-8 for replacement, UTF-16BE and UTF-16LE, else itself.
    #[getter]
    fn output_encoding(&self) -> PyEncoding {
        PyEncoding(self.0.output_encoding())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyEncoding>()
            .is_ok_and(|o| o.get().0 == self.0)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, self.0.name()).hash()
    }

    fn __repr__(&self) -> String {
        format!("<Encoding {}>", self.0.name())
    }

    fn __str__(&self) -> &'static str {
        self.0.name()
    }

    /// Pickled as its name (for multiprocessing, Dask and the like).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str,))> {
        Ok((py.import("textcodec")?.getattr("lookup")?, (self.0.name(),)))
    }
}

/// `label` as `str`, else `TypeError`.
pub(crate) fn expect_str<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
) -> PyResult<&'a Bound<'py, PyString>> {
    obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected str, got '{}'",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// "get an encoding" for a label that must exist: `TypeError` for a non-`str`, `LookupError`
/// for an unknown label.
pub(crate) fn lookup_label(label: &Bound<'_, PyAny>) -> PyResult<&'static Encoding> {
    if let Ok(e) = label.cast::<PyEncoding>() {
        return Ok(e.get().0);
    }
    let s = expect_str(label)?;
    label_encoding(s)
        .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {}", s.to_string_lossy())))
}

/// The label argument of the one-item functions: UTF-8 when not given.
pub(crate) fn label_or_utf8(label: Option<&Bound<'_, PyAny>>) -> PyResult<&'static Encoding> {
    label.map_or(Ok(textcodec::UTF_8), lookup_label)
}

fn label_encoding(s: &Bound<'_, PyString>) -> Option<&'static Encoding> {
    let text = ffi::utf8_of(s)?;
    // Programs pass the same few labels again and again: the last ones found are kept, by
    // their exact text, before "get an encoding" (which trims and lowercases each time).
    /// A label's text (up to 16 bytes), its length, and its encoding.
    type Recent = ([u8; 16], u8, Option<&'static Encoding>);
    thread_local! {
        static RECENT: std::cell::RefCell<[Recent; 4]> =
            const { std::cell::RefCell::new([([0; 16], 0, None); 4]) };
    }
    let bytes = text.as_bytes();
    if bytes.len() <= 16 {
        let hit = RECENT.with(|r| {
            r.borrow()
                .iter()
                .find(|(k, n, e)| {
                    e.is_some() && usize::from(*n) == bytes.len() && &k[..bytes.len()] == bytes
                })
                .and_then(|&(_, _, e)| e)
        });
        if hit.is_some() {
            return hit;
        }
    }
    let enc = Encoding::for_label(bytes);
    if let (Some(e), true) = (enc, bytes.len() <= 16) {
        RECENT.with(|r| {
            let mut r = r.borrow_mut();
            r.rotate_right(1);
            let mut key = [0u8; 16];
            key[..bytes.len()].copy_from_slice(bytes);
            r[0] = (key, bytes.len() as u8, Some(e));
        });
    }
    enc
}

/// "get an encoding": the encoding for `label` (any ASCII case, surrounding ASCII
/// whitespace), or `None`.
///
/// >>> textcodec.lookup("latin1").name
/// 'windows-1252'
#[pyfunction]
fn lookup(label: &Bound<'_, PyAny>) -> PyResult<Option<PyEncoding>> {
    Ok(label_encoding(expect_str(label)?).map(PyEncoding))
}

/// The 40 encodings, in the order of the spec's table.
#[pyfunction]
fn encodings<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, Encoding::all().iter().map(|&e| PyEncoding(e)))
}

/// For the tests: whether strings are written in place (`PyUnicode_New`) on this interpreter.
#[pyfunction]
fn _fast_strings() -> bool {
    ffi::fast_strings()
}

/// For the tests: makes every string by the limited API's decoders (`True`), as on an
/// interpreter where strings cannot be built in place, or in place again (`False`). Returns the
/// previous setting.
#[pyfunction]
fn _limited_strings(limited: bool) -> bool {
    ffi::set_limited_strings(limited)
}

/// For the tests: panics in Rust, on this thread (`"here"`) or on a worker thread
/// (`"thread"`), to show that a panic reaches Python as an exception.
#[pyfunction]
fn _panic(py: Python<'_>, r#where: &str) -> PyResult<()> {
    match r#where {
        "thread" => {
            // Through the worker threads of decode_many.
            py.detach(|| {
                batch::parallel(&[1, 1, 1], 3, |rows| {
                    if rows.start > 0 {
                        panic!("textcodec test panic on a worker thread");
                    }
                })
            });
        }
        _ => panic!("textcodec test panic"),
    }
    Ok(())
}

#[pymodule]
fn _textcodec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    ffi::init(m.py())?;
    m.add_class::<PyEncoding>()?;
    m.add_class::<decode::TextDecoder>()?;
    m.add_class::<encode::TextEncoder>()?;
    m.add_class::<decode::IncrementalDecoder>()?;
    m.add_class::<encode::IncrementalEncoder>()?;
    m.add_function(wrap_pyfunction!(lookup, m)?)?;
    m.add_function(wrap_pyfunction!(encodings, m)?)?;
    decode::DECODE.add_to(m)?;
    m.add_function(wrap_pyfunction!(decode::decode_with_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(encode::encode, m)?)?;
    m.add_function(wrap_pyfunction!(batch::decode_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::encode_many, m)?)?;
    m.add_class::<detect::Detection>()?;
    m.add_function(wrap_pyfunction!(detect::detect, m)?)?;
    m.add_function(wrap_pyfunction!(detect::sniff_html, m)?)?;
    m.add_function(wrap_pyfunction!(_fast_strings, m)?)?;
    m.add_function(wrap_pyfunction!(_limited_strings, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_byte_range() {
        let all = Encoding::all();
        assert_eq!(all[1], textcodec::IBM866);
        assert_eq!(all[28], textcodec::X_MAC_CYRILLIC);
        assert!(!is_single_byte(textcodec::UTF_8));
        assert!(!is_single_byte(textcodec::GBK));
        assert!(is_single_byte(textcodec::WINDOWS_1252));
    }
}
