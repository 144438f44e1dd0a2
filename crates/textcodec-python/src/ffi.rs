//! The FFI edge: the only module of the crate with `unsafe` code.
//!
//! - Python strings are built in place: `PyUnicode_New` allocates a string of the right
//!   kind (1, 2 or 4 bytes per character) and the text is written into its buffer, instead of
//!   going through UTF-8 and `PyUnicode_FromStringAndSize`, which would decode it once more.
//!   `PyUnicode_New` is exported by every CPython 3.3+ but is not in the limited API, and the
//!   offset of a compact string's characters changed in 3.12; the module finds both offsets
//!   from `sys.getsizeof` and checks them against strings made by CPython itself before it
//!   writes anything (see [`Layout`]). Where the check fails (or on Windows, whose `python3.dll`
//!   exports only the stable ABI) strings are made by the limited API's decoders instead.
//! - Bytes-like inputs are read through the buffer protocol ([`Bytes`]), writable ones for
//!   `TextEncoder.encode_into` ([`WritableBytes`]).
//! - `str` objects are read as UTF-8 through `PyUnicode_AsUTF8AndSize` ([`utf8_of`]).

use std::ffi::{c_char, c_int, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::text::{Class, Scan};

/// `Py_buffer`, as laid out by CPython since 3.3 (in the limited API only from 3.11).
#[repr(C)]
pub(crate) struct PyBufferView {
    buf: *mut std::ffi::c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut std::ffi::c_void,
}

impl PyBufferView {
    fn new() -> Self {
        PyBufferView {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        }
    }
}

const PYBUF_SIMPLE: c_int = 0;
const PYBUF_WRITABLE: c_int = 0x0001;

unsafe extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut PyBufferView, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut PyBufferView);
    /// `PyObject *PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)`: a new compact string of
    /// `size` characters whose kind is chosen by `maxchar`.
    #[cfg(not(windows))]
    fn PyUnicode_New(size: ffi::Py_ssize_t, maxchar: u32) -> *mut ffi::PyObject;
    /// `const char *PyUnicode_AsUTF8AndSize(PyObject *, Py_ssize_t *)`: in the limited API
    /// from 3.10, exported by every CPython 3.3+.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// Where the characters of a compact string start, measured on the running interpreter.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// After the header of an ASCII string (`PyASCIIObject`).
    ascii: usize,
    /// After the header of any other compact string (`PyCompactUnicodeObject`).
    compact: usize,
}

static LAYOUT: OnceLock<Option<Layout>> = OnceLock::new();

/// For the tests: strings are made by the limited API's decoders even where they could be
/// built in place ([`set_limited_strings`]).
static LIMITED: AtomicBool = AtomicBool::new(false);

/// The layout strings are built in place with, or `None` where they are made by the limited
/// API's decoders.
fn layout() -> Option<Layout> {
    if LIMITED.load(Ordering::Relaxed) {
        return None;
    }
    LAYOUT.get().copied().flatten()
}

/// For the tests: makes every string by the limited API's decoders (`true`), as on an
/// interpreter where they cannot be built in place, or in place again (`false`, where they
/// can). Returns the previous setting.
pub(crate) fn set_limited_strings(limited: bool) -> bool {
    LIMITED.swap(limited, Ordering::Relaxed)
}

const PROBE_LEN: usize = 64;

/// Measures and checks the layout once (at module initialisation).
pub(crate) fn init(py: Python<'_>) -> PyResult<()> {
    let layout = probe_layout(py)?;
    let _ = LAYOUT.set(layout);
    Ok(())
}

/// Whether strings are built in place on this interpreter.
pub(crate) fn fast_strings() -> bool {
    layout().is_some()
}

fn probe_layout(py: Python<'_>) -> PyResult<Option<Layout>> {
    if cfg!(windows) {
        return Ok(None);
    }
    let getsizeof = py.import("sys")?.getattr("getsizeof")?;
    // One probe string per kind, made by CPython's own constructors.
    let ascii: String = (0..PROBE_LEN).map(|i| char::from(b'!' + i as u8)).collect();
    let latin1: String = (0..PROBE_LEN).map(|i| char::from(0x80 + i as u8)).collect();
    let ucs2: String = (0..PROBE_LEN)
        .map(|i| char::from_u32(0x3041 + i as u32).unwrap())
        .collect();
    let ucs4: String = (0..PROBE_LEN)
        .map(|i| char::from_u32(0x1F300 + i as u32).unwrap())
        .collect();
    let mut offsets = [0usize; 4];
    for (k, (text, kind)) in [(&ascii, 1), (&latin1, 1), (&ucs2, 2), (&ucs4, 4)]
        .into_iter()
        .enumerate()
    {
        let s = PyString::new(py, text);
        let size: usize = getsizeof.call1((&s,))?.extract()?;
        // The object is its header, the characters and a terminating NUL character.
        let Some(offset) = size.checked_sub((PROBE_LEN + 1) * kind) else {
            return Ok(None);
        };
        if !(16..=256).contains(&offset) {
            return Ok(None);
        }
        let want: Vec<u8> = match kind {
            1 => text.chars().map(|c| c as u8).collect(),
            2 => text
                .chars()
                .flat_map(|c| (c as u16).to_ne_bytes())
                .collect(),
            _ => text
                .chars()
                .flat_map(|c| (c as u32).to_ne_bytes())
                .collect(),
        };
        // SAFETY: `s` is alive (we hold a reference) and `sys.getsizeof` reported its
        // allocation to be `size` bytes, so the `PROBE_LEN * kind` bytes read at `offset`
        // (`size - (PROBE_LEN + 1) * kind`) lie inside it; the bytes are only compared.
        let got =
            unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>().add(offset), want.len()) };
        if got != want.as_slice() {
            return Ok(None);
        }
        offsets[k] = offset;
    }
    if offsets[1] != offsets[2] || offsets[2] != offsets[3] {
        return Ok(None);
    }
    Ok(Some(Layout {
        ascii: offsets[0],
        compact: offsets[1],
    }))
}

