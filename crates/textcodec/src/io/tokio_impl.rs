//! `AsyncDecodeReader` and `AsyncEncodeWriter` over tokio's I/O traits.

extern crate std;

use super::decode::{CoreStep, DecodeCore};
use super::detect::DetectOptions;
use super::encode::EncodeCore;
use crate::detect::Sniffed;
use crate::{DecoderOptions, EncoderErrorMode, Encoding};
use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::io;
use std::sync::Arc;
use std::task::{Wake, Waker};
use tokio::io::{AsyncBufRead, AsyncRead, AsyncWrite, ReadBuf};

pin_project_lite::pin_project! {
    /// A `tokio::io::AsyncRead` and `AsyncBufRead` of UTF-8 text decoded from an `AsyncRead` of
    /// bytes in some encoding: the async twin of [`DecodeReader`](super::DecodeReader), with the
    /// same guarantees (BOM sniffing by default, whole characters from
    /// [`read_str`](AsyncDecodeReader::read_str) and `poll_fill_buf`, fatal-mode errors of kind
    /// `InvalidData` carrying a [`MalformedInput`](super::MalformedInput), buffers allocated
    /// once).
    ///
    /// ```
    /// use tokio::io::AsyncBufReadExt;
    /// use textcodec::io::AsyncDecodeReader;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let bytes: &[u8] = b"\xCF\xF0\xE8\xE2\xE5\xF2\n\xEC\xE8\xF0\n";
    /// let mut lines = AsyncDecodeReader::new(bytes, textcodec::WINDOWS_1251).lines();
    /// assert_eq!(lines.next_line().await?.as_deref(), Some("Привет"));
    /// assert_eq!(lines.next_line().await?.as_deref(), Some("мир"));
    /// assert_eq!(lines.next_line().await?, None);
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub struct AsyncDecodeReader<R> {
        #[pin]
        inner: R,
        core: DecodeCore,
    }
}

