//! SSE2 and AVX2 kernels. Each public function here is safe: it checks that the CPU has the
//! instruction set (the check is a cached load) and that the slices have the lengths the
//! `unsafe` body relies on, and otherwise falls back to the scalar kernel.

use core::arch::x86_64::*;

use super::lookup::{
    Pack, BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH, KEEP_U16_LANES, PACK_1_2, PACK_1_2_3, TAIL_SHIFT,
};
use super::{detected_level, scalar, ByteRun, Level};

#[inline(always)]
fn has_avx2() -> bool {
    detected_level() >= Level::Avx2
}

/// Copies the ASCII prefix of `src` to `dst` (AVX2); returns its length. Nothing after the
/// prefix is written.
#[inline]
pub(crate) fn copy_ascii_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return scalar::copy_ascii_to_ascii(src, dst);
    }
    if src.len() < 32 {
        return copy_ascii_sse2(src, dst);
    }
    // SAFETY: AVX2 is present (checked above), `src` has at least 32 bytes and `dst` is at
    // least as long as `src`.
    unsafe { copy_ascii_avx2_impl(src, dst) }
}

#[target_feature(enable = "avx2")]
unsafe fn copy_ascii_avx2_impl(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len() <= dst.len(): the 32 bytes at i are in bounds of both;
        // unaligned loads and stores are used.
        unsafe {
            let v = _mm256_loadu_si256(s.add(i) as *const __m256i);
            let mask = _mm256_movemask_epi8(v) as u32;
            if mask != 0 {
                // The ASCII bytes before the first other one, and nothing after them.
                let k = mask.trailing_zeros() as usize;
                dst[i..i + k].copy_from_slice(&src[i..i + k]);
                return i + k;
            }
            _mm256_storeu_si256(d.add(i) as *mut __m256i, v);
        }
        i += 32;
    }
    if i == n {
        return n;
    }
    // The last 32 bytes, overlapping the ASCII already copied (n >= 32, the caller's contract).
    let j = n - 32;
    // SAFETY: j + 32 = n <= src.len(); an unaligned load.
    let v = unsafe { _mm256_loadu_si256(s.add(j) as *const __m256i) };
    let mask = _mm256_movemask_epi8(v) as u32;
    if mask == 0 {
        // SAFETY: j + 32 = n <= dst.len(); an unaligned store (of the bytes before `i` again).
        unsafe { _mm256_storeu_si256(d.add(j) as *mut __m256i, v) };
        return n;
    }
    let end = (j + mask.trailing_zeros() as usize).max(i);
    dst[i..end].copy_from_slice(&src[i..end]);
    end
}

/// Copies the ASCII prefix of `src` to `dst` (SSE2); returns its length. Nothing after the
/// prefix is written.
#[inline]
pub(crate) fn copy_ascii_sse2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    if dst.len() < n || n < 16 {
        return scalar::copy_ascii_to_ascii(src, dst);
    }
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: SSE2 is part of the x86-64 baseline; i + 16 <= n <= dst.len(), so the 16 bytes
        // at i are in bounds of both slices; unaligned loads and stores are used.
        unsafe {
            let v = _mm_loadu_si128(s.add(i) as *const __m128i);
            let mask = _mm_movemask_epi8(v) as u32;
            if mask != 0 {
                // The ASCII bytes before the first other one, and nothing after them.
                let k = mask.trailing_zeros() as usize;
                dst[i..i + k].copy_from_slice(&src[i..i + k]);
                return i + k;
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, v);
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 bytes, overlapping the ASCII already copied (n >= 16, checked above).
    let j = n - 16;
    // SAFETY: SSE2 is baseline; j + 16 = n <= src.len(); an unaligned load.
    let v = unsafe { _mm_loadu_si128(s.add(j) as *const __m128i) };
    // SAFETY: SSE2 is baseline.
    let mask = unsafe { _mm_movemask_epi8(v) } as u32;
    if mask == 0 {
        // SAFETY: j + 16 = n <= dst.len(); an unaligned store (of the bytes before `i` again).
        unsafe { _mm_storeu_si128(d.add(j) as *mut __m128i, v) };
        return n;
    }
    let end = (j + mask.trailing_zeros() as usize).max(i);
    dst[i..end].copy_from_slice(&src[i..end]);
    end
}

/// Widens the ASCII prefix of `src` into `dst` (AVX2); returns its length. Nothing after the
/// prefix is written.
#[inline]
pub(crate) fn widen_ascii_avx2(src: &[u8], dst: &mut [u16]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return scalar::copy_ascii_to_utf16(src, dst);
    }
    if src.len() < 32 {
        return widen_ascii_sse2(src, dst);
    }
    // SAFETY: AVX2 is present, `src` has at least 32 bytes and `dst` has at least as many
    // units as `src` has bytes.
    unsafe { widen_ascii_avx2_impl(src, dst) }
}

/// Widens the 32 bytes `v` to the 32 units at `d`.
///
/// # Safety
/// AVX2 must be present and the 32 units at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen32_avx2(v: __m256i, d: *mut u16) {
    let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
    let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
    // SAFETY: the caller's contract; unaligned stores.
    unsafe {
        _mm256_storeu_si256(d as *mut __m256i, lo);
        _mm256_storeu_si256(d.add(16) as *mut __m256i, hi);
    }
}

/// Widens `src[from..to]` into `dst[from..to]`, a unit per byte (the ASCII bytes before the
/// first other one, at the end of a kernel).
#[inline]
fn widen_exact(src: &[u8], dst: &mut [u16], from: usize, to: usize) {
    for (d, &b) in dst[from..to].iter_mut().zip(&src[from..to]) {
        *d = b as u16;
    }
}

#[target_feature(enable = "avx2")]
unsafe fn widen_ascii_avx2_impl(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len(); an unaligned load.
        let v = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
        let mask = _mm256_movemask_epi8(v) as u32;
        if mask != 0 {
            let k = i + mask.trailing_zeros() as usize;
            widen_exact(src, dst, i, k);
            return k;
        }
        // SAFETY: AVX2 is present; i + 32 <= n <= dst.len().
        unsafe { widen32_avx2(v, d.add(i)) };
        i += 32;
    }
    if i == n {
        return n;
    }
    // The last 32 bytes, overlapping the ASCII already widened (n >= 32, the caller's
    // contract).
    let j = n - 32;
    // SAFETY: j + 32 = n <= src.len(); an unaligned load.
    let v = unsafe { _mm256_loadu_si256(s.add(j) as *const __m256i) };
    let mask = _mm256_movemask_epi8(v) as u32;
    if mask == 0 {
        // SAFETY: AVX2 is present; j + 32 = n <= dst.len().
        unsafe { widen32_avx2(v, d.add(j)) };
        return n;
    }
    let end = (j + mask.trailing_zeros() as usize).max(i);
    widen_exact(src, dst, i, end);
    end
}

/// Widens 16 bytes to 16 units; returns the mask of bytes at or above 0x80 (SSE2).
#[inline]
pub(crate) fn widen16_sse2(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    // SAFETY: SSE2 is baseline; `src` is 16 readable bytes and `dst` 32 writable bytes;
    // unaligned loads and stores.
    unsafe {
        let v = _mm_loadu_si128(src.as_ptr() as *const __m128i);
        let z = _mm_setzero_si128();
        _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, _mm_unpacklo_epi8(v, z));
        _mm_storeu_si128(
            dst.as_mut_ptr().add(8) as *mut __m128i,
            _mm_unpackhi_epi8(v, z),
        );
        _mm_movemask_epi8(v) as u32
    }
}

/// [`super::widen16_runs`] (SSE2).
#[inline]
pub(crate) fn widen16_runs_sse2(src: &[u8; 16], dst: &mut [u16; 16], runs: &[ByteRun; 2]) -> u32 {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { widen16_runs_sse2_impl(src, dst, runs) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn widen16_runs_sse2_impl(src: &[u8; 16], dst: &mut [u16; 16], runs: &[ByteRun; 2]) -> u32 {
    // SAFETY: `src` is 16 readable bytes; an unaligned load.
    let v = unsafe { _mm_loadu_si128(src.as_ptr() as *const __m128i) };
    let z = _mm_setzero_si128();
    let (mut lo, mut hi) = (_mm_unpacklo_epi8(v, z), _mm_unpackhi_epi8(v, z));
    let non_ascii = _mm_movemask_epi8(v) as u32;
    let mut covered = 0;
    if non_ascii & non_ascii.wrapping_sub(1) != 0 {
        for r in runs {
            // In the run: byte - lo (mod 256) is at most span.
            let rel = _mm_sub_epi8(v, _mm_set1_epi8(r.lo as i8));
            let inside = _mm_cmpeq_epi8(_mm_subs_epu8(rel, _mm_set1_epi8(r.span as i8)), z);
            let delta = _mm_set1_epi16(r.delta as i16);
            lo = _mm_add_epi16(lo, _mm_and_si128(_mm_unpacklo_epi8(inside, inside), delta));
            hi = _mm_add_epi16(hi, _mm_and_si128(_mm_unpackhi_epi8(inside, inside), delta));
            covered |= _mm_movemask_epi8(inside) as u32;
        }
    }
    // SAFETY: `dst` is 16 writable units (32 bytes); unaligned stores.
    unsafe {
        _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, lo);
        _mm_storeu_si128(dst.as_mut_ptr().add(8) as *mut __m128i, hi);
    }
    non_ascii & !covered
}

/// The mask of the bytes of `src` at or above 0x80 (SSE2).
#[inline]
pub(crate) fn non_ascii_mask16_sse2(src: &[u8; 16]) -> u32 {
    // SAFETY: SSE2 is baseline; `src` is 16 readable bytes; an unaligned load.
    unsafe { _mm_movemask_epi8(_mm_loadu_si128(src.as_ptr() as *const __m128i)) as u32 }
}

/// Widens the ASCII prefix of `src` into `dst` (SSE2); returns its length. Nothing after the
/// prefix is written.
#[inline]
pub(crate) fn widen_ascii_sse2(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    if dst.len() < n || n < 16 {
        return scalar::copy_ascii_to_utf16(src, dst);
    }
    let mut i = 0;
    while i + 16 <= n {
        let block: &[u8; 16] = src[i..i + 16].try_into().unwrap();
        let mask = non_ascii_mask16_sse2(block);
        if mask != 0 {
            let k = i + mask.trailing_zeros() as usize;
            widen_exact(src, dst, i, k);
            return k;
        }
        let out: &mut [u16; 16] = (&mut dst[i..i + 16]).try_into().unwrap();
        widen16_sse2(block, out);
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 bytes, overlapping the ASCII already widened (n >= 16, checked above).
    let j = n - 16;
    let block: &[u8; 16] = src[j..].try_into().unwrap();
    let mask = non_ascii_mask16_sse2(block);
    if mask == 0 {
        let out: &mut [u16; 16] = (&mut dst[j..n]).try_into().unwrap();
        widen16_sse2(block, out);
        return n;
    }
    let end = (j + mask.trailing_zeros() as usize).max(i);
    widen_exact(src, dst, i, end);
    end
}

/// The number of leading ASCII units among the sixteen in `a` and `b` (SSE2), for a block
/// known to hold a unit that is not ASCII.
#[inline(always)]
fn ascii_units_sse2(a: __m128i, b: __m128i) -> usize {
    // SAFETY: SSE2 is baseline on x86_64; register operations only.
    let mask = unsafe {
        let high = _mm_set1_epi16(0xFF80u16 as i16);
        let ascii_a = _mm_cmpeq_epi16(_mm_and_si128(a, high), _mm_setzero_si128());
        let ascii_b = _mm_cmpeq_epi16(_mm_and_si128(b, high), _mm_setzero_si128());
        _mm_movemask_epi8(_mm_packs_epi16(ascii_a, ascii_b)) as u32
    };
    (!mask).trailing_zeros() as usize
}

/// Narrows the prefix of `src` below U+0080 into `dst` (SSE2); returns its length. Stops
/// exactly at the first unit that is not ASCII; nothing after the prefix is written.
#[inline]
pub(crate) fn narrow_ascii_sse2(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len();
    if dst.len() < n {
        return scalar::copy_utf16_ascii_to_ascii(src, dst);
    }
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: SSE2 is baseline; units i..i+16 of src and bytes i..i+16 of dst are in bounds.
        unsafe {
            let a = _mm_loadu_si128(s.add(i) as *const __m128i);
            let b = _mm_loadu_si128(s.add(i + 8) as *const __m128i);
            let high = _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi16(0xFF80u16 as i16));
            if _mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128())) != 0xFFFF {
                // The units before the first non-ASCII one, and nothing after them.
                let k = ascii_units_sse2(a, b);
                return i + scalar::copy_utf16_ascii_to_ascii(&src[i..i + k], &mut dst[i..i + k]);
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, _mm_packus_epi16(a, b));
        }
        i += 16;
    }
    i + scalar::copy_utf16_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Narrows the ASCII prefix of `src` into `dst` (AVX2), 32 units per test; the block with
