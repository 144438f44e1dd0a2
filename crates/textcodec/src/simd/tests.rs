//! The kernels at every level this CPU supports against the scalar ones.

use super::*;

/// The levels of this architecture that this CPU supports, lowest first; prints those it
/// lacks (skipped), so that a run says what it did not test.
pub(crate) fn all_levels() -> impl Iterator<Item = Level> {
    let best = detected_level();
    let skipped: std::vec::Vec<Level> = native_levels()
        .iter()
        .copied()
        .filter(|&l| l > best)
        .collect();
    static SAID: std::sync::Once = std::sync::Once::new();
    // Avx512 needs AVX-512 F, BW, VL, VBMI and VBMI2: a CPU with only the first three skips it.
    let avx512 = if skipped.contains(&Level::Avx512) {
        " (Avx512: AVX-512 F/BW/VL/VBMI/VBMI2)"
    } else {
        ""
    };
    SAID.call_once(|| {
        std::println!(
            "levels tested up to {best:?}; skipped (not on this CPU): {skipped:?}{avx512}"
        )
    });
    native_levels().iter().copied().filter(move |&l| l <= best)
}

#[test]
fn levels_are_capped_per_architecture() {
    // Not `set_level`: the level is global and other unit tests run at the same time.
    let best = detected_level();
    assert!(best.is_native());
    if cfg!(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )) {
        assert_eq!(best, Level::Neon);
    }
    if cfg!(target_arch = "x86_64") {
        assert!(best >= Level::Sse2);
    }
    assert!(!Level::Neon.is_native() || !Level::Sse2.is_native());
    assert!(native_levels().iter().all(|l| l.is_native()));
    assert!(native_levels().windows(2).all(|w| w[0] < w[1]));
}

fn copy_at(l: Level, src: &[u8], dst: &mut [u8]) -> usize {
    match l {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 | Level::Avx512 => x86::copy_ascii_avx2(src, dst),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => x86::copy_ascii_sse2(src, dst),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::copy_ascii_neon(src, dst),
        Level::Scalar => scalar::copy_ascii_to_ascii(src, dst),
        _ => unreachable!("{l:?} is not a level of this architecture"),
    }
}

fn widen_at(l: Level, src: &[u8], dst: &mut [u16]) -> usize {
    match l {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 | Level::Avx512 => x86::widen_ascii_avx2(src, dst),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => x86::widen_ascii_sse2(src, dst),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::widen_ascii_neon(src, dst),
        Level::Scalar => scalar::copy_ascii_to_utf16(src, dst),
        _ => unreachable!("{l:?} is not a level of this architecture"),
    }
}

fn narrow_at(l: Level, src: &[u16], dst: &mut [u8]) -> usize {
    match l {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 | Level::Avx512 => x86::narrow_ascii_avx2(src, dst),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => x86::narrow_ascii_sse2(src, dst),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::narrow_ascii_neon(src, dst),
        Level::Scalar => scalar::copy_utf16_ascii_to_ascii(src, dst),
        _ => unreachable!("{l:?} is not a level of this architecture"),
    }
}

fn narrow_bytes_at<const BE: bool>(l: Level, src: &[u8], dst: &mut [u8]) -> usize {
    match l {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => x86::narrow_utf16_bytes_avx512::<BE>(src, dst),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => x86::narrow_utf16_bytes_avx2::<BE>(src, dst),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => x86::narrow_utf16_bytes_sse2::<BE>(src, dst),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::narrow_utf16_bytes_neon::<BE>(src, dst),
        Level::Scalar => scalar::copy_utf16_bytes_ascii::<BE>(src, dst),
        _ => unreachable!("{l:?} is not a level of this architecture"),
    }
}

fn widen16_at(l: Level, src: &[u8; 16], dst: &mut [u16; 16]) -> u32 {
    match l {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 | Level::Avx2 | Level::Sse2 => x86::widen16_sse2(src, dst),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::widen16_neon(src, dst),
        Level::Scalar => scalar::widen16(src, dst),
        _ => unreachable!("{l:?} is not a level of this architecture"),
    }
}

#[test]
fn widen16_runs_agrees_with_scalar() {
    let mut x: u32 = 0x7A11_5EED;
    let mut next = move || crate::xorshift32(&mut x);
    for round in 0..20_000 {
        let mut runs = [ByteRun {
            lo: 0,
            span: 0,
            delta: 0,
        }; 2];
        // Two runs that do not overlap: one in 80..BF, one in C0..FF.
        for (k, r) in runs.iter_mut().enumerate().take(round % 3) {
            let lo = 0x80 | (k as u8) << 6 | (next() as u8 & 0x3F);
            *r = ByteRun {
                lo,
                span: (next() as u8) % (0x40 - (lo & 0x3F)),
                delta: next() as u16,
            };
        }
        let mut src = [0u8; 16];
        for b in src.iter_mut() {
            // ASCII, bytes near the runs' edges, anything.
            *b = match next() % 4 {
                0 => next() as u8 & 0x7F,
                1 => runs[0]
                    .lo
                    .wrapping_add(runs[0].span)
                    .wrapping_add(next() as u8 % 3),
                2 => runs[1].lo.wrapping_sub(1).wrapping_add(next() as u8 % 3),
                _ => next() as u8,
            };
        }
        if round % 5 == 0 {
            // One byte that is not ASCII, or none: the runs are not applied.
            let keep = next() as usize % 17;
            for (k, b) in src.iter_mut().enumerate() {
                if k != keep {
                    *b &= 0x7F;
                }
            }
        }
        let mut want = [0u16; 16];
        let want_mask = scalar::widen16_runs(&src, &mut want, &runs);
        for l in all_levels() {
            let mut got = [0xAAAAu16; 16];
            let mask = match l {
                #[cfg(target_arch = "x86_64")]
                Level::Avx512 | Level::Avx2 | Level::Sse2 => {
                    x86::widen16_runs_sse2(&src, &mut got, &runs)
                }
                #[cfg(target_arch = "aarch64")]
                Level::Neon => aarch64::widen16_runs_neon(&src, &mut got, &runs),
                _ => scalar::widen16_runs(&src, &mut got, &runs),
            };
            assert_eq!((mask, got), (want_mask, want), "{l:?} {src:02X?} {runs:?}");
        }
    }
}

/// A UTF-16-bytes-to-UTF-8 block kernel: (big-endian, src, dst) to (bytes read, bytes
/// written).
type Utf16ToUtf8 = fn(bool, &[u8], &mut [u8]) -> (usize, usize);

