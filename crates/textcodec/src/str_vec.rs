//! Streaming into a `&mut str` and into the spare capacity of a `Vec<u8>`: encoding_rs's
//! `Decoder::decode_to_str` and `Encoder::encode_from_utf8_to_vec`, with their shapes, so that
//! code written for encoding_rs compiles unchanged.
//!
//! Both go through a buffer on the stack that stays in L1: the decoder writes UTF-8 there,
//! checked by the SIMD validator and copied into the `str` by [`crate::simd::write_str_at`]
//! (the one place that writes into a `str`'s bytes); the encoder's bytes are appended within
//! the `Vec`'s capacity, without reallocating, as encoding_rs does.

use alloc::vec::Vec;

use crate::decoder::{Decoder, DecoderErrorMode};
use crate::encoder::{Encoder, EncoderErrorMode};
use crate::status::Status;

/// What stopped a streaming call, in encoding_rs's name: [`Status`] itself, whose two variants
/// are those of encoding_rs's `CoderResult` (`InputEmpty`, `OutputFull`) with the same meaning.
/// [`Decoder::decode_to_str`] and [`Encoder::encode_from_utf8_to_vec`] return it in
/// encoding_rs's tuple shape.
///
/// ```
/// use textcodec::{CoderResult, UTF_8};
/// let mut decoder = UTF_8.new_decoder_with_bom_removal();
/// let mut buf = String::from("\0\0\0\0\0\0\0\0");
/// let (result, read, written, _) = decoder.decode_to_str(b"hi", &mut buf, true);
/// assert_eq!((result, read, written), (CoderResult::InputEmpty, 2, 2));
/// assert!(matches!(result, CoderResult::InputEmpty));
/// ```
pub type CoderResult = Status;

/// The size of the buffer on the stack that the output goes through.
const THROUGH: usize = 4096;

impl Decoder {
    /// Decodes `src` into `dst` in replacement mode (whatever this decoder's error mode, as
    /// encoding_rs's method of this name always replaces), with the protocol of
    /// [`decode_to_utf8`](Self::decode_to_utf8): returns (`InputEmpty` or `OutputFull`, bytes
    /// read, bytes written, whether a U+FFFD was written). encoding_rs's
    /// `Decoder::decode_to_str`.
    ///
    /// The text is written at the start of `dst`. So that `dst` stays a `str`, the bytes after
    /// `written` that continued a character the output overwrote the start of (at most three)
    /// become NUL; no other byte after `written` changes.
    ///
    /// ```
    /// use textcodec::CoderResult;
    /// let mut decoder = textcodec::SHIFT_JIS.new_decoder_with_bom_removal();
    /// let mut buffer = String::from("....................");
    /// let (result, read, written, replaced) =
    ///     decoder.decode_to_str(b"\x82\xb1\x82\xf1\xff", &mut buffer, true);
    /// assert_eq!((result, read, written, replaced), (CoderResult::InputEmpty, 5, 9, true));
    /// assert_eq!(&buffer[..written], "こん\u{FFFD}");
    /// ```
    pub fn decode_to_str(
        &mut self,
        src: &[u8],
        dst: &mut str,
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let mode = self.options().error_mode;
        self.set_error_mode(DecoderErrorMode::Replacement);
        let mut buf = [0u8; THROUGH];
        let (mut read, mut written, mut replaced) = (0, 0, false);
        let status = loop {
            let room = dst.len() - written;
            let chunk = room.min(THROUGH);
            let p = self
                .decode_to_utf8(&src[read..], &mut buf[..chunk], last)
                .expect("replacement mode never fails");
            // The decoder never ends a call's output inside a character.
            let text = crate::simd::str_from_utf8(&buf[..p.written]).expect("decoder output");
            crate::simd::write_str_at(dst, written, text);
            read += p.read;
            written += p.written;
            replaced |= p.replaced;
            if p.status == Status::InputEmpty {
                break Status::InputEmpty;
            }
            if chunk == room {
                // `dst` itself is full, not just the buffer on the stack.
                break Status::OutputFull;
            }
        };
        self.set_error_mode(mode);
        (status, read, written, replaced)
    }
}

impl Encoder {
    /// Encodes `src` and appends the bytes to `dst` within its capacity (never reallocating),
    /// unmappable characters as `&#NNNN;` (whatever this encoder's error mode, as encoding_rs's
    /// method of this name always does). Returns (`InputEmpty`, or `OutputFull` when the spare
    /// capacity is exhausted, bytes of `src` read, whether a character was replaced); the
    /// number of bytes written is the growth of `dst`. encoding_rs's
    /// `Encoder::encode_from_utf8_to_vec`: reserve room with
    /// [`max_buffer_length_from_utf8`](Self::max_buffer_length_from_utf8) and it is never
    /// `OutputFull`.
    ///
    /// ```
    /// use textcodec::CoderResult;
    /// let mut encoder = textcodec::WINDOWS_1252.new_encoder(Default::default());
    /// let text = "Grüße, ☃";
    /// let mut bytes = Vec::with_capacity(encoder.max_buffer_length_from_utf8(text.len()).unwrap());
    /// let (result, read, replaced) = encoder.encode_from_utf8_to_vec(text, &mut bytes, true);
    /// assert_eq!((result, read, replaced), (CoderResult::InputEmpty, text.len(), true));
    /// assert_eq!(bytes, b"Gr\xFC\xDFe, &#9731;");
    ///
    /// // Without room, it stops and says so.
    /// let mut small = Vec::with_capacity(4);
    /// let (result, read, _) = encoder.encode_from_utf8_to_vec(text, &mut small, true);
    /// assert_eq!((result, read, &small[..]), (CoderResult::OutputFull, 6, &b"Gr\xFC\xDF"[..]));
    /// ```
    pub fn encode_from_utf8_to_vec(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (CoderResult, usize, bool) {
        let mode = self.error_mode();
        self.set_error_mode(EncoderErrorMode::Html);
        let mut buf = [0u8; THROUGH];
        let (mut read, mut replaced) = (0, false);
        let status = loop {
            let room = dst.capacity() - dst.len();
            let chunk = room.min(THROUGH);
            let p = self
                .encode_from_utf8(&src[read..], &mut buf[..chunk], last)
                .expect("html mode never fails");
            dst.extend_from_slice(&buf[..p.written]);
            read += p.read;
            replaced |= p.replaced;
            if p.status == Status::InputEmpty {
                break Status::InputEmpty;
            }
            if chunk == room {
                break Status::OutputFull;
            }
        };
        self.set_error_mode(mode);
        (status, read, replaced)
    }
}
