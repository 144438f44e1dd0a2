//! `AsyncDecodeReader` and `AsyncEncodeWriter` against the one-shot decoder and encoder, for
//! every encoding, with async readers and writers that return `Pending`, short reads and
//! writes, and `Interrupted`.
#![cfg(feature = "tokio")]

mod io_common;

use io_common::*;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use textcodec::io::{AsyncDecodeReader, AsyncEncodeWriter, MalformedInput, UnmappableChar};
use textcodec::{EncoderErrorMode, Encoding};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// An async reader over a `ChaosReader` that also returns `Pending` (waking itself) one poll
/// in three.
struct PendingReader {
    inner: ChaosReader,
    rng: Rng,
}

impl AsyncRead for PendingReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.rng.chance(3) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        match self.inner.next_chunk(buf.remaining()) {
            None => Poll::Ready(Err(io::Error::new(io::ErrorKind::Interrupted, "chaos"))),
            Some(chunk) => {
                buf.put_slice(chunk);
                Poll::Ready(Ok(()))
            }
        }
    }
}

/// An async writer into a shared vector that returns `Pending` one poll in three, and short
/// writes.
struct PendingWriter {
    out: Arc<Mutex<Vec<u8>>>,
    chaos: Chaos,
    rng: Rng,
    shut_down: bool,
}

impl PendingWriter {
    fn new(chaos: Chaos, seed: u64) -> (PendingWriter, Arc<Mutex<Vec<u8>>>) {
        let out = Arc::new(Mutex::new(Vec::new()));
        let writer = PendingWriter {
            out: out.clone(),
            chaos,
            rng: Rng::new(seed),
            shut_down: false,
        };
        (writer, out)
    }

    fn pending(&mut self, cx: &mut Context<'_>) -> bool {
        if matches!(self.chaos, Chaos::Full) || !self.rng.chance(3) {
            return false;
        }
        cx.waker().wake_by_ref();
        true
    }
}