/// A new string of `len` characters of class `class`, whose buffer `fill` writes: as bytes
/// (ASCII, Latin-1), `u16` (BMP) or `u32` (any) units, exactly `len` of them.
pub(crate) fn new_string<'py>(
    py: Python<'py>,
    len: usize,
    class: Class,
    fill: impl FnOnce(Units<'_>),
) -> PyResult<Bound<'py, PyString>> {
    if len == 0 {
        return Ok(PyString::new(py, ""));
    }
    match layout() {
        Some(layout) => new_string_in_place(py, len, class, layout, fill),
        _ => new_string_decoded(py, len, class, fill),
    }
}

/// A string under construction: `PyUnicode_New(capacity, class.max_char())`, whose
/// characters are written in place and which is then shrunk to the characters written
/// ([`Building::finish`]). Only where strings are built in place ([`fast_strings`]).
pub(crate) struct Building<'py> {
    s: Bound<'py, PyAny>,
    capacity: usize,
    class: Class,
    offset: usize,
}

impl<'py> Building<'py> {
    /// A new string of `capacity` characters of class `class` (not `Ascii`: a string shrunk
    /// to its ASCII characters would have the wrong kind), or `None` where strings are not
    /// built in place.
    pub(crate) fn new(py: Python<'py>, capacity: usize, class: Class) -> PyResult<Option<Self>> {
        debug_assert!(class != Class::Ascii);
        #[cfg(windows)]
        {
            // Python's DLL of the stable ABI has no `PyUnicode_New` (and LAYOUT is `None`).
            let _ = (py, capacity, class);
            Ok(None)
        }
        #[cfg(not(windows))]
        {
            let Some(layout) = layout() else {
                return Ok(None);
            };
            if capacity == 0 {
                return Ok(None);
            }
            let size = ffi::Py_ssize_t::try_from(capacity)
                .map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
            // SAFETY: the GIL is held (`py`); `PyUnicode_New` returns a new reference or NULL
            // with an exception set, which `from_owned_ptr_or_err` turns into `Err`.
            let s =
                unsafe { Bound::from_owned_ptr_or_err(py, PyUnicode_New(size, class.max_char()))? };
            Ok(Some(Building {
                s,
                capacity,
                class,
                offset: layout.compact,
            }))
        }
    }

    /// The string's `capacity` places (their content is unspecified until written).
    pub(crate) fn units(&mut self) -> Units<'_> {
        let base = self.s.as_ptr().cast::<u8>();
        let len = self.capacity;
        // SAFETY: `PyUnicode_New(capacity, maxchar)` made a compact string (not ASCII: the
        // class is not `Ascii`) of `capacity` places of the kind `class` selects, which
        // start at `layout.compact` (measured and checked on this interpreter by
        // `probe_layout`), aligned for their type. Nobody else holds a reference to the new
        // string, and `&mut self` makes this slice the only access to its places.
        unsafe {
            let at = base.add(self.offset);
            match self.class {
                Class::Ascii | Class::Latin1 => Units::U8(std::slice::from_raw_parts_mut(at, len)),
                Class::Bmp => Units::U16(std::slice::from_raw_parts_mut(at.cast::<u16>(), len)),
                Class::Astral => Units::U32(std::slice::from_raw_parts_mut(at.cast::<u32>(), len)),
            }
        }
    }

    /// The string of the first `len` places (`len <= capacity`), all of them written, of
    /// characters that need the string's class (one at or above U+0080 for `Latin1`, ...).
    pub(crate) fn finish(self, len: usize) -> PyResult<Bound<'py, PyString>> {
        assert!(len <= self.capacity);
        let py = self.s.py();
        let mut ptr = self.s.into_ptr();
        if len != self.capacity {
            // SAFETY: GIL held; `ptr` is our reference to a fresh string (reference count 1,
            // not hashed, not interned), which `PyUnicode_Resize` reallocates in place of its
            // kind (the NUL after the last character written by it), replacing `ptr` on
            // success and leaving it as it was on failure (-1, MemoryError set).
            let rc = unsafe { ffi::PyUnicode_Resize(&mut ptr, len as ffi::Py_ssize_t) };
            if rc != 0 {
                // SAFETY: `ptr` is still our reference (see above).
                drop(unsafe { Bound::from_owned_ptr(py, ptr) });
                return Err(PyErr::fetch(py));
            }
        }
        // SAFETY: `ptr` is a new reference to a str (ours, see above).
        let s: Bound<'py, PyAny> = unsafe { Bound::from_owned_ptr(py, ptr) };
        Ok(s.cast_into::<PyString>()?)
    }
}

