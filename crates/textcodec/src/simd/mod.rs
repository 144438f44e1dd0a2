//! Fast paths for the hot loops, behind one interface. This module is the only place in the
//! crate allowed to contain `unsafe` code; every block carries a `// SAFETY:` comment.
//!
//! Each kernel has a portable scalar implementation ([`scalar`]), always compiled and tested,
//! x86-64 implementations for SSE2, AVX2 and, for some, AVX-512 (`x86`;
//! `scripts/test-avx512.sh` runs their tests under an emulator on machines without it) and
//! aarch64 implementations for NEON (`aarch64`; `scripts/test-aarch64.sh` runs the test suite
//! under qemu). The level is detected once at run time (with the `std` feature; without it,
//! from the compile-time target features) and can be forced lower for testing with
//! [`set_level`].

use core::sync::atomic::{AtomicU8, Ordering};

/// A SIMD dispatch level.
///
/// Each architecture has its own levels above `Scalar`: `Sse2` < `Avx2` < `Avx512` on x86-64,
/// `Neon` on aarch64. Only `Scalar` and the current architecture's levels are ever in use; the order
/// between levels of different architectures means nothing.
///
/// ```
/// use textcodec::dispatch::{detected_level, Level};
/// assert!(detected_level() >= Level::Scalar);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Level {
    /// Portable code only.
    Scalar = 1,
    /// x86-64 SSE2 (the x86-64 baseline).
    Sse2 = 2,
    /// x86-64 AVX2.
    Avx2 = 3,
    /// aarch64 Advanced SIMD (NEON), part of every aarch64 Linux, Android, macOS and Windows
    /// target (used on little-endian aarch64; big-endian keeps the scalar code).
    Neon = 4,
    /// x86-64 AVX-512: the foundation (F), byte and word (BW), vector length (VL), vector byte
    /// manipulation (VBMI: `vpermb`, `vpermt2b`) and its second set (VBMI2: `vpcompressb`,
    /// `vpcompressw`) extensions, with AVX2, POPCNT, BMI1, BMI2 and LZCNT (which every such
    /// CPU has): Ice Lake, Tiger Lake, Sapphire Rapids, AMD Zen 4 and later (Skylake-X and
    /// Cascade Lake, without VBMI and VBMI2, use `Avx2`).
    Avx512 = 5,
}

impl Level {
    /// Whether this is a level of the architecture compiled for (`Scalar` is of every one).
    const fn is_native(self) -> bool {
        match self {
            Level::Scalar => true,
            Level::Sse2 | Level::Avx2 | Level::Avx512 => cfg!(target_arch = "x86_64"),
            Level::Neon => cfg!(target_arch = "aarch64"),
        }
    }
}

/// The levels of the architecture compiled for, lowest first (whether or not this CPU has
/// them: those above [`detected_level`] are not).
///
/// ```
/// use textcodec::dispatch::{detected_level, native_levels, Level};
/// assert_eq!(native_levels()[0], Level::Scalar);
/// assert!(native_levels().contains(&detected_level()));
/// ```
pub const fn native_levels() -> &'static [Level] {
    if cfg!(target_arch = "x86_64") {
        &[Level::Scalar, Level::Sse2, Level::Avx2, Level::Avx512]
    } else if cfg!(target_arch = "aarch64") {
        &[Level::Scalar, Level::Neon]
    } else {
        &[Level::Scalar]
    }
}

const UNKNOWN: u8 = 0;
static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The best level this CPU supports.
///
/// ```
/// let best = textcodec::dispatch::detected_level();
/// assert!(textcodec::dispatch::level() <= best);
/// ```
pub fn detected_level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        // AVX-512: exactly the extensions its kernels enable (`x86::AVX512`).
        #[cfg(feature = "std")]
        {
            if std::is_x86_feature_detected!("avx2") {
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512vbmi")
                    && std::is_x86_feature_detected!("avx512vbmi2")
                    && std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("lzcnt")
                {
                    return Level::Avx512;
                }
                return Level::Avx2;
            }
        }
        #[cfg(not(feature = "std"))]
        {
            if cfg!(target_feature = "avx2") {
                if cfg!(all(
                    target_feature = "avx512f",
                    target_feature = "avx512bw",
                    target_feature = "avx512vl",
                    target_feature = "avx512vbmi",
                    target_feature = "avx512vbmi2",
                    target_feature = "popcnt",
                    target_feature = "bmi1",
                    target_feature = "bmi2",
                    target_feature = "lzcnt"
                )) {
                    return Level::Avx512;
                }
                return Level::Avx2;
            }
        }
        Level::Sse2
    }
    #[cfg(target_arch = "aarch64")]
    {
        // The NEON kernels reinterpret byte vectors as 16- and 32-bit lanes assuming
        // little-endian lane order: big-endian aarch64 keeps the scalar code.
        if cfg!(target_endian = "big") {
            return Level::Scalar;
        }
        if cfg!(target_feature = "neon") {
            return Level::Neon;
        }
        #[cfg(feature = "std")]
        {
            if std::arch::is_aarch64_feature_detected!("neon") {
                return Level::Neon;
            }
        }
        Level::Scalar
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Level::Scalar
    }
}

