//! `Stream` adapters mirroring the Web's `TextDecoderStream` and `TextEncoderStream`.

extern crate std;

use super::decode::{feed_clean, Fed, FeedOut};
use super::errors::MalformedInput;
use crate::{
    BomHandling, DecodeError, Decoder, DecoderErrorMode, DecoderOptions, Encoder, Encoding,
    Progress, Status,
};
use core::convert::Infallible;
use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};
use futures_core::stream::{FusedStream, Stream};
use std::string::String;
use std::vec::Vec;

pin_project_lite::pin_project! {
    /// A `Stream` of byte chunks seen as a `Stream` of `Ok` results, for [`DecoderStream`].
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// use textcodec::io::OkChunks;
    ///
    /// # futures_executor::block_on(async {
    /// let chunks = OkChunks::new(futures_util::stream::iter([b"a".to_vec()]));
    /// let all: Vec<Result<Vec<u8>, std::convert::Infallible>> = chunks.collect().await;
    /// assert_eq!(all, [Ok(b"a".to_vec())]);
    /// # });
    /// ```
    #[derive(Debug)]
    pub struct OkChunks<S> {
        #[pin]
        stream: S,
    }
}

impl<S> OkChunks<S> {
    /// Wraps `stream`.
    ///
    /// ```
    /// let chunks = textcodec::io::OkChunks::new(futures_util::stream::iter([&b"x"[..]]));
    /// let _ = textcodec::io::DecoderStream::new(chunks, textcodec::UTF_8);
    /// ```
    pub fn new(stream: S) -> Self {
        OkChunks { stream }
    }
}

impl<S: Stream> Stream for OkChunks<S> {
    type Item = Result<S::Item, Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.project().stream.poll_next(cx).map(|item| item.map(Ok))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}

/// An error item of a [`DecoderStream`].
///
/// ```
/// use futures_util::StreamExt;
/// use textcodec::io::{DecoderStream, DecoderStreamError};
/// use textcodec::{DecoderErrorMode, DecoderOptions};
///
/// # futures_executor::block_on(async {
/// let chunks = futures_util::stream::iter([Ok(b"ok \xFF".to_vec()), Err("connection reset")]);
/// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
/// let items: Vec<_> = DecoderStream::with_options(chunks, textcodec::UTF_8, options).collect().await;
/// // Malformed input ends the stream, as it errors a TextDecoderStream.
/// assert!(matches!(items[..], [Err(DecoderStreamError::Malformed(_))]));
/// # });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecoderStreamError<E> {
    /// Malformed input, in fatal mode; the stream ends after it.
    Malformed(MalformedInput),
    /// An error item of the input stream, passed through; the stream goes on after it.
    Source(E),
}

impl<E: fmt::Display> fmt::Display for DecoderStreamError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecoderStreamError::Malformed(e) => e.fmt(f),
            DecoderStreamError::Source(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for DecoderStreamError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecoderStreamError::Malformed(e) => Some(e),
            DecoderStreamError::Source(e) => Some(e),
        }
    }
}

impl<E: Into<std::io::Error>> From<DecoderStreamError<E>> for std::io::Error {
    fn from(e: DecoderStreamError<E>) -> std::io::Error {
        match e {
            DecoderStreamError::Malformed(e) => e.into(),
            DecoderStreamError::Source(e) => e.into(),
        }
    }
}

