//! `EncodeWriter` against the one-shot encoder, for every encoding, with writers that
//! misbehave on purpose and text split anywhere.

mod io_common;

use io_common::*;
use std::io::{self, Write};
use textcodec::io::{EncodeWriter, InvalidUtf8, UnmappableChar};
use textcodec::{EncoderErrorMode, Encoding};

#[test]
fn every_encoding_every_writer_any_split() {
    let text = sample_text(1200);
    let mut seed = 7;
    for &encoding in Encoding::all() {
        let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
        for chaos in Chaos::ALL {
            seed += 1;
            let mut rng = Rng::new(seed);
            let capacity = [1, 16, 100, 8192][seed as usize % 4];
            let max_piece = [1, 3, 50, 20_000][(seed as usize / 4) % 4];
            let mut writer = EncodeWriter::with_capacity(
                capacity,
                ChaosWriter::new(chaos, seed),
                encoding,
                EncoderErrorMode::Html,
            );
            for piece in random_pieces(text.as_bytes(), &mut rng, max_piece) {
                writer.write_all(piece).unwrap();
                if rng.chance(50) {
                    writer.flush().unwrap();
                }
            }
            let out = writer.finish().unwrap().out;
            assert!(
                out == expected,
                "{} {:?} capacity {} pieces up to {}",
                encoding.name(),
                chaos,
                capacity,
                max_piece
            );
        }
    }
}

#[test]
fn one_byte_writes_of_text() {
    let text = sample_text(300);
    for &encoding in Encoding::all() {
        let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
        let mut writer = EncodeWriter::new(ChaosWriter::new(Chaos::OneByte, 1), encoding);
        for b in text.as_bytes() {
            assert_eq!(writer.write(std::slice::from_ref(b)).unwrap(), 1);
        }
        assert_eq!(
            writer.finish().unwrap().out,
            expected,
            "{}",
            encoding.name()
        );
    }
}

/// Writes `text` in fatal mode, skipping each unmappable character reported; returns the
/// bytes and the characters.
fn write_fatal(
    encoding: &'static Encoding,
    text: &str,
    chaos: Chaos,
    seed: u64,
) -> (Vec<u8>, Vec<char>) {
    let mut writer = EncodeWriter::with_capacity(
        [1, 64, 8192][seed as usize % 3],
        ChaosWriter::new(chaos, seed),
        encoding,
        EncoderErrorMode::Fatal,
    );
    let mut errors = Vec::new();
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        match writer.write(rest) {
            Ok(n) => {
                assert!(n > 0);
                rest = &rest[n..];
            }
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                let unmappable = e
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<UnmappableChar>())
                    .unwrap_or_else(|| panic!("not an UnmappableChar: {e:?} {}", encoding.name()));
                assert_eq!(unmappable.encoding(), encoding.output_encoding());
                assert!(e.to_string().contains(encoding.output_encoding().name()));
                errors.push(unmappable.char());
                // The error is about the character at the start of what was given; it was
                // dropped. (ISO-2022-JP reports U+000E, U+000F and U+001B as U+FFFD.)
                let ch = std::str::from_utf8(rest).unwrap().chars().next().unwrap();
                rest = &rest[ch.len_utf8()..];
            }
        }
    }
    (writer.finish().unwrap().out, errors)
}

#[test]
fn fatal_mode_names_each_unmappable_character() {
    let text = sample_text(500);
    let mut seed = 0;
    for &encoding in Encoding::all() {
        let (expected, expected_errors) =
            one_shot_encode_with_errors(encoding, EncoderErrorMode::Fatal, &text);
        for chaos in [Chaos::OneByte, Chaos::ShortInterrupted(30), Chaos::Full] {
            seed += 1;
            let (out, errors) = write_fatal(encoding, &text, chaos, seed);
            assert_eq!(errors, expected_errors, "{} {:?}", encoding.name(), chaos);
            assert!(out == expected, "{} {:?}", encoding.name(), chaos);
        }
    }
}