/// the first unit that is not ASCII, and the tail, go to the SSE2 kernel, which stops exactly
/// at it. Returns the prefix's length; nothing after it is written.
#[inline]
pub(crate) fn narrow_ascii_avx2(src: &[u16], dst: &mut [u8]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return narrow_ascii_sse2(src, dst);
    }
    // SAFETY: AVX2 is present and `dst` has at least as many bytes as `src` has units.
    let i =
        unsafe { narrow_blocks_avx2::<false, false>(src.as_ptr() as *const u8, src.len(), dst) };
    i + narrow_ascii_sse2(&src[i..], &mut dst[i..])
}

/// Narrows ASCII code units from UTF-16 bytes (big-endian if `BE`) into `dst` (AVX2), as
/// [`narrow_ascii_avx2`] narrows units; returns the number of units.
#[inline]
pub(crate) fn narrow_utf16_bytes_avx2<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = (src.len() / 2).min(dst.len());
    if !has_avx2() {
        return narrow_utf16_bytes_sse2::<BE>(src, dst);
    }
    // SAFETY: AVX2 is present; the 2n bytes at src are readable and n <= dst.len().
    let i = unsafe { narrow_blocks_avx2::<true, BE>(src.as_ptr(), n, dst) };
    i + narrow_utf16_bytes_sse2::<BE>(&src[2 * i..2 * n], &mut dst[i..n])
}

/// Narrows whole blocks of 32 ASCII units, read as the `2 * n` bytes at `s` (native order, or
/// big-endian if `BYTES && BE`), into `dst`; returns the units of the blocks that were all
/// ASCII (a multiple of 32; the block after them is not all ASCII or is incomplete).
///
/// # Safety
/// AVX2 must be present, the `2 * n` bytes at `s` readable and `n <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn narrow_blocks_avx2<const BYTES: bool, const BE: bool>(
    s: *const u8,
    n: usize,
    dst: &mut [u8],
) -> usize {
    let d = dst.as_mut_ptr();
    let swap = _mm256_setr_epi8(
        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
        13, 12, 15, 14,
    );
    let high = _mm256_set1_epi16(0xFF80u16 as i16);
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n: bytes 2i..2i+64 at s are readable (the caller's contract);
        // unaligned loads.
        let (mut a, mut b) = unsafe {
            (
                _mm256_loadu_si256(s.add(2 * i) as *const __m256i),
                _mm256_loadu_si256(s.add(2 * i + 32) as *const __m256i),
            )
        };
        if BYTES && BE {
            a = _mm256_shuffle_epi8(a, swap);
            b = _mm256_shuffle_epi8(b, swap);
        }
        let h = _mm256_and_si256(_mm256_or_si256(a, b), high);
        if _mm256_testz_si256(h, h) == 0 {
            break;
        }
        // packus interleaves the 128-bit halves: a.lo b.lo a.hi b.hi; put them in order.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
        // SAFETY: i + 32 <= n <= dst.len(); an unaligned store.
        unsafe { _mm256_storeu_si256(d.add(i) as *mut __m256i, packed) };
        i += 32;
    }
    i
}

/// Narrows ASCII code units from UTF-16 bytes (big-endian if `BE`) into `dst` (SSE2);
/// returns the number of units. Stops exactly at the first unit that is not ASCII; nothing
/// after the prefix is written.
#[inline]
pub(crate) fn narrow_utf16_bytes_sse2<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = (src.len() / 2).min(dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: SSE2 is baseline; bytes 2i..2i+32 of src (2n <= src.len()) and bytes i..i+16 of
        // dst (n <= dst.len()) are in bounds; unaligned loads and stores.
        unsafe {
            let mut a = _mm_loadu_si128(s.add(2 * i) as *const __m128i);
            let mut b = _mm_loadu_si128(s.add(2 * i + 16) as *const __m128i);
            if BE {
                a = _mm_or_si128(_mm_slli_epi16::<8>(a), _mm_srli_epi16::<8>(a));
                b = _mm_or_si128(_mm_slli_epi16::<8>(b), _mm_srli_epi16::<8>(b));
            }
            let high = _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi16(0xFF80u16 as i16));
            if _mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128())) != 0xFFFF {
                // The units before the first non-ASCII one, and nothing after them.
                let k = ascii_units_sse2(a, b);
                return i + scalar::copy_utf16_bytes_ascii::<BE>(
                    &src[2 * i..2 * (i + k)],
                    &mut dst[i..i + k],
                );
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, _mm_packus_epi16(a, b));
        }
        i += 16;
    }
    i + scalar::copy_utf16_bytes_ascii::<BE>(&src[2 * i..], &mut dst[i..])
}

/// Copies the longest prefix of `src` that is complete, valid UTF-8 (AVX2); returns its length.
///
/// The blocks are checked with the lookup algorithm of Keiser and Lemire ("Validating UTF-8
/// In Less Than One Instruction Per Byte", 2021), which flags exactly the byte pairs and
/// triples that the spec's UTF-8 decoder rejects. A block with a flag is not copied; the exact
/// end of the valid prefix is then found by the scalar validator from the last character
/// boundary before that block.
#[inline]
pub(crate) fn copy_valid_utf8_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return scalar::copy_valid_utf8(src, dst);
    }
    let tail = core::cell::Cell::new(0);
    // SAFETY: AVX2 is present and `dst` is at least as long as `src`.
    let checked = unsafe { validate_blocks_avx2::<true>(src, dst, &tail) };
    let b = last_boundary(src, checked);
    if b < checked {
        // The last block copied ends inside a character, which may not be complete: its
        // bytes there are put back (the last block's last four bytes were kept in `tail`).
        let kept = tail.get().to_le_bytes();
        dst[b..checked].copy_from_slice(&kept[4 - (checked - b)..]);
    }
    b + scalar::copy_valid_utf8(&src[b..], &mut dst[b..])
}

/// The length of the longest prefix of `src` that is complete, valid UTF-8 (AVX2), checked as
/// [`copy_valid_utf8_avx2`] checks it, without the copy.
#[inline]
pub(crate) fn valid_utf8_prefix_avx2(src: &[u8]) -> usize {
    if !has_avx2() {
        return scalar::valid_utf8_prefix(src);
    }
    // SAFETY: AVX2 is present; without COPY nothing is written to the empty `dst`.
    let checked = unsafe { validate_blocks_avx2::<false>(src, &mut [], &core::cell::Cell::new(0)) };
    let b = last_boundary(src, checked);
    b + scalar::valid_utf8_prefix(&src[b..])
}

/// Copies `src`, shorter than 64 bytes, if all of it is complete, valid UTF-8 (AVX2): the
/// whole-input case of [`copy_valid_utf8_avx2`] for short strings (URLs, form fields,
/// headers), where the block loop never starts. The bytes are checked as one block padded
/// with zeros; otherwise (an error, a character cut at the end) the scalar validator finds
/// the exact prefix. Returns its length.
#[inline]
pub(crate) fn copy_valid_utf8_short_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    debug_assert!(n < 64 && dst.len() >= n);
    // SAFETY: AVX2 is present (checked first).
    if has_avx2() && n < 64 && dst.len() >= n && unsafe { short_is_valid(src) } {
        copy_short(src, dst);
        return n;
    }
    scalar::copy_valid_utf8(src, dst)
}

/// The length of the longest prefix of `src`, shorter than 64 bytes, that is complete, valid
/// UTF-8 (AVX2), checked as [`copy_valid_utf8_short_avx2`] checks it, without the copy.
#[inline]
pub(crate) fn valid_utf8_prefix_short_avx2(src: &[u8]) -> usize {
    let n = src.len();
    debug_assert!(n < 64);
    // SAFETY: AVX2 is present (checked first).
    if has_avx2() && n < 64 && unsafe { short_is_valid(src) } {
        return n;
    }
    scalar::valid_utf8_prefix(src)
}

/// Copies `src`, shorter than 64 bytes, to the start of `dst` with two fixed-size moves that
/// overlap in the middle (no call to `memcpy`, whose size dispatch costs more than the copy).
#[inline(always)]
fn copy_short(src: &[u8], dst: &mut [u8]) {
    let n = src.len();
    let dst = &mut dst[..n];
    if n >= 32 {
        dst[..32].copy_from_slice(&src[..32]);
        dst[n - 32..].copy_from_slice(&src[n - 32..]);
    } else if n >= 16 {
        dst[..16].copy_from_slice(&src[..16]);
        dst[n - 16..].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else {
        for (d, &b) in dst.iter_mut().zip(src) {
            *d = b;
        }
    }
}

/// Whether `src`, shorter than 64 bytes, is complete, valid UTF-8.
///
/// Most lengths need no copy: two windows that overlap, the first `src`'s start and the
/// second its end, are checked each from a character boundary, the second with its first
/// three flags dropped (their context, the bytes before the window, is missing; the first
/// window checks those positions in context). The Keiser-Lemire check flags a malformed
/// sequence at a byte from that byte and the three before it, so every position is checked
/// once in context if the second window's fourth byte is not past the first window's end:
/// 32-byte windows for 32 to 61 bytes, 16-byte ones (the two halves of one vector) for 16
/// to 29. A character cut at the end is seen by the incomplete test of the last bytes. Other
/// lengths are copied into a zeroed 64-byte block (a load that spans several recent stores
/// waits for them, so the copy costs more than the check).
///
/// # Safety
/// AVX2 must be present.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn short_is_valid(src: &[u8]) -> bool {
    let n = src.len();
    let s = src.as_ptr();
    let (t1h, t1l, t2h) = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    let zero = _mm256_setzero_si256();
    // SAFETY: both constants are 32 readable bytes; unaligned loads.
    let (incomplete_max, keep) = unsafe {
        (
            _mm256_loadu_si256(INCOMPLETE_MAX.as_ptr() as *const __m256i),
            _mm256_loadu_si256(KEEP_FROM_3.as_ptr() as *const __m256i),
        )
    };
    if (32..=61).contains(&n) {
        // SAFETY: 32 <= n = src.len(): the 32 bytes at 0 and at n - 32 are within src.
        let (first, last) = unsafe {
            (
                _mm256_loadu_si256(s as *const __m256i),
                _mm256_loadu_si256(s.add(n - 32) as *const __m256i),
            )
        };
        if _mm256_movemask_epi8(_mm256_or_si256(first, last)) == 0 {
            return true;
        }
        let err = _mm256_or_si256(
            _mm256_or_si256(
                check_block(first, zero, t1h, t1l, t2h),
                _mm256_and_si256(check_block(last, zero, t1h, t1l, t2h), keep),
            ),
            _mm256_subs_epu8(last, incomplete_max),
        );
        return _mm256_testz_si256(err, err) != 0;
    }
    if (16..=29).contains(&n) {
        // SAFETY: 16 <= n = src.len(): the 16 bytes at 0 and at n - 16 are within src.
        let v =
            unsafe { _mm256_loadu2_m128i(s.add(n - 16) as *const __m128i, s as *const __m128i) };
        if _mm256_movemask_epi8(v) == 0 {
            return true;
        }
        // The upper half's first three flags, at 16..19, are dropped.
        let keep = _mm256_permute4x64_epi64::<0b01_00_01_01>(keep);
        let err = _mm256_or_si256(
            _mm256_and_si256(check_block(v, zero, t1h, t1l, t2h), keep),
            _mm256_subs_epu8(v, incomplete_max),
        );
        return _mm256_testz_si256(err, err) != 0;
    }
    let mut padded = [0u8; 64];
    copy_short(src, &mut padded);
    padded_is_valid(&padded)
}

