//! UTF-16 to UTF-8 (AVX2, AVX-512).

use super::*;

/// UTF-16 (big-endian if `BE`) to UTF-8, sixteen code units at a time (AVX2); returns (bytes
/// read, bytes written). Surrogate pairs are converted one unit at a time within the block
/// of sixteen that has them; the kernel stops before a surrogate that is not half of a pair
/// in `src` (a lone one, or a high surrogate whose low one is past the end), and when `dst`
/// has fewer than 48 bytes of room (32 for the output of a block of eight, 16 for what its
/// stores write past it, put back); the last fewer than eight units of a `src` of at least
/// sixteen bytes are converted too (by a load of the sixteen bytes before their end) unless
/// one of them is a surrogate.
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
    // The blocks write up to 48 bytes of output and up to 16 past it, where the bytes are
    // kept and put back.
    let room = dst.len().saturating_sub(16);
    if room < 32 {
        return (0, 0);
    }
    // SAFETY: dst has at least 48 bytes.
    let mut ahead = unsafe { Ahead::<false>::new(d) };
    // The test for units of U+0800 or above, read once (a volatile read, which the
    // compiler cannot repeat): it then stays in a register (as a constant, it is loaded
    // again in every block that is not ASCII, after the ASCII run's loop: one instruction
    // a block of Greek or Cyrillic text).
    // SAFETY: `F800` is a static, aligned for its type.
    let f800 = unsafe { core::ptr::read_volatile(&F800) };
    'blocks: while i + 32 <= src.len() && o + 32 <= room {
        // SAFETY: i + 32 <= src.len(): the 32 bytes at i are readable; unaligned load.
        let mut w = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
        if BE {
            w = _mm256_shuffle_epi8(w, swap2);
        }
        if _mm256_testz_si256(w, _mm256_set1_epi16(0xFF80u16 as i16)) != 0 {
            // ASCII. As in simdutf's AVX2 kernel, a look at the next sixteen units: ASCII
            // too (markup, English), on to a loop of its own (an ASCII-run kernel's); else
            // sixteen at once (between letters of Latin text).
            let mut x = w;
            if i + 64 <= src.len() {
                // SAFETY: i + 64 <= src.len(): the 32 bytes at i + 32 are readable; unaligned.
                x = unsafe { _mm256_loadu_si256(s.add(i + 32) as *const __m256i) };
                if BE {
                    x = _mm256_shuffle_epi8(x, swap2);
                }
            }
            if i + 64 > src.len() || _mm256_testz_si256(x, _mm256_set1_epi16(0xFF80u16 as i16)) == 0
            {
                // SAFETY: o + 32 <= room: the 16 bytes at o are within dst.
                unsafe {
                    ahead.advance_past(d, o + 16);
                    store_ascii16(w, d.add(o))
                };
                i += 32;
                o += 16;
                continue;
            }
            // Thirty-two units of ASCII a step as long as the run lasts, as many steps as
            // `src` and the room allow (one at least). The stores write output only: the
            // kept bytes move once, after the run.
            let steps = ((src.len() - i) / 64).min((room - o) / 32);
            let mut ended = false;
            if steps > SHORT_STEPS {
                // The first steps (unrolled, no bounds to check) test each half on its
                // own, so that a short run (markup between words of CJK text) ends in
                // the sixteen units where it ends: one branch that the run's end
                // mispredicts, not a second one on which half it was.
                for _ in 0..SHORT_STEPS {
                    // packus interleaves the 128-bit halves: w.lo x.lo w.hi x.hi.
                    let bytes =
                        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(w, x));
                    // SAFETY: o + 32 <= room (steps > SHORT_STEPS); an unaligned store of
                    // output only.
                    unsafe { _mm256_storeu_si256(d.add(o) as *mut __m256i, bytes) };
                    i += 64;
                    o += 32;
                    // SAFETY: a step after this one: i + 64 <= src.len(), the 64 bytes at
                    // i are readable; unaligned loads.
                    w = unsafe { _mm256_loadu_si256(s.add(i) as *const __m256i) };
                    if BE {
                        w = _mm256_shuffle_epi8(w, swap2);
                    }
                    if _mm256_testz_si256(w, _mm256_set1_epi16(0xFF80u16 as i16)) == 0 {
                        ended = true;
                        break;
                    }
                    // SAFETY: as above.
                    x = unsafe { _mm256_loadu_si256(s.add(i + 32) as *const __m256i) };
                    if BE {
                        x = _mm256_shuffle_epi8(x, swap2);
                    }
                    if _mm256_testz_si256(x, _mm256_set1_epi16(0xFF80u16 as i16)) == 0 {
                        // `w`'s sixteen bytes at once, as above; the run ends in `x`.
                        // SAFETY: o + 32 <= room (a step after this one); output only.
                        unsafe { store_ascii16(w, d.add(o)) };
                        i += 32;
                        o += 16;
                        w = x;
                        ended = true;
                        break;
                    }
                }
            }
            if !ended {
                // A long run (English), or one near the end of `src` or of the room: the
                // two halves tested at once, for the speed of the steps (the run's end then
                // branches on which half it is in). The steps left: one at least, for the
                // units loaded last.
                let left = if steps > SHORT_STEPS {
                    steps - SHORT_STEPS
                } else {
                    steps
                };
                let last = i + 64 * (left - 1);
                loop {
                    let bytes =
                        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(w, x));
                    // SAFETY: o + 32 <= room; an unaligned store of output only.
                    unsafe { _mm256_storeu_si256(d.add(o) as *mut __m256i, bytes) };
                    let at_last = i == last;
                    i += 64;
                    o += 32;
                    if at_last {
                        // SAFETY: o <= room: the 16 bytes at o are within dst, not
                        // written yet.
                        unsafe { ahead.advance_past(d, o) };
                        continue 'blocks;
                    }
                    // SAFETY: a step after this one: i + 64 <= src.len(), the 64 bytes at
                    // i are readable; unaligned loads.
                    unsafe {
                        w = _mm256_loadu_si256(s.add(i) as *const __m256i);
                        x = _mm256_loadu_si256(s.add(i + 32) as *const __m256i);
                    }
                    if BE {
                        w = _mm256_shuffle_epi8(w, swap2);
                        x = _mm256_shuffle_epi8(x, swap2);
                    }
                    let high = _mm256_and_si256(
                        _mm256_or_si256(w, x),
                        _mm256_set1_epi16(0xFF80u16 as i16),
                    );
                    if _mm256_testz_si256(high, high) == 0 {
                        break;
                    }
                }
                // It ends in `x` if `w` is ASCII (its sixteen bytes at once, as above),
                // else in `w`.
                if _mm256_testz_si256(w, _mm256_set1_epi16(0xFF80u16 as i16)) != 0 {
                    // SAFETY: o + 32 <= room; output only.
                    unsafe { store_ascii16(w, d.add(o)) };
                    i += 32;
                    o += 16;
                    w = x;
                }
            }
            // SAFETY: o <= room: the 16 bytes at o are within dst, not written yet (o is at
            // least 32 past the kept bytes' place).
            unsafe { ahead.advance_past(d, o) };
            if o + 32 > room {
                continue;
            }
        }
        if _mm256_testz_si256(w, f800) == 0 {
            // A unit of U+0800 or above: a three-byte character (CJK, Thai, Vietnamese, a
            // dash or a quotation mark among Latin letters) or a surrogate.
            if o + 48 > room {
                break;
            }
            let top = _mm256_and_si256(w, f800);
            let sur = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0xD800u16 as i16));
            if _mm256_testz_si256(sur, sur) == 0 {
                // SAFETY: the kept bytes are within dst.
                unsafe { ahead.restore(d) };
                // SAFETY: o + 64 <= dst.len(): the 52 bytes at o are writable.
                let (r, n, stop) = unsafe { units_to_utf8::<BE>(&src[i..], d.add(o)) };
                i += r;
                o += n;
                // SAFETY: o + 16 <= dst.len() (a block writes at most 49 bytes).
                unsafe { ahead.renew(d, o) };
                if stop {
                    // SAFETY: the kept bytes are within dst.
                    unsafe { ahead.restore(d) };
                    return (i, o);
                }
                continue;
            }
            let below800 = _mm256_cmpeq_epi16(top, _mm256_setzero_si256());
            // SAFETY: AVX2 is present; o + 64 <= dst.len().
            o += unsafe { utf16x16_to_utf8(w, below800, d, &mut ahead, o) };
            i += 32;
            continue;
        }
        // SAFETY: AVX2 is present; o + 32 <= room = dst.len() - 16, so the 48 bytes at o
        // are writable and the 16 at the output's end readable.
        o += unsafe { below_800_to_utf8(w, d, &mut ahead, o) };
        i += 32;
    }
    // Blocks of eight: the last ones of `src`, or where the room left is too small for
    // sixteen units of three bytes.
    while i + 16 <= src.len() && o + 32 <= room {
        // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; unaligned load.
        let mut v = unsafe { _mm_loadu_si128(s.add(i) as *const __m128i) };
        if BE {
            v = _mm_shuffle_epi8(v, swap);
        }
        let sur = _mm_cmpeq_epi16(
            _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16)),
            _mm_set1_epi16(0xD800u16 as i16),
        );
        if _mm_movemask_epi8(sur) != 0 {
            break;
        }
        // SAFETY: AVX2 is present; o + 32 <= room.
        let (w, _) = unsafe { utf16x8_to_utf8(v, d, &mut ahead, o) };
        o += w;
        i += 16;
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

