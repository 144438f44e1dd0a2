//! The bodies of the fuzz targets, shared by the libFuzzer targets (fuzz_targets/*.rs, run with
//! `cargo fuzz`) and by the stable smoke runner (src/bin/smoke.rs).
//!
//! Every function takes arbitrary bytes, never panics on valid use of the API, and asserts the
//! invariants of API.md:
//! - the output does not depend on split points or dst sizes (tiny buffers grown one unit at a
//!   time, up to one worst-case step),
//! - fatal mode resumed after each error, with U+FFFD (decoders) or the html reference
//!   (encoders) inserted at each error, equals replacement/html mode,
//! - a dst of `max_*_buffer_length` is never `OutputFull`,
//! - the output equals encoding_rs's (the differential oracle).

pub mod sniff;

use textcodec::{
    BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, EncodeError, Encoder,
    EncoderErrorMode, Encoding, Progress, Status, TextDecoder, TextDecoderOptions, TextEncoder,
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

/// Random chunk lengths covering `len` (with empty chunks).
fn chunks(rng: &mut Rng, len: usize, boundary: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut v = Vec::new();
    let mut start = 0;
    while start < len {
        let mut end = (start
            + match rng.below(4) {
                0 => 0,
                1 => 1,
                _ => rng.below(48),
            })
        .min(len);
        while !boundary(end) {
            end += 1;
        }
        v.push(end - start);
        start = end;
    }
    v.push(0);
    v
}

// ------------------------------------------------------------------------------------------------
// Decoding
// ------------------------------------------------------------------------------------------------

trait Unit: Copy + Default + std::fmt::Debug {
    const MAX_STEP: usize;
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [Self],
        last: bool,
    ) -> Result<Progress, DecodeError>;
    fn max_len(d: &Decoder, n: usize) -> Option<usize>;
    fn append(out: &mut String, units: &[Self]);
}

impl Unit for u8 {
    const MAX_STEP: usize = 4;
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        d.decode_to_utf8(src, dst, last)
    }
    fn max_len(d: &Decoder, n: usize) -> Option<usize> {
        d.max_utf8_buffer_length(n)
    }
    fn append(out: &mut String, units: &[u8]) {
        out.push_str(
            std::str::from_utf8(units).expect("a call's output is whole UTF-8 characters"),
        );
    }
}

