//! simdutf (the `simdutf` crate, Rust bindings of Lemire et al.'s C++ library), the
//! contender of issue 16 on the Unicode paths, behind safe functions: its conversions are
//! `unsafe fn`s over raw pointers, so this module is the benchmarks' FFI edge (shared by the
//! criterion suite, codecs.rs, and the goals harness, simdutf_goals.rs). Every function
//! checks the output buffer against the worst case of the conversion before calling.
//!
//! All conversions here are simdutf's validating ones (`convert_*`, not
//! `convert_valid_*`): they return 0 on invalid input, so they do the same work as a
//! decoder that must check its input. `None` means simdutf found the input invalid (or
//! empty).
#![allow(unsafe_code, dead_code)]

/// UTF-8 validation alone (`simdutf::validate_utf8`).
#[inline]
pub fn validate_utf8(src: &[u8]) -> bool {
    simdutf::validate_utf8(src)
}

/// Validates `src` as UTF-8 with simdutf, then copies it into `dst` (`copy_from_slice`):
/// the work of a UTF-8 to UTF-8 decode into a caller buffer. The bytes written.
#[inline]
pub fn validate_then_copy(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    if !simdutf::validate_utf8(src) {
        return None;
    }
    dst[..src.len()].copy_from_slice(src);
    Some(src.len())
}

/// UTF-8 to UTF-16LE with validation (`simdutf::convert_utf8_to_utf16le`). `dst` must
/// have at least `src.len()` units (one unit per byte at most, whatever the input).
#[inline]
pub fn utf8_to_utf16le(src: &[u8], dst: &mut [u16]) -> Option<usize> {
    assert!(dst.len() >= src.len(), "simdutf output buffer too small");
    // SAFETY: both pointers come from live slices (non-null and aligned for their types,
    // also when empty), `src` is readable for `src.len()` bytes, and `dst`, a distinct
    // `&mut` borrow (no overlap), is writable for `src.len()` units, the most a UTF-8
    // input of that length converts to (one UTF-16 unit per byte at most; simdutf writes
    // no more than the converted length).
    let n = unsafe { simdutf::convert_utf8_to_utf16le(src.as_ptr(), src.len(), dst.as_mut_ptr()) };
    (n != 0 || src.is_empty()).then_some(n)
}

/// UTF-16 (units in the machine's byte order) to UTF-8 with validation
/// (`simdutf::convert_utf16_to_utf8`): the encode from UTF-16 units. `dst` must have at
/// least `3 * src.len()` bytes.
#[inline]
pub fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    assert!(
        dst.len() >= 3 * src.len(),
        "simdutf output buffer too small"
    );
    // SAFETY: as in `utf16le_to_utf8`: live slices, no overlap, `dst` has room for the
    // worst case of three bytes per unit.
    let n = unsafe { simdutf::convert_utf16_to_utf8(src.as_ptr(), src.len(), dst.as_mut_ptr()) };
    (n != 0 || src.is_empty()).then_some(n)
}

/// UTF-16LE (units in memory, little-endian) to UTF-8 with validation
/// (`simdutf::convert_utf16le_to_utf8`). `dst` must have at least `3 * src.len()` bytes.
#[inline]
pub fn utf16le_to_utf8(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    assert!(
        dst.len() >= 3 * src.len(),
        "simdutf output buffer too small"
    );
    // SAFETY: both pointers come from live slices (non-null and aligned, also when
    // empty), `src` is readable for `src.len()` units, and `dst`, a distinct `&mut` borrow,
    // is writable for `3 * src.len()` bytes, the most any UTF-16 input of that length
    // converts to (three bytes per unit; a surrogate pair is two units for four bytes).
    let n = unsafe { simdutf::convert_utf16le_to_utf8(src.as_ptr(), src.len(), dst.as_mut_ptr()) };
    (n != 0 || src.is_empty()).then_some(n)
}

/// UTF-16BE (units in memory, big-endian) to UTF-8 with validation
/// (`simdutf::convert_utf16be_to_utf8`). `dst` must have at least `3 * src.len()` bytes.
#[inline]
pub fn utf16be_to_utf8(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    assert!(
        dst.len() >= 3 * src.len(),
        "simdutf output buffer too small"
    );
    // SAFETY: as in `utf16le_to_utf8`: live slices, no overlap, `dst` has room for the
    // worst case of three bytes per unit.
    let n = unsafe { simdutf::convert_utf16be_to_utf8(src.as_ptr(), src.len(), dst.as_mut_ptr()) };
    (n != 0 || src.is_empty()).then_some(n)
}

/// The UTF-16 units whose memory is `bytes` (UTF-16LE or UTF-16BE bytes), in a `Vec<u16>`,
/// aligned as simdutf's `*const u16` needs: the same memory a decoder reads as bytes.
pub fn units_of(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_ne_bytes([c[0], c[1]]))
        .collect()
}

mod ffi {
    extern "C" {
        /// `simdutf::get_active_implementation()` (C++, Itanium mangling): a reference to
        /// the `atomic_ptr<const implementation>` simdutf dispatches through. In the
        /// Itanium C++ ABI a reference is returned as a pointer, like in C.
        #[link_name = "_ZN7simdutf25get_active_implementationEv"]
        pub fn simdutf_get_active_implementation() -> *const *const ImplementationHead;
    }

    /// The start of simdutf's `class implementation` (simdutf.h): a polymorphic class whose
    /// first data members are `const char *_name; const char *_description;`, after the
    /// vtable pointer (Itanium C++ ABI layout).
    #[repr(C)]
    pub struct ImplementationHead {
        pub vtable: *const u8,
        pub name: *const core::ffi::c_char,
        pub description: *const core::ffi::c_char,
    }
}

/// The names simdutf gives its x86-64 and aarch64 kernels, and the one it picks when
/// `SIMDUTF_FORCE_IMPLEMENTATION` names none of them.
const KNOWN: &[&str] = &[
    "icelake",
    "haswell",
    "westmere",
    "arm64",
    "fallback",
    "unsupported",
];

/// The kernel simdutf dispatches to in this process (for example `haswell`), as simdutf's
/// `get_active_implementation()->name()` says, after one call has made it choose (its
/// choice is made on first use, from the CPU or `SIMDUTF_FORCE_IMPLEMENTATION`). The
/// `simdutf` crate does not expose it, so it is read through the C++ function; `None` if
/// what is read is not one of simdutf's kernel names.
pub fn active_kernel() -> Option<&'static str> {
    // A first call makes simdutf replace its "detect on first use" placeholder.
    std::hint::black_box(simdutf::validate_utf8(b"x"));
    // SAFETY: the function takes no argument and returns a reference to a static
    // `atomic_ptr`, whose only member is the pointer to the active implementation, a
    // static object that is never freed; after the call above that pointer is the chosen
    // implementation (a plain load, no thread changes it here). `ImplementationHead`
    // repeats the layout of `class implementation`'s first members; `name` is then a
    // NUL-terminated string literal. The result is only accepted if it is one of the
    // known names.
    let name = unsafe {
        let active = ffi::simdutf_get_active_implementation();
        if active.is_null() || (*active).is_null() {
            return None;
        }
        let name = (**active).name;
        if name.is_null() {
            return None;
        }
        core::ffi::CStr::from_ptr(name)
    };
    let name = name.to_str().ok()?;
    KNOWN.iter().copied().find(|k| *k == name)
}
