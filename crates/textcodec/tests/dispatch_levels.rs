//! The conformance comparison with encoding_rs, run under every SIMD dispatch level the CPU
//! supports (scalar, SSE2 and AVX2 on x86-64; scalar and NEON on aarch64): every level must
//! give identical results.
//!
//! This is its own test binary with a single test, because the dispatch level is global.

use textcodec::dispatch::{detected_level, set_level, Level};
use textcodec::{BomHandling, DecoderOptions, EncoderErrorMode, Encoding, Status};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/corpus/wikipedia/");

fn corpus_text() -> String {
    let mut s = String::new();
    for f in [
        "ru.txt",
        "ja.txt",
        "zh_tw.txt",
        "ko.txt",
        "ar.txt",
        "el.txt",
        "th.txt",
        "en.html",
        "pt.txt",
        "de.txt",
        "fr.txt",
        "cs.txt",
        "tr.txt",
    ] {
        let t = std::fs::read_to_string(format!("{CORPUS}{f}")).unwrap();
        // A slice of each, cut at a character boundary.
        let mut end = t.len().min(6000);
        while !t.is_char_boundary(end) {
            end -= 1;
        }
        s.push_str(&t[..end]);
    }
    s.push_str("😀 𝄞 \u{FEFF} \u{10FFFF} ¥‾−ｱ");
    s
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn decode_tc(enc: &'static Encoding, bytes: &[u8], chunk: usize) -> (String, Vec<u16>) {
    let opts = DecoderOptions {
        bom: BomHandling::Keep,
        ..Default::default()
    };
    let mut d = enc.new_decoder(opts);
    let mut s = String::new();
    for (k, c) in bytes.chunks(chunk).enumerate() {
        d.decode_to_string(c, &mut s, (k + 1) * chunk >= bytes.len())
            .unwrap();
    }
    let mut d = enc.new_decoder(opts);
    let mut u = vec![0u16; d.max_utf16_buffer_length(bytes.len()).unwrap()];
    let p = d.decode_to_utf16(bytes, &mut u, true).unwrap();
    assert_eq!(p.status, Status::InputEmpty);
    u.truncate(p.written);
    (s, u)
}

fn encode_tc(enc: &'static Encoding, text: &str) -> (Vec<u8>, Vec<u8>) {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut a = vec![0u8; e.max_buffer_length_from_utf8(text.len()).unwrap()];
    let p = e.encode_from_utf8(text, &mut a, true).unwrap();
    a.truncate(p.written);
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut b = vec![0u8; e.max_buffer_length_from_utf16(units.len()).unwrap()];
    let p = e.encode_from_utf16(&units, &mut b, true).unwrap();
    b.truncate(p.written);
    (a, b)
}

#[test]
fn every_dispatch_level_matches_encoding_rs() {
    let text = corpus_text();
    let best = detected_level();
    // The levels of the architecture compiled for; a level of another one gives Scalar.
    let (native, foreign): (&[Level], &[Level]) = if cfg!(target_arch = "x86_64") {
        (&[Level::Scalar, Level::Sse2, Level::Avx2], &[Level::Neon])
    } else if cfg!(target_arch = "aarch64") {
        (&[Level::Scalar, Level::Neon], &[Level::Sse2, Level::Avx2])
    } else {
        (&[Level::Scalar], &[Level::Sse2, Level::Avx2, Level::Neon])
    };
    assert!(native.contains(&best));
    if cfg!(target_arch = "x86_64") {
        assert!(best >= Level::Sse2, "SSE2 is the x86-64 baseline");
    }
    if cfg!(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )) {
        assert_eq!(best, Level::Neon, "NEON is enabled for this target");
    }
    for &l in foreign {
        assert_eq!(set_level(l), Level::Scalar, "{l:?}");
    }
    let levels: Vec<Level> = native.iter().copied().filter(|&l| l <= best).collect();
    println!("dispatch levels tested: {levels:?}");
    for &level in &levels {
        assert_eq!(set_level(level), level);
        let mut rng = Rng(0x5EED_0000 + level as u64);
        for &enc in Encoding::all() {
            let er = encoding_rs::Encoding::for_label(enc.name().as_bytes()).unwrap();
            // Valid input made by encoding_rs (UTF-16 by hand: encoding_rs has no UTF-16 encoder).
            let mut bytes = match enc.name() {
                "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                _ => er.encode(&text).0.into_owned(),
            };
            for round in 0..4 {
                if round > 0 {
                    // Damage: random bytes at random places.
                    for _ in 0..(round * 7) {
                        let at = rng.next() as usize % bytes.len();
                        bytes[at] = rng.next() as u8;
                    }
                }
                let (want, _) = er.decode_without_bom_handling(&bytes);
                let want16: Vec<u16> = want.encode_utf16().collect();
                let chunk = 1 + rng.next() as usize % 700;
                let (got, got16) = decode_tc(enc, &bytes, chunk);
                assert!(
                    got == want,
                    "{level:?} {} decode to UTF-8 round {round}",
                    enc.name()
                );
                assert!(
                    got16 == want16,
                    "{level:?} {} decode to UTF-16 round {round}",
                    enc.name()
                );
            }
            let out = enc.output_encoding();
            let er_out = encoding_rs::Encoding::for_label(out.name().as_bytes()).unwrap();
            let (want, _, _) = er_out.encode(&text);
            let (a, b) = encode_tc(enc, &text);
            assert!(a == want[..], "{level:?} {} encode from UTF-8", enc.name());
            assert!(b == want[..], "{level:?} {} encode from UTF-16", enc.name());
        }
    }
    set_level(best);
}