/// Where a string's characters are written.
pub(crate) enum Units<'a> {
    /// One byte per character (ASCII or Latin-1).
    U8(&'a mut [u8]),
    /// UCS-2 (no character above U+FFFF).
    U16(&'a mut [u16]),
    /// UCS-4.
    U32(&'a mut [u32]),
}

#[cfg(not(windows))]
fn new_string_in_place<'py>(
    py: Python<'py>,
    len: usize,
    class: Class,
    layout: Layout,
    fill: impl FnOnce(Units<'_>),
) -> PyResult<Bound<'py, PyString>> {
    let size =
        ffi::Py_ssize_t::try_from(len).map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
    // SAFETY: the GIL is held (`py`); `PyUnicode_New` returns a new reference or NULL with an
    // exception set, which `from_owned_ptr_or_err` turns into `Err`.
    let s: Bound<'py, PyAny> =
        unsafe { Bound::from_owned_ptr_or_err(py, PyUnicode_New(size, class.max_char()))? };
    let base = s.as_ptr().cast::<u8>();
    // SAFETY: `PyUnicode_New(len, maxchar)` made a compact string (that is all it makes) of
    // `len` characters of the kind `class` selects: its characters follow the header, at
    // `layout.ascii` for ASCII strings and `layout.compact` for the others (measured and
    // checked on this interpreter by `probe_layout`), `len` units of 1, 2 or 4 bytes, aligned
    // for their type (the headers are multiples of 8 bytes). Nobody else holds a reference to
    // the new string, so the mutable slice is the only access until `fill` returns, and
    // `fill` writes every unit (the callers' contract), leaving a valid string.
    unsafe {
        match class {
            Class::Ascii => fill(Units::U8(std::slice::from_raw_parts_mut(
                base.add(layout.ascii),
                len,
            ))),
            Class::Latin1 => fill(Units::U8(std::slice::from_raw_parts_mut(
                base.add(layout.compact),
                len,
            ))),
            Class::Bmp => fill(Units::U16(std::slice::from_raw_parts_mut(
                base.add(layout.compact).cast::<u16>(),
                len,
            ))),
            Class::Astral => fill(Units::U32(std::slice::from_raw_parts_mut(
                base.add(layout.compact).cast::<u32>(),
                len,
            ))),
        }
    }
    Ok(s.cast_into::<PyString>()?)
}

#[cfg(windows)]
fn new_string_in_place<'py>(
    py: Python<'py>,
    len: usize,
    class: Class,
    _layout: Layout,
    fill: impl FnOnce(Units<'_>),
) -> PyResult<Bound<'py, PyString>> {
    new_string_decoded(py, len, class, fill)
}

/// The limited API's way: the characters in a Rust buffer, then CPython's Latin-1 or UTF-32
/// decoder (which copies them into a new string).
fn new_string_decoded<'py>(
    py: Python<'py>,
    len: usize,
    class: Class,
    fill: impl FnOnce(Units<'_>),
) -> PyResult<Bound<'py, PyString>> {
    Owned::filled(len, class, fill).into_string(py)
}

/// A string's characters in a Rust buffer, for the limited API's decoders.
enum Owned {
    /// ASCII or Latin-1.
    Bytes(Vec<u8>),
    /// BMP.
    Units(Vec<u16>),
    /// Any.
    Wide(Vec<u32>),
}

