//! `DecodeReader` against the one-shot decoder, for every encoding, with readers that
//! misbehave on purpose and every way of reading.

mod io_common;

use io_common::*;
use std::io::{self, BufRead, Read};
use textcodec::io::{DecodeReader, MalformedInput};
use textcodec::{BomHandling, DecoderOptions, Encoding};

/// The ways of taking text out of a reader.
#[derive(Clone, Copy, Debug)]
enum Consumer {
    ReadToString,
    ReadOneByte,
    ReadRandom,
    ReadStr,
    FillBufConsumeRandom,
    ReadLine,
}

const CONSUMERS: [Consumer; 6] = [
    Consumer::ReadToString,
    Consumer::ReadOneByte,
    Consumer::ReadRandom,
    Consumer::ReadStr,
    Consumer::FillBufConsumeRandom,
    Consumer::ReadLine,
];

/// Reads all text out of `reader` the way `consumer` says.
fn drain<R: Read>(
    reader: &mut DecodeReader<R>,
    consumer: Consumer,
    seed: u64,
) -> io::Result<String> {
    let mut rng = Rng::new(seed);
    let mut bytes = Vec::new();
    match consumer {
        Consumer::ReadToString => {
            let mut text = String::new();
            reader.read_to_string(&mut text)?;
            return Ok(text);
        }
        Consumer::ReadOneByte => loop {
            let mut b = [0u8; 1];
            if reader.read(&mut b)? == 0 {
                break;
            }
            bytes.push(b[0]);
        },
        Consumer::ReadRandom => loop {
            // At least 4 bytes: whole characters every time (ReadOneByte covers smaller).
            let mut buf = [0u8; 300];
            let len = rng.range(4, buf.len());
            let n = reader.read(&mut buf[..len])?;
            if n == 0 {
                break;
            }
            assert!(
                std::str::from_utf8(&buf[..n]).is_ok(),
                "read split a character"
            );
            bytes.extend_from_slice(&buf[..n]);
        },
        Consumer::ReadStr => {
            let mut text = String::new();
            loop {
                let piece = reader.read_str()?;
                if piece.is_empty() {
                    return Ok(text);
                }
                text.push_str(piece);
            }
        }
        Consumer::FillBufConsumeRandom => loop {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = rng.range(1, buf.len());
            bytes.extend_from_slice(&buf[..n]);
            reader.consume(n);
        },
        Consumer::ReadLine => {
            let mut text = String::new();
            while reader.read_line(&mut text)? != 0 {}
            return Ok(text);
        }
    }
    Ok(String::from_utf8(bytes).expect("the reader gave UTF-8"))
}

#[test]
fn every_encoding_every_reader_every_consumer() {
    let mut seed = 1;
    for &encoding in Encoding::all() {
        for input in decode_inputs(encoding, 1500, seed) {
            for options in [
                replacement(),
                DecoderOptions {
                    bom: BomHandling::Strip,
                    ..Default::default()
                },
                DecoderOptions {
                    bom: BomHandling::Keep,
                    ..Default::default()
                },
            ] {
                let expected = one_shot_decode(encoding, options, &input);
                for (i, chaos) in Chaos::ALL.iter().enumerate() {
                    seed += 1;
                    let consumer = CONSUMERS[(seed as usize) % CONSUMERS.len()];
                    let capacity = [1, 2, 3, 7, 64, 8192][(seed as usize / 7) % 6];
                    let inner = ChaosReader::new(input.clone(), *chaos, seed);
                    let mut reader =
                        DecodeReader::with_capacity(capacity, inner, encoding, options);
                    let got = drain(&mut reader, consumer, seed).unwrap();
                    assert!(
                        got == expected,
                        "{} {:?} {:?} {:?} capacity {} input {} bytes (case {})",
                        encoding.name(),
                        options,
                        chaos,
                        consumer,
                        capacity,
                        input.len(),
                        i
                    );
                }
            }
        }
    }
}

#[test]
fn every_consumer_on_one_input() {
    let encoding = textcodec::SHIFT_JIS;
    let input = one_shot_encode(encoding, Default::default(), &sample_text(3000));
    let expected = one_shot_decode(encoding, replacement(), &input);
    for consumer in CONSUMERS {
        for chaos in Chaos::ALL {
            let inner = ChaosReader::new(input.clone(), chaos, 99);
            let mut reader = DecodeReader::new(inner, encoding);
            assert_eq!(
                drain(&mut reader, consumer, 5).unwrap(),
                expected,
                "{consumer:?} {chaos:?}"
            );
        }
    }
}