impl<R: AsyncRead> AsyncDecodeReader<R> {
    /// Decodes `reader` from `encoding`, with BOM sniffing and replacement of malformed input.
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut text = String::new();
    /// textcodec::io::AsyncDecodeReader::new(&b"\xEF\xBB\xBFna\xC3\xAFve"[..], textcodec::WINDOWS_1252)
    ///     .read_to_string(&mut text).await?;
    /// assert_eq!(text, "naïve");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn new(reader: R, encoding: &'static Encoding) -> Self {
        Self::with_options(reader, encoding, DecoderOptions::default())
    }

    /// Decodes `reader` from `encoding` with the given options.
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// use textcodec::{DecoderErrorMode, DecoderOptions};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let options = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
    /// let mut text = String::new();
    /// let mut reader = textcodec::io::AsyncDecodeReader::with_options(&b"ok\x80"[..], textcodec::EUC_KR, options);
    /// let err = reader.read_to_string(&mut text).await.unwrap_err();
    /// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    /// # });
    /// ```
    pub fn with_options(reader: R, encoding: &'static Encoding, options: DecoderOptions) -> Self {
        Self::with_capacity(super::DEFAULT_CAPACITY, reader, encoding, options)
    }

    /// Like [`with_options`](AsyncDecodeReader::with_options), with an input buffer of
    /// `capacity` bytes (at least 32) instead of 8 KiB.
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut text = String::new();
    /// textcodec::io::AsyncDecodeReader::with_capacity(2, &b"\xA4\xA4"[..], textcodec::BIG5, Default::default())
    ///     .read_to_string(&mut text).await?;
    /// assert_eq!(text, "中");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn with_capacity(
        capacity: usize,
        reader: R,
        encoding: &'static Encoding,
        options: DecoderOptions,
    ) -> Self {
        AsyncDecodeReader {
            inner: reader,
            core: DecodeCore::new(encoding, options, capacity),
        }
    }

    /// Decodes `reader` from the encoding it is found to be in: the async twin of
    /// [`DecodeReader::detect`](super::DecodeReader::detect) (a BOM, then a `<meta charset>` or
    /// XML declaration in the first 1024 bytes, then the statistical guess over at most the
    /// first 64 KiB, UTF-8 allowed; see [`DetectOptions`]).
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let bytes = "Grüße aus Köln".as_bytes(); // UTF-8, without a BOM
    /// let mut reader = textcodec::io::AsyncDecodeReader::detect(bytes);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text).await?;
    /// assert_eq!(text, "Grüße aus Köln");
    /// assert_eq!(reader.encoding(), textcodec::UTF_8);
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn detect(reader: R) -> Self {
        Self::detect_with(reader, DetectOptions::default(), DecoderOptions::default())
    }

    /// Like [`detect`](AsyncDecodeReader::detect), with the given detection and decoder options.
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// use textcodec::io::{AsyncDecodeReader, DetectOptions};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let options = DetectOptions::new().declarations(false);
    /// let mut reader = AsyncDecodeReader::detect_with(&b"caf\xc3\xa9"[..], options, Default::default());
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text).await?;
    /// assert_eq!(text, "café");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn detect_with(reader: R, detect: DetectOptions, options: DecoderOptions) -> Self {
        AsyncDecodeReader {
            inner: reader,
            core: DecodeCore::detecting(detect, options, super::DEFAULT_CAPACITY),
        }
    }

    /// How a reader made with [`detect`](AsyncDecodeReader::detect) found its encoding: `None`
    /// until its first read returns, and for readers given an encoding.
    ///
    /// ```
    /// use tokio::io::AsyncBufReadExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut reader = textcodec::io::AsyncDecodeReader::detect(&b"<meta charset=koi8-r>"[..]);
    /// reader.fill_buf().await?;
    /// assert_eq!(reader.sniffed().unwrap().encoding, textcodec::KOI8_R);
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn sniffed(&self) -> Option<Sniffed> {
        self.core.sniffed()
    }

    /// The encoding in use; after the first read returns, the one the BOM says if there was one.
    ///
    /// ```
    /// use tokio::io::AsyncBufReadExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut reader = textcodec::io::AsyncDecodeReader::new(&b"\xFF\xFEh\0"[..], textcodec::UTF_8);
    /// reader.fill_buf().await?;
    /// assert_eq!(reader.encoding(), textcodec::UTF_16LE);
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.core.encoding()
    }

    /// Decodes the next piece of text and returns it as a `&str` of whole characters, consumed;
    /// the empty string at the end of the text. See
    /// [`DecodeReader::read_str`](super::DecodeReader::read_str).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut reader = textcodec::io::AsyncDecodeReader::new(&b"\xB0\xA1"[..], textcodec::EUC_KR);
    /// assert_eq!(reader.read_str().await?, "가");
    /// assert_eq!(reader.read_str().await?, "");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn read_str(&mut self) -> io::Result<&str>
    where
        R: Unpin,
    {
        core::future::poll_fn(|cx| Pin::new(&mut *self).poll_fill_buf(cx).map_ok(|_| ())).await?;
        self.core.take_str()
    }

    /// The inner reader.
    ///
    /// ```
    /// let reader = textcodec::io::AsyncDecodeReader::new(&b"abc"[..], textcodec::UTF_8);
    /// assert_eq!(reader.get_ref().len(), 3);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, mutably. Reading from it directly makes the decoder skip those bytes.
    ///
    /// ```
    /// let mut reader = textcodec::io::AsyncDecodeReader::new(&b"abc"[..], textcodec::UTF_8);
    /// *reader.get_mut() = &b"xyz"[..];
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The inner reader, pinned.
    ///
    /// ```
    /// let mut reader = Box::pin(textcodec::io::AsyncDecodeReader::new(&b"abc"[..], textcodec::UTF_8));
    /// assert_eq!(reader.as_mut().get_pin_mut().len(), 3);
    /// ```
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut R> {
        self.project().inner
    }

    /// Returns the inner reader; bytes read from it but not yet handed out as text are lost.
    ///
    /// ```
    /// let reader = textcodec::io::AsyncDecodeReader::new(tokio::io::empty(), textcodec::UTF_8);
    /// let _empty: tokio::io::Empty = reader.into_inner();
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: AsyncRead> AsyncBufRead for AsyncDecodeReader<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.project();
        let core = this.core;
        let mut inner = this.inner;
        loop {
            if core.has_output() {
                return Poll::Ready(Ok(core.available()));
            }
            match core.step() {
                CoreStep::Continue => {}
                CoreStep::End => return Poll::Ready(Ok(&[])),
                CoreStep::Error(e) => return Poll::Ready(Err(e.into())),
                CoreStep::NeedInput => loop {
                    let mut buf = ReadBuf::new(core.input_space());
                    match inner.as_mut().poll_read(cx, &mut buf) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Ok(())) => {
                            let n = buf.filled().len();
                            core.filled(n);
                            break;
                        }
                        Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    }
                },
            }
        }
    }

    fn consume(self: Pin<&mut Self>, amount: usize) {
        self.project().core.consume(amount);
    }
}