/// [`detected_level`]'s answer once asked (`UNKNOWN` before), for the kernels that check
/// the CPU themselves on every call (x86's AVX-512 ones): a load and a compare, where
/// `detected_level` runs its feature tests each time.
#[cfg(target_arch = "x86_64")]
static DETECTED: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether [`detected_level`] is `level`: asked on the first call, then remembered.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn detected_is(level: Level) -> bool {
    let known = DETECTED.load(Ordering::Relaxed);
    known == level as u8 || (known == UNKNOWN && remember_detected_level() == level)
}

/// [`detected_is`]'s first call: asks [`detected_level`] and remembers the answer.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn remember_detected_level() -> Level {
    let l = detected_level();
    DETECTED.store(l as u8, Ordering::Relaxed);
    l
}

/// The level in use.
///
/// ```
/// let _in_use = textcodec::dispatch::level();
/// ```
#[inline(always)]
pub fn level() -> Level {
    // Only this architecture's levels are decoded (`set_level` stores no other), so that the
    // dispatching `match`es see no other.
    match LEVEL.load(Ordering::Relaxed) {
        1 => Level::Scalar,
        #[cfg(target_arch = "x86_64")]
        2 => Level::Sse2,
        #[cfg(target_arch = "x86_64")]
        3 => Level::Avx2,
        #[cfg(target_arch = "x86_64")]
        5 => Level::Avx512,
        #[cfg(target_arch = "aarch64")]
        4 => Level::Neon,
        _ => {
            let l = detected_level();
            LEVEL.store(l as u8, Ordering::Relaxed);
            l
        }
    }
}

/// Forces the dispatch level (capped at what the CPU supports); returns the level now in use.
/// For tests and benchmarks: every level must give the same results. A level of another
/// architecture (`Neon` on x86-64, `Sse2`, `Avx2` or `Avx512` on aarch64) is not supported:
/// it gives `Scalar`.
///
/// ```
/// use textcodec::dispatch::{set_level, Level};
/// let best = textcodec::dispatch::detected_level();
/// assert_eq!(set_level(Level::Scalar), Level::Scalar);
/// set_level(best);
/// ```
pub fn set_level(wanted: Level) -> Level {
    let l = if wanted.is_native() {
        wanted.min(detected_level())
    } else {
        Level::Scalar
    };
    LEVEL.store(l as u8, Ordering::Relaxed);
    l
}

/// One operation's table of kernels: for each architecture, a guard (the input sizes its
/// kernels take) and the kernel of each level; where no row applies (another level, another
/// architecture, a short input), the fallback after `_`. The level is read only once the
/// guard holds, so short inputs pay nothing for the dispatch. (A row may name the scalar
/// kernel for the levels without one: the same result as the fallback, in a shape the
/// compiler lays out better in some callers' loops, by the instruction counts.)
macro_rules! kernels {
    (
        $($arch:literal if $guard:expr => { $($($lvl:ident)|+ => $call:expr,)+ })*
        _ => $fallback:expr
    ) => {{
        $(
            #[cfg(target_arch = $arch)]
            if $guard {
                match $crate::simd::level() {
                    $($($crate::simd::Level::$lvl)|+ => return $call,)+
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }
        )*
        $fallback
    }};
}

/// Copies the longest ASCII prefix of `src` that fits in `dst` as bytes; returns its length.
#[inline(always)]
pub(crate) fn copy_ascii_to_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    copy_ascii_to_ascii(src, dst)
}

