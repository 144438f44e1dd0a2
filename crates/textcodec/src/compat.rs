//! With the `encoding_rs` feature: `&'static Encoding` to and from encoding_rs's
//! `&'static encoding_rs::Encoding`, so that what crates built on encoding_rs answer (chardetng's
//! guess, codepage's `to_encoding`, charset's `Charset`, a field of a library's API) plugs into
//! textcodec, and back. Both crates have the 40 encodings of the Encoding Standard, with the same
//! names: each maps to the one of the same name.

use crate::encoding::Encoding;

/// The pairs, textcodec's static and encoding_rs's of the same name (both crates name their
/// statics after the spec's names).
macro_rules! pairs {
    ($($name:ident)*) => {
        /// encoding_rs's encoding of the same name as `encoding`.
        fn to_encoding_rs(encoding: &Encoding) -> &'static encoding_rs::Encoding {
            $(
                if encoding == crate::$name {
                    return encoding_rs::$name;
                }
            )*
            unreachable!("the 40 encodings are listed")
        }

        /// textcodec's encoding of the same name as `encoding`.
        fn from_encoding_rs(encoding: &encoding_rs::Encoding) -> &'static Encoding {
            $(
                if encoding == encoding_rs::$name {
                    return crate::$name;
                }
            )*
            // encoding_rs 0.8 has no other encodings (and no way to make one).
            unreachable!("encoding_rs has the 40 encodings of the Encoding Standard")
        }
    };
}

pairs! {
    UTF_8 IBM866 ISO_8859_2 ISO_8859_3 ISO_8859_4 ISO_8859_5 ISO_8859_6 ISO_8859_7 ISO_8859_8
    ISO_8859_8_I ISO_8859_10 ISO_8859_13 ISO_8859_14 ISO_8859_15 ISO_8859_16 KOI8_R KOI8_U
    MACINTOSH WINDOWS_874 WINDOWS_1250 WINDOWS_1251 WINDOWS_1252 WINDOWS_1253 WINDOWS_1254
    WINDOWS_1255 WINDOWS_1256 WINDOWS_1257 WINDOWS_1258 X_MAC_CYRILLIC GBK GB18030 BIG5 EUC_JP
    ISO_2022_JP SHIFT_JIS EUC_KR REPLACEMENT UTF_16BE UTF_16LE X_USER_DEFINED
}

impl Encoding {
    /// The encoding of the same name as encoding_rs's `encoding` (feature `encoding_rs`): what
    /// `.into()` does.
    ///
    /// ```
    /// // chardetng guesses in encoding_rs's terms.
    /// use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
    /// let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    /// detector.feed(b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xca\xe0\xea \xe4\xe5\xeb\xe0?", true);
    /// let guess = textcodec::Encoding::from_encoding_rs(detector.guess(None, Utf8Detection::Allow));
    /// assert_eq!(guess, textcodec::WINDOWS_1251);
    /// assert_eq!(guess.decode(b"\xcf\xf0\xe8\xe2\xe5\xf2").0, "Привет");
    /// ```
    pub fn from_encoding_rs(encoding: &'static encoding_rs::Encoding) -> &'static Encoding {
        from_encoding_rs(encoding)
    }

    /// encoding_rs's encoding of the same name (feature `encoding_rs`): what `.into()` does.
    ///
    /// ```
    /// let theirs = textcodec::SHIFT_JIS.to_encoding_rs();
    /// assert_eq!(theirs, encoding_rs::SHIFT_JIS);
    /// assert_eq!(theirs.name(), "Shift_JIS");
    /// ```
    pub fn to_encoding_rs(&self) -> &'static encoding_rs::Encoding {
        to_encoding_rs(self)
    }
}

/// encoding_rs's encoding as textcodec's (feature `encoding_rs`).
///
/// ```
/// let ours: &'static textcodec::Encoding = encoding_rs::EUC_KR.into();
/// assert_eq!(ours, textcodec::EUC_KR);
/// ```
impl From<&'static encoding_rs::Encoding> for &'static Encoding {
    fn from(encoding: &'static encoding_rs::Encoding) -> Self {
        from_encoding_rs(encoding)
    }
}

/// textcodec's encoding as encoding_rs's (feature `encoding_rs`).
///
/// ```
/// let theirs: &'static encoding_rs::Encoding = textcodec::GB18030.into();
/// assert_eq!(theirs, encoding_rs::GB18030);
/// ```
impl From<&'static Encoding> for &'static encoding_rs::Encoding {
    fn from(encoding: &'static Encoding) -> Self {
        to_encoding_rs(encoding)
    }
}
