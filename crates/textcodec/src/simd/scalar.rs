//! The portable kernels: the reference every SIMD kernel is tested against, and the level
//! `Scalar`.

const WORD: usize = 8;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Copies the ASCII prefix of `src` (`dst` at least as long); returns its length.
#[inline]
pub(crate) fn copy_ascii_to_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let mut i = 0;
    while i + WORD <= n {
        let w = u64::from_le_bytes(src[i..i + WORD].try_into().unwrap());
        if w & HIGH != 0 {
            break;
        }
        dst[i..i + WORD].copy_from_slice(&src[i..i + WORD]);
        i += WORD;
    }
    while i < n && src[i] < 0x80 {
        dst[i] = src[i];
        i += 1;
    }
    i
}

#[inline]
pub(crate) fn copy_ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let mut i = 0;
    while i + WORD <= n {
        let w = u64::from_le_bytes(src[i..i + WORD].try_into().unwrap());
        if w & HIGH != 0 {
            break;
        }
        for (d, &s) in dst[i..i + WORD].iter_mut().zip(&src[i..i + WORD]) {
            *d = s as u16;
        }
        i += WORD;
    }
    while i < n && src[i] < 0x80 {
        dst[i] = src[i] as u16;
        i += 1;
    }
    i
}

#[inline]
pub(crate) fn copy_utf16_ascii_to_ascii(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i < n && src[i] < 0x80 {
        dst[i] = src[i] as u8;
        i += 1;
    }
    i
}

#[inline]
pub(crate) fn copy_utf16_bytes_ascii<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = (src.len() / 2).min(dst.len());
    let mut i = 0;
    while i < n {
        let pair = [src[2 * i], src[2 * i + 1]];
        let u = if BE {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        };
        if u >= 0x80 {
            break;
        }
        dst[i] = u as u8;
        i += 1;
    }
    i
}

/// Widens 16 bytes to 16 units; returns the mask of the bytes at or above 0x80.
#[inline(always)]
pub(crate) fn widen16(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    let mut mask = 0;
    for (k, (d, &b)) in dst.iter_mut().zip(src).enumerate() {
        *d = b as u16;
        mask |= ((b >> 7) as u32) << k;
    }
    mask
}

/// [`super::widen16_runs`], a byte at a time.
#[inline]
pub(crate) fn widen16_runs(src: &[u8; 16], dst: &mut [u16; 16], runs: &[super::ByteRun; 2]) -> u32 {
    let non_ascii = widen16(src, dst);
    if non_ascii & non_ascii.wrapping_sub(1) == 0 {
        return non_ascii;
    }
    let mut mask = 0;
    for (k, (d, &b)) in dst.iter_mut().zip(src).enumerate() {
        let mut covered = b < 0x80;
        for r in runs {
            if b.wrapping_sub(r.lo) <= r.span {
                *d = (b as u16).wrapping_add(r.delta);
                covered = true;
            }
        }
        mask |= (!covered as u32) << k;
    }
    mask
}

/// The length of the longest prefix of `src` that is complete, valid UTF-8.
#[inline]
pub(crate) fn valid_utf8_prefix(src: &[u8]) -> usize {
    match core::str::from_utf8(src) {
        Ok(_) => src.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// Copies the longest prefix of `src` that is complete, valid UTF-8; returns its length.
#[inline]
pub(crate) fn copy_valid_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let v = valid_utf8_prefix(&src[..n]);
    dst[..v].copy_from_slice(&src[..v]);
    v
}

/// The mask of the bytes at or above 0x80 (bit `k` for byte `k`).
#[inline(always)]
pub(crate) fn non_ascii_mask16(src: &[u8; 16]) -> u32 {
    let mut mask = 0;
    for (k, &b) in src.iter().enumerate() {
        mask |= ((b >> 7) as u32) << k;
    }
    mask
}

/// [`super::utf8_to_isomorphic`], the portable kernel (every level but AVX2).
pub(crate) fn utf8_to_isomorphic(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
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
