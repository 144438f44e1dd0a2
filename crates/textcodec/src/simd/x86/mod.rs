//! SSE2, AVX2 and AVX-512 kernels. Each public function here is safe: it checks that the CPU has the
//! instruction set (the check is a cached load) and that the slices have the lengths the
//! `unsafe` body relies on, and otherwise falls back to the scalar kernel.

use core::arch::x86_64::*;

use super::lookup::{
    Pack, BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH, KEEP_U16_LANES, PACK_1_2, PACK_1_2_3,
    PACK_UTF8_LANES, TAIL_SHIFT,
};
use super::{detected_is, scalar, ByteRun, Level};

mod ascii;
mod isomorphic;
mod latin;
mod single_byte;
mod utf16_to_utf8;
mod utf8_to_utf16;
mod utf8_validate;
pub(crate) use ascii::*;
pub(crate) use isomorphic::*;
pub(crate) use latin::*;
pub(crate) use single_byte::*;
pub(crate) use utf16_to_utf8::*;
pub(crate) use utf8_to_utf16::*;
pub(crate) use utf8_validate::*;

/// Whether the CPU has AVX2: the one feature test (a cached load), not `detected_level`,
/// whose AVX-512 tests would be inlined into every kernel call (they cost up to 30 % of the
/// instructions of the CJK decoders' loops).
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

/// Whether the CPU has what the AVX-512 kernels enable (`#[target_feature(enable =
/// "avx2,avx512f,avx512bw,avx512vl")]`, with `avx512vbmi`, `avx512vbmi2`, `popcnt`, `bmi1`,
/// `bmi2` and `lzcnt` for the UTF-8 and UTF-16 conversions and UTF-8 validation: the features
/// `detected_level` checks for the level).
///
/// Remembered after the first call ([`detected_is`]): a load and a compare, where
/// `detected_level` (nine feature tests in a function of its own) cost every call of an
/// AVX-512 kernel about ten cycles (Big5 to UTF-16, HTML: a tenth of the time, in one call
/// per ASCII run).
#[inline(always)]
fn has_avx512() -> bool {
    detected_is(Level::Avx512)
}

/// The mask of the first `k` of 64 lanes (all of them for `k >= 64`), for AVX-512's masked
/// loads and stores.
#[inline(always)]
fn first_lanes64(k: usize) -> u64 {
    if k >= 64 {
        !0
    } else {
        (1u64 << k) - 1
    }
}

/// 32 bytes 0xFF then 32 bytes 0: the 16 or 32 bytes at `32 - k` select a vector's first `k`
/// bytes.
static PREFIX: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 32 {
        t[k] = 0xFF;
        k += 1;
    }
    t
};

/// Stores the first `k` bytes of `v` at `d` (`k <= 16`): the other bytes of the 16 at `d`
/// are written back as they were read, so nothing past the `k` changes.
///
/// # Safety
/// The 16 bytes at `d` readable and writable, no reference to them live.
#[inline(always)]
unsafe fn store_prefix16(d: *mut u8, v: __m128i, k: usize) {
    debug_assert!(k <= 16);
    // SAFETY: the caller's contract; SSE2 is baseline; the 16 bytes of PREFIX at
    // `32 - k` (16 <= 32 - k <= 32) are within it; unaligned loads and store.
    unsafe {
        let m = _mm_loadu_si128(PREFIX.as_ptr().add(32 - k) as *const __m128i);
        let old = _mm_loadu_si128(d as *const __m128i);
        let v = _mm_or_si128(_mm_and_si128(m, v), _mm_andnot_si128(m, old));
        _mm_storeu_si128(d as *mut __m128i, v);
    }
}

/// Stores the first `k` bytes of `v` at `d` (`k <= 32`), as [`store_prefix16`].
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined); the 32
/// bytes at `d` readable and writable, no reference to them live.
#[inline(always)]
unsafe fn store_prefix32(d: *mut u8, v: __m256i, k: usize) {
    debug_assert!(k <= 32);
    // SAFETY: the caller's contract; the 32 bytes of PREFIX at `32 - k` are within it;
    // unaligned loads and store.
    unsafe {
        let m = _mm256_loadu_si256(PREFIX.as_ptr().add(32 - k) as *const __m256i);
        let old = _mm256_loadu_si256(d as *const __m256i);
        _mm256_storeu_si256(d as *mut __m256i, _mm256_blendv_epi8(old, v, m));
    }
}