/// The UTF-16-bytes-to-UTF-8 block kernels of the levels this CPU has, with their level.
fn utf16_to_utf8_kernels() -> std::vec::Vec<(Level, Utf16ToUtf8)> {
    let mut v: std::vec::Vec<(Level, Utf16ToUtf8)> = std::vec::Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if detected_level() >= Level::Avx2 {
            v.push((Level::Avx2, |be, src, dst| {
                if be {
                    x86::utf16_bytes_to_utf8_avx2::<true>(src, dst)
                } else {
                    x86::utf16_bytes_to_utf8_avx2::<false>(src, dst)
                }
            }));
        }
        if detected_level() >= Level::Avx512 {
            v.push((Level::Avx512, |be, src, dst| {
                if be {
                    x86::utf16_bytes_to_utf8_avx512::<true>(src, dst)
                } else {
                    x86::utf16_bytes_to_utf8_avx512::<false>(src, dst)
                }
            }));
        }
    }
    #[cfg(target_arch = "aarch64")]
    if detected_level() == Level::Neon {
        v.push((Level::Neon, |be, src, dst| {
            if be {
                aarch64::utf16_bytes_to_utf8_neon::<true>(src, dst)
            } else {
                aarch64::utf16_bytes_to_utf8_neon::<false>(src, dst)
            }
        }));
    }
    v
}

/// Runs a UTF-16-to-UTF-8 block kernel on `units` with `room` bytes of output followed by
/// sentinels, and checks that what it wrote is the UTF-8 of the units it read and nothing
/// past it; returns (units read, bytes written).
fn check_utf16_to_utf8(
    l: Level,
    kernel: Utf16ToUtf8,
    be: bool,
    units: &[u16],
    room: usize,
) -> (usize, usize) {
    let bytes: std::vec::Vec<u8> = units
        .iter()
        .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
        .collect();
    let mut dst = std::vec![0xA5u8; room + 8];
    let (r, w) = kernel(be, &bytes, &mut dst[..room]);
    assert_eq!(r % 2, 0, "{l:?} {be} {room} {units:04X?}");
    assert!(
        r <= bytes.len() && w <= room,
        "{l:?} {be} {room} {units:04X?}"
    );
    let want = std::string::String::from_utf16(&units[..r / 2])
        .unwrap_or_else(|_| panic!("{l:?} {be} {room} {units:04X?}"));
    if &dst[..w] != want.as_bytes() {
        let at = dst
            .iter()
            .zip(want.as_bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(w);
        panic!(
            "{l:?} {be} room {room}: read {r} wrote {w} (want {}), first difference at byte {at}: \
             got {:02X?}, want {:02X?}; units {units:04X?}",
            want.len(),
            &dst[at.saturating_sub(4)..(at + 12).min(w)],
            &want.as_bytes()[at.saturating_sub(4)..(at + 12).min(want.len())],
        );
    }
    assert!(
        dst[w..].iter().all(|&b| b == 0xA5),
        "{l:?} {be} {room} {units:04X?}"
    );
    (r / 2, w)
}

/// A UTF-8-to-UTF-16 block kernel: (src, start, dst) to (bytes read from start, units
/// written).
type Utf8ToUtf16 = fn(&[u8], usize, &mut [u16]) -> (usize, usize);

/// The UTF-8-to-UTF-16 block kernels of the levels this CPU has, with their level.
fn utf8_to_utf16_kernels() -> std::vec::Vec<(Level, Utf8ToUtf16)> {
    let mut v: std::vec::Vec<(Level, Utf8ToUtf16)> = std::vec::Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if detected_level() >= Level::Avx2 {
            v.push((Level::Avx2, x86::utf8_to_utf16_avx2));
        }
        if detected_level() >= Level::Avx512 {
            v.push((Level::Avx512, x86::utf8_to_utf16_avx512));
        }
    }
    #[cfg(target_arch = "aarch64")]
    if detected_level() == Level::Neon {
        v.push((Level::Neon, aarch64::utf8_to_utf16_neon));
    }
    v
}

/// The best level's UTF-8 validating copy, if it has one.
fn copy_valid_utf8_best(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if detected_level() >= Level::Avx2 {
        return Some(x86::copy_valid_utf8_avx2(src, dst));
    }
    #[cfg(target_arch = "aarch64")]
    if detected_level() == Level::Neon {
        return Some(aarch64::copy_valid_utf8_neon(src, dst));
    }
    let _ = (src, dst);
    None
}

#[test]
fn utf16_bytes_narrowing_and_widen16_agree_with_scalar() {
    let mut x: u32 = 0x0BAD_F00D;
    for round in 0..3000 {
        // ASCII units with, sometimes, one unit that is not ASCII in either byte.
        let len = 1 + round % 90;
        let mut units: std::vec::Vec<u16> = (0..len).map(|k| (k * 5 % 128) as u16).collect();
        crate::xorshift32(&mut x);
        if round % 4 != 0 {
            let at = x as usize % len;
            units[at] = [0x80, 0xFF, 0x100, 0x7F00, 0xFF7F, 0xD800][(x >> 20) as usize % 6];
        }
        if round % 7 == 6 {
            // ASCII bytes in the wrong half: from the first non-zero unit on, not ASCII.
            for u in &mut units {
                *u = u.swap_bytes();
            }
        }
        for be in [false, true] {
            let mut bytes: std::vec::Vec<u8> = units
                .iter()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect();
            if round % 3 == 0 {
                bytes.push(0x41); // An odd byte at the end.
            }
            let room = if round % 5 == 0 { len / 2 } else { len + 3 };
            let mut want = std::vec![0u8; room];
            let n = if be {
                scalar::copy_utf16_bytes_ascii::<true>(&bytes, &mut want)
            } else {
                scalar::copy_utf16_bytes_ascii::<false>(&bytes, &mut want)
            };
            for l in all_levels() {
                let mut got = std::vec![0u8; room];
                let k = if be {
                    narrow_bytes_at::<true>(l, &bytes, &mut got)
                } else {
                    narrow_bytes_at::<false>(l, &bytes, &mut got)
                };
                assert_eq!(k, n, "{l:?} be {be} {units:04X?}");
                assert_eq!(got[..k], want[..n], "{l:?} be {be}");
            }
        }
    }
    for seed in 0..2000u32 {
        let mut block = [0u8; 16];
        for (k, b) in block.iter_mut().enumerate() {
            let h = (seed.wrapping_mul(0x9E37_79B9) ^ (k as u32).wrapping_mul(0x85EB_CA6B))
                .rotate_left(7);
            // Mostly ASCII, some high bytes, including 0x80 and 0xFF.
            *b = match h % 7 {
                0 => 0x80 | (h >> 8) as u8,
                1 => [0x80, 0xFF][(h >> 9) as usize % 2],
                _ => (h >> 8) as u8 & 0x7F,
            };
        }
        let mut want = [0u16; 16];
        let want_mask = scalar::widen16(&block, &mut want);
        for l in all_levels() {
            let mut got = [0xFFFFu16; 16];
            assert_eq!(
                widen16_at(l, &block, &mut got),
                want_mask,
                "{l:?} {block:02X?}"
            );
            assert_eq!(got, want, "{l:?}");
        }
    }
}