/// All ones but the first three bytes: the flags [`short_is_valid`] keeps of a window.
const KEEP_FROM_3: [u8; 32] = {
    let mut keep = [0xFFu8; 32];
    keep[0] = 0;
    keep[1] = 0;
    keep[2] = 0;
    keep
};

/// Whether the 64 bytes are valid UTF-8 from a character boundary to their end. Given a
/// string of at most 63 bytes followed by zeros, that is whether the string is valid and
/// complete: a sequence cut short by the end meets a zero, which the check flags as it flags
/// any lead byte without its continuation bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn padded_is_valid(padded: &[u8; 64]) -> bool {
    let p = padded.as_ptr();
    // SAFETY: `padded` is 64 readable bytes; unaligned loads.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(p as *const __m256i),
            _mm256_loadu_si256(p.add(32) as *const __m256i),
        )
    };
    if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
        return true;
    }
    let (t1h, t1l, t2h) = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    let err = _mm256_or_si256(
        check_block(a, _mm256_setzero_si256(), t1h, t1l, t2h),
        check_block(b, a, t1h, t1l, t2h),
    );
    _mm256_testz_si256(err, err) != 0
}

/// Everything before `checked` is valid except, possibly, an incomplete last character: the
/// position of that character's first byte, where exact checking restarts.
#[inline]
fn last_boundary(src: &[u8], checked: usize) -> usize {
    let mut b = checked;
    for j in (checked.saturating_sub(4)..checked).rev() {
        if src[j] & 0xC0 != 0x80 {
            if src[j] >= 0xC0 {
                b = j;
            }
            break;
        }
    }
    b
}

#[inline]
#[target_feature(enable = "avx2")]
fn table(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; an unaligned 128-bit load.
    let half = unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) };
    _mm256_broadcastsi128_si256(half)
}

#[inline]
#[target_feature(enable = "avx2")]
fn high_nibbles(v: __m256i) -> __m256i {
    _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(0x0F))
}

/// The lookup check of the 64 bytes at `i` of `s`, the 32 before them (zeros at the start)
/// giving the context: zero iff no pair or triple ending in them is malformed. `t`: the
/// tables BYTE_1_HIGH, BYTE_1_LOW and BYTE_2_HIGH.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined); the 64
/// bytes at `s + i` are readable, and with `i >= 32` the 32 before them.
#[inline(always)]
unsafe fn lookup64(s: *const u8, i: usize, t: (__m256i, __m256i, __m256i)) -> __m256i {
    let (t1h, t1l, t2h) = t;
    // SAFETY: the caller's contract; unaligned loads; check_block needs AVX2, present.
    unsafe {
        let prev = if i >= 32 {
            _mm256_loadu_si256(s.add(i - 32) as *const __m256i)
        } else {
            _mm256_setzero_si256()
        };
        let a = _mm256_loadu_si256(s.add(i) as *const __m256i);
        let b = _mm256_loadu_si256(s.add(i + 32) as *const __m256i);
        _mm256_or_si256(
            check_block(a, prev, t1h, t1l, t2h),
            check_block(b, a, t1h, t1l, t2h),
        )
    }
}

/// With `COPY`, stores the 64 bytes `a`, `b` at `d + i`, keeping in `tail` the four bytes
/// they overwrite last (to put back if the block ends inside a character that is not
/// complete); without, nothing.
///
/// # Safety
/// AVX2 must be present; with `COPY` the 64 bytes at `d + i` are readable and writable.
#[inline(always)]
unsafe fn store64_if<const COPY: bool>(
    d: *mut u8,
    i: usize,
    a: __m256i,
    b: __m256i,
    tail: &core::cell::Cell<u32>,
) {
    if COPY {
        // SAFETY: the caller's contract; an unaligned load, unaligned stores.
        unsafe {
            tail.set(core::ptr::read_unaligned(d.add(i + 60) as *const u32));
            _mm256_storeu_si256(d.add(i) as *mut __m256i, a);
            _mm256_storeu_si256(d.add(i + 32) as *mut __m256i, b);
        }
    }
}

/// The flags of malformed pairs and triples in `input`, given the block before it.
#[inline]
#[target_feature(enable = "avx2")]
fn check_block(
    input: __m256i,
    prev_input: __m256i,
    t1h: __m256i,
    t1l: __m256i,
    t2h: __m256i,
) -> __m256i {
    let carried = _mm256_permute2x128_si256::<0x21>(prev_input, input);
    let prev1 = _mm256_alignr_epi8::<15>(input, carried);
    let prev2 = _mm256_alignr_epi8::<14>(input, carried);
    let prev3 = _mm256_alignr_epi8::<13>(input, carried);
    let byte_1_high = _mm256_shuffle_epi8(t1h, high_nibbles(prev1));
    let byte_1_low = _mm256_shuffle_epi8(t1l, _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)));
    let byte_2_high = _mm256_shuffle_epi8(t2h, high_nibbles(input));
    let special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);
    // Bytes that must be the second continuation of a three- or four-byte sequence, or the
    // third of a four-byte one.
    let is_third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xE0u8 - 0x80) as i8));
    let is_fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xF0u8 - 0x80) as i8));
    let must23_80 = _mm256_and_si256(
        _mm256_or_si256(is_third, is_fourth),
        _mm256_set1_epi8(0x80u8 as i8),
    );
    _mm256_xor_si256(must23_80, special)
}

/// Per position, the largest byte that does not start a sequence running past the end of a
/// 32-byte block.
const INCOMPLETE_MAX: [u8; 32] = {
    let mut max = [0xFFu8; 32];
    max[29] = 0xF0 - 1;
    max[30] = 0xE0 - 1;
    max[31] = 0xC0 - 1;
    max
};

/// Validates whole 32-byte blocks, copying them to `dst` if `COPY`; returns the length of the
/// blocks that passed (everything before it is valid UTF-8 but for, possibly, a character cut
/// at its end), which is where the last block copied ends; `tail` keeps the four bytes of
/// `dst` that block overwrote last.
///
/// Blocks of 64 bytes go one of three ways:
/// - ASCII: a test of the sign bits, then a run of ASCII at 128 bytes per test.
/// - Two-byte (Latin, Cyrillic, Greek, Hebrew, Arabic text: ASCII and two-byte characters
///   only): an exact check on 64-bit masks, far cheaper than the lookup check. With `n` the
///   non-ASCII bytes, `c` the continuation bytes (80..BF) and `v` the two-byte lead bytes
///   (C2..DF), the block is valid iff `n == v | c` (no other byte: no C0, C1 or three- or
///   four-byte lead) and `c == v << 1 | pending` (each lead followed by one continuation, each
///   continuation after a lead; `pending` is 1 if the block before ended with a lead).
/// - Others, by the lookup check of Keiser and Lemire ("Validating UTF-8 In Less Than One
///   Instruction Per Byte", 2021), which flags exactly the byte pairs and triples that the
///   spec's UTF-8 decoder rejects. A block the mask check rejects is checked so, alone; one
///   that may end inside a three- or four-byte sequence, or rejected near another (CJK, Thai,
///   Vietnamese text, often with markup), starts lookup checks of 512 bytes per error test,
///   each block after a test for ASCII, until a last block of two-byte characters or 512
///   bytes of ASCII; 512 bytes without ASCII blocks start lookup checks only (no test for
///   ASCII), four blocks per error test, until a last block without three- or four-byte
///   leads. After an error test fails the first flagged block is found again.
///
/// # Safety
/// AVX2 must be present, and with `COPY` `dst` must be at least as long as `src`.
#[target_feature(enable = "avx2")]
unsafe fn validate_blocks_avx2<const COPY: bool>(
    src: &[u8],
    dst: &mut [u8],
    tail: &core::cell::Cell<u32>,
) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let tables = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    let (t1h, t1l, t2h) = tables;
    // SAFETY (both): AVX2 is present; callers pass i + 64 <= n = src.len() (<= dst.len()
    // with COPY, the caller's contract).
    let check64 = |i: usize| unsafe { lookup64(s, i, tables) };
    let store64 =
        |i: usize, a: __m256i, b: __m256i| unsafe { store64_if::<COPY>(d, i, a, b, tail) };
    // The end of a run of ASCII from `i`, checked (and copied) 128 bytes per test, nothing
    // else to track (an ASCII byte neither ends nor starts a sequence).
    let ascii_run = |mut i: usize| -> usize {
        while i + 128 <= n {
            // SAFETY: i + 128 <= n = src.len(); unaligned loads.
            let v = unsafe {
                [
                    _mm256_loadu_si256(s.add(i) as *const __m256i),
                    _mm256_loadu_si256(s.add(i + 32) as *const __m256i),
                    _mm256_loadu_si256(s.add(i + 64) as *const __m256i),
                    _mm256_loadu_si256(s.add(i + 96) as *const __m256i),
                ]
            };
            let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
            if _mm256_movemask_epi8(any) != 0 {
                break;
            }
            store64(i, v[0], v[1]);
            store64(i + 64, v[2], v[3]);
            i += 128;
        }
        i
    };
    let (cont_end, lead_bias, lead_min) = (
        _mm256_set1_epi8(0xC0u8 as i8),
        _mm256_set1_epi8(0x60),
        _mm256_set1_epi8(0x61),
    );
    let mut i = 0;
    // 1 if the bytes before `i` end with a two-byte lead (the mask check's carried state);
    // in the mask loop they never end inside a three- or four-byte sequence.
    let mut pending: u64 = 0;
    // The end of the last block checked by lookup; a block the mask check rejects within
    // NEAR bytes of it starts lookup checks.
    const NEAR: usize = 128;
    let mut last_lookup = usize::MAX / 2;
    'modes: loop {
        // Mask checks, 64 bytes at a time.
        loop {
            if i + 64 > n {
                break 'modes;
            }
            // SAFETY: i + 64 <= n = src.len(); unaligned loads.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(s.add(i) as *const __m256i),
                    _mm256_loadu_si256(s.add(i + 32) as *const __m256i),
                )
            };
            let mask = |v: __m256i| _mm256_movemask_epi8(v) as u32 as u64;
            let non_ascii = mask(a) | mask(b) << 32;
            if non_ascii | pending == 0 {
                store64(i, a, b);
                i = ascii_run(i + 64);
                continue;
            }
            // Signed: 80..BF are the bytes below C0 (-64) that are not ASCII.
            let cont = |v: __m256i| mask(_mm256_cmpgt_epi8(cont_end, v));
            // C2..DF less 0x60 are 62..7F, the only bytes above 61 (signed) after the shift.
            let lead =
                |v: __m256i| mask(_mm256_cmpgt_epi8(_mm256_sub_epi8(v, lead_bias), lead_min));
            let c = cont(a) | cont(b) << 32;
            let v = lead(a) | lead(b) << 32;
            // `pending` is 0 or 1 and bit 0 of `v << 1` is clear: the sum is their union.
            if (c ^ ((v << 1) + pending)) | (non_ascii ^ (v | c)) == 0 {
                store64(i, a, b);
                pending = v >> 63;
                i += 64;
                continue;
            }
            if i.wrapping_sub(last_lookup) < NEAR {
                // Near other such blocks (CJK or Thai text with markup): lookup checks from
                // this block on.
                break;
            }
            let err = check64(i);
            if _mm256_testz_si256(err, err) == 0 {
                return i;
            }
            store64(i, a, b);
            // Three- and four-byte lead bytes (no C0 or C1: the lookup check flags them).
            let long_leads = non_ascii & !c & !v;
            pending = v >> 63;
            i += 64;
            last_lookup = i;
            // A block that may end inside a three- or four-byte sequence is followed by
            // lookup checks, which carry that state.
            if long_leads >> 61 != 0 {
                break;
            }
        }
        // Lookup checks (their own function: there the lookup tables and constants stay in
        // registers).
        // SAFETY: AVX2 is present and with COPY dst.len() >= src.len() (this function's
        // contract); i <= n.
        match unsafe { lookup_blocks_avx2::<COPY>(src, dst, i, tail) } {
            Err(j) => return j,
            Ok(j) => {
                i = j;
                if i + 512 <= n {
                    // Back to mask checks, with a two-byte lead at the end pending.
                    pending = (src[i - 1] >= 0xC0) as u64;
                    last_lookup = i;
                    continue 'modes;
                }
            }
        }
        // Fewer than 256 bytes left: lookup checks of 64 bytes to the end of the blocks.
        while i + 64 <= n {
            let err = check64(i);
            if _mm256_testz_si256(err, err) == 0 {
                return i;
            }
            // SAFETY: i + 64 <= n = src.len(); unaligned loads.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(s.add(i) as *const __m256i),
                    _mm256_loadu_si256(s.add(i + 32) as *const __m256i),
                )
            };
            store64(i, a, b);
            i += 64;
        }
        break;
    }
    // Then 32 bytes at a time, with the state of the bytes before `i`.
    // SAFETY: INCOMPLETE_MAX is 32 readable bytes; with i >= 32 the 32 bytes before i are in
    // bounds of src; unaligned loads.
    let (incomplete_max, mut prev_input) = unsafe {
        (
            _mm256_loadu_si256(INCOMPLETE_MAX.as_ptr() as *const __m256i),
            if i >= 32 {
                _mm256_loadu_si256(s.add(i - 32) as *const __m256i)
            } else {
                _mm256_setzero_si256()
            },
        )
    };
    // Non-zero where the bytes before `i` end inside a multi-byte sequence.
    let mut prev_incomplete = _mm256_subs_epu8(prev_input, incomplete_max);
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len(), and with COPY n <= dst.len() (the caller's
        // contract): the 32 bytes at i are in bounds of src (and of dst); unaligned loads and
        // stores.
        let input = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
        if _mm256_movemask_epi8(input) == 0 {
            if _mm256_testz_si256(prev_incomplete, prev_incomplete) == 0 {
                break;
            }
            prev_incomplete = _mm256_setzero_si256();
        } else {
            let err = check_block(input, prev_input, t1h, t1l, t2h);
            if _mm256_testz_si256(err, err) == 0 {
                break;
            }
            // Non-zero where the block ends inside a multi-byte sequence.
            prev_incomplete = _mm256_subs_epu8(input, incomplete_max);
        }
        if COPY {
            // SAFETY: as for the load above.
            unsafe {
                tail.set(core::ptr::read_unaligned(d.add(i + 28) as *const u32));
                _mm256_storeu_si256(d.add(i) as *mut __m256i, input);
            }
        }
        prev_input = input;
        i += 32;
    }
    i
}

