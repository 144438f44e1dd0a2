//! `DecodeReader::detect` and `AsyncDecodeReader::detect`: the encoding found from a BOM, a
//! declaration or the statistical guess over a bounded start of the stream, then the whole
//! stream decoded, whatever the read sizes, without reading the whole input first.

mod io_common;

use io_common::*;
use std::io::{self, BufRead, Read};
use textcodec::detect::{Confidence, Detector, Sniffed, Source};
use textcodec::io::{DecodeReader, DetectOptions, MalformedInput, DEFAULT_DETECT_LIMIT};
use textcodec::{DecoderOptions, Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1251, WINDOWS_1252};

/// Reads all of `reader`, and what it found.
fn read_all<R: Read>(mut reader: DecodeReader<R>) -> (String, Option<Sniffed>) {
    let mut text = String::new();
    reader.read_to_string(&mut text).unwrap();
    (text, reader.sniffed())
}

fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    one_shot_encode(encoding, textcodec::EncoderErrorMode::Html, text)
}

/// `text` as it comes back from windows-1251 (what it cannot encode becomes `&#NNNN;`).
fn russian(len: usize) -> String {
    let text = corpus_prefix("ru", len);
    let bytes = encode(&text, WINDOWS_1251);
    textcodec::decode(&bytes, WINDOWS_1251).0.into_owned()
}

fn sniffed(encoding: &'static Encoding, confidence: Confidence, source: Source) -> Sniffed {
    Sniffed {
        encoding,
        confidence,
        source,
    }
}

/// Inputs, each with the encoding and source the detection finds and the text it decodes to.
fn cases() -> Vec<(Vec<u8>, Sniffed, String)> {
    let ru = russian(3000);
    let ja = corpus_prefix("ja", 3000);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(ja.encode_utf16().flat_map(u16::to_le_bytes));
    let mut utf16be = vec![0xFE, 0xFF];
    utf16be.extend(ru.encode_utf16().flat_map(u16::to_be_bytes));
    let mut bom8 = b"\xEF\xBB\xBF".to_vec();
    bom8.extend_from_slice(ru.as_bytes());
    let page = format!("<!doctype html><meta charset=windows-1251><p>{ru}</p>");
    let xml = format!("<?xml version='1.0' encoding='windows-1251'?><p>{ru}</p>");
    let tentative = Confidence::Tentative;
    vec![
        (
            utf16,
            sniffed(UTF_16LE, Confidence::Certain, Source::Bom),
            ja.clone(),
        ),
        (
            utf16be,
            sniffed(UTF_16BE, Confidence::Certain, Source::Bom),
            ru.clone(),
        ),
        (
            bom8,
            sniffed(UTF_8, Confidence::Certain, Source::Bom),
            ru.clone(),
        ),
        (
            encode(&page, WINDOWS_1251),
            sniffed(WINDOWS_1251, tentative, Source::Prescan),
            page,
        ),
        (
            encode(&xml, WINDOWS_1251),
            sniffed(WINDOWS_1251, tentative, Source::XmlDeclaration),
            xml,
        ),
        (
            encode(&ru, WINDOWS_1251),
            sniffed(WINDOWS_1251, tentative, Source::Detector),
            ru.clone(),
        ),
        (
            ja.as_bytes().to_vec(),
            sniffed(UTF_8, tentative, Source::Detector),
            ja,
        ),
        (
            b"plain ASCII".to_vec(),
            sniffed(UTF_8, tentative, Source::Default),
            "plain ASCII".into(),
        ),
        (
            Vec::new(),
            sniffed(UTF_8, tentative, Source::Default),
            String::new(),
        ),
        // Two bytes: no BOM to wait for.
        (
            b"\xFF\xFE".to_vec(),
            sniffed(UTF_16LE, Confidence::Certain, Source::Bom),
            String::new(),
        ),
    ]
}

#[test]
fn finds_and_decodes_whatever_the_read_sizes() {
    for (i, (bytes, expected, text)) in cases().into_iter().enumerate() {
        for (j, chaos) in Chaos::ALL.into_iter().enumerate() {
            let reader = ChaosReader::new(bytes.clone(), chaos, (i * 10 + j) as u64);
            let (decoded, found) = read_all(DecodeReader::detect(reader));
            assert_eq!(found, Some(expected), "case {i}, {chaos:?}");
            assert!(decoded == text, "case {i}, {chaos:?}");
        }
    }
}

#[test]
fn one_byte_reads_find_the_same() {
    // A reader that returns one byte a call, through BufRead and read_str as well.
    for (bytes, expected, text) in cases() {
        let mut reader = DecodeReader::detect(ChaosReader::new(bytes, Chaos::OneByte, 1));
        let mut decoded = String::new();
        loop {
            let piece = reader.read_str().unwrap();
            if piece.is_empty() {
                break;
            }
            decoded.push_str(piece);
        }
        assert_eq!(reader.sniffed(), Some(expected));
        assert_eq!(reader.encoding(), expected.encoding);
        assert!(decoded == text);
    }
}