/// Sixteen units of 0xF800, the bits of a unit from U+0800 on.
static F800: __m256i = {
    // SAFETY: sixteen u16 are 32 bytes, any value of which is an __m256i.
    unsafe { core::mem::transmute::<[u16; 16], __m256i>([0xF800; 16]) }
};

/// Sixteen ASCII units in `w` as their sixteen bytes at `at` (an unaligned store).
///
/// # Safety
/// AVX2 present (the caller's target features, into which this is inlined); the 16 bytes at
/// `at` writable.
#[inline(always)]
unsafe fn store_ascii16(w: __m256i, at: *mut u8) {
    // packus interleaves the 128-bit halves: the permutation brings the two low ones together.
    let bytes = _mm256_permute4x64_epi64::<0x08>(_mm256_packus_epi16(w, w));
    // SAFETY: the 16 bytes at `at` are writable (the caller's contract).
    unsafe { _mm_storeu_si128(at as *mut __m128i, _mm256_castsi256_si128(bytes)) }
}

/// The first steps of 32 units of an ASCII run, which test each half on its own, before
/// those that test both at once (`utf16_bytes_to_utf8_avx2_impl`).
const SHORT_STEPS: usize = 4;

/// Sixteen UTF-16 code units, all below U+0800 and not all ASCII, in `w`, as UTF-8 at byte
/// `at` of the kernel's output `d`: two stores of 16 bytes, after `ahead` is moved past their
/// output (17 to 32 bytes: the kept bytes are loaded whole from its end, where nothing is
/// written yet); returns the bytes of UTF-8.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the 48
/// bytes at `d + at` writable, `at` the end of the output so far (`ahead`'s place), and the
/// 16 bytes at the output's end readable.
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
    let (l, h) = (lo.len as usize, hi.len as usize);
    // SAFETY: the caller's contract; the shuffles are 16 readable bytes each (unaligned
    // loads); l <= 16 and l + h <= 32, so both 16-byte stores are within the 48 bytes at
    // d + at; a unit that is not ASCII makes l + h >= 17 (`advance_past`'s condition).
    unsafe {
        let shuf = _mm256_loadu2_m128i(
            hi.shuffle.as_ptr() as *const __m128i,
            lo.shuffle.as_ptr() as *const __m128i,
        );
        let packed = _mm256_shuffle_epi8(lanes, shuf);
        ahead.advance_past(d, at + l + h);
        _mm_storeu_si128(d.add(at) as *mut __m128i, _mm256_castsi256_si128(packed));
        _mm_storeu_si128(
            d.add(at + l) as *mut __m128i,
            _mm256_extracti128_si256::<1>(packed),
        );
    }
    l + h
}