pin_project_lite::pin_project! {
    /// A `Stream` of `String` chunks decoded from a `Stream` of byte chunks, as the Web's
    /// `TextDecoderStream` does.
    ///
    /// The input is a `Stream<Item = Result<B, E>>` with `B: AsRef<[u8]>` (wrap a stream of
    /// plain chunks in [`OkChunks`], or use [`DecoderStream::from_chunks`]). Each input chunk
    /// gives the text it completes, if any (chunks may split characters anywhere); at the end
    /// of the input the decoder is flushed (`last: true`, where an incomplete sequence is
    /// malformed) and the rest of the text given. Empty strings are never given.
    ///
    /// Errors are items: malformed input in fatal mode is a
    /// [`DecoderStreamError::Malformed`] item, after which the stream ends (the text of the
    /// chunk that held it is not given), as a `TextDecoderStream` errors; an error item of the
    /// input is passed through as [`DecoderStreamError::Source`] and decoding goes on.
    ///
    /// [`new`](DecoderStream::new) handles the BOM as `TextDecoderStream` does (the BOM of
    /// UTF-8, UTF-16LE or UTF-16BE is removed when it is the encoding's own,
    /// [`BomHandling::Strip`]); [`with_options`](DecoderStream::with_options) takes any
    /// [`DecoderOptions`], such as [`BomHandling::Sniff`] to let a BOM choose the encoding.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// use textcodec::io::DecoderStream;
    ///
    /// # futures_executor::block_on(async {
    /// // "€" in UTF-8 split across chunks.
    /// let chunks = futures_util::stream::iter([&b"1 \xE2"[..], b"\x82", b"\xAC"]);
    /// let text: Vec<String> = DecoderStream::from_chunks(chunks, textcodec::UTF_8)
    ///     .map(Result::unwrap)
    ///     .collect()
    ///     .await;
    /// assert_eq!(text, ["1 ", "€"]);
    /// # });
    /// ```
    pub struct DecoderStream<S> {
        #[pin]
        stream: S,
        decoder: Decoder,
        // The encoding after BOM sniffing (the decoder forgets it when it finishes).
        encoding: &'static Encoding,
        // The tail of a chunk that ends inside a sequence, then the next chunk.
        buf: Vec<u8>,
        fatal: bool,
        offset: u64,
        done: bool,
    }
}

/// [`FeedOut`] into a `String`.
struct StringOut<'a>(&'a mut String);

impl FeedOut for StringOut<'_> {
    fn decode(&mut self, decoder: &mut Decoder, src: &[u8]) -> Result<Progress, DecodeError> {
        decoder.decode_to_string(src, self.0, false)
    }
    fn room_for(&self, _: usize) -> bool {
        true
    }
    fn push(&mut self, utf8: &[u8]) {
        self.0
            .push_str(core::str::from_utf8(utf8).unwrap_or_default());
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }
}

impl<S> DecoderStream<S> {
    /// Decodes `stream` from `encoding` as `TextDecoderStream` does: replacement of malformed
    /// input by U+FFFD, and the encoding's own BOM removed.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// # futures_executor::block_on(async {
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(b"\xFF\xFEh\0\xD8".to_vec())]);
    /// let text: Vec<_> = textcodec::io::DecoderStream::new(chunks, textcodec::UTF_16LE)
    ///     .map(Result::unwrap).collect().await;
    /// // The BOM is removed; the lone byte at the end becomes U+FFFD.
    /// assert_eq!(text, ["h", "\u{FFFD}"]);
    /// # });
    /// ```
    pub fn new(stream: S, encoding: &'static Encoding) -> Self {
        let options = DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: BomHandling::Strip,
        };
        Self::with_options(stream, encoding, options)
    }

    /// Decodes `stream` from `encoding` with the given options.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// use textcodec::{BomHandling, DecoderOptions};
    /// # futures_executor::block_on(async {
    /// // As TextDecoderStream with ignoreBOM: the BOM is kept.
    /// let options = DecoderOptions { bom: BomHandling::Keep, ..Default::default() };
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(&b"\xEF\xBB\xBFx"[..])]);
    /// let text: Vec<_> = textcodec::io::DecoderStream::with_options(chunks, textcodec::UTF_8, options)
    ///     .map(Result::unwrap).collect().await;
    /// assert_eq!(text, ["\u{FEFF}x"]);
    /// # });
    /// ```
    pub fn with_options(stream: S, encoding: &'static Encoding, options: DecoderOptions) -> Self {
        DecoderStream {
            stream,
            decoder: encoding.new_decoder(options),
            encoding,
            buf: Vec::new(),
            fatal: options.error_mode == DecoderErrorMode::Fatal,
            offset: 0,
            done: false,
        }
    }

    /// The encoding in use (after BOM sniffing, when the options ask for it).
    ///
    /// ```
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(b"".to_vec())]);
    /// let stream = textcodec::io::DecoderStream::new(chunks, textcodec::GB18030);
    /// assert_eq!(stream.encoding(), textcodec::GB18030);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Whether malformed input is an error item (fatal mode), as `TextDecoderStream.fatal`.
    ///
    /// ```
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(b"".to_vec())]);
    /// assert!(!textcodec::io::DecoderStream::new(chunks, textcodec::UTF_8).fatal());
    /// ```
    pub fn fatal(&self) -> bool {
        self.fatal
    }

    /// The input stream.
    ///
    /// ```
    /// use futures_util::Stream;
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(b"".to_vec())]);
    /// let stream = textcodec::io::DecoderStream::new(chunks, textcodec::UTF_8);
    /// assert_eq!(stream.get_ref().size_hint(), (1, Some(1)));
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.stream
    }

    /// Returns the input stream; bytes the decoder holds (an incomplete sequence) are lost.
    ///
    /// ```
    /// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(b"".to_vec())]);
    /// let stream = textcodec::io::DecoderStream::new(chunks, textcodec::UTF_8);
    /// let _chunks = stream.into_inner();
    /// ```
    pub fn into_inner(self) -> S {
        self.stream
    }
}

