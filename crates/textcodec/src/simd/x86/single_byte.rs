//! The single-byte decoders' blocks: widening with a non-ASCII mask, byte runs that map
//! to a run of code points, x-user-defined (SSE2 and AVX2).

use super::*;

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
pub(super) fn widen16_runs_sse2_impl(
    src: &[u8; 16],
    dst: &mut [u16; 16],
    runs: &[ByteRun; 2],
) -> u32 {
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
pub(super) unsafe fn x_user_defined_to_utf16_avx2_impl(src: &[u8], dst: &mut [u16]) -> usize {
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
pub(super) unsafe fn runs_to_utf8_avx2_impl(
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
        // SAFETY: AVX2 is present; o + 64 <= dst.len(): the helpers write at most 48 bytes
        // of output and 16 past it; the block has a byte that is not ASCII, so its output is
        // at least 17 bytes (the kept bytes move past it whole).
        unsafe {
            let top = _mm256_and_si256(u, _mm256_set1_epi16(0xF800u16 as i16));
            if _mm256_testz_si256(top, top) != 0 {
                o += below_800_to_utf8(u, d, &mut ahead, o);
            } else {
                // A script of three-byte characters (Thai): the units are the runs' code
                // points and ASCII, none a surrogate.
                let below800 = _mm256_cmpeq_epi16(top, _mm256_setzero_si256());
                o += utf16x16_to_utf8(u, below800, d, &mut ahead, o);
            }
        }
        i += 16;
    }
    // SAFETY: the kept bytes are within dst.
    unsafe { ahead.restore(d) };
    (i, o)
}
