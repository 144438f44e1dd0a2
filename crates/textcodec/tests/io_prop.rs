//! Property tests: any chunking of any input gives the text (or bytes) of one-shot decoding
//! (or encoding).

mod io_common;

use io_common::*;
use proptest::prelude::*;
use std::io::{self, BufRead, Read, Write};
use textcodec::io::{DecodeReader, EncodeWriter};
use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, EncoderErrorMode, Encoding};

/// A reader that hands out its data in the given chunk sizes (cycling), with an interruption
/// before each chunk whose size is divisible by 5.
struct Chunked {
    data: Vec<u8>,
    pos: usize,
    sizes: Vec<usize>,
    next: usize,
    interrupted: bool,
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()];
        if size.is_multiple_of(5) && !self.interrupted {
            self.interrupted = true;
            return Err(io::Error::new(io::ErrorKind::Interrupted, "chunk"));
        }
        self.interrupted = false;
        self.next += 1;
        let n = size.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

fn encoding_strategy() -> impl Strategy<Value = &'static Encoding> {
    (0..Encoding::all().len()).prop_map(|i| Encoding::all()[i])
}

fn options_strategy() -> impl Strategy<Value = DecoderOptions> {
    (0..3usize, any::<bool>()).prop_map(|(bom, fatal)| DecoderOptions {
        bom: [BomHandling::Sniff, BomHandling::Strip, BomHandling::Keep][bom],
        error_mode: if fatal {
            DecoderErrorMode::Fatal
        } else {
            DecoderErrorMode::Replacement
        },
    })
}

/// Decodes with a chunked reader and random read sizes; returns the text and error offsets.
fn chunked_decode(
    encoding: &'static Encoding,
    options: DecoderOptions,
    data: Vec<u8>,
    chunk_sizes: Vec<usize>,
    read_sizes: Vec<usize>,
    capacity: usize,
) -> (String, Vec<u64>) {
    let inner = Chunked {
        data,
        pos: 0,
        sizes: chunk_sizes,
        next: 0,
        interrupted: false,
    };
    let mut reader = DecodeReader::with_capacity(capacity, inner, encoding, options);
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    let mut i = 0;
    loop {
        let size = read_sizes[i % read_sizes.len()];
        i += 1;
        // Alternate between read and fill_buf/consume.
        let result = if i % 2 == 0 {
            let mut buf = vec![0; size];
            reader
                .read(&mut buf)
                .inspect(|&n| out.extend_from_slice(&buf[..n]))
        } else {
            reader.fill_buf().map(|buf| {
                let n = buf.len().min(size);
                out.extend_from_slice(&buf[..n]);
                n
            })
        };
        match result {
            Ok(0) => break,
            Ok(n) => {
                if i % 2 == 1 {
                    reader.consume(n);
                }
            }
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                let malformed = e
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<textcodec::io::MalformedInput>())
                    .unwrap();
                offsets.push(malformed.offset());
            }
        }
    }
    (String::from_utf8(out).unwrap(), offsets)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_any_chunking(
        encoding in encoding_strategy(),
        options in options_strategy(),
        data in proptest::collection::vec(any::<u8>(), 0..600),
        chunk_sizes in proptest::collection::vec(1usize..40, 1..20),
        read_sizes in proptest::collection::vec(1usize..40, 1..20),
        capacity in 1usize..50,
    ) {
        let expected = one_shot_decode_with_errors(encoding, options, &data);
        let got = chunked_decode(encoding, options, data, chunk_sizes, read_sizes, capacity);
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn any_text_encoded_then_decoded_in_any_chunking(
        encoding in encoding_strategy(),
        text in any::<String>(),
        prefix in proptest::sample::select(vec![&b""[..], b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"]),
        chunk_sizes in proptest::collection::vec(1usize..16, 1..20),
        read_sizes in proptest::collection::vec(1usize..16, 1..20),
        capacity in 1usize..20,
    ) {
        let mut data = prefix.to_vec();
        data.extend(one_shot_encode(encoding, EncoderErrorMode::Html, &text));
        let options = DecoderOptions::default();
        let expected = one_shot_decode_with_errors(encoding, options, &data);
        let got = chunked_decode(encoding, options, data, chunk_sizes, read_sizes, capacity);
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn any_text_any_split_encodes_as_one_shot(
        encoding in encoding_strategy(),
        text in any::<String>(),
        splits in proptest::collection::vec(1usize..12, 1..30),
        write_sizes in proptest::collection::vec(1usize..12, 1..10),
        capacity in 1usize..100,
    ) {
        let expected = one_shot_encode(encoding, EncoderErrorMode::Html, &text);
        let sink = ChunkedSink { out: Vec::new(), sizes: write_sizes, next: 0 };
        let mut writer = EncodeWriter::with_capacity(capacity, sink, encoding, EncoderErrorMode::Html);
        let mut rest = text.as_bytes();
        let mut i = 0;
        while !rest.is_empty() {
            let n = splits[i % splits.len()].min(rest.len());
            i += 1;
            writer.write_all(&rest[..n]).unwrap();
            rest = &rest[n..];
        }
        prop_assert_eq!(writer.finish().unwrap().out, expected);
    }

    #[test]
    fn any_text_any_split_fatal_reports_the_same_characters(
        encoding in encoding_strategy(),
        text in any::<String>(),
        splits in proptest::collection::vec(1usize..12, 1..30),
    ) {
        let (expected, expected_errors) =
            one_shot_encode_with_errors(encoding, EncoderErrorMode::Fatal, &text);
        let mut writer = EncodeWriter::with_mode(Vec::new(), encoding, EncoderErrorMode::Fatal);
        let mut errors = Vec::new();
        // Split only at character boundaries, so that each error is about the first
        // character of the piece that failed.
        let mut rest = text.as_str();
        let mut i = 0;
        while !rest.is_empty() {
            let mut n = splits[i % splits.len()].min(rest.len());
            i += 1;
            while !rest.is_char_boundary(n) {
                n += 1;
            }
            let mut piece = &rest[..n];
            rest = &rest[n..];
            while !piece.is_empty() {
                match writer.write(piece.as_bytes()) {
                    Ok(k) => piece = &piece[k..],
                    Err(e) => {
                        let c = e.get_ref().unwrap()
                            .downcast_ref::<textcodec::io::UnmappableChar>().unwrap().char();
                        errors.push(c);
                        let first = piece.chars().next().unwrap();
                        piece = &piece[first.len_utf8()..];
                    }
                }
            }
        }
        prop_assert_eq!(errors, expected_errors);
        prop_assert_eq!(writer.finish().unwrap(), expected);
    }
}

/// A writer that takes the given sizes, cycling.
struct ChunkedSink {
    out: Vec<u8>,
    sizes: Vec<usize>,
    next: usize,
}

impl Write for ChunkedSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.sizes[self.next % self.sizes.len()].min(buf.len());
        self.next += 1;
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
