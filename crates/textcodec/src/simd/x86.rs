//! SSE2 and AVX2 kernels. Each public function here is safe: it checks that the CPU has the
//! instruction set (the check is a cached load) and that the slices have the lengths the
//! `unsafe` body relies on, and otherwise falls back to the scalar kernel.

use core::arch::x86_64::*;

use super::{detected_level, scalar, Level};

#[inline(always)]
fn has_avx2() -> bool {
    detected_level() >= Level::Avx2
}

/// Copies the ASCII prefix of `src` to `dst` (AVX2); returns its length.
#[inline]
pub(crate) fn copy_ascii_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return scalar::copy_ascii_to_ascii(src, dst);
    }
    // SAFETY: AVX2 is present (checked above) and `dst` is at least as long as `src`.
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
                let k = mask.trailing_zeros() as usize;
                core::ptr::copy_nonoverlapping(s.add(i), d.add(i), k);
                return i + k;
            }
            _mm256_storeu_si256(d.add(i) as *mut __m256i, v);
        }
        i += 32;
    }
    i + scalar::copy_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Copies the ASCII prefix of `src` to `dst` (SSE2); returns its length.
#[inline]
pub(crate) fn copy_ascii_sse2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    if dst.len() < n {
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
                let k = mask.trailing_zeros() as usize;
                core::ptr::copy_nonoverlapping(s.add(i), d.add(i), k);
                return i + k;
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, v);
        }
        i += 16;
    }
    i + scalar::copy_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Widens the ASCII prefix of `src` into `dst` (AVX2); returns its length.
#[inline]
pub(crate) fn widen_ascii_avx2(src: &[u8], dst: &mut [u16]) -> usize {
    if !has_avx2() || dst.len() < src.len() {
        return scalar::copy_ascii_to_utf16(src, dst);
    }
    // SAFETY: AVX2 is present and `dst` has at least as many units as `src` has bytes.
    unsafe { widen_ascii_avx2_impl(src, dst) }
}

#[target_feature(enable = "avx2")]
unsafe fn widen_ascii_avx2_impl(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: bytes i..i+32 of src and units i..i+32 of dst are in bounds (n <= dst.len()).
        unsafe {
            let v = _mm256_loadu_si256(s.add(i) as *const __m256i);
            if _mm256_movemask_epi8(v) != 0 {
                break;
            }
            let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
            let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
            _mm256_storeu_si256(d.add(i) as *mut __m256i, lo);
            _mm256_storeu_si256(d.add(i + 16) as *mut __m256i, hi);
        }
        i += 32;
    }
    i + scalar::copy_ascii_to_utf16(&src[i..], &mut dst[i..])
}

/// Widens the ASCII prefix of `src` into `dst` (SSE2); returns its length.
#[inline]
pub(crate) fn widen_ascii_sse2(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    if dst.len() < n {
        return scalar::copy_ascii_to_utf16(src, dst);
    }
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: SSE2 is baseline; bytes i..i+16 of src and units i..i+16 of dst are in bounds.
        unsafe {
            let v = _mm_loadu_si128(s.add(i) as *const __m128i);
            if _mm_movemask_epi8(v) != 0 {
                break;
            }
            let z = _mm_setzero_si128();
            _mm_storeu_si128(d.add(i) as *mut __m128i, _mm_unpacklo_epi8(v, z));
            _mm_storeu_si128(d.add(i + 8) as *mut __m128i, _mm_unpackhi_epi8(v, z));
        }
        i += 16;
    }
    i + scalar::copy_ascii_to_utf16(&src[i..], &mut dst[i..])
}

/// Narrows the prefix of `src` below U+0080 into `dst` (SSE2); returns its length.
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
                break;
            }
            _mm_storeu_si128(d.add(i) as *mut __m128i, _mm_packus_epi16(a, b));
        }
        i += 16;
    }
    i + scalar::copy_utf16_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Narrows ASCII code units from UTF-16 bytes (big-endian if `BE`) into `dst` (SSE2);
/// returns the number of units.
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
                break;
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
    // SAFETY: AVX2 is present and `dst` is at least as long as `src`.
    let checked = unsafe { validate_blocks_avx2(src, dst) };
    // Everything before `checked` is valid except, possibly, an incomplete last character:
    // restart at the last character boundary.
    let mut b = checked;
    for j in (checked.saturating_sub(4)..checked).rev() {
        if src[j] & 0xC0 != 0x80 {
            if src[j] >= 0xC0 {
                b = j;
            }
            break;
        }
    }
    b + scalar::copy_valid_utf8(&src[b..], &mut dst[b..])
}

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the first byte of a pair.
const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the first byte of a pair.
const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Indexed by the high nibble of the second byte of a pair.
const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

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

/// The flags of malformed pairs and triples in `input`, given the block before it.
#[inline]
#[target_feature(enable = "avx2")]
fn check_block(input: __m256i, prev_input: __m256i, t1h: __m256i, t1l: __m256i, t2h: __m256i) -> __m256i {
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
    let must23_80 = _mm256_and_si256(_mm256_or_si256(is_third, is_fourth), _mm256_set1_epi8(0x80u8 as i8));
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

/// Validates and copies whole 32-byte blocks; returns the length of the blocks that passed.
#[target_feature(enable = "avx2")]
unsafe fn validate_blocks_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (t1h, t1l, t2h) = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    // SAFETY: INCOMPLETE_MAX is 32 readable bytes; an unaligned load.
    let incomplete_max = unsafe { _mm256_loadu_si256(INCOMPLETE_MAX.as_ptr() as *const __m256i) };
    let mut prev_input = _mm256_setzero_si256();
    let mut prev_incomplete = _mm256_setzero_si256();
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len() <= dst.len() (the caller's contract): the 32 bytes at
        // i are in bounds of both; unaligned loads and stores.
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
        // SAFETY: as for the load above.
        unsafe { _mm256_storeu_si256(d.add(i) as *mut __m256i, input) };
        prev_input = input;
        i += 32;
    }
    i
}
