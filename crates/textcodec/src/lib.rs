//! # textcodec
//!
//! The [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/) in Rust: all 40 encodings
//! of the Web, decoded and encoded byte for byte as browsers do, streaming into caller buffers,
//! with the JavaScript `TextDecoder`/`TextEncoder` semantics and `std::io` adapters.
//!
//! ```
//! // Decode a legacy page the way a browser does (the BOM, if any, wins over the label).
//! let bytes = b"\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd";
//! let encoding = textcodec::Encoding::for_label(b"Shift_JIS").unwrap();
//! let (text, used, had_errors) = textcodec::decode(bytes, encoding);
//! assert_eq!(text, "こんにちは");
//! assert_eq!(used, textcodec::SHIFT_JIS);
//! assert!(!had_errors);
//!
//! // Encode a form field like a browser: unmappable characters become &#NNNN;.
//! let (bytes, _, _) = textcodec::encode("naïve ☃", textcodec::WINDOWS_1252);
//! assert_eq!(&*bytes, b"na\xEFve &#9731;");
//! ```
//!
//! ## The spec, item by item
//!
//! | Encoding Standard | textcodec |
//! |---|---|
//! | the encodings (§4.2 "Names and labels") | [`UTF_8`], [`SHIFT_JIS`], ... (one `static` each), [`Encoding::all`], [`Encoding::name`], [`Encoding::labels`] |
//! | "get an encoding" | [`Encoding::for_label`] |
//! | "get an output encoding" | [`Encoding::output_encoding`] |
//! | "BOM sniff" | [`Encoding::for_bom`] |
//! | "decode" | [`decode`] |
//! | "UTF-8 decode" | [`utf8_decode`] |
//! | "UTF-8 decode without BOM" | [`utf8_decode_without_bom`] |
//! | "UTF-8 decode without BOM or fail" | [`utf8_decode_without_bom_or_fail`] |
//! | "encode", "UTF-8 encode" | [`encode`] |
//! | "get an encoder", "encode or fail" | [`Encoding::new_encoder`] with [`EncoderErrorMode::Fatal`], [`encode_or_fail`] |
//! | a decoder instance, "process a queue" | [`Decoder`] ([`Encoding::new_decoder`]) |
//! | an encoder instance | [`Encoder`] ([`Encoding::new_encoder`]) |
//! | error mode "replacement" / "fatal" (decoders) | [`DecoderErrorMode`] |
//! | error mode "html" / "fatal" (encoders) | [`EncoderErrorMode`] |
//! | end-of-queue | `last: true` in the streaming calls |
//! | `TextDecoder` (`fatal`, `ignoreBOM`, `decode(input, {stream})`) | [`TextDecoder`], [`TextDecoderOptions`] |
//! | `TextEncoder` (`encode`, `encodeInto`) | [`TextEncoder`], [`EncodeIntoResult`] |
//! | `TextDecoderStream`, `TextEncoderStream` | `io::DecoderStream`, `io::EncoderStream` (feature `futures`) |
//! | reading and writing text in an encoding | [`io::DecodeReader`], [`io::EncodeWriter`] (feature `std`); async versions with feature `tokio` |
//! | HTML "encoding sniffing algorithm", "prescan a byte stream to determine its encoding", "extracting a character encoding from a meta element"; Fetch "legacy extract an encoding" | [`detect::sniff_html`], [`detect::prescan`], [`detect::extract_meta_charset`], [`detect::charset_from_content_type`] |
//!
//! ## Streaming
//!
//! [`Decoder`] and [`Encoder`] work on caller buffers and never allocate:
//!
//! - the input may be split anywhere (inside a BOM, a multi-byte sequence or an ISO-2022-JP
//!   escape); the concatenated output never depends on where;
//! - `read`/`written` in [`Progress`] count input and output units; [`Status::OutputFull`]
//!   means `dst` cannot take the next character (output never ends inside a UTF-8 character
//!   or a surrogate pair); call again with `src[read..]`;
//! - `max_*_buffer_length` give the worst case for the rest of the input: a buffer that long
//!   is never `OutputFull`;
//! - in fatal mode an error says where ([`DecodeError`], [`EncodeError`]) and decoding can
//!   continue after it.
//!
//! ```
//! use textcodec::{Status, EUC_JP};
//! let mut decoder = EUC_JP.new_decoder(Default::default());
//! let mut out = String::new();
//! for chunk in [&b"\xA4"[..], b"\xA2\xA4", b"\xA4\xA4"] {
//!     let mut buf = [0u8; 64];
//!     let p = decoder.decode_to_utf8(chunk, &mut buf, false).unwrap();
//!     assert_eq!(p.status, Status::InputEmpty);
//!     out.push_str(std::str::from_utf8(&buf[..p.written]).unwrap());
//! }
//! let mut buf = [0u8; 64];
//! let p = decoder.decode_to_utf8(&[], &mut buf, true).unwrap(); // end of the stream
//! out.push_str(std::str::from_utf8(&buf[..p.written]).unwrap());
//! assert_eq!(out, "あい\u{FFFD}");
//! ```
//!
//! ## Unknown encodings
//!
//! Where nobody declared the encoding, [`detect`] finds it as browsers do, three ways in:
//!
//! - [`detect::sniff_html`] runs the HTML Standard's encoding sniffing algorithm on a document
//!   (BOM, the `Content-Type` charset, a `<meta charset>` or XML declaration in the first 1024
//!   bytes, then the statistical guess of [`detect::Detector`]) and says which step answered;
//!   its parts ([`detect::prescan`], [`detect::extract_meta_charset`],
//!   [`detect::charset_from_content_type`], the `Detector`) are public too.
//! - [`io::DecodeReader::detect`] (and `io::AsyncDecodeReader::detect`) finds the encoding of a
//!   stream from its start, at most 64 KiB by default, then decodes all of it, never reading it
//!   whole.
//! - The `textcodec` command: `textcodec detect FILE`, and `-f auto` for conversions.
//!
//! ```
//! use textcodec::detect::{sniff_html, Source};
//! let page = b"<meta charset=euc-kr><title>\xc8\xad\xbc\xba</title>";
//! let found = sniff_html(page, None, None);
//! assert_eq!((found.encoding, found.source), (textcodec::EUC_KR, Source::Prescan));
//!
//! use std::io::Read;
//! let mut text = String::new();
//! textcodec::io::DecodeReader::detect(&b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!"[..]).read_to_string(&mut text)?;
//! assert_eq!(text, "Привет, мир!");
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! ## Migrating from encoding_rs
//!
//! Code written for encoding_rs ports by changing `encoding_rs` to `textcodec` (and
//! `encoding_rs_io` to `textcodec::io`), except in the rows marked "changes": there textcodec's
//! own API (the streaming calls of [`Decoder`] and [`Encoder`]) has its shape. The results are
//! the same; `tests/encoding_rs_api.rs`, `tests/mem.rs` and `tests/io_builder.rs` check each
//! function against encoding_rs and encoding_rs_io, and `tests/encoding_rs_style.rs` compiles
//! the same code (as reqwest, quick-xml, mailparse, grep-searcher, servo and deno write it) with
//! both crates.
//!
//! | encoding_rs | textcodec |
//! |---|---|
//! | `Encoding::for_label`, `for_label_no_replacement`, `for_bom` | [`Encoding::for_label`], [`Encoding::for_label_no_replacement`], [`Encoding::for_bom`] |
//! | `name`, `output_encoding`, `is_single_byte`, `can_encode_everything`, `is_ascii_compatible` | [`Encoding::name`], [`Encoding::output_encoding`], [`Encoding::is_single_byte`], [`Encoding::can_encode_everything`], [`Encoding::is_ascii_compatible`] |
//! | `Encoding::utf8_valid_up_to`, `ascii_valid_up_to` | [`Encoding::utf8_valid_up_to`], [`Encoding::ascii_valid_up_to`] |
//! | `encoding.decode(bytes)` → `(Cow<str>, &Encoding, bool)` | [`Encoding::decode`] (or [`decode`]`(bytes, encoding)`) |
//! | `decode_with_bom_removal`, `decode_without_bom_handling` | [`Encoding::decode_with_bom_removal`], [`Encoding::decode_without_bom_handling`] |
//! | `decode_without_bom_handling_and_without_replacement` → `Option<Cow<str>>` | [`Encoding::decode_without_bom_handling_and_without_replacement`]; [`utf8_decode_without_bom_or_fail`] also says where |
//! | `encoding.encode(text)` → `(Cow<[u8]>, &Encoding, bool)` | [`Encoding::encode`] (or [`encode`]`(text, encoding)`) |
//! | `new_decoder_with_bom_removal()`, `new_decoder_without_bom_handling()` | [`Encoding::new_decoder_with_bom_removal`], [`Encoding::new_decoder_without_bom_handling`] |
//! | `new_decoder()` (changes) | [`Encoding::new_decoder`]`(Default::default())` ([`BomHandling::Sniff`]) |
//! | `Decoder::decode_to_str` → `(CoderResult, read, written, replaced)` | [`Decoder::decode_to_str`]; bytes after `written` are left as they were (encoding_rs may zero some) but for the at most three that continued an overwritten character |
//! | `Decoder::decode_to_utf8`, `decode_to_utf16`, `decode_to_string` → a tuple (changes) | [`Decoder::decode_to_utf8`], [`Decoder::decode_to_utf16`], [`Decoder::decode_to_string`] → `Result<`[`Progress`]`, `[`DecodeError`]`>` (`Err` only in fatal mode); `decode_to_string` grows the `String` |
//! | `decode_to_utf8_without_replacement` → `DecoderResult::Malformed` (changes) | a decoder made with [`DecoderErrorMode::Fatal`]: `Err(`[`DecodeError`]`)`, then continue with `src[read..]` |
//! | `max_utf8_buffer_length`, `max_utf16_buffer_length` (and `_without_replacement`) | [`Decoder::max_utf8_buffer_length`], [`Decoder::max_utf16_buffer_length`] |
//! | `new_encoder()` (changes) | [`Encoding::new_encoder`]`(`[`EncoderErrorMode::Html`]`)` (`Default::default()`) |
//! | `Encoder::encode_from_utf8_to_vec` → `(CoderResult, read, replaced)` | [`Encoder::encode_from_utf8_to_vec`] (html references whatever the encoder's mode) |
//! | `Encoder::encode_from_utf8`, `encode_from_utf16` → a tuple (changes) | [`Encoder::encode_from_utf8`], [`Encoder::encode_from_utf16`] → `Result<`[`Progress`]`, `[`EncodeError`]`>` |
//! | `encode_from_utf8_without_replacement` → `EncoderResult::Unmappable(c)` (changes) | an encoder made with [`EncoderErrorMode::Fatal`]: `Err(`[`EncodeError`]`)` with `unmappable` |
//! | `max_buffer_length_from_utf8_if_no_unmappables`, `max_buffer_length_from_utf8_without_replacement` | [`Encoder::max_buffer_length_from_utf8`] (html references included) |
//! | `CoderResult::{InputEmpty, OutputFull}` | [`CoderResult`] (the same as [`Status`]) |
//! | `mem::is_ascii`, `is_utf8_latin1`, `decode_latin1`, `encode_latin1_lossy`, `convert_latin1_to_utf8`, `convert_utf8_to_latin1_lossy`, `utf16_valid_up_to` | [`mem::is_ascii`], [`mem::is_utf8_latin1`], [`mem::decode_latin1`], [`mem::encode_latin1_lossy`], [`mem::convert_latin1_to_utf8`], [`mem::convert_utf8_to_latin1_lossy`], [`mem::utf16_valid_up_to`] (SIMD; the lossy ones write `?` where encoding_rs promises nothing) |
//! | `encoding_rs_io::DecodeReaderBytesBuilder` (`encoding`, `utf8_passthru`, `bom_override`, `strip_bom`, `bom_sniffing`, `build`, `build_with_buffer`) | `io::DecodeReaderBuilder` (also named `io::DecodeReaderBytesBuilder`), the same options (feature `std`) |
//! | `encoding_rs_io::DecodeReaderBytes::new(reader)` | `io::DecodeReaderBuilder::new().build(reader)`; `io::DecodeReader::new(reader, encoding)` decodes as the spec's "decode" |
//! | a `&'static encoding_rs::Encoding` from chardetng, codepage, charset | `.into()`, `Encoding::from_encoding_rs`, `Encoding::to_encoding_rs` (feature `encoding_rs`) |
//!
//! `latin1` is a label of windows-1252 in both crates, as on the Web; `mem`'s "Latin-1" is
//! each byte as the code point of its value (U+0080..=U+009F included).
//!
//! ## Features
//!
//! - `std` (default): `std::error::Error` impls and the [`io`] adapters. Without it the crate
//!   is `no_std` + `alloc`.
//! - `tokio`: `io::AsyncDecodeReader`, `io::AsyncEncodeWriter`.
//! - `futures`: `io::DecoderStream`, `io::EncoderStream`.
//! - `serde`: `&'static Encoding` serializes as its name and deserializes from any label.
//! - `encoding_rs`: `&'static Encoding` to and from `&'static encoding_rs::Encoding`.
#![no_std]
// docs.rs (`[package.metadata.docs.rs]`, nightly) marks the items each feature adds.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod codecs;
#[cfg(feature = "encoding_rs")]
#[cfg_attr(docsrs, doc(cfg(feature = "encoding_rs")))]
mod compat;
mod decoder;
pub mod detect;
mod encoder;
mod encoding;
mod hooks;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod io;
pub mod mem;
#[cfg(feature = "serde")]
mod serde_impl;
#[allow(unsafe_code)]
mod simd;
mod status;
mod str_vec;
// Generated by `cargo xtask gen-tables`: kept exactly as the generator writes it.
#[allow(missing_docs, clippy::all)]
#[rustfmt::skip]
mod tables;

/// The unit tests' random numbers: one step of Marsaglia's 32-bit xorshift on `x`, returning
/// its new value.
#[cfg(test)]
pub(crate) fn xorshift32(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}
mod web;

pub use decoder::{BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions};
pub use encoder::{EncodeError, Encoder, EncoderErrorMode};
pub use encoding::*;
pub use hooks::*;
pub use status::{Progress, Status};
pub use str_vec::CoderResult;
pub use web::*;

/// Run-time CPU dispatch of the SIMD fast paths.
///
/// textcodec detects the best instruction set once (AVX-512 with F/BW/VL/VBMI/VBMI2, AVX2 or SSE2
/// on x86-64, NEON on aarch64) and uses it for its hot loops; every level gives identical results. A lower level
/// can be forced, for testing or to compare speeds.
///
/// ```
/// use textcodec::dispatch::{level, set_level, Level};
/// let best = level();
/// assert_eq!(set_level(Level::Scalar), Level::Scalar);
/// assert_eq!(textcodec::utf8_decode(b"caf\xC3\xA9"), "café");
/// set_level(best);
/// ```
pub mod dispatch {
    pub use crate::simd::{detected_level, level, native_levels, set_level, Level};
}