#[test]
fn fatal_error_message_names_the_character() {
    let mut writer =
        EncodeWriter::with_mode(Vec::new(), textcodec::ISO_8859_2, EncoderErrorMode::Fatal);
    let err = writer.write_all("Zażółć 日".as_bytes()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert_eq!(
        err.to_string(),
        "U+65E5 '日' cannot be encoded in ISO-8859-2"
    );
    assert_eq!(writer.finish().unwrap(), b"Za\xBF\xF3\xB3\xE6 ");
}

#[test]
fn split_characters_are_joined() {
    let text = "é€😀";
    let bytes = text.as_bytes();
    for split in 0..=bytes.len() {
        for split2 in split..=bytes.len() {
            let mut writer = EncodeWriter::new(Vec::new(), textcodec::GB18030);
            writer.write_all(&bytes[..split]).unwrap();
            writer.write_all(&bytes[split..split2]).unwrap();
            writer.write_all(&bytes[split2..]).unwrap();
            assert_eq!(
                writer.finish().unwrap(),
                one_shot_encode(textcodec::GB18030, EncoderErrorMode::Html, text)
            );
        }
    }
}

fn invalid_offset(e: &io::Error) -> u64 {
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    e.get_ref()
        .and_then(|e| e.downcast_ref::<InvalidUtf8>())
        .expect("an InvalidUtf8")
        .offset()
}

#[test]
fn invalid_utf8_is_an_error_not_damage() {
    // Invalid in the middle of a buffer: the text before is taken, the next call fails.
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::WINDOWS_1252);
    assert_eq!(writer.write(b"ab\xFFcd").unwrap(), 2);
    let err = writer.write(b"\xFFcd").unwrap_err();
    assert_eq!(invalid_offset(&err), 2);
    // Nothing was taken: skipping the bad byte goes on.
    assert_eq!(writer.write(b"cd").unwrap(), 2);
    assert_eq!(writer.finish().unwrap(), b"abcd");

    // A sequence begun in one call and broken in the next.
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_8);
    writer.write_all("x".as_bytes()).unwrap();
    assert_eq!(writer.write(b"\xE6\x97").unwrap(), 2);
    let err = writer.write(b"y").unwrap_err();
    assert_eq!(invalid_offset(&err), 1);
    writer.write_all(b"y").unwrap();
    assert_eq!(writer.finish().unwrap(), b"xy");

    // Surrogates and overlong forms are not UTF-8.
    for bad in [
        &b"\xED\xA0\x80"[..],
        b"\xC0\x80",
        b"\xF4\x90\x80\x80",
        b"\x80",
    ] {
        let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_8);
        let err = writer.write_all(bad).unwrap_err();
        assert_eq!(invalid_offset(&err), 0, "{bad:?}");
        // Also when split byte by byte.
        let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_8);
        let mut failed = false;
        for b in bad {
            if writer.write(std::slice::from_ref(b)).is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed, "{bad:?}");
    }

    // An incomplete character at the end of the text.
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::EUC_JP);
    writer.write_all(b"ok\xE3\x81").unwrap();
    let err = writer.try_finish().unwrap_err();
    assert_eq!(invalid_offset(&err), 2);
    // The stream is ended anyway.
    writer.try_finish().unwrap();
    assert_eq!(writer.get_ref(), b"ok");
}

#[test]
fn finish_ends_iso_2022_jp_and_flush_does_not() {
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::ISO_2022_JP);
    writer.write_all("火星".as_bytes()).unwrap();
    writer.flush().unwrap();
    assert_eq!(writer.get_ref(), b"\x1B$B2P@1");
    let out = writer.finish().unwrap();
    assert_eq!(out, b"\x1B$B2P@1\x1B(B");
}

