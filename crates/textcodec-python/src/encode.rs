//! Encoding Python strings: the spec's "encode", `TextEncoder`, and the incremental encoder
//! behind the codec machinery, with Python's error handlers.
//!
//! A `str` is read as UTF-8 (CPython keeps that form cached in the object). A `str` with lone
//! surrogates has no UTF-8 form: it is read with `surrogatepass`, each surrogate (three bytes
//! `ED A0..BF xx`) being an unencodable character for the error handler, so that
//! `surrogateescape` gives back the bytes it stood for.

use pyo3::exceptions::{PyMemoryError, PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use textcodec::{Encoder, EncoderErrorMode, Encoding, ISO_2022_JP};

use crate::ffi::{self, WritableBytes};
use crate::{lookup_label, PyEncoding};

/// What to do with a character the encoding cannot represent.
pub(crate) enum Policy<'py> {
    /// `&#NNNN;`: the spec's html mode (Python's `xmlcharrefreplace`).
    Html,
    /// `UnicodeEncodeError`.
    Strict,
    /// A handler registered with `codecs.register_error`.
    Handler(Bound<'py, PyAny>),
}

impl<'py> Policy<'py> {
    pub(crate) fn new(py: Python<'py>, errors: &str) -> PyResult<Self> {
        Ok(match errors {
            "xmlcharrefreplace" => Policy::Html,
            "strict" => Policy::Strict,
            _ => Policy::Handler(
                py.import("codecs")?
                    .call_method1("lookup_error", (errors,))?,
            ),
        })
    }
}

/// The text of a `str` as UTF-8, or (with lone surrogates) as UTF-8 with surrogates
/// (`surrogatepass`), which is not a `str`.
pub(crate) enum Utf8<'a> {
    Str(&'a str),
    Surrogates(Vec<u8>),
}

impl Utf8<'_> {
    pub(crate) fn of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Utf8<'a>> {
        if let Some(t) = ffi::utf8_of(s) {
            return Ok(Utf8::Str(t));
        }
        let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
        Ok(Utf8::Surrogates(
            b.cast_into::<PyBytes>()?.as_bytes().to_vec(),
        ))
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Utf8::Str(s) => s.as_bytes(),
            Utf8::Surrogates(v) => v,
        }
    }
}

/// The number of characters in UTF-8 (with surrogates) `b`: its bytes that are not
/// continuation bytes.
fn chars(b: &[u8]) -> usize {
    b.iter().filter(|&&x| (x as i8) >= -0x40).count()
}

/// The byte offset of character `n` of UTF-8 (with surrogates) `b`.
fn offset_of_char(b: &[u8], n: usize) -> usize {
    let mut seen = 0;
    for (i, &x) in b.iter().enumerate() {
        if (x as i8) >= -0x40 {
            if seen == n {
                return i;
            }
            seen += 1;
        }
    }
    b.len()
}

/// The end of the UTF-8 run of `b` from `from` that holds no surrogate.
fn next_surrogate(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(k) = b[i..].iter().position(|&x| x == 0xED) {
        let at = i + k;
        if b.get(at + 1).is_some_and(|&x| x >= 0xA0) {
            return at;
        }
        i = at + 1;
    }
    b.len()
}

fn encode_error<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    text: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyAny>> {
    PyUnicodeEncodeError::type_object(py).call1((
        enc.name(),
        text,
        start,
        end,
        "character not representable in this encoding",
    ))
}

use pyo3::type_object::PyTypeInfo;

/// Encodes UTF-8 `s` with `enc` as far as it can, appending to `out`; `Err` with the
/// position (in `s`) of the start and end of the first unencodable character and the value
/// the spec reports for it.
fn encode_str(
    enc: &mut Encoder,
    s: &str,
    last: bool,
    out: &mut Vec<u8>,
) -> PyResult<Result<(), (usize, usize, char)>> {
    let mut pos = 0;
    loop {
        let max = enc
            .max_buffer_length_from_utf8(s.len() - pos)
            .ok_or_else(|| PyMemoryError::new_err("input too long"))?;
        let used = out.len();
        out.resize(used + max, 0);
        match enc.encode_from_utf8(&s[pos..], &mut out[used..], last) {
            Ok(p) => {
                out.truncate(used + p.written);
                if p.status == textcodec::Status::InputEmpty {
                    return Ok(Ok(()));
                }
                pos += p.read;
            }
            Err(e) => {
                out.truncate(used + e.written);
                let end = pos + e.read;
                // The character read last (ISO-2022-JP reports U+000E, U+000F and U+001B as
                // U+FFFD).
                let c = s[..end]
                    .chars()
                    .next_back()
                    .expect("the error read a character");
                return Ok(Err((end - c.len_utf8(), end, e.unmappable)));
            }
        }
    }
}

