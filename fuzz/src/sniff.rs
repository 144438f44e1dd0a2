//! The bodies of the detection fuzz targets: `prescan` (with `extract_meta_charset` and
//! `charset_from_content_type`) and `sniff_html` (with the detecting `DecodeReader`).
//!
//! Each input is used twice: as raw bytes, and expanded into markup (each byte picks a piece of
//! HTML from [`PIECES`]), so that random inputs reach the `<meta>`, attribute, comment and XML
//! declaration steps. Besides not panicking, the targets check what the algorithms imply:
//!
//! - a `<meta>` that the prescan found stays found whatever bytes follow it;
//! - `charset_from_content_type` ignores a value of `*/*` or one that does not parse, appended
//!   after a comma (Fetch: "extract a MIME type" skips them);
//! - `sniff_html`: certain exactly for a BOM or the transport; a BOM wins; a declaration is what
//!   the prescan of the first 1024 bytes says, and bytes after them do not change it; otherwise
//!   the Detector's guess without UTF-8;
//! - `DecodeReader::detect`, with random read sizes, decodes to what a one-shot decode in the
//!   encoding it found gives.
//!
//! The prescan's work is bounded by a counter in the library's unit tests
//! (`detect::sniff::tests::prescan_work_is_linear*`); wall-clock time is never measured here.

use std::io::Read;

use textcodec::detect::{
    charset_from_content_type, extract_meta_charset, prescan, sniff_html, Confidence, Detector,
    Source, PRESCAN_BYTES,
};
use textcodec::io::{DecodeReader, DetectOptions};
use textcodec::{Encoding, UTF_16BE, UTF_16LE, UTF_8, X_USER_DEFINED};

use crate::Rng;

/// The detection targets, by name, for the smoke runner (src/bin/smoke.rs).
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("prescan", prescan_target),
    ("sniff_html", sniff_html_target),
];

/// Pieces of markup that the expanded form of an input is made of.
pub const PIECES: &[&[u8]] = &[
    b"<",
    b">",
    b"/",
    b"=",
    b"\"",
    b"'",
    b" ",
    b"\t",
    b"\n",
    b"\x0C",
    b"\0",
    b"-",
    b"<meta ",
    b"<META/",
    b"<meta",
    b"<!--",
    b"-->",
    b"<!",
    b"</",
    b"<?",
    b"<a ",
    b"</p ",
    b"<?xml",
    b" encoding=",
    b"charset",
    b"charset=",
    b"content=",
    b"http-equiv=",
    b"content-type",
    b"text/html; ",
    b";",
    b"utf-8",
    b"utf-16",
    b"x-user-defined",
    b"shift_jis",
    b"gbk",
    b"iso-2022-kr",
    b"bogus",
    b"\xEF\xBB\xBF",
    b"\xFF\xFE",
    b"<\0?\0x\0",
    b"\xC4\xE3\xBA\xC3",
    b"\xCF\xF0\xE8\xE2\xE5\xF2",
    b"\x1B$B$3$s\x1B(B",
    "日本語".as_bytes(),
];

/// `data` as markup: each byte picks a piece.
fn expand(data: &[u8]) -> Vec<u8> {
    data.iter()
        .flat_map(|&b| PIECES[b as usize % PIECES.len()].iter().copied())
        .collect()
}

/// The inputs a fuzz input stands for: itself, and its expansion into markup.
fn inputs(data: &[u8]) -> [Vec<u8>; 2] {
    [data.to_vec(), expand(data)]
}

/// Target `prescan`: `prescan`, `extract_meta_charset`, `charset_from_content_type`.
pub fn prescan_target(data: &[u8]) {
    for input in inputs(data) {
        let found = prescan(&input);
        // A `<meta>` found stays found: only a `>` ends the steps with an encoding, and bytes
        // after it cannot change what came before. (The `sniff_html` source tells a `<meta>`
        // from an XML declaration, which more bytes could still override.)
        let head = &input[..input.len().min(PRESCAN_BYTES)];
        if Encoding::for_bom(head).is_none()
            && sniff_html(head, None, None).source == Source::Prescan
        {
            let encoding = found.expect("the prescan found a <meta>");
            assert_eq!(prescan(head), Some(encoding));
            let mut longer = head.to_vec();
            longer.extend_from_slice(b"<meta charset=big5>");
            longer.extend(input.iter().rev());
            assert_eq!(prescan(&longer), Some(encoding));
            // What a `<meta>` declares is never UTF-16 or x-user-defined.
            assert!(![UTF_16LE, UTF_16BE, X_USER_DEFINED].contains(&encoding));
        }
        let _ = extract_meta_charset(&input);
        // "extract a MIME type" skips `*/*` and values that do not parse.
        let charset = charset_from_content_type(&input);
        for tail in [&b", */*"[..], b",", b", garbage"] {
            let mut more = input.clone();
            more.extend_from_slice(tail);
            // A quoted string left open swallows the comma: only compare when none is open.
            if input.iter().filter(|&&b| b == b'"').count() % 2 == 0 && !input.contains(&b'\\') {
                assert_eq!(charset_from_content_type(&more), charset, "{more:?}");
            }
        }
    }
}

