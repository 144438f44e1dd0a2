//! Helpers shared by the io_* tests: sample inputs, one-shot oracles built on the library's
//! own `Decoder`/`Encoder` with whole-input buffers, and readers and writers that misbehave on
//! purpose.
#![allow(dead_code)]

#[path = "../support/mod.rs"]
mod support;
pub use support::*;

use std::io::{self, Read, Write};
use textcodec::{
    DecodeError, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding, Status,
};

/// The first `max` bytes (cut at a character boundary) of a corpus text.
pub fn corpus_prefix(lang: &str, max: usize) -> String {
    prefix(&corpus_text(lang), max).to_string()
}

/// Text exercising every kind of script the encodings cover, plus characters that most of them
/// cannot represent and those that ISO-2022-JP refuses.
pub fn sample_text(per_language: usize) -> String {
    let mut text = String::new();
    for lang in [
        "en", "ja", "zh_cn", "zh_tw", "ko", "ru", "el", "he", "ar", "th", "tr", "vi", "cs",
    ] {
        text.push_str(&corpus_prefix(lang, per_language));
        text.push('\n');
    }
    text.push_str(
        "ｱｲｳ ﾊﾟﾋﾟ ¥‾ \u{1B}(B \u{E}\u{F} € 😀 \u{FFFD} \u{FEFF} \u{80} \u{E5E5} \u{10FFFF}\r\n",
    );
    text
}

/// Encodes `text` in one call, with room for everything.
pub fn one_shot_encode(encoding: &'static Encoding, mode: EncoderErrorMode, text: &str) -> Vec<u8> {
    one_shot_encode_with_errors(encoding, mode, text).0
}

/// Encodes `text` in one call per error, resuming after each; returns the bytes and the
/// unmappable characters reported.
pub fn one_shot_encode_with_errors(
    encoding: &'static Encoding,
    mode: EncoderErrorMode,
    text: &str,
) -> (Vec<u8>, Vec<char>) {
    let mut encoder = encoding.new_encoder(mode);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut rest = text;
    loop {
        let room = encoder.max_buffer_length_from_utf8(rest.len()).unwrap();
        let start = out.len();
        out.resize(start + room, 0);
        match encoder.encode_from_utf8(rest, &mut out[start..], true) {
            Ok(p) => {
                assert_eq!(p.status, Status::InputEmpty);
                assert_eq!(p.read, rest.len());
                out.truncate(start + p.written);
                return (out, errors);
            }
            Err(e) => {
                out.truncate(start + e.written);
                errors.push(e.unmappable);
                rest = &rest[e.read..];
            }
        }
    }
}

/// Decodes `bytes` in one call (per error), with room for everything; returns the text and
/// the error offsets (input bytes read through each malformed sequence).
pub fn one_shot_decode_with_errors(
    encoding: &'static Encoding,
    options: DecoderOptions,
    bytes: &[u8],
) -> (String, Vec<u64>) {
    let mut decoder = encoding.new_decoder(options);
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    let mut consumed = 0usize;
    loop {
        let room = decoder
            .max_utf8_buffer_length(bytes.len() - consumed)
            .unwrap();
        let start = out.len();
        out.resize(start + room, 0);
        match decoder.decode_to_utf8(&bytes[consumed..], &mut out[start..], true) {
            Ok(p) => {
                assert_eq!(p.status, Status::InputEmpty);
                consumed += p.read;
                assert_eq!(consumed, bytes.len());
                out.truncate(start + p.written);
                return (String::from_utf8(out).unwrap(), offsets);
            }
            Err(DecodeError { read, written }) => {
                out.truncate(start + written);
                consumed += read;
                offsets.push(consumed as u64);
            }
        }
    }
}

pub fn one_shot_decode(
    encoding: &'static Encoding,
    options: DecoderOptions,
    bytes: &[u8],
) -> String {
    one_shot_decode_with_errors(encoding, options, bytes).0
}

pub fn replacement() -> DecoderOptions {
    DecoderOptions::default()
}

pub fn fatal() -> DecoderOptions {
    DecoderOptions {
        error_mode: DecoderErrorMode::Fatal,
        ..Default::default()
    }
}

