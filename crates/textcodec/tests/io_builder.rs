//! `io::DecodeReaderBuilder` against encoding_rs_io's `DecodeReaderBytesBuilder` (a
//! dev-dependency, the oracle): every combination of the options they share (`encoding`,
//! `utf8_passthru`, `bom_override`, `strip_bom`, `bom_sniffing`), on streams with and without
//! each BOM, short streams (every BOM and every prefix of one), invalid UTF-8, and corpus text
//! in each encoding, read whole and through inner readers that hand out one or a few bytes at a
//! time, into caller buffers of several sizes. The one place they part is named and tested on
//! its own (`a_two_byte_stream_that_is_a_utf16_bom`).

mod support;

use std::io::{self, Read};

use textcodec::io::DecodeReaderBuilder;
use textcodec::Encoding;

/// encoding_rs's encoding of the same name.
fn er(enc: &'static Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(enc.name().to_ascii_lowercase().as_bytes()).unwrap()
}

/// An inner reader that hands out at most `step` bytes a call (0: all it is asked for).
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = buf.len().min(self.data.len());
        if self.step != 0 {
            n = n.min(self.step);
        }
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// All of `reader`, read `size` bytes at a time.
fn drain(mut reader: impl Read, size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; size];
    loop {
        let n = reader.read(&mut buf).unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&buf[..n]);
    }
}

#[derive(Clone, Copy, Debug)]
struct Options {
    encoding: Option<&'static Encoding>,
    utf8_passthru: bool,
    bom_override: bool,
    strip_bom: bool,
    bom_sniffing: bool,
}

fn every_options() -> Vec<Options> {
    let encodings = [
        None,
        Some(textcodec::UTF_8),
        Some(textcodec::UTF_16LE),
        Some(textcodec::UTF_16BE),
        Some(textcodec::WINDOWS_1252),
        Some(textcodec::SHIFT_JIS),
    ];
    let mut all = Vec::new();
    for encoding in encodings {
        for bits in 0..16 {
            all.push(Options {
                encoding,
                utf8_passthru: bits & 1 != 0,
                bom_override: bits & 2 != 0,
                strip_bom: bits & 4 != 0,
                bom_sniffing: bits & 8 != 0,
            });
        }
    }
    all
}

fn ours(o: Options, data: &[u8], step: usize, size: usize) -> Vec<u8> {
    let mut builder = DecodeReaderBuilder::new();
    builder
        .encoding(o.encoding)
        .utf8_passthru(o.utf8_passthru)
        .bom_override(o.bom_override)
        .strip_bom(o.strip_bom)
        .bom_sniffing(o.bom_sniffing);
    drain(builder.build(Trickle { data, step }), size)
}

fn theirs(o: Options, data: &[u8], step: usize, size: usize) -> Vec<u8> {
    let reader = encoding_rs_io::DecodeReaderBytesBuilder::new()
        .encoding(o.encoding.map(er))
        .utf8_passthru(o.utf8_passthru)
        .bom_override(o.bom_override)
        .strip_bom(o.strip_bom)
        .bom_sniffing(o.bom_sniffing)
        .build(Trickle { data, step });
    drain(reader, size)
}

/// Whether encoding_rs_io's reading of `data` differs from the Encoding Standard's by design:
/// a stream of exactly two bytes that are a UTF-16 BOM, which encoding_rs_io does not take
/// for one (it sniffs only when it has three bytes), where a BOM would choose the encoding.
fn two_byte_bom(o: Options, data: &[u8]) -> bool {
    (data == b"\xFF\xFE" || data == b"\xFE\xFF")
        && o.bom_sniffing
        && (o.encoding.is_none() || o.bom_override)
}

fn check(data: &[u8]) {
    for o in every_options() {
        if two_byte_bom(o, data) {
            continue;
        }
        let want = theirs(o, data, 0, 8192);
        for (step, size) in [(0, 8192), (1, 4), (1, 4096), (2, 7), (3, 64), (5, 1)] {
            // encoding_rs_io's reads into buffers under 4 bytes go through its own small
            // transcoder; the output is the same stream.
            assert_eq!(
                ours(o, data, step, size),
                want,
                "{o:?} step {step} size {size} {:02X?}",
                &data[..data.len().min(40)]
            );
        }
    }
}