impl<S> DecoderStream<OkChunks<S>> {
    /// Decodes a `Stream` of plain byte chunks (`B: AsRef<[u8]>`, no errors) from `encoding`,
    /// as [`new`](DecoderStream::new) does. The items are
    /// `Result<String, DecoderStreamError<Infallible>>`: in replacement mode, always `Ok`.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// # futures_executor::block_on(async {
    /// let chunks = futures_util::stream::iter([vec![0x82, 0xA0], vec![0x82], vec![0xA2]]);
    /// let text: Vec<String> = textcodec::io::DecoderStream::from_chunks(chunks, textcodec::SHIFT_JIS)
    ///     .map(Result::unwrap).collect().await;
    /// assert_eq!(text.concat(), "あい");
    /// # });
    /// ```
    pub fn from_chunks(stream: S, encoding: &'static Encoding) -> Self {
        Self::new(OkChunks::new(stream), encoding)
    }
}

impl<S, B, E> Stream for DecoderStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    type Item = Result<String, DecoderStreamError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        loop {
            if *this.done {
                return Poll::Ready(None);
            }
            let (chunk, last) = match this.stream.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(e))) => {
                    return Poll::Ready(Some(Err(DecoderStreamError::Source(e))))
                }
                Poll::Ready(Some(Ok(chunk))) => (Some(chunk), false),
                Poll::Ready(None) => (None, true),
            };
            let mut text = String::new();
            let result = match &chunk {
                Some(chunk) => {
                    // Exact offsets: never leave a partial sequence inside the decoder.
                    this.buf.extend_from_slice(chunk.as_ref());
                    let fed = feed_clean(this.decoder, this.buf, &mut StringOut(&mut text));
                    *this.encoding = this.decoder.encoding();
                    match fed {
                        Fed::Progress { read, .. } => Ok(read),
                        Fed::Error { read } => Err(read),
                    }
                }
                None => match this.decoder.decode_to_string(this.buf, &mut text, true) {
                    Ok(p) => Ok(p.read),
                    Err(e) => Err(e.read),
                },
            };
            match result {
                Ok(read) => {
                    *this.offset += read as u64;
                    this.buf.drain(..read);
                }
                Err(read) => {
                    *this.offset += read as u64;
                    *this.done = true;
                    this.buf.clear();
                    let malformed = MalformedInput {
                        encoding: this.decoder.encoding(),
                        offset: *this.offset,
                    };
                    return Poll::Ready(Some(Err(DecoderStreamError::Malformed(malformed))));
                }
            }
            if last {
                *this.done = true;
                this.buf.clear();
            }
            if !text.is_empty() {
                return Poll::Ready(Some(Ok(text)));
            }
        }
    }
}

impl<S, B, E> FusedStream for DecoderStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    fn is_terminated(&self) -> bool {
        self.done
    }
}

impl<S> fmt::Debug for DecoderStream<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecoderStream")
            .field("encoding", &self.decoder.encoding().name())
            .field("fatal", &self.fatal)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

