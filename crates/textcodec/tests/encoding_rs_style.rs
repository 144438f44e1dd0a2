//! Ordinary code written for encoding_rs and encoding_rs_io, ported to textcodec by changing
//! only the crate name: each snippet below is written once, in the shape of what real crates do
//! (reqwest's `Response::text_with_charset`, quick-xml's encoding detection and decoding,
//! mailparse's and the charset crate's body decoding, grep-searcher's reader set-up, servo's and
//! deno's streaming decoding into a `str`, an encoder appending to a `Vec`), and compiled twice
//! by the macro: once with `encoding_rs`/`encoding_rs_io`, once with `textcodec`/`textcodec::io`.
//! The tests then run both on the same inputs and require the same results.
//!
//! What does not port by the name alone, because textcodec's shapes are fixed by its own API,
//! is in `the_calls_that_change`: `new_decoder()`/`new_encoder()` take options, and
//! `decode_to_utf8`/`decode_to_string`/`encode_from_utf8` return a `Result` of `Progress`.

use std::io::Read;

macro_rules! ported {
    ($module:ident, $krate:ident, $($io:ident)::+) => {
        #[allow(dead_code)]
        mod $module {
            use std::borrow::Cow;
            use std::io::Read;

            use $krate::mem;
            use $krate::{CoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8};
            use $($io)::+::DecodeReaderBytesBuilder;

            /// reqwest: the body as text, in the charset of the Content-Type or a default.
            pub fn text_with_charset(body: &[u8], charset: Option<&str>, default_encoding: &str) -> String {
                let encoding_name = charset.unwrap_or(default_encoding);
                let encoding = Encoding::for_label(encoding_name.as_bytes()).unwrap_or(UTF_8);
                let (text, _, _) = encoding.decode(body);
                text.into_owned()
            }

            /// quick-xml: the encoding from the first bytes of a document (BOM or the shape of
            /// `<?xml` in UTF-16), and how many bytes of BOM to skip.
            pub fn detect_encoding(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
                match bytes {
                    _ if bytes.starts_with(&[0xFE, 0xFF]) => Some((UTF_16BE, 2)),
                    _ if bytes.starts_with(&[0xFF, 0xFE]) => Some((UTF_16LE, 2)),
                    _ if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) => Some((UTF_8, 3)),
                    _ if bytes.starts_with(&[0x00, b'<', 0x00, b'?']) => Some((UTF_16BE, 0)),
                    _ if bytes.starts_with(&[b'<', 0x00, b'?', 0x00]) => Some((UTF_16LE, 0)),
                    _ => None,
                }
            }

            /// quick-xml: decode without replacement, failing on malformed input.
            pub fn decode<'b>(bytes: &'b [u8], encoding: &'static Encoding) -> Result<Cow<'b, str>, String> {
                encoding
                    .decode_without_bom_handling_and_without_replacement(bytes)
                    .ok_or_else(|| format!("cannot decode as {}", encoding.name()))
            }

            /// quick-xml: a document whose encoding its declaration names (or the BOM).
            pub fn decode_document(bytes: &[u8], declared: &[u8]) -> (String, &'static str, bool) {
                let encoding = match detect_encoding(bytes) {
                    Some((encoding, _)) => encoding,
                    None => Encoding::for_label(declared).unwrap_or(UTF_8),
                };
                let (text, had_errors) = encoding.decode_with_bom_removal(bytes);
                (text.into_owned(), encoding.name(), had_errors)
            }

            /// mailparse and the charset crate: a body in the charset its header names; an
            /// unknown charset as Latin-1; ASCII as it is.
            pub fn decode_body(body: &[u8], charset: &str) -> String {
                if mem::is_ascii(body) {
                    return String::from_utf8(body.to_vec()).unwrap();
                }
                match Encoding::for_label_no_replacement(charset.as_bytes()) {
                    Some(coding) => coding.decode_without_bom_handling(body).0.into_owned(),
                    None => mem::decode_latin1(body).into_owned(),
                }
            }

            /// A mail header's text back to bytes: Latin-1 where it fits, else UTF-8.
            pub fn header_bytes(text: &str) -> (Vec<u8>, &'static str) {
                if mem::is_utf8_latin1(text.as_bytes()) {
                    let mut out = vec![0u8; text.len()];
                    let n = mem::convert_utf8_to_latin1_lossy(text.as_bytes(), &mut out);
                    out.truncate(n);
                    assert_eq!(out, &*mem::encode_latin1_lossy(text));
                    (out, "iso-8859-1")
                } else {
                    (text.as_bytes().to_vec(), "utf-8")
                }
            }

            /// Latin-1 bytes to UTF-8 through a caller buffer.
            pub fn latin1_to_utf8(bytes: &[u8]) -> Vec<u8> {
                let mut out = vec![0u8; bytes.len() * 2];
                let n = mem::convert_latin1_to_utf8(bytes, &mut out);
                out.truncate(n);
                out
            }

            /// Where UTF-16 from outside (a JS string, a Windows API) stops being valid.
            pub fn utf16_checked(units: &[u16]) -> usize {
                mem::utf16_valid_up_to(units)
            }

            /// A form submission or a mail body to bytes in the page's encoding.
            pub fn encode_form(text: &str, label: &str) -> (Vec<u8>, &'static str, bool) {
                let encoding = Encoding::for_label(label.as_bytes()).unwrap_or(UTF_8);
                let encoding = encoding.output_encoding();
                let (bytes, used, replaced) = encoding.encode(text);
                (bytes.into_owned(), used.name(), replaced)
            }

            /// What a caller asks of an encoding before choosing a path.
            pub fn traits(label: &str) -> Option<(&'static str, bool, bool, bool)> {
                let encoding = Encoding::for_label(label.as_bytes())?;
                Some((
                    encoding.name(),
                    encoding.is_single_byte(),
                    encoding.can_encode_everything(),
                    encoding.is_ascii_compatible(),
                ))
            }

            /// Fast checks before decoding.
            pub fn valid_prefixes(bytes: &[u8]) -> (usize, usize) {
                (Encoding::utf8_valid_up_to(bytes), Encoding::ascii_valid_up_to(bytes))
            }

            /// servo/deno: stream bytes into a fixed `str` buffer, a chunk at a time.
            pub fn stream_to_str(label: &str, chunks: &[&[u8]], ignore_bom: bool) -> (String, bool) {
                let encoding = Encoding::for_label(label.as_bytes()).unwrap_or(UTF_8);
                let mut decoder = if ignore_bom {
                    encoding.new_decoder_without_bom_handling()
                } else {
                    encoding.new_decoder_with_bom_removal()
                };
                let mut out = String::new();
                let mut any_replaced = false;
                let mut buffer = String::from_utf8(vec![b' '; 64]).unwrap();
                for (i, chunk) in chunks.iter().enumerate() {
                    let last = i + 1 == chunks.len();
                    let mut input = &chunk[..];
                    loop {
                        let (result, read, written, replaced) =
                            decoder.decode_to_str(input, &mut buffer, last);
                        out.push_str(&buffer[..written]);
                        any_replaced |= replaced;
                        input = &input[read..];
                        match result {
                            CoderResult::InputEmpty => break,
                            CoderResult::OutputFull => continue,
                        }
                    }
                }
                (out, any_replaced)
            }

            /// grep-searcher: a file read as ripgrep reads it (UTF-8 passed through, a BOM
            /// removed, UTF-16 decoded; or the encoding given with `-E`).
            pub fn search_reader(data: &[u8], encoding: Option<&str>, bom_sniffing: bool) -> Vec<u8> {
                let encoding = encoding.map(|label| {
                    Encoding::for_label_no_replacement(label.as_bytes()).expect("a known label")
                });
                let mut decode_builder = DecodeReaderBytesBuilder::new();
                decode_builder
                    .encoding(encoding)
                    .utf8_passthru(true)
                    .strip_bom(bom_sniffing)
                    .bom_override(true)
                    .bom_sniffing(bom_sniffing);
                let mut decode_buffer = vec![0u8; 8 * (1 << 10)];
                let mut decoder = decode_builder
                    .build_with_buffer(data, &mut decode_buffer)
                    .unwrap();
                let mut out = Vec::new();
                decoder.read_to_end(&mut out).unwrap();
                out
            }
        }
    };
}