/// Top-level domains the `sniff_html` target picks from.
const TLDS: &[Option<&[u8]>] = &[None, Some(b"jp"), Some(b"ru"), Some(b"com"), Some(b"cn")];

/// Content-Type values the `sniff_html` target picks from (or none).
const CONTENT_TYPES: &[Option<&[u8]>] = &[
    None,
    Some(b"text/html"),
    Some(b"text/html; charset=shift_jis"),
    Some(b"text/html; charset=bogus"),
    Some(b"text/plain;charset=gbk, text/html"),
    Some(b"text/html; charset=\"utf-16\""),
];

/// Target `sniff_html`: the whole algorithm, and the detecting reader on the same bytes.
/// Input layout: `[tld, content type, seed, bytes...]`.
pub fn sniff_html_target(data: &[u8]) {
    let [tld, content_type, seed, rest @ ..] = data else {
        return;
    };
    let tld = TLDS[*tld as usize % TLDS.len()];
    let content_type = CONTENT_TYPES[*content_type as usize % CONTENT_TYPES.len()];
    for bytes in inputs(rest) {
        let sniffed = sniff_html(&bytes, content_type, tld);
        let certain = matches!(sniffed.source, Source::Bom | Source::Transport);
        assert_eq!(sniffed.confidence == Confidence::Certain, certain);
        if let Some((bom, _)) = Encoding::for_bom(&bytes) {
            assert_eq!((sniffed.encoding, sniffed.source), (bom, Source::Bom));
            continue;
        }
        if sniffed.source == Source::Transport {
            assert_eq!(
                Some(sniffed.encoding),
                content_type.and_then(charset_from_content_type)
            );
            continue;
        }
        let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
        match sniffed.source {
            Source::Prescan | Source::XmlDeclaration => {
                assert_eq!(Some(sniffed.encoding), prescan(head));
                // A `<meta>` found is final, and the bytes after the first 1024 have no say.
                if sniffed.source == Source::Prescan || bytes.len() >= PRESCAN_BYTES {
                    let mut other = head.to_vec();
                    other.extend_from_slice(b"<meta charset=gbk>\xFF\xFE");
                    assert_eq!(sniff_html(&other, content_type, tld), sniffed);
                }
            }
            Source::Detector => {
                assert_eq!(prescan(head), None);
                let mut detector = Detector::new();
                detector.feed(&bytes, true);
                assert_eq!(sniffed.encoding, detector.guess(tld, false));
                assert_ne!(sniffed.encoding, UTF_8);
            }
            Source::Default | Source::Bom | Source::Transport => {
                panic!("sniff_html gave {sniffed:?}")
            }
        }
        detecting_reader(&bytes, tld, *seed);
    }
}

/// A reader of `data` in pieces of random sizes.
struct Pieces<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (1 + self.rng.below(64)).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// `DecodeReader::detect` over `bytes` read in random pieces decodes as a one-shot decode in
/// the encoding it found.
fn detecting_reader(bytes: &[u8], tld: Option<&[u8]>, seed: u8) {
    let mut options = DetectOptions::new().limit(1024 + 512 * (seed as usize % 4));
    if let Some(tld) = tld {
        options = options.tld(tld);
    }
    if seed & 0x10 != 0 {
        options = options.allow_utf8(false);
    }
    let reader = Pieces {
        data: bytes,
        rng: Rng::new(seed as u64),
    };
    let mut reader = DecodeReader::detect_with(reader, options, Default::default());
    let mut text = String::new();
    reader
        .read_to_string(&mut text)
        .expect("replacement mode never fails");
    let sniffed = reader.sniffed().expect("the reader decided");
    let (expected, _, _) = textcodec::decode(bytes, sniffed.encoding);
    assert_eq!(text, expected);
}