/// Sixteen UTF-16 code units (big-endian if `BE`), none a surrogate, in `w`, as UTF-8 at byte
/// `at` of the kernel's output `d`; `below800` has the lanes of the units below U+0800 set.
/// Returns the bytes of UTF-8 (18 to 48: one unit at least is U+0800 or above).
///
/// As in "Transcoding Billions of Unicode Characters per Second with SIMD Instructions"
/// (Clausecker and Lemire, 2022): each unit's bytes are built in two 16-bit lanes, the lead
/// of three bytes with the middle byte (or the lead of two) and the last byte with the ASCII
/// byte, the lanes interleaved to 32 bits, four units per 128-bit half compacted by a
/// shuffle looked up by their two-bit classes, four stores.
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the 64
/// bytes at `d + at` writable, and the loads of `ahead.advance` within `d`'s bytes.
#[inline(always)]
pub(super) unsafe fn utf16x16_to_utf8(
    w: __m256i,
    below800: __m256i,
    d: *mut u8,
    ahead: &mut Ahead<false>,
    at: usize,
) -> usize {
    let below80 = _mm256_cmpeq_epi16(
        _mm256_and_si256(w, _mm256_set1_epi16(0xFF80u16 as i16)),
        _mm256_setzero_si256(),
    );
    // Each unit's low byte in both of its bytes, then [10cccccc | 0ccccccc]: the last byte
    // of two or three (low) and the ASCII byte (high).
    let low = _mm256_shuffle_epi8(
        w,
        _mm256_setr_epi8(
            0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10,
            10, 12, 12, 14, 14,
        ),
    );
    let last = _mm256_or_si256(
        _mm256_and_si256(low, _mm256_set1_epi16(0x7F3F)),
        _mm256_set1_epi16(0x0080),
    );
    // [1110aaaa | 10bbbbbb], the middle byte 110bbbbb (a lead of two) below U+0800.
    let lead = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_srli_epi16::<12>(w),
            _mm256_and_si256(_mm256_slli_epi16::<2>(w), _mm256_set1_epi16(0x3F00)),
        ),
        _mm256_or_si256(
            _mm256_set1_epi16(0x80E0u16 as i16),
            _mm256_and_si256(below800, _mm256_set1_epi16(0x4000)),
        ),
    );
    // Units 0-3 and 8-11; 4-7 and 12-15.
    let first = _mm256_unpacklo_epi16(lead, last);
    let second = _mm256_unpackhi_epi16(lead, last);
    let key = (_mm256_movemask_epi8(below80) as u32 & 0x5555_5555)
        | (_mm256_movemask_epi8(below800) as u32 & 0xAAAA_AAAA);
    let p0 = &PACK_UTF8_LANES[(key & 0xFF) as usize];
    let p1 = &PACK_UTF8_LANES[(key >> 8 & 0xFF) as usize];
    let p2 = &PACK_UTF8_LANES[(key >> 16 & 0xFF) as usize];
    let p3 = &PACK_UTF8_LANES[(key >> 24) as usize];
    let (l0, l1, l2, l3) = (
        p0.len as usize,
        p1.len as usize,
        p2.len as usize,
        p3.len as usize,
    );
    // SAFETY: the shuffles are 16 readable bytes each (unaligned loads); each pack keeps at
    // most 12 bytes, so the four 16-byte stores are within the 64 bytes at d + at, each
    // writes over what the one before wrote past its bytes, and the last ends at most 16
    // bytes past the output.
    unsafe {
        let a = _mm256_shuffle_epi8(
            first,
            _mm256_loadu2_m128i(
                p2.shuffle.as_ptr() as *const __m128i,
                p0.shuffle.as_ptr() as *const __m128i,
            ),
        );
        let b = _mm256_shuffle_epi8(
            second,
            _mm256_loadu2_m128i(
                p3.shuffle.as_ptr() as *const __m128i,
                p1.shuffle.as_ptr() as *const __m128i,
            ),
        );
        let end = at + l0 + l1 + l2 + l3;
        ahead.advance_past(d, end);
        let p = d.add(at);
        _mm_storeu_si128(p as *mut __m128i, _mm256_castsi256_si128(a));
        _mm_storeu_si128(p.add(l0) as *mut __m128i, _mm256_castsi256_si128(b));
        _mm_storeu_si128(
            p.add(l0 + l1) as *mut __m128i,
            _mm256_extracti128_si256::<1>(a),
        );
        _mm_storeu_si128(
            p.add(l0 + l1 + l2) as *mut __m128i,
            _mm256_extracti128_si256::<1>(b),
        );
        end - at
    }
}