/// Copies the longest ASCII prefix of `src` that fits in `dst`; returns its length.
///
/// The ASCII copy, widening ([`copy_ascii_to_utf16`]) and narrowing
/// ([`copy_utf16_ascii_to_ascii`]) take the AVX2 kernels at the AVX-512 level. Their callers
/// mostly copy short runs (between CJK characters, between the tags of HTML), where the time
/// goes in the chain from a run's start to its length, on which the next step waits:
/// AVX-512's masked load (under a mask computed from the length) and the mask of the bytes
/// that are not ASCII moved back from a mask register lengthened it. By the clock (fastest
/// of 16 interleaved runs, against bf60dc6, which has no AVX-512 level): Big5 HTML to
/// UTF-16 1.27 with the AVX-512 kernel, 1.04 with a full load where 64 bytes remain, 0.95
/// with AVX2's; English HTML from windows-1252 to UTF-8 1.13 -> 0.98. Long runs gained
/// nothing measurable from 64 bytes a step. The rows stay merged (`Avx2 | Avx512`): with
/// the AVX-512 row apart and the widening and narrowing behind wrappers out of line, the
/// callers counted up to 2.7 % fewer instructions at AVX2 but took 1.3 to 1.5 times as long
/// at both levels (Big5 HTML and ISO-2022-JP to UTF-16, by criterion): their layout.
#[inline(always)]
pub(crate) fn copy_ascii_to_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    kernels! {
        "x86_64" if n >= 16 => {
            Avx2 | Avx512 => x86::copy_ascii_avx2(src, dst),
            Sse2 => x86::copy_ascii_sse2(src, dst),
            Scalar | Neon => scalar::copy_ascii_to_ascii(src, dst),
        }
        "aarch64" if n >= 16 => {
            Neon => aarch64::copy_ascii_neon(src, dst),
        }
        _ => scalar::copy_ascii_to_ascii(src, dst)
    }
}

/// Widens the longest ASCII prefix of `src` that fits in `dst`; returns its length.
#[inline(always)]
pub(crate) fn copy_ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    kernels! {
        "x86_64" if n >= 16 => {
            Avx2 | Avx512 => x86::widen_ascii_avx2(src, dst),
            Sse2 => x86::widen_ascii_sse2(src, dst),
            Scalar | Neon => scalar::copy_ascii_to_utf16(src, dst),
        }
        "aarch64" if n >= 16 => {
            Neon => aarch64::widen_ascii_neon(src, dst),
        }
        _ => scalar::copy_ascii_to_utf16(src, dst)
    }
}

/// Narrows the longest prefix of `src` below U+0080 that fits in `dst`; returns its length.
#[inline(always)]
pub(crate) fn copy_utf16_ascii_to_ascii(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    kernels! {
        "x86_64" if n >= 16 => {
            Avx2 | Avx512 => x86::narrow_ascii_avx2(src, dst),
            Sse2 => x86::narrow_ascii_sse2(src, dst),
            Scalar | Neon => scalar::copy_utf16_ascii_to_ascii(src, dst),
        }
        "aarch64" if n >= 16 => {
            Neon => aarch64::narrow_ascii_neon(src, dst),
        }
        _ => scalar::copy_utf16_ascii_to_ascii(src, dst)
    }
}

/// Narrows the longest run of ASCII code units at the start of UTF-16 bytes `src` (big-endian
/// if `BE`) into `dst`; returns the number of units (bytes written).
#[inline(always)]
pub(crate) fn copy_utf16_bytes_ascii<const BE: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let n = (src.len() / 2).min(dst.len());
    let (src, dst) = (&src[..2 * n], &mut dst[..n]);
    kernels! {
        "x86_64" if n >= 16 => {
            Avx512 => x86::narrow_utf16_bytes_avx512::<BE>(src, dst),
            Avx2 => x86::narrow_utf16_bytes_avx2::<BE>(src, dst),
            Sse2 => x86::narrow_utf16_bytes_sse2::<BE>(src, dst),
        }
        "aarch64" if n >= 16 => {
            Neon => aarch64::narrow_utf16_bytes_neon::<BE>(src, dst),
        }
        _ => scalar::copy_utf16_bytes_ascii::<BE>(src, dst)
    }
}

/// UTF-16 bytes (big-endian if `BE`) to UTF-8 in blocks of eight code units without
/// surrogates; returns (bytes read, bytes written). May do nothing; the caller finishes.
#[inline(always)]
pub(crate) fn utf16_bytes_to_utf8<const BE: bool>(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    kernels! {
        "x86_64" if src.len() >= 16 => {
            Avx512 => x86::utf16_bytes_to_utf8_avx512::<BE>(src, dst),
            Avx2 => x86::utf16_bytes_to_utf8_avx2::<BE>(src, dst),
        }
        "aarch64" if src.len() >= 16 => {
            Neon => aarch64::utf16_bytes_to_utf8_neon::<BE>(src, dst),
        }
        _ => {
            let _ = (src, dst);
            (0, 0)
        }
    }
}