ported!(with_encoding_rs, encoding_rs, encoding_rs_io);
ported!(with_textcodec, textcodec, textcodec::io);

mod support;

fn corpus(lang: &str) -> String {
    support::prefix(&support::corpus_text(lang), 8000).to_string()
}

/// Byte inputs: text in several encodings, with BOMs, damaged, and short oddities.
fn inputs() -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"plain ascii".to_vec(),
        b"caf\xE9 \x80\x9F\xFF".to_vec(),
        b"\xEF\xBB\xBFcaf\xC3\xA9 \xFF".to_vec(),
        b"\xFF\xFE<\0?\0x\0m\0l\0".to_vec(),
        b"\xFE\xFF\0<\0?\0x".to_vec(),
        b"<\0?\0x\0m\0l\0".to_vec(),
        b"\0<\0?\0x\0m\0l".to_vec(),
        b"\x82\xa0\x82".to_vec(),
    ];
    for (lang, label) in [
        ("ja", "shift_jis"),
        ("ru", "koi8-r"),
        ("fr", "windows-1252"),
        ("zh_cn", "gbk"),
    ] {
        let text = corpus(lang);
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let bytes = enc.encode(&text).0.into_owned();
        all.push(text.clone().into_bytes());
        let mut damaged = bytes.clone();
        for k in (3..damaged.len()).step_by(397) {
            damaged[k] ^= 0x80;
        }
        all.push(bytes);
        all.push(damaged);
        all.push(text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect());
    }
    all
}