/// The lookup checks of [`validate_blocks_avx2`] from `i` (the bytes before it valid but for,
/// possibly, a character cut at `i`), MIXED bytes per error test, then, in runs of blocks
/// without ASCII, four blocks per test: `Err` with the first block with an error, or `Ok`
/// with where mask checks may resume (a last block without three- or four-byte leads), or
/// with fewer than MIXED bytes left.
///
/// # Safety
/// AVX2 must be present, i <= src.len(), and with `COPY` `dst` must be at least as long as
/// `src`.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn lookup_blocks_avx2<const COPY: bool>(
    src: &[u8],
    dst: &mut [u8],
    mut i: usize,
    tail: &core::cell::Cell<u32>,
) -> Result<usize, usize> {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let tables = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    let (t1h, t1l, t2h) = tables;
    // SAFETY (both): AVX2 is present; callers pass i + 64 <= n = src.len() (<= dst.len()
    // with COPY, the caller's contract).
    let check64 = |i: usize| unsafe { lookup64(s, i, tables) };
    // The `len` bytes at `g` (a multiple of 64, checked valid) copied, with COPY.
    let copy_blocks = |g: usize, len: usize| {
        if !COPY {
            return;
        }
        for j in (g..g + len).step_by(64) {
            // SAFETY: j + 64 <= g + len <= n = src.len() (<= dst.len() with COPY, the
            // caller's contract); unaligned loads and stores.
            unsafe {
                let a = _mm256_loadu_si256(s.add(j) as *const __m256i);
                let b = _mm256_loadu_si256(s.add(j + 32) as *const __m256i);
                store64_if::<COPY>(d, j, a, b, tail);
            }
        }
    };
    // Lookup checks, MIXED bytes (in blocks of 64) per error test, each block after a
    // test for ASCII.
    const MIXED: usize = 512;
    let ge_e0 = _mm256_set1_epi8(0xDFu8 as i8);
    // SAFETY: INCOMPLETE_MAX is 32 readable bytes; with i >= 32 (then i >= 64) the 32
    // bytes before i <= n are in bounds of src; unaligned loads.
    let (incomplete_max, mut prev) = unsafe {
        (
            _mm256_loadu_si256(INCOMPLETE_MAX.as_ptr() as *const __m256i),
            if i >= 32 {
                _mm256_loadu_si256(s.add(i - 32) as *const __m256i)
            } else {
                _mm256_setzero_si256()
            },
        )
    };
    // The first block with a flag of the `len` bytes at `g` (the bytes before `g` are
    // valid).
    let first_flagged = |g: usize, len: usize| -> usize {
        for j in (g..g + len).step_by(64) {
            let e = check64(j);
            if _mm256_testz_si256(e, e) == 0 {
                return j;
            }
        }
        g
    };
    while i + MIXED <= n {
        let mut err = _mm256_setzero_si256();
        let mut last = _mm256_setzero_si256();
        let mut checked = 0;
        // The block at `j`, written out MIXED / 64 times below (no loop counter, and the
        // test of the bytes before an ASCII block made only there).
        const _: () = assert!(MIXED == 8 * 64);
        let mut block = |j: usize| {
            // SAFETY: j + 64 <= i + MIXED <= n = src.len(); unaligned loads.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(s.add(j) as *const __m256i),
                    _mm256_loadu_si256(s.add(j + 32) as *const __m256i),
                )
            };
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
                // ASCII: an error if the bytes before end inside a sequence.
                err = _mm256_or_si256(err, _mm256_subs_epu8(prev, incomplete_max));
                prev = _mm256_setzero_si256();
            } else {
                err = _mm256_or_si256(
                    err,
                    _mm256_or_si256(
                        check_block(a, prev, t1h, t1l, t2h),
                        check_block(b, a, t1h, t1l, t2h),
                    ),
                );
                prev = b;
                checked += 1;
            }
            last = _mm256_max_epu8(a, b);
        };
        block(i);
        block(i + 64);
        block(i + 128);
        block(i + 192);
        block(i + 256);
        block(i + 320);
        block(i + 384);
        block(i + 448);
        if _mm256_testz_si256(err, err) == 0 {
            // The blocks before the first flagged one are valid: copied.
            let j = first_flagged(i, MIXED);
            copy_blocks(i, j - i);
            return Err(j);
        }
        // Valid: copied (nothing is stored before the test, past the valid prefix).
        copy_blocks(i, MIXED);
        i += MIXED;
        let long = _mm256_subs_epu8(last, ge_e0);
        if _mm256_testz_si256(long, long) != 0 && (checked == 0 || _mm256_movemask_epi8(last) != 0)
        {
            // Only ASCII blocks, or a last block with two-byte characters but no three-
            // or four-byte lead: back to mask checks. (ASCII blocks between others, as in CJK or Thai text with markup,
            // cost little here.)
            return Ok(i);
        }
        if checked < MIXED / 64 {
            continue;
        }
        // A run of such blocks (CJK, Thai): lookup checks only, without the tests for
        // ASCII, until the last of four blocks has no three- or four-byte lead.
        while i + 256 <= n {
            let mut err = _mm256_setzero_si256();
            for k in 0..4 {
                let j = i + 64 * k;
                // SAFETY: j + 64 <= i + 256 <= n = src.len(); unaligned loads.
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(s.add(j) as *const __m256i),
                        _mm256_loadu_si256(s.add(j + 32) as *const __m256i),
                    )
                };
                err = _mm256_or_si256(
                    err,
                    _mm256_or_si256(
                        check_block(a, prev, t1h, t1l, t2h),
                        check_block(b, a, t1h, t1l, t2h),
                    ),
                );
                prev = b;
                last = _mm256_max_epu8(a, b);
            }
            if _mm256_testz_si256(err, err) == 0 {
                let j = first_flagged(i, 256);
                copy_blocks(i, j - i);
                return Err(j);
            }
            copy_blocks(i, 256);
            i += 256;
            let long = _mm256_subs_epu8(last, ge_e0);
            if _mm256_testz_si256(long, long) != 0 {
                break;
            }
        }
    }
    Ok(i)
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

/// UTF-16 (big-endian if `BE`) to UTF-8, eight code units at a time, for blocks without
/// surrogates (AVX2); returns (bytes read, bytes written). Stops at a block with a surrogate
/// or when `dst` has fewer than 48 bytes of room (32 for the output of a block, 16 for what
/// its stores write past it, put back); the last fewer than eight units of a `src`
/// of at least sixteen bytes are converted too (by a load of the sixteen bytes before their
/// end) unless one of them is a surrogate.
#[inline]
pub(crate) fn utf16_bytes_to_utf8_avx2<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    if !has_avx2() {
        return (0, 0);
    }
    // SAFETY: AVX2 is present.
    unsafe { utf16_bytes_to_utf8_avx2_impl::<BE>(src, dst) }
}

