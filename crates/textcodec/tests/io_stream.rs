//! `DecoderStream` and `EncoderStream` against the one-shot decoder and encoder, with chunks
//! split anywhere and input streams that return `Pending`.
#![cfg(feature = "futures")]

mod io_common;

use futures_core::Stream;
use futures_util::stream::{self, StreamExt};
use io_common::*;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use textcodec::io::{DecoderStream, DecoderStreamError, EncoderStream};
use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding};

/// Passes a stream through, returning `Pending` (after waking) one poll in three.
struct Hesitant<S> {
    inner: S,
    rng: Rng,
}

impl<S: Stream + Unpin> Stream for Hesitant<S> {
    type Item = S::Item;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        if self.rng.chance(3) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

fn hesitant<T>(items: Vec<T>, seed: u64) -> Hesitant<stream::Iter<std::vec::IntoIter<T>>> {
    Hesitant {
        inner: stream::iter(items),
        rng: Rng::new(seed),
    }
}

fn text_decoder_stream_options() -> DecoderOptions {
    DecoderOptions {
        error_mode: DecoderErrorMode::Replacement,
        bom: BomHandling::Strip,
    }
}

#[test]
fn every_encoding_any_chunking() {
    futures_executor::block_on(async {
        let mut seed = 1;
        for &encoding in Encoding::all() {
            for input in decode_inputs(encoding, 500, seed) {
                let expected = one_shot_decode(encoding, text_decoder_stream_options(), &input);
                for max in [1, 3, 64, 100_000] {
                    seed += 1;
                    let mut rng = Rng::new(seed);
                    let chunks: Vec<Result<Vec<u8>, Infallible>> =
                        random_pieces(&input, &mut rng, max)
                            .into_iter()
                            .map(|c| Ok(c.to_vec()))
                            .collect();
                    let pieces: Vec<String> = DecoderStream::new(hesitant(chunks, seed), encoding)
                        .map(Result::unwrap)
                        .collect()
                        .await;
                    assert!(pieces.iter().all(|p| !p.is_empty()));
                    assert!(
                        pieces.concat() == expected,
                        "{} chunks up to {}",
                        encoding.name(),
                        max
                    );
                }
            }
        }
    });
}

#[test]
fn one_output_chunk_per_input_chunk_that_completes_text() {
    futures_executor::block_on(async {
        let chunks = vec![&b"\xE6"[..], b"\x97", b"\xA5", b"", b"ab", b"\xE6"];
        let pieces: Vec<String> =
            DecoderStream::from_chunks(stream::iter(chunks), textcodec::UTF_8)
                .map(Result::unwrap)
                .collect()
                .await;
        // The incomplete sequence at the end is flushed as U+FFFD.
        assert_eq!(pieces, ["日", "ab", "\u{FFFD}"]);
    });
}

#[test]
fn text_decoder_stream_bom_handling() {
    futures_executor::block_on(async {
        // The encoding's own BOM is removed, even split across chunks...
        let chunks = vec![&b"\xEF"[..], b"\xBB", b"\xBFx"];
        let pieces: Vec<String> =
            DecoderStream::from_chunks(stream::iter(chunks), textcodec::UTF_8)
                .map(Result::unwrap)
                .collect()
                .await;
        assert_eq!(pieces.concat(), "x");
        // ... but another encoding's BOM does not switch encodings.
        let chunks = vec![&b"\xFF\xFEx\0"[..]];
        let pieces: Vec<String> =
            DecoderStream::from_chunks(stream::iter(chunks), textcodec::UTF_8)
                .map(Result::unwrap)
                .collect()
                .await;
        assert_eq!(pieces.concat(), "\u{FFFD}\u{FFFD}x\0");
        // Sniffing, when asked for, does.
        let chunks = vec![Ok::<_, Infallible>(&b"\xFF\xFEx\0"[..])];
        let mut s =
            DecoderStream::with_options(stream::iter(chunks), textcodec::UTF_8, Default::default());
        assert_eq!(s.next().await.unwrap().unwrap(), "x");
        assert_eq!(s.encoding(), textcodec::UTF_16LE);
        assert!(s.next().await.is_none());
    });
}

#[test]
fn fatal_error_ends_the_stream_and_source_errors_pass_through() {
    futures_executor::block_on(async {
        let options = DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Strip,
        };
        let chunks = vec![
            Ok(b"good ".to_vec()),
            Err("network"),
            Ok(b"\x82".to_vec()),
            Ok(b"\xA0".to_vec()),
            Ok(b" then \xFF bad".to_vec()),
            Ok(b"never".to_vec()),
        ];
        let items: Vec<_> =
            DecoderStream::with_options(stream::iter(chunks), textcodec::SHIFT_JIS, options)
                .collect()
                .await;
        assert_eq!(items.len(), 4, "{items:?}");
        assert_eq!(items[0], Ok("good ".to_string()));
        assert_eq!(items[1], Err(DecoderStreamError::Source("network")));
        assert_eq!(items[2], Ok("あ".to_string()));
        match &items[3] {
            Err(DecoderStreamError::Malformed(m)) => {
                assert_eq!(m.offset(), 14);
                assert_eq!(m.encoding(), textcodec::SHIFT_JIS);
            }
            other => panic!("{other:?}"),
        }
        // An incomplete sequence at the end is an error in fatal mode.
        let chunks = vec![Ok::<_, Infallible>(b"ok\xE3\x81".to_vec())];
        let items: Vec<_> =
            DecoderStream::with_options(stream::iter(chunks), textcodec::UTF_8, options)
                .collect()
                .await;
        assert_eq!(items[0], Ok("ok".to_string()));
        assert!(matches!(items[1], Err(DecoderStreamError::Malformed(_))));
        assert_eq!(items.len(), 2);
    });
}

