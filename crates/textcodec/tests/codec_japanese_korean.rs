//! The Japanese and Korean codecs: EUC-JP, ISO-2022-JP, Shift_JIS and EUC-KR.
//!
//! - Differential against encoding_rs (dev-dependency, the oracle): every 1- and 2-byte input of
//!   each decoder, every EUC-JP 3-byte input starting with 0x8F, every ISO-2022-JP 3-byte input
//!   starting with 0x1B and every 2-byte input after each ISO-2022-JP escape sequence
//!   (replacement mode to UTF-8 and UTF-16; fatal mode: whether an error occurs and the output
//!   before it); every Unicode scalar value through each encoder (html and fatal mode;
//!   ISO-2022-JP also inside sequences that switch states); random and corpus inputs.
//! - Where encoding_rs and the current spec text disagree the spec wins: those inputs are
//!   listed by name in `KNOWN_DIFFERENCES` (excluded from the comparison) and the spec's
//!   behaviour is asserted in a dedicated test citing the spec step.
//! - Hand-written vectors for the traps, and streaming: byte-by-byte (and character-by-
//!   character) input and tiny output buffers give the same output as one call.

mod support;
use support::{cps, hex, Failures, Rng};

use encoding_rs::{CoderResult, DecoderResult, EncoderResult};
use textcodec::{
    BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status,
};

// ---------------------------------------------------------------------------------------------
// Encodings under test and the oracle
// ---------------------------------------------------------------------------------------------

fn encodings() -> [&'static Encoding; 4] {
    [
        textcodec::EUC_JP,
        textcodec::ISO_2022_JP,
        textcodec::SHIFT_JIS,
        textcodec::EUC_KR,
    ]
}

fn oracle(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    match enc.name() {
        "EUC-JP" => encoding_rs::EUC_JP,
        "ISO-2022-JP" => encoding_rs::ISO_2022_JP,
        "Shift_JIS" => encoding_rs::SHIFT_JIS,
        "EUC-KR" => encoding_rs::EUC_KR,
        n => panic!("no oracle for {n}"),
    }
}

/// Inputs on which encoding_rs departs from the current spec text: excluded from the
/// differential comparison by name, their spec behaviour asserted in `spec_over_encoding_rs`.
///
/// Empty: over every input these tests compare (all 1- and 2-byte inputs of each decoder,
/// the EUC-JP 0x8F and ISO-2022-JP escape triples, the pairs after each ISO-2022-JP escape,
/// every scalar value through each encoder, the ISO-2022-JP state-switching sequences, random
/// and corpus inputs), encoding_rs 0.8.44 agrees with the spec as transcribed here.
struct KnownDifference {
    /// A name for reports.
    name: &'static str,
    /// The encoding's name.
    encoding: &'static str,
    /// Whether a decoder input is concerned.
    decode: fn(&[u8]) -> bool,
    /// Whether an encoder input is concerned.
    encode: fn(&str) -> bool,
    /// The spec step that decides.
    spec: &'static str,
}

const KNOWN_DIFFERENCES: &[KnownDifference] = &[];

fn known_decode_difference(enc: &'static Encoding, src: &[u8]) -> bool {
    KNOWN_DIFFERENCES
        .iter()
        .any(|k| k.encoding == enc.name() && (k.decode)(src))
}

fn known_encode_difference(enc: &'static Encoding, src: &str) -> bool {
    KNOWN_DIFFERENCES
        .iter()
        .any(|k| k.encoding == enc.name() && (k.encode)(src))
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn opts(fatal: bool) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
        bom: BomHandling::Keep,
    }
}

/// Everything a decoder gives for one complete input.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Decoded {
    /// Replacement mode, UTF-8 output, and whether a U+FFFD was written.
    utf8: String,
    utf8_replaced: bool,
    /// Replacement mode, UTF-16 output.
    utf16: Vec<u16>,
    utf16_replaced: bool,
    /// Fatal mode, UTF-8: output before the first error, and whether there was one.
    fatal8: String,
    fatal8_error: bool,
    /// Fatal mode, UTF-16.
    fatal16: Vec<u16>,
    fatal16_error: bool,
}

fn tc_decode_utf8(enc: &'static Encoding, src: &[u8], fatal: bool) -> (String, bool) {
    let mut d = enc.new_decoder(opts(fatal));
    let need = d.max_utf8_buffer_length(src.len()).expect("small input");
    let mut dst = vec![0u8; need];
    match d.decode_to_utf8(src, &mut dst, true) {
        Ok(p) => {
            assert_eq!(
                (p.status, p.read),
                (Status::InputEmpty, src.len()),
                "{} [{}]",
                enc.name(),
                hex(src)
            );
            dst.truncate(p.written);
            (
                String::from_utf8(dst).expect("UTF-8"),
                if fatal { false } else { p.replaced },
            )
        }
        Err(e) => {
            assert!(
                fatal,
                "{} [{}]: Err in replacement mode",
                enc.name(),
                hex(src)
            );
            dst.truncate(e.written);
            (String::from_utf8(dst).expect("UTF-8"), true)
        }
    }
}

fn tc_decode_utf16(enc: &'static Encoding, src: &[u8], fatal: bool) -> (Vec<u16>, bool) {
    let mut d = enc.new_decoder(opts(fatal));
    let need = d.max_utf16_buffer_length(src.len()).expect("small input");
    let mut dst = vec![0u16; need];
    match d.decode_to_utf16(src, &mut dst, true) {
        Ok(p) => {
            assert_eq!(
                (p.status, p.read),
                (Status::InputEmpty, src.len()),
                "{} [{}]",
                enc.name(),
                hex(src)
            );
            dst.truncate(p.written);
            (dst, if fatal { false } else { p.replaced })
        }
        Err(e) => {
            assert!(
                fatal,
                "{} [{}]: Err in replacement mode",
                enc.name(),
                hex(src)
            );
            dst.truncate(e.written);
            (dst, true)
        }
    }
}

fn tc_decode(enc: &'static Encoding, src: &[u8]) -> Decoded {
    let (utf8, utf8_replaced) = tc_decode_utf8(enc, src, false);
    let (utf16, utf16_replaced) = tc_decode_utf16(enc, src, false);
    let (fatal8, fatal8_error) = tc_decode_utf8(enc, src, true);
    let (fatal16, fatal16_error) = tc_decode_utf16(enc, src, true);
    Decoded {
        utf8,
        utf8_replaced,
        utf16,
        utf16_replaced,
        fatal8,
        fatal8_error,
        fatal16,
        fatal16_error,
    }
}

