//! The single-byte decoders' blocks: widening with a non-ASCII mask, byte runs that map
//! to a run of code points (NEON).

use super::*;

/// Widens 16 bytes to 16 units; returns the mask of bytes at or above 0x80 (NEON).
#[inline]
pub(crate) fn widen16_neon(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    if !has_neon() {
        return scalar::widen16(src, dst);
    }
    // SAFETY: NEON is present.
    unsafe { widen16_neon_impl(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn widen16_neon_impl(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    // SAFETY: `src` is 16 readable bytes and `dst` 16 writable units; no alignment requirement.
    let v = unsafe { vld1q_u8(src.as_ptr()) };
    // SAFETY: as above; the second store is units 8..16 of `dst`.
    unsafe {
        vst1q_u16(dst.as_mut_ptr(), vmovl_u8(vget_low_u8(v)));
        vst1q_u16(dst.as_mut_ptr().add(8), vmovl_high_u8(v));
    }
    movemask(vcltzq_s8(vreinterpretq_s8_u8(v)))
}

/// [`super::widen16_runs`] (NEON).
#[inline]
pub(crate) fn widen16_runs_neon(src: &[u8; 16], dst: &mut [u16; 16], runs: &[ByteRun; 2]) -> u32 {
    if !has_neon() {
        return scalar::widen16_runs(src, dst, runs);
    }
    // SAFETY: NEON is present.
    unsafe { widen16_runs_neon_impl(src, dst, runs) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn widen16_runs_neon_impl(
    src: &[u8; 16],
    dst: &mut [u16; 16],
    runs: &[ByteRun; 2],
) -> u32 {
    // SAFETY: `src` is 16 readable bytes; no alignment requirement.
    let v = unsafe { vld1q_u8(src.as_ptr()) };
    let (mut lo, mut hi) = (vmovl_u8(vget_low_u8(v)), vmovl_high_u8(v));
    let non_ascii = movemask(vcltzq_s8(vreinterpretq_s8_u8(v)));
    let mut covered = 0;
    if non_ascii & non_ascii.wrapping_sub(1) != 0 {
        for r in runs {
            // In the run: byte - lo (mod 256) is at most span.
            let inside = vcleq_u8(vsubq_u8(v, vdupq_n_u8(r.lo)), vdupq_n_u8(r.span));
            let delta = vdupq_n_u16(r.delta);
            let wide_lo = vreinterpretq_u16_s16(vmovl_s8(vreinterpret_s8_u8(vget_low_u8(inside))));
            let wide_hi = vreinterpretq_u16_s16(vmovl_high_s8(vreinterpretq_s8_u8(inside)));
            lo = vaddq_u16(lo, vandq_u16(wide_lo, delta));
            hi = vaddq_u16(hi, vandq_u16(wide_hi, delta));
            covered |= movemask(inside);
        }
    }
    // SAFETY: `dst` is 16 writable units; the second store is units 8..16.
    unsafe {
        vst1q_u16(dst.as_mut_ptr(), lo);
        vst1q_u16(dst.as_mut_ptr().add(8), hi);
    }
    non_ascii & !covered
}
