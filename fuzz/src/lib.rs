//! The bodies of the fuzz targets, shared by the libFuzzer targets (fuzz_targets/*.rs, run with
//! `cargo fuzz`) and by the stable smoke runner (examples/smoke.rs).
//!
//! Every function takes arbitrary bytes, never panics on valid use of the API, and checks the
//! streaming contract of the crate documentation against oracles, at the SIMD dispatch level the input picks:
//! - the output equals encoding_rs's (the differential oracle), whatever the BOM handling,
//!   split points and dst sizes;
//! - every call's `read` and `written`, and in fatal mode every error's position (the call's
//!   offset plus `read`) and the output before it: decoders against the literal spec
//!   transcription of tests/common/spec.rs (positions, with the spec's BOM handling),
//!   encoders against encoding_rs;
//! - nothing past what a call reports as written is modified (every dst is sentinel-filled);
//! - a dst of `max_*_buffer_length` is never `OutputFull`, and every call's output is whole
//!   characters.
//!
//! The stream drivers and the oracles are the library tests' own (tests/common), shared.

pub mod sniff;

#[path = "../../crates/textcodec/tests/common/mod.rs"]
pub mod common;

use common::{Dst, Either, Utf16In, Utf8In};
use textcodec::dispatch::{detected_level, set_level, Level};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status, TextDecoder,
    TextDecoderOptions, TextEncoder,
};

/// A tiny deterministic PRNG (xorshift64*), seeded from the fuzz input.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) % n.max(1) as u64) as usize
    }
}

fn pick_encoding(b: u8) -> &'static Encoding {
    let all = Encoding::all();
    all[b as usize % all.len()]
}

fn oracle(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes())
        .expect("encoding_rs knows every spec encoding")
}

fn bom_mode(b: u8) -> BomHandling {
    match b & 3 {
        1 => BomHandling::Sniff,
        2 => BomHandling::Strip,
        _ => BomHandling::Keep,
    }
}

fn dopts(fatal: bool, bom: BomHandling) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
        bom,
    }
}

/// The SIMD dispatch level of the input's choice (`bits` & 3: the best the CPU has, Scalar,
/// SSE2, AVX2; capped at what it has), set for what follows. Every level of the CPU is
/// reachable: the best (AVX-512 where the CPU has it) by 0, the others below it by name.
/// The levels of this architecture the CPU lacks, which no input reaches.
pub fn skipped_levels() -> Vec<Level> {
    let best = detected_level();
    textcodec::dispatch::native_levels()
        .iter()
        .copied()
        .filter(|&l| l > best)
        .collect()
}

fn pick_level(bits: u8) -> Level {
    let wanted = match bits & 3 {
        0 => detected_level(),
        1 => Level::Scalar,
        2 => Level::Sse2,
        _ => Level::Avx2,
    };
    set_level(wanted)
}

// ------------------------------------------------------------------------------------------------
// Decoding
// ------------------------------------------------------------------------------------------------

/// One-shot replacement-mode decode with a dst of exactly max_utf8_buffer_length.
fn one_shot_decode(
    enc: &'static Encoding,
    bom: BomHandling,
    src: &[u8],
) -> (String, bool, &'static Encoding) {
    let mut d = enc.new_decoder(dopts(false, bom));
    let n = d
        .max_utf8_buffer_length(src.len())
        .expect("max length overflow");
    let mut dst = vec![0u8; n];
    let p = d
        .decode_to_utf8(src, &mut dst, false)
        .expect("replacement mode never fails");
    assert_eq!(
        (p.status, p.read),
        (Status::InputEmpty, src.len()),
        "max_utf8_buffer_length too small"
    );
    let used = d.encoding();
    let mut out = String::from_utf8(dst[..p.written].to_vec()).expect("UTF-8");
    let n = d.max_utf8_buffer_length(0).expect("max length overflow");
    let mut dst = vec![0u8; n];
    let q = d
        .decode_to_utf8(&[], &mut dst, true)
        .expect("replacement mode never fails");
    assert_eq!(
        q.status,
        Status::InputEmpty,
        "max_utf8_buffer_length(0) too small at the end"
    );
    out.push_str(std::str::from_utf8(&dst[..q.written]).expect("UTF-8"));
    (out, p.replaced || q.replaced, used)
}