impl Owned {
    /// `len` characters of class `class`, written by `fill` (every one of them).
    fn filled(len: usize, class: Class, fill: impl FnOnce(Units<'_>)) -> Owned {
        match class {
            Class::Ascii | Class::Latin1 => {
                let mut buf = vec![0u8; len];
                fill(Units::U8(&mut buf));
                Owned::Bytes(buf)
            }
            Class::Bmp => {
                let mut buf = vec![0u16; len];
                fill(Units::U16(&mut buf));
                Owned::Units(buf)
            }
            Class::Astral => {
                let mut buf = vec![0u32; len];
                fill(Units::U32(&mut buf));
                Owned::Wide(buf)
            }
        }
    }

    fn into_string(self, py: Python<'_>) -> PyResult<Bound<'_, PyString>> {
        let obj = match self {
            Owned::Bytes(buf) => {
                // SAFETY: GIL held; `buf` is valid for its length; NULL errors means strict.
                unsafe {
                    ffi::PyUnicode_DecodeLatin1(
                        buf.as_ptr().cast(),
                        buf.len() as ffi::Py_ssize_t,
                        std::ptr::null(),
                    )
                }
            }
            Owned::Units(units) => {
                Owned::Wide(units.iter().map(|&u| u32::from(u)).collect()).utf32(py)
            }
            Owned::Wide(_) => self.utf32(py),
        };
        // SAFETY: GIL held; a new reference or NULL with an exception set.
        let s: Bound<'_, PyAny> = unsafe { Bound::from_owned_ptr_or_err(py, obj)? };
        Ok(s.cast_into::<PyString>()?)
    }

    /// `PyUnicode_DecodeUTF32` of `Wide` (a new reference or NULL with an exception set).
    fn utf32(self, _py: Python<'_>) -> *mut ffi::PyObject {
        let Owned::Wide(buf) = self else {
            unreachable!("UTF-32 is decoded from 4-byte units")
        };
        let mut order: c_int = if cfg!(target_endian = "little") {
            -1
        } else {
            1
        };
        // SAFETY: GIL held (`_py`); `buf` is valid for `4 * len` bytes; the byte order is
        // native; "surrogatepass" keeps any lone surrogate a handler put in the text.
        unsafe {
            ffi::PyUnicode_DecodeUTF32(
                buf.as_ptr().cast(),
                (4 * buf.len()) as ffi::Py_ssize_t,
                c"surrogatepass".as_ptr(),
                &mut order,
            )
        }
    }
}

/// A string made (with the GIL) before its characters are known, whose characters are then
/// written on any thread, without the GIL, before it is given to Python code
/// ([`Blank::into_string`]): `decode_many` allocates its strings on the calling thread, the
/// only one that may, and copies their characters on its worker threads.
///
/// Where strings are built in place, the `Blank` owns the only reference to a new string of
/// `PyUnicode_New`, whose characters are written in place; elsewhere it holds the characters
/// in a Rust buffer, which `into_string` gives to the limited API's decoders.
pub(crate) struct Blank(Slot);

enum Slot {
    /// The empty string (made by `into_string`: CPython's is shared).
    Empty,
    /// `PyUnicode_New(len, class.max_char())`, whose characters are at `offset`.
    InPlace {
        obj: Py<PyAny>,
        offset: usize,
        len: usize,
        class: Class,
        filled: bool,
    },
    /// The characters in a Rust buffer, once written.
    Owned {
        len: usize,
        class: Class,
        buf: Option<Owned>,
    },
}

impl Blank {
    /// A string of `len` characters of class `class` (the class of those characters: one at
    /// or above U+0080 for `Latin1`, ...), whose characters [`Blank::fill`] writes.
    pub(crate) fn new(py: Python<'_>, len: usize, class: Class) -> PyResult<Blank> {
        if len == 0 {
            return Ok(Blank(Slot::Empty));
        }
        #[cfg(not(windows))]
        if let Some(layout) = layout() {
            let size = ffi::Py_ssize_t::try_from(len)
                .map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
            // SAFETY: the GIL is held (`py`); `PyUnicode_New` returns a new reference or NULL
            // with an exception set, which `from_owned_ptr_or_err` turns into `Err`.
            let obj =
                unsafe { Bound::from_owned_ptr_or_err(py, PyUnicode_New(size, class.max_char()))? };
            let offset = if class == Class::Ascii {
                layout.ascii
            } else {
                layout.compact
            };
            return Ok(Blank(Slot::InPlace {
                obj: obj.unbind(),
                offset,
                len,
                class,
                filled: false,
            }));
        }
        let _ = py;
        Ok(Blank(Slot::Owned {
            len,
            class,
            buf: None,
        }))
    }

    /// Writes the string's characters: `fill` gets the string's `len` places (1, 2 or 4
    /// bytes each, by class; their content unspecified) and writes every one. Runs on any
    /// thread, with or without the GIL.
    pub(crate) fn fill(&mut self, fill: impl FnOnce(Units<'_>)) {
        match &mut self.0 {
            Slot::Empty => {}
            Slot::InPlace {
                obj,
                offset,
                len,
                class,
                filled,
            } => {
                let at = obj.as_ptr().cast::<u8>();
                let len = *len;
                // SAFETY: `obj` is the only reference to the compact string that
                // `PyUnicode_New(len, class.max_char())` made: the `Blank` owns it, is not
                // `Clone`, and gives it to no code until `into_string` consumes it (and `str`
                // objects are not tracked by the garbage collector, so not even
                // `gc.get_objects()` can reach it); `&mut self` makes this slice the only
                // access to its characters. A compact string's characters are inline, in the
                // object's own allocation after its header: `len` units of the kind `class`
                // selects at `offset` (measured and checked on this interpreter by
                // `probe_layout`), aligned for their type (the headers are multiples of 8
                // bytes). CPython never moves an object and our reference keeps it alive, so
                // the pointer is valid on any thread. The GIL is not needed: it guards
                // reference counts, the allocators and the objects other threads can reach,
                // and writing the characters of an object no other thread can reach touches
                // none of them (no reference count changes here, no Python API is called).
                // The `Blank` reaches the thread that gives the string to Python through a
                // channel or a thread's join, which orders these writes before its reads.
                // (Free-threaded CPython, where objects could be shared without a GIL, does
                // not load stable-ABI modules.)
                unsafe {
                    let at = at.add(*offset);
                    match class {
                        Class::Ascii | Class::Latin1 => {
                            fill(Units::U8(std::slice::from_raw_parts_mut(at, len)))
                        }
                        Class::Bmp => fill(Units::U16(std::slice::from_raw_parts_mut(
                            at.cast::<u16>(),
                            len,
                        ))),
                        Class::Astral => fill(Units::U32(std::slice::from_raw_parts_mut(
                            at.cast::<u32>(),
                            len,
                        ))),
                    }
                }
                *filled = true;
            }
            Slot::Owned { len, class, buf } => *buf = Some(Owned::filled(*len, *class, fill)),
        }
    }

    /// The string, once [`Blank::fill`] has written its characters (a panic otherwise).
    pub(crate) fn into_string(self, py: Python<'_>) -> PyResult<Bound<'_, PyString>> {
        match self.0 {
            Slot::Empty => Ok(PyString::new(py, "")),
            Slot::InPlace { obj, filled, .. } => {
                assert!(filled, "a string given to Python before its characters");
                // SAFETY: `obj` was made by `PyUnicode_New`: a `str` (no type check, which
                // would read the object's header from another core's cache).
                Ok(unsafe { obj.into_bound(py).cast_into_unchecked::<PyString>() })
            }
            Slot::Owned { buf, .. } => buf
                .expect("a string given to Python before its characters")
                .into_string(py),
        }
    }
}

/// A `bytes` object made (with the GIL) before its bytes are known, whose bytes are then
/// written on any thread, without the GIL, before it is given to Python code
/// ([`BlankBytes::into_bytes`]): `encode_many` allocates its objects on the calling thread and
/// copies their bytes on its worker threads. This is the limited API's own way
/// (`PyBytes_FromStringAndSize(NULL, len)`, whose contents the caller writes).
pub(crate) enum BlankBytes {
    /// `b""` (made by `into_bytes`: CPython's is shared).
    Empty,
    /// `PyBytes_FromStringAndSize(NULL, len)`, whose bytes are at `offset`.
    Made {
        obj: Py<PyAny>,
        offset: usize,
        len: usize,
        filled: bool,
    },
}

impl BlankBytes {
    /// A `bytes` object of `len` bytes, which [`BlankBytes::fill`] writes.
    pub(crate) fn new(py: Python<'_>, len: usize) -> PyResult<BlankBytes> {
        if len == 0 {
            return Ok(BlankBytes::Empty);
        }
        let size = ffi::Py_ssize_t::try_from(len)
            .map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
        // SAFETY: the GIL is held (`py`); with a NULL source, `PyBytes_FromStringAndSize`
        // returns a new `bytes` object of `size` bytes left for the caller to write (a new
        // one: only size 0 gives CPython's shared empty object), or NULL with an exception
        // set, which `from_owned_ptr_or_err` turns into `Err`.
        let obj = unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::PyBytes_FromStringAndSize(std::ptr::null(), size),
            )?
        };
        // SAFETY: GIL held; `obj` is a live `bytes` object, whose buffer `PyBytes_AsString`
        // returns (inside the object: CPython's bytes are one allocation).
        let data = unsafe { ffi::PyBytes_AsString(obj.as_ptr()) };
        if data.is_null() {
            return Err(PyErr::fetch(py));
        }
        let offset = (data as usize).wrapping_sub(obj.as_ptr() as usize);
        Ok(BlankBytes::Made {
            obj: obj.unbind(),
            offset,
            len,
            filled: false,
        })
    }

    /// Writes the bytes: `fill` gets the object's `len` bytes (their content unspecified) and
    /// writes every one. Runs on any thread, with or without the GIL.
    pub(crate) fn fill(&mut self, fill: impl FnOnce(&mut [u8])) {
        if let BlankBytes::Made {
            obj,
            offset,
            len,
            filled,
        } = self
        {
            // SAFETY: `obj` is the only reference to the `bytes` object that
            // `PyBytes_FromStringAndSize(NULL, len)` made for its caller to write (the
            // `BlankBytes` owns it, is not `Clone`, and gives it to no code until
            // `into_bytes` consumes it); `&mut self` makes this slice the only access to its
            // bytes. They are inline, `len` of them at `offset` from the object's start (where
            // `PyBytes_AsString` said, in the object's own allocation); CPython never moves an
            // object and our reference keeps it alive, so the pointer is valid on any thread.
            // The GIL is not needed: writing the bytes of an object no other thread can reach
            // changes no reference count and calls no Python API (see `Blank::fill`). The
            // `BlankBytes` reaches the thread that gives it to Python through a thread's join,
            // which orders these writes before its reads.
            let data = unsafe {
                std::slice::from_raw_parts_mut(obj.as_ptr().cast::<u8>().add(*offset), *len)
            };
            fill(data);
            *filled = true;
        }
    }

    /// The `bytes` object, once [`BlankBytes::fill`] has written it (a panic otherwise).
    pub(crate) fn into_bytes(self, py: Python<'_>) -> Bound<'_, PyBytes> {
        match self {
            BlankBytes::Empty => PyBytes::new(py, b""),
            BlankBytes::Made { obj, filled, .. } => {
                assert!(filled, "a bytes object given to Python before its bytes");
                // SAFETY: `obj` was made by `PyBytes_FromStringAndSize`: a `bytes` object.
                unsafe { obj.into_bound(py).cast_into_unchecked::<PyBytes>() }
            }
        }
    }
}

/// A string from UTF-16 units that hold no lone surrogate, of which `scan` is the summary.
pub(crate) fn string_from_utf16<'py>(
    py: Python<'py>,
    units: &[u16],
    scan: Scan,
) -> PyResult<Bound<'py, PyString>> {
    let class = scan.class();
    new_string(py, scan.chars(units.len()), class, |out| {
        crate::text::write_utf16(units, out)
    })
}

/// The text of a `str` as UTF-8, or `None` if it holds lone surrogates (which UTF-8 cannot
/// represent; the Python error is cleared).
pub(crate) fn utf8_of<'a>(s: &'a Bound<'_, PyString>) -> Option<&'a str> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: GIL held (`s` is bound); `s` is a str. The returned buffer belongs to `s` (it
    // is either the ASCII data or a UTF-8 copy cached in the object) and lives as long as
    // `s`, which the lifetime `'a` ties it to; strings are immutable.
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if ptr.is_null() {
        // A lone surrogate: the UnicodeEncodeError is not for the caller.
        let _ = PyErr::take(s.py());
        return None;
    }
    // SAFETY: CPython returned `size` bytes of valid UTF-8 at `ptr`, alive as said above.
    Some(unsafe {
        std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr.cast::<u8>(), size as usize))
    })
}

