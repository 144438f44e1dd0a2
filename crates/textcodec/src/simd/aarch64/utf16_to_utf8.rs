//! UTF-16 to UTF-8 (NEON).

use super::*;

/// Four code units (in 32-bit lanes, none a surrogate) as UTF-8, each lane holding its one to
/// three bytes from the lowest; and the `PACK_1_2_3` entry that compacts them.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn utf8_lanes(u: uint32x4_t) -> (uint8x16_t, &'static Pack) {
    let ge80 = vcgtq_u32(u, vdupq_n_u32(0x7F));
    let ge800 = vcgtq_u32(u, vdupq_n_u32(0x7FF));
    let cont = vdupq_n_u32(0x80);
    let low6 = vdupq_n_u32(0x3F);
    let two = vorrq_u32(
        vorrq_u32(vshrq_n_u32::<6>(u), vdupq_n_u32(0xC0)),
        vshlq_n_u32::<8>(vorrq_u32(vandq_u32(u, low6), cont)),
    );
    let three = vorrq_u32(
        vorrq_u32(vshrq_n_u32::<12>(u), vdupq_n_u32(0xE0)),
        vorrq_u32(
            vshlq_n_u32::<8>(vorrq_u32(vandq_u32(vshrq_n_u32::<6>(u), low6), cont)),
            vshlq_n_u32::<16>(vorrq_u32(vandq_u32(u, low6), cont)),
        ),
    );
    let lanes = vbslq_u32(ge80, vbslq_u32(ge800, three, two), u);
    // The key `ge80 | ge800 << 4`, a bit per lane.
    let w80 = vcombine_u32(vcreate_u32(1 | 2 << 32), vcreate_u32(4 | 8 << 32));
    let w800 = vshlq_n_u32::<4>(w80);
    let key = vaddvq_u32(vorrq_u32(vandq_u32(ge80, w80), vandq_u32(ge800, w800)));
    (vreinterpretq_u8_u32(lanes), &PACK_1_2_3[key as usize])
}

/// UTF-16 (big-endian if `BE`) to UTF-8, eight code units at a time, for blocks without
/// surrogates (NEON); returns (bytes read, bytes written). Stops at a block with a surrogate
/// or when `dst` has fewer than 48 bytes of room (32 for the output of a block, 16 for what
/// its stores write past it, put back); the last fewer than eight units of a `src`
/// of at least sixteen bytes are converted too (by a load of the sixteen bytes before their
/// end) unless one of them is a surrogate.
#[inline]
pub(crate) fn utf16_bytes_to_utf8_neon<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    if !has_neon() {
        return (0, 0);
    }
    // SAFETY: NEON is present.
    unsafe { utf16_bytes_to_utf8_neon_impl::<BE>(src, dst) }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn utf16_bytes_to_utf8_neon_impl<const BE: bool>(
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut o) = (0usize, 0usize);
    let room = dst.len().saturating_sub(16);
    if room < 32 {
        return (0, 0);
    }
    // SAFETY: dst has at least 48 bytes.
    let mut ahead = unsafe { Ahead::new(d) };
    while i + 16 <= src.len() && o + 32 <= room {
        // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; no alignment requirement.
        let mut v = unsafe { vld1q_u8(s.add(i)) };
        if BE {
            v = vrev16q_u8(v);
        }
        let u = vreinterpretq_u16_u8(v);
        // Any surrogate (0xD800..=0xDFFF) ends the fast path.
        let sur = vceqq_u16(vandq_u16(u, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
        if vmaxvq_u16(sur) != 0 {
            break;
        }
        if vmaxvq_u16(u) < 0x80 {
            // ASCII: narrow as long as it lasts (at least these eight units).
            // SAFETY: the kept bytes are within dst.
            unsafe { ahead.restore(d) };
            let k = narrow_utf16_bytes_neon::<BE>(&src[i..], &mut dst[o..room]);
            i += 2 * k;
            o += k;
            // SAFETY: o <= room.
            unsafe { ahead.renew(d, o) };
            continue;
        }
        let (lo, lo_pack) = utf8_lanes(vmovl_u16(vget_low_u16(u)));
        let (hi, hi_pack) = utf8_lanes(vmovl_high_u16(u));
        let (l, h) = (lo_pack.len as usize, hi_pack.len as usize);
        // SAFETY: the shuffles are 16 readable bytes; o + 32 <= room and a pack keeps at most
        // 12 bytes, so both 16-byte stores are in bounds (and end at most 12 bytes past the
        // output); no alignment requirement.
        unsafe {
            ahead.advance(d, o + l + h);
            vst1q_u8(d.add(o), vqtbl1q_u8(lo, table(&lo_pack.shuffle)));
            vst1q_u8(d.add(o + l), vqtbl1q_u8(hi, table(&hi_pack.shuffle)));
        }
        o += l + h;
        i += 16;
    }
    // Fewer than eight whole units left: loaded as the last sixteen bytes before their end,
    // moved to the front (zero units after them, each one byte of output to leave out).
    let r = (src.len() - i) / 2;
    if r > 0 && r < 8 && i + 2 * r >= 16 && o + 32 <= room {
        // SAFETY: 16 <= i + 2r <= src.len(): the 16 bytes before i + 2r are readable; r < 8,
        // so the 16 bytes of TAIL_SHIFT at 16 - 2r are in bounds; no alignment requirement.
        let mut v = unsafe {
            vqtbl1q_u8(
                vld1q_u8(s.add(i + 2 * r - 16)),
                vld1q_u8(TAIL_SHIFT.as_ptr().add(16 - 2 * r)),
            )
        };
        if BE {
            v = vrev16q_u8(v);
        }
        let u = vreinterpretq_u16_u8(v);
        let sur = vceqq_u16(vandq_u16(u, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
        if vmaxvq_u16(sur) == 0 {
            let (lo, lo_pack) = utf8_lanes(vmovl_u16(vget_low_u16(u)));
            let (hi, hi_pack) = utf8_lanes(vmovl_high_u16(u));
            // Into a buffer (the zero units' bytes end it), then the bytes that count.
            let mut buf = [0u8; 32];
            let w = lo_pack.len as usize;
            // SAFETY: a pack keeps at most 12 bytes, so both 16-byte stores are within `buf`.
            unsafe {
                vst1q_u8(buf.as_mut_ptr(), vqtbl1q_u8(lo, table(&lo_pack.shuffle)));
                vst1q_u8(
                    buf.as_mut_ptr().add(w),
                    vqtbl1q_u8(hi, table(&hi_pack.shuffle)),
                );
            }
            let w = w + hi_pack.len as usize - (8 - r);
            // SAFETY: the kept bytes are within dst.
            unsafe { ahead.restore(d) };
            dst[o..o + w].copy_from_slice(&buf[..w]);
            o += w;
            i += 2 * r;
            // SAFETY: o <= room.
            unsafe { ahead.renew(d, o) };
        }
    }
    // SAFETY: the kept bytes are within dst.
    unsafe { ahead.restore(d) };
    (i, o)
}
