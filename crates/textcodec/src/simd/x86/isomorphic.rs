//! UTF-8 to Latin-1 ("isomorphic encode" of the decoded text), AVX2.
//!
//! The AVX2 kernel copies 32 ASCII bytes at a time; a block of sixteen bytes with two-byte
//! sequences (C2 or C3 and a continuation byte) is checked whole, its letters computed in
//! place and the continuation bytes removed by shuffles, then stored with two eight-byte
//! stores that end exactly at the block's last character (a block of sixteen bytes gives at
//! least eight characters). Nothing is written past what the kernel reports as written.

use super::*;

/// Shuffles that remove byte `p` of sixteen (the bytes after it move down one).
static REMOVE: [[u8; 16]; 16] = {
    let mut t = [[0x80u8; 16]; 16];
    let mut p = 0;
    while p < 16 {
        let mut k = 0;
        while k < 15 {
            t[p][k] = if k < p { k as u8 } else { k as u8 + 1 };
            k += 1;
        }
        if p == 15 {
            t[p][15] = 0x80;
        }
        p += 1;
    }
    t
};

/// `0..16` then zeros: the sixteen from `r` on move the bytes from `r` to the front.
static FROM: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut k = 0;
    while k < 16 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

#[inline]
pub(crate) fn utf8_to_isomorphic_avx2(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    if !super::has_avx2() {
        return scalar::utf8_to_isomorphic(src, dst);
    }
    // SAFETY: AVX2 is present (checked above); the body checks every length it relies on.
    unsafe { avx2_impl(src, dst) }
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_impl(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let (n, m) = (src.len(), dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut j) = (0, 0);
    loop {
        if i + 32 <= n && j + 32 <= m {
            // SAFETY: the 32 bytes at `i` are in `src` and the 32 at `j` in `dst`
            // (checked just above); unaligned load and store.
            unsafe {
                let v = _mm256_loadu_si256(s.add(i).cast());
                if _mm256_movemask_epi8(v) == 0 {
                    _mm256_storeu_si256(d.add(j).cast(), v);
                    i += 32;
                    j += 32;
                    continue;
                }
            }
        }
        if i + 16 > n || j + 16 > m {
            break;
        }
        // SAFETY: the 16 bytes at `i` are in `src` (checked above); unaligned load.
        let v = unsafe { _mm_loadu_si128(s.add(i).cast()) };
        let high = _mm_movemask_epi8(v) as u32;
        if high == 0 {
            // SAFETY: the 16 bytes at `j` are in `dst` (checked above).
            unsafe { _mm_storeu_si128(d.add(j).cast(), v) };
            i += 16;
            j += 16;
            continue;
        }
        let lead = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xFEu8 as i8)),
            _mm_set1_epi8(0xC2u8 as i8),
        );
        // 0x80..=0xBF are the signed bytes below -64.
        let cont = _mm_cmplt_epi8(v, _mm_set1_epi8(-64));
        let leads = _mm_movemask_epi8(lead) as u32;
        let conts = _mm_movemask_epi8(cont) as u32;
        // Every byte that is not ASCII is a lead (C2, C3) or a continuation, and the
        // continuations are exactly the bytes after the leads (a lead in the last place
        // waits for the next block). Anything else: the scalar kernel finds the end.
        if leads | conts != high || conts != (leads << 1) & 0xFFFF {
            break;
        }
        let len = if leads & 0x8000 != 0 { 15 } else { 16 };
        // A lead's letter: 0x80 | (lead & 1) << 6 | (next & 0x3F).
        let next = _mm_srli_si128::<1>(v);
        let letter = _mm_or_si128(
            _mm_or_si128(
                _mm_set1_epi8(0x80u8 as i8),
                _mm_slli_epi16::<6>(_mm_and_si128(v, _mm_set1_epi8(1))),
            ),
            _mm_and_si128(next, _mm_set1_epi8(0x3F)),
        );
        let mut out = _mm_blendv_epi8(v, letter, lead);
        // The continuations removed, the last first (the places before it stay put).
        let mut rest = conts;
        while rest != 0 {
            let p = 31 - rest.leading_zeros() as usize;
            // SAFETY: `p < 16`: REMOVE[p] is 16 bytes; unaligned load.
            out = _mm_shuffle_epi8(out, unsafe { _mm_loadu_si128(REMOVE[p].as_ptr().cast()) });
            rest &= !(1 << p);
        }
        // At most one continuation per two bytes: 8 <= count <= 16.
        let count = len - conts.count_ones() as usize;
        // SAFETY: `count - 8 <= 8`, so the 16 bytes of FROM at `count - 8` are in it.
        let tail = _mm_shuffle_epi8(out, unsafe {
            _mm_loadu_si128(FROM.as_ptr().add(count - 8).cast())
        });
        // SAFETY: `j + 16 <= m` (checked above) and `8 <= count <= 16`: the eight bytes at
        // `j` and the eight at `j + count - 8` are in `dst`, and both lie within the
        // `count` bytes this block writes.
        unsafe {
            _mm_storel_epi64(d.add(j).cast(), out);
            _mm_storel_epi64(d.add(j + count - 8).cast(), tail);
        }
        i += len;
        j += count;
    }
    let (r, w) = scalar::utf8_to_isomorphic(&src[i..], &mut dst[j..]);
    (i + r, j + w)
}
