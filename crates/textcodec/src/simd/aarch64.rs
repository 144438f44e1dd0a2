//! NEON (Advanced SIMD) kernels for aarch64. Each public function here is safe: it checks that
//! NEON is available (a compile-time constant on every aarch64 target that enables it, which
//! is all the usual ones) and that the slices have the lengths the `unsafe` body relies on, and
//! otherwise falls back to the scalar kernel. Every kernel gives exactly the scalar kernel's
//! result (prefix length, stopping point and output); the tests compare them on every level.

use core::arch::aarch64::*;

use super::lookup::{
    Pack, BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH, KEEP_U16_LANES, PACK_1_2_3, TAIL_SHIFT,
};
use super::{detected_level, scalar, ByteRun, Level};

#[inline(always)]
fn has_neon() -> bool {
    detected_level() == Level::Neon
}

/// A bit per byte of `m` (bit `k` for byte `k`) whose lanes are all-ones or all-zeros.
#[inline]
#[target_feature(enable = "neon")]
fn movemask(m: uint8x16_t) -> u32 {
    let weights = vcombine_u8(
        vcreate_u8(0x8040_2010_0804_0201),
        vcreate_u8(0x8040_2010_0804_0201),
    );
    let bits = vandq_u8(m, weights);
    vaddv_u8(vget_low_u8(bits)) as u32 | (vaddv_u8(vget_high_u8(bits)) as u32) << 8
}

/// The index of the first byte of `v` at or above 0x80 (16 if none).
#[inline]
#[target_feature(enable = "neon")]
fn first_non_ascii(v: uint8x16_t) -> usize {
    let high = vcltzq_s8(vreinterpretq_s8_u8(v));
    // Four bits per byte: the shift-right-and-narrow keeps the high nibble of each even byte
    // and the low nibble of each odd one.
    let nibbles = vshrn_n_u16::<4>(vreinterpretq_u16_u8(high));
    (vget_lane_u64::<0>(vreinterpret_u64_u8(nibbles)).trailing_zeros() / 4) as usize
}

/// A 16-byte table for `vqtbl1q_u8`.
#[inline]
#[target_feature(enable = "neon")]
fn table(t: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `t` is 16 readable bytes; `vld1q_u8` has no alignment requirement.
    unsafe { vld1q_u8(t.as_ptr()) }
}

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
unsafe fn copy_ascii_neon_impl(src: &[u8], dst: &mut [u8]) -> usize {
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
unsafe fn widen_ascii_neon_impl(src: &[u8], dst: &mut [u16]) -> usize {
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
unsafe fn widen16_neon_impl(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
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
unsafe fn widen16_runs_neon_impl(src: &[u8; 16], dst: &mut [u16; 16], runs: &[ByteRun; 2]) -> u32 {
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
unsafe fn narrow_ascii_neon_impl(src: &[u16], dst: &mut [u8]) -> usize {
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
unsafe fn narrow_utf16_bytes_neon_impl<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
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
fn check_block(
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
const INCOMPLETE_MAX: [u8; 16] = {
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
unsafe fn validate_blocks_neon(src: &[u8], dst: &mut [u8], tail: &mut u32) -> usize {
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

/// The caller's 16 bytes at the end of a kernel's output (`v`, at byte `at` of it), which the
/// kernel's compacting stores may write over (they write 16 bytes and count the first few),
/// put back when the kernel returns: so the kernel writes nothing past its output.
///
/// Before each block's stores the kernel advances it to where the block's output will end;
/// the block's stores must start at or before that end and write at most 16 bytes past it
/// (or output only). The bytes before the old `at + 16` come from those kept (what is there
/// may be a store's), the others from the destination, where nothing has been stored yet.
#[derive(Clone, Copy)]
struct Ahead {
    v: uint8x16_t,
    at: usize,
}

/// Per shift `k` (0 to 16), at `k`: the table that moves the first `k` bytes of a vector to
/// its last `k` places (zeros before them, out-of-range indices giving zero).
static ALIGN_HIGH: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut k = 0;
    while k < 16 {
        t[16 + k] = k as u8;
        k += 1;
    }
    t
};

impl Ahead {
    /// For a kernel whose output starts at `d`.
    ///
    /// # Safety
    /// NEON must be present; the 16 bytes at `d` readable.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn new(d: *const u8) -> Ahead {
        // SAFETY: the caller's contract; no alignment requirement.
        let v = unsafe { vld1q_u8(d) };
        Ahead { v, at: 0 }
    }

    /// Before stores whose output ends at byte `end` (not before `at`).
    ///
    /// # Safety
    /// NEON must be present; the 16 bytes at `d + end` and at `d + at + 16` readable.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn advance(&mut self, d: *const u8, end: usize) {
        let k = end - self.at;
        // SAFETY: the caller's contract; no alignment requirement (16 bytes of the tables at
        // `k < 16` are within them).
        self.v = unsafe {
            if k >= 16 {
                vld1q_u8(d.add(end))
            } else {
                let next = vld1q_u8(d.add(self.at + 16));
                vorrq_u8(
                    vqtbl1q_u8(self.v, vld1q_u8(TAIL_SHIFT.as_ptr().add(k))),
                    vqtbl1q_u8(next, vld1q_u8(ALIGN_HIGH.as_ptr().add(k))),
                )
            }
        };
        self.at = end;
    }

    /// After the bytes were put back and output stored up to `end` (nothing past it).
    ///
    /// # Safety
    /// NEON must be present; the 16 bytes at `d + end` readable.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn renew(&mut self, d: *const u8, end: usize) {
        // SAFETY: the caller's contract.
        self.v = unsafe { vld1q_u8(d.add(end)) };
        self.at = end;
    }

    /// Puts the bytes back.
    ///
    /// # Safety
    /// NEON must be present; the 16 bytes at `d + at` writable.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn restore(&self, d: *mut u8) {
        // SAFETY: the caller's contract.
        unsafe { vst1q_u8(d.add(self.at), self.v) };
    }
}

/// Four code units (in 32-bit lanes, none a surrogate) as UTF-8, each lane holding its one to
/// three bytes from the lowest; and the `PACK_1_2_3` entry that compacts them.
#[inline]
#[target_feature(enable = "neon")]
fn utf8_lanes(u: uint32x4_t) -> (uint8x16_t, &'static Pack) {
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
unsafe fn utf16_bytes_to_utf8_neon_impl<const BE: bool>(
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

/// UTF-8 to UTF-16, sixteen input bytes at a time, for blocks of one-, two- and three-byte
/// characters that the spec's UTF-8 decoder accepts (NEON); returns (bytes read, units
/// written). `src` must start at a character boundary. Stops, leaving the rest to the caller,
/// at a block holding anything else (a four-byte sequence, an error), when fewer than 16 input
/// bytes remain, or when `dst` has fewer than 24 units of room (16 for the output of a block,
/// 8 for what its stores write past it, put back).
#[inline]
pub(crate) fn utf8_to_utf16_neon(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    if !has_neon() {
        return (0, 0);
    }
    // SAFETY: NEON is present.
    unsafe { utf8_to_utf16_neon_impl(src, dst) }
}

/// The code units of the eight lanes of one half of a block: `b`, `next1`, `next2` the bytes
/// at, one after and two after each position (widened), `lead2`/`lead3` all-ones on two- and
/// three-byte leads.
#[inline]
#[target_feature(enable = "neon")]
fn utf16_values(
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
unsafe fn utf8_to_utf16_neon_impl(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
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
