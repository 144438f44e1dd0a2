//! Narrowing UTF-16 to a single-byte encoding over the code points that encode as their own
//! value (ASCII, and for Latin encodings most of U+00A0..U+00FF): mostly-Latin-1 text is then
//! one SIMD narrow, without a table lookup per accented letter.

/// The code points of U+0080..U+00FF that a single-byte encoding encodes as the byte of the
/// same value (ASCII always does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Latin1Set {
    /// Bit `b & 7` of byte `(b >> 3) & 15` is set if `b` (0x80..=0xFF) is in the set.
    pub(crate) bits: [u8; 16],
    /// The longest run `lo..=hi` of the set, for the SSE2 kernel, which tests a range;
    /// `0..=0x7F` (ASCII again) if the set is empty.
    pub(crate) lo: u16,
    pub(crate) hi: u16,
}

impl Latin1Set {
    /// The set of the bytes `b` (0x80..=0xFF) for which `own[b - 0x80]`.
    pub(crate) const fn new(own: &[bool; 128]) -> Self {
        let mut bits = [0u8; 16];
        let (mut lo, mut hi) = (0u16, 0x7Fu16);
        let mut run_start = 0;
        let mut b = 0x80;
        while b < 0x100 {
            if own[b - 0x80] {
                bits[(b >> 3) & 15] |= 1 << (b & 7);
                if b == 0x80 || !own[b - 0x81] {
                    run_start = b;
                }
                if b - run_start > (hi - lo) as usize || hi < 0x80 {
                    (lo, hi) = (run_start as u16, b as u16);
                }
            }
            b += 1;
        }
        Latin1Set { bits, lo, hi }
    }

    /// Whether `u` encodes as its own value (the AVX2 kernel's and the scalar test).
    #[inline(always)]
    pub(crate) const fn contains(&self, u: u16) -> bool {
        u < 0x80 || (u < 0x100 && (self.bits[(u as usize >> 3) & 15] >> (u & 7)) & 1 != 0)
    }

    /// Whether `u` is ASCII or in `lo..=hi` (the SSE2 kernel's test; a subset of the set).
    #[cfg(all(test, feature = "std", target_arch = "x86_64"))]
    pub(crate) const fn in_range(&self, u: u16) -> bool {
        u < 0x80 || (self.lo <= u && u <= self.hi)
    }
}

/// Narrows the longest prefix of `src` that fits in `dst` and whose units encode as their own
/// value, by `set`; returns its length. With SSE2 only the range `set.lo..=set.hi` is tested
/// (it may stop earlier, at a unit of the set outside the range); the other levels stop
/// exactly at the first unit not in the set. Bytes of `dst` after the prefix, within
/// `src.len()`, may be overwritten.
#[inline(always)]
pub(crate) fn narrow_latin1(src: &[u16], dst: &mut [u8], set: &Latin1Set) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    kernels! {
        "x86_64" if n >= 16 => {
            Avx2 | Avx512 => super::x86::narrow_latin1_avx2(src, dst, set),
            Sse2 => super::x86::narrow_latin1_sse2(src, dst, set),
            Scalar | Neon => narrow_latin1_scalar(src, dst, set),
        }
        _ => narrow_latin1_scalar(src, dst, set)
    }
}

/// The portable [`narrow_latin1`]: exact, unit by unit.
#[inline]
pub(crate) fn narrow_latin1_scalar(src: &[u16], dst: &mut [u8], set: &Latin1Set) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i < n && set.contains(src[i]) {
        dst[i] = src[i] as u8;
        i += 1;
    }
    i
}

