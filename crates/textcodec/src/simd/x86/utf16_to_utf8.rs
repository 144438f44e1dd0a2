//! UTF-16 to UTF-8 (AVX2).

use super::*;

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
pub(super) unsafe fn utf16_bytes_to_utf8_avx2_impl<const BE: bool>(
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

/// Sixteen UTF-16 code units, all below U+0800, in `w`, as UTF-8 at byte `at` of the kernel's
/// output `d`: two stores of 16 bytes, after `ahead` is advanced to their output's end;
/// returns the bytes of UTF-8.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the 32
/// bytes at `d + at` writable, and the loads of `ahead.advance` within `d`'s bytes.
#[inline(always)]
pub(super) unsafe fn below_800_to_utf8(
    w: __m256i,
    d: *mut u8,
    ahead: &mut Ahead<false>,
    at: usize,
) -> usize {
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
pub(super) unsafe fn utf16x8_to_utf8(
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