fn er_decode(enc: &'static Encoding, src: &[u8]) -> Decoded {
    let er = oracle(enc);
    let mut d = er.new_decoder_without_bom_handling();
    let mut b8 = vec![0u8; d.max_utf8_buffer_length(src.len()).unwrap()];
    let (r, read, w, utf8_replaced) = d.decode_to_utf8(src, &mut b8, true);
    assert!(r == CoderResult::InputEmpty && read == src.len());
    let utf8 = String::from_utf8(b8[..w].to_vec()).unwrap();

    let mut d = er.new_decoder_without_bom_handling();
    let mut b16 = vec![0u16; d.max_utf16_buffer_length(src.len()).unwrap()];
    let (r, read, w, utf16_replaced) = d.decode_to_utf16(src, &mut b16, true);
    assert!(r == CoderResult::InputEmpty && read == src.len());
    let utf16 = b16[..w].to_vec();

    let mut d = er.new_decoder_without_bom_handling();
    let mut b8 = vec![
        0u8;
        d.max_utf8_buffer_length_without_replacement(src.len())
            .unwrap()
    ];
    let (r, _, w) = d.decode_to_utf8_without_replacement(src, &mut b8, true);
    let fatal8_error = match r {
        DecoderResult::InputEmpty => false,
        DecoderResult::Malformed(..) => true,
        DecoderResult::OutputFull => panic!("encoding_rs OutputFull"),
    };
    let fatal8 = String::from_utf8(b8[..w].to_vec()).unwrap();

    let mut d = er.new_decoder_without_bom_handling();
    let mut b16 = vec![0u16; d.max_utf16_buffer_length(src.len()).unwrap()];
    let (r, _, w) = d.decode_to_utf16_without_replacement(src, &mut b16, true);
    let fatal16_error = match r {
        DecoderResult::InputEmpty => false,
        DecoderResult::Malformed(..) => true,
        DecoderResult::OutputFull => panic!("encoding_rs OutputFull"),
    };
    let fatal16 = b16[..w].to_vec();
    Decoded {
        utf8,
        utf8_replaced,
        utf16,
        utf16_replaced,
        fatal8,
        fatal8_error,
        fatal16,
        fatal16_error,
    }
}

/// Decodes `src` in the chunks given by `cuts` (split positions), `last: false` for each and
/// then an empty `last: true` call, with output buffers of `room` units (0: the advertised
/// worst case; UTF-8 and UTF-16 rooms); fatal mode resumes after each error and writes U+FFFD there. Returns the UTF-8
/// and UTF-16 outputs.
fn tc_decode_streamed(
    enc: &'static Encoding,
    src: &[u8],
    cuts: &[usize],
    fatal: bool,
    room: (usize, usize),
) -> (String, Vec<u16>) {
    let (room8, room16) = room;
    let mut chunks: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    for &c in cuts {
        chunks.push(&src[start..c]);
        start = c;
    }
    chunks.push(&src[start..]);

    // UTF-8.
    let mut d = enc.new_decoder(opts(fatal));
    let mut out8 = Vec::new();
    for (i, chunk) in chunks
        .iter()
        .enumerate()
        .chain(std::iter::once((usize::MAX, &&[][..])))
    {
        let last = i == usize::MAX;
        let mut chunk: &[u8] = chunk;
        let mut guard = 0;
        loop {
            guard += 1;
            assert!(
                guard < 10_000,
                "{} [{}] {cuts:?} fatal {fatal} room {room8}: no progress (UTF-8)",
                enc.name(),
                hex(src)
            );
            let n = if room8 == 0 {
                d.max_utf8_buffer_length(chunk.len()).unwrap()
            } else {
                room8
            };
            let mut dst = vec![0u8; n];
            match d.decode_to_utf8(chunk, &mut dst, last) {
                Ok(p) => {
                    // A dst of the advertised worst case never fills.
                    assert!(
                        p.status == Status::InputEmpty || room8 != 0,
                        "{} [{}] {cuts:?}: OutputFull with max_*_buffer_length",
                        enc.name(),
                        hex(src)
                    );
                    out8.extend_from_slice(&dst[..p.written]);
                    chunk = &chunk[p.read..];
                    if p.status == Status::InputEmpty {
                        assert!(chunk.is_empty());
                        break;
                    }
                }
                Err(e) => {
                    out8.extend_from_slice(&dst[..e.written]);
                    out8.extend_from_slice("\u{FFFD}".as_bytes());
                    chunk = &chunk[e.read..];
                }
            }
        }
    }

    // UTF-16.
    let mut d = enc.new_decoder(opts(fatal));
    let mut out16 = Vec::new();
    for (i, chunk) in chunks
        .iter()
        .enumerate()
        .chain(std::iter::once((usize::MAX, &&[][..])))
    {
        let last = i == usize::MAX;
        let mut chunk: &[u8] = chunk;
        let mut guard = 0;
        loop {
            guard += 1;
            assert!(
                guard < 10_000,
                "{} [{}] {cuts:?} fatal {fatal} room {room16}: no progress (UTF-16)",
                enc.name(),
                hex(src)
            );
            let n = if room16 == 0 {
                d.max_utf16_buffer_length(chunk.len()).unwrap()
            } else {
                room16
            };
            let mut dst = vec![0u16; n];
            match d.decode_to_utf16(chunk, &mut dst, last) {
                Ok(p) => {
                    // A dst of the advertised worst case never fills.
                    assert!(
                        p.status == Status::InputEmpty || room16 != 0,
                        "{} [{}] {cuts:?}: OutputFull with max_*_buffer_length",
                        enc.name(),
                        hex(src)
                    );
                    out16.extend_from_slice(&dst[..p.written]);
                    chunk = &chunk[p.read..];
                    if p.status == Status::InputEmpty {
                        assert!(chunk.is_empty());
                        break;
                    }
                }
                Err(e) => {
                    out16.extend_from_slice(&dst[..e.written]);
                    out16.push(0xFFFD);
                    chunk = &chunk[e.read..];
                }
            }
        }
    }
    (String::from_utf8(out8).expect("UTF-8"), out16)
}

