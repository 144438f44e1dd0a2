//! What every test file shares: one random-number generator, one failure collector, one way
//! to show bytes, one corpus loader. A test binary includes it with `mod support;` (or through
//! `mod common;` / `mod io_common;`, which re-export it) and uses only part of it.
#![allow(dead_code)]

/// A small deterministic PRNG (xorshift64*), so failures reproduce exactly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded from `seed` (scrambled, never the all-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// A generator whose state is `state` as it is (not zero).
    pub fn from_state(state: u64) -> Rng {
        assert_ne!(state, 0);
        Rng(state)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        ((self.next_u64() >> 11) % n as u64) as usize
    }
    /// Uniform-ish in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// A random scalar value, biased towards interesting ranges.
    pub fn scalar(&mut self) -> char {
        loop {
            let cp = match self.below(8) {
                0 => self.below(0x80) as u32,
                1 => self.range(0x80, 0x7FF) as u32,
                2 => self.range(0x800, 0xFFFF) as u32,
                3 => self.range(0x10000, 0x10FFFF) as u32,
                4 => self.range(0x3000, 0x9FFF) as u32,
                5 => self.range(0xE000, 0xF8FF) as u32,
                6 => self.range(0xFF00, 0xFFFF) as u32,
                _ => self.range(0x2000, 0x2FFF) as u32,
            };
            if let Some(c) = char::from_u32(cp) {
                return c;
            }
        }
    }
}

/// Collects failures and panics at the end with the first few, so one run shows many findings.
pub struct Failures {
    pub what: String,
    pub list: Vec<String>,
    pub count: usize,
}

impl Failures {
    pub fn new(what: impl Into<String>) -> Failures {
        Failures {
            what: what.into(),
            list: Vec::new(),
            count: 0,
        }
    }
    pub fn push(&mut self, msg: String) {
        self.count += 1;
        if self.list.len() < 30 {
            self.list.push(msg);
        }
    }
    pub fn finish(self) {
        if self.count > 0 {
            panic!(
                "{}: {} failure(s); first {}:\n  {}",
                self.what,
                self.count,
                self.list.len(),
                self.list.join("\n  ")
            );
        }
    }
}

/// Bytes for failure messages: `[AA BB]`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::from("[");
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{b:02X}"));
    }
    s.push(']');
    s
}

/// UTF-16 code units for failure messages: `[AAAA BBBB]`.
pub fn hex16(units: &[u16]) -> String {
    let mut s = String::from("[");
    for (i, b) in units.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{b:04X}"));
    }
    s.push(']');
    s
}

/// A string as its code points: `[U+0041 U+3042]`.
pub fn cps(s: &str) -> String {
    let mut out = String::from("[");
    for (i, c) in s.chars().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("U+{:04X}", c as u32));
    }
    out.push(']');
    out
}

/// The repository's root: the nearest directory above the crate being built (the library, or
/// the fuzz crate, which shares these helpers) that holds `data/`.
pub fn repo_root() -> std::path::PathBuf {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .find(|d| d.join("data/whatwg").is_dir())
        .unwrap_or(crate_dir)
        .to_path_buf()
}

/// The corpus of texts (Wikipedia articles; data/corpus/README.md).
pub fn corpus_dir() -> std::path::PathBuf {
    repo_root().join("data/corpus/wikipedia")
}

/// A file of the corpus (`ja.txt`, `en.html`, ...) as text.
pub fn corpus_file(name: &str) -> String {
    let path = corpus_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The UTF-8 text of a corpus language.
pub fn corpus_text(lang: &str) -> String {
    corpus_file(&format!("{lang}.txt"))
}

/// The first `max` bytes (cut at a character boundary) of `text`.
pub fn prefix(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The SIMD dispatch levels of the architecture compiled for that this CPU has, lowest first;
/// prints them and the levels it lacks (skipped), so that a run says what it did not test.
pub fn dispatch_levels() -> Vec<textcodec::dispatch::Level> {
    use textcodec::dispatch::{detected_level, native_levels};
    let best = detected_level();
    let (tested, skipped): (Vec<_>, Vec<_>) =
        native_levels().iter().copied().partition(|&l| l <= best);
    // Avx512 needs AVX-512 F, BW, VL, VBMI and VBMI2: a CPU with only the first three skips it.
    let avx512 = if skipped.contains(&textcodec::dispatch::Level::Avx512) {
        " (Avx512: AVX-512 F/BW/VL/VBMI/VBMI2)"
    } else {
        ""
    };
    println!("dispatch levels tested: {tested:?}; skipped (not on this CPU): {skipped:?}{avx512}");
    tested
}