pin_project_lite::pin_project! {
    /// A `Stream` of byte chunks (`Vec<u8>`) encoded from a `Stream` of text chunks
    /// (`String`, `&str`, anything `AsRef<str>`), as the Web's `TextEncoderStream` does.
    ///
    /// [`new`](EncoderStream::new) encodes to UTF-8, as `TextEncoderStream` does: each non-empty
    /// chunk gives its bytes. `TextEncoderStream` takes JavaScript strings, whose chunks may end
    /// in half of a surrogate pair that the next chunk completes, and a lone surrogate becomes
    /// U+FFFD; a Rust `&str` always holds whole scalar values, so that handling has nothing to
    /// do here (nor has its end-of-stream U+FFFD for a pending surrogate).
    ///
    /// [`with_encoding`](EncoderStream::with_encoding) encodes to a legacy encoding instead, as
    /// a browser encodes a form: unmappable characters become `&#NNNN;`, and the end of the input
    /// ends the encoder's stream (ISO-2022-JP's return to ASCII then is the last chunk).
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// use textcodec::io::EncoderStream;
    ///
    /// # futures_executor::block_on(async {
    /// let text = futures_util::stream::iter(["Grüße", "", " ☃"]);
    /// let bytes: Vec<Vec<u8>> = EncoderStream::new(text).collect().await;
    /// assert_eq!(bytes, [b"Gr\xC3\xBC\xC3\x9Fe".to_vec(), b" \xE2\x98\x83".to_vec()]);
    /// # });
    /// ```
    pub struct EncoderStream<S> {
        #[pin]
        stream: S,
        encoder: Encoder,
        done: bool,
    }
}

impl<S> EncoderStream<S> {
    /// Encodes `stream` to UTF-8, as `TextEncoderStream` does.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// # futures_executor::block_on(async {
    /// let text = futures_util::stream::iter([String::from("a"), String::from("é")]);
    /// let bytes: Vec<Vec<u8>> = textcodec::io::EncoderStream::new(text).collect().await;
    /// assert_eq!(bytes.concat(), "aé".as_bytes());
    /// # });
    /// ```
    pub fn new(stream: S) -> Self {
        Self::with_encoding(stream, crate::UTF_8)
    }

    /// Encodes `stream` to the output encoding of `encoding`, in html mode.
    ///
    /// ```
    /// use futures_util::StreamExt;
    /// # futures_executor::block_on(async {
    /// let text = futures_util::stream::iter(["ｶ", "ﾅ ✓"]);
    /// let bytes: Vec<Vec<u8>> = textcodec::io::EncoderStream::with_encoding(text, textcodec::ISO_2022_JP)
    ///     .collect().await;
    /// assert_eq!(bytes.concat(), b"\x1B$B%+%J\x1B(B &#10003;");
    /// # });
    /// ```
    pub fn with_encoding(stream: S, encoding: &'static Encoding) -> Self {
        EncoderStream {
            stream,
            encoder: encoding.new_encoder(crate::EncoderErrorMode::Html),
            done: false,
        }
    }

    /// The encoding written.
    ///
    /// ```
    /// let text = futures_util::stream::iter(["x"]);
    /// assert_eq!(textcodec::io::EncoderStream::new(text).encoding(), textcodec::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoder.encoding()
    }

    /// Returns the input stream.
    ///
    /// ```
    /// let text = futures_util::stream::iter(["x"]);
    /// let _text = textcodec::io::EncoderStream::new(text).into_inner();
    /// ```
    pub fn into_inner(self) -> S {
        self.stream
    }
}

/// Encodes all of `text` (`last` ends the stream) into a new vector.
fn encode_chunk(encoder: &mut Encoder, text: &str, last: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let want = encoder
            .max_buffer_length_from_utf8(rest.len())
            .unwrap_or(rest.len())
            .max(64);
        let start = out.len();
        out.resize(start + want, 0);
        let (read, written, status) = match encoder.encode_from_utf8(rest, &mut out[start..], last)
        {
            Ok(p) => (p.read, p.written, p.status),
            // Html mode never fails; if it did, the character is skipped.
            Err(e) => (e.read, e.written, Status::OutputFull),
        };
        out.truncate(start + written);
        rest = &rest[read..];
        if status == Status::InputEmpty {
            return out;
        }
    }
}

impl<S> Stream for EncoderStream<S>
where
    S: Stream,
    S::Item: AsRef<str>,
{
    type Item = Vec<u8>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        loop {
            if *this.done {
                return Poll::Ready(None);
            }
            let bytes = match this.stream.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(text)) => encode_chunk(this.encoder, text.as_ref(), false),
                Poll::Ready(None) => {
                    *this.done = true;
                    encode_chunk(this.encoder, "", true)
                }
            };
            if !bytes.is_empty() {
                return Poll::Ready(Some(bytes));
            }
        }
    }
}

impl<S> FusedStream for EncoderStream<S>
where
    S: Stream,
    S::Item: AsRef<str>,
{
    fn is_terminated(&self) -> bool {
        self.done
    }
}

impl<S> fmt::Debug for EncoderStream<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncoderStream")
            .field("encoding", &self.encoder.encoding().name())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
