//! Tens of megabytes streamed through `DecodeReader` and `EncodeWriter` in bounded memory:
//! the input is generated on the fly, the output only hashed, and the result compared with
//! the hash of what one-shot decoding of one period of the input predicts.

mod io_common;

use io_common::*;
use std::io::{self, BufRead, Read, Write};
use textcodec::io::{DecodeReader, EncodeWriter};
use textcodec::{EncoderErrorMode, Encoding};

/// A reader of `prefix` then `period` repeated until `total` bytes, in reads of odd sizes.
struct Generated {
    prefix: Vec<u8>,
    period: Vec<u8>,
    pos: u64,
    total: u64,
    rng: Rng,
    hash: Fnv,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.total || buf.is_empty() {
            return Ok(0);
        }
        let n = buf.len().min(self.rng.range(1, 20_000));
        let mut written = 0;
        while written < n && self.pos < self.total {
            let (source, at) = if self.pos < self.prefix.len() as u64 {
                (&self.prefix, self.pos as usize)
            } else {
                let p = self.pos - self.prefix.len() as u64;
                (&self.period, (p % self.period.len() as u64) as usize)
            };
            let k = (source.len() - at)
                .min(n - written)
                .min((self.total - self.pos) as usize);
            buf[written..written + k].copy_from_slice(&source[at..at + k]);
            written += k;
            self.pos += k as u64;
        }
        self.hash.update(&buf[..written]);
        Ok(written)
    }
}

/// Streams `total` bytes (`prefix`, then whole periods) through a decoder and back through an
/// encoder; checks the text against one-shot decoding of one period, and that re-encoding
/// gives back the input.
fn round_trip(encoding: &'static Encoding, prefix: &[u8], period: &[u8], periods: u64) {
    let expected_period_text = one_shot_decode(encoding, replacement(), period);
    let mut expected_text = Fnv::default();
    for _ in 0..periods {
        expected_text.update(expected_period_text.as_bytes());
    }
    let total = prefix.len() as u64 + period.len() as u64 * periods;

    let generated = Generated {
        prefix: prefix.to_vec(),
        period: period.to_vec(),
        pos: 0,
        total,
        rng: Rng::new(total),
        hash: Fnv::default(),
    };
    let mut reader = DecodeReader::new(generated, textcodec::WINDOWS_1252);
    let mut writer = EncodeWriter::new(HashWriter::default(), encoding);
    let mut text_hash = Fnv::default();
    let mut text_len = 0u64;
    let mut rng = Rng::new(3);
    loop {
        // Alternate the two ways of reading text.
        let n = if rng.chance(2) {
            let piece = reader.read_str().unwrap();
            text_hash.update(piece.as_bytes());
            writer.write_all(piece.as_bytes()).unwrap();
            piece.len()
        } else {
            let buf = reader.fill_buf().unwrap();
            // Consume whole characters, so that read_str may follow.
            let mut n = buf.len().min(rng.range(1, 5000));
            while n < buf.len() && buf[n] & 0xC0 == 0x80 {
                n += 1;
            }
            text_hash.update(&buf[..n]);
            writer.write_all(&buf[..n]).unwrap();
            reader.consume(n);
            n
        };
        if n == 0 {
            break;
        }
        text_len += n as u64;
    }
    assert_eq!(reader.encoding(), encoding);
    assert_eq!(text_hash, expected_text, "{}", encoding.name());
    assert_eq!(text_len, expected_period_text.len() as u64 * periods);
    let input_hash = reader.get_ref().hash;
    assert_eq!(reader.get_ref().pos, total);
    let sink = writer.finish().unwrap();
    let mut expected_output = Fnv::default();
    for _ in 0..periods {
        expected_output.update(period);
    }
    // The BOM is not written back.
    assert_eq!(sink.len, total - prefix.len() as u64, "{}", encoding.name());
    assert_eq!(sink.hash, expected_output, "{}", encoding.name());
    if prefix.is_empty() {
        assert_eq!(sink.hash, input_hash);
    }
}

/// Text made only of characters `encoding` can encode, encoded, ending in ASCII.
fn period_for(encoding: &'static Encoding, langs: &[&str]) -> Vec<u8> {
    let mut text = String::new();
    for lang in langs {
        text.push_str(&corpus_prefix(lang, 40_000));
        text.push('\n');
    }
    // Html mode turns the unmappable characters into ASCII references, which decode and
    // encode back to themselves.
    one_shot_encode(encoding, EncoderErrorMode::Html, &text)
}

#[test]
fn shift_jis_24_mb() {
    let period = period_for(textcodec::SHIFT_JIS, &["ja", "en"]);
    let periods = (24 << 20) / period.len() as u64;
    round_trip_with_fallback(textcodec::SHIFT_JIS, &period, periods);
}