/// Reads in fatal mode to the end, resuming after each error; returns the text and offsets.
fn drain_fatal<R: Read>(reader: &mut DecodeReader<R>) -> (String, Vec<u64>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    loop {
        match reader.read_str() {
            Ok("") => return (text, offsets),
            Ok(piece) => text.push_str(piece),
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                let malformed = e
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<MalformedInput>())
                    .expect("a MalformedInput");
                assert_eq!(malformed.encoding(), reader.encoding());
                offsets.push(malformed.offset());
                assert!(offsets.len() < 100_000, "no progress after errors");
            }
        }
    }
}

#[test]
fn fatal_errors_with_offsets_for_every_encoding() {
    let mut seed = 1000;
    for &encoding in Encoding::all() {
        for input in decode_inputs(encoding, 400, seed) {
            let (expected, expected_offsets) =
                one_shot_decode_with_errors(encoding, fatal(), &input);
            // Fatal output resumed after each error is replacement output without the error
            // U+FFFDs.
            let replaced = one_shot_decode(encoding, replacement(), &input);
            let fffd = |s: &str| s.matches('\u{FFFD}').count();
            assert_eq!(
                fffd(&replaced) - fffd(&expected),
                expected_offsets.len(),
                "{}",
                encoding.name()
            );
            for chaos in [Chaos::OneByte, Chaos::ShortInterrupted(50), Chaos::Full] {
                seed += 1;
                let capacity = [1, 5, 8192][seed as usize % 3];
                let inner = ChaosReader::new(input.clone(), chaos, seed);
                let mut reader = DecodeReader::with_capacity(capacity, inner, encoding, fatal());
                let (text, offsets) = drain_fatal(&mut reader);
                assert_eq!(text, expected, "{} {:?}", encoding.name(), chaos);
                assert_eq!(offsets, expected_offsets, "{} {:?}", encoding.name(), chaos);
            }
        }
    }
}

#[test]
fn fatal_error_comes_after_the_good_text() {
    let mut reader =
        DecodeReader::with_options(&b"abc\x81\x20def"[..], textcodec::SHIFT_JIS, fatal());
    assert_eq!(reader.read_str().unwrap(), "abc");
    let err = reader.read_str().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    // 0x81 0x20: the 0x20 is not part of the error; the malformed sequence is byte 3.
    let malformed = err
        .get_ref()
        .unwrap()
        .downcast_ref::<MalformedInput>()
        .unwrap();
    assert_eq!(malformed.offset(), 4);
    assert!(err.to_string().contains("Shift_JIS"), "{err}");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, " def");
}

#[test]
fn bom_sniffing_by_default() {
    let text = "Mars — 火星\n";
    let mut utf16le = b"\xFF\xFE".to_vec();
    utf16le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let mut utf16be = b"\xFE\xFF".to_vec();
    utf16be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    let mut utf8 = b"\xEF\xBB\xBF".to_vec();
    utf8.extend_from_slice(text.as_bytes());
    for (bytes, encoding) in [
        (utf16le, textcodec::UTF_16LE),
        (utf16be, textcodec::UTF_16BE),
        (utf8, textcodec::UTF_8),
    ] {
        for chaos in [Chaos::OneByte, Chaos::Full] {
            let mut reader = DecodeReader::new(
                ChaosReader::new(bytes.clone(), chaos, 3),
                textcodec::WINDOWS_1252,
            );
            assert_eq!(reader.encoding(), textcodec::WINDOWS_1252);
            reader.fill_buf().unwrap();
            assert_eq!(reader.encoding(), encoding);
            let mut got = String::new();
            reader.read_to_string(&mut got).unwrap();
            assert_eq!(got, text);
        }
    }
    // Without a BOM, the given encoding.
    let mut reader = DecodeReader::new(&b"\xFF\xFF"[..], textcodec::WINDOWS_1252);
    let mut got = String::new();
    reader.read_to_string(&mut got).unwrap();
    assert_eq!(got, "ÿÿ");
    assert_eq!(reader.encoding(), textcodec::WINDOWS_1252);
}

/// A reader that fails once with a real error, then works.
struct FailOnce {
    data: &'static [u8],
    failed: bool,
}