/// The sixteen UTF-16 code units (big-endian if `BE`) at the start of `src` (at least 32
/// bytes), one at a time, as UTF-8 at `d`: a block with a surrogate. Returns (bytes read,
/// bytes written, whether it stopped before a surrogate that is not half of a pair in `src`).
/// A pair whose high surrogate is the sixteenth unit is read whole (17 units).
///
/// # Safety
/// The 52 bytes at `d` writable (16 units of three bytes, or 15 and a pair).
#[inline(never)]
unsafe fn units_to_utf8<const BE: bool>(src: &[u8], d: *mut u8) -> (usize, usize, bool) {
    let unit = |k: usize| {
        let pair = [src[k], src[k + 1]];
        (if BE {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }) as u32
    };
    let (mut i, mut o) = (0, 0);
    let mut stop = false;
    while i < 32 {
        let mut cp = unit(i);
        let mut n = 2;
        if (0xD800..0xE000).contains(&cp) {
            let low = if cp < 0xDC00 && i + 4 <= src.len() {
                unit(i + 2)
            } else {
                0
            };
            if !(0xDC00..0xE000).contains(&low) {
                stop = true;
                break;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            n = 4;
        }
        let mut bytes = [0u8; 4];
        let len = char::from_u32(cp)
            .expect("a scalar value")
            .encode_utf8(&mut bytes)
            .len();
        // SAFETY: at most 52 bytes in all (three per unit, four per pair of units), writable
        // by the caller's contract; `bytes` and `d` do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), d.add(o), len) };
        i += n;
        o += len;
    }
    (i, o, stop)
}

/// Eight UTF-16 code units, none a surrogate, in `v`, as UTF-8 at byte `at` of the kernel's
/// output `d`: two stores of 16 bytes, after `ahead` is advanced to their output's end;
/// returns (the bytes of UTF-8, whether any unit is U+0800 or above).
///
/// # Safety
/// AVX2 must be present (the caller's target features, into which this is inlined), the 32
/// bytes at `d + at` writable, and the loads of `ahead.advance` within `d`'s bytes.
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

/// UTF-16 (big-endian if `BE`) to UTF-8, thirty-two code units at a time (AVX-512 with VBMI
/// and VBMI2); returns (bytes read, bytes written). Surrogate pairs are converted within the
/// block; the kernel stops before a surrogate that is not half of a pair in `src` (a lone
/// one, or a high surrogate whose low one is past the end), and where the next block's
/// output does not fit in `dst` (after blocks of a third of the room left, which always fit).
/// It converts up to the end of `src` (the last block is loaded under a mask) and writes
/// nothing past its output (masked stores).
///
/// As in "Transcoding Billions of Unicode Characters per Second with SIMD Instructions"
/// (Clausecker and Lemire, 2022), each unit's bytes are built in place and the bytes that
/// count are packed by `vpcompressb`: ASCII blocks are narrowed (`vpmovwb`); blocks below
/// U+0800 build one or two bytes in each 16-bit lane; the others widen each half of the block
/// to 32-bit lanes, cut each lane's scalar value into its 6-bit groups at once
/// (`vpmultishiftqb`), add the lead and continuation bits of its length, and keep the bytes
/// that reach a per-byte least value (one unsigned byte compare). A high surrogate's lane
/// holds the four bytes of its pair (with the next unit), the low one's lane none.
#[inline]
pub(crate) fn utf16_bytes_to_utf8_avx512<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    if !has_avx512() {
        return (0, 0);
    }
    // SAFETY: AVX-512 F/BW/VL/VBMI/VBMI2 and AVX2 are present (checked above).
    unsafe { utf16_bytes_to_utf8_avx512_impl::<BE>(src, dst) }
}