#[test]
fn short_streams() {
    check(b"");
    for a in 0..=255u8 {
        check(&[a]);
    }
    let boms: [&[u8]; 3] = [b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"];
    for bom in boms {
        for len in 1..=bom.len() {
            check(&bom[..len]);
        }
        for tail in [
            &b"a"[..],
            b"\0",
            b"a\0",
            b"\0a",
            b"\xFF",
            b"\xC3\xA9",
            b"\xC3",
            b"\x82\xA0",
            b"h\0i\0",
            b"\0h\0i",
            b"\x3D\xD8",
            b"\xD8\x3D",
        ] {
            let mut data = bom.to_vec();
            data.extend_from_slice(tail);
            check(&data);
        }
    }
    for pair in [
        &b"ab"[..],
        b"\xEF\xBB",
        b"\xFF\xFF",
        b"\xFE\xFE",
        b"\xC3\xA9",
        b"\xE9\xE9",
    ] {
        check(pair);
    }
}

#[test]
fn text_in_each_encoding_with_and_without_boms() {
    let text = support::prefix(&support::corpus_text("ja"), 6000).to_string();
    let text = text.as_str();
    let utf16le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let utf16be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    let mut invalid = text.as_bytes().to_vec();
    for k in (7..invalid.len()).step_by(499) {
        invalid[k] = 0xFF;
    }
    for body in [text.as_bytes(), &utf16le, &utf16be, &sjis, &invalid] {
        check(body);
        for bom in [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"] {
            let mut data = bom.to_vec();
            data.extend_from_slice(body);
            check(&data);
        }
    }
}

/// The one difference: a stream of exactly `FF FE` (or `FE FF`) is a UTF-16 BOM and nothing
/// else to the Encoding Standard's "BOM sniff", which needs only two bytes; encoding_rs_io
/// waits for three, and with fewer takes the stream as having no BOM. textcodec decodes it as
/// the BOM says: an empty text.
#[test]
fn a_two_byte_stream_that_is_a_utf16_bom() {
    for o in every_options() {
        for data in [&b"\xFF\xFE"[..], b"\xFE\xFF"] {
            if !two_byte_bom(o, data) {
                continue;
            }
            assert_eq!(ours(o, data, 0, 64), b"", "{o:?}");
            // encoding_rs_io's: the bytes as if no BOM were there.
            let without_bom = Options {
                bom_sniffing: false,
                ..o
            };
            assert_eq!(
                theirs(o, data, 0, 64),
                theirs(without_bom, data, 0, 64),
                "{o:?}"
            );
        }
    }
    // With one more byte both take it as a BOM.
    for o in every_options() {
        if o.bom_sniffing && (o.encoding.is_none() || o.bom_override) {
            assert_eq!(ours(o, b"\xFF\xFEa", 0, 64), "\u{FFFD}".as_bytes());
            assert_eq!(theirs(o, b"\xFF\xFEa", 0, 64), "\u{FFFD}".as_bytes());
        }
    }
}

/// ripgrep's set-up (grep-searcher's `DecodeReaderBytesBuilder` calls): UTF-8 text, valid or
/// not, passes through byte for byte; a BOM never reaches the output; UTF-16 is decoded.
#[test]
fn ripgrep_setup() {
    let mut builder = DecodeReaderBuilder::new();
    builder
        .encoding(None)
        .utf8_passthru(true)
        .strip_bom(true)
        .bom_override(true)
        .bom_sniffing(true);
    let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    let mut out = Vec::new();
    builder.build(&binary[..]).read_to_end(&mut out).unwrap();
    assert_eq!(out, binary);
    let mut out = Vec::new();
    builder
        .build(&b"\xEF\xBB\xBF\xFFok"[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, b"\xFFok");
    let mut out = String::new();
    builder
        .build(&b"\xFE\xFF\0o\0k"[..])
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "ok");
}