impl<R: AsyncRead> AsyncRead for AsyncDecodeReader<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        match self.as_mut().poll_fill_buf(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
            Poll::Ready(Ok(_)) => {}
        }
        let this = self.project();
        let n = this.core.copy_len(buf.remaining());
        buf.put_slice(&this.core.available()[..n]);
        this.core.consume(n);
        Poll::Ready(Ok(()))
    }
}

impl<R> fmt::Debug for AsyncDecodeReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncDecodeReader")
            .field("encoding", &self.core.encoding().name())
            .field("buffered", &self.core.available().len())
            .finish_non_exhaustive()
    }
}

/// A waker that does nothing, for the best-effort writes of `Drop`.
struct NoopWake;

impl Wake for NoopWake {
    fn wake(self: Arc<Self>) {}
}

pin_project_lite::pin_project! {
    /// A `tokio::io::AsyncWrite` that takes UTF-8 text and writes it to an inner `AsyncWrite` in
    /// some encoding: the async twin of [`EncodeWriter`](super::EncodeWriter), with the same
    /// guarantees (split characters joined, invalid UTF-8 and fatal-mode unmappable characters
    /// as `InvalidData` errors, one buffer allocated once).
    ///
    /// `poll_shutdown` (`AsyncWriteExt::shutdown`) ends the stream (ISO-2022-JP's return to
    /// ASCII), writes everything and shuts the inner writer down; `poll_flush` writes and
    /// flushes without ending the stream.
    ///
    /// **Dropping** a writer that was not shut down ends the stream and writes what the inner
    /// writer takes at once (polled with a waker that does nothing), ignoring errors and
    /// `Pending`: bytes it does not take then are lost. Shut the writer down to be sure.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// use textcodec::io::AsyncEncodeWriter;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut writer = AsyncEncodeWriter::new(Vec::new(), textcodec::SHIFT_JIS);
    /// writer.write_all("カナ".as_bytes()).await?;
    /// writer.shutdown().await?;
    /// assert_eq!(writer.into_inner(), b"\x83\x4A\x83\x69");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub struct AsyncEncodeWriter<W: AsyncWrite> {
        // `None` only after `into_inner` took it.
        #[pin]
        inner: Option<W>,
        core: EncodeCore,
    }

    impl<W: AsyncWrite> PinnedDrop for AsyncEncodeWriter<W> {
        fn drop(this: Pin<&mut Self>) {
            let this = this.project();
            let mut inner = match this.inner.as_pin_mut() {
                Some(inner) => inner,
                None => return,
            };
            let core = this.core;
            if core.is_finished() && core.pending().is_empty() {
                return;
            }
            let waker = Waker::from(Arc::new(NoopWake));
            let mut cx = Context::from_waker(&waker);
            while !core.is_finished() {
                if core.needs_flush()
                    && !matches!(poll_write_buf(inner.as_mut(), core, &mut cx), Poll::Ready(Ok(())))
                {
                    return;
                }
                let was_empty = core.pending().is_empty();
                let _ = core.finish();
                if !core.is_finished() && was_empty {
                    return;
                }
            }
            if let Poll::Ready(Ok(())) = poll_write_buf(inner.as_mut(), core, &mut cx) {
                let _ = inner.poll_flush(&mut cx);
            }
        }
    }
}

/// Writes all of `core.pending()` to `inner`.
fn poll_write_buf<W: AsyncWrite>(
    mut inner: Pin<&mut W>,
    core: &mut EncodeCore,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    while !core.pending().is_empty() {
        match inner.as_mut().poll_write(cx, core.pending()) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(0)) => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "failed to write the encoded bytes",
                )))
            }
            Poll::Ready(Ok(n)) => core.advance(n),
            Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
        }
    }
    Poll::Ready(Ok(()))
}