/// Target: `Decoder::decode_to_utf8` / `decode_to_utf16` / `decode_to_string` and
/// `DecodeReader::read`, in both error modes, with arbitrary split points and dst sizes.
/// Input: [encoding, flags, seed, seed, payload...]; flags: BOM handling (bits 0-1), dst
/// policy (2-3), dispatch level (4-5).
pub fn decode(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let enc = pick_encoding(data[0]);
    let flags = data[1];
    let bom = bom_mode(flags);
    let level = pick_level(flags >> 4);
    let mut rng = common::Rng::new(u64::from(data[2]) << 8 | u64::from(data[3]));
    let src = &data[4..];
    let ctx = |what: &str| format!("{level:?} {} {bom:?} {what}", enc.name());
    // The oracle: the text, and the output before each error, as encoding_rs's (fatal mode
    // resumed after each error, U+FFFD there: the replacement-mode text); the errors'
    // positions as the spec transcription's.
    let want = common::expected_fatal_decode(enc, bom, src).unwrap_or_else(|e| panic!("{e}"));
    let (reference, _, _) = one_shot_decode(enc, bom, src);
    assert_eq!(reference, want.text, "{}", ctx("one call"));
    let plan = common::chunk_plan(&mut rng, src.len(), 48, |_| true);
    let policy = match flags >> 2 & 3 {
        0 => Dst::Exact,
        1 => Dst::Tiny,
        2 => Dst::Big,
        _ => Dst::Random(rng.next_u64()),
    };
    for fatal in [false, true] {
        let what = format!("fatal={fatal} chunks {plan:?} {policy:?}");
        for (target, r) in [
            (
                "utf8",
                common::stream_decode::<u8>(enc, bom, fatal, src, &plan, policy),
            ),
            (
                "utf16",
                common::stream_decode::<u16>(enc, bom, fatal, src, &plan, policy),
            ),
        ] {
            let t = r.unwrap_or_else(|e| panic!("{} {target}: {e}", ctx(&what)));
            assert_eq!(t.text, want.text, "{} {target}", ctx(&what));
            if fatal {
                common::compare_errors(&t.errors, &want.errors)
                    .unwrap_or_else(|e| panic!("{} {target}: {e}", ctx(&what)));
            }
        }
    }
    let mut d = enc.new_decoder(dopts(false, bom));
    let mut s = String::new();
    let mut off = 0;
    for (i, &n) in plan.iter().enumerate() {
        let p = d
            .decode_to_string(&src[off..off + n], &mut s, i + 1 == plan.len())
            .unwrap();
        assert_eq!((p.status, p.read), (Status::InputEmpty, n));
        off += n;
    }
    assert_eq!(s, reference, "{}", ctx("decode_to_string"));
    // DecodeReader::read (replacement mode) into sentinel-filled buffers of random sizes.
    use std::io::Read;
    let mut reader = textcodec::io::DecodeReader::with_options(src, enc, dopts(false, bom));
    let mut got = Vec::new();
    for call in 0.. {
        let sentinel = common::sentinel8(call);
        let mut buf = vec![sentinel; rng.below(40)];
        let n = reader
            .read(&mut buf)
            .expect("a reader of bytes in memory never fails");
        common::check_tail(&buf, n, sentinel).unwrap_or_else(|e| panic!("{}: {e}", ctx("read")));
        if n == 0 && !buf.is_empty() {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, reference.as_bytes(), "{}", ctx("DecodeReader::read"));
}

// ------------------------------------------------------------------------------------------------
// Encoding
// ------------------------------------------------------------------------------------------------

fn one_shot_encode(enc: &'static Encoding, text: &str) -> (Vec<u8>, bool) {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let n = e
        .max_buffer_length_from_utf8(text.len())
        .expect("max length overflow");
    let mut dst = vec![0u8; n];
    let p = e
        .encode_from_utf8(text, &mut dst, true)
        .expect("html mode never fails");
    assert_eq!(
        (p.status, p.read),
        (Status::InputEmpty, text.len()),
        "{}: max_buffer_length_from_utf8({}) = {n} too small for {text:?}",
        enc.name(),
        text.len()
    );
    (dst[..p.written].to_vec(), p.replaced)
}

fn encoding_rs_html(enc: &'static Encoding, text: &str) -> Vec<u8> {
    let mut e = oracle(enc).new_encoder();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1024];
    let mut pos = 0;
    loop {
        let (r, read, written, _) = e.encode_from_utf8(&text[pos..], &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        if r == encoding_rs::CoderResult::InputEmpty {
            return out;
        }
    }
}

/// UTF-16 units from the payload: either pairs of bytes (little-endian; anything, including lone
/// surrogates) or the payload as (lossy) UTF-8 text.
fn units_of(flags: u8, payload: &[u8]) -> Vec<u16> {
    if flags & 1 == 0 {
        payload
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    } else {
        String::from_utf8_lossy(payload).encode_utf16().collect()
    }
}

/// Target: `Encoder::encode_from_utf8` / `encode_from_utf16`, html and fatal mode, with
/// arbitrary split points (inside surrogate pairs too) and dst sizes. Input: [encoding, flags,
/// seed, payload...]; flags: UTF-16 units or text (bit 0), dst policy (1-2), dispatch level
/// (4-5).
pub fn encode(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let enc = pick_encoding(data[0]).output_encoding();
    let flags = data[1];
    let level = pick_level(flags >> 4);
    let mut rng = common::Rng::new(u64::from(data[2]) << 8 | u64::from(flags));
    let units = units_of(flags, &data[3..]);
    let text = String::from_utf16_lossy(&units);
    let ctx = |what: &str| format!("{level:?} {} {what}", enc.name());
    // The oracle: encoding_rs in fatal mode, resumed after each unmappable character, its
    // reference inserted there (the html-mode bytes), and where it reports each.
    let want8 = common::er_fatal_encode(enc, Either::Utf8(&text));
    let want16 = common::er_fatal_encode(enc, Either::Utf16(&units));
    let (reference, _) = one_shot_encode(enc, &text);
    assert_eq!(reference, want8.text, "{}", ctx("one call"));
    assert_eq!(reference, encoding_rs_html(enc, &text), "{}", ctx("html"));
    let policy = match flags >> 1 & 3 {
        0 => Dst::Exact,
        1 => Dst::Tiny,
        2 => Dst::Big,
        _ => Dst::Random(rng.next_u64()),
    };
    let plan8 = common::chunk_plan(&mut rng, text.len(), 48, |i| text.is_char_boundary(i));
    let plan16 = common::chunk_plan(&mut rng, units.len(), 48, |_| true);
    for fatal in [false, true] {
        let checks = [
            (
                "utf8",
                common::stream_encode(enc, fatal, &Utf8In(&text), &plan8, policy),
                &want8,
            ),
            (
                "utf16",
                common::stream_encode(enc, fatal, &Utf16In(&units), &plan16, policy),
                &want16,
            ),
        ];
        for (source, r, want) in checks {
            let what = format!("from {source} fatal={fatal} {policy:?}");
            let t = r.unwrap_or_else(|e| panic!("{}: {e}", ctx(&what)));
            assert_eq!(t.text, want.text, "{}", ctx(&what));
            if fatal {
                common::compare_errors(&t.errors, &want.errors)
                    .unwrap_or_else(|e| panic!("{}: {e}", ctx(&what)));
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Hooks
// ------------------------------------------------------------------------------------------------

/// Target: the hooks (decode, utf8_decode, utf8_decode_without_bom, ..._or_fail, encode,
/// encode_or_fail) against the streaming API and encoding_rs. Input: [encoding, payload...].
pub fn hooks(data: &[u8]) {
    if data.is_empty() {
        return;
    }
    pick_level(data[0] >> 6);
    let enc = pick_encoding(data[0]);
    let bytes = &data[1..];
    // "decode".
    let (text, used, had_errors) = textcodec::decode(bytes, enc);
    let (want, replaced, _) = one_shot_decode(enc, BomHandling::Sniff, bytes);
    assert_eq!(text, want);
    assert_eq!(had_errors, replaced);
    let (bom_enc, bom_len) = Encoding::for_bom(bytes).unwrap_or((enc, 0));
    assert!(used == bom_enc);
    if let std::borrow::Cow::Borrowed(s) = &text {
        assert_eq!(
            s.as_bytes(),
            &bytes[bom_len..],
            "Borrowed text must be the input"
        );
    }
    let (er_text, er_used, er_errors) = oracle(enc).decode(bytes);
    assert_eq!(
        (&*text, used.name(), had_errors),
        (&*er_text, er_used.name(), er_errors)
    );
    // "UTF-8 decode", "... without BOM", "... without BOM or fail".
    let u = textcodec::utf8_decode(bytes);
    assert_eq!(
        u,
        one_shot_decode(textcodec::UTF_8, BomHandling::Strip, bytes).0
    );
    let w = textcodec::utf8_decode_without_bom(bytes);
    let (w_want, w_errors, _) = one_shot_decode(textcodec::UTF_8, BomHandling::Keep, bytes);
    assert_eq!(w, w_want);
    match textcodec::utf8_decode_without_bom_or_fail(bytes) {
        Ok(s) => {
            assert!(!w_errors);
            assert_eq!(s, w);
        }
        Err(e) => {
            assert!(w_errors);
            let mut d = textcodec::UTF_8.new_decoder(dopts(true, BomHandling::Keep));
            let mut dst = vec![0u8; d.max_utf8_buffer_length(bytes.len()).unwrap()];
            let first = d.decode_to_utf8(bytes, &mut dst, true).unwrap_err();
            assert_eq!(e, first, "or_fail error != the decoder's first error");
        }
    }
    // "encode", "encode or fail".
    let s = String::from_utf8_lossy(bytes);
    let (b, out_enc, rep) = textcodec::encode(&s, enc);
    assert!(out_enc == enc.output_encoding());
    let (b_want, rep_want) = one_shot_encode(out_enc, &s);
    assert_eq!((&*b, rep), (&b_want[..], rep_want));
    assert_eq!(&*b, &encoding_rs_html(enc, &s)[..]);
    match textcodec::encode_or_fail(&s, enc) {
        Ok(x) => {
            assert!(!rep);
            assert_eq!(&*x, &*b);
        }
        Err(err) => {
            assert!(rep);
            let mut e = out_enc.new_encoder(EncoderErrorMode::Fatal);
            let mut dst = vec![0u8; e.max_buffer_length_from_utf8(s.len()).unwrap()];
            let first = e.encode_from_utf8(&s, &mut dst, true).unwrap_err();
            assert_eq!(err, first);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// TextDecoder / TextEncoder
// ------------------------------------------------------------------------------------------------

/// Target: TextDecoder with arbitrary `stream` chunks. Input: [encoding, flags, seed, payload...].
pub fn text_decoder(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let enc = pick_encoding(data[0]);
    pick_level(data[1] >> 4);
    let options = TextDecoderOptions {
        fatal: data[1] & 1 != 0,
        ignore_bom: data[1] & 2 != 0,
    };
    let label = if data[1] & 4 != 0 {
        format!(" \t{}\n", enc.name().to_ascii_uppercase())
    } else {
        enc.name().to_string()
    };
    let Ok(mut d) = TextDecoder::new(&label, options) else {
        assert!(enc == textcodec::REPLACEMENT, "{label:?} refused");
        return;
    };
    assert!(
        enc != textcodec::REPLACEMENT,
        "the replacement encoding must be refused"
    );
    assert_eq!(d.encoding(), enc.name().to_ascii_lowercase());
    let src = &data[3..];
    let mut rng = common::Rng::new(u64::from(data[2]));
    // Reference: the decoder without BOM handling, then "serialize I/O queue".
    let (mut want, errors, _) = one_shot_decode(enc, BomHandling::Keep, src);
    let unicode = [textcodec::UTF_8, textcodec::UTF_16BE, textcodec::UTF_16LE].contains(&enc);
    if unicode && !options.ignore_bom && want.starts_with('\u{FEFF}') {
        want.remove(0);
    }
    let plan = common::chunk_plan(&mut rng, src.len(), 48, |_| true);
    let mut got = String::new();
    let mut failed = false;
    let mut off = 0;
    for (i, &n) in plan.iter().enumerate() {
        let stream = i + 1 < plan.len();
        match d.decode(&src[off..off + n], stream) {
            Ok(s) => got += &s,
            Err(_) => {
                assert!(options.fatal && errors, "unexpected error");
                failed = true;
                break;
            }
        }
        off += n;
    }
    if !failed {
        assert!(
            !(options.fatal && errors),
            "fatal TextDecoder accepted malformed input"
        );
        assert_eq!(got, want);
    }
    // A new stream after a `stream: false` call; UTF-16 output.
    if failed {
        let _ = d.decode(&[], false);
    }
    match d.decode_to_utf16(src, false) {
        Ok(u) => {
            assert!(!(options.fatal && errors));
            assert_eq!(u, want.encode_utf16().collect::<Vec<u16>>());
        }
        Err(_) => assert!(options.fatal && errors),
    }
}

/// Target: TextEncoder encode / encode_utf16 / encode_into / encode_utf16_into with arbitrary
/// destination sizes, sentinel-filled. Input: [flags, seed, payload...]; flags: UTF-16 units
/// or text (bit 0), dispatch level (4-5).
pub fn text_encoder(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let level = pick_level(data[0] >> 4);
    let mut rng = Rng::new(u64::from(data[1]));
    let units = units_of(data[0], &data[2..]);
    let text = String::from_utf16_lossy(&units);
    let e = TextEncoder::new();
    assert_eq!(e.encoding(), "utf-8");
    assert_eq!(e.encode(&text), text.as_bytes());
    assert_eq!(e.encode_utf16(&units), text.as_bytes(), "{level:?}");
    // Small sizes (where a character may not fit) and some around the SIMD blocks.
    let size = |rng: &mut Rng| match rng.below(3) {
        0 => rng.below(6),
        _ => rng.below(80),
    };
    let mut out = Vec::new();
    let mut pos = 0;
    for call in 0.. {
        if pos == text.len() {
            break;
        }
        let n = size(&mut rng);
        let sentinel = common::sentinel8(call);
        let mut dst = vec![sentinel; n];
        let r = e.encode_into(&text[pos..], &mut dst);
        assert!(r.written <= n && text.is_char_boundary(pos + r.read));
        assert_eq!(r.read, r.written);
        common::check_tail(&dst, r.written, sentinel)
            .unwrap_or_else(|m| panic!("{level:?} encode_into: {m}"));
        if r.read == 0 {
            assert!(
                text[pos..].chars().next().unwrap().len_utf8() > n,
                "stopped early"
            );
        }
        out.extend_from_slice(&dst[..r.written]);
        pos += r.read;
    }
    assert_eq!(out, text.as_bytes());
    let mut out = Vec::new();
    let mut pos = 0;
    for call in 0.. {
        if pos == units.len() {
            break;
        }
        let n = size(&mut rng);
        let sentinel = common::sentinel8(call);
        let mut dst = vec![sentinel; n];
        let r = e.encode_utf16_into(&units[pos..], &mut dst);
        assert!(r.written <= n && r.read <= units.len() - pos);
        common::check_tail(&dst, r.written, sentinel)
            .unwrap_or_else(|m| panic!("{level:?} encode_utf16_into: {m}"));
        if r.read > 0 && pos + r.read < units.len() {
            let (a, b) = (units[pos + r.read - 1], units[pos + r.read]);
            assert!(
                !((0xD800..0xDC00).contains(&a) && (0xDC00..0xE000).contains(&b)),
                "split a surrogate pair"
            );
        }
        if r.read == 0 {
            assert!(n < 4, "stopped early with {n} bytes free");
        }
        out.extend_from_slice(&dst[..r.written]);
        pos += r.read;
    }
    assert_eq!(out, text.as_bytes(), "{level:?}");
}

mod detect;
pub use detect::detect;

/// All targets, by name (for the smoke runner).
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("decode", decode),
    ("encode", encode),
    ("hooks", hooks),
    ("text_decoder", text_decoder),
    ("text_encoder", text_encoder),
    ("detect", detect),
];