/// The index of each unit's low byte among two vectors of units (`vpermt2b`).
static LOW_BYTES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = 2 * k as u8;
        k += 1;
    }
    t
};

/// # Safety
/// AVX-512 F/BW/VL/VBMI/VBMI2 and AVX2 present.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
unsafe fn utf16_bytes_to_utf8_avx512_impl<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let (n, room) = (src.len() / 2, dst.len());
    let (s, d) = (src.as_ptr() as *const i16, dst.as_mut_ptr() as *mut i8);
    let swap = _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
    ));
    // Byte 2k of the 128 of two vectors, for k = 0..64 (`vpermt2b`: bit 6 picks the second).
    // SAFETY: LOW_BYTES is 64 readable bytes; an unaligned load.
    let low_bytes = unsafe { _mm512_loadu_si512(LOW_BYTES.as_ptr() as *const __m512i) };
    // Units and bytes read and written.
    let (mut i, mut o) = (0usize, 0usize);
    // Whole blocks while the room holds three bytes a unit (the most a block writes): no
    // bounds to work out.
    while i + 32 <= n && o + 96 <= room {
        // SAFETY: i + 32 <= n: units i..i + 32 of `src` are readable; an unaligned load.
        let mut w = unsafe { _mm512_loadu_si512(s.add(i) as *const __m512i) };
        if BE {
            w = _mm512_shuffle_epi8(w, swap);
        }
        let non_ascii = _mm512_test_epi16_mask(w, _mm512_set1_epi16(0xFF80u16 as i16));
        if non_ascii == 0 {
            // SAFETY: o + 32 <= room: bytes o..o + 32 of `dst`; an unaligned store.
            unsafe { _mm256_storeu_si256(d.add(o) as *mut __m256i, _mm512_cvtepi16_epi8(w)) };
            i += 32;
            o += 32;
            // Most ASCII blocks of markup between words of text are followed by one that
            // is not ASCII: a look at the next 32 units (not 64 at once), back to the top
            // for it if it is not ASCII.
            if i + 32 <= n {
                // SAFETY: i + 32 <= n: units i..i + 32 of `src` are readable; an unaligned
                // load.
                let mut x = unsafe { _mm512_loadu_si512(s.add(i) as *const __m512i) };
                if BE {
                    x = _mm512_shuffle_epi8(x, swap);
                }
                if _mm512_test_epi16_mask(x, _mm512_set1_epi16(0xFF80u16 as i16)) != 0 {
                    continue;
                }
            }
            // A run of ASCII (markup, English): 64 units a step while it lasts, the low
            // bytes of two vectors picked by one `vpermt2b`.
            while i + 64 <= n && o + 64 <= room {
                // SAFETY: i + 64 <= n: units i..i + 64 of `src` are readable; unaligned.
                let (mut a, mut b) = unsafe {
                    (
                        _mm512_loadu_si512(s.add(i) as *const __m512i),
                        _mm512_loadu_si512(s.add(i + 32) as *const __m512i),
                    )
                };
                if BE {
                    a = _mm512_shuffle_epi8(a, swap);
                    b = _mm512_shuffle_epi8(b, swap);
                }
                if _mm512_test_epi16_mask(
                    _mm512_or_si512(a, b),
                    _mm512_set1_epi16(0xFF80u16 as i16),
                ) != 0
                {
                    break;
                }
                let bytes = _mm512_permutex2var_epi8(a, low_bytes, b);
                // SAFETY: o + 64 <= room: bytes o..o + 64 of `dst`; an unaligned store.
                unsafe { _mm512_storeu_si512(d.add(o) as *mut __m512i, bytes) };
                i += 64;
                o += 64;
            }
            continue;
        }
        let big = _mm512_test_epi16_mask(w, _mm512_set1_epi16(0xF800u16 as i16));
        if big == 0 {
            let len = 32 + non_ascii.count_ones() as usize;
            // SAFETY: AVX-512 BW present.
            let out = unsafe { below_800_512(w, non_ascii, !0) };
            // SAFETY: the lanes stored are bytes o..o + len of `dst` (len <= 64, o + 96 <=
            // room).
            unsafe { _mm512_mask_storeu_epi8(d.add(o), first_lanes64(len), out) };
            i += 32;
            o += len;
            continue;
        }
        // SAFETY: AVX-512 F/BW/VBMI/VBMI2 present.
        let b = unsafe { wide_block(w, 32, non_ascii, big) };
        if b.take == 0 {
            // A surrogate that is not half of a pair: the caller's.
            return (2 * i, o);
        }
        let len0 = b.m0.count_ones() as usize;
        // SAFETY: the lanes stored are bytes o..o + len0 + len1 of `dst` (a block writes at
        // most 96, o + 96 <= room).
        unsafe {
            _mm512_mask_storeu_epi8(d.add(o), first_lanes64(len0), b.out0);
            _mm512_mask_storeu_epi8(d.add(o + len0), first_lanes64(b.len1), b.out1);
        }
        i += b.take;
        o += len0 + b.len1;
    }
    // The last fewer than 32 units, or blocks near the end of the room: loaded under a mask;
    // the units a block takes are 32, or a third of the room left once a block did not fit.
    let mut most = 32usize;
    while i < n {
        let k = (n - i).min(most);
        let lanes = first_lanes64(k) as u32;
        // SAFETY: the lanes of `lanes` are units i..i + k of `src` (i + k <= n); the others
        // are not read (and are zero).
        let mut w = unsafe { _mm512_maskz_loadu_epi16(lanes, s.add(i)) };
        if BE {
            w = _mm512_shuffle_epi8(w, swap);
        }
        let non_ascii = _mm512_mask_test_epi16_mask(lanes, w, _mm512_set1_epi16(0xFF80u16 as i16));
        if non_ascii == 0 {
            // ASCII: one byte each, as many as fit.
            let k = k.min(room - o);
            if k == 0 {
                break;
            }
            // SAFETY: the lanes stored are bytes o..o + k of `dst` (o + k <= room).
            unsafe {
                _mm256_mask_storeu_epi8(d.add(o), first_lanes64(k) as u32, _mm512_cvtepi16_epi8(w))
            };
            i += k;
            o += k;
            continue;
        }
        let big = _mm512_mask_test_epi16_mask(lanes, w, _mm512_set1_epi16(0xF800u16 as i16));
        if big == 0 {
            let len = k + non_ascii.count_ones() as usize;
            if o + len > room {
                most = (room - o) / 3;
                if most == 0 {
                    break;
                }
                continue;
            }
            // SAFETY: AVX-512 BW present.
            let out = unsafe { below_800_512(w, non_ascii, first_lanes64(2 * k)) };
            // SAFETY: the lanes stored are bytes o..o + len of `dst` (o + len <= room).
            unsafe { _mm512_mask_storeu_epi8(d.add(o), first_lanes64(len), out) };
            i += k;
            o += len;
            continue;
        }
        // SAFETY: AVX-512 F/BW/VBMI/VBMI2 present.
        let b = unsafe { wide_block(w, k, non_ascii, big) };
        if b.take == 0 {
            break;
        }
        let len0 = b.m0.count_ones() as usize;
        if o + len0 + b.len1 > room {
            most = (room - o) / 3;
            if most == 0 {
                break;
            }
            continue;
        }
        // SAFETY: the lanes stored are bytes o..o + len0 + len1 of `dst` (at most room):
        // the first len0 from `out0`, the others from `out1` after them (o + len0 <= room:
        // the address is within `dst` or one past its end).
        unsafe {
            _mm512_mask_storeu_epi8(d.add(o), first_lanes64(len0), b.out0);
            _mm512_mask_storeu_epi8(d.add(o + len0), first_lanes64(b.len1), b.out1);
        }
        i += b.take;
        o += len0 + b.len1;
    }
    (2 * i, o)
}