/// Like `round_trip`, with the encoding given as the reader's encoding (no BOM).
fn round_trip_with_fallback(encoding: &'static Encoding, period: &[u8], periods: u64) {
    let expected_period_text = one_shot_decode(encoding, replacement(), period);
    let total = period.len() as u64 * periods;
    let generated = Generated {
        prefix: Vec::new(),
        period: period.to_vec(),
        pos: 0,
        total,
        rng: Rng::new(total),
        hash: Fnv::default(),
    };
    let mut reader = DecodeReader::new(generated, encoding);
    let mut writer = EncodeWriter::new(HashWriter::default(), encoding);
    let mut text_hash = Fnv::default();
    loop {
        let piece = reader.read_str().unwrap();
        if piece.is_empty() {
            break;
        }
        text_hash.update(piece.as_bytes());
        writer.write_all(piece.as_bytes()).unwrap();
    }
    let mut expected_text = Fnv::default();
    for _ in 0..periods {
        expected_text.update(expected_period_text.as_bytes());
    }
    assert_eq!(text_hash, expected_text, "{}", encoding.name());
    let input_hash = reader.get_ref().hash;
    let sink = writer.finish().unwrap();
    assert_eq!(sink.len, total);
    assert_eq!(sink.hash, input_hash, "{}", encoding.name());
}

#[test]
fn utf16le_with_bom_12_mb() {
    let text = format!(
        "{}\n{}\n",
        corpus_prefix("zh_cn", 30_000),
        corpus_prefix("ru", 30_000)
    );
    let period: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let periods = (12 << 20) / period.len() as u64;
    // UTF-16 is written back as UTF-8; compare the text, then the UTF-8 output with the text.
    let generated = Generated {
        prefix: b"\xFF\xFE".to_vec(),
        period: period.clone(),
        pos: 0,
        total: 2 + period.len() as u64 * periods,
        rng: Rng::new(1),
        hash: Fnv::default(),
    };
    let mut reader = DecodeReader::new(generated, textcodec::WINDOWS_1252);
    let mut writer = EncodeWriter::new(HashWriter::default(), textcodec::UTF_16LE);
    let mut hash = Fnv::default();
    loop {
        let piece = reader.read_str().unwrap();
        if piece.is_empty() {
            break;
        }
        hash.update(piece.as_bytes());
        writer.write_all(piece.as_bytes()).unwrap();
    }
    assert_eq!(reader.encoding(), textcodec::UTF_16LE);
    let mut expected = Fnv::default();
    for _ in 0..periods {
        expected.update(text.as_bytes());
    }
    assert_eq!(hash, expected);
    let sink = writer.finish().unwrap();
    assert_eq!(sink.hash, expected);
    assert_eq!(sink.len, text.len() as u64 * periods);
}

#[test]
fn gb18030_with_utf8_bom_8_mb() {
    // A UTF-8 BOM overrides the given gb18030; the text is written back as gb18030.
    let text = format!(
        "{}\n{}\n",
        corpus_prefix("zh_cn", 30_000),
        corpus_prefix("zh_tw", 30_000)
    );
    let period = text.as_bytes().to_vec();
    let periods = (8 << 20) / period.len() as u64;
    let gb = one_shot_encode(textcodec::GB18030, EncoderErrorMode::Html, &text);
    let generated = Generated {
        prefix: b"\xEF\xBB\xBF".to_vec(),
        period,
        pos: 0,
        total: 3 + text.len() as u64 * periods,
        rng: Rng::new(2),
        hash: Fnv::default(),
    };
    let mut reader = DecodeReader::new(generated, textcodec::GB18030);
    let mut writer = EncodeWriter::new(HashWriter::default(), textcodec::GB18030);
    io::copy(&mut reader, &mut writer).unwrap();
    assert_eq!(reader.encoding(), textcodec::UTF_8);
    let sink = writer.finish().unwrap();
    let mut expected = Fnv::default();
    for _ in 0..periods {
        expected.update(&gb);
    }
    assert_eq!(sink.hash, expected);
}

#[test]
fn utf8_with_bom_through_round_trip() {
    let period = format!("{}\n", corpus_prefix("th", 50_000)).into_bytes();
    let periods = (4 << 20) / period.len() as u64;
    round_trip(textcodec::UTF_8, b"\xEF\xBB\xBF", &period, periods);
}

#[test]
fn write_side_buffer_stays_bounded() {
    // One 16 MB write_all: the writer validates and encodes it piece by piece without
    // copying it; time stays linear (a quadratic re-validation would not finish).
    let text = "ascii and é and 日本 ".repeat(16 << 20 >> 5);
    let mut writer = EncodeWriter::new(HashWriter::default(), textcodec::EUC_JP);
    writer.write_all(text.as_bytes()).unwrap();
    let sink = writer.finish().unwrap();
    let mut expected = Fnv::default();
    expected.update(&one_shot_encode(
        textcodec::EUC_JP,
        EncoderErrorMode::Html,
        &text,
    ));
    assert_eq!(sink.hash, expected);
}
