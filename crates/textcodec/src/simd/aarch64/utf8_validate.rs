//! UTF-8 validation while copying, by lookup tables over nibbles (NEON).

use super::*;

/// Copies the longest prefix of `src` that is complete, valid UTF-8 (NEON); returns its length.
///
/// The same algorithm as the AVX2 kernel (Keiser and Lemire's lookup validator, with `tbl` for
/// `pshufb`) on 16-byte blocks: a block with a flag is not copied, and the exact end of the
/// valid prefix is found by the scalar validator from the last character boundary before it.
#[inline]
pub(crate) fn copy_valid_utf8_neon(src: &[u8], dst: &mut [u8]) -> usize {
    if !has_neon() || dst.len() < src.len() {
        return scalar::copy_valid_utf8(src, dst);
    }
    let mut tail = 0u32;
    // SAFETY: NEON is present and `dst` is at least as long as `src`.
    let checked = unsafe { validate_blocks_neon(src, dst, &mut tail) };
    // Everything before `checked` is valid except, possibly, an incomplete last character:
    // restart at the last character boundary.
    let mut b = checked;
    for j in (checked.saturating_sub(4)..checked).rev() {
        if src[j] & 0xC0 != 0x80 {
            if src[j] >= 0xC0 {
                b = j;
            }
            break;
        }
    }
    if b < checked {
        // The last block copied ends inside a character, which may not be complete: its
        // bytes there are put back (the last block's last four bytes were kept in `tail`).
        let kept = tail.to_le_bytes();
        dst[b..checked].copy_from_slice(&kept[4 - (checked - b)..]);
    }
    b + scalar::copy_valid_utf8(&src[b..], &mut dst[b..])
}

/// The flags of malformed pairs and triples in `input`, given the block before it.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn check_block(
    input: uint8x16_t,
    prev_input: uint8x16_t,
    t1h: uint8x16_t,
    t1l: uint8x16_t,
    t2h: uint8x16_t,
) -> uint8x16_t {
    let prev1 = vextq_u8::<15>(prev_input, input);
    let prev2 = vextq_u8::<14>(prev_input, input);
    let prev3 = vextq_u8::<13>(prev_input, input);
    let byte_1_high = vqtbl1q_u8(t1h, vshrq_n_u8::<4>(prev1));
    let byte_1_low = vqtbl1q_u8(t1l, vandq_u8(prev1, vdupq_n_u8(0x0F)));
    let byte_2_high = vqtbl1q_u8(t2h, vshrq_n_u8::<4>(input));
    let special = vandq_u8(vandq_u8(byte_1_high, byte_1_low), byte_2_high);
    // Bytes that must be the second continuation of a three- or four-byte sequence, or the
    // third of a four-byte one.
    let is_third = vqsubq_u8(prev2, vdupq_n_u8(0xE0 - 0x80));
    let is_fourth = vqsubq_u8(prev3, vdupq_n_u8(0xF0 - 0x80));
    let must23_80 = vandq_u8(vorrq_u8(is_third, is_fourth), vdupq_n_u8(0x80));
    veorq_u8(must23_80, special)
}

/// Per position, the largest byte that does not start a sequence running past the end of a
/// 16-byte block.
pub(super) const INCOMPLETE_MAX: [u8; 16] = {
    let mut max = [0xFFu8; 16];
    max[13] = 0xF0 - 1;
    max[14] = 0xE0 - 1;
    max[15] = 0xC0 - 1;
    max
};

/// Validates and copies whole 16-byte blocks; returns the length of the blocks that passed,
/// which is where the last block copied ends; `tail` keeps the four bytes of `dst` that block
/// overwrote last (to put back if it ends inside a character that is not complete).
#[target_feature(enable = "neon")]
pub(super) unsafe fn validate_blocks_neon(src: &[u8], dst: &mut [u8], tail: &mut u32) -> usize {
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (t1h, t1l, t2h) = (table(&BYTE_1_HIGH), table(&BYTE_1_LOW), table(&BYTE_2_HIGH));
    let incomplete_max = table(&INCOMPLETE_MAX);
    let mut prev_input = vdupq_n_u8(0);
    let mut prev_incomplete = vdupq_n_u8(0);
    let mut i = 0;
    // 32 bytes at a time: one test for ASCII, one for errors.
    while i + 32 <= n {
        // SAFETY: i + 32 <= n = src.len() <= dst.len() (the caller's contract): the 32 bytes at
        // i are in bounds of both; no alignment requirement.
        let (a, b) = unsafe { (vld1q_u8(s.add(i)), vld1q_u8(s.add(i + 16))) };
        if vmaxvq_u8(vorrq_u8(a, b)) < 0x80 {
            if vmaxvq_u8(prev_incomplete) != 0 {
                break;
            }
        } else {
            let err = vorrq_u8(
                check_block(a, prev_input, t1h, t1l, t2h),
                check_block(b, a, t1h, t1l, t2h),
            );
            if vmaxvq_u8(err) != 0 {
                break;
            }
        }
        // Non-zero where the chunk ends inside a multi-byte sequence.
        prev_incomplete = vqsubq_u8(b, incomplete_max);
        // SAFETY: as for the loads.
        unsafe {
            *tail = core::ptr::read_unaligned(d.add(i + 28) as *const u32);
            vst1q_u8(d.add(i), a);
            vst1q_u8(d.add(i + 16), b);
        }
        prev_input = b;
        i += 32;
    }
    while i + 16 <= n {
        // SAFETY: i + 16 <= n = src.len() <= dst.len() (the caller's contract): the 16 bytes at
        // i are in bounds of both; no alignment requirement.
        let input = unsafe { vld1q_u8(s.add(i)) };
        if vmaxvq_u8(input) < 0x80 {
            if vmaxvq_u8(prev_incomplete) != 0 {
                break;
            }
            prev_incomplete = vdupq_n_u8(0);
        } else {
            let err = check_block(input, prev_input, t1h, t1l, t2h);
            if vmaxvq_u8(err) != 0 {
                break;
            }
            // Non-zero where the block ends inside a multi-byte sequence.
            prev_incomplete = vqsubq_u8(input, incomplete_max);
        }
        // SAFETY: as for the load above.
        unsafe {
            *tail = core::ptr::read_unaligned(d.add(i + 12) as *const u32);
            vst1q_u8(d.add(i), input);
        }
        prev_input = input;
        i += 16;
    }
    i
}