/// Thirty-two UTF-16 code units below U+0800 in `w` (bit `k` of `non_ascii` for unit `k`
/// from U+0080) as UTF-8, packed to the front: each unit's one byte, or its two bytes
/// [110bbbbb | 10cccccc] in its 16-bit lane; `bytes` has the bits of the lanes' bytes that
/// are units of the block (the first `2k` for `k` units).
///
/// # Safety
/// AVX-512 F/BW/VBMI2 present (the caller's target features, into which this is inlined).
#[inline(always)]
unsafe fn below_800_512(w: __m512i, non_ascii: u32, bytes: u64) -> __m512i {
    // [00bbbbbb | 00cccccc]: the bits of the lead (below 0x20: at most 11 bits in all) in
    // the low byte, the last 6 in the high one; then the marks 110 and 10 added.
    let groups = _mm512_ternarylogic_epi32::<0xA8>(
        _mm512_srli_epi16::<6>(w),
        _mm512_slli_epi16::<8>(w),
        _mm512_set1_epi16(0x3F3F),
    );
    let v = _mm512_mask_add_epi16(w, non_ascii, groups, _mm512_set1_epi16(0x80C0u16 as i16));
    // Nothing to pack when every unit has two bytes (Greek, Cyrillic, Hebrew). (Bochs 2.7,
    // the emulator of scripts/test-avx512.sh, gives zeros for `vpcompressb` with all 64 mask
    // bits set.)
    if non_ascii == !0 {
        return v;
    }
    // A lane's low byte always counts; its high byte (10cccccc, else zero) when its top bit
    // is set.
    let keep = (_mm512_movepi8_mask(v) | 0x5555_5555_5555_5555) & bytes;
    _mm512_maskz_compress_epi8(keep, v)
}

