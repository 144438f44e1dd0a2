//! UTF-8 validation (and validating copies), by lookup tables over nibbles (AVX2).

use super::*;

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
pub(super) fn copy_short(src: &[u8], dst: &mut [u8]) {
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
pub(super) unsafe fn short_is_valid(src: &[u8]) -> bool {
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
pub(super) const KEEP_FROM_3: [u8; 32] = {
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
pub(super) fn padded_is_valid(padded: &[u8; 64]) -> bool {
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
pub(super) fn last_boundary(src: &[u8], checked: usize) -> usize {
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
pub(super) fn table(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; an unaligned 128-bit load.
    let half = unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) };
    _mm256_broadcastsi128_si256(half)
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn high_nibbles(v: __m256i) -> __m256i {
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
pub(super) unsafe fn lookup64(s: *const u8, i: usize, t: (__m256i, __m256i, __m256i)) -> __m256i {
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
pub(super) unsafe fn store64_if<const COPY: bool>(
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
pub(super) fn check_block(
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
pub(super) const INCOMPLETE_MAX: [u8; 32] = {
    let mut max = [0xFFu8; 32];
    max[29] = 0xF0 - 1;
    max[30] = 0xE0 - 1;
    max[31] = 0xC0 - 1;
    max
};

/// Validates whole 32-byte blocks, copying them to `dst` if `COPY`; returns the length of the
/// blocks that passed (everything before it is valid UTF-8 but for, possibly, a character cut
/// at its end), which is where the last block copied ends; `tail` keeps the four bytes of
/// `dst` that block overwrote last, unless it is ASCII (then it ends at a character boundary
/// and nothing is put back).
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
///   that may end inside a three- or four-byte sequence (CJK, Thai, Vietnamese text, often
///   with markup) starts lookup checks of 256 bytes per error test,
///   each block after a test for ASCII, until a last block of two-byte characters or 256
///   bytes of ASCII; 256 bytes without ASCII blocks start lookup checks only (no test for
///   ASCII), four blocks per error test, until a last block without three- or four-byte
///   leads. With COPY, the 256 bytes of an error test are copied right after it passes (they
///   are in the L1 cache then), not during the checks of the next ones (BENCHMARKS.md,
///   issue 16, branch `u8copyc`). After an error test fails the first flagged block is found
///   again.
///
/// # Safety
/// AVX2 must be present, and with `COPY` `dst` must be at least as long as `src`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn validate_blocks_avx2<const COPY: bool>(
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
            let first = _mm256_or_si256(v[0], v[1]);
            let any = _mm256_or_si256(first, _mm256_or_si256(v[2], v[3]));
            if _mm256_movemask_epi8(any) != 0 {
                // With COPY, an ASCII first half is stored here (and the run ends after
                // it), rather than loaded again by the mask checks, which would take it for
                // the start of another run, and start that run's loop only to leave it at
                // once: Vietnamese, Thai and Latin text with markup 5-9 % faster (BENCHMARKS.md,
                // issue 16, branch `copy2`). Without COPY, measured slower: not done.
                if COPY && _mm256_movemask_epi8(first) == 0 {
                    // SAFETY: i + 128 <= n = src.len() <= dst.len() with COPY (the caller's
                    // contract); unaligned stores.
                    unsafe {
                        _mm256_storeu_si256(d.add(i) as *mut __m256i, v[0]);
                        _mm256_storeu_si256(d.add(i + 32) as *mut __m256i, v[1]);
                    }
                    i += 64;
                }
                break;
            }
            // Blocks of ASCII end at a character boundary: the caller's bytes under them
            // are never put back, and `tail` need not keep them.
            if COPY {
                // SAFETY: i + 128 <= n = src.len() <= dst.len() with COPY (the caller's
                // contract); unaligned stores.
                unsafe {
                    for (k, &x) in v.iter().enumerate() {
                        _mm256_storeu_si256(d.add(i + 32 * k) as *mut __m256i, x);
                    }
                }
            }
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
                // ASCII: as in `ascii_run`, nothing for `tail` to keep.
                // SAFETY: i + 64 <= n = src.len() <= dst.len() with COPY; unaligned stores.
                if COPY {
                    unsafe {
                        _mm256_storeu_si256(d.add(i) as *mut __m256i, a);
                        _mm256_storeu_si256(d.add(i + 32) as *mut __m256i, b);
                    }
                }
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
            // Checked alone, also next to other such blocks: entering the lookup checks for
            // every cluster of them (three-byte punctuation in ASCII text, such as
            // reference lists) cost more than it saved (BENCHMARKS.md, issue 16, `u8copyc`).
            let err = check64(i);
            if _mm256_testz_si256(err, err) == 0 {
                return i;
            }
            store64(i, a, b);
            // Three- and four-byte lead bytes (no C0 or C1: the lookup check flags them).
            let long_leads = non_ascii & !c & !v;
            pending = v >> 63;
            i += 64;
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

/// The first 64-byte block with a flag of the `len` bytes at `s + g` (the bytes before `g`
/// valid), or `g`: out of line and cold, so that the checks before it keep no register
/// for it (reusing their loads, the compiler would keep the checked blocks alive and spill
/// them).
///
/// # Safety
/// AVX2 must be present, and the `len` bytes at `s + g` readable (and with `g >= 32` the 32
/// before them).
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn first_flagged_avx2(s: *const u8, g: usize, len: usize) -> usize {
    let tables = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    for j in (g..g + len).step_by(64) {
        // SAFETY: j + 64 <= g + len: readable (the contract), as are the 32 before j >= 32.
        let e = unsafe { lookup64(s, j, tables) };
        if _mm256_testz_si256(e, e) == 0 {
            return j;
        }
    }
    g
}

/// The lookup checks of [`validate_blocks_avx2`] from `i` (the bytes before it valid but for,
/// possibly, a character cut at `i`), MIXED bytes per error test (with COPY, copied once
/// the test passed), then, in runs of blocks without ASCII, four blocks per test: `Err` with
/// the first block with an error, or `Ok`
/// with where mask checks may resume (a last block without three- or four-byte leads), or
/// with fewer than MIXED bytes left.
///
/// # Safety
/// AVX2 must be present, i <= src.len(), and with `COPY` `dst` must be at least as long as
/// `src`.
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn lookup_blocks_avx2<const COPY: bool>(
    src: &[u8],
    dst: &mut [u8],
    mut i: usize,
    tail: &core::cell::Cell<u32>,
) -> Result<usize, usize> {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (t1h, t1l, t2h) = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    // The `len` bytes at `g` (a multiple of 64, checked valid) copied, with COPY; `tail`
    // keeps the caller's four bytes that the last block overwrites (read before any store
    // of this copy reaches them), once per copy rather than once per block.
    let copy_blocks = |g: usize, len: usize| {
        if !COPY || len == 0 {
            return;
        }
        // SAFETY: g + len <= n = src.len() <= dst.len() (with COPY, the caller's contract)
        // and len >= 64; an unaligned load.
        tail.set(unsafe { core::ptr::read_unaligned(d.add(g + len - 4) as *const u32) });
        // Loaded again through `black_box`: the compiler cannot reuse (and so keep alive,
        // and spill) the checked blocks.
        let s = core::hint::black_box(s);
        for j in (g..g + len).step_by(64) {
            // SAFETY: j + 64 <= g + len <= n = src.len() (<= dst.len() with COPY, the
            // caller's contract); unaligned loads and stores.
            unsafe {
                let a = _mm256_loadu_si256(s.add(j) as *const __m256i);
                let b = _mm256_loadu_si256(s.add(j + 32) as *const __m256i);
                _mm256_storeu_si256(d.add(j) as *mut __m256i, a);
                _mm256_storeu_si256(d.add(j + 32) as *mut __m256i, b);
            }
        }
    };
    // Lookup checks, MIXED bytes (in blocks of 64) per error test, each block after a
    // test for ASCII.
    const MIXED: usize = 256;
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
    // SAFETY: AVX2 is present; callers pass g + len <= n = src.len().
    let first_flagged = |g: usize, len: usize| unsafe { first_flagged_avx2(s, g, len) };
    while i + MIXED <= n {
        let mut err = _mm256_setzero_si256();
        let mut last = _mm256_setzero_si256();
        let mut checked = 0;
        // The block at `j`, written out MIXED / 64 times below (no loop counter, and the
        // test of the bytes before an ASCII block made only there).
        const _: () = assert!(MIXED == 4 * 64);
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
        if _mm256_testz_si256(err, err) == 0 {
            // The blocks before the first flagged one are valid: copied.
            let j = first_flagged(i, MIXED);
            copy_blocks(i, j - i);
            return Err(j);
        }
        copy_blocks(i, MIXED);
        i += MIXED;
        let long = _mm256_subs_epu8(last, ge_e0);
        if _mm256_testz_si256(long, long) != 0 && (checked == 0 || _mm256_movemask_epi8(last) != 0)
        {
            // Only ASCII blocks, or a last block with two-byte characters but no three-
            // or four-byte lead: back to mask checks. (ASCII blocks between others, as in
            // CJK or Thai text with markup, cost little here; leaving after a last ASCII
            // block was measured slower on the .html files.)
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

// AVX-512: the lookup check of Keiser and Lemire on 64-byte vectors, the block before giving
// the context, as `check_block` does on 32; groups of four ASCII blocks after a complete
// character are not checked. The last fewer than 64 bytes are one more block, loaded masked (zeros after the
// input: a sequence cut short by the end meets a zero, which the check flags), so short
// inputs need no other path.

/// Copies the longest prefix of `src` that is complete, valid UTF-8 (AVX-512); returns its
/// length. As [`copy_valid_utf8_avx2`]: a block with a flag is not copied; the exact end of
/// the valid prefix is then found by the scalar validator from the last character boundary
/// before that block, and the bytes of `dst` after it are put back as they were.
#[inline]
pub(crate) fn copy_valid_utf8_avx512(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_avx512() || dst.len() < src.len() {
        return scalar::copy_valid_utf8(src, dst);
    }
    // SAFETY: AVX-512 F/BW/VL/VBMI and AVX2 are present (checked above) and `dst` is at
    // least as long as `src`.
    let checked = unsafe { validate_blocks_avx512::<true>(src, dst) };
    // Nothing of a character cut at `checked` was stored: the scalar copy from its start
    // writes what is valid, and nothing of `dst` after that was changed.
    let b = last_boundary(src, checked);
    b + scalar::copy_valid_utf8(&src[b..], &mut dst[b..])
}

/// The length of the longest prefix of `src` that is complete, valid UTF-8 (AVX-512), checked
/// as [`copy_valid_utf8_avx512`] checks it, without the copy.
#[inline]
pub(crate) fn valid_utf8_prefix_avx512(src: &[u8]) -> usize {
    if !has_avx512() {
        return scalar::valid_utf8_prefix(src);
    }
    // SAFETY: AVX-512 F/BW/VL and AVX2 are present; without COPY nothing is written to the
    // empty `dst`.
    let checked = unsafe { validate_blocks_avx512::<false>(src, &mut []) };
    let b = last_boundary(src, checked);
    b + scalar::valid_utf8_prefix(&src[b..])
}

/// Per position, the largest byte that does not start a sequence running past the end of a
/// 64-byte block.
const INCOMPLETE_MAX64: [u8; 64] = {
    let mut max = [0xFFu8; 64];
    max[61] = 0xF0 - 1;
    max[62] = 0xE0 - 1;
    max[63] = 0xC0 - 1;
    max
};

/// The tables BYTE_1_HIGH, BYTE_1_LOW and BYTE_2_HIGH in each 16-byte lane, for
/// [`check_block512`].
///
/// # Safety
/// AVX-512 F present (the caller's target features, into which this is inlined).
#[inline(always)]
pub(super) unsafe fn tables512() -> (__m512i, __m512i, __m512i) {
    let lane = |t: &[u8; 16]| {
        // SAFETY: `t` is 16 readable bytes (an unaligned load); AVX-512 F is present.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr() as *const __m128i)) }
    };
    (lane(&BYTE_1_HIGH), lane(&BYTE_1_LOW), lane(&BYTE_2_HIGH))
}

/// The flags of malformed pairs and triples in `input`, given the 64 bytes before it:
/// The last step of [`check_block512`] and [`check_at512`]: `special` (the lookups' verdict
/// on each byte with the one before it) against the bytes that must be the second
/// continuation of a three- or four-byte sequence, or the third of a four-byte one (from the
/// bytes two and three before): nonzero where the input is malformed.
///
/// # Safety
/// AVX-512 F/BW present (the caller's target features, into which this is inlined).
#[inline(always)]
unsafe fn errors512(special: __m512i, prev2: __m512i, prev3: __m512i) -> __m512i {
    // SAFETY: register operations of AVX-512 F and BW, present (the caller's contract).
    unsafe {
        let is_third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((0xE0u8 - 0x80) as i8));
        let is_fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((0xF0u8 - 0x80) as i8));
        let must23_80 = _mm512_and_si512(
            _mm512_or_si512(is_third, is_fourth),
            _mm512_set1_epi8(0x80u8 as i8),
        );
        _mm512_xor_si512(must23_80, special)
    }
}

/// [`check_block`] on 64 bytes. `t`: the tables BYTE_1_HIGH, BYTE_1_LOW and BYTE_2_HIGH in
/// each 16-byte lane.
///
/// # Safety
/// AVX-512 F/BW/VL and AVX2 present (the caller's target features, into which this is
/// inlined).
#[inline(always)]
pub(super) unsafe fn check_block512(
    input: __m512i,
    prev_input: __m512i,
    t: (__m512i, __m512i, __m512i),
) -> __m512i {
    let (t1h, t1l, t2h) = t;
    // SAFETY: register operations of AVX-512 F and BW, present (the caller's contract).
    unsafe {
        // Each 16-byte lane of `input` with the one before it: the last lane of `prev_input`,
        // then the first three of `input` (the 64-bit elements 6, 7 of `prev_input`, then 0
        // to 5 of `input`); `alignr_epi8` then shifts within lanes, as on AVX2.
        let carried = _mm512_alignr_epi64::<6>(input, prev_input);
        let prev1 = _mm512_alignr_epi8::<15>(input, carried);
        let prev2 = _mm512_alignr_epi8::<14>(input, carried);
        let prev3 = _mm512_alignr_epi8::<13>(input, carried);
        let nibble = _mm512_set1_epi8(0x0F);
        let high = |v: __m512i| _mm512_and_si512(_mm512_srli_epi16::<4>(v), nibble);
        let byte_1_high = _mm512_shuffle_epi8(t1h, high(prev1));
        let byte_1_low = _mm512_shuffle_epi8(t1l, _mm512_and_si512(prev1, nibble));
        let byte_2_high = _mm512_shuffle_epi8(t2h, high(input));
        let special = _mm512_and_si512(_mm512_and_si512(byte_1_high, byte_1_low), byte_2_high);
        errors512(special, prev2, prev3)
    }
}

/// [`check_block512`] of the 64 bytes `input` at `s + j`, the context loaded again from
/// memory (the bytes at `s + j - 1`, `- 2`, `- 3`: unaligned loads, where shifting them out
/// of the block before takes four shuffles, the port the table lookups need), and the
/// tables looked up with `vpermb` (a 64-byte table, the 16-byte one four times: the index's
/// bits 4 and 5 do not matter, so neither nibble needs masking).
///
/// # Safety
/// AVX-512 F/BW/VL/VBMI and AVX2 present (the caller's target features, into which this
/// is inlined); `j >= 3` and the 67 bytes from `s + j - 3` readable.
#[inline(always)]
unsafe fn check_at512(
    s: *const u8,
    j: usize,
    input: __m512i,
    t: (__m512i, __m512i, __m512i),
) -> __m512i {
    let (t1h, t1l, t2h) = t;
    // SAFETY: the caller's contract (unaligned loads); register operations of AVX-512
    // F/BW/VBMI, present.
    unsafe {
        let prev1 = _mm512_loadu_si512(s.add(j - 1) as *const _);
        let prev2 = _mm512_loadu_si512(s.add(j - 2) as *const _);
        let prev3 = _mm512_loadu_si512(s.add(j - 3) as *const _);
        let byte_1_high = _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(prev1), t1h);
        let byte_1_low = _mm512_permutexvar_epi8(prev1, t1l);
        let byte_2_high = _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(input), t2h);
        let special = _mm512_and_si512(_mm512_and_si512(byte_1_high, byte_1_low), byte_2_high);
        errors512(special, prev2, prev3)
    }
}

/// Validates `src` in blocks of 64 bytes (the last one shorter, loaded masked), copying the
/// blocks that pass to `dst` if `COPY`; returns the length of the blocks that passed
/// (everything before it is valid UTF-8 but for, possibly, a character cut at its end).
/// Everything before that end is stored but such a character: the bytes of a character
/// that a block does not finish are stored with the next block that passes (a masked
/// store), so nothing of `dst` is read or put back.
///
/// Four blocks (256 bytes) at a time, one test for ASCII and one error test each (the group
/// copied once the test passed, from registers). A group of ASCII only needs the bytes
/// before it to end at a character boundary. Otherwise each block is tested for ASCII (as
/// in text mixing markup with non-ASCII) and checked if it is not, by the lookup check of
/// Keiser and Lemire ([`check_at512`]); after a group without ASCII blocks (CJK, Cyrillic,
/// Thai text) the four blocks are checked without those tests until a group's last block
/// is ASCII (checking every block of every group, or testing pairs of blocks for ASCII,
/// was measured slower on the .html files: BENCHMARKS.md, issue 16, `val512`). A group
/// with an error is checked again block by block, as the last fewer than 256 bytes are,
/// to find the first block with a flag.
///
/// # Safety
/// AVX-512 F/BW/VL/VBMI and AVX2 present, and with `COPY` `dst` at least as long as `src`.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn validate_blocks_avx512<const COPY: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: AVX-512 F is present (this function's features).
    let tables = unsafe { tables512() };
    // SAFETY: INCOMPLETE_MAX64 is 64 readable bytes; an unaligned load.
    let incomplete_max = unsafe { _mm512_loadu_si512(INCOMPLETE_MAX64.as_ptr() as *const _) };
    // SAFETY (all four): callers pass j + 64 <= n = src.len() (<= dst.len() with COPY, the
    // contract); unaligned loads and stores; AVX-512 F/BW/VL and AVX2 are present.
    let load = |j: usize| unsafe { _mm512_loadu_si512(s.add(j) as *const _) };
    let store = |j: usize, v: __m512i| {
        if COPY {
            unsafe { _mm512_storeu_si512(d.add(j) as *mut _, v) }
        }
    };
    // The lanes of the block `v` before the first byte of a character it does not finish
    // (all of them if there is none): the lead bytes at 61 to 63 above INCOMPLETE_MAX64,
    // the lowest one's bit isolated, less one.
    let finished = |v: __m512i| {
        let cut = _mm512_cmpgt_epu8_mask(v, incomplete_max);
        (cut & cut.wrapping_neg()).wrapping_sub(1)
    };
    // With COPY, the block `v` at `j`, its lanes `lanes` of `dst`, and before it the lanes
    // `pending` of the block before it that an earlier store left out (a character that
    // block did not finish, now checked by the check of `v`).
    let store_masked = |j: usize, v: __m512i, lanes: u64, p: __m512i, pending: u64| {
        if COPY {
            // SAFETY: the lanes of `lanes` are bytes of `dst` before n (callers pass them
            // so), and `pending` is zero or the lanes of the 64 bytes before j (then j >= 64)
            // not yet stored, before j <= n; a masked store writes no other byte, and
            // `wrapping_sub` makes no pointer out of bounds for the others.
            unsafe {
                _mm512_mask_storeu_epi8(d.wrapping_add(j).wrapping_sub(64) as *mut i8, pending, p);
                _mm512_mask_storeu_epi8(d.add(j) as *mut i8, lanes, v);
            }
        }
    };
    let check = |v: __m512i, prev: __m512i| unsafe { check_block512(v, prev, tables) };
    // The same, the context loaded from memory: `v` is the block at `j > 0` of the group
    // loop (so j + 64 <= n), and `first` says whether it is the first of its group (whose
    // `j` may be 0: then there is no context to load, and `check` takes zeros).
    let check_at = |first: bool, j: usize, v: __m512i, prev: __m512i| {
        if first && j == 0 {
            check(v, prev)
        } else {
            // SAFETY: AVX-512 VBMI is present (this function's features); 64 <= j or, for
            // the first block of a group, j >= 256; j + 64 <= n = src.len().
            unsafe { check_at512(s, j, v, tables) }
        }
    };
    // The 64 bytes before `i` (zeros at the start).
    let mut prev = _mm512_setzero_si512();
    // The lanes of `prev` not stored (a character it does not finish).
    let mut pending = 0u64;
    // Whether the last group had no ASCII block (text without markup: CJK, Cyrillic...).
    let mut dense = false;
    let mut i = 0;
    while i + 256 <= n {
        let v = [load(i), load(i + 64), load(i + 128), load(i + 192)];
        let any = _mm512_or_si512(_mm512_or_si512(v[0], v[1]), _mm512_or_si512(v[2], v[3]));
        if _mm512_movepi8_mask(any) == 0 {
            // ASCII: an error if the bytes before end inside a sequence.
            if _mm512_cmpgt_epu8_mask(prev, incomplete_max) != 0 {
                break;
            }
            // (So nothing is pending.)
            for (k, &x) in v.iter().enumerate() {
                store(i + 64 * k, x);
            }
        } else {
            let bad = if dense {
                // After a group without ASCII blocks: the four checked, no other test, while
                // the last block is not ASCII.
                let err = _mm512_or_si512(
                    _mm512_or_si512(
                        check_at(true, i, v[0], prev),
                        check_at(false, i + 64, v[1], v[0]),
                    ),
                    _mm512_or_si512(
                        check_at(false, i + 128, v[2], v[1]),
                        check_at(false, i + 192, v[3], v[2]),
                    ),
                );
                dense = _mm512_movepi8_mask(v[3]) != 0;
                _mm512_test_epi8_mask(err, err)
            } else {
                // Each block after a test for ASCII (as in text mixing markup with non-ASCII).
                // (Written out four times: a loop over the arrays keeps them in memory.)
                let mut err = _mm512_setzero_si512();
                let mut bad = 0u64;
                let mut ascii_blocks = 0;
                let mut block = |first: bool, j: usize, x: __m512i, p: __m512i| {
                    if _mm512_movepi8_mask(x) == 0 {
                        bad |= _mm512_cmpgt_epu8_mask(p, incomplete_max);
                        ascii_blocks += 1;
                    } else {
                        err = _mm512_or_si512(err, check_at(first, j, x, p));
                    }
                };
                block(true, i, v[0], prev);
                block(false, i + 64, v[1], v[0]);
                block(false, i + 128, v[2], v[1]);
                block(false, i + 192, v[3], v[2]);
                dense = ascii_blocks == 0;
                bad | _mm512_test_epi8_mask(err, err)
            };
            if bad != 0 {
                break;
            }
            let lanes = finished(v[3]);
            store_masked(i, v[0], !0, prev, pending);
            store(i + 64, v[1]);
            store(i + 128, v[2]);
            store_masked(i + 192, v[3], lanes, v[2], 0);
            pending = !lanes;
        }
        prev = v[3];
        i += 256;
    }
    // Block by block, the last one loaded masked.
    while i < n {
        let lanes = first_lanes64(n - i);
        // SAFETY: the lanes of `lanes` are bytes i..min(i + 64, n) of `src` (the others are
        // not read and are zero).
        let v = unsafe { _mm512_maskz_loadu_epi8(lanes, s.add(i) as *const i8) };
        let bad = if _mm512_movepi8_mask(v) == 0 {
            _mm512_cmpgt_epu8_mask(prev, incomplete_max)
        } else {
            let err = check(v, prev);
            _mm512_test_epi8_mask(err, err)
        };
        if bad != 0 {
            return i;
        }
        // The lanes of `lanes` are bytes i..min(i + 64, n).
        let keep = lanes & finished(v);
        store_masked(i, v, keep, prev, pending);
        pending = lanes & !keep;
        prev = v;
        i += 64;
    }
    n
}
