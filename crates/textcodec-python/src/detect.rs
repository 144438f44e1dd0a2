//! `detect` and `sniff_html`: what encoding is this? Over the core's `textcodec::detect`.

use pyo3::prelude::*;
use textcodec::detect::{Confidence, Detector, Source};
use textcodec::Encoding;

use crate::ffi::Bytes;
use crate::PyEncoding;

/// The answer of `detect` or `sniff_html`: `.encoding`, `.score` (0 to 1: 1 for a byte order
/// mark or a declaration, the Detector's score for a guess), `.source` (`"bom"`, `"meta"`,
/// `"guess"`, and for `sniff_html` also `"transport"`: the Content-Type's charset) and
/// `.confidence` (`"certain"` or `"tentative"`, as the HTML Standard says).
#[pyclass(name = "Detection", module = "textcodec", frozen)]
pub(crate) struct Detection {
    encoding: &'static Encoding,
    score: f32,
    source: &'static str,
    certain: bool,
}

#[pymethods]
impl Detection {
    #[getter]
    fn encoding(&self) -> PyEncoding {
        PyEncoding(self.encoding)
    }

    #[getter]
    fn score(&self) -> f64 {
        f64::from(self.score)
    }

    #[getter]
    fn source(&self) -> &'static str {
        self.source
    }

    #[getter]
    fn confidence(&self) -> &'static str {
        if self.certain {
            "certain"
        } else {
            "tentative"
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Detection(encoding=<Encoding {}>, score={:.2}, source={:?}, confidence={:?})",
            self.encoding.name(),
            self.score,
            self.source,
            self.confidence()
        )
    }
}

/// A top-level domain as the Detector takes it: ASCII, lower case, without the dot.
fn tld_bytes(tld: Option<&str>) -> Option<Vec<u8>> {
    tld.map(|t| t.trim_start_matches('.').to_ascii_lowercase().into_bytes())
}

/// The Detector's guess over all of `data`, and its score.
fn guess(data: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> (&'static Encoding, f32) {
    let mut detector = Detector::new();
    detector.feed(data, true);
    let encoding = detector.guess(tld, allow_utf8);
    let score = detector
        .candidates(tld, allow_utf8)
        .into_iter()
        .find(|&(e, _)| e == encoding)
        .map_or(0.0, |(_, s)| s);
    (encoding, score)
}

/// `textcodec.detect(data, *, tld=None, allow_utf8=True)`: the encoding of undeclared text.
/// A byte order mark, then an HTML `<meta charset>` or XML declaration in the first 1024
/// bytes, then the statistical guess over all of `data` (as the `textcodec detect` command).
/// `tld`: the top-level domain the text came from (`"jp"`), which breaks ties as browsers do.
///
/// >>> textcodec.detect(b"\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd").encoding
/// <Encoding Shift_JIS>
#[pyfunction]
#[pyo3(signature = (data, *, tld = None, allow_utf8 = true))]
pub(crate) fn detect(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    tld: Option<&str>,
    allow_utf8: bool,
) -> PyResult<Detection> {
    let bytes = Bytes::new(data)?;
    let data = bytes.as_slice();
    if let Some((encoding, _)) = Encoding::for_bom(data) {
        return Ok(Detection {
            encoding,
            score: 1.0,
            source: "bom",
            certain: true,
        });
    }
    if let Some(encoding) =
        textcodec::detect::prescan(&data[..data.len().min(textcodec::detect::PRESCAN_BYTES)])
    {
        return Ok(Detection {
            encoding,
            score: 1.0,
            source: "meta",
            certain: false,
        });
    }
    let tld = tld_bytes(tld);
    let (encoding, score) = if bytes.is_immutable() && data.len() > crate::DETACH_BYTES {
        py.detach(|| guess(data, tld.as_deref(), allow_utf8))
    } else {
        guess(data, tld.as_deref(), allow_utf8)
    };
    Ok(Detection {
        encoding,
        score,
        source: "guess",
        certain: false,
    })
}

/// `textcodec.sniff_html(data, content_type=None, tld=None)`: the HTML Standard's encoding
/// sniffing algorithm: a byte order mark (certain), the Content-Type header's charset
/// (certain), a `<meta>` or XML declaration in the first 1024 bytes, then the statistical
/// guess (UTF-8 not allowed, as browsers do for Web content), tentative.
///
/// >>> textcodec.sniff_html(b"<meta charset=koi8-r>").encoding
/// <Encoding KOI8-R>
#[pyfunction]
#[pyo3(signature = (data, content_type = None, tld = None))]
pub(crate) fn sniff_html(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    content_type: Option<&str>,
    tld: Option<&str>,
) -> PyResult<Detection> {
    let bytes = Bytes::new(data)?;
    let data = bytes.as_slice();
    let tld = tld_bytes(tld);
    let run = || {
        let s =
            textcodec::detect::sniff_html(data, content_type.map(str::as_bytes), tld.as_deref());
        let (source, score) = match s.source {
            Source::Bom => ("bom", 1.0),
            Source::Transport => ("transport", 1.0),
            Source::Prescan | Source::XmlDeclaration => ("meta", 1.0),
            Source::Detector | Source::Default => ("guess", guess(data, tld.as_deref(), false).1),
        };
        Detection {
            encoding: s.encoding,
            score,
            source,
            certain: s.confidence == Confidence::Certain,
        }
    };
    Ok(
        if bytes.is_immutable() && data.len() > crate::DETACH_BYTES {
            py.detach(run)
        } else {
            run()
        },
    )
}
