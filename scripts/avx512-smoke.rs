//! A check that the CPU running it (scripts/test-avx512.sh: Bochs emulating an AVX-512 CPU)
//! executes the AVX-512 instructions textcodec's kernels use and gets them right: each
//! instruction's result is compared with the same operation written out in scalar code, on
//! pseudo-random inputs. `--wrong` corrupts one expected byte on purpose: the run must then
//! fail, which shows that a mismatch is seen (and that the comparisons are not skipped).
//!
//! Built as its own static binary (no cargo, no dependencies):
//!   rustc --edition 2021 -O -C target-feature=+crt-static scripts/avx512-smoke.rs
//! Exit status 0 when every comparison holds, 1 otherwise, 2 when the CPU lacks a feature.

use std::arch::x86_64::*;

fn detected() -> [(&'static str, bool); 5] {
    [
        ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
        ("avx512bw", std::arch::is_x86_feature_detected!("avx512bw")),
        ("avx512vl", std::arch::is_x86_feature_detected!("avx512vl")),
        (
            "avx512vbmi",
            std::arch::is_x86_feature_detected!("avx512vbmi"),
        ),
        (
            "avx512vbmi2",
            std::arch::is_x86_feature_detected!("avx512vbmi2"),
        ),
    ]
}

/// xorshift64*: the inputs, the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        for c in b.chunks_mut(8) {
            let r = self.next().to_le_bytes();
            c.copy_from_slice(&r[..c.len()]);
        }
        b
    }
}

/// VPCOMPRESSB (AVX512_VBMI2), 512 bits: the bytes whose mask bit is set, packed to the front,
/// the rest zero.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
fn compress_512(src: &[u8; 64], mask: u64) -> [u8; 64] {
    let mut out = [0u8; 64];
    // SAFETY: both pointers address 64 readable/writable bytes; loadu/storeu take any alignment.
    unsafe {
        let v = _mm512_loadu_si512(src.as_ptr().cast());
        _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_maskz_compress_epi8(mask, v));
    }
    out
}

/// VPCOMPRESSB at 256 bits (AVX512_VBMI2 with AVX512VL), the form on ymm registers.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn compress_256(src: &[u8; 32], mask: u32) -> [u8; 32] {
    let mut out = [0u8; 32];
    // SAFETY: both pointers address 32 readable/writable bytes; loadu/storeu take any alignment.
    unsafe {
        let v = _mm256_loadu_si256(src.as_ptr().cast());
        _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_maskz_compress_epi8(mask, v));
    }
    out
}

/// VPERMB (AVX512_VBMI): out[i] = table[idx[i] % 64].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn permute_512(table: &[u8; 64], idx: &[u8; 64]) -> [u8; 64] {
    let mut out = [0u8; 64];
    // SAFETY: every pointer addresses 64 readable/writable bytes.
    unsafe {
        let t = _mm512_loadu_si512(table.as_ptr().cast());
        let i = _mm512_loadu_si512(idx.as_ptr().cast());
        _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_permutexvar_epi8(i, t));
    }
    out
}

/// VPMULTISHIFTQB (AVX512_VBMI): byte `j` of each 64-bit lane of the result is the 8 bits of
/// `data`'s lane from bit `ctrl[j] % 64` on (rotating past bit 63).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn multishift_512(ctrl: &[u8; 64], data: &[u8; 64]) -> [u8; 64] {
    let mut out = [0u8; 64];
    // SAFETY: every pointer addresses 64 readable/writable bytes.
    unsafe {
        let c = _mm512_loadu_si512(ctrl.as_ptr().cast());
        let d = _mm512_loadu_si512(data.as_ptr().cast());
        _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_multishift_epi64_epi8(c, d));
    }
    out
}

/// VPERMT2B (AVX512_VBMI): out[i] = (b if bit 6 of idx[i] else a)[idx[i] % 64].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn permute2_512(a: &[u8; 64], idx: &[u8; 64], b: &[u8; 64]) -> [u8; 64] {
    let mut out = [0u8; 64];
    // SAFETY: every pointer addresses 64 readable/writable bytes.
    unsafe {
        let va = _mm512_loadu_si512(a.as_ptr().cast());
        let i = _mm512_loadu_si512(idx.as_ptr().cast());
        let vb = _mm512_loadu_si512(b.as_ptr().cast());
        _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_permutex2var_epi8(va, i, vb));
    }
    out
}