/// A block of UTF-16 code units with some of U+0800 or above, as UTF-8: the units taken
/// (`take`; 0 before a surrogate that is not half of a pair), the UTF-8 of the first sixteen
/// packed to the front of `out0` (`m0` the mask of the bytes, before packing, that count:
/// its population count is their length) and that of the others in `out1` (`len1` bytes).
struct Wide {
    take: usize,
    out0: __m512i,
    m0: u64,
    out1: __m512i,
    len1: usize,
}

/// The first `k` (1 to 32) UTF-16 code units in `w` (zero after them) as UTF-8 ([`Wide`]):
/// bit `j` of `non_ascii` and `big` is set for unit `j` from U+0080 and from U+0800 on. The
/// block ends before the first surrogate that is not half of a pair (a high one in the last
/// lane included: its low one is in the next block or past the end of `src`).
///
/// # Safety
/// AVX-512 F/BW/VBMI/VBMI2 present (the caller's target features, into which this is
/// inlined).
#[inline(always)]
unsafe fn wide_block(w: __m512i, k: usize, non_ascii: u32, big: u32) -> Wide {
    let lanes = first_lanes64(k) as u32;
    let sur = _mm512_mask_cmpeq_epi16_mask(
        lanes,
        _mm512_and_si512(w, _mm512_set1_epi16(0xF800u16 as i16)),
        _mm512_set1_epi16(0xD800u16 as i16),
    );
    let (ascii, below800) = (!non_ascii, !big);
    // SAFETY (both arms): the caller's target features.
    let ((out0, m0), (out1, m1), take) = if sur == 0 {
        let (a, b) = unsafe { wide_halves::<false>(w, ascii, below800, 0, lanes) };
        (a, b, k)
    } else {
        // High surrogates have bit 10 clear, low ones set; `lead`: a high one whose next
        // unit is a low one, `trail` that low one.
        let high = _mm512_mask_testn_epi16_mask(sur, w, _mm512_set1_epi16(0x400));
        let low = sur & !high;
        let (lead, trail) = (high & (low >> 1), low & (high << 1));
        let lone = sur & !(lead | trail);
        let take = k.min(lone.trailing_zeros() as usize);
        if take == 0 {
            let z = _mm512_setzero_si512();
            return Wide {
                take,
                out0: z,
                m0: 0,
                out1: z,
                len1: 0,
            };
        }
        // A pair in the block's units has both halves in them: its high half's next unit is
        // not a lone surrogate, so not the unit `take`.
        let out = first_lanes64(take) as u32 & !trail;
        let (a, b) = unsafe { wide_halves::<true>(w, ascii, below800, lead, out) };
        (a, b, take)
    };
    Wide {
        take,
        out0,
        m0,
        out1,
        len1: m1.count_ones() as usize,
    }
}