/// One vector width of the kernels written once for SSE2 (16 bytes) and AVX2 (32 bytes):
/// the operations they share. The methods are `#[inline(always)]`: a generic kernel
/// instantiated inside a `#[target_feature]` function compiles to that width's instructions,
/// as if written for it.
pub(super) trait Width {
    /// Bytes per vector.
    const BYTES: usize;
    /// The vector.
    type V: Copy;
    /// Loads the `BYTES` bytes at `p` (unaligned).
    ///
    /// # Safety
    /// The width's instructions present; the `BYTES` bytes at `p` readable.
    unsafe fn load(p: *const u8) -> Self::V;
    /// Stores `v` at `p` (unaligned).
    ///
    /// # Safety
    /// The width's instructions present; the `BYTES` bytes at `p` writable.
    unsafe fn store(p: *mut u8, v: Self::V);
    /// The top bit of each byte of `v`, byte `k` in bit `k`.
    ///
    /// # Safety
    /// The width's instructions present.
    unsafe fn movemask(v: Self::V) -> u32;
    /// Stores the first `k` bytes of `v` at `d` and nothing else ([`store_prefix16`],
    /// [`store_prefix32`]).
    ///
    /// # Safety
    /// The width's instructions present; the `BYTES` bytes at `d` readable and writable, no
    /// reference to them live.
    unsafe fn store_prefix(d: *mut u8, v: Self::V, k: usize);
}

/// SSE2's 16 bytes (the x86-64 baseline).
pub(super) struct Sse2;

impl Width for Sse2 {
    const BYTES: usize = 16;
    type V = __m128i;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m128i {
        // SAFETY: the caller's contract.
        unsafe { _mm_loadu_si128(p as *const __m128i) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m128i) {
        // SAFETY: the caller's contract.
        unsafe { _mm_storeu_si128(p as *mut __m128i, v) }
    }
    #[inline(always)]
    unsafe fn movemask(v: __m128i) -> u32 {
        // SAFETY: SSE2 is baseline; a register operation.
        unsafe { _mm_movemask_epi8(v) as u32 }
    }
    #[inline(always)]
    unsafe fn store_prefix(d: *mut u8, v: __m128i, k: usize) {
        // SAFETY: the caller's contract.
        unsafe { store_prefix16(d, v, k) }
    }
}

/// AVX2's 32 bytes.
pub(super) struct Avx2;

impl Width for Avx2 {
    const BYTES: usize = 32;
    type V = __m256i;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m256i {
        // SAFETY: the caller's contract (AVX2 present, the 32 bytes readable).
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m256i) {
        // SAFETY: the caller's contract (AVX2 present, the 32 bytes writable).
        unsafe { _mm256_storeu_si256(p as *mut __m256i, v) }
    }
    #[inline(always)]
    unsafe fn movemask(v: __m256i) -> u32 {
        // SAFETY: the caller's contract (AVX2 present); a register operation.
        unsafe { _mm256_movemask_epi8(v) as u32 }
    }
    #[inline(always)]
    unsafe fn store_prefix(d: *mut u8, v: __m256i, k: usize) {
        // SAFETY: the caller's contract.
        unsafe { store_prefix32(d, v, k) }
    }
}

/// The caller's 16 bytes at the end of a kernel's output (`v`, at byte `at` of it), which
/// the kernel's compacting stores may write over (they write 16 bytes and count the first
/// few), put back when the kernel returns: so the kernel writes nothing past its output.
///
/// Before each block's stores the kernel advances it to where the block's output will end;
/// the block's stores must start at or before that end and write at most 16 bytes past it
/// (or output only). The bytes before the old `at + 16` come from those kept (what is there
/// may be a store's), the others from the destination, where nothing has been stored yet:
/// the loads are of bytes no store has reached, so they never wait for one.
///
/// With `LAZY`, after stores of output only that write over the 16 bytes kept (16 bytes of
/// output or more from `at`), the kernel calls [`past`](Ahead::past) instead: nothing from
/// the new end on is written yet, and the bytes are loaded only when a store needs them
/// again (for kernels with long runs of such stores; the flag costs the others more than the
/// loads it saves).
#[derive(Clone, Copy)]
struct Ahead<const LAZY: bool> {
    v: __m128i,
    at: usize,
    /// Whether `v` holds the bytes at `at`; else nothing from `at` on has been written (only
    /// with `LAZY`).
    live: bool,
}

/// Per shift `k` (0 to 16), at `k`: the shuffle that moves the first `k` bytes of a vector to
/// its last `k` places (zeros before them).
static ALIGN_HIGH: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut k = 0;
    while k < 16 {
        t[16 + k] = k as u8;
        k += 1;
    }
    t
};

