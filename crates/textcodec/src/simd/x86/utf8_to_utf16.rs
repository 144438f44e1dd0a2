//! UTF-8 to UTF-16 (AVX2 and AVX-512).

use super::*;

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
pub(super) unsafe fn utf8_to_utf16_avx2_impl(
    src: &[u8],
    start: usize,
    dst: &mut [u16],
) -> (usize, usize) {
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
pub(super) unsafe fn utf8_to_utf16_block64(
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
    // SAFETY: i + 64 <= src.len() (the caller's contract).
    let (b62, b63) = unsafe { (*s.add(i + 62), *s.add(i + 63)) };
    let e63 = (b63 >= 0xC0) as usize;
    let e62 = (b62 >= 0xE0) as usize & (e63 ^ 1);
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
            // Two continuation bytes in a row are those of a three-byte character (the check
            // above has seen no four-byte lead); a three-byte lead in byte 62 or 63 is
            // dropped, whatever its lanes hold.
            if conts & conts << 1 != 0 {
                w = convert32::<true>(s.add(i), drop as u32, base, ahead, o);
                w += convert32::<true>(s.add(i + 32), (drop >> 32) as u32, base, ahead, o + w);
            } else {
                // No three-byte lead (Cyrillic, Greek, Hebrew, Arabic, Latin letters): the
                // simpler conversion.
                w = convert32::<false>(s.add(i), drop as u32, base, ahead, o);
                w += convert32::<false>(s.add(i + 32), (drop >> 32) as u32, base, ahead, o + w);
            }
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
pub(super) const SPARSE: u32 = 8;

/// The continuation bytes of sixteen three-byte characters.
pub(super) const THREE_BYTE_CONTS_48: u64 = 0xDB6D_B6DB_6DB6;

/// Converts the eight three-byte characters at `s` (valid) to the 8 units at `d`.
///
/// # Safety
/// AVX2 must be present, the 28 bytes at `s` readable and 8 units at `d` writable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn convert_3x8(s: *const u8, d: *mut u16) {
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
pub(super) unsafe fn values16(s: *const u8) -> __m256i {
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
/// `at` of the kernel's output `d`, after `ahead` is advanced to their output's end). Without
/// `THREE`, the 32 bytes hold no three-byte lead (E0..EF).
///
/// # Safety
/// AVX2 must be present, the 34 bytes at `s` readable (33 without `THREE`) and 32 units at
/// `d` (in units) + `at` writable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn convert32<const THREE: bool>(
    s: *const u8,
    drop: u32,
    d: *mut u8,
    ahead: &mut Ahead<true>,
    at: usize,
) -> usize {
    // SAFETY: the caller's contract; unaligned loads.
    let (b, n1) = unsafe {
        (
            _mm256_loadu_si256(s as *const __m256i),
            _mm256_loadu_si256(s.add(1) as *const __m256i),
        )
    };
    let byte = |v: u8| _mm256_set1_epi8(v as i8);
    // A two-byte character's unit is (b & 0x1F) << 6 | n1 & 0x3F; a three-byte one's is
    // (b & 0x0F) << 12 | (n1 & 0x3F) << 6 | n2 & 0x3F: the low byte is t << 6 | u & 0x3F and
    // the high byte t >> 2 & 0x0F (but for b's low nibble of a three-byte lead), with (t, u)
    // = (b, n1) or (n1, n2). (A two-byte lead's b >> 2 & 0x0F is its bits 2..4.)
    let (t, u, lead3) = if THREE {
        // SAFETY: the caller's contract; an unaligned load.
        let n2 = unsafe { _mm256_loadu_si256(s.add(2) as *const __m256i) };
        // Three-byte leads E0..EF (and ASCII, for which the result is b below).
        let lead3 = _mm256_cmpgt_epi8(b, byte(0xDF));
        (
            _mm256_blendv_epi8(b, n1, lead3),
            _mm256_blendv_epi8(n1, n2, lead3),
            lead3,
        )
    } else {
        (b, n1, _mm256_setzero_si256())
    };
    let lo = _mm256_or_si256(
        _mm256_and_si256(_mm256_slli_epi16::<6>(t), byte(0xC0)),
        _mm256_and_si256(u, byte(0x3F)),
    );
    let hi = _mm256_and_si256(_mm256_srli_epi16::<2>(t), byte(0x0F));
    let hi = if THREE {
        _mm256_or_si256(
            hi,
            _mm256_and_si256(
                _mm256_slli_epi16::<4>(b),
                _mm256_and_si256(lead3, byte(0xF0)),
            ),
        )
    } else {
        hi
    };
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
pub(super) unsafe fn compact16(
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
pub(super) unsafe fn store_packed<const UNIT: usize, const LAZY: bool>(
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
pub(super) unsafe fn convert16_leads(
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
pub(super) unsafe fn utf8_to_utf16_step16(
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
pub(super) unsafe fn utf8_to_utf16_tail16(
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
pub(super) unsafe fn convert16_exact(
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

/// UTF-8 to UTF-16 for one-, two- and three-byte characters that the spec's UTF-8 decoder
/// accepts (AVX-512 with VBMI and VBMI2), from `src[start..]` (a character boundary) to
/// `dst`, as [`utf8_to_utf16_avx2`] (the same contract, any length of `src`): returns (bytes
/// read from `start`, units written). Reads nothing before `start` or past `src`, writes
/// nothing past the units written. Stops, leaving the rest to the caller, before a four-byte
/// sequence, an error, a character cut off by the end of `src`, or when `dst` has no room
/// for the next block's units.
///
/// 64 bytes at a time: ASCII ones are widened; others go through [`utf8_to_utf16_block512`].
/// Where 66 bytes remain and `dst` has room for 64 units, the loads are plain ones and the
/// step is fixed by the bytes 62 and 63 alone (a short chain from one block to the next);
/// the last bytes are loaded under masks.
#[inline]
pub(crate) fn utf8_to_utf16_avx512(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    if !has_avx512() || start > src.len() {
        return (0, 0);
    }
    // SAFETY: AVX-512 F/BW/VL/VBMI/VBMI2, AVX2, POPCNT, BMI1, BMI2 and LZCNT are present
    // (checked above: the features of the level); start <= src.len().
    let (i, o) = unsafe { utf8_to_utf16_avx512_impl(src, start, dst) };
    (i - start, o)
}

/// # Safety
/// AVX-512 F/BW/VL/VBMI/VBMI2, AVX2, POPCNT, BMI1, BMI2 and LZCNT present;
/// `start <= src.len()`.
#[target_feature(
    enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2,lzcnt"
)]
unsafe fn utf8_to_utf16_avx512_impl(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    let (n, room) = (src.len(), dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: AVX-512 F is present; the tables are 64 bytes each.
    let tables = unsafe { Tables512::load() };
    let (mut i, mut o) = (start, 0usize);
    // The blocks write at most a unit per byte read (o <= i - start): up to `last`, 66
    // bytes remain in `src` and there is room for 64 units in `dst`.
    let last = n.min(start + room + 2).checked_sub(66);
    while last.is_some_and(|last| i <= last) {
        // SAFETY: i + 64 <= src.len(); unaligned loads. (The halves, for ASCII ones are
        // widened as they are: taking the upper half of a 64-byte vector costs a shuffle, on
        // the port of the widening.)
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(s.add(i) as *const __m256i),
                _mm256_loadu_si256(s.add(i + 32) as *const __m256i),
            )
        };
        if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
            // SAFETY: o + 64 <= dst.len(); unaligned stores.
            unsafe {
                _mm512_storeu_si512(d.add(o) as *mut __m512i, _mm512_cvtepu8_epi16(a));
                _mm512_storeu_si512(d.add(o + 32) as *mut __m512i, _mm512_cvtepu8_epi16(b));
            }
            i += 64;
            o += 64;
            continue;
        }
        // SAFETY: i + 64 <= src.len(); an unaligned load.
        let v = unsafe { _mm512_loadu_si512(s.add(i) as *const __m512i) };
        let high = _mm512_movepi8_mask(v);
        // SAFETY: i + 64 <= src.len(); an unaligned load. (Volatile, so that it stays a load
        // from memory: taken from `v`, the step would wait for the vector's load, and the
        // next block's loads for the step.)
        let [b62, b63] = unsafe { core::ptr::read_volatile(s.add(i + 62) as *const [u8; 2]) };
        let end = block_end(b62, b63);
        // SAFETY: the features are this function's; i + 66 <= src.len() and o + 64 <=
        // dst.len(): the block reads the 66 bytes at i and writes at most `end` (<= 64) units.
        let (r, w) = unsafe {
            utf8_to_utf16_block512::<true>(v, high, s.add(i), 66, end, d.add(o), 64, &tables)
        };
        i += r;
        o += w;
        if r < end {
            // An error, a four-byte character or a bad lead in the block: the caller's.
            return (i, o);
        }
    }
    // The last bytes, or the last units of room: masked loads and stores.
    while i < n {
        let avail = n - i;
        // SAFETY: the lanes of the mask are bytes i..min(i + 64, n) of `src`.
        let v = unsafe { _mm512_maskz_loadu_epi8(first_lanes64(avail), s.add(i) as *const i8) };
        let high = _mm512_movepi8_mask(v);
        if high == 0 {
            let k = avail.min(64).min(room - o);
            if k == 0 {
                break;
            }
            let keep = first_lanes64(k);
            // SAFETY: the lanes of `keep` are units o..o + k of `dst` (o + k <= room); the
            // second store's address is only computed (wrapping) when none of its lanes is
            // stored.
            unsafe {
                _mm512_mask_storeu_epi16(
                    d.add(o) as *mut i16,
                    keep as u32,
                    _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)),
                );
                _mm512_mask_storeu_epi16(
                    (d as *mut i16).wrapping_add(o + 32),
                    (keep >> 32) as u32,
                    _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)),
                );
            }
            i += k;
            o += k;
            continue;
        }
        let byte = |k: usize| if k < avail { src[i + k] } else { 0 };
        let end = block_end(byte(62), byte(63)).min(avail);
        // SAFETY: the features are this function's; the block reads only bytes i..n of
        // `src` (masked loads) and writes units o..room of `dst`.
        let (r, w) = unsafe {
            utf8_to_utf16_block512::<false>(
                v,
                high,
                s.add(i),
                avail,
                end,
                d.add(o),
                room - o,
                &tables,
            )
        };
        i += r;
        o += w;
        if r < end {
            break;
        }
    }
    (i, o)
}

/// Where the characters of a block of 64 bytes, starting at a character boundary, end, from
/// its bytes 62 and 63: before a three-byte lead in byte 62, or else before a lead in byte
/// 63 (a character that runs past the block); else at the end of the block.
#[inline(always)]
fn block_end(b62: u8, b63: u8) -> usize {
    let (e62, e63) = ((b62 >= 0xE0) as usize, (b63 >= 0xC0) as usize);
    64 - e63 - e62 * (2 - e63)
}

/// The constant vectors of [`utf8_to_utf16_block512`].
struct Tables512 {
    /// Per low six bits of a lead, its part of the high byte of the unit: bits 2..4 of a
    /// two-byte lead (C2..DF), the low four bits shifted by four of a three-byte one
    /// (E0..EF); 0x08 (a bit neither has in its part) for C0, C1 and F0..FF.
    lead_high: __m512i,
    /// Per low six bits of a three-byte character's second byte, its part of the high byte
    /// of the unit (those bits shifted right by two).
    second_high: __m512i,
    /// The units of positions 0..32 and 32..64 from the low bytes (lanes 0..64) and the
    /// high bytes (lanes 64..128) of `vpermt2b`.
    interleave: [__m512i; 2],
}

/// The tables of [`Tables512`], in bytes.
static TABLES512: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut j = 0;
    while j < 64 {
        t[0][j] = if j < 2 || j >= 0x30 {
            0x08
        } else if j < 0x20 {
            (j >> 2) as u8 & 7
        } else {
            (j as u8 & 0x0F) << 4
        };
        t[1][j] = (j >> 2) as u8;
        t[2][j] = if j % 2 == 0 { j / 2 } else { 64 + j / 2 } as u8;
        t[3][j] = if j % 2 == 0 { 32 + j / 2 } else { 96 + j / 2 } as u8;
        j += 1;
    }
    t
};