const LABELS: [&str; 12] = [
    "utf-8",
    "latin1",
    "shift_jis",
    "koi8-r",
    "gbk",
    "utf-16le",
    "utf-16be",
    "iso-2022-jp",
    "iso-2022-kr",
    "x-user-defined",
    "unknown-charset",
    "UTF8",
];

#[test]
fn reqwest_text_with_charset() {
    for input in inputs() {
        for label in LABELS {
            for charset in [Some(label), None] {
                assert_eq!(
                    with_textcodec::text_with_charset(&input, charset, label),
                    with_encoding_rs::text_with_charset(&input, charset, label),
                    "{label}"
                );
            }
        }
    }
}

#[test]
fn quick_xml_detection_and_decoding() {
    for input in inputs() {
        let ours = with_textcodec::detect_encoding(&input).map(|(e, n)| (e.name(), n));
        let theirs = with_encoding_rs::detect_encoding(&input).map(|(e, n)| (e.name(), n));
        assert_eq!(ours, theirs);
        for label in LABELS {
            assert_eq!(
                with_textcodec::decode_document(&input, label.as_bytes()),
                with_encoding_rs::decode_document(&input, label.as_bytes()),
                "{label}"
            );
            if let Some(enc) = textcodec::Encoding::for_label(label.as_bytes()) {
                let theirs_enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
                assert_eq!(
                    with_textcodec::decode(&input, enc),
                    with_encoding_rs::decode(&input, theirs_enc),
                    "{label}"
                );
            }
        }
    }
}

#[test]
fn mailparse_and_charset_bodies_and_headers() {
    for input in inputs() {
        for label in LABELS {
            assert_eq!(
                with_textcodec::decode_body(&input, label),
                with_encoding_rs::decode_body(&input, label),
                "{label}"
            );
        }
        assert_eq!(
            with_textcodec::latin1_to_utf8(&input),
            with_encoding_rs::latin1_to_utf8(&input)
        );
        let text = String::from_utf8_lossy(&input);
        let latin1: String = text.chars().filter(|&c| c <= '\u{FF}').collect();
        for t in [&*text, &latin1] {
            assert_eq!(
                with_textcodec::header_bytes(t),
                with_encoding_rs::header_bytes(t)
            );
            let units: Vec<u16> = t.encode_utf16().collect();
            assert_eq!(
                with_textcodec::utf16_checked(&units),
                with_encoding_rs::utf16_checked(&units)
            );
        }
    }
    let lone = [0x61, 0xD800, 0x62, 0xDC00];
    assert_eq!(with_textcodec::utf16_checked(&lone), 1);
    assert_eq!(with_encoding_rs::utf16_checked(&lone), 1);
}