#[test]
fn kernels_agree_with_scalar_on_every_prefix_and_offset() {
    let mut bytes = std::vec::Vec::new();
    for i in 0..300u32 {
        bytes.push((i * 7 % 128) as u8);
    }
    for high in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200, 299] {
        let mut b = bytes.clone();
        b[high] = 0xC3;
        for start in 0..4 {
            let src = &b[start..];
            let want = scalar::copy_ascii_to_ascii(src, &mut [0u8; 400]);
            for l in all_levels() {
                // Sentinel-filled: nothing past the prefix is written.
                let mut dst = [0xEEu8; 400];
                let got = copy_at(l, src, &mut dst[..src.len()]);
                assert_eq!(got, want, "{l:?} high at {high} start {start}");
                assert_eq!(&dst[..got], &src[..got]);
                assert!(
                    dst[got..].iter().all(|&b| b == 0xEE),
                    "{l:?} copy wrote past"
                );
                let mut d16 = [0xEEEEu16; 400];
                let got16 = widen_at(l, src, &mut d16[..src.len()]);
                assert_eq!(got16, want, "{l:?} widen");
                assert!(d16[..got16].iter().zip(src).all(|(&a, &b)| a == b as u16));
                assert!(
                    d16[got16..].iter().all(|&u| u == 0xEEEE),
                    "{l:?} widen wrote past"
                );
                for other in [0x80u16, 0x100, 0x7FFF, 0x8000, 0xFF80, 0xFFFF] {
                    let wide: std::vec::Vec<u16> = src
                        .iter()
                        .map(|&b| if b < 0x80 { b as u16 } else { other })
                        .collect();
                    dst.fill(0xEE);
                    let got_n = narrow_at(l, &wide, &mut dst[..wide.len()]);
                    assert_eq!(got_n, want, "{l:?} narrow {other:#x}");
                    assert_eq!(&dst[..got_n], &src[..got_n]);
                    assert!(
                        dst[got_n..].iter().all(|&b| b == 0xEE),
                        "{l:?} narrow wrote past"
                    );
                    let le: std::vec::Vec<u8> = wide.iter().flat_map(|u| u.to_le_bytes()).collect();
                    let be: std::vec::Vec<u8> = wide.iter().flat_map(|u| u.to_be_bytes()).collect();
                    let got_le = narrow_bytes_at::<false>(l, &le, &mut dst);
                    let got_be = narrow_bytes_at::<true>(l, &be, &mut dst);
                    assert_eq!((got_le, got_be), (want, want), "{l:?} bytes {other:#x}");
                    assert_eq!(&dst[..got_be], &src[..got_be]);
                }
            }
        }
    }
}

