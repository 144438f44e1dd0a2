//! Inputs that need no decoding: ASCII bytes, which every ASCII-compatible decoder (but
//! ISO-2022-JP's, for ESC, SO and SI) maps to themselves, copied straight into an ASCII string
//! after a check (checking first costs a pass over ASCII input, but copying while checking
//! would waste a whole string on input that is not ASCII after its first bytes).

use pyo3::prelude::*;
use pyo3::types::PyString;
use textcodec::{Encoding, ISO_2022_JP};

use crate::ffi::{self, Units};
use crate::text::Class;

/// `data` as a string if `enc`'s decoder maps it to itself byte for byte (ASCII).
pub(crate) fn ascii<'py>(
    py: Python<'py>,
    enc: &'static Encoding,
    data: &[u8],
) -> PyResult<Option<Bound<'py, PyString>>> {
    if !enc.is_ascii_compatible() || enc == ISO_2022_JP || !data.is_ascii() {
        return Ok(None);
    }
    ffi::new_string(py, data.len(), Class::Ascii, |out| {
        // An ASCII string has one byte per character.
        if let Units::U8(dst) = out {
            dst.copy_from_slice(data);
        }
    })
    .map(Some)
}