/// The textcodec-only invariants for one decoder input: byte-by-byte streaming (replacement
/// and fatal-resumed) and the one-shot fatal-resumed output equal the one-shot replacement
/// output.
fn check_decode_streaming(enc: &'static Encoding, src: &[u8], one: &Decoded, f: &mut Failures) {
    let cuts: Vec<usize> = (1..src.len()).collect();
    for fatal in [false, true] {
        let (s8, s16) = tc_decode_streamed(enc, src, &cuts, fatal, (0, 0));
        if s8 != one.utf8 || s16 != one.utf16 {
            f.push(format!(
                "{} [{}] byte by byte (fatal {fatal}): {} / {:04X?}, one call: {}",
                enc.name(),
                hex(src),
                cps(&s8),
                s16,
                cps(&one.utf8)
            ));
        }
    }
    let (r8, r16) = tc_decode_streamed(enc, src, &[], true, (0, 0));
    if r8 != one.utf8 || r16 != one.utf16 {
        f.push(format!(
            "{} [{}] fatal resumed: {} vs {}",
            enc.name(),
            hex(src),
            cps(&r8),
            cps(&one.utf8)
        ));
    }
}

/// Compares textcodec with encoding_rs on one decoder input (unless a known difference), and
/// checks the streaming invariants.
fn check_decode(enc: &'static Encoding, src: &[u8], f: &mut Failures) -> Decoded {
    let t = tc_decode(enc, src);
    if !known_decode_difference(enc, src) {
        let e = er_decode(enc, src);
        if t != e {
            f.push(format!(
                "{} [{}]: textcodec {:?} encoding_rs {:?}",
                enc.name(),
                hex(src),
                t,
                e
            ));
        }
    }
    check_decode_streaming(enc, src, &t, f);
    t
}

// ---------------------------------------------------------------------------------------------
// Decoder differential tests
// ---------------------------------------------------------------------------------------------

/// Every 1- and 2-byte input split at every byte, in both error modes, and resumed after each
/// fatal error, against the one-call output (the comparison of the one-call output with
/// encoding_rs on every 1- and 2-byte input is differential.rs's `exhaustive_short`).
fn decode_all_short(enc: &'static Encoding) {
    let mut f = Failures::new("decode, all 1- and 2-byte inputs, streamed");
    for src in std::iter::once(vec![])
        .chain((0..=255u8).map(|a| vec![a]))
        .chain((0..=0xFFFFu16).map(|ab| ab.to_be_bytes().to_vec()))
    {
        let one = tc_decode(enc, &src);
        check_decode_streaming(enc, &src, &one, &mut f);
    }
    f.finish();
}

#[test]
fn euc_jp_decode_all_short() {
    decode_all_short(textcodec::EUC_JP);
}

#[test]
fn iso_2022_jp_decode_all_short() {
    decode_all_short(textcodec::ISO_2022_JP);
}

#[test]
fn shift_jis_decode_all_short() {
    decode_all_short(textcodec::SHIFT_JIS);
}

#[test]
fn euc_kr_decode_all_short() {
    decode_all_short(textcodec::EUC_KR);
}

#[test]
fn euc_jp_decode_all_0x8f_triples() {
    let mut f = Failures::new("EUC-JP 0x8F x y");
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            check_decode(textcodec::EUC_JP, &[0x8F, a, b], &mut f);
        }
    }
    f.finish();
}

#[test]
fn iso_2022_jp_decode_all_escape_triples() {
    let mut f = Failures::new("ISO-2022-JP 0x1B x y");
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            check_decode(textcodec::ISO_2022_JP, &[0x1B, a, b], &mut f);
        }
    }
    f.finish();
}

const ESCAPES: [&[u8]; 5] = [b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B$@", b"\x1B$B"];

#[test]
fn iso_2022_jp_decode_all_pairs_after_each_escape() {
    let mut f = Failures::new("ISO-2022-JP escape x y");
    for esc in ESCAPES {
        let mut src = esc.to_vec();
        src.extend_from_slice(&[0, 0]);
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                src[3] = a;
                src[4] = b;
                check_decode(textcodec::ISO_2022_JP, &src, &mut f);
            }
        }
    }
    f.finish();
}

/// Bytes that matter to each decoder, for random inputs.
fn interesting_byte(enc: &'static Encoding, rng: &mut Rng) -> u8 {
    let special: &[u8] = match enc.name() {
        "ISO-2022-JP" => b"\x1B\x1B\x1B($BJI@\x0E\x0F\\~\x21\x7E\x5F\x60\x80\xFF",
        "EUC-JP" => b"\x8E\x8E\x8F\x8F\xA1\xFE\xDF\xE0\xA0\x80\xFF\x41",
        "Shift_JIS" => b"\x81\x9F\xE0\xFC\xA0\xA1\xDF\x80\x40\x7E\x7F\xFD\xF0\xF9\xED\xFA",
        _ => b"\x81\xFE\xA1\xC6\xC7\x41\x5A\x61\x7A\x80\xFF\x52",
    };
    match rng.below(4) {
        0 => special[rng.below(special.len())],
        1 => rng.below(0x80) as u8,
        2 => 0xA1 + rng.below(0x5E) as u8,
        _ => rng.next_u64() as u8,
    }
}

/// Random inputs: mostly well-formed text of the encoding (encoded by encoding_rs from the
/// corpus) with random bytes spliced in, and random byte soup.
fn random_inputs(enc: &'static Encoding, seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let text = corpus(enc);
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for _ in 0..count {
        let mut v: Vec<u8> = Vec::new();
        match rng.below(3) {
            0 => {
                for _ in 0..rng.below(40) {
                    v.push(interesting_byte(enc, &mut rng));
                }
            }
            _ => {
                let start = rng.below(chars.len().saturating_sub(30).max(1));
                let s: String = chars[start..(start + 1 + rng.below(25)).min(chars.len())]
                    .iter()
                    .collect();
                let mut e = oracle(enc).new_encoder();
                let mut buf = vec![0u8; s.len() * 8 + 16];
                let (_, _, w, _) = e.encode_from_utf8(&s, &mut buf, true);
                v.extend_from_slice(&buf[..w]);
                for _ in 0..rng.below(4) {
                    let at = rng.below(v.len() + 1);
                    let b = interesting_byte(enc, &mut rng);
                    if rng.below(2) == 0 || at == v.len() {
                        v.insert(at, b);
                    } else {
                        v[at] = b;
                    }
                }
            }
        }
        out.push(v);
    }
    out
}