/// Encodes `text` (whose UTF-8 is `u8s`) with `enc` (in fatal mode), appending to `out`.
pub(crate) fn run<'py>(
    py: Python<'py>,
    enc: &mut Encoder,
    text: &Bound<'py, PyString>,
    u8s: &Utf8<'_>,
    last: bool,
    policy: &Policy<'py>,
    out: &mut Vec<u8>,
) -> PyResult<()> {
    let b = u8s.bytes();
    let mut pos = 0; // bytes of `b` done
    let (mut counted, mut chars_before) = (0usize, 0usize); // chars in b[..counted]
    while pos < b.len() {
        let stop = match u8s {
            Utf8::Str(_) => b.len(),
            Utf8::Surrogates(_) => next_surrogate(b, pos),
        };
        // The bad character: its byte range, and what html mode writes for it.
        let (bad_start, bad_end, value) = if stop > pos {
            let seg = match u8s {
                Utf8::Str(s) => &s[pos..stop],
                Utf8::Surrogates(v) => {
                    std::str::from_utf8(&v[pos..stop]).expect("UTF-8 between surrogates")
                }
            };
            match encode_str(enc, seg, false, out)? {
                Ok(()) => {
                    pos = stop;
                    continue;
                }
                Err((s, e, c)) => (pos + s, pos + e, u32::from(c)),
            }
        } else {
            let s = (u32::from(b[pos] & 0x0F) << 12)
                | (u32::from(b[pos + 1] & 0x3F) << 6)
                | u32::from(b[pos + 2] & 0x3F);
            (pos, pos + 3, s)
        };
        chars_before += chars(&b[counted..bad_start]);
        counted = bad_start;
        let (start_c, end_c) = (chars_before, chars_before + 1);
        match policy {
            Policy::Html => {
                // "html": the decimal character reference, itself encoded (ISO-2022-JP may
                // have to switch back to ASCII for it).
                let reference = format!("&#{value};");
                if encode_str(enc, &reference, false, out)?.is_err() {
                    return Err(PyErr::from_value(encode_error(
                        py,
                        enc.encoding(),
                        text,
                        start_c,
                        end_c,
                    )?));
                }
                pos = bad_end;
            }
            Policy::Strict => {
                return Err(PyErr::from_value(encode_error(
                    py,
                    enc.encoding(),
                    text,
                    start_c,
                    end_c,
                )?))
            }
            Policy::Handler(h) => {
                let exc = encode_error(py, enc.encoding(), text, start_c, end_c)?;
                let r = h.call1((exc.clone(),))?;
                let total = chars_before + chars(&b[counted..]);
                let (rep, newpos) = handler_result(&r, total)?;
                if let Ok(bytes) = rep.cast::<PyBytes>() {
                    out.extend_from_slice(bytes.as_bytes());
                } else if let Ok(s) = rep.cast::<PyString>() {
                    match ffi::utf8_of(s) {
                        Some(t) => {
                            if encode_str(enc, t, false, out)?.is_err() {
                                return Err(PyErr::from_value(exc));
                            }
                        }
                        None => return Err(PyErr::from_value(exc)),
                    }
                } else {
                    return Err(PyTypeError::new_err(
                        "encoding error handler must return (str/bytes, int) tuple",
                    ));
                }
                if newpos == end_c {
                    pos = bad_end;
                } else {
                    pos = offset_of_char(b, newpos);
                    counted = pos;
                    chars_before = newpos;
                    continue;
                }
            }
        }
    }
    if last {
        encode_str(enc, "", true, out)?.expect("the end of the stream is always encodable");
    }
    Ok(())
}

fn handler_result<'py>(r: &Bound<'py, PyAny>, len: usize) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let bad = || PyTypeError::new_err("encoding error handler must return (str/bytes, int) tuple");
    let t = r.cast::<pyo3::types::PyTuple>().map_err(|_| bad())?;
    if t.len() != 2 {
        return Err(bad());
    }
    let pos: isize = t.get_item(1)?.extract().map_err(|_| bad())?;
    let abs = if pos < 0 { len as isize + pos } else { pos };
    if abs < 0 || abs as usize > len {
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "position {pos} from error handler out of bounds"
        )));
    }
    Ok((t.get_item(0)?, abs as usize))
}

pub(crate) fn new_encoder(enc: &'static Encoding) -> Encoder {
    enc.new_encoder(EncoderErrorMode::Fatal)
}

/// Encodes all of `text` to `enc`'s output encoding.
pub(crate) fn encode_all<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    text: &Bound<'py, PyString>,
    errors: &str,
) -> PyResult<Vec<u8>> {
    let policy = Policy::new(py, errors)?;
    let u8s = Utf8::of(text)?;
    if let (Policy::Html, Utf8::Str(s)) = (&policy, &u8s) {
        // The whole string at once in html mode.
        let mut e = enc.new_encoder(EncoderErrorMode::Html);
        let max = e
            .max_buffer_length_from_utf8(s.len())
            .ok_or_else(|| PyMemoryError::new_err("input too long"))?;
        let mut out = vec![0u8; max];
        let p = e
            .encode_from_utf8(s, &mut out, true)
            .expect("html mode never fails");
        out.truncate(p.written);
        return Ok(out);
    }
    let mut e = new_encoder(enc);
    let mut out = Vec::new();
    run(py, &mut e, text, &u8s, true, &policy, &mut out)?;
    Ok(out)
}