/// The two halves of a block ([`wide_block`]), each widened to sixteen 32-bit lanes: bit `j`
/// of the masks for unit `j`, `lead` the high halves of pairs (with `PAIRS`; else none),
/// `out` the units that have bytes of output (not the low halves of pairs, not those past
/// the block's end). Returns each half's bytes packed to the front, with the mask of the
/// bytes (before packing) that count.
///
/// # Safety
/// AVX-512 F/BW/VBMI/VBMI2 present (the caller's target features, into which this is
/// inlined).
#[inline(always)]
unsafe fn wide_halves<const PAIRS: bool>(
    w: __m512i,
    ascii: u32,
    below800: u32,
    lead: u32,
    out: u32,
) -> ((__m512i, u64), (__m512i, u64)) {
    let mut lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(w));
    let mut hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(w));
    if PAIRS {
        // A pair's scalar value in its high half's lane: (high - 0xD800) << 10 + (low -
        // 0xDC00) + 0x10000, the low half being the next lane's unit.
        let bias = _mm512_set1_epi32(0x035F_DC00);
        let lo_next = _mm512_alignr_epi32::<1>(hi, lo);
        let hi_next = _mm512_alignr_epi32::<1>(lo, hi);
        lo = _mm512_mask_add_epi32(
            lo,
            lead as u16,
            _mm512_slli_epi32::<10>(lo),
            _mm512_sub_epi32(lo_next, bias),
        );
        hi = _mm512_mask_add_epi32(
            hi,
            (lead >> 16) as u16,
            _mm512_slli_epi32::<10>(hi),
            _mm512_sub_epi32(hi_next, bias),
        );
    }
    // SAFETY: the caller's target features.
    unsafe {
        (
            wide_half::<PAIRS>(lo, ascii as u16, below800 as u16, lead as u16, out as u16),
            wide_half::<PAIRS>(
                hi,
                (ascii >> 16) as u16,
                (below800 >> 16) as u16,
                (lead >> 16) as u16,
                (out >> 16) as u16,
            ),
        )
    }
}

/// Sixteen scalar values in 32-bit lanes (masks as for [`wide_halves`], bit `j` for lane `j`)
/// as UTF-8 packed to the front, with the mask of the bytes (before packing) that count.
///
/// Each lane becomes the bytes [c >> 18, c >> 12, c >> 6, c] (`vpmultishiftqb`), each cut
/// to 6 bits, with the marks of the lane's length added: `F0 80 80 80` for four bytes,
/// `00 E0 80 80` for three, `00 00 C0 80` for two, and an ASCII lane is `00 00 00 c`. The
/// bytes that count are those from the lead on: the nonzero ones and the last one (the
/// least value 01 01 01 00); none of a lane without output (the least value FF, which no
/// byte reaches: a lead is at most F4).
///
/// # Safety
/// AVX-512 F/BW/VBMI/VBMI2 present (the caller's target features, into which this is
/// inlined).
#[inline(always)]
unsafe fn wide_half<const PAIRS: bool>(
    u: __m512i,
    ascii: u16,
    below800: u16,
    lead: u16,
    out: u16,
) -> (__m512i, u64) {
    // Bytes 0-3 of a lane from bits 18, 12, 6 and 0 of it; bytes 4-7 of the next lane's.
    let groups = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x2026_2C32_0006_0C12), u);
    let mut marks = _mm512_mask_blend_epi32(
        below800,
        _mm512_set1_epi32(0x8080_E000u32 as i32),
        _mm512_set1_epi32(0x80C0_0000u32 as i32),
    );
    if PAIRS {
        marks = _mm512_mask_mov_epi32(marks, lead, _mm512_set1_epi32(0x8080_80F0u32 as i32));
    }
    // (groups & 0x3F) | marks.
    let mut bytes =
        _mm512_ternarylogic_epi32::<0xEA>(groups, _mm512_set1_epi32(0x3F3F_3F3F), marks);
    bytes = _mm512_mask_slli_epi32::<24>(bytes, ascii, u);
    let least = _mm512_mask_blend_epi32(out, _mm512_set1_epi32(-1), _mm512_set1_epi32(0x0001_0101));
    let keep = _mm512_cmpge_epu8_mask(bytes, least);
    (_mm512_maskz_compress_epi8(keep, bytes), keep)
}