#[test]
fn encoder_stream_utf8_mirrors_text_encoder_stream() {
    futures_executor::block_on(async {
        let text = sample_text(300);
        let mut rng = Rng::new(4);
        let mut chunks = Vec::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut n = rng.range(0, 20).min(rest.len());
            while !rest.is_char_boundary(n) {
                n += 1;
            }
            chunks.push(rest[..n].to_string());
            rest = &rest[n..];
        }
        let bytes: Vec<Vec<u8>> = EncoderStream::new(hesitant(chunks, 5)).collect().await;
        assert!(bytes.iter().all(|b| !b.is_empty()));
        assert_eq!(bytes.concat(), text.as_bytes());
    });
}

#[test]
fn encoder_stream_to_every_encoding() {
    futures_executor::block_on(async {
        let text = sample_text(300);
        for &encoding in Encoding::all() {
            let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
            let chunks: Vec<&str> = text.split_inclusive(' ').collect();
            let bytes: Vec<Vec<u8>> = EncoderStream::with_encoding(hesitant(chunks, 6), encoding)
                .collect()
                .await;
            assert!(bytes.concat() == expected, "{}", encoding.name());
        }
    });
}

#[test]
fn streams_round_trip() {
    futures_executor::block_on(async {
        let text = sample_text(200);
        let chunks: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
        let encoded = EncoderStream::with_encoding(stream::iter(chunks), textcodec::GB18030);
        let decoded: Vec<String> = DecoderStream::from_chunks(encoded, textcodec::GB18030)
            .map(Result::unwrap)
            .collect()
            .await;
        let expected = one_shot_decode(
            textcodec::GB18030,
            text_decoder_stream_options(),
            &one_shot_encode(textcodec::GB18030, EncoderErrorMode::Html, &text),
        );
        assert_eq!(decoded.concat(), expected);
    });
}

#[test]
fn fatal_offsets_are_exact_whatever_the_chunking() {
    futures_executor::block_on(async {
        let options = DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Strip,
        };
        let mut seed = 77;
        for &encoding in Encoding::all() {
            for input in decode_inputs(encoding, 200, seed) {
                let (text, offsets) = one_shot_decode_with_errors(encoding, options, &input);
                for max in [1, 5, 40] {
                    seed += 1;
                    let mut rng = Rng::new(seed);
                    let chunks: Vec<Result<Vec<u8>, Infallible>> =
                        random_pieces(&input, &mut rng, max)
                            .into_iter()
                            .map(|c| Ok(c.to_vec()))
                            .collect();
                    let items: Vec<_> =
                        DecoderStream::with_options(hesitant(chunks, seed), encoding, options)
                            .collect()
                            .await;
                    let mut got = String::new();
                    let mut error = None;
                    for item in items {
                        assert!(error.is_none(), "an item after the error");
                        match item {
                            Ok(piece) => got.push_str(&piece),
                            Err(DecoderStreamError::Malformed(m)) => error = Some(m.offset()),
                            Err(DecoderStreamError::Source(never)) => match never {},
                        }
                    }
                    assert_eq!(
                        error,
                        offsets.first().copied(),
                        "{} chunks up to {}",
                        encoding.name(),
                        max
                    );
                    assert!(text.starts_with(&got), "{}", encoding.name());
                    if error.is_none() {
                        assert_eq!(got, text);
                    }
                }
            }
        }
    });
}