/// UTF-8 to UTF-16 in blocks of sixteen bytes of one- to three-byte characters, from
/// `src[start..]` (a character boundary; `start <= src.len()`); the kernels may read the bytes
/// of `src` before `start` (the AVX2 one converts the last fewer than sixteen bytes of a `src`
/// of at least sixteen). Returns (bytes read from `start`, units written); may do nothing.
#[inline(always)]
pub(crate) fn utf8_to_utf16(src: &[u8], start: usize, dst: &mut [u16]) -> (usize, usize) {
    kernels! {
        "x86_64" if src.len() >= 16 => {
            Avx512 => x86::utf8_to_utf16_avx512(src, start, dst),
            Avx2 => x86::utf8_to_utf16_avx2(src, start, dst),
        }
        "aarch64" if src.len() >= start + 16 => {
            Neon => aarch64::utf8_to_utf16_neon(src, start, dst),
        }
        _ => {
            let _ = (src, start, dst);
            (0, 0)
        }
    }
}

/// Copies the longest prefix of `src` that is complete, valid UTF-8 (by the spec's UTF-8
/// decoder: it ends at a character boundary) and fits in `dst`; returns its length.
#[inline(always)]
pub(crate) fn copy_valid_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    kernels! {
        "x86_64" if true => {
            Avx512 => x86::copy_valid_utf8_avx512(src, dst),
            Avx2 => if n >= 64 {
                x86::copy_valid_utf8_avx2(src, dst)
            } else {
                x86::copy_valid_utf8_short_avx2(src, dst)
            },
        }
        "aarch64" if n >= 32 => {
            Neon => aarch64::copy_valid_utf8_neon(src, dst),
        }
        _ => scalar::copy_valid_utf8(src, dst)
    }
}

/// The length of the longest prefix of `src` that is complete, valid UTF-8.
#[inline]
pub(crate) fn valid_utf8_prefix(src: &[u8]) -> usize {
    kernels! {
        "x86_64" if true => {
            Avx512 => x86::valid_utf8_prefix_avx512(src),
            Avx2 => if src.len() >= 64 {
                x86::valid_utf8_prefix_avx2(src)
            } else {
                x86::valid_utf8_prefix_short_avx2(src)
            },
        }
        _ => scalar::valid_utf8_prefix(src)
    }
}

/// UTF-8 to Latin-1: "UTF-8 decode" then Infra's "isomorphic encode" (each code point below
/// U+0100 as the byte of its value), over the longest prefix that allows it. This is how
/// Python stores text whose characters are all below U+0100 (one byte per character), so a
/// binding can decode such text straight into its string.
///
/// Decodes the longest prefix of `src` made of ASCII bytes and two-byte sequences for
/// U+0080..U+00FF that fits in `dst`, one byte per character; returns (bytes read, bytes
/// written). `dst` is untouched past the bytes written.
#[inline]
pub(crate) fn utf8_to_isomorphic(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    kernels! {
        "x86_64" if true => {
            Avx2 | Avx512 => x86::utf8_to_isomorphic_avx2(src, dst),
        }
        _ => scalar::utf8_to_isomorphic(src, dst)
    }
}

/// Whether the sixteen-byte block kernels ([`widen16`], [`widen16_runs`],
/// [`non_ascii_mask16`]) have a SIMD version at the level in use: read once where a loop
/// starts and passed to them as their `SIMD` parameter, so that the loop reads no level per
/// block (by the instruction counts, the level's load and test in each block cost the
/// single-byte decoders 1-2 %).
#[inline(always)]
pub(crate) fn blocks_simd() -> bool {
    kernels! {
        "x86_64" if true => {
            Sse2 | Avx2 | Avx512 => true,
        }
        "aarch64" if true => {
            Neon => true,
        }
        _ => false
    }
}