#[target_feature(enable = "avx2")]
unsafe fn utf16_bytes_to_utf8_avx2_impl<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut o) = (0usize, 0usize);
    let swap = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    let swap2 = _mm256_broadcastsi128_si256(swap);
    // The blocks write up to 32 bytes of output and up to 16 past it, where the bytes are
    // kept and put back.
    let room = dst.len().saturating_sub(16);
    if room < 32 {
        return (0, 0);
    }
    // SAFETY: dst has at least 48 bytes.
    let mut ahead = unsafe { Ahead::<false>::new(d) };
    // How many blocks of sixteen in a row before this one were all ASCII.
    let mut ascii_before = 0u32;
    'outer: while i + 16 <= src.len() && o + 32 <= room {
        while i + 32 <= src.len() && o + 32 <= room {
            // Sixteen units below U+0800 (ASCII and two-byte characters: Latin, Greek,
            // Cyrillic, Hebrew, Arabic text) without leaving the loop: each unit's one or two
            // bytes in its 16-bit lane, compacted by a shuffle per eight lanes.
            // SAFETY: i + 32 <= src.len(): the 32 bytes at i are readable; unaligned load.
            let mut w = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
            if BE {
                w = _mm256_shuffle_epi8(w, swap2);
            }
            if _mm256_testz_si256(w, _mm256_set1_epi16(0xF800u16 as i16)) == 0 {
                break;
            }
            let two = _mm256_cmpgt_epi16(w, _mm256_set1_epi16(0x7F));
            // Bits 0-7: units 0-7 with two bytes; bits 16-23: units 8-15.
            let m = _mm256_movemask_epi8(_mm256_packs_epi16(two, two)) as u32;
            if m == 0 {
                if ascii_before >= 2 && i + 128 <= src.len() {
                    // A third block of ASCII in a row (markup, English) with more to come:
                    // narrow as long as it lasts (at least these sixteen units).
                    // SAFETY: the kept bytes are within dst.
                    unsafe { ahead.restore(d) };
                    let k = narrow_utf16_bytes_avx2::<BE>(&src[i..], &mut dst[o..room]);
                    i += 2 * k;
                    o += k;
                    // SAFETY: o <= room.
                    unsafe { ahead.renew(d, o) };
                    ascii_before = 0;
                    continue;
                }
                ascii_before += 1;
                // ASCII (between letters of Latin text: no exit from a loop to mispredict).
                let packed = _mm256_packus_epi16(w, w);
                let bytes = _mm256_permute4x64_epi64::<0x08>(packed);
                // SAFETY: o + 32 <= room; an unaligned store.
                unsafe {
                    ahead.advance(d, o + 16);
                    _mm_storeu_si128(d.add(o) as *mut __m128i, _mm256_castsi256_si128(bytes))
                };
                i += 32;
                o += 16;
                continue;
            }
            let pair = _mm256_or_si256(
                _mm256_or_si256(_mm256_srli_epi16::<6>(w), _mm256_set1_epi16(0xC0)),
                _mm256_slli_epi16::<8>(_mm256_or_si256(
                    _mm256_and_si256(w, _mm256_set1_epi16(0x3F)),
                    _mm256_set1_epi16(0x80),
                )),
            );
            ascii_before = 0;
            let lanes = _mm256_blendv_epi8(w, pair, two);
            let lo = &PACK_1_2[(m & 0xFF) as usize];
            let hi = &PACK_1_2[(m >> 16 & 0xFF) as usize];
            // SAFETY: the shuffles are 16 readable bytes (unaligned loads); o + 32 <= room and
            // lo.len <= 16, so both 16-byte stores are in bounds (and end at most 8 bytes past
            // the output, 16 to 32 bytes long).
            unsafe {
                let shuf = _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_loadu_si128(lo.shuffle.as_ptr() as *const __m128i)),
                    _mm_loadu_si128(hi.shuffle.as_ptr() as *const __m128i),
                );
                let packed = _mm256_shuffle_epi8(lanes, shuf);
                let (l, h) = (lo.len as usize, hi.len as usize);
                ahead.advance(d, o + l + h);
                _mm_storeu_si128(d.add(o) as *mut __m128i, _mm256_castsi256_si128(packed));
                _mm_storeu_si128(
                    d.add(o + l) as *mut __m128i,
                    _mm256_extracti128_si256::<1>(packed),
                );
                o += l + h;
            }
            i += 32;
        }
        // A block with a three-byte character: eight units at a time, as long as they hold
        // three-byte characters (CJK text stays here; a dash among Latin letters does not).
        loop {
            if i + 16 > src.len() || o + 32 > room {
                break 'outer;
            }
            // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; unaligned load.
            let mut v = unsafe { _mm_loadu_si128(s.add(i) as *const __m128i) };
            if BE {
                v = _mm_shuffle_epi8(v, swap);
            }
            // Any surrogate (0xD800..=0xDFFF) ends the fast path.
            let sur = _mm_cmpeq_epi16(
                _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16)),
                _mm_set1_epi16(0xD800u16 as i16),
            );
            if _mm_movemask_epi8(sur) != 0 {
                break 'outer;
            }
            if _mm_testz_si128(v, _mm_set1_epi16(0xFF80u16 as i16)) != 0 && i + 64 <= src.len() {
                // ASCII with more to come: narrow as long as it lasts (at least these eight
                // units).
                // SAFETY: the kept bytes are within dst.
                unsafe { ahead.restore(d) };
                let k = narrow_utf16_bytes_avx2::<BE>(&src[i..], &mut dst[o..room]);
                i += 2 * k;
                o += k;
                // SAFETY: o <= room.
                unsafe { ahead.renew(d, o) };
                continue;
            }
            // SAFETY: AVX2 is present; o + 32 <= room.
            let (w, three) = unsafe { utf16x8_to_utf8(v, d, &mut ahead, o) };
            o += w;
            i += 16;
            if !three {
                break;
            }
        }
    }
    // Fewer than eight whole units left: loaded as the last sixteen bytes before their end,
    // moved to the front (zero units after them, each one byte of output to leave out).
    let r = (src.len() - i) / 2;
    if r > 0 && r < 8 && i + 2 * r >= 16 && o + 32 <= room {
        // SAFETY: 16 <= i + 2r <= src.len(): the 16 bytes before i + 2r are readable; r < 8,
        // so the 16 bytes of TAIL_SHIFT at 16 - 2r are in bounds; unaligned loads.
        let mut v = unsafe {
            let last = _mm_loadu_si128(s.add(i + 2 * r - 16) as *const __m128i);
            let shift = _mm_loadu_si128(TAIL_SHIFT.as_ptr().add(16 - 2 * r) as *const __m128i);
            _mm_shuffle_epi8(last, shift)
        };
        if BE {
            v = _mm_shuffle_epi8(v, swap);
        }
        let sur = _mm_cmpeq_epi16(
            _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16)),
            _mm_set1_epi16(0xD800u16 as i16),
        );
        if _mm_movemask_epi8(sur) == 0 {
            // Into a buffer (the zero units' bytes end it), then the bytes that count.
            let mut buf = [0u8; 64];
            // SAFETY: AVX2 is present; `buf` is 64 bytes, readable and writable.
            let (w, _) = unsafe {
                let mut tail = Ahead::<false>::new(buf.as_ptr());
                utf16x8_to_utf8(v, buf.as_mut_ptr(), &mut tail, 0)
            };
            let w = w - (8 - r);
            // SAFETY: the kept bytes are within dst.
            unsafe { ahead.restore(d) };
            dst[o..o + w].copy_from_slice(&buf[..w]);
            i += 2 * r;
            o += w;
            // SAFETY: o <= room.
            unsafe { ahead.renew(d, o) };
        }
    }
    // SAFETY: the kept bytes are within dst.
    unsafe { ahead.restore(d) };
    (i, o)
}

/// x-user-defined to UTF-16 (AVX2), 32 bytes at a time: a byte below 0x80 is its code unit,
/// 0x80 + n is U+F780 + n. Returns the bytes decoded (a multiple of 32; the caller finishes).
#[inline]
pub(crate) fn x_user_defined_to_utf16_avx2(src: &[u8], dst: &mut [u16]) -> usize {
    if !has_avx2() {
        return 0;
    }
    // SAFETY: AVX2 is present.
    unsafe { x_user_defined_to_utf16_avx2_impl(src, dst) }
}

#[target_feature(enable = "avx2")]
unsafe fn x_user_defined_to_utf16_avx2_impl(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let offset = _mm256_set1_epi16(0xF700u16 as i16);
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n: 32 bytes at s + i are readable and 32 units at d + i writable;
        // unaligned loads and stores.
        unsafe {
            for half in [0, 16] {
                let v = _mm_loadu_si128(s.add(i + half) as *const __m128i);
                // All ones for a byte at or above 0x80 (its sign, extended).
                let high = _mm256_srai_epi16::<15>(_mm256_cvtepi8_epi16(v));
                let u = _mm256_add_epi16(_mm256_cvtepu8_epi16(v), _mm256_and_si256(high, offset));
                _mm256_storeu_si256(d.add(i + half) as *mut __m256i, u);
            }
        }
        i += 32;
    }
    i
}

/// Single-byte text to UTF-8 (AVX2), sixteen bytes at a time while each of them is ASCII or
/// in one of `runs` (a script's letters: byte + delta, as [`super::widen16_runs`] widens
/// them): the code units are made and converted to UTF-8 in registers. Returns (bytes read,
/// bytes written); stops at a block with any other byte, at a block of ASCII alone, with
/// fewer than sixteen bytes left, or with less than 64 bytes of room.
#[inline]
pub(crate) fn runs_to_utf8_avx2(src: &[u8], dst: &mut [u8], runs: &[ByteRun; 2]) -> (usize, usize) {
    if !has_avx2() {
        return (0, 0);
    }
    // SAFETY: AVX2 is present.
    unsafe { runs_to_utf8_avx2_impl(src, dst, runs) }
}

#[target_feature(enable = "avx2")]
unsafe fn runs_to_utf8_avx2_impl(
    src: &[u8],
    dst: &mut [u8],
    runs: &[ByteRun; 2],
) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut o) = (0usize, 0usize);
    if dst.len() < 64 {
        return (0, 0);
    }
    // The compacting stores write 16 bytes and count the first few: the bytes they write
    // over past the output are put back.
    // SAFETY: dst has at least 64 bytes.
    let mut ahead = unsafe { Ahead::<false>::new(d) };
    let z = _mm_setzero_si128();
    let [r0, r1] = runs;
    let (lo0, span0) = (_mm_set1_epi8(r0.lo as i8), _mm_set1_epi8(r0.span as i8));
    let (lo1, span1) = (_mm_set1_epi8(r1.lo as i8), _mm_set1_epi8(r1.span as i8));
    let delta0 = _mm256_set1_epi16(r0.delta as i16);
    let delta1 = _mm256_set1_epi16(r1.delta as i16);
    while i + 16 <= src.len() && o + 64 <= dst.len() {
        // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; an unaligned load.
        let v = unsafe { _mm_loadu_si128(s.add(i) as *const __m128i) };
        // In a run: byte - lo (mod 256) is at most span.
        let in0 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, lo0), span0), z);
        let in1 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, lo1), span1), z);
        let ascii = _mm_cmpgt_epi8(v, _mm_set1_epi8(-1));
        let covered = _mm_movemask_epi8(_mm_or_si128(in0, in1)) | _mm_movemask_epi8(ascii);
        if covered != 0xFFFF || _mm_movemask_epi8(v) == 0 {
            // A byte of neither, or all ASCII (markup: the caller copies it in bulk).
            break;
        }
        let u = _mm256_add_epi16(
            _mm256_cvtepu8_epi16(v),
            _mm256_or_si256(
                _mm256_and_si256(_mm256_cvtepi8_epi16(in0), delta0),
                _mm256_and_si256(_mm256_cvtepi8_epi16(in1), delta1),
            ),
        );
        // SAFETY: AVX2 is present; o + 64 <= dst.len(): the helpers write at most 32 bytes
        // of output and 16 past it, or 24 + 24 and 12 past it for two steps of eight.
        unsafe {
            if _mm256_testz_si256(u, _mm256_set1_epi16(0xF800u16 as i16)) != 0 {
                o += below_800_to_utf8(u, d, &mut ahead, o);
            } else {
                let (w, _) = utf16x8_to_utf8(_mm256_castsi256_si128(u), d, &mut ahead, o);
                let (w2, _) =
                    utf16x8_to_utf8(_mm256_extracti128_si256::<1>(u), d, &mut ahead, o + w);
                o += w + w2;
            }
        }
        i += 16;
    }
    // SAFETY: the kept bytes are within dst.
    unsafe { ahead.restore(d) };
    (i, o)
}

/// Sixteen UTF-16 code units, all below U+0800, in `w`, as UTF-8 at byte `at` of the kernel's
/// output `d`: two stores of 16 bytes, after `ahead` is advanced to their output's end;
/// returns the bytes of UTF-8.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the 32
/// bytes at `d + at` writable, and the loads of `ahead.advance` within `d`'s bytes.
#[inline(always)]
unsafe fn below_800_to_utf8(w: __m256i, d: *mut u8, ahead: &mut Ahead<false>, at: usize) -> usize {
    let two = _mm256_cmpgt_epi16(w, _mm256_set1_epi16(0x7F));
    // Bits 0-7: units 0-7 with two bytes; bits 16-23: units 8-15.
    let m = _mm256_movemask_epi8(_mm256_packs_epi16(two, two)) as u32;
    let pair = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16::<6>(w), _mm256_set1_epi16(0xC0)),
        _mm256_slli_epi16::<8>(_mm256_or_si256(
            _mm256_and_si256(w, _mm256_set1_epi16(0x3F)),
            _mm256_set1_epi16(0x80),
        )),
    );
    let lanes = _mm256_blendv_epi8(w, pair, two);
    let lo = &PACK_1_2[(m & 0xFF) as usize];
    let hi = &PACK_1_2[(m >> 16 & 0xFF) as usize];
    // SAFETY: AVX2 is present; lo.len <= 16 and the 32 bytes at d are writable.
    unsafe { store_packed::<1, false>(lanes, lo, hi, d, ahead, at) }
}

/// Eight UTF-16 code units, none a surrogate, in `v`, as UTF-8 at byte `at` of the kernel's
/// output `d` (stored as by [`below_800_to_utf8`]); returns (the bytes of UTF-8, whether any
/// unit is U+0800 or above).
///
/// # Safety
/// As for [`below_800_to_utf8`].
#[inline(always)]
unsafe fn utf16x8_to_utf8(
    v: __m128i,
    d: *mut u8,
    ahead: &mut Ahead<false>,
    at: usize,
) -> (usize, bool) {
    let u = _mm256_cvtepu16_epi32(v);
    let ge80 = _mm256_cmpgt_epi32(u, _mm256_set1_epi32(0x7F));
    let ge800 = _mm256_cmpgt_epi32(u, _mm256_set1_epi32(0x7FF));
    let m1 = _mm256_movemask_ps(_mm256_castsi256_ps(ge80)) as usize;
    let m2 = _mm256_movemask_ps(_mm256_castsi256_ps(ge800)) as usize;
    let cont = _mm256_set1_epi32(0x80);
    let low6 = _mm256_set1_epi32(0x3F);
    let two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<6>(u), _mm256_set1_epi32(0xC0)),
        _mm256_slli_epi32::<8>(_mm256_or_si256(_mm256_and_si256(u, low6), cont)),
    );
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<12>(u), _mm256_set1_epi32(0xE0)),
        _mm256_or_si256(
            _mm256_slli_epi32::<8>(_mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi32::<6>(u), low6),
                cont,
            )),
            _mm256_slli_epi32::<16>(_mm256_or_si256(_mm256_and_si256(u, low6), cont)),
        ),
    );
    let lanes = _mm256_blendv_epi8(u, _mm256_blendv_epi8(two, three, ge800), ge80);
    let lo = &PACK_1_2_3[(m1 & 0xF) | (m2 & 0xF) << 4];
    let hi = &PACK_1_2_3[(m1 >> 4) | (m2 >> 4) << 4];
    // SAFETY: AVX2 is present; lo.len <= 12 and the 32 bytes at d are writable.
    (
        unsafe { store_packed::<1, false>(lanes, lo, hi, d, ahead, at) },
        m2 != 0,
    )
}

