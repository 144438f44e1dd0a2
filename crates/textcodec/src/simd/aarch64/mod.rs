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

mod ascii;
mod single_byte;
mod utf16_to_utf8;
mod utf8_to_utf16;
mod utf8_validate;
pub(crate) use ascii::*;
pub(crate) use single_byte::*;
pub(crate) use utf16_to_utf8::*;
pub(crate) use utf8_to_utf16::*;
pub(crate) use utf8_validate::*;

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