/// Widens 16 bytes to 16 code units (each byte's value) and returns the mask of the bytes
/// that are not ASCII (bit `k` for byte `k`), for decoders to patch those few. `SIMD` is
/// [`blocks_simd`], read by the caller.
#[inline(always)]
pub(crate) fn widen16<const SIMD: bool>(src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    if SIMD {
        #[cfg(target_arch = "x86_64")]
        return x86::widen16_sse2(src, dst);
        #[cfg(target_arch = "aarch64")]
        return aarch64::widen16_neon(src, dst);
    }
    #[allow(unreachable_code)]
    scalar::widen16(src, dst)
}

/// Bytes `lo..=lo + span` that decode to `byte + delta` (mod 2^16): a run of a single-byte
/// index that keeps a script's letters in order (Thai in windows-874: A1..DA are U+0E01..
/// U+0E3A). The empty run is `lo = 0, span = 0, delta = 0` (it maps byte 0 to itself); the
/// runs given together do not overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteRun {
    pub(crate) lo: u8,
    pub(crate) span: u8,
    pub(crate) delta: u16,
}

/// Widens 16 bytes to 16 code units, adding each run's `delta` to the bytes in it, and
/// returns the mask of the bytes that are not ASCII and in neither run (bit `k` for byte
/// `k`), for the decoder to look up. With fewer than two bytes that are not ASCII (a Latin
/// letter between words), the runs are not applied and that byte is in the mask: one look-up
/// costs less.
/// `SIMD` is [`blocks_simd`], read by the caller.
#[inline(always)]
pub(crate) fn widen16_runs<const SIMD: bool>(
    src: &[u8; 16],
    dst: &mut [u16; 16],
    runs: &[ByteRun; 2],
) -> u32 {
    if SIMD {
        #[cfg(target_arch = "x86_64")]
        return x86::widen16_runs_sse2(src, dst, runs);
        #[cfg(target_arch = "aarch64")]
        return aarch64::widen16_runs_neon(src, dst, runs);
    }
    #[allow(unreachable_code)]
    scalar::widen16_runs(src, dst, runs)
}

/// x-user-defined to UTF-16 in blocks of 32 bytes; returns the bytes decoded. May do nothing
/// (other levels than AVX2, where the caller's loop vectorizes by itself).
#[inline(always)]
pub(crate) fn x_user_defined_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    kernels! {
        "x86_64" if true => {
            Avx2 | Avx512 => x86::x_user_defined_to_utf16_avx2(src, dst),
        }
        _ => {
            let _ = (src, dst);
            0
        }
    }
}

/// Single-byte text to UTF-8 in blocks of sixteen bytes that are all ASCII or in `runs`;
/// returns (bytes read, bytes written). May do nothing (other levels than AVX2); the caller
/// finishes through the table.
#[inline(always)]
pub(crate) fn runs_to_utf8(src: &[u8], dst: &mut [u8], runs: &[ByteRun; 2]) -> (usize, usize) {
    kernels! {
        "x86_64" if true => {
            Avx2 | Avx512 => x86::runs_to_utf8_avx2(src, dst, runs),
        }
        _ => {
            let _ = (src, dst, runs);
            (0, 0)
        }
    }
}

/// The mask of the bytes of `src` that are not ASCII (bit `k` for byte `k`). `SIMD` is
/// [`blocks_simd`], read by the caller.
#[inline(always)]
pub(crate) fn non_ascii_mask16<const SIMD: bool>(src: &[u8; 16]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        return x86::non_ascii_mask16_sse2(src);
    }
    scalar::non_ascii_mask16(src)
}

/// The bytes of `units` in native byte order (little-endian on x86-64 and aarch64 Linux).
#[inline(always)]
pub(crate) fn u16_bytes(units: &[u16]) -> &[u8] {
    // SAFETY: `u16` has no padding and every byte pattern is a valid `u8`; the byte view has
    // alignment 1 and exactly `2 * units.len()` bytes, borrowed for the same lifetime.
    unsafe { core::slice::from_raw_parts(units.as_ptr() as *const u8, units.len() * 2) }
}

/// Portable implementations: word-at-a-time, no `unsafe`.
pub(crate) mod scalar;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod lookup;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;

pub(crate) mod latin;
pub(crate) use latin::{encode_utf8_low, narrow_latin1, utf8_masks32, Latin1Set};

pub(crate) mod spill;
pub(crate) use spill::{Spill, Window};

mod text;
pub(crate) use text::{
    ascii_len, ascii_prefix, ascii_str, latin1_to_string, latin1_to_utf8, str_from_utf8,
    valid_prefix, write_str_at,
};

#[cfg(all(test, feature = "std"))]
mod tests;