#[test]
fn decode_random_inputs() {
    let mut f = Failures::new("decode, random inputs");
    for (k, enc) in encodings().into_iter().enumerate() {
        for (n, src) in random_inputs(enc, 1000 + k as u64, 3000).iter().enumerate() {
            let one = check_decode(enc, src, &mut f);
            // Random split points and tiny output buffers.
            let mut rng = Rng::new(n as u64);
            let mut cuts: Vec<usize> = (0..rng.below(5))
                .map(|_| rng.below(src.len() + 1))
                .collect();
            cuts.sort_unstable();
            for (fatal, room) in [
                (false, (3, 1)),
                (true, (3, 1)),
                (false, (5, 2)),
                (true, (0, 0)),
            ] {
                let (s8, s16) = tc_decode_streamed(enc, src, &cuts, fatal, room);
                if s8 != one.utf8 || s16 != one.utf16 {
                    f.push(format!(
                        "{} [{}] cuts {cuts:?} room {room:?} fatal {fatal}: {} vs {}",
                        enc.name(),
                        hex(src),
                        cps(&s8),
                        cps(&one.utf8)
                    ));
                }
            }
        }
    }
    f.finish();
}

// ---------------------------------------------------------------------------------------------
// Encoder differential tests
// ---------------------------------------------------------------------------------------------

/// Everything an encoder gives for one complete input.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Encoded {
    /// Html mode output and whether a reference was written.
    html: Vec<u8>,
    replaced: bool,
    /// Fatal mode: output before the first error, and the unmappable character reported.
    fatal: Vec<u8>,
    unmappable: Option<char>,
}

fn tc_encode_utf8(enc: &'static Encoding, src: &str) -> Encoded {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    // The advertised worst case must be enough: ISO-2022-JP's U+000E, U+000F and U+001B are one
    // byte each and become "&#65533;" (encoder step 3), 8 bytes per input byte.
    let need = e.max_buffer_length_from_utf8(src.len()).unwrap();
    let mut dst = vec![0u8; need];
    let p = e.encode_from_utf8(src, &mut dst, true).expect("html mode");
    assert_eq!(
        (p.status, p.read),
        (Status::InputEmpty, src.len()),
        "{} {}",
        enc.name(),
        cps(src)
    );
    let html = dst[..p.written].to_vec();
    let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
    let (fatal, unmappable) = match e.encode_from_utf8(src, &mut dst, true) {
        Ok(p) => {
            assert!(!p.replaced);
            (dst[..p.written].to_vec(), None)
        }
        Err(err) => (dst[..err.written].to_vec(), Some(err.unmappable)),
    };
    Encoded {
        html,
        replaced: p.replaced,
        fatal,
        unmappable,
    }
}

fn tc_encode_utf16(enc: &'static Encoding, src: &[u16]) -> Encoded {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut dst = vec![0u8; e.max_buffer_length_from_utf16(src.len()).unwrap()];
    let p = e.encode_from_utf16(src, &mut dst, true).expect("html mode");
    assert_eq!(
        (p.status, p.read),
        (Status::InputEmpty, src.len()),
        "{} {:04X?}",
        enc.name(),
        src
    );
    let html = dst[..p.written].to_vec();
    let mut e = enc.new_encoder(EncoderErrorMode::Fatal);
    let (fatal, unmappable) = match e.encode_from_utf16(src, &mut dst, true) {
        Ok(p) => (dst[..p.written].to_vec(), None),
        Err(err) => (dst[..err.written].to_vec(), Some(err.unmappable)),
    };
    Encoded {
        html,
        replaced: p.replaced,
        fatal,
        unmappable,
    }
}

fn er_encode_utf8(enc: &'static Encoding, src: &str) -> Encoded {
    let mut buf = vec![0u8; src.len() * 12 + 16];
    let mut e = oracle(enc).new_encoder();
    let (r, read, w, replaced) = e.encode_from_utf8(src, &mut buf, true);
    assert!(r == CoderResult::InputEmpty && read == src.len());
    let html = buf[..w].to_vec();
    let mut e = oracle(enc).new_encoder();
    let (r, _, w) = e.encode_from_utf8_without_replacement(src, &mut buf, true);
    let unmappable = match r {
        EncoderResult::InputEmpty => None,
        EncoderResult::Unmappable(c) => Some(c),
        EncoderResult::OutputFull => panic!("encoding_rs OutputFull"),
    };
    Encoded {
        html,
        replaced,
        fatal: buf[..w].to_vec(),
        unmappable,
    }
}

/// Encodes `src` char by char (`last: false`), then an empty `last: true` call, with output
/// buffers of `room` bytes (0: the advertised worst case); fatal mode resumes after each
/// error writing the html reference there. Returns the output.
fn tc_encode_streamed(
    enc: &'static Encoding,
    src: &str,
    per_char: bool,
    fatal: bool,
    room: usize,
) -> Vec<u8> {
    let mut e = enc.new_encoder(if fatal {
        EncoderErrorMode::Fatal
    } else {
        EncoderErrorMode::Html
    });
    let mut out = Vec::new();
    let mut pieces: Vec<&str> = Vec::new();
    if per_char {
        for (i, c) in src.char_indices() {
            pieces.push(&src[i..i + c.len_utf8()]);
        }
    } else {
        pieces.push(src);
    }
    let n = pieces.len();
    for (i, piece) in pieces.into_iter().chain(std::iter::once("")).enumerate() {
        let last = i == n;
        let mut piece = piece;
        let mut guard = 0;
        loop {
            guard += 1;
            assert!(guard < 100_000, "{} {}: no progress", enc.name(), cps(src));
            let size = if room == 0 {
                e.max_buffer_length_from_utf8(piece.len()).unwrap()
            } else {
                room
            };
            let mut dst = vec![0u8; size];
            match e.encode_from_utf8(piece, &mut dst, last) {
                Ok(p) => {
                    out.extend_from_slice(&dst[..p.written]);
                    piece = &piece[p.read..];
                    if p.status == Status::InputEmpty {
                        break;
                    }
                }
                Err(err) => {
                    out.extend_from_slice(&dst[..err.written]);
                    out.extend_from_slice(format!("&#{};", err.unmappable as u32).as_bytes());
                    piece = &piece[err.read..];
                }
            }
        }
    }
    out
}

