//! The caller's values that a kernel's fixed-size stores overwrite past its output, kept and
//! put back: no unit of a caller's buffer past what a call reports as written is modified
//! (the crate documentation, "Streaming"), while the kernels keep their wide stores, which write a
//! whole vector or word and count only its first units.

use core::mem::MaybeUninit;

/// How many units a store may reach past the end of the output (see [`Spill`]).
pub(crate) const REACH: usize = 96;

/// The values of a destination at and after a kernel's output, kept before the first store
/// that reaches them and put back when the kernel returns.
///
/// A kernel calls [`cover`](Spill::cover) before each store that may write past the end of
/// its output, with the end of the output so far (where the store starts, or after) and the
/// store's end, at most [`REACH`] units after it; and [`restore`](Spill::restore) with the
/// end of its output before it returns. Stores of output only (none of it past the end of the
/// output after them) need no `cover`.
///
/// The values are kept in chunks of 32 units, the last four at a time, in a [`Ring`] of the
/// kernel's (apart, so that the positions stay in registers).
pub(crate) struct Spill<'r, T> {
    /// Where the chunks start.
    start: usize,
    /// The end of the last chunk kept: no store has reached it.
    kept: usize,
    /// The last four chunks, at `(position - start) % 128` (the chunks before `kept` that
    /// are within the destination are initialized).
    ring: &'r mut Ring<T>,
}

/// The room for the values a [`Spill`] keeps.
pub(crate) struct Ring<T>([MaybeUninit<T>; 128]);

impl<T: Copy> Ring<T> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Ring([MaybeUninit::uninit(); 128])
    }
}

impl<'r, T: Copy> Spill<'r, T> {
    /// For a kernel whose output starts at `start`, keeping the values in `ring`.
    #[inline(always)]
    pub(crate) fn new(start: usize, ring: &'r mut Ring<T>) -> Self {
        Spill {
            start,
            kept: start,
            ring,
        }
    }

    /// Before a store that starts at or before `o`, the end of the output so far, and ends at
    /// `end` (at most [`REACH`] units after `o`): keeps what it may overwrite for the first
    /// time.
    #[inline(always)]
    pub(crate) fn cover(&mut self, dst: &[T], o: usize, end: usize) {
        debug_assert!(end <= o + REACH);
        if self.kept < end {
            self.extend(dst, o, end);
        }
    }

    /// [`cover`](Spill::cover) when the store reaches what is not kept yet.
    #[inline(always)]
    fn extend(&mut self, dst: &[T], o: usize, end: usize) {
        if self.kept < o {
            // Output has been written past what was kept (by stores of output only): nothing
            // from `o` on has been stored to, and the chunks start again from there.
            self.start = o;
            self.kept = o;
        }
        while self.kept < end {
            self.keep(dst);
        }
    }

    /// Keeps the next chunk (what of it is within `dst`).
    #[inline(always)]
    fn keep(&mut self, dst: &[T]) {
        let at = (self.kept - self.start) & 127;
        if let Some(chunk) = dst.get(self.kept..self.kept + 32) {
            // SAFETY: `at` is a multiple of 32 below 128, so the 32 slots at `at` are in the
            // ring; `MaybeUninit<T>` has `T`'s layout, and the ring is not `dst`.
            unsafe {
                let v = core::ptr::read_unaligned(chunk.as_ptr() as *const [T; 32]);
                core::ptr::write_unaligned(self.ring.0.as_mut_ptr().add(at) as *mut [T; 32], v);
            }
        } else {
            self.keep_end(dst, at);
        }
        self.kept += 32;
    }

    /// [`keep`](Spill::keep) for the last chunk, cut short by the end of the destination.
    #[cold]
    #[inline(never)]
    fn keep_end(&mut self, dst: &[T], at: usize) {
        let from = self.kept.min(dst.len());
        for (k, &u) in dst[from..].iter().take(32).enumerate() {
            self.ring.0[at + k] = MaybeUninit::new(u);
        }
    }

    /// Puts back the kept values from `end` (the end of the output) on.
    #[inline]
    pub(crate) fn restore(&self, dst: &mut [T], end: usize) {
        let stop = self.kept.min(dst.len());
        if end >= stop {
            return;
        }
        assert!(
            end >= self.start && self.kept - end <= 128,
            "a store reached more than REACH units past the output"
        );
        // At most two pieces of the ring, every slot of which was kept: the positions
        // `end..stop` are within the last four chunks and within `dst`.
        let at = (end - self.start) & 127;
        let first = (stop - end).min(128 - at);
        let rest = stop - end - first;
        // SAFETY: the slots `at..at + first` and `..rest` of the ring hold the kept values of
        // `dst[end..stop]` (initialized, see above); `MaybeUninit<T>` has `T`'s layout; the
        // ring is not `dst`; `stop <= dst.len()`.
        unsafe {
            let ring = self.ring.0.as_ptr() as *const T;
            let d = dst.as_mut_ptr();
            core::ptr::copy_nonoverlapping(ring.add(at), d.add(end), first);
            core::ptr::copy_nonoverlapping(ring, d.add(end + first), rest);
        }
    }
}