/// A reader that counts the bytes it hands out.
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

#[test]
fn reads_no_more_than_the_limit_before_the_first_text() {
    // An endless input: the first text comes after at most the limit's bytes.
    let mut reader = DecodeReader::detect(Counting {
        inner: io::repeat(b'a'),
        read: 0,
    });
    assert!(reader.fill_buf().unwrap().starts_with(b"aaaa"));
    assert_eq!(reader.get_ref().read, DEFAULT_DETECT_LIMIT as u64);
    assert_eq!(reader.sniffed().unwrap().source, Source::Default);

    for (limit, reads) in [(1, 1024), (5000, 5000), (1 << 20, 1 << 20)] {
        let options = DetectOptions::new().limit(limit);
        let endless = Counting {
            inner: io::repeat(b'\xe9'),
            read: 0,
        };
        let mut reader = DecodeReader::detect_with(endless, options, DecoderOptions::default());
        reader.fill_buf().unwrap();
        assert_eq!(reader.get_ref().read, reads, "limit {limit}");
        assert_eq!(reader.sniffed().unwrap().source, Source::Detector);
    }

    // A BOM is enough: 3 bytes read (1-byte reads), and one more for the first text; a
    // declaration: 1024.
    let bom = ChaosReader::new(b"\xEF\xBB\xBFabc".repeat(1000), Chaos::OneByte, 0);
    let mut reader = DecodeReader::detect(Counting {
        inner: bom,
        read: 0,
    });
    assert_eq!(reader.fill_buf().unwrap(), b"a");
    assert_eq!(reader.get_ref().read, 4);
    let mut page = b"<meta charset=koi8-r>".to_vec();
    page.resize(100_000, b'x');
    let page = ChaosReader::new(page, Chaos::OneByte, 0);
    let mut reader = DecodeReader::detect(Counting {
        inner: page,
        read: 0,
    });
    reader.fill_buf().unwrap();
    assert_eq!(reader.get_ref().read, 1024);
    assert_eq!(reader.encoding(), textcodec::KOI8_R);
}

#[test]
fn guesses_from_the_first_part_only_and_decodes_all() {
    // 100 KiB of ASCII, then Russian in windows-1251: the guess over the first 64 KiB sees
    // only ASCII (UTF-8 allowed: UTF-8), and the rest is decoded as UTF-8, with U+FFFD.
    let ru = russian(20_000);
    let mut bytes = vec![b'.'; 100 * 1024];
    bytes.extend(encode(&ru, WINDOWS_1251));
    let (text, found) = read_all(DecodeReader::detect(&bytes[..]));
    assert_eq!(
        found,
        Some(sniffed(UTF_8, Confidence::Tentative, Source::Default))
    );
    assert!(text.starts_with(&".".repeat(100 * 1024)));
    assert!(!text.contains(&ru[..ru.char_indices().nth(20).unwrap().0]));
    assert!(text.contains('\u{FFFD}'));
    // A limit that reaches the Russian finds windows-1251, and everything decodes.
    let options = DetectOptions::new().limit(200 * 1024);
    let reader = DecodeReader::detect_with(&bytes[..], options, DecoderOptions::default());
    let (text, found) = read_all(reader);
    assert_eq!(found.unwrap().encoding, WINDOWS_1251);
    assert!(text.ends_with(&ru));

    // An input far larger than the limit, its non-ASCII from the start: all of it decoded.
    let ru_large = ru.repeat(40);
    let bytes = encode(&ru_large, WINDOWS_1251);
    assert!(bytes.len() > 4 * DEFAULT_DETECT_LIMIT);
    for chaos in [Chaos::Full, Chaos::Short(7), Chaos::ShortInterrupted(5000)] {
        let reader = DecodeReader::detect(ChaosReader::new(bytes.clone(), chaos, 3));
        let (text, found) = read_all(reader);
        assert_eq!(found.unwrap().encoding, WINDOWS_1251);
        assert!(text == ru_large);
    }
}

#[test]
fn a_character_cut_by_the_limit_is_not_an_error() {
    // UTF-8 Japanese whose limit-th byte is inside a character: the guess sees a character
    // cut short by the limit, not by the end of the text, and still finds UTF-8.
    let ja = corpus_prefix("ja", 1 << 20);
    for limit in [4096, 4097, 4098, DEFAULT_DETECT_LIMIT] {
        assert!(!ja.is_char_boundary(limit) || !ja.is_char_boundary(limit + 1));
        let options = DetectOptions::new().limit(limit);
        let reader = DecodeReader::detect_with(ja.as_bytes(), options, DecoderOptions::default());
        let (text, found) = read_all(reader);
        assert_eq!(
            found,
            Some(sniffed(UTF_8, Confidence::Tentative, Source::Detector))
        );
        assert!(text == ja);
    }
}