/// A read-only view of a bytes-like object (the buffer protocol), released on drop.
pub(crate) struct Bytes<'py> {
    view: Option<Box<PyBufferView>>,
    bytes: Option<Bound<'py, PyBytes>>,
    _py: std::marker::PhantomData<Python<'py>>,
}

// SAFETY (Send for the threads of `decode_many`): a `Py_buffer` export keeps the exporter's
// memory fixed until `PyBuffer_Release`, which only `Drop` calls, with the GIL held (the
// batch functions drop their views after re-attaching). The view is only read.
pub(crate) struct SendSlice(pub *const u8, pub usize);
unsafe impl Send for SendSlice {}
unsafe impl Sync for SendSlice {}
impl SendSlice {
    pub(crate) fn get(&self) -> &[u8] {
        // SAFETY: made from a live `&[u8]` by `Bytes::send_slice`, whose owner outlives every use
        // (see above).
        unsafe { std::slice::from_raw_parts(self.0, self.1) }
    }
}

/// A `&str` for other threads, made from the UTF-8 of a `str` that the caller keeps alive
/// (and so its cached UTF-8) while the threads run.
pub(crate) struct SendStr(SendSlice);

impl SendStr {
    pub(crate) fn new(s: &str) -> Self {
        SendStr(SendSlice(s.as_ptr(), s.len()))
    }