impl Read for FailOnce {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.failed && !self.data.is_empty() && self.data.len().is_multiple_of(2) {
            self.failed = true;
            return Err(io::Error::new(io::ErrorKind::ConnectionReset, "reset"));
        }
        let n = buf.len().min(self.data.len()).min(1);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn inner_errors_pass_through_and_reading_resumes() {
    let inner = FailOnce {
        data: b"\xC4\xE3\xBA\xC3!",
        failed: false,
    };
    let mut reader = DecodeReader::new(inner, textcodec::GBK);
    let mut text = String::new();
    let err = loop {
        match reader.read_str() {
            Ok("") => panic!("no error"),
            Ok(s) => text.push_str(s),
            Err(e) => break e,
        }
    };
    assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);
    reader.read_to_string(&mut text).unwrap();
    assert_eq!(text, "你好!");
}

#[test]
fn read_str_after_a_partial_character_is_an_error() {
    let mut reader = DecodeReader::new("é".as_bytes(), textcodec::UTF_8);
    let mut one = [0u8; 1];
    assert_eq!(reader.read(&mut one).unwrap(), 1);
    assert_eq!(one[0], 0xC3);
    assert_eq!(
        reader.read_str().unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    assert_eq!(
        reader.fill_str().unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    // Bytes still come out right.
    assert_eq!(reader.read(&mut one).unwrap(), 1);
    assert_eq!(one[0], 0xA9);
    assert_eq!(reader.read_str().unwrap(), "");
}

#[test]
fn small_read_buffers_get_whole_characters_when_one_fits() {
    let mut reader = DecodeReader::new("a😀b".as_bytes(), textcodec::UTF_8);
    let mut buf = [0u8; 4];
    assert_eq!(reader.read(&mut buf[..3]).unwrap(), 1); // "a": the emoji does not fit
    assert_eq!(reader.read(&mut buf[..3]).unwrap(), 3); // not even one fits: a part
    assert_eq!(reader.read(&mut buf[..3]).unwrap(), 2); // the rest of it, and "b"
    assert_eq!(&buf[..2], b"\x80b");
    assert_eq!(reader.read(&mut buf).unwrap(), 0);
}

#[test]
fn into_inner_get_ref_and_debug() {
    let mut reader = DecodeReader::new(&b"abc"[..], textcodec::KOI8_U);
    assert_eq!(reader.get_ref().len(), 3);
    assert!(format!("{reader:?}").contains("KOI8-U"));
    let _ = reader.get_mut();
    assert_eq!(reader.into_inner(), b"abc");
}

#[test]
fn empty_input_and_empty_reads() {
    for &encoding in Encoding::all() {
        let mut reader = DecodeReader::new(&b""[..], encoding);
        assert_eq!(reader.read(&mut []).unwrap(), 0);
        assert_eq!(reader.read_str().unwrap(), "");
        assert_eq!(reader.read_str().unwrap(), "");
        assert_eq!(reader.fill_buf().unwrap(), b"");
    }
}

#[test]
fn replacement_encoding_gives_one_fffd() {
    let mut text = String::new();
    DecodeReader::new(
        ChaosReader::new(b"anything".to_vec(), Chaos::OneByte, 1),
        textcodec::REPLACEMENT,
    )
    .read_to_string(&mut text)
    .unwrap();
    assert_eq!(text, "\u{FFFD}");
}

/// A reader that returns `WouldBlock` every other call, as a non-blocking socket may.
struct WouldBlock {
    inner: ChaosReader,
    block: bool,
}

impl Read for WouldBlock {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.block = !self.block;
        if self.block {
            return Err(io::Error::new(io::ErrorKind::WouldBlock, "not yet"));
        }
        self.inner.read(buf)
    }
}

#[test]
fn would_block_is_returned_and_reading_resumes() {
    for &encoding in Encoding::all() {
        let input = decode_inputs(encoding, 300, 5).swap_remove(1);
        let expected = one_shot_decode_with_errors(encoding, fatal(), &input);
        let inner = WouldBlock {
            inner: ChaosReader::new(input, Chaos::Short(9), 5),
            block: false,
        };
        let mut reader = DecodeReader::with_options(inner, encoding, fatal());
        let mut text = String::new();
        let mut offsets = Vec::new();
        let mut blocked = 0;
        loop {
            match reader.read_str() {
                Ok("") => break,
                Ok(piece) => text.push_str(piece),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => blocked += 1,
                Err(e) => offsets.push(
                    e.get_ref()
                        .unwrap()
                        .downcast_ref::<MalformedInput>()
                        .unwrap()
                        .offset(),
                ),
            }
        }
        assert!(blocked > 0);
        assert_eq!((text, offsets), expected, "{}", encoding.name());
    }
}
