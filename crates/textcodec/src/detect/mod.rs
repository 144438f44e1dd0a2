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

mod detector;

pub use detector::Detector;