/// Inputs for decoding tests in `encoding`: real text encoded to it, the same after each BOM,
/// random bytes, and a binary file.
pub fn decode_inputs(encoding: &'static Encoding, per_language: usize, seed: u64) -> Vec<Vec<u8>> {
    let text = sample_text(per_language);
    let encoded = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
    let mut rng = Rng::new(seed);
    let mut inputs = vec![Vec::new(), encoded.clone()];
    for bom in [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"] {
        let mut with_bom = bom.to_vec();
        with_bom.extend_from_slice(&encoded[..encoded.len().min(3000)]);
        inputs.push(with_bom);
    }
    // Truncated BOMs and multi-byte sequences at the end.
    inputs.push(b"\xEF\xBB".to_vec());
    inputs.push(b"\xFF".to_vec());
    inputs.push(encoded[..encoded.len().min(1001)].to_vec());
    // Valid text with random damage.
    let mut damaged = encoded[..encoded.len().min(4000)].to_vec();
    for _ in 0..40 {
        let at = rng.range(0, damaged.len() - 1);
        damaged[at] = rng.byte();
    }
    inputs.push(damaged);
    inputs.push(rng.bytes(3000));
    let binary = std::fs::read(corpus_dir().join("binary.jpg")).expect("binary.jpg");
    inputs.push(binary[..binary.len().min(4000)].to_vec());
    inputs
}

/// How a misbehaving reader or writer behaves.
#[derive(Clone, Copy, Debug)]
pub enum Chaos {
    /// One byte per call.
    OneByte,
    /// Random sizes from 1 to the given maximum.
    Short(usize),
    /// Random sizes, and `Interrupted` (or, for async, `Pending`) one call in three.
    ShortInterrupted(usize),
    /// Everything the caller asks for.
    Full,
}

impl Chaos {
    pub const ALL: [Chaos; 5] = [
        Chaos::OneByte,
        Chaos::Short(7),
        Chaos::ShortInterrupted(100),
        Chaos::ShortInterrupted(5000),
        Chaos::Full,
    ];

    /// The size of the next call (at most `asked`, at least 1), or `None` for an interruption.
    pub fn next_len(&self, rng: &mut Rng, asked: usize) -> Option<usize> {
        let n = match *self {
            Chaos::OneByte => 1,
            Chaos::Short(max) => rng.range(1, max),
            Chaos::ShortInterrupted(max) => {
                if rng.chance(3) {
                    return None;
                }
                rng.range(1, max)
            }
            Chaos::Full => asked,
        };
        Some(n.min(asked).max(1))
    }
}

/// A reader of `data` that returns short reads and `Interrupted` as its `Chaos` says.
pub struct ChaosReader {
    data: Vec<u8>,
    pos: usize,
    chaos: Chaos,
    rng: Rng,
}

impl ChaosReader {
    pub fn new(data: Vec<u8>, chaos: Chaos, seed: u64) -> ChaosReader {
        ChaosReader {
            data,
            pos: 0,
            chaos,
            rng: Rng::new(seed),
        }
    }

    /// The next slice to hand out (empty at the end), or `None` for an interruption.
    pub fn next_chunk(&mut self, asked: usize) -> Option<&[u8]> {
        if asked == 0 || self.pos == self.data.len() {
            return Some(&[]);
        }
        let n = self.chaos.next_len(&mut self.rng, asked)?;
        let n = n.min(self.data.len() - self.pos);
        let chunk = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Some(chunk)
    }
}

impl Read for ChaosReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.next_chunk(buf.len()) {
            None => Err(io::Error::new(io::ErrorKind::Interrupted, "chaos")),
            Some(chunk) => {
                buf[..chunk.len()].copy_from_slice(chunk);
                Ok(chunk.len())
            }
        }
    }
}

/// A writer into a vector that takes short writes and returns `Interrupted` as its `Chaos` says.
pub struct ChaosWriter {
    pub out: Vec<u8>,
    chaos: Chaos,
    rng: Rng,
    pub flushes: usize,
}

impl ChaosWriter {
    pub fn new(chaos: Chaos, seed: u64) -> ChaosWriter {
        ChaosWriter {
            out: Vec::new(),
            chaos,
            rng: Rng::new(seed),
            flushes: 0,
        }
    }
}

impl Write for ChaosWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        match self.chaos.next_len(&mut self.rng, buf.len()) {
            None => Err(io::Error::new(io::ErrorKind::Interrupted, "chaos")),
            Some(n) => {
                self.out.extend_from_slice(&buf[..n]);
                Ok(n)
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

/// Splits `bytes` into pieces of random sizes from 1 to `max` (ignoring character boundaries).
pub fn random_pieces<'a>(bytes: &'a [u8], rng: &mut Rng, max: usize) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = rng.range(1, max).min(rest.len());
        pieces.push(&rest[..n]);
        rest = &rest[n..];
    }
    pieces
}

/// FNV-1a, 64 bits: a hash that does not depend on how its input is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xCBF2_9CE4_8422_2325)
    }
}

impl Fnv {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01B3);
        }
    }
}

/// A writer that only hashes and counts what it is given.
#[derive(Default)]
pub struct HashWriter {
    pub hash: Fnv,
    pub len: u64,
}

impl Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.hash.update(buf);
        self.len += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