    pub(crate) fn get(&self) -> &str {
        // SAFETY: the bytes were a `&str` (valid UTF-8) when made, and cannot change (see above).
        unsafe { std::str::from_utf8_unchecked(self.0.get()) }
    }
}

impl<'py> Bytes<'py> {
    /// A view of `obj`: `bytes`, `bytearray`, `memoryview` or any C-contiguous buffer;
    /// `TypeError` for anything else (`str` included).
    pub(crate) fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Bytes {
                view: None,
                bytes: Some(b.clone()),
                _py: std::marker::PhantomData,
            });
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "a bytes-like object is required, not 'str'",
            ));
        }
        let mut view = Box::new(PyBufferView::new());
        // SAFETY: GIL held; `view` is a zeroed Py_buffer that CPython fills; PyBUF_SIMPLE
        // asks for one contiguous block of bytes (exporters that cannot give one refuse).
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, PYBUF_SIMPLE) };
        if rc != 0 {
            let _ = PyErr::take(obj.py());
            return Err(PyTypeError::new_err(format!(
                "a bytes-like object is required, not '{}'",
                obj.get_type().name()?
            )));
        }
        Ok(Bytes {
            view: Some(view),
            bytes: None,
            _py: std::marker::PhantomData,
        })
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        if let Some(b) = &self.bytes {
            return b.as_bytes();
        }
        let view = self.view.as_ref().expect("a view or bytes");
        if view.len == 0 || view.buf.is_null() {
            return &[];
        }
        // SAFETY: a successful PyObject_GetBuffer(PyBUF_SIMPLE) gives `len` contiguous bytes
        // at `buf`, valid until PyBuffer_Release (in Drop).
        unsafe { std::slice::from_raw_parts(view.buf.cast::<u8>(), view.len as usize) }
    }

    /// Whether the bytes cannot change (a `bytes` object), so that they may be read without
    /// the GIL.
    pub(crate) fn is_immutable(&self) -> bool {
        self.bytes.is_some()
    }

    /// The bytes, for other threads (see [`SendSlice`]).
    pub(crate) fn send_slice(&self) -> SendSlice {
        let s = self.as_slice();
        SendSlice(s.as_ptr(), s.len())
    }
}