/// The same over UTF-16 input, unit by unit when `per_unit`.
fn tc_encode_streamed16(
    enc: &'static Encoding,
    src: &[u16],
    per_unit: bool,
    room: usize,
) -> Vec<u8> {
    let mut e = enc.new_encoder(EncoderErrorMode::Html);
    let mut out = Vec::new();
    let pieces: Vec<&[u16]> = if per_unit {
        src.chunks(1).collect()
    } else {
        vec![src]
    };
    let n = pieces.len();
    for (i, piece) in pieces
        .into_iter()
        .chain(std::iter::once(&[][..]))
        .enumerate()
    {
        let last = i == n;
        let mut piece = piece;
        let mut guard = 0;
        loop {
            guard += 1;
            assert!(guard < 100_000, "{}: no progress", enc.name());
            let size = if room == 0 {
                e.max_buffer_length_from_utf16(piece.len()).unwrap()
            } else {
                room
            };
            let mut dst = vec![0u8; size];
            let p = e
                .encode_from_utf16(piece, &mut dst, last)
                .expect("html mode");
            out.extend_from_slice(&dst[..p.written]);
            piece = &piece[p.read..];
            if p.status == Status::InputEmpty {
                break;
            }
        }
    }
    out
}

fn check_encode(enc: &'static Encoding, src: &str, f: &mut Failures) -> Encoded {
    let t = tc_encode_utf8(enc, src);
    if !known_encode_difference(enc, src) {
        let e = er_encode_utf8(enc, src);
        if t != e {
            f.push(format!(
                "{} {}: textcodec {} / fatal {} {:?}; encoding_rs {} / fatal {} {:?}",
                enc.name(),
                cps(src),
                hex(&t.html),
                hex(&t.fatal),
                t.unmappable,
                hex(&e.html),
                hex(&e.fatal),
                e.unmappable
            ));
        }
    }
    let units: Vec<u16> = src.encode_utf16().collect();
    let t16 = tc_encode_utf16(enc, &units);
    if t16 != t {
        f.push(format!(
            "{} {}: UTF-16 input {:?} vs UTF-8 input {:?}",
            enc.name(),
            cps(src),
            t16,
            t
        ));
    }
    t
}

fn encode_every_scalar(enc: &'static Encoding) {
    let mut f = Failures::new("encode, every scalar value");
    let mut buf = [0u8; 4];
    for cp in 0..=0x10FFFFu32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let s: &str = c.encode_utf8(&mut buf);
        check_encode(enc, s, &mut f);
    }
    f.finish();
}

#[test]
fn euc_jp_encode_every_scalar() {
    encode_every_scalar(textcodec::EUC_JP);
}

#[test]
fn iso_2022_jp_encode_every_scalar() {
    encode_every_scalar(textcodec::ISO_2022_JP);
}

#[test]
fn shift_jis_encode_every_scalar() {
    encode_every_scalar(textcodec::SHIFT_JIS);
}

#[test]
fn euc_kr_encode_every_scalar() {
    encode_every_scalar(textcodec::EUC_KR);
}

/// Every BMP scalar value (and a sample of supplementary ones) between characters that put
/// the ISO-2022-JP encoder in each state, before and after.
#[test]
fn iso_2022_jp_encode_every_scalar_in_state_switching_sequences() {
    let enc = textcodec::ISO_2022_JP;
    let mut f = Failures::new("ISO-2022-JP sequences");
    // ASCII, Roman (¥, ‾), jis0208 (漢, ｱ via the katakana index, − via U+FF0D), and an
    // unmappable character.
    let contexts: [(&str, &str); 7] = [
        ("a", "a"),
        ("\u{A5}", "a"),
        ("\u{A5}", "\u{203E}"),
        ("漢", "漢"),
        ("漢", "\u{A5}"),
        ("\u{FF71}", "b"),
        ("\u{2212}é", "\u{0E}x"),
    ];
    let mut s = String::new();
    for cp in (0..0x10000u32).chain((0x10000..=0x10FFFF).step_by(4099)) {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        for (pre, post) in contexts {
            s.clear();
            s.push_str(pre);
            s.push(c);
            s.push_str(post);
            check_encode(enc, &s, &mut f);
        }
        s.clear();
        s.push(c);
        s.push(c);
        check_encode(enc, &s, &mut f);
    }
    f.finish();
}

fn random_string(rng: &mut Rng, chars: &[char]) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(30) {
        let c = match rng.below(6) {
            0 => char::from_u32(rng.below(0x80) as u32).unwrap(),
            1 => [
                '\u{A5}', '\u{203E}', '\u{2212}', '\u{0E}', '\u{1B}', '\u{0F}', '\u{FF61}',
                '\u{FF9F}', '\u{80}', '\u{E000}', 'é', '😀', '\\', '~',
            ][rng.below(14)],
            2 => loop {
                if let Some(c) = char::from_u32(rng.below(0x10000) as u32) {
                    break c;
                }
            },
            _ => chars[rng.below(chars.len())],
        };
        s.push(c);
    }
    s
}

#[test]
fn encode_random_strings_and_streaming() {
    let mut f = Failures::new("encode, random strings");
    for (k, enc) in encodings().into_iter().enumerate() {
        let text = corpus(enc);
        let chars: Vec<char> = text.chars().collect();
        let mut rng = Rng::new(77 + k as u64);
        for _ in 0..3000 {
            let s = random_string(&mut rng, &chars);
            let one = check_encode(enc, &s, &mut f);
            for (per_char, fatal, room) in [
                (true, false, 0),
                (true, true, 0),
                (false, false, 13),
                (false, true, 14),
                (true, false, 16),
            ] {
                let o = tc_encode_streamed(enc, &s, per_char, fatal, room);
                if o != one.html {
                    f.push(format!(
                        "{} {} per_char {per_char} fatal {fatal} room {room}: {} vs {}",
                        enc.name(),
                        cps(&s),
                        hex(&o),
                        hex(&one.html)
                    ));
                }
            }
            let units: Vec<u16> = s.encode_utf16().collect();
            for (per_unit, room) in [(true, 0), (false, 13)] {
                let o = tc_encode_streamed16(enc, &units, per_unit, room);
                if o != one.html {
                    f.push(format!(
                        "{} {} UTF-16 per_unit {per_unit} room {room}: {}",
                        enc.name(),
                        cps(&s),
                        hex(&o)
                    ));
                }
            }
        }
    }
    f.finish();
}