impl AsyncWrite for PendingWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        assert!(!self.shut_down, "write after shutdown");
        if self.pending(cx) {
            return Poll::Pending;
        }
        let chaos = self.chaos;
        match chaos.next_len(&mut self.rng, buf.len()) {
            None => Poll::Ready(Err(io::Error::new(io::ErrorKind::Interrupted, "chaos"))),
            Some(n) => {
                self.out.lock().unwrap().extend_from_slice(&buf[..n]);
                Poll::Ready(Ok(n))
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.pending(cx) {
            return Poll::Pending;
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.pending(cx) {
            return Poll::Pending;
        }
        self.shut_down = true;
        Poll::Ready(Ok(()))
    }
}

#[derive(Clone, Copy, Debug)]
enum Consumer {
    ReadToString,
    ReadStr,
    ReadRandom,
    FillBufConsume,
}

async fn drain(
    reader: &mut AsyncDecodeReader<PendingReader>,
    consumer: Consumer,
    seed: u64,
) -> io::Result<String> {
    let mut rng = Rng::new(seed);
    let mut bytes = Vec::new();
    match consumer {
        Consumer::ReadToString => {
            let mut text = String::new();
            reader.read_to_string(&mut text).await?;
            return Ok(text);
        }
        Consumer::ReadStr => {
            let mut text = String::new();
            loop {
                let piece = reader.read_str().await?;
                if piece.is_empty() {
                    return Ok(text);
                }
                text.push_str(piece);
            }
        }
        Consumer::ReadRandom => loop {
            let mut buf = [0u8; 100];
            let len = rng.range(1, buf.len());
            let n = reader.read(&mut buf[..len]).await?;
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
        },
        Consumer::FillBufConsume => loop {
            let buf = reader.fill_buf().await?;
            if buf.is_empty() {
                break;
            }
            let n = rng.range(1, buf.len());
            bytes.extend_from_slice(&buf[..n]);
            reader.consume(n);
        },
    }
    Ok(String::from_utf8(bytes).unwrap())
}

#[test]
fn every_encoding_pending_reader() {
    block_on(async {
        let mut seed = 1;
        for &encoding in Encoding::all() {
            for input in decode_inputs(encoding, 600, seed) {
                let expected = one_shot_decode(encoding, replacement(), &input);
                for chaos in Chaos::ALL {
                    seed += 1;
                    let consumer = [
                        Consumer::ReadToString,
                        Consumer::ReadStr,
                        Consumer::ReadRandom,
                        Consumer::FillBufConsume,
                    ][seed as usize % 4];
                    let capacity = [1, 3, 100, 8192][(seed as usize / 4) % 4];
                    let inner = PendingReader {
                        inner: ChaosReader::new(input.clone(), chaos, seed),
                        rng: Rng::new(seed ^ 77),
                    };
                    let mut reader =
                        AsyncDecodeReader::with_capacity(capacity, inner, encoding, replacement());
                    let got = drain(&mut reader, consumer, seed).await.unwrap();
                    assert!(
                        got == expected,
                        "{} {:?} {:?} capacity {}",
                        encoding.name(),
                        chaos,
                        consumer,
                        capacity
                    );
                }
            }
        }
    });
}

#[test]
fn fatal_errors_async() {
    block_on(async {
        let mut seed = 500;
        for &encoding in Encoding::all() {
            for input in decode_inputs(encoding, 200, seed) {
                seed += 1;
                let (expected, expected_offsets) =
                    one_shot_decode_with_errors(encoding, fatal(), &input);
                let inner = PendingReader {
                    inner: ChaosReader::new(input.clone(), Chaos::ShortInterrupted(20), seed),
                    rng: Rng::new(seed),
                };
                let mut reader = AsyncDecodeReader::with_capacity(7, inner, encoding, fatal());
                let mut text = String::new();
                let mut offsets = Vec::new();
                loop {
                    match reader.read_str().await {
                        Ok("") => break,
                        Ok(piece) => text.push_str(piece),
                        Err(e) => {
                            assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                            let m = e
                                .get_ref()
                                .unwrap()
                                .downcast_ref::<MalformedInput>()
                                .unwrap();
                            offsets.push(m.offset());
                        }
                    }
                }
                assert_eq!(text, expected, "{}", encoding.name());
                assert_eq!(offsets, expected_offsets, "{}", encoding.name());
            }
        }
    });
}

#[test]
fn async_bom_sniffing_and_lines() {
    block_on(async {
        let mut bytes = b"\xFE\xFF".to_vec();
        bytes.extend("один\nдва\n".encode_utf16().flat_map(u16::to_be_bytes));
        let inner = PendingReader {
            inner: ChaosReader::new(bytes, Chaos::OneByte, 1),
            rng: Rng::new(1),
        };
        let mut reader = AsyncDecodeReader::new(inner, textcodec::KOI8_R);
        reader.fill_buf().await.unwrap();
        assert_eq!(reader.encoding(), textcodec::UTF_16BE);
        let mut lines = reader.lines();
        assert_eq!(lines.next_line().await.unwrap().unwrap(), "один");
        assert_eq!(lines.next_line().await.unwrap().unwrap(), "два");
        assert_eq!(lines.next_line().await.unwrap(), None);
    });
}

#[test]
fn every_encoding_pending_writer() {
    let text = sample_text(600);
    block_on(async {
        let mut seed = 3;
        for &encoding in Encoding::all() {
            let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
            for chaos in Chaos::ALL {
                seed += 1;
                let mut rng = Rng::new(seed);
                let (inner, out) = PendingWriter::new(chaos, seed);
                let capacity = [1, 50, 8192][seed as usize % 3];
                let mut writer = AsyncEncodeWriter::with_capacity(
                    capacity,
                    inner,
                    encoding,
                    EncoderErrorMode::Html,
                );
                for piece in
                    random_pieces(text.as_bytes(), &mut rng, [1, 5, 300][seed as usize % 3])
                {
                    writer.write_all(piece).await.unwrap();
                    if rng.chance(40) {
                        writer.flush().await.unwrap();
                    }
                }
                writer.shutdown().await.unwrap();
                assert!(writer.get_ref().shut_down);
                let got = out.lock().unwrap().clone();
                assert!(got == expected, "{} {:?}", encoding.name(), chaos);
            }
        }
    });
}

#[test]
fn async_fatal_writer_names_the_character() {
    block_on(async {
        let (inner, out) = PendingWriter::new(Chaos::Short(3), 9);
        let mut writer =
            AsyncEncodeWriter::with_mode(inner, textcodec::EUC_KR, EncoderErrorMode::Fatal);
        let err = writer.write_all("한글 ☃".as_bytes()).await.unwrap_err();
        let u = err
            .get_ref()
            .unwrap()
            .downcast_ref::<UnmappableChar>()
            .unwrap();
        assert_eq!(u.char(), '☃');
        writer.write_all(b"!").await.unwrap();
        writer.shutdown().await.unwrap();
        assert_eq!(*out.lock().unwrap(), b"\xC7\xD1\xB1\xDB !");
    });
}

#[test]
fn async_invalid_utf8_is_an_error() {
    block_on(async {
        let mut writer = AsyncEncodeWriter::new(Vec::new(), textcodec::UTF_8);
        let err = writer.write_all(b"ok\xC3\x28").await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        // An incomplete character at the end: shutdown reports it, then ends the stream.
        let mut writer = AsyncEncodeWriter::new(Vec::new(), textcodec::UTF_8);
        writer.write_all(b"ok\xC3").await.unwrap();
        assert_eq!(
            writer.shutdown().await.unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        writer.shutdown().await.unwrap();
        assert_eq!(writer.into_inner(), b"ok");
    });
}

#[test]
fn async_drop_without_shutdown_writes_what_it_can() {
    let (inner, out) = PendingWriter::new(Chaos::Full, 1);
    block_on(async {
        let mut writer = AsyncEncodeWriter::new(inner, textcodec::ISO_2022_JP);
        writer.write_all("火星".as_bytes()).await.unwrap();
    });
    assert_eq!(*out.lock().unwrap(), b"\x1B$B2P@1\x1B(B");
}

#[test]
fn shutdown_ends_iso_2022_jp() {
    block_on(async {
        let mut writer = AsyncEncodeWriter::new(Vec::new(), textcodec::ISO_2022_JP);
        writer.write_all("火星".as_bytes()).await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(writer.get_ref(), b"\x1B$B2P@1");
        writer.shutdown().await.unwrap();
        assert_eq!(writer.get_ref(), b"\x1B$B2P@1\x1B(B");
        assert_eq!(
            writer.write(b"x").await.unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    });
}