#[test]
fn encoding_and_what_an_encoding_can_do() {
    let mut texts: Vec<String> = ["ja", "ru", "fr", "zh_cn", "ko"]
        .iter()
        .map(|l| corpus(l))
        .collect();
    texts.push("a☃b\u{E5E5}\u{1F600}¥~".to_string());
    for label in LABELS {
        assert_eq!(
            with_textcodec::traits(label),
            with_encoding_rs::traits(label),
            "{label}"
        );
        for text in &texts {
            assert_eq!(
                with_textcodec::encode_form(text, label),
                with_encoding_rs::encode_form(text, label),
                "{label}"
            );
        }
    }
    for input in inputs() {
        assert_eq!(
            with_textcodec::valid_prefixes(&input),
            with_encoding_rs::valid_prefixes(&input)
        );
    }
}

#[test]
fn servo_deno_streaming_into_a_str() {
    for input in inputs() {
        for label in LABELS {
            for ignore_bom in [false, true] {
                for piece in [1, 3, 1000, usize::MAX] {
                    let chunks: Vec<&[u8]> = if input.is_empty() {
                        vec![&input[..]]
                    } else {
                        input.chunks(piece.min(input.len())).collect()
                    };
                    assert_eq!(
                        with_textcodec::stream_to_str(label, &chunks, ignore_bom),
                        with_encoding_rs::stream_to_str(label, &chunks, ignore_bom),
                        "{label} {ignore_bom} {piece}"
                    );
                }
            }
        }
    }
}

#[test]
fn grep_searcher_reader() {
    for input in inputs() {
        for encoding in [
            None,
            Some("utf-8"),
            Some("utf-16le"),
            Some("shift_jis"),
            Some("latin1"),
        ] {
            for sniffing in [true, false] {
                assert_eq!(
                    with_textcodec::search_reader(&input, encoding, sniffing),
                    with_encoding_rs::search_reader(&input, encoding, sniffing),
                    "{encoding:?} {sniffing}"
                );
            }
        }
    }
}

/// The calls whose shapes textcodec's own API fixes: creating a decoder or an encoder takes
/// options (encoding_rs's take none and replace), and the streaming calls return a `Result` of
/// `Progress` (encoding_rs's return a tuple). One line each changes; the results agree.
#[test]
fn the_calls_that_change() {
    let text = corpus("ja");
    for label in LABELS {
        let Some(ours) = textcodec::Encoding::for_label(label.as_bytes()) else {
            continue;
        };
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();

        // encoding_rs: `let mut encoder = encoding.new_encoder();`
        let mut encoder = ours.new_encoder(Default::default());
        let mut bytes =
            Vec::with_capacity(encoder.max_buffer_length_from_utf8(text.len()).unwrap());
        let (result, read, replaced) = encoder.encode_from_utf8_to_vec(&text, &mut bytes, true);
        let mut their_encoder = theirs.new_encoder();
        let mut want = Vec::with_capacity(
            their_encoder
                .max_buffer_length_from_utf8_if_no_unmappables(text.len())
                .unwrap()
                + 64 * text.len(),
        );
        let (want_result, want_read, want_replaced) =
            their_encoder.encode_from_utf8_to_vec(&text, &mut want, true);
        assert_eq!(
            (
                result == textcodec::CoderResult::InputEmpty,
                read,
                replaced,
                &bytes
            ),
            (
                want_result == encoding_rs::CoderResult::InputEmpty,
                want_read,
                want_replaced,
                &want
            ),
            "{label}"
        );

        // encoding_rs: `let (result, read, replaced) = decoder.decode_to_string(src, &mut s, true);`
        let mut decoder = ours.new_decoder(Default::default());
        let mut s = String::new();
        let p = decoder.decode_to_string(&bytes, &mut s, true).unwrap();
        let mut their_decoder = theirs.new_decoder();
        let mut want_s =
            String::with_capacity(their_decoder.max_utf8_buffer_length(bytes.len()).unwrap());
        let (_, want_read, want_replaced) =
            their_decoder.decode_to_string(&bytes, &mut want_s, true);
        assert_eq!(
            (p.read, p.replaced, &s),
            (want_read, want_replaced, &want_s),
            "{label}"
        );
    }
    // And encoding_rs_io's `DecodeReaderBytes::new` is `DecodeReader::new` with an encoding.
    let mut out = String::new();
    textcodec::io::DecodeReader::new(&b"\xFF\xFEh\0i\0"[..], textcodec::UTF_8)
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "hi");
}
