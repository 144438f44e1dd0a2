//! ASCII runs: copies, widening to UTF-16, narrowing from UTF-16 (SSE2, AVX2 and AVX-512).

use super::*;

/// Copies the ASCII prefix of `src` to `dst` (AVX2); returns its length. Nothing after the
/// prefix is written. Inlined into its callers: out of line, the single-byte decoders' and
/// encoders' loops paid a call for each ASCII run (by the instruction counts).
#[inline(always)]
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
pub(super) unsafe fn copy_ascii_avx2_impl(src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: AVX2 is present and 32 <= src.len() <= dst.len() (the caller's contract).
    unsafe { copy_ascii_blocks::<Avx2>(src, dst) }
}

/// Copies the ASCII prefix of `src` to `dst` (SSE2); returns its length. Nothing after the
/// prefix is written.
#[inline]
pub(crate) fn copy_ascii_sse2(src: &[u8], dst: &mut [u8]) -> usize {
    if dst.len() < src.len() || src.len() < 16 {
        return scalar::copy_ascii_to_ascii(src, dst);
    }
    // SAFETY: SSE2 is part of the x86-64 baseline and 16 <= src.len() <= dst.len().
    unsafe { copy_ascii_blocks::<Sse2>(src, dst) }
}

/// Copies the ASCII prefix of `src` to `dst` a vector of width `W` at a time; returns its
/// length. Nothing after the prefix is written.
///
/// # Safety
/// `W`'s instructions present; `W::BYTES <= src.len() <= dst.len()`.
#[inline(always)]
unsafe fn copy_ascii_blocks<W: Width>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + W::BYTES <= n {
        // SAFETY: `W` is present; i + BYTES <= n = src.len() <= dst.len(): the bytes at i
        // are in bounds of both.
        unsafe {
            let v = W::load(s.add(i));
            let mask = W::movemask(v);
            if mask != 0 {
                // The ASCII bytes before the first other one, and nothing after them.
                let k = mask.trailing_zeros() as usize;
                W::store_prefix(d.add(i), v, k);
                return i + k;
            }
            W::store(d.add(i), v);
        }
        i += W::BYTES;
    }
    if i == n {
        return n;
    }
    // The last vector, overlapping the ASCII already copied (n >= BYTES, the contract).
    let j = n - W::BYTES;
    // SAFETY: `W` is present; j + BYTES = n <= src.len().
    let v = unsafe { W::load(s.add(j)) };
    // SAFETY: `W` is present.
    let mask = unsafe { W::movemask(v) };
    if mask == 0 {
        // SAFETY: j + BYTES = n <= dst.len() (of the bytes before `i` again).
        unsafe { W::store(d.add(j), v) };
        return n;
    }
    let end = (j + mask.trailing_zeros() as usize).max(i);
    dst[i..end].copy_from_slice(&src[i..end]);
    end
}

/// Widens the ASCII prefix of `src` into `dst` (AVX2); returns its length. Nothing after the
/// prefix is written.
#[inline(always)]
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
pub(super) unsafe fn widen32_avx2(v: __m256i, d: *mut u16) {
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
pub(super) fn widen_exact(src: &[u8], dst: &mut [u16], from: usize, to: usize) {
    for (d, &b) in dst[from..to].iter_mut().zip(&src[from..to]) {
        *d = b as u16;
    }
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn widen_ascii_avx2_impl(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len(); an unaligned load.
        let v = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
        let mask = _mm256_movemask_epi8(v) as u32;
        if mask != 0 {
            let k = mask.trailing_zeros() as usize;
            // SAFETY: AVX2 is present; i + 32 <= n <= dst.len(): the 32 units at i are
            // dst's.
            unsafe {
                let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
                let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
                let o = d.add(i) as *mut u8;
                store_prefix32(o, lo, (2 * k).min(32));
                store_prefix32(o.add(32), hi, (2 * k).saturating_sub(32));
            }
            return i + k;
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
pub(super) fn ascii_units_sse2(a: __m128i, b: __m128i) -> usize {
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
                store_prefix16(d.add(i), _mm_packus_epi16(a, b), k);
                return i + k;
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
pub(super) unsafe fn narrow_blocks_avx2<const BYTES: bool, const BE: bool>(
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
                store_prefix16(d.add(i), _mm_packus_epi16(a, b), k);
                return i + k;
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, _mm_packus_epi16(a, b));
        }
        i += 16;
    }
    i + scalar::copy_utf16_bytes_ascii::<BE>(&src[2 * i..], &mut dst[i..])
}

// AVX-512: the UTF-16 bytes narrowing, the same loop as AVX2's, 32 units a vector, with
// masked loads and stores for the tail and for the prefix before the first unit that is not
// ASCII, so that no byte past the input is read and none past the prefix is written. (The
// ASCII copy, widening and narrowing of units use the AVX2 kernels at the AVX-512 level:
// their callers copy short runs, for which the masked load is slower; see
// `simd::copy_ascii_to_ascii`.)

/// Narrows ASCII code units from UTF-16 bytes (big-endian if `BE`) into `dst` (AVX-512), as
/// [`narrow_ascii_avx2`] narrows units; returns the number of units.
#[inline]
pub(crate) fn narrow_utf16_bytes_avx512<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_avx512() {
        return narrow_utf16_bytes_avx2::<BE>(src, dst);
    }
    let n = (src.len() / 2).min(dst.len());
    // SAFETY: AVX-512 F/BW/VL and AVX2 are present (checked above); the 2n bytes at `src`
    // are readable and n <= dst.len().
    unsafe { narrow_avx512::<BE>(src.as_ptr(), n, dst) }
}

/// Narrows the ASCII prefix of the `n` units read as the `2 * n` bytes at `s` (little-endian,
/// or big-endian if `BE`) into `dst`, 32 units a vector; returns its length. Stops
/// exactly at the first unit that is not ASCII; nothing after the prefix is written.
///
/// # Safety
/// AVX-512 F/BW/VL and AVX2 present; the `2 * n` bytes at `s` readable, `n <= dst.len()`.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
unsafe fn narrow_avx512<const BE: bool>(s: *const u8, n: usize, dst: &mut [u8]) -> usize {
    let d = dst.as_mut_ptr() as *mut i8;
    let high = _mm512_set1_epi16(0xFF80u16 as i16);
    let mut i = 0;
    while i < n {
        let lanes = first_lanes64(n - i) as u32;
        // SAFETY: the lanes of `lanes` are units i..min(i + 32, n), bytes 2i.. of the 2n at
        // `s` (an unaligned masked load: the pointer is only passed to the instruction).
        let mut v = unsafe { _mm512_maskz_loadu_epi16(lanes, s.add(2 * i) as *const i16) };
        if BE {
            v = _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v));
        }
        // The units that are not ASCII (the lanes past `n` are zero).
        let other = _mm512_test_epi16_mask(v, high);
        let k = if other != 0 {
            other.trailing_zeros() as usize
        } else {
            (n - i).min(32)
        };
        // SAFETY: the first k lanes are bytes i..i + k of `dst`, i + k <= n <= dst.len();
        // each unit's low byte (the unit itself, below 0x80) is stored.
        unsafe { _mm512_mask_cvtepi16_storeu_epi8(d.add(i), first_lanes64(k) as u32, v) };
        if other != 0 {
            return i + k;
        }
        i += 32;
    }
    n
}
