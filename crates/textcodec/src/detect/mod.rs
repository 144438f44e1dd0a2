//! Detection: what encoding is this?
//!
//! Text whose encoding is not declared is the daily case for crawlers, mail and archives.
//! Where nothing declares the encoding, browsers guess from the bytes; [`Detector`] is that
//! guess: a statistical detector fed in chunks of any size, in constant memory, that answers
//! among the encodings browsers guess among (UTF-8, the single-byte encodings of the
//! Encoding Standard, GBK, Big5, EUC-JP, ISO-2022-JP, Shift_JIS and EUC-KR).
//!
//! ```
//! use textcodec::detect::Detector;
//! let mut d = Detector::new();
//! d.feed(b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!</p>", true); // "Привет, мир!" in windows-1251
//! assert_eq!(d.guess(None, false), textcodec::WINDOWS_1251);
//! ```
//!
//! The HTML Standard says how a browser finds the encoding of a document whose encoding is
//! not known for certain: the byte order mark, the `Content-Type` header's `charset`, a
//! `<meta charset>` or XML declaration in the first 1024 bytes, and else a guess from the
//! bytes. [`sniff_html`] runs that algorithm; [`prescan`], [`extract_meta_charset`] and
//! [`charset_from_content_type`] are its parts.

mod detector;
mod sniff;

pub use detector::Detector;
pub use sniff::*;

use crate::Encoding;

/// Where [`sniff_html`] found the encoding: the steps of the encoding sniffing algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A UTF-8, UTF-16LE or UTF-16BE byte order mark ("BOM sniff").
    Bom,
    /// The `charset` parameter of the transport's `Content-Type`.
    Transport,
    /// A `<meta>` element found by "prescan a byte stream to determine its encoding".
    Prescan,
    /// An XML declaration: "get an XML encoding", or the prescan's UTF-16 `<?x`.
    XmlDeclaration,
    /// The statistical guess of the [`Detector`] ("autodetect the character encoding").
    Detector,
    /// Nothing to go on (ASCII only): the default, which is what the [`Detector`] answers for
    /// ASCII (the usual encoding of the top-level domain, windows-1252 when it is unknown; UTF-8
    /// where UTF-8 is allowed).
    Default,
}

/// The confidence of the encoding sniffing algorithm's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    /// The answer is final (a BOM, or the transport's word).
    Certain,
    /// The answer may be revised by a declaration found later, as a browser's parser would.
    Tentative,
}

/// The result of [`sniff_html`]: the encoding, how sure, and which step found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The encoding to decode the document with.
    pub encoding: &'static Encoding,
    /// Certain for a BOM or the transport, tentative otherwise.
    pub confidence: Confidence,
    /// The step of the algorithm that found it.
    pub source: Source,
}
