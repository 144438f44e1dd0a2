//! Fast paths for the hot loops, behind one interface. This module is the only place in the
//! crate allowed to contain `unsafe` code; every block carries a `// SAFETY:` comment.
//!
//! Each kernel has a portable scalar implementation, which is always compiled and tested;
//! vector implementations are chosen at run time from the CPU's features.

/// Copies the longest ASCII prefix of `src` that fits in `dst` as bytes; returns its length.
#[inline]
pub(crate) fn copy_ascii_to_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    scalar::copy_ascii_to_ascii(src, dst)
}

/// Copies the longest ASCII prefix of `src` that fits in `dst` as bytes; returns its length.
#[inline]
pub(crate) fn copy_ascii_to_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    scalar::copy_ascii_to_ascii(src, dst)
}

/// Widens the longest ASCII prefix of `src` that fits in `dst`; returns its length.
#[inline]
pub(crate) fn copy_ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    scalar::copy_ascii_to_utf16(src, dst)
}

/// Narrows the longest prefix of `src` below U+0080 that fits in `dst`; returns its length.
#[inline]
pub(crate) fn copy_utf16_ascii_to_ascii(src: &[u16], dst: &mut [u8]) -> usize {
    scalar::copy_utf16_ascii_to_ascii(src, dst)
}

/// Portable implementations: word-at-a-time, no `unsafe`.
pub(crate) mod scalar {
    const WORD: usize = 8;
    const HIGH: u64 = 0x8080_8080_8080_8080;

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
}