#[test]
fn drop_without_finish_writes_everything_and_ends_the_stream() {
    let mut out = Vec::new();
    {
        let mut writer = EncodeWriter::new(&mut out, textcodec::ISO_2022_JP);
        writer.write_all("火星".as_bytes()).unwrap();
    }
    assert_eq!(out, b"\x1B$B2P@1\x1B(B");

    // Through a writer that takes one byte at a time and is interrupted.
    let text = sample_text(200);
    let mut chaos = ChaosWriter::new(Chaos::ShortInterrupted(3), 5);
    {
        let mut writer = EncodeWriter::with_capacity(
            64,
            &mut chaos,
            textcodec::ISO_2022_JP,
            EncoderErrorMode::Html,
        );
        writer.write_all(text.as_bytes()).unwrap();
    }
    assert_eq!(
        chaos.out,
        one_shot_encode(textcodec::ISO_2022_JP, EncoderErrorMode::Html, &text)
    );
    assert!(chaos.flushes > 0);
}

/// A writer that accepts nothing.
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Ok(0)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that always fails.
#[derive(Debug)]
struct Broken;

impl Write for Broken {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "broken"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "broken"))
    }
}

#[test]
fn inner_writer_errors_are_reported() {
    let mut writer = EncodeWriter::with_capacity(1, Full, textcodec::UTF_8, EncoderErrorMode::Html);
    let err = writer.write_all(&[b'a'; 1000]).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::WriteZero);
    drop(writer); // must not hang or panic

    let mut writer = EncodeWriter::new(Broken, textcodec::UTF_8);
    writer.write_all(b"abc").unwrap(); // buffered
    assert_eq!(
        writer.flush().unwrap_err().kind(),
        io::ErrorKind::BrokenPipe
    );
    assert_eq!(
        writer.finish().unwrap_err().kind(),
        io::ErrorKind::BrokenPipe
    );
}

#[test]
fn write_after_finish_is_an_error() {
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_8);
    writer.try_finish().unwrap();
    assert_eq!(
        writer.write(b"x").unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    assert_eq!(writer.write(b"").unwrap(), 0);
    writer.try_finish().unwrap();
}

#[test]
fn output_encoding_and_debug() {
    for &encoding in Encoding::all() {
        let writer = EncodeWriter::new(Vec::new(), encoding);
        assert_eq!(writer.encoding(), encoding.output_encoding());
        assert!(format!("{writer:?}").contains(encoding.output_encoding().name()));
    }
    // UTF-16 and replacement write UTF-8.
    let mut writer = EncodeWriter::new(Vec::new(), textcodec::UTF_16BE);
    writer.write_all("ü".as_bytes()).unwrap();
    assert_eq!(writer.finish().unwrap(), "ü".as_bytes());
}

#[test]
fn html_mode_writes_references() {
    let mut writer = EncodeWriter::with_capacity(
        1,
        Vec::new(),
        textcodec::ISO_2022_JP,
        EncoderErrorMode::Html,
    );
    writer.write_all("日😀\u{1B}".as_bytes()).unwrap();
    assert_eq!(writer.finish().unwrap(), b"\x1B$BF|\x1B(B&#128512;&#65533;");
}

/// A writer that returns `WouldBlock` every other call, as a non-blocking socket may.
struct WouldBlock {
    out: Vec<u8>,
    block: bool,
}

impl Write for WouldBlock {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.block = !self.block;
        if self.block {
            return Err(io::Error::new(io::ErrorKind::WouldBlock, "not yet"));
        }
        let n = buf.len().min(7);
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn would_block_is_returned_and_writing_resumes() {
    let text = sample_text(400);
    for &encoding in Encoding::all() {
        let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
        let inner = WouldBlock {
            out: Vec::new(),
            block: false,
        };
        let mut writer = EncodeWriter::with_capacity(100, inner, encoding, EncoderErrorMode::Html);
        let mut rest = text.as_bytes();
        let mut blocked = 0;
        while !rest.is_empty() {
            match writer.write(&rest[..rest.len().min(13)]) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => blocked += 1,
                Err(e) => panic!("{e}"),
            }
        }
        loop {
            match writer.try_finish() {
                Ok(()) => break,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => blocked += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert!(blocked > 0);
        assert!(writer.get_ref().out == expected, "{}", encoding.name());
    }
}