/// VPMOVB2M / signed byte compare (AVX512BW): the mask of the bytes >= 0x80, and the mask of
/// the signed bytes greater than `b`'s.
#[target_feature(enable = "avx512f,avx512bw")]
fn masks_512(a: &[u8; 64], b: &[u8; 64]) -> (u64, u64) {
    // SAFETY: both pointers address 64 readable bytes.
    unsafe {
        let va = _mm512_loadu_si512(a.as_ptr().cast());
        let vb = _mm512_loadu_si512(b.as_ptr().cast());
        (_mm512_movepi8_mask(va), _mm512_cmpgt_epi8_mask(va, vb))
    }
}

/// VPMOVZXBW (AVX512BW): 32 bytes widened to 32 u16.
#[target_feature(enable = "avx512f,avx512bw")]
fn widen_512(src: &[u8; 32]) -> [u16; 32] {
    let mut out = [0u16; 32];
    // SAFETY: src addresses 32 readable bytes, out 64 writable bytes.
    unsafe {
        let v = _mm256_loadu_si256(src.as_ptr().cast());
        _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_cvtepu8_epi16(v));
    }
    out
}

fn compress_scalar(src: &[u8], mask: u64) -> Vec<u8> {
    let mut out: Vec<u8> = (0..src.len())
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| src[i])
        .collect();
    out.resize(src.len(), 0);
    out
}

fn main() {
    let wrong = std::env::args().any(|a| a == "--wrong");
    let rounds: usize = std::env::var("AVX512_SMOKE_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let features = detected();
    let line: Vec<String> = features
        .iter()
        .map(|(n, on)| format!("{n}={}", if *on { "yes" } else { "NO" }))
        .collect();
    println!("avx512-smoke: detected {}", line.join(" "));
    if features.iter().any(|f| !f.1) {
        println!("avx512-smoke: FAIL, the CPU lacks a feature");
        std::process::exit(2);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checks = 0u64;
    let mut failures = 0u64;
    let mut check = |what: &str, round: usize, ok: bool| {
        checks += 1;
        if !ok {
            failures += 1;
            if failures <= 5 {
                println!("avx512-smoke: MISMATCH {what} round {round}");
            }
        }
    };
    for round in 0..rounds {
        let a: [u8; 64] = rng.bytes();
        let b: [u8; 64] = rng.bytes();
        let mask = rng.next() & rng.next();
        // SAFETY (all calls below): every feature they enable was detected above.
        let got = unsafe { compress_512(&a, mask) };
        let mut want = compress_scalar(&a, mask);
        if wrong && round == rounds / 2 {
            want[0] ^= 1;
        }
        check("vpcompressb zmm", round, got[..] == want[..]);

        let a32: [u8; 32] = a[..32].try_into().unwrap();
        let got = unsafe { compress_256(&a32, mask as u32) };
        check(
            "vpcompressb ymm",
            round,
            got[..] == compress_scalar(&a32, mask & 0xFFFF_FFFF)[..],
        );

        let got = unsafe { permute_512(&a, &b) };
        let want: Vec<u8> = b.iter().map(|&i| a[usize::from(i % 64)]).collect();
        check("vpermb", round, got[..] == want[..]);

        let got = unsafe { multishift_512(&b, &a) };
        let want: Vec<u8> = (0..64)
            .map(|j| {
                let lane = u64::from_le_bytes(a[j / 8 * 8..j / 8 * 8 + 8].try_into().unwrap());
                lane.rotate_right(u32::from(b[j] % 64)) as u8
            })
            .collect();
        check("vpmultishiftqb", round, got[..] == want[..]);

        let c: [u8; 64] = rng.bytes();
        let got = unsafe { permute2_512(&a, &b, &c) };
        let want: Vec<u8> = b
            .iter()
            .map(|&i| {
                if i & 64 == 0 {
                    a[usize::from(i % 64)]
                } else {
                    c[usize::from(i % 64)]
                }
            })
            .collect();
        check("vpermt2b", round, got[..] == want[..]);

        let (high, gt) = unsafe { masks_512(&a, &b) };
        let want_high = (0..64).fold(0u64, |m, i| m | (u64::from(a[i] >> 7) << i));
        let want_gt = (0..64).fold(0u64, |m, i| {
            m | (u64::from((a[i] as i8) > (b[i] as i8)) << i)
        });
        check("vpmovb2m", round, high == want_high);
        check("vpcmpgtb k", round, gt == want_gt);

        let got = unsafe { widen_512(&a32) };
        check(
            "vpmovzxbw zmm",
            round,
            got.iter().zip(a32).all(|(&w, n)| w == u16::from(n)),
        );
    }
    if failures == 0 {
        println!("avx512-smoke: PASS, {checks} comparisons");
    } else {
        println!("avx512-smoke: FAIL, {failures} of {checks} comparisons differ");
        std::process::exit(1);
    }
}
