//! UTF-8 to Latin-1: "UTF-8 decode" then Infra's "isomorphic encode" (each code point below
//! U+0100 as the byte of its value), over the longest prefix that allows it. This is how
//! Python stores text whose characters are all below U+0100 (one byte per character), so a
//! binding can decode such text straight into its string.
//!
//! The AVX2 kernel copies 32 ASCII bytes at a time; a block of sixteen bytes with two-byte
//! sequences (C2 or C3 and a continuation byte) is checked whole, its letters computed in
//! place and the continuation bytes removed by shuffles, then stored with two eight-byte
//! stores that end exactly at the block's last character (a block of sixteen bytes gives at
//! least eight characters). Nothing is written past what the kernel reports as written.

#[cfg(target_arch = "x86_64")]
use super::{level, Level};

/// Decodes the longest prefix of `src` made of ASCII bytes and two-byte sequences for
/// U+0080..U+00FF that fits in `dst`, one byte per character; returns (bytes read, bytes
/// written). `dst` is untouched past the bytes written.
#[inline]
pub(crate) fn utf8_to_isomorphic(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        return x86::utf8_to_isomorphic_avx2(src, dst);
    }
    scalar(src, dst)
}

/// The portable kernel (every level but AVX2), and the definition the others are tested
/// against.
pub(crate) fn scalar(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let (mut i, mut j) = (0, 0);
    while i < src.len() && j < dst.len() {
        if let (Some(word), Some(out)) = (src.get(i..i + 8), dst.get_mut(j..j + 8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            if u64::from_le_bytes(w) & HIGH == 0 {
                out.copy_from_slice(word);
                i += 8;
                j += 8;
                continue;
            }
        }
        let b = src[i];
        if b < 0x80 {
            dst[j] = b;
            i += 1;
        } else if b & 0xFE == 0xC2 && src.get(i + 1).is_some_and(|&c| c & 0xC0 == 0x80) {
            // U+0080..U+00FF: 110000xx 10yyyyyy is xxyyyyyy.
            dst[j] = (b << 6) | (src[i + 1] & 0x3F);
            i += 2;
        } else {
            break;
        }
        j += 1;
    }
    (i, j)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use crate::simd::{detected_level, Level};

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
    pub(super) fn utf8_to_isomorphic_avx2(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        if detected_level() < Level::Avx2 {
            return super::scalar(src, dst);
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
        let (r, w) = super::scalar(&src[i..], &mut dst[j..]);
        (i + r, j + w)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::simd::{detected_level, set_level, Level};
    use std::vec::Vec;

    /// The definition: the spec's UTF-8 decoder's characters, one by one, while each is below
    /// U+0100 and fits.
    fn definition(src: &[u8], room: usize) -> (usize, Vec<u8>) {
        let valid = match core::str::from_utf8(src) {
            Ok(s) => s,
            Err(e) => core::str::from_utf8(&src[..e.valid_up_to()]).unwrap(),
        };
        let (mut read, mut out) = (0, Vec::new());
        for c in valid.chars() {
            if c as u32 > 0xFF || out.len() == room {
                break;
            }
            out.push(c as u32 as u8);
            read += c.len_utf8();
        }
        (read, out)
    }

    fn levels() -> Vec<Level> {
        // Every level of this architecture the CPU has (set_level caps the others).
        let mut v = std::vec![Level::Scalar, Level::Sse2, Level::Avx2, Level::Neon];
        v.retain(|&l| l <= detected_level() && set_level(l) == l);
        v
    }

    #[test]
    fn every_level_agrees_with_the_definition() {
        let pieces: [&[u8]; 12] = [
            b"a",
            b"abcdefghijklmnopq",
            "é".as_bytes(),
            "ÿ".as_bytes(),
            "\u{80}".as_bytes(),
            "ä ö ü ß".as_bytes(),
            "Ā".as_bytes(),
            "火".as_bytes(),
            b"\xC2",
            b"\xC3\x41",
            b"\xC1\xBF",
            b"\xBF",
        ];
        let mut x = 0x1234_5678u32;
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for _ in 0..3000 {
            let mut v = Vec::new();
            let len = crate::xorshift32(&mut x) % 120;
            while v.len() < len as usize {
                let r = crate::xorshift32(&mut x) as usize;
                // Mostly text that converts, sometimes a piece that stops it.
                let k = if r.is_multiple_of(16) {
                    r / 16 % 12
                } else {
                    r / 16 % 6
                };
                v.extend_from_slice(pieces[k]);
            }
            cases.push(v);
        }
        for k in 0..64 {
            // A two-byte sequence at every place around the block edges.
            let mut v = std::vec![b'x'; k];
            v.extend_from_slice("é".as_bytes());
            v.extend(std::iter::repeat_n(b'y', 70));
            cases.push(v);
        }
        let before = crate::simd::level();
        for level in levels() {
            set_level(level);
            for case in &cases {
                for room in [
                    0,
                    1,
                    7,
                    8,
                    15,
                    16,
                    17,
                    31,
                    32,
                    33,
                    case.len() / 2,
                    case.len(),
                ] {
                    let (read, want) = definition(case, room);
                    let mut dst = std::vec![0xA5u8; room + 40];
                    let (r, w) = utf8_to_isomorphic(case, &mut dst[..room]);
                    assert_eq!(
                        (r, &dst[..w]),
                        (read, &want[..]),
                        "{level:?} {case:?} {room}"
                    );
                    assert!(dst[w..].iter().all(|&b| b == 0xA5), "{level:?} {case:?}");
                }
            }
        }
        set_level(before);
    }
}