impl Unit for u16 {
    const MAX_STEP: usize = 2;
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        d.decode_to_utf16(src, dst, last)
    }
    fn max_len(d: &Decoder, n: usize) -> Option<usize> {
        d.max_utf16_buffer_length(n)
    }
    fn append(out: &mut String, units: &[u16]) {
        for c in char::decode_utf16(units.iter().copied()) {
            out.push(c.expect("a call's output never splits a surrogate pair"));
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dst {
    Exact,
    Tiny,
    Random,
}

/// Decode in chunks; U+FFFD inserted at each fatal error.
fn stream_decode<U: Unit>(
    enc: &'static Encoding,
    bom: BomHandling,
    fatal: bool,
    src: &[u8],
    plan: &[usize],
    policy: Dst,
    rng: &mut Rng,
) -> String {
    let mut d = enc.new_decoder(dopts(fatal, bom));
    let mut out = String::new();
    let mut offset = 0;
    let mut calls = 0usize;
    let mut errors = 0usize;
    for (ci, &n) in plan.iter().enumerate() {
        let chunk = &src[offset..offset + n];
        offset += n;
        let last = ci + 1 == plan.len();
        let mut pos = 0;
        let mut cap = 1;
        loop {
            calls += 1;
            assert!(calls <= 64 * (src.len() + 16), "stuck: too many calls");
            let size = match policy {
                Dst::Exact => U::max_len(&d, chunk.len() - pos).expect("max length overflow"),
                Dst::Tiny => cap,
                Dst::Random => cap.max(rng.below(12)),
            };
            let mut dst = vec![U::default(); size];
            match U::decode(&mut d, &chunk[pos..], &mut dst, last) {
                Ok(p) => {
                    assert!(
                        p.written <= size && p.read <= chunk.len() - pos,
                        "bad {p:?}"
                    );
                    assert!(!(fatal && p.replaced), "fatal mode reported replaced");
                    U::append(&mut out, &dst[..p.written]);
                    pos += p.read;
                    match p.status {
                        Status::InputEmpty => {
                            assert_eq!(pos, chunk.len(), "InputEmpty before the end of src");
                            break;
                        }
                        Status::OutputFull => {
                            assert!(
                                policy != Dst::Exact,
                                "OutputFull with a dst of max_*_buffer_length ({size})"
                            );
                            if p.read == 0 && p.written == 0 {
                                assert!(
                                    cap < U::MAX_STEP,
                                    "no progress with a dst of {size} units"
                                );
                                cap += 1;
                            } else {
                                cap = 1;
                            }
                        }
                    }
                }
                Err(e) => {
                    assert!(fatal, "replacement mode returned {e:?}");
                    assert!(
                        e.written <= size && e.read <= chunk.len() - pos,
                        "bad {e:?}"
                    );
                    U::append(&mut out, &dst[..e.written]);
                    out.push('\u{FFFD}');
                    pos += e.read;
                    errors += 1;
                    assert!(errors <= src.len() + 1, "more errors than bytes");
                    cap = 1;
                }
            }
        }
    }
    out
}

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

/// Target: `Decoder::decode_to_utf8` / `decode_to_utf16` / `decode_to_string` with arbitrary
/// split points and dst sizes. Input: [encoding, flags, seed, seed, payload...].
pub fn decode(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let enc = pick_encoding(data[0]);
    let bom = bom_mode(data[1]);
    let mut rng = Rng::new(u64::from(data[2]) << 8 | u64::from(data[3]));
    let src = &data[4..];
    let (reference, _, _) = one_shot_decode(enc, bom, src);
    let er = oracle(enc);
    let want = match bom {
        BomHandling::Keep => er.decode_without_bom_handling(src).0,
        BomHandling::Sniff => er.decode(src).0,
        BomHandling::Strip => er.decode_with_bom_removal(src).0,
    };
    assert_eq!(reference, want, "{}: differs from encoding_rs", enc.name());
    let plan = chunks(&mut rng, src.len(), |_| true);
    let policy = match data[1] >> 2 & 3 {
        0 => Dst::Exact,
        1 => Dst::Tiny,
        _ => Dst::Random,
    };
    for fatal in [false, true] {
        assert_eq!(
            stream_decode::<u8>(enc, bom, fatal, src, &plan, policy, &mut rng),
            reference,
            "utf8"
        );
        assert_eq!(
            stream_decode::<u16>(enc, bom, fatal, src, &plan, policy, &mut rng),
            reference,
            "utf16"
        );
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
    assert_eq!(s, reference, "decode_to_string");
}

// ------------------------------------------------------------------------------------------------
// Encoding
// ------------------------------------------------------------------------------------------------

fn ncr(c: char) -> String {
    format!("&#{};", c as u32)
}

trait Input {
    type U: Copy + std::fmt::Debug;
    fn encode(
        e: &mut Encoder,
        src: &[Self::U],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError>;
    fn max_len(e: &Encoder, n: usize) -> Option<usize>;
}

struct Utf8;
struct Utf16;

impl Input for Utf8 {
    type U = u8;
    fn encode(
        e: &mut Encoder,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        e.encode_from_utf8(std::str::from_utf8(src).expect("char boundary"), dst, last)
    }
    fn max_len(e: &Encoder, n: usize) -> Option<usize> {
        e.max_buffer_length_from_utf8(n)
    }
}

impl Input for Utf16 {
    type U = u16;
    fn encode(
        e: &mut Encoder,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        e.encode_from_utf16(src, dst, last)
    }
    fn max_len(e: &Encoder, n: usize) -> Option<usize> {
        e.max_buffer_length_from_utf16(n)
    }
}

/// Encode in chunks; the html reference of each fatal error inserted where it was reported.
fn stream_encode<I: Input>(
    enc: &'static Encoding,
    fatal: bool,
    src: &[I::U],
    plan: &[usize],
    policy: Dst,
    rng: &mut Rng,
) -> Vec<u8> {
    let mut e = enc.new_encoder(if fatal {
        EncoderErrorMode::Fatal
    } else {
        EncoderErrorMode::Html
    });
    let mut out = Vec::new();
    let mut offset = 0;
    let mut calls = 0usize;
    for (ci, &n) in plan.iter().enumerate() {
        let chunk = &src[offset..offset + n];
        offset += n;
        let last = ci + 1 == plan.len();
        let mut pos = 0;
        let mut cap = 1;
        loop {
            calls += 1;
            assert!(calls <= 64 * (src.len() + 16), "stuck: too many calls");
            let size = match policy {
                Dst::Exact => I::max_len(&e, chunk.len() - pos).expect("max length overflow"),
                Dst::Tiny => cap,
                Dst::Random => cap.max(rng.below(16)),
            };
            let mut dst = vec![0u8; size];
            match I::encode(&mut e, &chunk[pos..], &mut dst, last) {
                Ok(p) => {
                    assert!(
                        p.written <= size && p.read <= chunk.len() - pos,
                        "bad {p:?}"
                    );
                    assert!(!(fatal && p.replaced), "fatal mode reported replaced");
                    out.extend_from_slice(&dst[..p.written]);
                    pos += p.read;
                    match p.status {
                        Status::InputEmpty => {
                            assert_eq!(pos, chunk.len(), "InputEmpty before the end of src");
                            break;
                        }
                        Status::OutputFull => {
                            assert!(
                                policy != Dst::Exact,
                                "{}: OutputFull with a dst of max_buffer_length({}) = {size}, input {:?}",
                                enc.name(),
                                chunk.len() - pos,
                                &chunk[pos..]
                            );
                            if p.read == 0 && p.written == 0 {
                                // One step: an escape sequence and a 10-byte reference at most.
                                assert!(cap < 32, "no progress with a dst of {size} bytes");
                                cap += 1;
                            } else {
                                cap = 1;
                            }
                        }
                    }
                }
                Err(err) => {
                    assert!(fatal, "html mode returned {err:?}");
                    assert!(
                        err.written <= size && err.read <= chunk.len() - pos,
                        "bad {err:?}"
                    );
                    out.extend_from_slice(&dst[..err.written]);
                    out.extend_from_slice(ncr(err.unmappable).as_bytes());
                    pos += err.read;
                    cap = 1;
                }
            }
        }
    }
    out
}

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

/// Target: `Encoder::encode_from_utf8` / `encode_from_utf16` with arbitrary split points (inside
/// surrogate pairs too) and dst sizes. Input: [encoding, flags, seed, payload...].
pub fn encode(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let enc = pick_encoding(data[0]).output_encoding();
    let mut rng = Rng::new(u64::from(data[2]) << 8 | u64::from(data[1]));
    let units = units_of(data[1], &data[3..]);
    let text = String::from_utf16_lossy(&units);
    let (reference, replaced) = one_shot_encode(enc, &text);
    assert_eq!(
        reference,
        encoding_rs_html(enc, &text),
        "{}: differs from encoding_rs",
        enc.name()
    );
    let policy = match data[1] >> 1 & 3 {
        0 => Dst::Exact,
        1 => Dst::Tiny,
        _ => Dst::Random,
    };
    let plan8 = chunks(&mut rng, text.len(), |i| text.is_char_boundary(i));
    let plan16 = chunks(&mut rng, units.len(), |_| true);
    for fatal in [false, true] {
        assert_eq!(
            stream_encode::<Utf8>(enc, fatal, text.as_bytes(), &plan8, policy, &mut rng),
            reference,
            "utf8 fatal={fatal}"
        );
        assert_eq!(
            stream_encode::<Utf16>(enc, fatal, &units, &plan16, policy, &mut rng),
            reference,
            "utf16 fatal={fatal}"
        );
    }
    let _ = replaced;
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
    let mut rng = Rng::new(u64::from(data[2]));
    // Reference: the decoder without BOM handling, then "serialize I/O queue".
    let (mut want, errors, _) = one_shot_decode(enc, BomHandling::Keep, src);
    let unicode = [textcodec::UTF_8, textcodec::UTF_16BE, textcodec::UTF_16LE].contains(&enc);
    if unicode && !options.ignore_bom && want.starts_with('\u{FEFF}') {
        want.remove(0);
    }
    let plan = chunks(&mut rng, src.len(), |_| true);
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
/// destination sizes. Input: [flags, seed, payload...].
pub fn text_encoder(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let mut rng = Rng::new(u64::from(data[1]));
    let units = units_of(data[0], &data[2..]);
    let text = String::from_utf16_lossy(&units);
    let e = TextEncoder::new();
    assert_eq!(e.encoding(), "utf-8");
    assert_eq!(e.encode(&text), text.as_bytes());
    assert_eq!(e.encode_utf16(&units), text.as_bytes());
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let n = rng.below(6);
        let mut dst = vec![0u8; n];
        let r = e.encode_into(&text[pos..], &mut dst);
        assert!(r.written <= n && text.is_char_boundary(pos + r.read));
        assert_eq!(r.read, r.written);
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
    while pos < units.len() {
        let n = rng.below(6);
        let mut dst = vec![0u8; n];
        let r = e.encode_utf16_into(&units[pos..], &mut dst);
        assert!(r.written <= n && r.read <= units.len() - pos);
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
    assert_eq!(out, text.as_bytes());
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
