//! Adapters between the streaming [`Decoder`](crate::Decoder) /
//! [`Encoder`](crate::Encoder) and the I/O traits of the Rust ecosystem.
//!
//! * [`DecodeReader`] wraps a [`std::io::Read`] of bytes in some encoding and is itself a
//!   [`Read`](std::io::Read) and [`BufRead`](std::io::BufRead) of UTF-8, with
//!   [`DecodeReader::read_str`] handing out whole characters as `&str`.
//!   [`DecodeReaderBuilder`] builds one with the options of encoding_rs_io (UTF-8 passed through
//!   undecoded, BOM override and stripping) and detection.
//! * [`EncodeWriter`] wraps a [`std::io::Write`] and is itself a [`Write`](std::io::Write)
//!   that takes UTF-8 text and writes it in the target encoding.
// The optional adapters are linked only when their feature is on (the links would be
// broken in the default documentation).
#![cfg_attr(
    feature = "tokio",
    doc = "* With the `tokio` feature, [`AsyncDecodeReader`] and [`AsyncEncodeWriter`] do the same"
)]
#![cfg_attr(
    not(feature = "tokio"),
    doc = "* With the `tokio` feature, `AsyncDecodeReader` and `AsyncEncodeWriter` do the same"
)]
//!   over `tokio::io::AsyncRead` / `AsyncWrite`.
#![cfg_attr(
    feature = "futures",
    doc = "* With the `futures` feature, [`DecoderStream`] and [`EncoderStream`] turn a `Stream`"
)]
#![cfg_attr(
    not(feature = "futures"),
    doc = "* With the `futures` feature, `DecoderStream` and `EncoderStream` turn a `Stream`"
)]
//!   of byte chunks into a `Stream` of `String`s and back, as the Web's `TextDecoderStream`
//!   and `TextEncoderStream` do.
//!
//! Every adapter allocates its buffers once, when it is built; reading and writing then allocate
//! nothing (the stream adapters allocate the chunks they hand out, nothing more).
//!
//! Errors are [`std::io::Error`]s. Malformed input in fatal mode is an error of kind
//! [`InvalidData`](std::io::ErrorKind::InvalidData) that carries a [`MalformedInput`]; an
//! unmappable character in fatal mode carries an [`UnmappableChar`]; text that is not UTF-8
//! given to an [`EncodeWriter`] carries an [`InvalidUtf8`].
//!
//! ```
//! use std::io::{BufRead, Read};
//! use textcodec::io::DecodeReader;
//!
//! // A UTF-16LE file with a BOM decodes as such whatever the fallback encoding is.
//! let file: &[u8] = b"\xFF\xFEh\0i\0\n\0";
//! let mut text = String::new();
//! DecodeReader::new(file, textcodec::WINDOWS_1252).read_to_string(&mut text)?;
//! assert_eq!(text, "hi\n");
//! # Ok::<(), std::io::Error>(())
//! ```

extern crate std;

mod decode;
mod detect;
mod encode;
mod errors;
#[cfg(feature = "futures")]
mod stream;
#[cfg(feature = "tokio")]
mod tokio_impl;

pub use decode::{DecodeReader, DecodeReaderBuilder, DecodeReaderBytesBuilder};
pub use detect::{DetectOptions, DEFAULT_DETECT_LIMIT};
pub use encode::EncodeWriter;
pub use errors::{InvalidUtf8, MalformedInput, UnmappableChar};
#[cfg(feature = "futures")]
#[cfg_attr(docsrs, doc(cfg(feature = "futures")))]
pub use stream::{DecoderStream, DecoderStreamError, EncoderStream, OkChunks};
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use tokio_impl::{AsyncDecodeReader, AsyncEncodeWriter};

/// The default size of the input buffer of readers and of the output buffer of writers.
pub(crate) const DEFAULT_CAPACITY: usize = 8 * 1024;