impl<W: AsyncWrite> AsyncEncodeWriter<W> {
    /// Encodes to `encoding` in html mode: unmappable characters become `&#NNNN;`.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut writer = textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::ISO_8859_7);
    /// writer.write_all("Ωμέγα ☃".as_bytes()).await?;
    /// writer.shutdown().await?;
    /// assert_eq!(writer.into_inner(), b"\xD9\xEC\xDD\xE3\xE1 &#9731;");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn new(writer: W, encoding: &'static Encoding) -> Self {
        Self::with_mode(writer, encoding, EncoderErrorMode::Html)
    }

    /// Encodes to `encoding` with the given error mode.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut writer = textcodec::io::AsyncEncodeWriter::with_mode(
    ///     Vec::new(), textcodec::ISO_8859_2, textcodec::EncoderErrorMode::Fatal);
    /// let err = writer.write_all("€".as_bytes()).await.unwrap_err();
    /// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    /// # });
    /// ```
    pub fn with_mode(writer: W, encoding: &'static Encoding, mode: EncoderErrorMode) -> Self {
        Self::with_capacity(super::DEFAULT_CAPACITY, writer, encoding, mode)
    }

    /// Like [`with_mode`](AsyncEncodeWriter::with_mode), with an output buffer of about
    /// `capacity` bytes instead of 8 KiB.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut writer = textcodec::io::AsyncEncodeWriter::with_capacity(
    ///     1, Vec::new(), textcodec::UTF_8, Default::default());
    /// writer.write_all(b"x").await?;
    /// writer.shutdown().await?;
    /// assert_eq!(writer.into_inner(), b"x");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn with_capacity(
        capacity: usize,
        writer: W,
        encoding: &'static Encoding,
        mode: EncoderErrorMode,
    ) -> Self {
        AsyncEncodeWriter {
            inner: Some(writer),
            core: EncodeCore::new(encoding, mode, capacity),
        }
    }

    /// The encoding written: the output encoding of the one given.
    ///
    /// ```
    /// let writer = textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::REPLACEMENT);
    /// assert_eq!(writer.encoding(), textcodec::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.core.encoding()
    }

    /// The inner writer.
    ///
    /// ```
    /// let writer = textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::UTF_8);
    /// assert!(writer.get_ref().is_empty());
    /// ```
    pub fn get_ref(&self) -> &W {
        match &self.inner {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by into_inner"),
        }
    }

    /// The inner writer, mutably.
    ///
    /// ```
    /// let mut writer = textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::UTF_8);
    /// writer.get_mut().push(b'!');
    /// assert_eq!(writer.get_ref(), b"!");
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        match &mut self.inner {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by into_inner"),
        }
    }

    /// The inner writer, pinned.
    ///
    /// ```
    /// let mut writer = Box::pin(textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::UTF_8));
    /// assert!(writer.as_mut().get_pin_mut().is_empty());
    /// ```
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut W> {
        match self.project().inner.as_pin_mut() {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by into_inner"),
        }
    }

    /// Returns the inner writer. Call it after `shutdown`: bytes not yet written are lost, and
    /// the stream is not ended.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut writer = textcodec::io::AsyncEncodeWriter::new(Vec::new(), textcodec::ISO_2022_JP);
    /// writer.write_all("ア".as_bytes()).await?;
    /// writer.shutdown().await?;
    /// assert_eq!(writer.into_inner(), b"\x1B$B%\"\x1B(B");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn into_inner(mut self) -> W {
        match self.inner.take() {
            Some(w) => w,
            None => unreachable!("the inner writer is only taken by into_inner"),
        }
    }
}

impl<W: AsyncWrite> AsyncWrite for AsyncEncodeWriter<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        let this = self.project();
        let core = this.core;
        if core.needs_flush() {
            if let Some(inner) = this.inner.as_pin_mut() {
                match poll_write_buf(inner, core, cx) {
                    Poll::Ready(Ok(())) => {}
                    other => return other.map_ok(|()| 0),
                }
            }
        }
        Poll::Ready(core.encode(buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let core = this.core;
        let mut inner = match this.inner.as_pin_mut() {
            Some(inner) => inner,
            None => return Poll::Ready(Ok(())),
        };
        match poll_write_buf(inner.as_mut(), core, cx) {
            Poll::Ready(Ok(())) => inner.poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let core = this.core;
        let mut inner = match this.inner.as_pin_mut() {
            Some(inner) => inner,
            None => return Poll::Ready(Ok(())),
        };
        while !core.is_finished() {
            if core.needs_flush() {
                match poll_write_buf(inner.as_mut(), core, cx) {
                    Poll::Ready(Ok(())) => {}
                    other => return other,
                }
            }
            let was_empty = core.pending().is_empty();
            if let Err(e) = core.finish() {
                // The stream is ended on the next poll.
                return Poll::Ready(Err(e));
            }
            if !core.is_finished() {
                if was_empty {
                    return Poll::Ready(Err(io::Error::other("the encoder made no progress")));
                }
                match poll_write_buf(inner.as_mut(), core, cx) {
                    Poll::Ready(Ok(())) => {}
                    other => return other,
                }
            }
        }
        match poll_write_buf(inner.as_mut(), core, cx) {
            Poll::Ready(Ok(())) => inner.poll_shutdown(cx),
            other => other,
        }
    }
}

impl<W: AsyncWrite> fmt::Debug for AsyncEncodeWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncEncodeWriter")
            .field("encoding", &self.core.encoding().name())
            .field("buffered", &self.core.pending().len())
            .field("finished", &self.core.is_finished())
            .finish_non_exhaustive()
    }
}