/// UTF-8 to UTF-16 for one-, two- and three-byte characters that the spec's UTF-8 decoder
/// accepts (AVX2), from `src[start..]` (a character boundary) to `dst`: 64 input bytes at a
/// time where they are all such characters, sixteen at a time around anything else, and the
/// last fewer than sixteen bytes by a load of the last sixteen of `src` (which may start
/// before `start`). Returns (bytes read from `start`, units written). Stops, leaving the rest
/// to the caller, at a block of sixteen bytes holding anything else (a four-byte sequence,
/// an error, a character cut off by the end of `src`), or when `dst` has fewer than 24 units
/// of room (16 for the output of a block, 8 for what its stores write past it, put back).
/// Does nothing if `src` is shorter than 16 bytes.
#[inline]
pub(crate) fn utf8_to_utf16_avx2(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    if !has_avx2() || src.len() < 16 || start > src.len() {
        return (0, 0);
    }
    // SAFETY: AVX2 is present, src.len() >= 16 and start <= src.len().
    let (i, o) = unsafe { utf8_to_utf16_avx2_impl(src, start, dst) };
    (i - start, o)
}

/// # Safety
/// AVX2 must be present, `src.len() >= 16` and `start <= src.len()`.
#[target_feature(enable = "avx2")]
unsafe fn utf8_to_utf16_avx2_impl(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    let (n, room) = (src.len(), dst.len());
    let (mut i, mut o) = (start, 0usize);
    let tables = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    // The compacting stores write 8 units and count the first few: the units they write
    // over past the output (8 at most) are put back. (The blocks below keep 8 units more of
    // room than their output's, for the units kept.)
    let room = room.saturating_sub(8);
    if room < 16 {
        return (start, 0);
    }
    let base = dst.as_mut_ptr() as *mut u8;
    // SAFETY: dst has at least 24 units.
    let mut ahead = unsafe { Ahead::<true>::new(base) };
    let done = |ahead: &Ahead<true>, i: usize, o: usize| {
        // SAFETY: the kept bytes are within dst.
        unsafe { ahead.restore(base) };
        (i, o)
    };
    loop {
        while i + 80 <= n && o + 80 <= room {
            // SAFETY: AVX2 is present; i + 80 <= src.len() and o + 80 <= dst.len(), the
            // lengths `utf8_to_utf16_block64` reads and writes.
            match unsafe { utf8_to_utf16_block64(src, dst, i, o, tables, &mut ahead) } {
                Some((r, w)) => {
                    i += r;
                    o += w;
                }
                None => break,
            }
        }
        // The block that failed (or the last bytes), sixteen bytes at a time.
        let stop = i + 64;
        loop {
            if o + 16 > room {
                return done(&ahead, i, o);
            }
            if i + 16 > n {
                if i < n {
                    // SAFETY: AVX2 is present, i < src.len() < i + 16, src.len() >= 16 (the
                    // caller's contract) and o + 16 <= dst.len().
                    let (r, w) = unsafe { utf8_to_utf16_tail16(src, dst, i, o, &mut ahead) };
                    i += r;
                    o += w;
                }
                return done(&ahead, i, o);
            }
            // SAFETY: AVX2 is present; i + 16 <= src.len() and o + 16 <= dst.len().
            let (r, w) = unsafe { utf8_to_utf16_step16(src, dst, i, o, &mut ahead) };
            if r == 0 {
                return done(&ahead, i, o);
            }
            i += r;
            o += w;
            if i >= stop {
                break;
            }
        }
    }
}

/// The 64 bytes at `src[i..]`, starting at a character boundary, validated with the
/// Keiser-Lemire check and converted to UTF-16 at `dst[o..]` up to the last character that
/// ends in them, without a branch on the mix of characters; `None` (nothing written that
/// counts) if they hold an error, a byte at or above 0xF0, or fewer than `SPARSE` bytes at or
/// above 0x80. Returns (bytes read, units written); it reads at least 62 bytes. Its stores
/// write at most 8 units past its output, which `ahead` keeps.
///
/// # Safety
/// AVX2 must be present, `i + 80 <= src.len()` and `o + 80 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn utf8_to_utf16_block64(
    src: &[u8],
    dst: &mut [u16],
    i: usize,
    o: usize,
    (t1h, t1l, t2h): (__m256i, __m256i, __m256i),
    ahead: &mut Ahead<true>,
) -> Option<(usize, usize)> {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let base = d as *mut u8;
    // SAFETY: i + 64 <= src.len() (the caller's contract); unaligned loads.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(s.add(i) as *const __m256i),
            _mm256_loadu_si256(s.add(i + 32) as *const __m256i),
        )
    };
    let high =
        _mm256_movemask_epi8(a) as u32 as u64 | (_mm256_movemask_epi8(b) as u32 as u64) << 32;
    if high == 0 {
        // SAFETY: o + 80 <= dst.len() (the caller's contract).
        unsafe {
            widen32_avx2(a, d.add(o));
            widen32_avx2(b, d.add(o + 32));
        }
        ahead.past(2 * (o + 64));
        return Some((64, 64));
    }
    if high.count_ones() < SPARSE {
        // A few two-byte characters among ASCII (Latin scripts): the 16-byte steps widen
        // the ASCII parts for less.
        return None;
    }
    // The block starts at a character boundary: the bytes before it end a character, which
    // the check sees as it sees ASCII (zeros). Bytes F0..FF (four-byte leads, invalid bytes)
    // are left to the exact path.
    let err = _mm256_or_si256(
        _mm256_or_si256(
            check_block(a, _mm256_setzero_si256(), t1h, t1l, t2h),
            check_block(b, a, t1h, t1l, t2h),
        ),
        _mm256_subs_epu8(_mm256_max_epu8(a, b), _mm256_set1_epi8(0xEFu8 as i8)),
    );
    if _mm256_testz_si256(err, err) == 0 {
        return None;
    }
    // Continuation bytes 80..BF (signed -128..-65).
    let c0 = _mm256_set1_epi8(-64);
    let conts = _mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, a)) as u32 as u64
        | (_mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, b)) as u32 as u64) << 32;
    // A character that runs past the block (a lead in its last byte, or a three-byte lead in
    // the one before: the check above saw that lead followed by a continuation) is left for
    // the next one; the check saw no further than the block, so it must not count here.
    let e63 = (src[i + 63] >= 0xC0) as usize;
    let e62 = (src[i + 62] >= 0xE0) as usize & (e63 ^ 1);
    let end = 64 - e63 - 2 * e62;
    // Lanes left out: continuation bytes, and the bytes from `end` on.
    let drop = conts | !(u64::MAX >> (64 - end));
    let (mut w, mut p) = (0, 0);
    if conts & 0xFFFF_FFFF_FFFF == THREE_BYTE_CONTS_48 {
        // Sixteen three-byte characters (the common case of CJK text): the continuation
        // bytes show it, for the check above has seen that the leads are E0..EF.
        // SAFETY: the 52 bytes at i are within src and the 16 units at o within dst (the
        // caller's contract); those 48 bytes are valid three-byte characters.
        unsafe {
            convert_3x8(s.add(i), d.add(o));
            convert_3x8(s.add(i + 24), d.add(o + 8));
        }
        ahead.past(2 * (o + 16));
        (w, p) = (16, 48);
    }
    if p == 0 {
        // SAFETY: the 34 bytes at i and at i + 32 are within src (i + 66 < i + 80); the
        // first call writes at most 32 units and the second w <= 32 more (at most a unit per
        // byte), so the 32 units stored at o and at o + w are within dst (o + 80 <= dst.len()).
        unsafe {
            w = convert32(s.add(i), drop as u32, base, ahead, o);
            w += convert32(s.add(i + 32), (drop >> 32) as u32, base, ahead, o + w);
        }
        return Some((end, w));
    }
    while p < 64 {
        // SAFETY: p + 18 <= 66 < 80: the 18 bytes at i + p are within src; w <= p (at most
        // a unit per byte), so the 16 units at o + w are within dst (o + 80 <= dst.len()).
        w += unsafe {
            compact16(
                values16(s.add(i + p)),
                (drop >> p) as u32 & 0xFFFF,
                base,
                ahead,
                o + w,
            )
        };
        p += 16;
    }
    Some((end, w))
}

/// Blocks of 64 bytes with fewer bytes at or above 0x80 go sixteen bytes at a time.
const SPARSE: u32 = 8;

/// The continuation bytes of sixteen three-byte characters.
const THREE_BYTE_CONTS_48: u64 = 0xDB6D_B6DB_6DB6;

/// Converts the eight three-byte characters at `s` (valid) to the 8 units at `d`.
///
/// # Safety
/// AVX2 must be present, the 28 bytes at `s` readable and 8 units at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn convert_3x8(s: *const u8, d: *mut u16) {
    // SAFETY: the caller's contract; unaligned loads.
    let x = unsafe { _mm256_loadu2_m128i(s.add(12) as *const __m128i, s as *const __m128i) };
    // Each 32-bit lane: the third, second and first byte of a character, then zero.
    let order = _mm256_setr_epi8(
        2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, 2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6,
        -1, 11, 10, 9, -1,
    );
    let x = _mm256_shuffle_epi8(x, order);
    let v = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_and_si256(x, _mm256_set1_epi32(0x3F)),
            _mm256_and_si256(_mm256_srli_epi32::<2>(x), _mm256_set1_epi32(0xFC0)),
        ),
        _mm256_and_si256(_mm256_srli_epi32::<4>(x), _mm256_set1_epi32(0xF000)),
    );
    let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(v, v));
    // SAFETY: the caller's contract; an unaligned store.
    unsafe { _mm_storeu_si128(d as *mut __m128i, _mm256_castsi256_si128(packed)) };
}

/// Per position of the sixteen at `s`, the UTF-16 unit of the character starting there, for
/// a byte below 0x80 or a two- or three-byte lead followed by its continuation bytes
/// (anything for other positions).
///
/// # Safety
/// AVX2 must be present and the 18 bytes at `s` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn values16(s: *const u8) -> __m256i {
    // SAFETY: the caller's contract; unaligned loads.
    let (b, n1, n2) = unsafe {
        (
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s as *const __m128i)),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s.add(1) as *const __m128i)),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s.add(2) as *const __m128i)),
        )
    };
    let low6 = _mm256_set1_epi16(0x3F);
    let v2 = _mm256_or_si256(
        _mm256_slli_epi16::<6>(_mm256_and_si256(b, _mm256_set1_epi16(0x1F))),
        _mm256_and_si256(n1, low6),
    );
    // A three-byte lead has bit 4 clear: its two-byte value shifted is its three-byte one.
    let v3 = _mm256_or_si256(_mm256_slli_epi16::<6>(v2), _mm256_and_si256(n2, low6));
    let lead = _mm256_cmpgt_epi16(b, _mm256_set1_epi16(0xBF));
    let lead3 = _mm256_cmpgt_epi16(b, _mm256_set1_epi16(0xDF));
    _mm256_blendv_epi8(b, _mm256_blendv_epi8(v2, v3, lead3), lead)
}

