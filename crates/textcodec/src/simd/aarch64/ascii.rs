//! ASCII runs: copies, widening to UTF-16, narrowing from UTF-16 (NEON).

use super::*;

/// Copies the ASCII prefix of `src` to `dst` (NEON); returns its length.
#[inline]
pub(crate) fn copy_ascii_neon(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_neon() || dst.len() < src.len() {
        return scalar::copy_ascii_to_ascii(src, dst);
    }
    // SAFETY: NEON is present (checked above) and `dst` is at least as long as `src`.
    unsafe { copy_ascii_neon_impl(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn copy_ascii_neon_impl(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len() <= dst.len(): the 32 bytes at i are in bounds of both;
        // NEON loads and stores have no alignment requirement.
        unsafe {
            let a = vld1q_u8(s.add(i));
            let b = vld1q_u8(s.add(i + 16));
            if vmaxvq_u8(vorrq_u8(a, b)) >= 0x80 {
                break;
            }
            vst1q_u8(d.add(i), a);
            vst1q_u8(d.add(i + 16), b);
        }
        i += 32;
    }
    while i + 16 <= n {
        // SAFETY: i + 16 <= n = src.len() <= dst.len(): the 16 bytes at i are in bounds of both,
        // and the k < 16 bytes copied on a non-ASCII byte are among them.
        unsafe {
            let v = vld1q_u8(s.add(i));
            if vmaxvq_u8(v) >= 0x80 {
                let k = first_non_ascii(v);
                core::ptr::copy_nonoverlapping(s.add(i), d.add(i), k);
                return i + k;
            }
            vst1q_u8(d.add(i), v);
        }
        i += 16;
    }
    i + scalar::copy_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Widens the ASCII prefix of `src` into `dst` (NEON); returns its length.
#[inline]
pub(crate) fn widen_ascii_neon(src: &[u8], dst: &mut [u16]) -> usize {
    if !has_neon() || dst.len() < src.len() {
        return scalar::copy_ascii_to_utf16(src, dst);
    }
    // SAFETY: NEON is present and `dst` has at least as many units as `src` has bytes.
    unsafe { widen_ascii_neon_impl(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn widen_ascii_neon_impl(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: bytes i..i+16 of src and units i..i+16 of dst are in bounds (n <= dst.len());
        // no alignment requirement.
        unsafe {
            let v = vld1q_u8(s.add(i));
            if vmaxvq_u8(v) >= 0x80 {
                break;
            }
            vst1q_u16(d.add(i), vmovl_u8(vget_low_u8(v)));
            vst1q_u16(d.add(i + 8), vmovl_high_u8(v));
        }
        i += 16;
    }
    i + scalar::copy_ascii_to_utf16(&src[i..], &mut dst[i..])
}

/// Narrows the prefix of `src` below U+0080 into `dst` (NEON); returns its length.
#[inline]
pub(crate) fn narrow_ascii_neon(src: &[u16], dst: &mut [u8]) -> usize {
    if !has_neon() || dst.len() < src.len() {
        return scalar::copy_utf16_ascii_to_ascii(src, dst);
    }
    // SAFETY: NEON is present and `dst` has at least as many bytes as `src` has units.
    unsafe { narrow_ascii_neon_impl(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn narrow_ascii_neon_impl(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: units i..i+16 of src and bytes i..i+16 of dst are in bounds (n <= dst.len());
        // `vld1q_u16` needs only the units' natural alignment, which a `*const u16` has.
        unsafe {
            let a = vld1q_u16(s.add(i));
            let b = vld1q_u16(s.add(i + 8));
            if vmaxvq_u16(vorrq_u16(a, b)) >= 0x80 {
                break;
            }
            vst1q_u8(d.add(i), vmovn_high_u16(vmovn_u16(a), b));
        }
        i += 16;
    }
    i + scalar::copy_utf16_ascii_to_ascii(&src[i..], &mut dst[i..])
}

/// Narrows ASCII code units from UTF-16 bytes (big-endian if `BE`) into `dst` (NEON);
/// returns the number of units.
#[inline]
pub(crate) fn narrow_utf16_bytes_neon<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_neon() {
        return scalar::copy_utf16_bytes_ascii::<BE>(src, dst);
    }
    // SAFETY: NEON is present.
    unsafe { narrow_utf16_bytes_neon_impl::<BE>(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn narrow_utf16_bytes_neon_impl<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> usize {
    let n = (src.len() / 2).min(dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: bytes 2i..2i+32 of src (2n <= src.len()) and bytes i..i+16 of dst
        // (n <= dst.len()) are in bounds; no alignment requirement.
        unsafe {
            // The even bytes in `.0`, the odd ones in `.1`.
            let pairs = vld2q_u8(s.add(2 * i));
            let (low, high) = if BE {
                (pairs.1, pairs.0)
            } else {
                (pairs.0, pairs.1)
            };
            let bad = vorrq_u8(high, vandq_u8(low, vdupq_n_u8(0x80)));
            if vmaxvq_u8(bad) != 0 {
                break;
            }
            vst1q_u8(d.add(i), low);
        }
        i += 16;
    }
    i + scalar::copy_utf16_bytes_ascii::<BE>(&src[2 * i..], &mut dst[i..])
}