/// Every length up to 130 units and every destination size, with sentinels after the room:
/// the block kernel writes only valid UTF-8 of the units it read, nothing past it, and stops
/// only before a surrogate that is not half of a pair, at the end of the room, or in the last
/// units of the input.
#[test]
fn utf16_to_utf8_blocks_every_length_and_room() {
    let kernels = utf16_to_utf8_kernels();
    let mut x: u32 = 0x2545_F491;
    // ASCII, two bytes, three bytes, high and low surrogates.
    let ranges: [(u32, u32); 5] = [
        (0, 0x80),
        (0x80, 0x800),
        (0x800, 0xD800),
        (0xD800, 0xDC00),
        (0xDC00, 0xE000),
    ];
    for len in 0..=130usize {
        for round in 0..8 {
            let mut units = std::vec::Vec::new();
            while units.len() < len {
                crate::xorshift32(&mut x);
                let pick = (x >> 4) as usize % 64;
                let r = match round {
                    // Three-byte text with pairs among it; then two-byte; then runs of
                    // ASCII (markup: about 64 units between others; English: only pairs
                    // among it); then mixed.
                    0 | 1 => [2, 2, 2, 2, 2, 2, 0, 1][pick % 8],
                    2 => [1, 1, 1, 0][pick % 4],
                    6 if pick % 32 == 5 => 1 + (pick >> 5),
                    6 | 7 => 0,
                    _ => pick % 3,
                };
                let (lo, hi) = ranges[r];
                units.push((lo + (x >> 12) % (hi - lo)) as u16);
                if pick == 63 || (round == 1 && pick % 8 == 7) {
                    // A pair, or (rarely) a lone surrogate of either kind.
                    crate::xorshift32(&mut x);
                    units.push((0xD800 + x % 0x400) as u16);
                    match x >> 28 {
                        0 => {}
                        1 => units.insert(units.len() - 1, (0xDC00 + (x >> 8) % 0x400) as u16),
                        _ => units.push((0xDC00 + (x >> 8) % 0x400) as u16),
                    }
                }
            }
            units.truncate(len);
            for (l, kernel) in &kernels {
                for be in [false, true] {
                    for room in 0..=3 * len + 20 {
                        let (r, _) = check_utf16_to_utf8(*l, *kernel, be, &units, room);
                        let left = &units[r..];
                        if room >= 3 * len + 64 && !left.is_empty() {
                            assert!(
                                left.len() < 8 || (0xD800..0xE000).contains(&left[0]),
                                "{l:?} {be} {room} {units:04X?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn utf16_to_utf8_blocks_agree_with_std() {
    let kernels = utf16_to_utf8_kernels();
    let mut x: u32 = 0x9E37_79B9;
    let ranges: [(u32, u32); 5] = [
        (0, 0x80),
        (0x80, 0x800),
        (0x800, 0xD800),
        (0xE000, 0x10000),
        (0xD800, 0xE000),
    ];
    for round in 0..20_000 {
        let mut units = std::vec::Vec::new();
        for _ in 0..(16 + round % 40) {
            crate::xorshift32(&mut x);
            // Mostly one range per string, with surrogates rare.
            let (lo, hi) = ranges[if x.is_multiple_of(61) {
                4
            } else {
                (x as usize >> 8) % (1 + round % 4)
            }];
            units.push((lo + (x >> 12) % (hi - lo)) as u16);
        }
        for (be, odd) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut bytes: std::vec::Vec<u8> = units
                .iter()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect();
            if odd {
                // The first byte of a unit cut off by the end of the input.
                bytes.push(0x41);
            }
            for (l, kernel) in &kernels {
                let mut dst = [0u8; 400];
                let (r, w) = kernel(be, &bytes, &mut dst);
                assert_eq!(r % 2, 0);
                let want = std::string::String::from_utf16(&units[..r / 2]).unwrap();
                assert_eq!(&dst[..w], want.as_bytes(), "{l:?} {:04X?}", &units[..r / 2]);
                let left = &units[r / 2..];
                if !left.is_empty() {
                    // With room it stops early only for a surrogate in the next block, or
                    // among the last fewer than eight units.
                    assert!(
                        left[..left.len().min(8)]
                            .iter()
                            .any(|u| (0xD800..0xE000).contains(u)),
                        "{l:?} {be} {odd} {:04X?}",
                        units
                    );
                }
            }
        }
    }
}

/// A surrogate pair, a lone high and a lone low surrogate at every position of 100 units of
/// ASCII, two-byte, three-byte or mixed text (so at each lane of the first three blocks of
/// 32 and 16, and at their edges): with room for everything, no kernel reads past a lone
/// surrogate, and the AVX-512 kernel converts every unit before it, or all of them (its
/// pairs included).
#[test]
fn utf16_to_utf8_blocks_surrogates_at_every_position() {
    let backgrounds: [fn(usize) -> u16; 4] = [
        |k| b'a' as u16 + (k % 26) as u16,
        |k| 0x3B1 + (k % 25) as u16,
        |k| 0x4E00 + (k * 7 % 500) as u16,
        |k| [0x41, 0xE9, 0x20AC, 0x7A, 0x5B57, 0x3A9, 0][k % 7],
    ];
    for (l, kernel) in utf16_to_utf8_kernels() {
        for background in backgrounds {
            let text: std::vec::Vec<u16> = (0..100).map(background).collect();
            for p in 0..100 {
                for kind in 0..3 {
                    let mut units = text.clone();
                    let lone = match kind {
                        0 => {
                            // U+1F600 (a pair) at p, p + 1 (the input ends at 100 either way).
                            units[p] = 0xD83D;
                            if p + 1 < units.len() {
                                units[p + 1] = 0xDE00;
                            }
                            p + 1 == units.len()
                        }
                        1 => {
                            units[p] = 0xD800 + p as u16;
                            true
                        }
                        _ => {
                            units[p] = 0xDFFF - p as u16;
                            true
                        }
                    };
                    for be in [false, true] {
                        let (r, _) = check_utf16_to_utf8(l, kernel, be, &units, 3 * 100 + 64);
                        if lone {
                            assert!(r <= p, "{l:?} {be} {units:04X?}");
                        }
                        if l == Level::Avx512 {
                            let want = if lone { p } else { 100 };
                            assert_eq!(r, want, "{l:?} {be} {units:04X?}");
                        }
                    }
                }
            }
        }
    }
}

/// Output that ends exactly at the end of `dst`, and one byte short of it, and tiny
/// destinations: the AVX-512 kernel converts everything into a room of exactly its UTF-8
/// (with pairs across blocks and units of every length), and no kernel writes past the room.
#[test]
fn utf16_to_utf8_blocks_fill_the_room_exactly() {
    let mut x: u32 = 0x1234_5678;
    for (l, kernel) in utf16_to_utf8_kernels() {
        for round in 0..400 {
            let len = 1 + round % 140;
            let mut units = std::vec::Vec::new();
            while units.len() < len {
                crate::xorshift32(&mut x);
                match (x >> 4) % [2, 3, 4, 8][round % 4] {
                    0 => units.push((x >> 8) as u16 & 0x7F),
                    1 => units.push(0x80 + (x >> 8) as u16 % 0x780),
                    2 => units.push(0xE000 + (x >> 8) as u16 % 0x2000),
                    3 | 4 => units.push(0x800 + (x >> 8) as u16 % 0xD000),
                    _ => {
                        units.push(0xD800 + (x >> 8) as u16 % 0x400);
                        units.push(0xDC00 + (x >> 18) as u16 % 0x400);
                    }
                }
            }
            let utf8 = std::string::String::from_utf16(&units).unwrap().len();
            for be in [false, true] {
                let (r, w) = check_utf16_to_utf8(l, kernel, be, &units, utf8);
                if l == Level::Avx512 {
                    assert_eq!((r, w), (units.len(), utf8), "{be} {units:04X?}");
                }
                check_utf16_to_utf8(l, kernel, be, &units, utf8 - 1);
                for room in 0..8 {
                    check_utf16_to_utf8(l, kernel, be, &units, room);
                }
            }
        }
    }
}

/// Ten blocks of 32 units of text (so the whole-block loop of the AVX-512 kernel runs, not
/// only its masked tail): a pair across each block edge and in each lane, a lone high and a
/// lone low surrogate at every position, in ASCII, two-byte, three-byte and mixed text; with
/// room for everything, room for exactly the output, and one byte less. Every kernel writes
/// the UTF-8 of what it read and nothing after it, reads no lone surrogate, and the AVX-512
/// kernel converts every unit before the lone surrogate with the exact room, and with one
/// byte less fills it to within a character.
#[test]
fn utf16_to_utf8_blocks_long_text_surrogates_and_rooms() {
    let backgrounds: [fn(usize) -> u16; 4] = [
        |k| b'a' as u16 + (k % 26) as u16,
        |k| 0x5D0 + (k % 27) as u16,
        |k| 0xAC00 + (k * 13 % 900) as u16,
        |k| {
            [
                0x41, 0xE9, 0x20AC, 0x20, 0x5B57, 0x3A9, 0, 0xFFFF, 0x7FF, 0x800,
            ][k % 10]
        },
    ];
    const LEN: usize = 320;
    for (l, kernel) in utf16_to_utf8_kernels() {
        for background in backgrounds {
            let text: std::vec::Vec<u16> = (0..LEN).map(background).collect();
            for p in 0..LEN {
                for kind in 0..3 {
                    let mut units = text.clone();
                    // The units the kernel can convert (before a lone surrogate).
                    let whole = match kind {
                        0 => {
                            // U+10FFFF at p and p + 1 (a lone high one at the end).
                            units[p] = 0xDBFF;
                            if p + 1 < LEN {
                                units[p + 1] = 0xDFFF;
                                LEN
                            } else {
                                p
                            }
                        }
                        1 => {
                            units[p] = 0xD800 + (p % 0x400) as u16;
                            p
                        }
                        _ => {
                            units[p] = 0xDC00 + (p % 0x400) as u16;
                            p
                        }
                    };
                    let utf8 = std::string::String::from_utf16(&units[..whole])
                        .unwrap()
                        .len();
                    for be in [false, true] {
                        for room in [3 * LEN + 64, utf8, utf8.saturating_sub(1)] {
                            let (r, w) = check_utf16_to_utf8(l, kernel, be, &units, room);
                            assert!(r <= whole, "{l:?} {be} {room} {units:04X?}");
                            if l != Level::Avx512 {
                                continue;
                            }
                            if room >= utf8 {
                                assert_eq!((r, w), (whole, utf8), "{be} {room} {units:04X?}");
                            } else {
                                // One byte short: it fills the room to within a character
                                // (blocks of a third of the room left, which always fit).
                                assert!(w + 4 > room, "{be} {room} {r} {w} {units:04X?}");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Runs of ASCII (markup between words of CJK text, English) of every length up to 200
/// units and some up to 330, started at every lane of a block after three-byte text and
/// ended by a two-byte unit, a three-byte one, a surrogate pair or nothing, then three-byte
/// text, two-byte text short enough that the room left after the run is small, or no text
/// (the run goes on to the end of the input and of the room): so a run ends in either half
/// of every step of the AVX2 kernel's ASCII loop, in its first steps (each half tested on its
/// own) and in those after them (both at once), and after its first look at the next sixteen
/// units. With room for everything every kernel converts all but the last fewer than eight
/// units (or sixteen with a surrogate among them); with room for exactly the output and one
/// byte less, it writes the UTF-8 of what it read and nothing after it.
#[test]
fn utf16_to_utf8_blocks_ascii_runs_in_cjk_text() {
    let ends: [&[u16]; 4] = [&[0xE9], &[0x5B57], &[0xD83D, 0xDE00], &[]];
    for (l, kernel) in utf16_to_utf8_kernels() {
        for before in 0..16usize {
            for run in (0..=200usize).chain((201..=330).step_by(7)) {
                let texts = ends
                    .iter()
                    .flat_map(|e| [(e, 0x3042, 40), (e, 0x3B1, 12), (e, 0x3042, 0)]);
                for (end, after, len) in texts {
                    let mut units: std::vec::Vec<u16> =
                        (0..before).map(|k| 0x4E00 + (k * 7 % 500) as u16).collect();
                    units.extend((0..run).map(|k| b'a' as u16 + (k % 26) as u16));
                    units.extend_from_slice(end);
                    units.extend((0..len).map(|k| after + (k % 24) as u16));
                    units.extend((0..5).map(|k| b'<' as u16 + k as u16));
                    let utf8 = std::string::String::from_utf16(&units).unwrap().len();
                    for be in [false, true] {
                        let (r, _) =
                            check_utf16_to_utf8(l, kernel, be, &units, 3 * units.len() + 64);
                        // (Blocks with a surrogate among the last sixteen units are left
                        // to the caller.)
                        let left = &units[r..];
                        assert!(
                            left.len() < 8
                                || left.len() <= 16
                                    && left.iter().any(|u| (0xD800..0xE000).contains(u)),
                            "{l:?} {be} stopped early at {r} of {units:04X?}"
                        );
                        check_utf16_to_utf8(l, kernel, be, &units, utf8);
                        check_utf16_to_utf8(l, kernel, be, &units, utf8 - 1);
                    }
                }
            }
        }
    }
}

/// An ASCII run, then three-byte text to the end of the input (a block of more than 64 bytes
/// of UTF-8 right after an ASCII one), into every room up to 100 bytes short: the AVX-512
/// kernel converts the block after an ASCII one from its ASCII branch, which must leave it
/// to the masked tail unless the room holds the 96 bytes a block can write.
#[test]
fn utf16_to_utf8_blocks_ascii_then_three_byte_text_every_room() {
    for (l, kernel) in utf16_to_utf8_kernels() {
        for run in 0..=72usize {
            for cjk in 16..=40usize {
                let units: std::vec::Vec<u16> = (0..run)
                    .map(|k| b'a' as u16 + (k % 26) as u16)
                    .chain((0..cjk).map(|k| 0x4E00 + (k * 11 % 900) as u16))
                    .collect();
                let utf8 = run + 3 * cjk;
                for be in [false, true] {
                    for room in utf8.saturating_sub(100)..=utf8 + 8 {
                        let (r, w) = check_utf16_to_utf8(l, kernel, be, &units, room);
                        if l == Level::Avx512 && room >= utf8 {
                            assert_eq!((r, w), (units.len(), utf8), "{be} {room} {units:04X?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn utf8_to_utf16_blocks_agree_with_the_spec_decoder() {
    for (level, kernel) in utf8_to_utf16_kernels() {
        utf8_to_utf16_agrees_with_the_spec_decoder(level, kernel);
    }
}

fn utf8_to_utf16_agrees_with_the_spec_decoder(level: Level, kernel: Utf8ToUtf16) {
    let pieces = [
        "a", " ", "é", "ж", "ש", "ع", "火", "星", "ก", "😀", "\u{FEFF}", "\u{7FF}", "\u{800}",
        "\u{D7FF}", "\u{E000}", "\u{FFFF}",
    ];
    let mut x: u32 = 0x2545_F491;
    for round in 0..30_000 {
        let mut s = std::string::String::new();
        while s.len() < 16 + round % 200 {
            crate::xorshift32(&mut x);
            s.push_str(pieces[(x as usize >> 4) % (1 + round % pieces.len())]);
        }
        let mut bytes = s.into_bytes();
        if round % 3 == 0 {
            // Damage one byte: the kernel must stop before it or decode exactly.
            let at = (x >> 7) as usize % bytes.len();
            bytes[at] = (x >> 16) as u8;
        }
        let mut dst = [0xA5A5u16; 400];
        let (r, w) = kernel(&bytes, 0, &mut dst);
        let valid = scalar::valid_utf8_prefix(&bytes);
        assert!(
            r <= valid,
            "{level:?} read {r} past the valid prefix {valid}: {bytes:02X?}"
        );
        let want: std::vec::Vec<u16> = core::str::from_utf8(&bytes[..r])
            .unwrap()
            .encode_utf16()
            .collect();
        assert_eq!(&dst[..w], &want[..], "{level:?} {:02X?}", &bytes[..r]);
        assert!(
            dst[w..].iter().all(|&u| u == 0xA5A5),
            "{level:?} wrote past"
        );
    }
}

#[test]
fn utf8_to_utf16_blocks_convert_every_bmp_character() {
    for (level, kernel) in utf8_to_utf16_kernels() {
        utf8_to_utf16_converts_every_bmp_character(level, kernel);
    }
}

fn utf8_to_utf16_converts_every_bmp_character(level: Level, kernel: Utf8ToUtf16) {
    // Every character of one to three bytes, in order and interleaved with ASCII and
    // two-byte characters at a few strides, so that each lands in mixed blocks and in
    // blocks of three-byte characters alone.
    for stride in [0usize, 1, 3, 7] {
        let mut s = std::string::String::new();
        for (k, c) in (0..0x1_0000u32).filter_map(char::from_u32).enumerate() {
            s.push(c);
            if stride != 0 && k % stride == 0 {
                s.push(if k % 2 == 0 { 'a' } else { 'é' });
            }
        }
        let want: std::vec::Vec<u16> = s.encode_utf16().collect();
        let mut dst = std::vec![0u16; want.len() + 16];
        let (mut i, mut o) = (0, 0);
        let bytes = s.as_bytes();
        while i < bytes.len() {
            let (r, w) = kernel(&bytes[i..], 0, &mut dst[o..]);
            assert_eq!(
                &dst[o..o + w],
                &want[o..o + w],
                "{level:?} stride {stride} at {i}"
            );
            if r == 0 {
                // A character the kernel leaves to the caller (U+0000 is not one).
                let c = s[i..].chars().next().unwrap();
                dst[o] = c as u16;
                i += c.len_utf8();
                o += 1;
            } else {
                i += r;
                o += w;
            }
        }
        assert_eq!(&dst[..o], &want[..], "{level:?} stride {stride}");
    }
}

#[test]
fn utf8_to_utf16_from_an_offset_reads_no_further_than_the_valid_prefix() {
    for (level, kernel) in utf8_to_utf16_kernels() {
        if level == Level::Neon {
            // It reads nothing before `start` (its guard needs 16 bytes from it).
            continue;
        }
        let pieces = ["a", "é", "ж", "火", "ก", "\u{800}", "\u{FFFF}", "😀"];
        let mut x: u32 = 0x1234_5677;
        let mut next = || crate::xorshift32(&mut x) as usize;
        for round in 0..20_000 {
            // Arbitrary bytes before `start` (the tail load may read them), then text,
            // cut anywhere and sometimes damaged.
            let start = next() % 20;
            let mut bytes: std::vec::Vec<u8> = (0..start).map(|_| next() as u8).collect();
            let mut s = std::string::String::new();
            while s.len() < 1 + next() % 40 {
                s.push_str(pieces[next() % (1 + round % pieces.len())]);
            }
            bytes.extend_from_slice(s.as_bytes());
            bytes.truncate(start + next() % (s.len() + 1));
            if round % 4 == 0 && bytes.len() > start {
                let at = start + next() % (bytes.len() - start);
                bytes[at] = next() as u8;
            }
            let mut dst = [0u16; 64];
            let room = 16 + next() % 48;
            let (r, w) = kernel(&bytes, start, &mut dst[..room]);
            let text = &bytes[start..];
            let valid = scalar::valid_utf8_prefix(text);
            assert!(r <= valid, "read {r} past {valid}: {start} {bytes:02X?}");
            let want: std::vec::Vec<u16> = core::str::from_utf8(&text[..r])
                .unwrap()
                .encode_utf16()
                .collect();
            assert_eq!(&dst[..w], &want[..], "{start} {bytes:02X?}");
            if bytes.len() >= 16
                && room >= text.len() + 24
                && valid == text.len()
                && !text.iter().any(|&b| b >= 0xF0)
            {
                // Valid one- to three-byte characters to the end, and room: all of them.
                assert_eq!(r, valid, "{start} {bytes:02X?}");
            }
        }
    }
}

#[test]
fn short_utf8_validation_agrees_with_std() {
    #[cfg(target_arch = "x86_64")]
    if detected_level() >= Level::Avx2 {
        let check = |src: &[u8]| {
            let want = scalar::valid_utf8_prefix(src);
            if detected_level() >= Level::Avx512 {
                check_valid_utf8_avx512(src);
            }
            assert_eq!(x86::valid_utf8_prefix_short_avx2(src), want, "{src:02X?}");
            let mut dst = [0xAAu8; 64];
            let got = x86::copy_valid_utf8_short_avx2(src, &mut dst[..src.len()]);
            assert_eq!(got, want, "{src:02X?}");
            assert_eq!(&dst[..got], &src[..got]);
        };
        // Every one- and two-byte input, and every pair after 61 bytes of text (the last
        // bytes before the padding).
        let text = "Mars, le quatrième planète — 火星 😀 ".as_bytes();
        for hi in 0..=255u8 {
            for lo in 0..=255u8 {
                check(&[hi, lo]);
                let mut long = [b'a'; 63];
                long[..text.len().min(61)].copy_from_slice(&text[..text.len().min(61)]);
                long[61] = hi;
                long[62] = lo;
                check(&long);
            }
            check(&[hi]);
        }
        // Every length, with each kind of bad byte at every position, in ASCII and in
        // text of two-, three- and four-byte characters (the windows' edges fall inside
        // characters at some lengths).
        for base in [
            "a".repeat(64),
            "é".repeat(32),
            "火".repeat(22),
            "😀".repeat(16),
        ] {
            for n in 0..64 {
                let mut b = base.as_bytes()[..n].to_vec();
                check(&b);
                for p in 0..n {
                    for bad in [0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF] {
                        let keep = b[p];
                        b[p] = bad;
                        check(&b);
                        b[p] = keep;
                    }
                }
            }
        }
        // Characters of every length, damaged and cut at every length up to 63.
        let pieces = [
            "a",
            "é",
            "ж",
            "火",
            "ก",
            "😀",
            "\u{7FF}",
            "\u{FFFF}",
            "\u{10FFFF}",
        ];
        let mut x: u32 = 0x0F1E_2D3C;
        for round in 0..30_000 {
            let mut b = std::vec::Vec::new();
            while b.len() < 70 {
                crate::xorshift32(&mut x);
                b.extend_from_slice(pieces[(x >> 5) as usize % pieces.len()].as_bytes());
            }
            for _ in 0..(round % 3) {
                crate::xorshift32(&mut x);
                let at = (x >> 9) as usize % 64;
                b[at] = (x >> 20) as u8;
            }
            check(&b[..round % 64]);
        }
    }
}

/// A byte that is in no UTF-8 text: what the caller's buffer holds past the output.
const SENTINEL: u8 = 0xFF;

/// Checks the UTF-8 validating copy, and the validation without the copy, of `src`
/// against the standard library; nothing past the copy is modified.
fn check_valid_utf8(src: &[u8]) {
    let want = scalar::valid_utf8_prefix(src);
    let mut dst = std::vec![SENTINEL; src.len()];
    if let Some(got) = copy_valid_utf8_best(src, &mut dst) {
        assert_eq!(got, want, "{:02X?}", src);
        assert_eq!(&dst[..got], &src[..got]);
        assert!(
            dst[got..].iter().all(|&b| b == SENTINEL),
            "written past {got}"
        );
    }
    #[cfg(target_arch = "x86_64")]
    if detected_level() >= Level::Avx2 {
        assert_eq!(x86::valid_utf8_prefix_avx2(src), want, "{:02X?}", src);
    }
    #[cfg(target_arch = "x86_64")]
    if detected_level() >= Level::Avx512 {
        check_valid_utf8_avx512(src);
    }
}

/// The AVX-512 validation and validating copy of `src` against the standard library, the
/// copy into a sentinel-filled buffer (nothing after the prefix written).
#[cfg(target_arch = "x86_64")]
fn check_valid_utf8_avx512(src: &[u8]) {
    let want = scalar::valid_utf8_prefix(src);
    assert_eq!(x86::valid_utf8_prefix_avx512(src), want, "{:02X?}", src);
    // A different byte at each position: a byte put back at the wrong place shows.
    let before: std::vec::Vec<u8> = (0..src.len() + 70)
        .map(|k| (k as u8).wrapping_mul(37) ^ 0xA5)
        .collect();
    let mut dst = before.clone();
    let got = x86::copy_valid_utf8_avx512(src, &mut dst[..src.len()]);
    assert_eq!(got, want, "{:02X?}", src);
    assert_eq!(&dst[..got], &src[..got]);
    assert!(dst[got..] == before[got..], "wrote past: {src:02X?}");
}

/// Text of ASCII and two-byte characters (the blocks the mask check takes), damaged at
/// every position around the edges of 64-byte blocks, and a two-byte character
/// straddling every edge.
#[test]
fn utf8_validation_two_byte_blocks() {
    let text = "Le château de Versailles, résidence royale, où Louis XIV s’installa? Größe. "
        .replace('’', "'")
        .repeat(12);
    let base = text.as_bytes();
    let bad = [
        0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xDF, 0xE0, 0xE9, 0xED, 0xF0, 0xF4, 0xFF, b'a',
    ];
    for edge in (64..base.len() - 64).step_by(64) {
        for at in edge - 4..edge + 4 {
            for &v in &bad {
                let mut b = base.to_vec();
                b[at] = v;
                check_valid_utf8(&b);
                check_valid_utf8(&b[..at + 1]);
                check_valid_utf8(&b[..edge + 64]);
            }
        }
    }
    for pad in 0..130 {
        let mut b = std::vec![b'x'; pad];
        b.extend("é".repeat(200).as_bytes());
        check_valid_utf8(&b);
        for cut in [b.len() - 1, pad + 63, pad + 64, pad + 65] {
            check_valid_utf8(&b[..cut.min(b.len())]);
        }
        // A lead byte at a block edge followed by ASCII, or by another lead.
        for (k, v) in [(63, b'x'), (63, 0xC3), (127, b'x'), (64, 0x80)] {
            let mut c = b.clone();
            if pad + k < c.len() {
                c[pad + k] = v;
                check_valid_utf8(&c);
            }
        }
    }
}

/// Runs of ASCII, two-byte, three-byte and four-byte blocks in turn, long runs of
/// three-byte blocks included (the lookup-only loop), damaged at random places and cut
/// at random lengths; texts of 1500 bytes and, for the mixed-block groups of the AVX2
/// check (2048 bytes) and the lookup-only loop after them, of 7000.
#[test]
fn utf8_validation_mixed_block_runs() {
    let pieces = [
        "plain ascii text, ".repeat(8),
        "déjà vu, ça. ".repeat(10),
        "日本語の文章です。".repeat(12),
        "ภาษาไทย ".repeat(6),
        "<p class=\"x\">".repeat(9),
        "😀🎉 ".repeat(7),
        "Привет мир ".repeat(10),
        "中文维基百科，".repeat(120),
        "ภาษาไทย".repeat(110),
    ];
    let mut x: u32 = 0x5EED_1234;
    for round in 0..3000 {
        let mut b = std::vec::Vec::new();
        let len = if round % 2 == 0 { 1500 } else { 7000 };
        while b.len() < len {
            crate::xorshift32(&mut x);
            let piece = &pieces[x as usize % pieces.len()];
            // The first 1 to all of the piece's characters: the base stays valid.
            let m = 1 + (x >> 8) as usize % piece.chars().count();
            let take = piece.char_indices().nth(m).map_or(piece.len(), |(k, _)| k);
            b.extend(&piece.as_bytes()[..take]);
        }
        assert_eq!(scalar::valid_utf8_prefix(&b), b.len());
        check_valid_utf8(&b);
        for _ in 0..(round % 3) {
            crate::xorshift32(&mut x);
            let at = x as usize % b.len();
            b[at] = (x >> 12) as u8;
        }
        let cut = 64 + (x >> 5) as usize % (b.len() - 63);
        check_valid_utf8(&b[..cut]);
        check_valid_utf8(&b);
    }
}

/// Blocks of three-byte characters and blocks of ASCII in turn (the lookup checks of mixed
/// blocks), with a character cut short at the end of every block before an ASCII one.
#[test]
fn utf8_validation_cut_before_ascii_block() {
    let mut base = std::vec::Vec::new();
    for _ in 0..64 {
        base.extend("x日日日日日日日日日日日日日日日日日日日日日".as_bytes());
        base.extend([b'a'; 64]);
    }
    assert_eq!(base.len(), 64 * 128);
    check_valid_utf8(&base);
    for edge in (64..base.len()).step_by(128) {
        for tail in [&b"x\xE6\x97"[..], b"xx\xE6", b"\xF0\x9F\x98"] {
            let mut b = base.clone();
            b[edge - 3..edge].copy_from_slice(tail);
            check_valid_utf8(&b);
        }
    }
}

/// Sequences of 64-byte blocks of five kinds, in groups of four as the AVX-512 kernel
/// takes them: ASCII, three-byte characters, two-byte characters, three-byte characters
/// ending with a lead byte and the block that completes it (which may not follow: an
/// error at a block edge, before ASCII or not). Runs without ASCII blocks (the checks
/// without tests for ASCII), groups of ASCII after a character cut short, groups mixing
/// kinds; each valid or not, damaged at a random byte, cut at a random length, and moved
/// off the block edges.
#[test]
fn utf8_validation_block_groups() {
    let mut cjk = "日".repeat(21).into_bytes();
    cjk.push(b'x');
    let mut lead = "日".repeat(21).into_bytes();
    lead.push(0xE6);
    let mut rest = std::vec![0x97, 0xA5];
    rest.extend("日".repeat(20).as_bytes());
    rest.extend(b"xx");
    let two = "é".repeat(32).into_bytes();
    let kinds: [&[u8]; 5] = [&[b'a'; 64], &cjk, &two, &lead, &rest];
    assert!(kinds.iter().all(|k| k.len() == 64));
    let mut x: u32 = 0x0B10_C4ED;
    for round in 0..20_000 {
        crate::xorshift32(&mut x);
        let blocks = 4 + x as usize % 13;
        let mut b = std::vec![b'.'; round % 5 * (round / 5 % 64) / 4];
        let mut k = 0;
        for _ in 0..blocks {
            crate::xorshift32(&mut x);
            // The block completing a lead byte follows one more often than not; otherwise
            // the kind changes at one block in three (runs of each kind).
            if b.last() == Some(&0xE6) && !x.is_multiple_of(4) {
                k = 4;
            } else if x.is_multiple_of(3) || k >= 3 {
                k = (x >> 4) as usize % 5;
            }
            b.extend(kinds[k]);
        }
        check_valid_utf8(&b);
        crate::xorshift32(&mut x);
        check_valid_utf8(&b[..x as usize % b.len()]);
        if round % 2 == 0 {
            crate::xorshift32(&mut x);
            let at = x as usize % b.len();
            b[at] = (x >> 12) as u8 | 0x80;
            check_valid_utf8(&b);
        }
    }
}

#[test]
fn utf8_validation_agrees_with_std() {
    let text = "Марс — четвёртая по удалённости от Солнца планета 火星 😀 Mars ".repeat(4);
    let base = text.as_bytes();
    let mut x: u32 = 0x1234_5678;
    for round in 0..20_000 {
        let mut b = base.to_vec();
        // Damage a few bytes at random places.
        for _ in 0..(round % 4) {
            crate::xorshift32(&mut x);
            let at = x as usize % b.len();
            b[at] = (x >> 8) as u8;
        }
        let cut = (x >> 3) as usize % b.len();
        let src = &b[..cut.max(64)];
        #[cfg(target_arch = "x86_64")]
        if detected_level() >= Level::Avx512 {
            check_valid_utf8_avx512(&b[..cut]);
        }
        let want = scalar::valid_utf8_prefix(src);
        let mut dst = std::vec![SENTINEL; src.len()];
        if let Some(got) = copy_valid_utf8_best(src, &mut dst) {
            assert_eq!(got, want, "{:02X?}", src);
            assert_eq!(&dst[..got], &src[..got]);
            assert!(
                dst[got..].iter().all(|&b| b == SENTINEL),
                "written past {got}"
            );
        }
    }
}

/// The dispatched UTF-8 validating copy at every level, into every destination size (the
/// prefix that fits, nothing modified past it), of text mixing ASCII, markup and two-,
/// three- and four-byte characters over several 512-byte groups, valid, cut or damaged
/// at the end of each.
#[test]
fn copy_valid_utf8_every_destination_size() {
    let text = "<td class=\"x\">火星は太陽系の惑星</td> Марс ภาษาไทย 😀 déjà "
        .repeat(14)
        .into_bytes();
    let mut cases = std::vec![text.clone()];
    for (at, bad) in [(600, 0xC0), (1100, 0x80), (1200, 0xF5)] {
        let mut b = text.clone();
        b[at] = bad;
        cases.push(b);
    }
    let mut cut = text.clone();
    cut.extend(b"\xE7\x81");
    cases.push(cut);
    let before = level();
    for l in all_levels() {
        set_level(l);
        for src in &cases {
            for room in 0..=src.len() {
                let mut buf = std::vec![SENTINEL; room + 64];
                let got = copy_valid_utf8(src, &mut buf[..room]);
                let want = scalar::valid_utf8_prefix(&src[..room.min(src.len())]);
                assert_eq!(got, want, "{l:?}, room {room}");
                assert_eq!(&buf[..got], &src[..got], "{l:?}, room {room}");
                assert!(
                    buf[got..].iter().all(|&b| b == SENTINEL),
                    "{l:?}, room {room}: written past {got}"
                );
            }
        }
    }
    set_level(before);
}

/// The dispatched UTF-8 validating copy at every level over long runs of ASCII (the run
/// loop of 128 bytes per test, with its reads of the output ahead once a run is 256 bytes
/// long) ended by one sequence, valid, malformed or cut short, at every offset (ASCII
/// after it, or the input cut inside it or right after it): the output room exact and one
/// byte short, the buffer past the output (a different byte at each position) untouched.
#[test]
fn copy_valid_utf8_ascii_runs_ended_at_every_offset() {
    const LEN: usize = 700;
    let sequences: [&[u8]; 9] = [
        b"\xC3\xA9",         // valid two-byte
        b"\xE2\x82\xAC",     // valid three-byte
        b"\xF0\x9F\x98\x80", // valid four-byte
        b"\xC0\xAF",         // overlong
        b"\x80",             // lone continuation
        b"\xE2\x82",         // three-byte cut short (ASCII follows)
        b"\xF0\x9F\x98",     // four-byte cut short (ASCII follows)
        b"\xED\xA0\x80",     // surrogate
        b"\xF4\x90\x80\x80", // above U+10FFFF
    ];
    let pattern: std::vec::Vec<u8> = (0..LEN + 70)
        .map(|k| (k as u8).wrapping_mul(37) ^ 0xA5)
        .collect();
    let before = level();
    for l in all_levels() {
        set_level(l);
        let check = |src: &[u8]| {
            for room in [src.len(), src.len().saturating_sub(1)] {
                let mut buf = pattern[..room + 64].to_vec();
                let got = copy_valid_utf8(src, &mut buf[..room]);
                let want = scalar::valid_utf8_prefix(&src[..room]);
                assert_eq!(got, want, "{l:?}, room {room}: {src:02X?}");
                assert_eq!(&buf[..got], &src[..got], "{l:?}, room {room}");
                assert!(
                    buf[got..] == pattern[got..room + 64],
                    "{l:?}, room {room}: written past {got}: {src:02X?}"
                );
            }
        };
        for seq in sequences {
            for at in 0..=LEN - seq.len() {
                let mut src = std::vec![b'a'; LEN];
                src[at..at + seq.len()].copy_from_slice(seq);
                check(&src);
                // Cut right after the sequence, and inside it.
                for end in at + 1..=at + seq.len() {
                    check(&src[..end]);
                }
            }
        }
    }
    set_level(before);
}

/// UTF-8 to Latin-1 (`utf8_to_isomorphic`) at every level against its definition.
mod isomorphic {
    use crate::simd::{set_level, utf8_to_isomorphic, Level};
    use std::vec::Vec;

    /// The definition: the spec's UTF-8 decoder's characters, one by one, while each is below
    /// U+0100 and fits.
    fn definition(src: &[u8], room: usize) -> (usize, Vec<u8>) {
        let valid = match core::str::from_utf8(src) {
            Ok(s) => s,
            Err(e) => core::str::from_utf8(&src[..e.valid_up_to()]).unwrap(),
        };
        let (mut read, mut out) = (0, Vec::new());
        for c in valid.chars() {
            if c as u32 > 0xFF || out.len() == room {
                break;
            }
            out.push(c as u32 as u8);
            read += c.len_utf8();
        }
        (read, out)
    }

    fn levels() -> Vec<Level> {
        let v: Vec<Level> = crate::simd::tests::all_levels().collect();
        assert!(v.iter().all(|&l| set_level(l) == l));
        v
    }

    #[test]
    fn every_level_agrees_with_the_definition() {
        let pieces: [&[u8]; 12] = [
            b"a",
            b"abcdefghijklmnopq",
            "é".as_bytes(),
            "ÿ".as_bytes(),
            "\u{80}".as_bytes(),
            "ä ö ü ß".as_bytes(),
            "Ā".as_bytes(),
            "火".as_bytes(),
            b"\xC2",
            b"\xC3\x41",
            b"\xC1\xBF",
            b"\xBF",
        ];
        let mut x = 0x1234_5678u32;
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for _ in 0..3000 {
            let mut v = Vec::new();
            let len = crate::xorshift32(&mut x) % 120;
            while v.len() < len as usize {
                let r = crate::xorshift32(&mut x) as usize;
                // Mostly text that converts, sometimes a piece that stops it.
                let k = if r.is_multiple_of(16) {
                    r / 16 % 12
                } else {
                    r / 16 % 6
                };
                v.extend_from_slice(pieces[k]);
            }
            cases.push(v);
        }
        for k in 0..64 {
            // A two-byte sequence at every place around the block edges.
            let mut v = std::vec![b'x'; k];
            v.extend_from_slice("é".as_bytes());
            v.extend(std::iter::repeat_n(b'y', 70));
            cases.push(v);
        }
        let before = crate::simd::level();
        for level in levels() {
            set_level(level);
            for case in &cases {
                for room in [
                    0,
                    1,
                    7,
                    8,
                    15,
                    16,
                    17,
                    31,
                    32,
                    33,
                    case.len() / 2,
                    case.len(),
                ] {
                    let (read, want) = definition(case, room);
                    let mut dst = std::vec![0xA5u8; room + 40];
                    let (r, w) = utf8_to_isomorphic(case, &mut dst[..room]);
                    assert_eq!(
                        (r, &dst[..w]),
                        (read, &want[..]),
                        "{level:?} {case:?} {room}"
                    );
                    assert!(dst[w..].iter().all(|&b| b == 0xA5), "{level:?} {case:?}");
                }
            }
        }
        set_level(before);
    }
}