/// `textcodec.encode(text, label="utf-8", errors="xmlcharrefreplace")`: the spec's "encode"
/// to the label's output encoding; `xmlcharrefreplace` is its html mode.
///
/// >>> textcodec.encode("naïve ☃", "latin1")
/// b'na\xefve &#9731;'
#[pyfunction]
#[pyo3(signature = (text, label = None, errors = "xmlcharrefreplace"))]
pub(crate) fn encode<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let enc = crate::label_or_utf8(label)?;
    let text = crate::expect_str(text)?;
    Ok(PyBytes::new(py, &encode_all(py, enc, text, errors)?))
}

/// The JavaScript `TextEncoder` (UTF-8; lone surrogates become U+FFFD).
///
/// >>> textcodec.TextEncoder().encode("€")
/// b'\xe2\x82\xac'
#[pyclass(name = "TextEncoder", module = "textcodec", frozen)]
pub(crate) struct TextEncoder;

/// The UTF-8 of `text` with each lone surrogate as U+FFFD (a JavaScript USVString).
fn usv_utf8<'a>(text: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    if let Some(s) = ffi::utf8_of(text) {
        return Ok(std::borrow::Cow::Borrowed(s));
    }
    let b = text.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
    let b = b.cast_into::<PyBytes>()?;
    let units: Vec<u16> = b
        .as_bytes()
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok(std::borrow::Cow::Owned(String::from_utf16_lossy(&units)))
}

#[pymethods]
impl TextEncoder {
    #[new]
    fn new() -> Self {
        TextEncoder
    }

    /// Always `"utf-8"`.
    #[getter]
    fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as in JavaScript).
    #[pyo3(signature = (text = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let Some(text) = text else {
            return Ok(PyBytes::new(py, b""));
        };
        let text = crate::expect_str(text)?;
        Ok(PyBytes::new(py, usv_utf8(text)?.as_bytes()))
    }

    /// Writes as much of `text` as fits into `buffer` (a writable bytes-like object), never
    /// part of a character; returns `(characters read, bytes written)`. Bytes of `buffer`
    /// past those written are left as they were.
    fn encode_into(
        &self,
        text: &Bound<'_, PyAny>,
        buffer: &Bound<'_, PyAny>,
    ) -> PyResult<(usize, usize)> {
        let text = crate::expect_str(text)?;
        let s = usv_utf8(text)?;
        let mut dst = WritableBytes::new(buffer)?;
        let r = textcodec::TextEncoder::new().encode_into(&s, dst.as_mut_slice());
        Ok((chars(&s.as_bytes()[..r.read]), r.written))
    }

    fn __repr__(&self) -> &'static str {
        "TextEncoder()"
    }
}

/// ISO-2022-JP encoder states ("ISO-2022-JP encoder state": ASCII, Roman, JIS X 0208), told
/// apart by what a clone writes.
fn iso2022jp_state(e: &Encoder) -> u8 {
    let mut buf = [0u8; 16];
    let mut x = e.clone();
    if matches!(x.encode_from_utf8("\\", &mut buf, false), Ok(p) if p.written == 1) {
        return 0;
    }
    let mut x = e.clone();
    if matches!(x.encode_from_utf8("\u{A5}", &mut buf, false), Ok(p) if p.written == 1) {
        return 1;
    }
    2
}

/// The incremental encoder behind `register()`, with any error handler.
#[pyclass(name = "_IncrementalEncoder", module = "textcodec")]
pub(crate) struct IncrementalEncoder {
    encoder: Encoder,
}

#[pymethods]
impl IncrementalEncoder {
    #[new]
    fn new(label: &Bound<'_, PyAny>) -> PyResult<Self> {
        let enc = lookup_label(label)?;
        Ok(IncrementalEncoder {
            encoder: new_encoder(enc),
        })
    }

    #[pyo3(signature = (text, r#final = false, errors = "strict"))]
    fn encode<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        r#final: bool,
        errors: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let policy = Policy::new(py, errors)?;
        let text = crate::expect_str(text)?;
        let u8s = Utf8::of(text)?;
        let mut e = self.encoder.clone();
        let mut out = Vec::new();
        run(py, &mut e, text, &u8s, r#final, &policy, &mut out)?;
        self.encoder = e;
        Ok(PyBytes::new(py, &out))
    }

    fn reset(&mut self) {
        self.encoder.reset();
    }

    /// 0 except for ISO-2022-JP: 0 ASCII, 1 Roman, 2 JIS X 0208.
    fn getstate(&self) -> u8 {
        if self.encoder.encoding() == ISO_2022_JP {
            iso2022jp_state(&self.encoder)
        } else {
            0
        }
    }

    fn setstate(&mut self, state: u8) {
        self.encoder.reset();
        if self.encoder.encoding() == ISO_2022_JP {
            let mut buf = [0u8; 16];
            let set = match state {
                1 => "\u{A5}",
                2 => "\u{3000}",
                _ => "",
            };
            let _ = self.encoder.encode_from_utf8(set, &mut buf, false);
        }
    }

    #[getter]
    fn encoding(&self) -> PyEncoding {
        PyEncoding(self.encoder.encoding())
    }
}