impl<const LAZY: bool> Ahead<LAZY> {
    /// For a kernel whose output starts at `d`.
    ///
    /// # Safety
    /// The 16 bytes at `d` readable.
    #[inline(always)]
    unsafe fn new(d: *const u8) -> Self {
        // SAFETY: the caller's contract; an unaligned load.
        let v = unsafe { _mm_loadu_si128(d as *const __m128i) };
        Ahead {
            v,
            at: 0,
            live: true,
        }
    }

    /// After stores of output only, from `at` to `end` (at least 16 bytes): nothing from `end`
    /// on is written.
    #[inline(always)]
    fn past(&mut self, end: usize) {
        debug_assert!(LAZY && end >= self.at + 16);
        self.at = end;
        self.live = false;
    }

    /// Before stores whose output ends at byte `end` (not before `at`).
    ///
    /// # Safety
    /// AVX2 must be present; the 16 bytes at `d + end` and at `d + at + 16` readable.
    #[inline(always)]
    unsafe fn advance(&mut self, d: *const u8, end: usize) {
        let k = end - self.at;
        // SAFETY: the caller's contract; unaligned loads (16 bytes of the shuffle tables at
        // `k < 16` are within them).
        self.v = unsafe {
            if k >= 16 || (LAZY && !self.live) {
                _mm_loadu_si128(d.add(end) as *const __m128i)
            } else {
                let next = _mm_loadu_si128(d.add(self.at + 16) as *const __m128i);
                _mm_or_si128(
                    _mm_shuffle_epi8(
                        self.v,
                        _mm_loadu_si128(TAIL_SHIFT.as_ptr().add(k) as *const __m128i),
                    ),
                    _mm_shuffle_epi8(
                        next,
                        _mm_loadu_si128(ALIGN_HIGH.as_ptr().add(k) as *const __m128i),
                    ),
                )
            }
        };
        self.at = end;
        self.live = true;
    }

    /// As [`advance`](Ahead::advance), for stores whose output is at least 16 bytes (`end >=
    /// at + 16`): the kept bytes are all loaded from `end` on, where nothing is written yet.
    ///
    /// # Safety
    /// The 16 bytes at `d + end` readable.
    #[inline(always)]
    unsafe fn advance_past(&mut self, d: *const u8, end: usize) {
        debug_assert!(end >= self.at + 16);
        // SAFETY: the caller's contract; an unaligned load.
        self.v = unsafe { _mm_loadu_si128(d.add(end) as *const __m128i) };
        self.at = end;
        self.live = true;
    }

    /// After the bytes were put back and output stored up to `end` (nothing past it).
    ///
    /// # Safety
    /// The 16 bytes at `d + end` readable.
    #[inline(always)]
    unsafe fn renew(&mut self, d: *const u8, end: usize) {
        if LAZY {
            self.live = false;
        } else {
            // SAFETY: the caller's contract; an unaligned load.
            self.v = unsafe { _mm_loadu_si128(d.add(end) as *const __m128i) };
        }
        self.at = end;
    }

    /// Puts the bytes back.
    ///
    /// # Safety
    /// The 16 bytes at `d + at` writable.
    #[inline(always)]
    unsafe fn restore(&self, d: *mut u8) {
        if !LAZY || self.live {
            // SAFETY: the caller's contract; an unaligned store.
            unsafe { _mm_storeu_si128(d.add(self.at) as *mut __m128i, self.v) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::detected_level;

    #[test]
    fn has_avx512_answers_as_the_detected_level() {
        let avx512 = detected_level() == Level::Avx512;
        // The first call in this process may detect; the later ones read what was remembered.
        for _ in 0..3 {
            assert_eq!(has_avx512(), avx512);
        }
    }
}