impl Drop for Bytes<'_> {
    fn drop(&mut self) {
        if let Some(view) = self.view.as_mut() {
            // The GIL is held wherever a `Bytes` is dropped (it holds a `Bound<'py>` lifetime).
            // SAFETY: the view was filled by a successful PyObject_GetBuffer and is released once.
            unsafe { PyBuffer_Release(&mut **view) };
        }
    }
}

/// A writable, contiguous buffer (`bytearray`, writable `memoryview`, ...), released on drop.
pub(crate) struct WritableBytes {
    view: Box<PyBufferView>,
}

impl WritableBytes {
    pub(crate) fn new(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut view = Box::new(PyBufferView::new());
        // SAFETY: GIL held; PyBUF_WRITABLE asks for one contiguous writable block.
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, PYBUF_WRITABLE) };
        if rc != 0 {
            let _ = PyErr::take(obj.py());
            return Err(PyBufferError::new_err(format!(
                "a writable bytes-like object is required, not '{}'",
                obj.get_type().name()?
            )));
        }
        Ok(WritableBytes { view })
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.view.len == 0 || self.view.buf.is_null() {
            return &mut [];
        }
        // SAFETY: a successful PyObject_GetBuffer(PyBUF_WRITABLE) gives `len` contiguous,
        // writable bytes at `buf`, valid until PyBuffer_Release (in Drop); `&mut self` makes
        // this the only slice of them handed out.
        unsafe {
            std::slice::from_raw_parts_mut(self.view.buf.cast::<u8>(), self.view.len as usize)
        }
    }
}

impl Drop for WritableBytes {
    fn drop(&mut self) {
        // SAFETY: filled by a successful PyObject_GetBuffer, released once; the GIL is held
        // where it is dropped (encode_into).
        unsafe { PyBuffer_Release(&mut *self.view) };
    }
}

/// `PyMethodDef` as every CPython 3 lays it out, with the function as a `METH_FASTCALL |
/// METH_KEYWORDS` one (the arguments in a C array, keyword names in a tuple: no tuple or dict
/// made per call), which every CPython 3.7+ calls but the limited API declares only from
/// 3.10, for the functions called most often on short inputs.
#[repr(C)]
pub(crate) struct FastMethodDef {
    name: *const c_char,
    meth: FastCall,
    flags: c_int,
    doc: *const c_char,
}

/// A `METH_FASTCALL | METH_KEYWORDS` function: `(self, args, nargs, kwnames)`.
type FastCall = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    ffi::Py_ssize_t,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

// SAFETY (Sync): the definition is immutable and its pointers are to static strings and a
// function.
unsafe impl Sync for FastMethodDef {}

const METH_KEYWORDS: c_int = 0x0002;
const METH_FASTCALL: c_int = 0x0080;

impl FastMethodDef {
    pub(crate) const fn new(name: &'static CStr, meth: FastCall, doc: &'static CStr) -> Self {
        FastMethodDef {
            name: name.as_ptr(),
            meth,
            flags: METH_FASTCALL | METH_KEYWORDS,
            doc: doc.as_ptr(),
        }
    }

