//! # textcodec
//!
//! The [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/) in Rust: every encoding
//! of the Web, decoded and encoded byte for byte as browsers do.
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod codecs;
mod decoder;
mod encoder;
mod encoding;
mod hooks;
#[allow(unsafe_code)]
mod simd;
#[allow(missing_docs, clippy::all)]
mod tables;
mod web;

pub use decoder::{BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, Progress, Status};
pub use encoder::{EncodeError, Encoder, EncoderErrorMode};
pub use encoding::*;
pub use hooks::*;
pub use web::*;
