//! The Latin-1 kernels of single-byte encoding: narrowing UTF-16 to the code points that
//! encode as their own value, and UTF-8 of ASCII and two-byte characters to bytes (SSE2 and
//! AVX2). The dispatch and the scalar versions are in `simd::latin`.

use super::*;
use crate::simd::Latin1Set;

/// Narrows the prefix of `src` whose units are ASCII or in `lo..=hi` into `dst` (SSE2);
/// returns its length. Stops exactly at the first other unit; nothing after the prefix is
/// written. `lo..=hi` must lie within U+0000..=U+00FF.
#[inline(never)]
pub(crate) fn narrow_latin1_sse2(src: &[u16], dst: &mut [u8], set: &Latin1Set) -> usize {
    let (lo, hi) = (set.lo, set.hi);
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
    // The mask of the units (of the sixteen at `at`) that pass; those before the first that
    // does not are stored narrowed (all sixteen if all pass), and nothing else.
    let block = |at: usize| -> u32 {
        // SAFETY: SSE2 is baseline; the callers keep at + 16 <= n <= dst.len(), so units
        // at..at+16 of src and bytes at..at+16 of dst are in bounds; unaligned loads, stores.
        unsafe {
            let a = _mm_loadu_si128(s.add(at) as *const __m128i);
            let b = _mm_loadu_si128(s.add(at + 8) as *const __m128i);
            let mask = _mm_movemask_epi8(_mm_packs_epi16(ok(a, vlo, vspan), ok(b, vlo, vspan)));
            let v = _mm_packus_epi16(a, b);
            if mask == 0xFFFF {
                _mm_storeu_si128(d.add(at) as *mut __m128i, v);
            } else {
                store_prefix16(d.add(at), v, (!mask).trailing_zeros() as usize);
            }
            mask as u32
        }
    };
    let mut i = 0;
    while i + 16 <= n {
        let mask = block(i);
        if mask != 0xFFFF {
            return i + (!mask).trailing_zeros() as usize;
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 units, overlapping those already narrowed (n >= 16, checked above).
    // The units before `i` are stored again with the same bytes.
    let j = n - 16;
    let mask = block(j);
    if mask != 0xFFFF {
        (j + (!mask).trailing_zeros() as usize).max(i)
    } else {
        n
    }
}

/// Narrows the prefix of `src` whose units are ASCII or in the set `bits` (bit `b & 7` of
/// byte `(b >> 3) & 15` for `b` in 0x80..=0xFF) into `dst` (AVX2); returns its length. Stops
/// exactly at the first other unit; nothing after the prefix is written.
#[inline]
pub(crate) fn narrow_latin1_avx2(src: &[u16], dst: &mut [u8], set: &Latin1Set) -> usize {
    let bits = &set.bits;
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
/// `table` (the 16 bytes of the set), else those before the first that is not (and nothing
/// else); returns the mask of those that are.
///
/// # Safety
/// AVX2 must be present, the 16 units at `s` readable and the 16 bytes at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn narrow_latin1_block(s: *const u16, d: *mut u8, table: __m128i) -> u32 {
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
    // SAFETY: as above.
    unsafe {
        if mask == 0xFFFF {
            _mm_storeu_si128(d as *mut __m128i, v);
        } else {
            store_prefix16(d, v, (!mask).trailing_zeros() as usize);
        }
    }
    mask
}

/// Narrows the 32 units at `s` to the 32 bytes at `d` if they are all ASCII or in the set
/// `table` (the 16 bytes of the set, in both halves), else those before the first that is
/// not (and nothing else); returns the mask of those that are.
///
/// # Safety
/// AVX2 must be present, the 32 units at `s` readable and the 32 bytes at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn narrow_latin1_block32(s: *const u16, d: *mut u8, table: __m256i) -> u32 {
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
    let m = (m & 0xFF00_00FF) | ((m >> 8) & 0xFF00) | ((m << 8) & 0xFF_0000);
    // SAFETY: as above.
    unsafe {
        store_prefix32(
            d,
            _mm256_permute4x64_epi64::<0xD8>(v),
            (!m).trailing_zeros() as usize,
        )
    };
    m
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn narrow_latin1_avx2_impl(
    src: &[u16],
    dst: &mut [u8],
    bits: &[u8; 16],
) -> usize {
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
            return i + (!mask).trailing_zeros() as usize;
        }
        i += 32;
    }
    if i + 16 <= n {
        // SAFETY: AVX2 is present; i + 16 <= n <= dst.len(): in bounds of both.
        let mask = unsafe { narrow_latin1_block(s.add(i), d.add(i), table) };
        if mask != 0xFFFF {
            return i + (!mask).trailing_zeros() as usize;
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // The last 16 units, overlapping those already narrowed (n >= 16, the caller's contract).
    let j = n - 16;
    // SAFETY: AVX2 is present; j + 16 = n <= dst.len().
    // The units before `i` are stored again with the same bytes.
    let mask = unsafe { narrow_latin1_block(s.add(j), d.add(j), table) };
    if mask != 0xFFFF {
        (j + (!mask).trailing_zeros() as usize).max(i)
    } else {
        n
    }
}

/// [`crate::simd::encode_utf8_low`] with AVX2 (falls back to SSE2 without it).
#[inline]
pub(crate) fn encode_utf8_low_avx2(
    src: &[u8],
    dst: &mut [u8],
    low: &[u8; 0x800],
) -> (usize, usize) {
    if !super::has_avx2() {
        return encode_utf8_low_sse2(src, dst, low);
    }
    // SAFETY: AVX2 is present (checked above).
    unsafe { avx2_impl(src, dst, low) }
}

/// [`crate::simd::encode_utf8_low`] with SSE2 (baseline).
#[inline]
pub(crate) fn encode_utf8_low_sse2(
    src: &[u8],
    dst: &mut [u8],
    low: &[u8; 0x800],
) -> (usize, usize) {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { kernel::<false>(src, dst, low) }
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_impl(src: &[u8], dst: &mut [u8], low: &[u8; 0x800]) -> (usize, usize) {
    // SAFETY: AVX2 is enabled here (the caller's contract).
    unsafe { kernel::<true>(src, dst, low) }
}

/// The masks of the bytes at or above 0x80 and 0xC0 among the 32 bytes at `s`.
///
/// # Safety
/// 32 bytes readable at `s`; AVX2 enabled if `AVX`.
#[inline(always)]
unsafe fn masks32<const AVX: bool>(s: *const u8) -> (u32, u32) {
    // SAFETY: the caller's contract; unaligned loads.
    unsafe {
        if AVX {
            let v = _mm256_loadu_si256(s as *const __m256i);
            // Bit 6 moved up to bit 7 by adding each byte to itself.
            let l = _mm256_and_si256(v, _mm256_add_epi8(v, v));
            (
                _mm256_movemask_epi8(v) as u32,
                _mm256_movemask_epi8(l) as u32,
            )
        } else {
            let a = _mm_loadu_si128(s as *const __m128i);
            let b = _mm_loadu_si128(s.add(16) as *const __m128i);
            let la = _mm_and_si128(a, _mm_add_epi8(a, a));
            let lb = _mm_and_si128(b, _mm_add_epi8(b, b));
            (
                _mm_movemask_epi8(a) as u32 | (_mm_movemask_epi8(b) as u32) << 16,
                _mm_movemask_epi8(la) as u32 | (_mm_movemask_epi8(lb) as u32) << 16,
            )
        }
    }
}

/// 32 bytes at `s` stored at `d`; returns the masks of bytes at or above 0x80 and 0xC0.
///
/// # Safety
/// 32 bytes readable at `s` and writable at `d`; AVX2 enabled if `AVX`.
#[inline(always)]
unsafe fn copy32<const AVX: bool>(s: *const u8, d: *mut u8) -> (u32, u32) {
    // SAFETY: the caller's contract; unaligned loads and stores.
    unsafe {
        if AVX {
            let v = _mm256_loadu_si256(s as *const __m256i);
            _mm256_storeu_si256(d as *mut __m256i, v);
            // Bit 6 moved up to bit 7 by adding each byte to itself.
            let l = _mm256_and_si256(v, _mm256_add_epi8(v, v));
            (
                _mm256_movemask_epi8(v) as u32,
                _mm256_movemask_epi8(l) as u32,
            )
        } else {
            let a = _mm_loadu_si128(s as *const __m128i);
            let b = _mm_loadu_si128(s.add(16) as *const __m128i);
            _mm_storeu_si128(d as *mut __m128i, a);
            _mm_storeu_si128(d.add(16) as *mut __m128i, b);
            let la = _mm_and_si128(a, _mm_add_epi8(a, a));
            let lb = _mm_and_si128(b, _mm_add_epi8(b, b));
            (
                _mm_movemask_epi8(a) as u32 | (_mm_movemask_epi8(b) as u32) << 16,
                _mm_movemask_epi8(la) as u32 | (_mm_movemask_epi8(lb) as u32) << 16,
            )
        }
    }
}

/// # Safety
/// AVX2 enabled if `AVX` (SSE2 is baseline).
#[inline(always)]
unsafe fn kernel<const AVX: bool>(src: &[u8], dst: &mut [u8], low: &[u8; 0x800]) -> (usize, usize) {
    let (n, m) = (src.len(), dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut r = 0;
    let mut w = 0;
    // The block is copied whole, and each character written over the copy: the copies reach
    // at most 32 bytes past the output so far (a store at the output's end `o` reaches
    // `o + 32`), so past the output at a block's start `w` nothing from `w + 32` on has
    // been stored to. Before a block with characters (whose stores reach at most `w + 64`),
    // `kept` holds the caller's values of `w..w + 64` (the first half carried from the
    // block before when `held`, else loaded: after a block of ASCII, stored exactly, nothing
    // past the output has been stored to); they are put back past the output on return.
    // Not zeroed first (every byte of it is written before it is read: the first half
    // loaded or carried, the second loaded, at each block with characters): zeroing cost
    // instructions at every call, for bytes always written over.
    let mut kept = core::mem::MaybeUninit::<[u8; 64]>::uninit();
    let kp = kept.as_mut_ptr() as *mut u8;
    let mut held = false;
    // Invariants: `r` is at a character boundary; `r + 64 <= n` and `w + 64 <= m` in the
    // body; every character read below starts before `r + 32`, so its two bytes are
    // before `r + 33`; every position read from (`i < r + 32`) has 32 bytes after it
    // before `n`, and every position written to (`o <= w + 32`, one byte per character
    // of at least one) has 32 before `m`.
    while r + 64 <= n && w + 64 <= m {
        // SAFETY: r + 32 <= n.
        let (high, leads) = unsafe { masks32::<AVX>(s.add(r)) };
        if high == 0 {
            // SAFETY: r + 32 <= n, w + 32 <= m.
            unsafe { copy32::<AVX>(s.add(r), d.add(w)) };
            r += 32;
            w += 32;
            held = false;
            continue;
        }
        // SAFETY: w + 64 <= m; `kept` is not dst; r + 32 <= n.
        unsafe {
            let k = kp;
            if !held {
                core::ptr::copy_nonoverlapping(d.add(w), k, 32);
            }
            core::ptr::copy_nonoverlapping(d.add(w + 32), k.add(32), 32);
            copy32::<AVX>(s.add(r), d.add(w));
        }
        // The first byte that is not ASCII leads (`r` is a boundary), so `leads` is not
        // empty; between two leads, and after the last up to `r + 32`, all is ASCII: the
        // block is copied again from `i` to `o` before a lead after such a gap (the first
        // gap is in place already), and each character is written over it.
        let (mut i, mut o) = (r, w);
        let mut lm = leads;
        loop {
            let p = r + lm.trailing_zeros() as usize;
            if p > i {
                if i > r {
                    // SAFETY: i < p < r + 32 and o <= w + 32.
                    unsafe { copy32::<AVX>(s.add(i), d.add(o)) };
                }
                o += p - i;
                i = p;
            }
            // SAFETY: i < r + 32 (a lead of the block): i + 1 < n; o <= w + 31 < m.
            unsafe {
                let b = *s.add(i);
                let cp = ((b as usize & 0x1F) << 6) | (*s.add(i + 1) as usize & 0x3F);
                let out = low[cp & 0x7FF];
                if b >= 0xE0 || out == 0 {
                    // The stores so far reach at most `o + 32` (each copy is at an output
                    // position at or before `o`), and before this block nothing from
                    // `w + 32` on had been stored to: the caller's values of `o..o + 32`
                    // (w <= o <= w + 32 and w + 64 <= m) put back are all it needs.
                    let k = kp as *const u8;
                    let head = core::ptr::read_unaligned(k.add(o - w) as *const [u8; 32]);
                    core::ptr::write_unaligned(d.add(o) as *mut [u8; 32], head);
                    return (i, o);
                }
                *d.add(o) = out;
            }
            i += 2;
            o += 1;
            lm &= lm - 1;
            if lm == 0 {
                break;
            }
        }
        if i < r + 32 {
            // SAFETY: i < r + 32, o <= w + 32.
            unsafe { copy32::<AVX>(s.add(i), d.add(o)) };
            o += r + 32 - i;
            i = r + 32;
        }
        // The caller's values of `o..o + 32` carried to the next block (w <= o <= w + 32).
        // SAFETY: o - w + 32 <= 64, within `kept`; a copy through a register.
        unsafe {
            let k = kp;
            let carry = core::ptr::read_unaligned(k.add(o - w) as *const [u8; 32]);
            core::ptr::write_unaligned(k as *mut [u8; 32], carry);
        }
        held = true;
        r = i;
        w = o;
    }
    if held {
        // Nothing from `w + 32` on has been stored to; w + 32 <= m (w grew by at most 32
        // since `w + 64 <= m` last held).
        // SAFETY: w + 32 <= m; `kept` is not dst.
        unsafe { core::ptr::copy_nonoverlapping(kp as *const u8, d.add(w), 32) };
    }
    (r, w)
}