impl Tables512 {
    /// # Safety
    /// AVX-512 F must be present.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load() -> Self {
        let at = |k: usize| {
            // SAFETY: TABLES512[k] is 64 bytes; an unaligned load.
            unsafe { _mm512_loadu_si512(TABLES512[k].as_ptr() as *const __m512i) }
        };
        Tables512 {
            lead_high: at(0),
            second_high: at(1),
            interleave: [at(2), at(3)],
        }
    }
}

/// The block of 64 bytes `v` at `s` (a character boundary), not all ASCII (`high`: its bytes
/// at or above 0x80), validated and converted to UTF-16 at `d` up to `end` or to the
/// character before the first problem in it. Returns (bytes read, units written); it reads
/// fewer than `end` bytes only at a problem (or with no room for the units, which it then
/// does not write): a continuation byte where none is expected or no continuation byte where
/// one is, a lead C0, C1 or F0..FF, a three-byte character below U+0800 or a surrogate.
///
/// Per position, masks say what the byte is (ASCII, continuation, two- or three-byte lead);
/// the continuation bytes must be exactly those the leads call for. Then the UTF-16 unit of
/// the character that would start at each of the 64 positions is built as a low and a high
/// byte: the low byte from the lead (or the second byte) shifted by six and the next byte's
/// low six bits, the high byte by table lookups (`vpermb`) of the lead's and, for three-byte
/// characters, the second byte's low six bits. `vpermt2b` interleaves them into units, and
/// `vpcompressw` keeps those of the positions where a character starts, 32 positions at a
/// time. The block's characters end before `end` (an argument, for the caller may know the
/// bytes 62 and 63 earlier than the masks: see [`block_end`]).
///
/// # Safety
/// AVX-512 F/BW/VL/VBMI/VBMI2, POPCNT and BMI2 present; `v` holds the 64 bytes at `s` (zeros past
/// `avail`); the `avail.min(66)` bytes at `s` readable (66 with `FULL`); `end <= avail` and
/// `end <= 64`; `room` units at `d` writable (64 with `FULL`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn utf8_to_utf16_block512<const FULL: bool>(
    v: __m512i,
    high: u64,
    s: *const u8,
    avail: usize,
    end: usize,
    d: *mut u16,
    room: usize,
    tables: &Tables512,
) -> (usize, usize) {
    let byte = |b: u8| _mm512_set1_epi8(b as i8);
    // The 64 bytes at s + k (k = 1 or 2): plain loads with `FULL`, else under a mask (zeros
    // past `avail`).
    let next = |k: usize| {
        if FULL {
            // SAFETY: 66 bytes at s are readable (the caller's contract).
            unsafe { _mm512_loadu_si512(s.add(k) as *const __m512i) }
        } else {
            // SAFETY: the lanes of the mask are the bytes k..avail at s (the address is
            // computed wrapping: with no lane, it may lie past them).
            unsafe {
                _mm512_maskz_loadu_epi8(
                    first_lanes64(avail.saturating_sub(k)),
                    s.wrapping_add(k) as *const i8,
                )
            }
        }
    };
    let n1 = next(1);
    let lead = _mm512_cmpge_epu8_mask(v, byte(0xC0));
    let lead3 = _mm512_cmpge_epu8_mask(v, byte(0xE0));
    let cont = high & !lead;
    let starts = !cont;
    // Where a continuation byte is expected and there is none, or there is one unexpected.
    let mismatch = (lead << 1 | lead3 << 2) ^ cont;
    // The low bytes of the units: the byte for ASCII, else bits 0..1 of the lead (or of the
    // second byte of a three-byte character) then the low six bits of the byte after it.
    let (t, u) = if lead3 == 0 {
        (v, n1)
    } else {
        let n2 = next(2);
        (
            _mm512_mask_blend_epi8(lead3, v, n1),
            _mm512_mask_blend_epi8(lead3, n1, n2),
        )
    };
    let lo = _mm512_ternarylogic_epi32::<0xCA>(byte(0xC0), _mm512_slli_epi16::<6>(t), u);
    let lo = _mm512_mask_blend_epi8(high, v, lo);
    // The high bytes, zero for ASCII (and continuation bytes); the leads' part has bit 3 set
    // for the leads C0 and C1 (overlong) and F0..FF (four-byte leads, bytes F5..FF).
    let mut hi = _mm512_maskz_permutexvar_epi8(lead, v, tables.lead_high);
    let mut bad = _mm512_test_epi8_mask(hi, byte(0x08));
    if lead3 != 0 {
        hi = _mm512_or_si512(
            hi,
            _mm512_maskz_permutexvar_epi8(lead3, n1, tables.second_high),
        );
        // Three-byte characters below U+0800 (E0 then 80..9F: high byte below 0x08) and
        // surrogates (ED then A0..BF: D8..DF).
        let low = _mm512_min_epu8(hi, _mm512_xor_si512(hi, byte(0xD8)));
        bad |= _mm512_mask_cmplt_epu8_mask(lead3, low, byte(0x08));
    }
    // The characters taken: those before `end`, or before the first problem (before the
    // last start before a mismatch; before a bad lead). A mismatch at `end` (a start) is a
    // character cut off there.
    let mut q = end;
    if _bzhi_u64(mismatch | bad, end as u32 + 1) != 0 {
        if mismatch != 0 {
            let before = starts & first_lanes64(mismatch.trailing_zeros() as usize);
            q = q.min(if before == 0 {
                0
            } else {
                63 - before.leading_zeros() as usize
            });
        }
        q = q.min(bad.trailing_zeros() as usize);
    }
    let taken = _bzhi_u64(starts, q as u32);
    let units = taken.count_ones() as usize;
    if q == 0 || units > room {
        return (0, 0);
    }
    let u0 = _mm512_permutex2var_epi8(lo, tables.interleave[0], hi);
    let u1 = _mm512_permutex2var_epi8(lo, tables.interleave[1], hi);
    let c0 = _mm512_maskz_compress_epi16(taken as u32, u0);
    let c1 = _mm512_maskz_compress_epi16((taken >> 32) as u32, u1);
    let k0 = (taken as u32).count_ones();
    // SAFETY: units 0..units at d (units <= room): the first k0 from c0, the others from c1
    // after them; the second store's address is only computed (wrapping) when none of its
    // lanes is stored.
    unsafe {
        _mm512_mask_storeu_epi16(d as *mut i16, _bzhi_u32(!0, k0), c0);
        _mm512_mask_storeu_epi16(
            (d as *mut i16).wrapping_add(k0 as usize),
            _bzhi_u32(!0, units as u32 - k0),
            c1,
        );
    }
    (q, units)
}
