//! UTF-8 to UTF-16 (NEON).

use super::*;

/// UTF-8 to UTF-16, sixteen input bytes at a time, for blocks of one-, two- and three-byte
/// characters that the spec's UTF-8 decoder accepts (NEON); returns (bytes read, units
/// written). `src` must start at a character boundary. Stops, leaving the rest to the caller,
/// at a block holding anything else (a four-byte sequence, an error), when fewer than 16 input
/// bytes remain, or when `dst` has fewer than 24 units of room (16 for the output of a block,
/// 8 for what its stores write past it, put back).
#[inline]
pub(crate) fn utf8_to_utf16_neon(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    if !has_neon() {
        return (0, 0);
    }
    let src = &src[start..];
    // SAFETY: NEON is present.
    unsafe { utf8_to_utf16_neon_impl(src, dst) }
}

/// The code units of the eight lanes of one half of a block: `b`, `next1`, `next2` the bytes
/// at, one after and two after each position (widened), `lead2`/`lead3` all-ones on two- and
/// three-byte leads.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn utf16_values(
    b: uint16x8_t,
    next1: uint16x8_t,
    next2: uint16x8_t,
    lead2: uint16x8_t,
    lead3: uint16x8_t,
) -> uint8x16_t {
    let low6 = vdupq_n_u16(0x3F);
    let v2 = vorrq_u16(
        vshlq_n_u16::<6>(vandq_u16(b, vdupq_n_u16(0x1F))),
        vandq_u16(next1, low6),
    );
    let v3 = vorrq_u16(
        vorrq_u16(
            vshlq_n_u16::<12>(b),
            vshlq_n_u16::<6>(vandq_u16(next1, low6)),
        ),
        vandq_u16(next2, low6),
    );
    vreinterpretq_u8_u16(vbslq_u16(lead3, v3, vbslq_u16(lead2, v2, b)))
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn utf8_to_utf16_neon_impl(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut o) = (0usize, 0usize);
    let room = dst.len().saturating_sub(8);
    if room < 16 {
        return (0, 0);
    }
    let base = d as *mut u8;
    // SAFETY: dst has at least 24 units.
    let mut ahead = unsafe { Ahead::new(base) };
    while i + 16 <= src.len() && o + 16 <= room {
        // SAFETY: i + 16 <= src.len(): the 16 bytes at i are readable; no alignment requirement.
        let b = unsafe { vld1q_u8(s.add(i)) };
        if vmaxvq_u8(b) < 0x80 {
            // Sixteen ASCII bytes.
            // SAFETY: o + 16 <= room: 16 units at o are writable, and 8 after them readable.
            unsafe {
                ahead.advance(base, 2 * (o + 16));
                vst1q_u16(d.add(o), vmovl_u8(vget_low_u8(b)));
                vst1q_u16(d.add(o + 8), vmovl_high_u8(b));
            }
            i += 16;
            o += 16;
            continue;
        }
        let lead2 = vceqq_u8(vandq_u8(b, vdupq_n_u8(0xE0)), vdupq_n_u8(0xC0));
        let lead3 = vceqq_u8(vandq_u8(b, vdupq_n_u8(0xF0)), vdupq_n_u8(0xE0));
        let cont = vceqq_u8(vandq_u8(b, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80));
        // Four-byte leads, invalid bytes F5..FF, and the overlong leads C0 and C1 are left to
        // the scalar path.
        let four = vcgeq_u8(b, vdupq_n_u8(0xF0));
        let c0c1 = vceqq_u8(vandq_u8(b, vdupq_n_u8(0xFE)), vdupq_n_u8(0xC0));
        if vmaxvq_u8(vorrq_u8(four, c0c1)) != 0 {
            break;
        }
        let l2 = movemask(lead2);
        let l3 = movemask(lead3);
        let c = movemask(cont);
        // Continuation bytes must be exactly those the leads call for.
        let expected = ((l2 << 1) | (l3 << 1) | (l3 << 2)) & 0xFFFF;
        if c != expected || (l2 | l3) & expected != 0 {
            break;
        }
        // A character that runs past the block is left for the next one.
        let end = if l3 & 1 << 14 != 0 {
            14
        } else if (l2 | l3) & 1 << 15 != 0 {
            15
        } else {
            16
        };
        let zero = vdupq_n_u8(0);
        let next1 = vextq_u8::<1>(b, zero);
        let next2 = vextq_u8::<2>(b, zero);
        // "UTF-8 lower boundary" 0xA0 after 0xE0 and "upper boundary" 0x9F after 0xED.
        let low_next = vcleq_u8(next1, vdupq_n_u8(0x9F));
        let bad = vorrq_u8(
            vbicq_u8(vceqq_u8(b, vdupq_n_u8(0xED)), low_next),
            vandq_u8(low_next, vceqq_u8(b, vdupq_n_u8(0xE0))),
        );
        if movemask(bad) & ((1u32 << end) - 1) != 0 {
            break;
        }
        // The lead masks widened to 16-bit lanes by pairing each byte with itself.
        let values_lo = utf16_values(
            vmovl_u8(vget_low_u8(b)),
            vmovl_u8(vget_low_u8(next1)),
            vmovl_u8(vget_low_u8(next2)),
            vreinterpretq_u16_u8(vzip1q_u8(lead2, lead2)),
            vreinterpretq_u16_u8(vzip1q_u8(lead3, lead3)),
        );
        let values_hi = utf16_values(
            vmovl_high_u8(b),
            vmovl_high_u8(next1),
            vmovl_high_u8(next2),
            vreinterpretq_u16_u8(vzip2q_u8(lead2, lead2)),
            vreinterpretq_u16_u8(vzip2q_u8(lead3, lead3)),
        );
        // Drop the lanes of continuation bytes and of bytes past `end`.
        let drop = c | (0xFFFF & !((1u32 << end) - 1));
        let lo = &KEEP_U16_LANES[(drop & 0xFF) as usize];
        let hi = &KEEP_U16_LANES[(drop >> 8) as usize];
        let (l, h) = (lo.len as usize, hi.len as usize);
        // SAFETY: the shuffles are 16 readable bytes; o + 16 <= room and a pack keeps at most 8
        // units, so both 8-unit (16-byte) stores are in bounds (and end at most 8 units past
        // the output); `d` is a `*mut u16`, so the `vst1q_u16` stores are naturally aligned.
        unsafe {
            ahead.advance(base, 2 * (o + l + h));
            let packed_lo = vqtbl1q_u8(values_lo, table(&lo.shuffle));
            vst1q_u16(d.add(o), vreinterpretq_u16_u8(packed_lo));
            let packed_hi = vqtbl1q_u8(values_hi, table(&hi.shuffle));
            vst1q_u16(d.add(o + l), vreinterpretq_u16_u8(packed_hi));
        }
        o += l + h;
        i += end;
    }
    // SAFETY: the kept bytes are within dst.
    unsafe { ahead.restore(base) };
    (i, o)
}