/// Converts the 32 bytes at `s` to UTF-16 at `d`, leaving out the positions in `drop`: per
/// position, the unit of the character starting there, for a byte below 0x80 or a two- or
/// three-byte lead followed by its (valid) continuation bytes, computed as its low and high
/// bytes for all 32 positions at once. Returns the units kept (four stores of 8 units at unit
/// `at` of the kernel's output `d`, after `ahead` is advanced to their output's end).
///
/// # Safety
/// AVX2 must be present, the 34 bytes at `s` readable and 32 units at `d` (in units) + `at`
/// writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn convert32(
    s: *const u8,
    drop: u32,
    d: *mut u8,
    ahead: &mut Ahead<true>,
    at: usize,
) -> usize {
    // SAFETY: the caller's contract; unaligned loads.
    let (b, n1, n2) = unsafe {
        (
            _mm256_loadu_si256(s as *const __m256i),
            _mm256_loadu_si256(s.add(1) as *const __m256i),
            _mm256_loadu_si256(s.add(2) as *const __m256i),
        )
    };
    let byte = |v: u8| _mm256_set1_epi8(v as i8);
    // Three-byte leads E0..EF (and ASCII, for which the result is b below).
    let lead3 = _mm256_cmpgt_epi8(b, byte(0xDF));
    // A two-byte character's unit is (b & 0x1F) << 6 | n1 & 0x3F; a three-byte one's is
    // (b & 0x0F) << 12 | (n1 & 0x3F) << 6 | n2 & 0x3F: the low byte is t << 6 | u & 0x3F and
    // the high byte t >> 2 & 0x0F (but for b's low nibble of a three-byte lead), with (t, u)
    // = (b, n1) or (n1, n2). (A two-byte lead's b >> 2 & 0x0F is its bits 2..4.)
    let t = _mm256_blendv_epi8(b, n1, lead3);
    let u = _mm256_blendv_epi8(n1, n2, lead3);
    let lo = _mm256_or_si256(
        _mm256_and_si256(_mm256_slli_epi16::<6>(t), byte(0xC0)),
        _mm256_and_si256(u, byte(0x3F)),
    );
    let hi = _mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi16::<2>(t), byte(0x0F)),
        _mm256_and_si256(
            _mm256_slli_epi16::<4>(b),
            _mm256_and_si256(lead3, byte(0xF0)),
        ),
    );
    // ASCII (sign bit clear): the byte itself.
    let lo = _mm256_blendv_epi8(b, lo, b);
    let hi = _mm256_blendv_epi8(_mm256_setzero_si256(), hi, b);
    // Units of positions 0..8 and 16..24, then 8..16 and 24..32.
    let u0 = _mm256_unpacklo_epi8(lo, hi);
    let u1 = _mm256_unpackhi_epi8(lo, hi);
    let k0 = &KEEP_U16_LANES[(drop & 0xFF) as usize];
    let k1 = &KEEP_U16_LANES[(drop >> 8 & 0xFF) as usize];
    let k2 = &KEEP_U16_LANES[(drop >> 16 & 0xFF) as usize];
    let k3 = &KEEP_U16_LANES[(drop >> 24) as usize];
    let (l0, l1, l2) = (k0.len as usize, k1.len as usize, k2.len as usize);
    // SAFETY: the shuffles are 16 readable bytes; l0 + l1 + l2 <= 24, so the four 8-unit
    // stores are within the 32 writable units at d.
    unsafe {
        let c0 = _mm256_shuffle_epi8(
            u0,
            _mm256_loadu2_m128i(
                k2.shuffle.as_ptr() as *const __m128i,
                k0.shuffle.as_ptr() as *const __m128i,
            ),
        );
        let c1 = _mm256_shuffle_epi8(
            u1,
            _mm256_loadu2_m128i(
                k3.shuffle.as_ptr() as *const __m128i,
                k1.shuffle.as_ptr() as *const __m128i,
            ),
        );
        let kept = l0 + l1 + l2 + k3.len as usize;
        ahead.advance(d, 2 * (at + kept));
        let d = (d as *mut u16).add(at);
        _mm_storeu_si128(d as *mut __m128i, _mm256_castsi256_si128(c0));
        _mm_storeu_si128(d.add(l0) as *mut __m128i, _mm256_castsi256_si128(c1));
        _mm_storeu_si128(
            d.add(l0 + l1) as *mut __m128i,
            _mm256_extracti128_si256::<1>(c0),
        );
        _mm_storeu_si128(
            d.add(l0 + l1 + l2) as *mut __m128i,
            _mm256_extracti128_si256::<1>(c1),
        );
        kept
    }
}

/// Stores the sixteen units of `values` at `d` but for the lanes in `drop`, in order; returns
/// how many it kept (two stores of 8 units at unit `at` of the kernel's output `d`, after
/// `ahead` is advanced to their output's end).
///
/// # Safety
/// AVX2 must be present and 16 units at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn compact16(
    values: __m256i,
    drop: u32,
    d: *mut u8,
    ahead: &mut Ahead<true>,
    at: usize,
) -> usize {
    let lo = &KEEP_U16_LANES[(drop & 0xFF) as usize];
    let hi = &KEEP_U16_LANES[(drop >> 8 & 0xFF) as usize];
    // SAFETY: AVX2 is present; lo.len <= 8 units, so 16 bytes after lo.len units are within
    // the 16 writable units at d.
    unsafe { store_packed::<2, true>(values, lo, hi, d, ahead, 2 * at) }
}

/// Compacts each 128-bit half of `v` by the shuffle of its `Pack` (`lo` for the low half)
/// and stores the two one after the other at byte `at` of the kernel's output `d`: 16 bytes
/// each, the second `lo.len * UNIT` bytes after the first, where `UNIT` is the size of what a
/// pack counts (1 for bytes, 2 for UTF-16 units), after `ahead` is advanced to their output's
/// end. Returns `lo.len + hi.len`.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the
/// `lo.len * UNIT + 16` bytes at `d + at` writable, and the loads of `ahead.advance` within
/// `d`'s bytes.
#[inline(always)]
unsafe fn store_packed<const UNIT: usize, const LAZY: bool>(
    v: __m256i,
    lo: &Pack,
    hi: &Pack,
    d: *mut u8,
    ahead: &mut Ahead<LAZY>,
    at: usize,
) -> usize {
    let (l, h) = (lo.len as usize, hi.len as usize);
    // SAFETY: the shuffles are 16 readable bytes each (unaligned loads); both 16-byte stores
    // are within the bytes at d + at that the caller makes writable (and end at most 16
    // bytes past the output).
    unsafe {
        let shuf = _mm256_loadu2_m128i(
            hi.shuffle.as_ptr() as *const __m128i,
            lo.shuffle.as_ptr() as *const __m128i,
        );
        let kept = _mm256_shuffle_epi8(v, shuf);
        ahead.advance(d, at + (l + h) * UNIT);
        _mm_storeu_si128(d.add(at) as *mut __m128i, _mm256_castsi256_si128(kept));
        _mm_storeu_si128(
            d.add(at + l * UNIT) as *mut __m128i,
            _mm256_extracti128_si256::<1>(kept),
        );
    }
    l + h
}

/// Converts the 16 bytes `b`, valid UTF-8 with one- to three-byte characters complete
/// within them except at the dropped positions, given their two- and three-byte leads, to
/// UTF-16 at `d`: the lanes in `drop` (continuation bytes and bytes past the last character)
/// are left out. Returns the units written (16 are stored).
///
/// # Safety
/// AVX2 must be present and 16 units at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn convert16_leads(
    b: __m128i,
    lead2: __m128i,
    lead3: __m128i,
    d: *mut u8,
    drop: u32,
    ahead: &mut Ahead<true>,
    at: usize,
) -> usize {
    let next1 = _mm_srli_si128::<1>(b);
    let next2 = _mm_srli_si128::<2>(b);
    let b16 = _mm256_cvtepu8_epi16(b);
    let n1 = _mm256_cvtepu8_epi16(next1);
    let n2 = _mm256_cvtepu8_epi16(next2);
    let low6 = _mm256_set1_epi16(0x3F);
    let v2 = _mm256_or_si256(
        _mm256_slli_epi16::<6>(_mm256_and_si256(b16, _mm256_set1_epi16(0x1F))),
        _mm256_and_si256(n1, low6),
    );
    let v3 = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_slli_epi16::<12>(b16),
            _mm256_slli_epi16::<6>(_mm256_and_si256(n1, low6)),
        ),
        _mm256_and_si256(n2, low6),
    );
    let values = _mm256_blendv_epi8(
        _mm256_blendv_epi8(b16, v2, _mm256_cvtepi8_epi16(lead2)),
        v3,
        _mm256_cvtepi8_epi16(lead3),
    );
    // SAFETY: AVX2 is present; 16 units at d are writable.
    unsafe { compact16(values, drop, d, ahead, at) }
}

/// Sixteen bytes at `src[i..]` (a character boundary), checked exactly and converted to
/// UTF-16 at `dst[o..]` up to the last character that ends in them; (0, 0) for a block
/// holding anything else than valid one- to three-byte characters (a four-byte sequence, an
/// error). Returns (bytes read, units written).
///
/// # Safety
/// AVX2 must be present, `i + 16 <= src.len()` and `o + 16 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn utf8_to_utf16_step16(
    src: &[u8],
    dst: &mut [u16],
    i: usize,
    o: usize,
    ahead: &mut Ahead<true>,
) -> (usize, usize) {
    // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; unaligned load.
    let b = unsafe { _mm_loadu_si128(src.as_ptr().add(i) as *const __m128i) };
    // SAFETY: o + 16 <= dst.len().
    unsafe { convert16_exact(b, 16, dst.as_mut_ptr(), o, ahead) }
}

/// The last `src.len() - i` bytes of `src`, fewer than sixteen, from a character boundary at
/// `i`: loaded as the last sixteen bytes of `src`, moved to the front (zeros after them), and
/// checked and converted as by `utf8_to_utf16_step16`; (0, 0) for anything else than valid
/// one- to three-byte characters, complete (nothing else than the end follows them).
///
/// # Safety
/// AVX2 must be present, `src.len() >= 16`, `i < src.len() < i + 16` and
/// `o + 16 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn utf8_to_utf16_tail16(
    src: &[u8],
    dst: &mut [u16],
    i: usize,
    o: usize,
    ahead: &mut Ahead<true>,
) -> (usize, usize) {
    let n = src.len();
    let r = n - i;
    // SAFETY: n >= 16: the 16 bytes at n - 16 are readable; 16 - r + 16 <= 31 < 32, so the 16
    // bytes of TAIL_SHIFT at 16 - r are in bounds; unaligned loads.
    let b = unsafe {
        let last = _mm_loadu_si128(src.as_ptr().add(n - 16) as *const __m128i);
        let shift = _mm_loadu_si128(TAIL_SHIFT.as_ptr().add(16 - r) as *const __m128i);
        _mm_shuffle_epi8(last, shift)
    };
    // SAFETY: o + 16 <= dst.len().
    unsafe { convert16_exact(b, r, dst.as_mut_ptr(), o, ahead) }
}