// ---------------------------------------------------------------------------------------------
// Corpus: long valid text through the fast paths
// ---------------------------------------------------------------------------------------------

fn corpus(enc: &'static Encoding) -> String {
    let lang = if enc.name() == "EUC-KR" { "ko" } else { "ja" };
    support::corpus_text(lang)
}

#[test]
fn corpus_round_trip_matches_encoding_rs() {
    for enc in encodings() {
        let text = corpus(enc);
        let t = tc_encode_utf8(enc, &text);
        let e = er_encode_utf8(enc, &text);
        assert!(
            t == e,
            "{}: corpus encode differs from encoding_rs",
            enc.name()
        );
        let units: Vec<u16> = text.encode_utf16().collect();
        assert!(
            tc_encode_utf16(enc, &units) == t,
            "{}: corpus UTF-16 encode",
            enc.name()
        );
        let bytes = t.html;
        let td = tc_decode(enc, &bytes);
        let ed = er_decode(enc, &bytes);
        assert!(
            td == ed,
            "{}: corpus decode differs from encoding_rs",
            enc.name()
        );
        // Chunked at odd sizes and through small output buffers.
        let cuts: Vec<usize> = (1..bytes.len()).step_by(7).collect();
        let (s8, s16) = tc_decode_streamed(enc, &bytes, &cuts, false, (5, 1));
        assert!(
            s8 == td.utf8 && s16 == td.utf16,
            "{}: corpus chunked decode",
            enc.name()
        );
        let o = tc_encode_streamed(enc, &text, false, false, 64);
        assert!(
            o == bytes,
            "{}: corpus encode with 64-byte buffers",
            enc.name()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-written vectors
// ---------------------------------------------------------------------------------------------

fn dec(enc: &'static Encoding, src: &[u8]) -> String {
    tc_decode_utf8(enc, src, false).0
}

fn enc_html(enc: &'static Encoding, src: &str) -> Vec<u8> {
    tc_encode_utf8(enc, src).html
}

#[test]
fn decoder_ascii_after_a_leading_byte_is_never_swallowed() {
    // Shift_JIS decoder step 3.10: "If byte is an ASCII byte, restore byte to ioQueue."
    assert_eq!(dec(textcodec::SHIFT_JIS, &[0x81, 0x22]), "\u{FFFD}\"");
    assert_eq!(dec(textcodec::SHIFT_JIS, &[0xE0, 0x7F]), "\u{FFFD}\u{7F}");
    // A non-ASCII trailing byte is consumed with the error.
    assert_eq!(dec(textcodec::SHIFT_JIS, &[0x81, 0xFD, 0x41]), "\u{FFFD}A");
    // EUC-JP decoder step 5.7, also after 0x8E and after 0x8F + leading.
    assert_eq!(dec(textcodec::EUC_JP, &[0xA1, 0x41]), "\u{FFFD}A");
    assert_eq!(dec(textcodec::EUC_JP, &[0x8E, 0x41]), "\u{FFFD}A");
    assert_eq!(dec(textcodec::EUC_JP, &[0x8F, 0x41]), "\u{FFFD}A");
    assert_eq!(dec(textcodec::EUC_JP, &[0x8F, 0xA1, 0x41]), "\u{FFFD}A");
    assert_eq!(dec(textcodec::EUC_JP, &[0x8E, 0xE0, 0x41]), "\u{FFFD}A");
    // EUC-KR decoder step 3.7.
    assert_eq!(dec(textcodec::EUC_KR, &[0x81, 0x22]), "\u{FFFD}\"");
    assert_eq!(dec(textcodec::EUC_KR, &[0xC8, 0x40]), "\u{FFFD}@");
    // ISO-2022-JP: an invalid trailing byte switches back to leading byte (nothing restored).
    assert_eq!(
        dec(textcodec::ISO_2022_JP, b"\x1B$B\x30\x0A\x30\x21"),
        "\u{FFFD}\u{4E9C}"
    );
}

#[test]
fn decoder_valid_sequences() {
    // EUC-JP: jis0208, half-width katakana (step 3), jis0212 (step 4).
    assert_eq!(
        dec(
            textcodec::EUC_JP,
            &[0xB0, 0xA1, 0x8E, 0xB1, 0x8F, 0xB0, 0xA1]
        ),
        "\u{4E9C}\u{FF71}\u{4E02}"
    );
    // Shift_JIS: lead ranges and offsets, 0x80, katakana, EUDC (step 3.7).
    assert_eq!(
        dec(
            textcodec::SHIFT_JIS,
            &[0x88, 0x9F, 0x80, 0xB1, 0xF0, 0x40, 0xF9, 0xFC]
        ),
        "\u{4E9C}\u{80}\u{FF71}\u{E000}\u{E757}"
    );
    // Pointers 8272..=8835 still decode (the exclusion is for encoding only).
    assert_eq!(
        dec(textcodec::SHIFT_JIS, &[0xED, 0x40, 0xFA, 0x5C]),
        "\u{7E8A}\u{7E8A}"
    );
    // EUC-KR.
    assert_eq!(
        dec(textcodec::EUC_KR, &[0xB0, 0xA1, 0x81, 0x41]),
        "\u{AC00}\u{AC02}"
    );
    // ISO-2022-JP: every state.
    assert_eq!(
        dec(
            textcodec::ISO_2022_JP,
            b"a\x1B$B\x30\x21\x1B(I\x31\x1B(J\\~\x1B$@\x30\x21\x1B(Bz"
        ),
        "a\u{4E9C}\u{FF71}\u{A5}\u{203E}\u{4E9C}z"
    );
}

#[test]
fn iso_2022_jp_decoder_escapes() {
    let d = |b: &[u8]| dec(textcodec::ISO_2022_JP, b);
    // Consecutive escapes: Escape step 7.4 returns error when ISO-2022-JP output is true.
    assert_eq!(d(b"\x1B(B\x1B(B"), "\u{FFFD}");
    assert_eq!(d(b"\x1B(B\x1B(Ba"), "\u{FFFD}a");
    assert_eq!(d(b"\x1B$B\x1B(Ja\\"), "\u{FFFD}a\u{A5}");
    assert_eq!(d(b"\x1B(Ba\x1B(Bb"), "ab");
    // The output flag is cleared by errors too ("set ISO-2022-JP output to false").
    assert_eq!(d(b"\x1B(B\x80\x1B(Bb"), "\u{FFFD}b");
    // ESC at end of input: escape start, end-of-queue: nothing restored (step 2), error.
    assert_eq!(d(b"\x1B"), "\u{FFFD}");
    assert_eq!(d(b"a\x1B"), "a\u{FFFD}");
    // ESC ( or ESC $ at end of input: escape, end-of-queue: restore leading (step 8).
    assert_eq!(d(b"\x1B("), "\u{FFFD}(");
    assert_eq!(d(b"\x1B$"), "\u{FFFD}$");
    // ... in the output state: after ESC ( J the restored byte decodes as Roman.
    assert_eq!(d(b"\x1B(J\\\x1B$"), "\u{A5}\u{FFFD}$");
    // ... in the leading byte state: the restored 0x24 becomes a leading byte, then
    // end-of-queue in trailing byte is an error.
    assert_eq!(d(b"\x1B$B\x1B$"), "\u{FFFD}\u{FFFD}");
    // ESC followed by a non-escape byte: escape start step 2 restores the byte.
    assert_eq!(d(b"\x1BA"), "\u{FFFD}A");
    assert_eq!(d(b"\x1B\x1B(Ba"), "\u{FFFD}a");
    // ESC ( or ESC $ followed by a wrong byte: escape step 8 restores « leading, byte ».
    assert_eq!(d(b"\x1B(A"), "\u{FFFD}(A");
    assert_eq!(d(b"\x1B$A"), "\u{FFFD}$A");
    assert_eq!(d(b"\x1B(\x1B(B"), "\u{FFFD}(");
    // ESC inside a two-byte character: trailing byte, 0x1B: "set state to escape start and
    // return error" (nothing restored), and the escape then decodes normally.
    assert_eq!(d(b"\x1B$B\x30\x1B(Ba"), "\u{FFFD}a");
    // ... and the output flag was cleared by the leading byte, so no second error.
    assert_eq!(d(b"\x1B$B\x30\x1B(B"), "\u{FFFD}");
    // Roman: 0x5C and 0x7E.
    assert_eq!(d(b"\x1B(J\\~a"), "\u{A5}\u{203E}a");
    // SO, SI and ESC-less bytes above 0x7F are errors in ASCII and Roman.
    assert_eq!(d(b"\x0E\x0F\x80"), "\u{FFFD}\u{FFFD}\u{FFFD}");
    assert_eq!(d(b"\x1B(J\x0E"), "\u{FFFD}");
    // Katakana range.
    assert_eq!(d(b"\x1B(I\x21\x5F\x60"), "\u{FF61}\u{FF9F}\u{FFFD}");
    // End of input inside a two-byte character.
    assert_eq!(d(b"\x1B$B\x30"), "\u{FFFD}");
}

#[test]
fn iso_2022_jp_escape_split_across_calls() {
    // Every split of an input full of escapes, through the streaming API, in both modes.
    let inputs: [&[u8]; 6] = [
        b"a\x1B$B\x30\x21\x1B(I\x31\x1B(J\\~\x1B(Bz",
        b"\x1B(B\x1B(B\x1B(",
        b"\x1B$B\x30\x1B(Ba\x1B",
        b"\x1B(A\x1B$A\x1BA\x1B$",
        b"\x1B$B\x1B$",
        b"\x1B(J\\\x1B$B\x30\x21\x21",
    ];
    let mut f = Failures::new("ISO-2022-JP splits");
    for src in inputs {
        let one = check_decode(textcodec::ISO_2022_JP, src, &mut f);
        for a in 0..=src.len() {
            for b in a..=src.len() {
                for fatal in [false, true] {
                    let (s8, s16) =
                        tc_decode_streamed(textcodec::ISO_2022_JP, src, &[a, b], fatal, (0, 0));
                    if s8 != one.utf8 || s16 != one.utf16 {
                        f.push(format!(
                            "[{}] cuts {a} {b} fatal {fatal}: {} vs {}",
                            hex(src),
                            cps(&s8),
                            cps(&one.utf8)
                        ));
                    }
                }
            }
        }
    }
    f.finish();
}

#[test]
fn fatal_error_positions() {
    // Fatal mode: `read` counts the bytes consumed through the malformed sequence, excluding
    // restored bytes; output before the error is complete.
    let mut d = textcodec::SHIFT_JIS.new_decoder(opts(true));
    let mut out = [0u8; 16];
    let e = d
        .decode_to_utf8(b"ab\x81\x22c", &mut out, true)
        .unwrap_err();
    assert_eq!((e.read, e.written), (3, 2));
    let mut d = textcodec::ISO_2022_JP.new_decoder(opts(true));
    let e = d.decode_to_utf8(b"a\x1B(Ax", &mut out, true).unwrap_err();
    assert_eq!((e.read, e.written), (2, 1));
    let p = d.decode_to_utf8(b"(Ax", &mut out, true).unwrap();
    assert_eq!(&out[..p.written], b"(Ax");
}

#[test]
fn encoder_vectors() {
    let j = textcodec::ISO_2022_JP;
    // The spec's example: "Encoding U+00A5 (¥) gives 0x1B 0x28 0x4A 0x5C 0x1B 0x28 0x42."
    assert_eq!(enc_html(j, "\u{A5}"), b"\x1B(J\x5C\x1B(B");
    // "Doing that twice, concatenating the results, and then decoding yields U+00A5 U+FFFD
    // U+00A5."
    assert_eq!(
        dec(j, b"\x1B(J\x5C\x1B(B\x1B(J\x5C\x1B(B"),
        "\u{A5}\u{FFFD}\u{A5}"
    );
    // Step 3: U+000E, U+000F and U+001B in ASCII or Roman are errors with U+FFFD.
    assert_eq!(enc_html(j, "\u{0E}"), b"&#65533;");
    assert_eq!(enc_html(j, "a\u{0F}\u{1B}"), b"a&#65533;&#65533;");
    assert_eq!(enc_html(j, "\u{A5}\u{1B}"), b"\x1B(J\x5C&#65533;\x1B(B");
    let t = tc_encode_utf8(j, "x\u{1B}");
    assert_eq!((t.fatal, t.unmappable), (b"x".to_vec(), Some('\u{FFFD}')));
    // In jis0208 state, step 6 switches to ASCII first, then step 3 applies.
    assert_eq!(enc_html(j, "漢\u{0E}"), b"\x1B$B\x34\x41\x1B(B&#65533;");
    // Roman keeps ASCII except \ and ~ (step 5), which switch back to ASCII (step 6).
    assert_eq!(
        enc_html(j, "\u{A5}a\\~\u{203E}"),
        b"\x1B(J\x5Ca\x1B(B\\~\x1B(J\x7E\x1B(B"
    );
    // U+2212 -> U+FF0D (step 8), half-width katakana -> full-width (step 9).
    assert_eq!(
        enc_html(j, "\u{2212}\u{FF71}\u{FF9E}"),
        b"\x1B$B\x21\x5D\x25\x22\x21\x2B\x1B(B"
    );
    // Unmappable in jis0208: step 11.1 switches to ASCII, then the error.
    assert_eq!(
        enc_html(j, "漢é漢"),
        b"\x1B$B\x34\x41\x1B(B&#233;\x1B$B\x34\x41\x1B(B"
    );
    let t = tc_encode_utf8(j, "漢é");
    assert_eq!(
        (t.fatal, t.unmappable),
        (b"\x1B$B\x34\x41\x1B(B".to_vec(), Some('é'))
    );
    // End-of-queue returns to ASCII (step 1) only when needed.
    assert_eq!(enc_html(j, "a"), b"a");
    assert_eq!(enc_html(j, ""), b"");

    // EUC-JP: ¥ ‾ (steps 3-4), katakana (step 5), U+2212 (step 6), jis0208, unmappable.
    let e = textcodec::EUC_JP;
    assert_eq!(
        enc_html(e, "\u{A5}\u{203E}\u{FF61}\u{FF9F}\u{2212}漢\u{4E02}"),
        b"\x5C\x7E\x8E\xA1\x8E\xDF\xA1\xDD\xB4\xC1&#19970;"
    );
    // Shift_JIS: U+0080 (step 2), ¥ ‾, katakana as one byte, U+2212, EUDC is unmappable.
    let s = textcodec::SHIFT_JIS;
    assert_eq!(
        enc_html(s, "\u{80}\u{A5}\u{203E}\u{FF61}\u{2212}漢\u{E000}"),
        b"\x80\x5C\x7E\xA1\x81\x7C\x8A\xBF&#57344;"
    );
    // EUC-KR.
    assert_eq!(
        enc_html(textcodec::EUC_KR, "가\u{AC02}\u{E000}"),
        b"\xB0\xA1\x81\x41&#57344;"
    );
}

#[test]
fn shift_jis_excluded_pointer_range() {
    // "index Shift_JIS pointer": index jis0208 without pointers 8272..=8835. U+7E8A is at
    // pointer 8272 (first) and 10744: Shift_JIS uses 10744 (0xFA 0x5C), while EUC-JP and
    // ISO-2022-JP use the first pointer, 8272 (0xF9 0xA1 / 0x79 0x21).
    assert_eq!(enc_html(textcodec::SHIFT_JIS, "\u{7E8A}"), b"\xFA\x5C");
    assert_eq!(enc_html(textcodec::EUC_JP, "\u{7E8A}"), b"\xF9\xA1");
    assert_eq!(
        enc_html(textcodec::ISO_2022_JP, "\u{7E8A}"),
        b"\x1B$B\x79\x21\x1B(B"
    );
    // Every pointer in 8272..=8835 decodes, and its code point encodes to a pointer outside
    // the range.
    let mut f = Failures::new("Shift_JIS excluded range");
    for pointer in 8272..=8835usize {
        let (lead, trail) = (pointer / 188, pointer % 188);
        let lead = (lead + if lead < 0x1F { 0x81 } else { 0xC1 }) as u8;
        let trail = (trail + if trail < 0x3F { 0x40 } else { 0x41 }) as u8;
        let s = dec(textcodec::SHIFT_JIS, &[lead, trail]);
        if s.contains('\u{FFFD}') {
            continue; // null entry
        }
        let bytes = enc_html(textcodec::SHIFT_JIS, &s);
        let back_pointer = match bytes[..] {
            [l, t] => {
                let lo = if l < 0xA0 { 0x81 } else { 0xC1 };
                let off = if t < 0x7F { 0x40 } else { 0x41 };
                (l as usize - lo) * 188 + t as usize - off
            }
            _ => {
                f.push(format!(
                    "pointer {pointer}: {} encodes as [{}]",
                    cps(&s),
                    hex(&bytes)
                ));
                continue;
            }
        };
        if (8272..=8835).contains(&back_pointer) {
            f.push(format!(
                "pointer {pointer}: {} encodes to excluded pointer {back_pointer}",
                cps(&s)
            ));
        }
    }
    f.finish();
}

/// Every entry of `KNOWN_DIFFERENCES` is named and cites the spec (its behaviour is asserted
/// in the hand-written vectors above, which follow the spec text step by step).
#[test]
fn spec_over_encoding_rs() {
    for k in KNOWN_DIFFERENCES {
        assert!(!k.name.is_empty() && !k.spec.is_empty() && !k.encoding.is_empty());
    }
}

#[test]
fn lone_surrogates_in_utf16_input_are_u_fffd() {
    for enc in encodings() {
        let units: Vec<u16> = vec![
            0xD800, 0x41, 0xDC00, 0x6F22, 0xDBFF, 0x3042, 0xD83D, 0xDE00, 0xDFFF,
        ];
        let expected = tc_encode_utf8(enc, "\u{FFFD}A\u{FFFD}漢\u{FFFD}あ😀\u{FFFD}");
        assert_eq!(tc_encode_utf16(enc, &units), expected, "{}", enc.name());
        assert_eq!(
            tc_encode_streamed16(enc, &units, true, 0),
            expected.html,
            "{}",
            enc.name()
        );
    }
    // ISO-2022-JP: in the jis0208 state U+FFFD first switches to ASCII (step 11.1).
    assert_eq!(
        tc_encode_utf16(textcodec::ISO_2022_JP, &[0x6F22, 0xD800]).html,
        b"\x1B$B\x34\x41\x1B(B&#65533;"
    );
}