    /// Adds the function to module `m`.
    pub(crate) fn add_to(&'static self, m: &Bound<'_, PyModule>) -> PyResult<()> {
        let py = m.py();
        let module_name = m.name()?;
        // SAFETY: GIL held; `self` is a static `PyMethodDef` (same layout, see above) that
        // outlives the function object; `m` and its name are live objects (borrowed by
        // `PyCFunction_NewEx`, which takes its own references). A new reference or NULL with
        // an exception set.
        let f = unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::PyCFunction_NewEx(
                    (self as *const FastMethodDef)
                        .cast_mut()
                        .cast::<ffi::PyMethodDef>(),
                    m.as_ptr(),
                    module_name.as_ptr(),
                ),
            )?
        };
        // SAFETY: `self.name` is a static C string.
        let name = unsafe { CStr::from_ptr(self.name) }
            .to_str()
            .expect("ASCII name");
        m.add(name, f)
    }
}

/// The body of a `METH_FASTCALL | METH_KEYWORDS` function: its arguments matched to
/// `params` (by place, then by keyword), `f` called with them; a Rust panic becomes a
/// `PanicException` (it never unwinds into CPython).
///
/// # Safety
/// As CPython calls such a function: with the GIL held, `nargs` arguments at `args` followed
/// by one per name of the tuple `kwnames` (or NULL).
pub(crate) unsafe fn fastcall<const N: usize>(
    name: &str,
    params: [&str; N],
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    f: impl for<'py> FnOnce(Python<'py>, [Option<Bound<'py, PyAny>>; N]) -> PyResult<Bound<'py, PyAny>>,
) -> *mut ffi::PyObject {
    // SAFETY: CPython holds the GIL while it calls a C function.
    let py = unsafe { Python::assume_attached() };
    let run = || -> PyResult<Bound<'_, PyAny>> {
        let nargs = usize::try_from(nargs).unwrap_or(0);
        let nkw = if kwnames.is_null() {
            0
        } else {
            // SAFETY: `kwnames` is a tuple (CPython's calling convention).
            unsafe { Bound::from_borrowed_ptr(py, kwnames) }
                .cast::<pyo3::types::PyTuple>()?
                .len()
        };
        let arg = |i: usize| {
            // SAFETY: `i < nargs + nkw`, the length of the array at `args`, whose items are
            // live objects (borrowed: a reference of our own is taken).
            unsafe { Bound::from_borrowed_ptr(py, *args.add(i)) }
        };
        if nargs > N {
            return Err(PyTypeError::new_err(format!(
                "{name}() takes at most {N} arguments ({nargs} given)"
            )));
        }
        let mut values: [Option<Bound<'_, PyAny>>; N] = std::array::from_fn(|_| None);
        for (i, v) in values.iter_mut().enumerate().take(nargs) {
            *v = Some(arg(i));
        }
        if nkw > 0 {
            // SAFETY: as above.
            let names = unsafe { Bound::from_borrowed_ptr(py, kwnames) };
            for (k, key) in names.cast::<pyo3::types::PyTuple>()?.iter().enumerate() {
                let key = key.cast_into::<PyString>()?;
                let text = utf8_of(&key).unwrap_or("");
                let Some(at) = params.iter().position(|&p| p == text) else {
                    return Err(PyTypeError::new_err(format!(
                        "{name}() got an unexpected keyword argument '{text}'"
                    )));
                };
                if values[at].is_some() {
                    return Err(PyTypeError::new_err(format!(
                        "{name}() got multiple values for argument '{text}'"
                    )));
                }
                values[at] = Some(arg(nargs + k));
            }
        }
        f(py, values)
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(obj)) => obj.into_ptr(),
        Ok(Err(e)) => {
            e.restore(py);
            std::ptr::null_mut()
        }
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a Rust panic".into());
            pyo3::panic::PanicException::new_err(msg).restore(py);
            std::ptr::null_mut()
        }
    }
}

/// Asks the processor to bring the header of item `i` of `seq` (an exact list or tuple;
/// nothing for other sequences or an index out of range) into its cache: `decode_many`
/// reads the objects of a list one after another, each a cache miss of its own (the objects
/// are scattered over memory), so it asks for the next ones while it reads one.
pub(crate) fn prefetch_item(seq: &Bound<'_, PyAny>, i: usize) {
    let Ok(i) = ffi::Py_ssize_t::try_from(i) else {
        return;
    };
    let ptr = if let Ok(list) = seq.cast_exact::<pyo3::types::PyList>() {
        if i >= list.len() as ffi::Py_ssize_t {
            return;
        }
        // SAFETY: GIL held (`seq` is bound); `list` is a list and `i` is within its length,
        // so `PyList_GetItem` returns a borrowed reference to its item without an error
        // (the pointer is only prefetched, never dereferenced).
        unsafe { ffi::PyList_GetItem(list.as_ptr(), i) }
    } else if let Ok(tuple) = seq.cast_exact::<pyo3::types::PyTuple>() {
        if i >= tuple.len() as ffi::Py_ssize_t {
            return;
        }
        // SAFETY: as above, for a tuple.
        unsafe { ffi::PyTuple_GetItem(tuple.as_ptr(), i) }
    } else {
        return;
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of x86-64 (every x86-64 processor has it); a prefetch only
        // hints the cache and never faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast::<i8>().cast_const()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