/// The first `avail` (1 to 16) bytes of `b`, from a character boundary, zeros after them,
/// checked exactly and converted to UTF-16 at `base[o..]` up to the last character that ends
/// in them; (0, 0) if they hold anything else than valid one- to three-byte characters (a
/// four-byte sequence, an error). A character cut off by `avail` is seen as an error (its
/// continuation bytes are zeros) unless it starts in byte 14 or 15 of sixteen. Returns (bytes
/// read, units written); stores of 8 units, after `ahead` is advanced to their output's end.
///
/// # Safety
/// AVX2 must be present and 16 units at `base + o` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn convert16_exact(
    b: __m128i,
    avail: usize,
    base: *mut u16,
    o: usize,
    ahead: &mut Ahead<true>,
) -> (usize, usize) {
    let byte = |v: u8| _mm_set1_epi8(v as i8);
    // SAFETY: o + 16 <= the units at base (the caller's contract).
    let d = unsafe { base.add(o) };
    if _mm_movemask_epi8(b) == 0 {
        // ASCII (and zeros after `avail`).
        let units = _mm256_cvtepu8_epi16(b);
        let (lo, hi) = (
            _mm256_castsi256_si128(units),
            _mm256_extracti128_si256::<1>(units),
        );
        // SAFETY: 16 units (32 bytes) at d are writable; the second 8 only if they are
        // output, so that no store writes more than 8 units past it.
        unsafe {
            ahead.advance(base as *mut u8, 2 * (o + avail));
            _mm_storeu_si128(d as *mut __m128i, lo);
            if avail > 8 {
                _mm_storeu_si128(d.add(8) as *mut __m128i, hi);
            }
        }
        return (avail, avail);
    }
    let lead2 = _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xE0)), byte(0xC0));
    let lead3 = _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xF0)), byte(0xE0));
    let cont = _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xC0)), byte(0x80));
    // Four-byte leads, invalid bytes F5..FF, and the overlong leads C0 and C1 are left to
    // the scalar path.
    let four = _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xF0)), byte(0xF0));
    let c0c1 = _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xFE)), byte(0xC0));
    if _mm_movemask_epi8(_mm_or_si128(four, c0c1)) != 0 {
        return (0, 0);
    }
    let l2 = _mm_movemask_epi8(lead2) as u32;
    let l3 = _mm_movemask_epi8(lead3) as u32;
    let c = _mm_movemask_epi8(cont) as u32;
    // Continuation bytes must be exactly those the leads call for.
    let expected = ((l2 << 1) | (l3 << 1) | (l3 << 2)) & 0xFFFF;
    if c != expected || (l2 | l3) & expected != 0 {
        return (0, 0);
    }
    // A character that runs past the block is left for the next one.
    let end = if l3 & 1 << 14 != 0 {
        14
    } else if (l2 | l3) & 1 << 15 != 0 {
        15
    } else {
        16
    }
    .min(avail);
    let next1 = _mm_srli_si128::<1>(b);
    // "UTF-8 lower boundary" 0xA0 after 0xE0 and "upper boundary" 0x9F after 0xED.
    let low_next = _mm_cmpeq_epi8(_mm_min_epu8(next1, byte(0x9F)), next1);
    let bad = _mm_or_si128(
        _mm_andnot_si128(low_next, _mm_cmpeq_epi8(b, byte(0xED))),
        _mm_and_si128(low_next, _mm_cmpeq_epi8(b, byte(0xE0))),
    );
    if (_mm_movemask_epi8(bad) as u32) & ((1u32 << end) - 1) != 0 {
        return (0, 0);
    }
    // Drop the lanes of continuation bytes and of bytes past `end`.
    let drop = c | (0xFFFF & !((1u32 << end) - 1));
    // SAFETY: the 16 units at d are writable (the caller's contract); the bytes before `end`
    // are valid one- to three-byte characters, complete; the held store (at d) first.
    let w = unsafe { convert16_leads(b, lead2, lead3, base as *mut u8, drop, ahead, o) };
    (end, w)
}

/// Narrows the prefix of `src` whose units are ASCII or in `lo..=hi` into `dst` (SSE2);
/// returns its length. Stops exactly at the first other unit; nothing after the prefix is
/// written. `lo..=hi` must lie within U+0000..=U+00FF.
#[inline]
pub(crate) fn narrow_latin1_sse2(src: &[u16], dst: &mut [u8], lo: u16, hi: u16) -> usize {
    let n = src.len();
    if dst.len() < n || n < 16 || hi > 0xFF || lo > hi {
        let mut i = 0;
        while i < n.min(dst.len()) && (src[i] < 0x80 || (lo <= src[i] && src[i] <= hi)) {
            dst[i] = src[i] as u8;
            i += 1;
        }
        return i;
    }
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    // Whether each unit of `v` is ASCII or in the range, as 0xFFFF or 0 per lane: unsigned
    // `x <= c` is `x -sat c == 0`; a unit below `lo` wraps around to a large `u - lo`.
    #[inline(always)]
    fn ok(v: __m128i, lo: __m128i, span: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64; register operations only.
        unsafe {
            let z = _mm_setzero_si128();
            let ascii = _mm_cmpeq_epi16(_mm_subs_epu16(v, _mm_set1_epi16(0x7F)), z);
            let range = _mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(v, lo), span), z);
            _mm_or_si128(ascii, range)
        }
    }
    // SAFETY: SSE2 is baseline; register operations only.
    let (vlo, vspan) = unsafe { (_mm_set1_epi16(lo as i16), _mm_set1_epi16((hi - lo) as i16)) };
    // The mask of the units (of the sixteen at `at`) that pass; they are stored narrowed if
    // all pass.
    let block = |at: usize| -> u32 {
        // SAFETY: SSE2 is baseline; the callers keep at + 16 <= n <= dst.len(), so units
        // at..at+16 of src and bytes at..at+16 of dst are in bounds; unaligned loads, stores.
        unsafe {
            let a = _mm_loadu_si128(s.add(at) as *const __m128i);
            let b = _mm_loadu_si128(s.add(at + 8) as *const __m128i);
            let mask = _mm_movemask_epi8(_mm_packs_epi16(ok(a, vlo, vspan), ok(b, vlo, vspan)));
            if mask == 0xFFFF {
                _mm_storeu_si128(d.add(at) as *mut __m128i, _mm_packus_epi16(a, b));
            }
            mask as u32
        }
    };
    // The units of `from..to`, which pass, narrowed one by one.
    let exact = |dst: &mut [u8], from: usize, to: usize| {
        for (d, &u) in dst[from..to].iter_mut().zip(&src[from..to]) {
            *d = u as u8;
        }
    };
    let mut i = 0;
    while i + 16 <= n {
        let mask = block(i);
        if mask != 0xFFFF {
            let k = i + (!mask).trailing_zeros() as usize;
            exact(dst, i, k);
            return k;
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 units, overlapping those already narrowed (n >= 16, checked above).
    let j = n - 16;
    let mask = block(j);
    if mask != 0xFFFF {
        let end = (j + (!mask).trailing_zeros() as usize).max(i);
        exact(dst, i, end);
        end
    } else {
        n
    }
}

/// Narrows the prefix of `src` whose units are ASCII or in the set `bits` (bit `b & 7` of
/// byte `(b >> 3) & 15` for `b` in 0x80..=0xFF) into `dst` (AVX2); returns its length. Stops
/// exactly at the first other unit; nothing after the prefix is written.
#[inline]
pub(crate) fn narrow_latin1_avx2(src: &[u16], dst: &mut [u8], bits: &[u8; 16]) -> usize {
    let n = src.len();
    if !has_avx2() || dst.len() < n || n < 16 {
        let mut i = 0;
        while i < n.min(dst.len()) {
            let u = src[i];
            if u >= 0x80 && (u >= 0x100 || (bits[(u as usize >> 3) & 15] >> (u & 7)) & 1 == 0) {
                break;
            }
            dst[i] = u as u8;
            i += 1;
        }
        return i;
    }
    // SAFETY: AVX2 is present, `src` has at least 16 units and `dst` at least as many bytes.
    unsafe { narrow_latin1_avx2_impl(src, dst, bits) }
}

/// Narrows the 16 units at `s` to the 16 bytes at `d` if they are all ASCII or in the set
/// `table` (the 16 bytes of the set); returns the mask of those that are.
///
/// # Safety
/// AVX2 must be present, the 16 units at `s` readable and the 16 bytes at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn narrow_latin1_block(s: *const u16, d: *mut u8, table: __m128i) -> u32 {
    // SAFETY: the caller's contract; unaligned loads and store.
    let (a, b) = unsafe {
        (
            _mm_loadu_si128(s as *const __m128i),
            _mm_loadu_si128(s.add(8) as *const __m128i),
        )
    };
    // The low bytes (saturated for units above 0xFF, which fail on their high bytes).
    let v = _mm_packus_epi16(a, b);
    let high = _mm_packus_epi16(_mm_srli_epi16::<8>(a), _mm_srli_epi16::<8>(b));
    // The set's byte for each unit, and the bit within it (`pshufb` reads the low four bits
    // of an index whose high bit is clear).
    let byte = _mm_shuffle_epi8(
        table,
        _mm_and_si128(_mm_srli_epi16::<3>(v), _mm_set1_epi8(0x0F)),
    );
    let bit = _mm_shuffle_epi8(
        _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128),
        _mm_and_si128(v, _mm_set1_epi8(7)),
    );
    let member = _mm_cmpeq_epi8(_mm_and_si128(byte, bit), bit);
    let ascii = _mm_cmpgt_epi8(v, _mm_set1_epi8(-1));
    let low = _mm_cmpeq_epi8(high, _mm_setzero_si128());
    let mask = _mm_movemask_epi8(_mm_and_si128(_mm_or_si128(ascii, member), low)) as u32;
    if mask == 0xFFFF {
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(d as *mut __m128i, v) };
    }
    mask
}

/// Narrows the 32 units at `s` to the 32 bytes at `d` if they are all ASCII or in the set
/// `table` (the 16 bytes of the set, in both halves); returns the mask of those that are.
///
/// # Safety
/// AVX2 must be present, the 32 units at `s` readable and the 32 bytes at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn narrow_latin1_block32(s: *const u16, d: *mut u8, table: __m256i) -> u32 {
    // SAFETY: the caller's contract; unaligned loads.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(s as *const __m256i),
            _mm256_loadu_si256(s.add(16) as *const __m256i),
        )
    };
    // Per 128-bit half: the low bytes of units 0-7 of `a`, 0-7 of `b`; then 8-15 of each.
    let v = _mm256_packus_epi16(a, b);
    // SAFETY: as above; an unaligned store of the bytes in unit order.
    let store =
        || unsafe { _mm256_storeu_si256(d as *mut __m256i, _mm256_permute4x64_epi64::<0xD8>(v)) };
    // All ASCII (markup, English): no set look-up.
    let non_ascii = _mm256_and_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(0xFF80u16 as i16));
    if _mm256_testz_si256(non_ascii, non_ascii) != 0 {
        store();
        return u32::MAX;
    }
    let high = _mm256_packus_epi16(_mm256_srli_epi16::<8>(a), _mm256_srli_epi16::<8>(b));
    let byte = _mm256_shuffle_epi8(
        table,
        _mm256_and_si256(_mm256_srli_epi16::<3>(v), _mm256_set1_epi8(0x0F)),
    );
    let bit = _mm256_shuffle_epi8(
        _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        ),
        _mm256_and_si256(v, _mm256_set1_epi8(7)),
    );
    let member = _mm256_cmpeq_epi8(_mm256_and_si256(byte, bit), bit);
    let ascii = _mm256_cmpgt_epi8(v, _mm256_set1_epi8(-1));
    let low = _mm256_cmpeq_epi8(high, _mm256_setzero_si256());
    let m = _mm256_movemask_epi8(_mm256_and_si256(_mm256_or_si256(ascii, member), low)) as u32;
    if m == u32::MAX {
        store();
        return m;
    }
    // Bytes 1 and 2 of the mask swap places to follow unit order.
    (m & 0xFF00_00FF) | ((m >> 8) & 0xFF00) | ((m << 8) & 0xFF_0000)
}

/// The units of `src[from..to]`, which are ASCII or in the set, narrowed one by one into
/// `dst[from..to]` (the prefix before the first other unit, at the end of a kernel).
#[inline]
fn narrow_exact(src: &[u16], dst: &mut [u8], from: usize, to: usize) {
    for (d, &u) in dst[from..to].iter_mut().zip(&src[from..to]) {
        *d = u as u8;
    }
}

#[target_feature(enable = "avx2")]
unsafe fn narrow_latin1_avx2_impl(src: &[u16], dst: &mut [u8], bits: &[u8; 16]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: `bits` is 16 readable bytes; an unaligned load.
    let table = unsafe { _mm_loadu_si128(bits.as_ptr() as *const __m128i) };
    let table2 = _mm256_broadcastsi128_si256(table);
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: AVX2 is present; i + 32 <= n <= dst.len(): in bounds of both.
        let mask = unsafe { narrow_latin1_block32(s.add(i), d.add(i), table2) };
        if mask != u32::MAX {
            let k = i + (!mask).trailing_zeros() as usize;
            narrow_exact(src, dst, i, k);
            return k;
        }
        i += 32;
    }
    if i + 16 <= n {
        // SAFETY: AVX2 is present; i + 16 <= n <= dst.len(): in bounds of both.
        let mask = unsafe { narrow_latin1_block(s.add(i), d.add(i), table) };
        if mask != 0xFFFF {
            let k = i + (!mask).trailing_zeros() as usize;
            narrow_exact(src, dst, i, k);
            return k;
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 units, overlapping those already narrowed (n >= 16, the caller's contract).
    let j = n - 16;
    // SAFETY: AVX2 is present; j + 16 = n <= dst.len().
    let mask = unsafe { narrow_latin1_block(s.add(j), d.add(j), table) };
    if mask != 0xFFFF {
        let end = (j + (!mask).trailing_zeros() as usize).max(i);
        narrow_exact(src, dst, i, end);
        end
    } else {
        n
    }
}