/// For 32 bytes of UTF-8: the masks of the bytes at or above 0x80 (not ASCII) and of those at
/// or above 0xC0 (the lead bytes of characters of two bytes or more), eight bytes at a time.
#[inline(always)]
pub(crate) fn utf8_masks32(block: &[u8; 32]) -> (u32, u32) {
    let mut high = 0;
    let mut leads = 0;
    for k in 0..4 {
        let w = u64::from_le_bytes(block[8 * k..8 * k + 8].try_into().unwrap());
        // Bit 7 of each byte (and bit 7 of each byte where bit 6 is also set, moved up by the
        // shift, which stays within the byte), gathered into the top byte by the multiply.
        let h = (w & 0x8080_8080_8080_8080) >> 7;
        let l = (w & (w << 1) & 0x8080_8080_8080_8080) >> 7;
        high |= ((h.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * k);
        leads |= ((l.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * k);
    }
    (high, leads)
}

/// Encodes UTF-8 to a single-byte encoding where `low` (the byte of each code point below
/// U+0800, 0 for none) says, over ASCII and two-byte characters, in blocks of 32 bytes while
/// 64 bytes of input and of output remain; returns (bytes read, bytes written), stopping at a
/// character boundary: before a character of three bytes or more, a two-byte character `low`
/// does not map, or where fewer than 64 bytes of input or of output remain. Nothing after the
/// bytes written is modified. `None` where the level has no kernel (scalar, NEON).
#[inline(always)]
pub(crate) fn encode_utf8_low(
    src: &[u8],
    dst: &mut [u8],
    low: &[u8; 0x800],
) -> Option<(usize, usize)> {
    kernels! {
        "x86_64" if true => {
            Avx2 | Avx512 => Some(super::x86::encode_utf8_low_avx2(src, dst, low)),
            Sse2 => Some(super::x86::encode_utf8_low_sse2(src, dst, low)),
        }
        _ => {
            let _ = (src, dst, low);
            None
        }
    }
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::simd::{detected_level, x86, Level};

    use crate::xorshift32 as rng;

    /// The longest prefix passing `test`, narrowed unit by unit.
    fn reference(src: &[u16], dst: &mut [u8], test: impl Fn(u16) -> bool) -> usize {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i < n && test(src[i]) {
            dst[i] = src[i] as u8;
            i += 1;
        }
        i
    }

    #[test]
    fn set_construction() {
        let mut own = [false; 128];
        let s = Latin1Set::new(&own);
        assert_eq!((s.lo, s.hi, s.bits), (0, 0x7F, [0; 16]));
        for b in [0x81, 0x8D, 0x8F, 0x90, 0x9D] {
            own[b - 0x80] = true;
        }
        for b in 0xA0..0x100 {
            own[b - 0x80] = true;
        }
        let s = Latin1Set::new(&own);
        assert_eq!((s.lo, s.hi), (0xA0, 0xFF));
        for u in 0..0x200u16 {
            let want = u < 0x80 || (u < 0x100 && own[(u as usize).wrapping_sub(0x80) & 0x7F]);
            assert_eq!(s.contains(u), want, "{u:#x}");
        }
        own[0xE5 - 0x80] = false;
        let s = Latin1Set::new(&own);
        assert_eq!((s.lo, s.hi), (0xA0, 0xE4));
        assert!(!s.contains(0xE5) && s.contains(0xE6) && !s.in_range(0xE6));
        own[0xB0 - 0x80] = false;
        let s = Latin1Set::new(&own);
        assert_eq!((s.lo, s.hi), (0xB1, 0xE4));
    }

    /// Random mixes of ASCII, members, non-members below U+0100 and units above, at every
    /// offset and output length, against the unit-by-unit test, for each level's kernel.
    #[test]
    fn kernels_agree_with_the_unit_by_unit_test() {
        let mut x: u32 = 0x1357_9BDF;
        for round in 0..3000 {
            let mut own = [false; 128];
            for (k, o) in own.iter_mut().enumerate() {
                // Windows-1252-like sets, sets with holes, random sets.
                *o = match round % 3 {
                    0 => k >= 0x20,
                    1 => k >= 0x20 && !rng(&mut x).is_multiple_of(9),
                    _ => rng(&mut x).is_multiple_of(2),
                };
            }
            let set = Latin1Set::new(&own);
            let len = rng(&mut x) as usize % 80;
            let src: std::vec::Vec<u16> = (0..len)
                .map(|_| {
                    let r = rng(&mut x);
                    match r % 40 {
                        0 => [
                            0x0100, 0x7F00, 0xFF00, 0x8000, 0xFFFF, 0xD800, 0x20AC, 0x17F,
                        ][(r >> 8) as usize % 8],
                        1..=3 => 0x80 + (r >> 8) as u16 % 0x80,
                        4 => [0, 0x7F, 0x80, 0xFF, 0xA0, 0x9F][(r >> 8) as usize % 6],
                        _ => (r >> 8) as u16 % 0x80,
                    }
                })
                .collect();
            for start in 0..len.min(20) {
                let s = &src[start..];
                for room in [s.len(), s.len().saturating_sub(1), s.len() / 2, 16, 17] {
                    let mut want = std::vec![0u8; room];
                    let exact = reference(s, &mut want, |u| set.contains(u));
                    let ranged = reference(s, &mut want.clone(), |u| set.in_range(u));
                    let mut got = std::vec![0xEEu8; room];
                    assert_eq!(narrow_latin1_scalar(s, &mut got, &set), exact);
                    assert_eq!(got[..exact], want[..exact]);
                    let n = s.len().min(room);
                    let (s, got) = (&s[..n], &mut got[..n]);
                    assert_eq!(x86::narrow_latin1_sse2(s, got, &set), ranged);
                    assert_eq!(got[..ranged], want[..ranged], "sse2");
                    if detected_level() >= Level::Avx2 {
                        assert_eq!(x86::narrow_latin1_avx2(s, got, &set), exact);
                        assert_eq!(got[..exact], want[..exact], "avx2 {s:04X?}");
                    }
                    got.fill(0xEE);
                    let k = narrow_latin1(s, got, &set);
                    assert!(k == exact || k == ranged, "dispatch");
                    assert_eq!(got[..k], want[..k]);
                }
            }
        }
    }

    /// The UTF-16-to-UTF-8 kernel's blocks of sixteen units below U+0800 (ASCII and two-byte
    /// characters, compacted by a shuffle), with three-byte characters and surrogates now and
    /// then, at every offset and output length, against the standard library.
    #[test]
    fn utf16_to_utf8_latin_blocks_agree_with_std() {
        if detected_level() < Level::Avx2 {
            return;
        }
        let mut x: u32 = 0x2468_ACE1;
        for round in 0..1500usize {
            let len = 16 + rng(&mut x) as usize % 100;
            let units: std::vec::Vec<u16> = (0..len)
                .map(|_| {
                    let r = rng(&mut x);
                    match r % (20 + (round % 200) as u32) {
                        0 => 0x800 + (r >> 8) as u16 % 0xD000,
                        1 => 0xD800 + (r >> 8) as u16 % 0x800,
                        2..=5 => 0x80 + (r >> 8) as u16 % 0x780,
                        6 => [0x7F, 0x80, 0x7FF, 0, 0xFF][(r >> 8) as usize % 5],
                        _ => (r >> 8) as u16 % 0x80,
                    }
                })
                .collect();
            for start in 0..8.min(len) {
                let u = &units[start..];
                for be in [false, true] {
                    let bytes: std::vec::Vec<u8> = u
                        .iter()
                        .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                        .collect();
                    for room in (0..3 * u.len() + 4).step_by(1 + round % 7) {
                        let mut dst = std::vec![0u8; room];
                        let (r, w) = if be {
                            x86::utf16_bytes_to_utf8_avx2::<true>(&bytes, &mut dst)
                        } else {
                            x86::utf16_bytes_to_utf8_avx2::<false>(&bytes, &mut dst)
                        };
                        assert_eq!(r % 2, 0);
                        assert!(r <= bytes.len() && w <= room);
                        let want = std::string::String::from_utf16(&u[..r / 2]).unwrap();
                        assert_eq!(&dst[..w], want.as_bytes(), "{be} {:04X?}", &u[..r / 2]);
                        if room >= 3 * u.len() + 32 && r + 64 <= bytes.len() {
                            // With room it only stops at a surrogate in the next blocks.
                            assert!(u[r / 2..r / 2 + 16]
                                .iter()
                                .any(|u| (0xD800..0xE000).contains(u)));
                        }
                    }
                }
            }
        }
    }
}