/// The caller's values past the output of a block loop whose stores each start at most at
/// the output's end and reach at most 32 bytes past the output's end after them, and whose
/// blocks add at most 32 bytes of output: past the output at a block's start `w` nothing
/// from `w + 32` on has been stored to, and a block's stores reach at most `w + 64`.
///
/// Cheaper than a [`Spill`] for such loops: one fixed-size copy before a block that may
/// store past its output ([`before`](Window::before)), one after it
/// ([`after`](Window::after)), none for a block whose stores end at its output's end
/// ([`exact`](Window::exact)), and one on return.
pub(crate) struct Window {
    /// The caller's values of `w..w + 64` during a block starting at `w`; of `w..w + 32`
    /// between blocks when `held`.
    kept: [u8; 64],
    /// Whether anything past the output has been stored to (since the last
    /// [`exact`](Window::exact) block).
    held: bool,
}

impl Window {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Window {
            kept: [0; 64],
            held: false,
        }
    }

    /// Before a block starting at the output's end `w` whose stores may reach past its
    /// output (at most to `w + 64`, which must be within `dst`).
    #[inline(always)]
    pub(crate) fn before(&mut self, dst: &[u8], w: usize) {
        let d: &[u8; 64] = dst[w..w + 64].try_into().unwrap();
        if !self.held {
            self.kept[..32].copy_from_slice(&d[..32]);
        }
        self.kept[32..].copy_from_slice(&d[32..]);
    }

    /// After the block of [`before`](Window::before) from `w`: its output ends at `o`, at
    /// most `w + 32`.
    #[inline(always)]
    pub(crate) fn after(&mut self, w: usize, o: usize) {
        let carry: [u8; 32] = self.kept[(o - w).min(32)..][..32].try_into().unwrap();
        self.kept[..32].copy_from_slice(&carry);
        self.held = true;
    }

    /// After a block whose stores all end at or before its output's end.
    #[inline(always)]
    pub(crate) fn exact(&mut self) {
        self.held = false;
    }

    /// Puts back the caller's values past the output's end `o` when returning from within
    /// the block of [`before`](Window::before) from `w` (`w <= o <= w + 32`).
    #[inline]
    pub(crate) fn restore_block(&self, dst: &mut [u8], w: usize, o: usize) {
        // Two fixed-size copies, `o..o + 32` and `w + 32..w + 64` (overlapping with the
        // same values), rather than a call to `memcpy`.
        let head: &[u8; 32] = self.kept[(o - w).min(32)..][..32].try_into().unwrap();
        dst[o..o + 32].copy_from_slice(head);
        dst[w + 32..w + 64].copy_from_slice(&self.kept[32..]);
    }

    /// Puts back the caller's values past the output's end `w` between blocks.
    #[inline(always)]
    pub(crate) fn restore(&self, dst: &mut [u8], w: usize) {
        if self.held {
            dst[w..w + 32].copy_from_slice(&self.kept[..32]);
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::{Spill, REACH};

    /// Random stores that start at or before the output's end and reach at most REACH past
    /// it, and stores of output only: after `restore`, everything from the output's end on
    /// is as it was.
    #[test]
    fn stores_past_the_output_are_undone() {
        let mut x: u32 = 0x5EED_5911;
        let mut next = move |n: usize| crate::xorshift32(&mut x) as usize % n;
        for round in 0..3000 {
            let len = 40 + next(400);
            let before: std::vec::Vec<u16> = (0..len).map(|_| next(65536) as u16).collect();
            let mut dst = before.clone();
            let start = next(8);
            let mut ring = super::Ring::new();
            let mut spill = Spill::new(start, &mut ring);
            let mut o = start;
            loop {
                let from = o - next(o - start + 1).min(4);
                let end = o + 1 + next(if round % 2 == 0 { 32 } else { REACH });
                if end > len {
                    break;
                }
                spill.cover(&dst, o, end);
                for u in &mut dst[from..end] {
                    *u = 0xEEEE;
                }
                // The output advances by at most the store's reach, sometimes by nothing.
                o += next(end - o + 1);
                if next(5) == 0 {
                    // Output written by stores of output only.
                    let k = next(40);
                    if o + k < len {
                        for u in &mut dst[o..o + k] {
                            *u = 0xDDDD;
                        }
                        o += k;
                    }
                }
                if next(12) == 0 {
                    break;
                }
            }
            spill.restore(&mut dst, o);
            assert_eq!(dst[o..], before[o..], "round {round}");
        }
    }
}