#[test]
fn options_change_the_steps() {
    let ru = corpus_prefix("ru", 2000);
    let utf8_page = format!("<meta charset=windows-1251><p>{ru}");
    // declarations(false): the `<meta>` is ignored; the guess finds UTF-8.
    let options = DetectOptions::new().declarations(false);
    let reader =
        DecodeReader::detect_with(utf8_page.as_bytes(), options, DecoderOptions::default());
    let (text, found) = read_all(reader);
    assert_eq!(
        found,
        Some(sniffed(UTF_8, Confidence::Tentative, Source::Detector))
    );
    assert_eq!(text, utf8_page);
    // With declarations, the `<meta>` wins over the bytes.
    let (_, found) = read_all(DecodeReader::detect(utf8_page.as_bytes()));
    assert_eq!(found.unwrap().source, Source::Prescan);
    // allow_utf8(false): what the Detector says without UTF-8, with the tld.
    let options = DetectOptions::new().allow_utf8(false).tld(b"ru");
    let reader = DecodeReader::detect_with(ru.as_bytes(), options, DecoderOptions::default());
    let (_, found) = read_all(reader);
    let mut detector = Detector::new();
    detector.feed(ru.as_bytes(), true);
    assert_eq!(found.unwrap().encoding, detector.guess(Some(b"ru"), false));
    assert_ne!(found.unwrap().encoding, UTF_8);
    // ASCII without UTF-8: windows-1252.
    let options = DetectOptions::new().allow_utf8(false);
    let reader = DecodeReader::detect_with(&b"abc"[..], options, DecoderOptions::default());
    assert_eq!(read_all(reader).1.unwrap().encoding, WINDOWS_1252);
}

#[test]
fn fatal_errors_count_offsets_from_the_start() {
    // The guess is UTF-8; an invalid byte past the detected part is reported at its offset in
    // the stream, the bytes read for the guess included.
    let ru = corpus_prefix("ru", 100_000);
    let mut bytes = ru.as_bytes().to_vec();
    bytes.truncate(90_000);
    while std::str::from_utf8(&bytes).is_err() {
        bytes.pop();
    }
    let offset = bytes.len() as u64;
    bytes.extend_from_slice(b"\xFFtail");
    for chaos in [Chaos::OneByte, Chaos::Short(7), Chaos::Full] {
        let reader = ChaosReader::new(bytes.clone(), chaos, 5);
        let mut reader = DecodeReader::detect_with(reader, DetectOptions::new(), fatal());
        let mut text = String::new();
        let err = reader.read_to_string(&mut text).unwrap_err();
        let malformed = err
            .get_ref()
            .unwrap()
            .downcast_ref::<MalformedInput>()
            .unwrap();
        assert_eq!(malformed.offset(), offset + 1, "{chaos:?}");
        assert_eq!(reader.encoding(), UTF_8);
    }
}

#[cfg(feature = "tokio")]
mod async_reader {
    use super::*;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use textcodec::io::AsyncDecodeReader;
    use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};

    /// An async reader that returns one byte a poll, and `Pending` every other poll.
    struct Trickle {
        data: Vec<u8>,
        pos: usize,
        pending: bool,
    }

    impl AsyncRead for Trickle {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            self.pending = !self.pending;
            if self.pending {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            if self.pos < self.data.len() {
                let b = self.data[self.pos];
                self.pos += 1;
                buf.put_slice(&[b]);
            }
            Poll::Ready(Ok(()))
        }
    }

    #[test]
    fn finds_and_decodes_one_byte_at_a_time() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for (bytes, expected, text) in cases() {
            let trickle = Trickle {
                data: bytes,
                pos: 0,
                pending: false,
            };
            let mut reader = AsyncDecodeReader::detect(trickle);
            let mut decoded = String::new();
            runtime
                .block_on(reader.read_to_string(&mut decoded))
                .unwrap();
            assert_eq!(reader.sniffed(), Some(expected));
            assert!(decoded == text);
        }
    }

    #[test]
    fn decodes_inputs_larger_than_the_limit() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let ru = russian(20_000).repeat(10);
        let bytes = encode(&ru, WINDOWS_1251);
        assert!(bytes.len() > DEFAULT_DETECT_LIMIT);
        let mut reader = AsyncDecodeReader::detect_with(
            &bytes[..],
            DetectOptions::new().limit(4096),
            DecoderOptions::default(),
        );
        let mut decoded = String::new();
        runtime
            .block_on(reader.read_to_string(&mut decoded))
            .unwrap();
        assert_eq!(reader.encoding(), WINDOWS_1251);
        assert!(decoded == ru);
    }
}
