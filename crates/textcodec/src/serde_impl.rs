//! `serde` support: an encoding serializes as its name and deserializes from any of its labels.

use crate::Encoding;
use core::fmt;
use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

/// An encoding serializes as its name, exactly as the spec writes it (`"Shift_JIS"`), so that
/// `&'static Encoding` fields of your types serialize with `#[derive(Serialize)]`.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Page {
///     charset: &'static textcodec::Encoding,
/// }
///
/// let json = serde_json::to_string(&Page { charset: textcodec::SHIFT_JIS })?;
/// assert_eq!(json, r#"{"charset":"Shift_JIS"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for Encoding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// An encoding deserializes from any of its labels, matched as the spec's "get an encoding"
/// does (ASCII case-insensitive, surrounding ASCII whitespace ignored): `"latin1"`, `"SJIS"`,
/// `" utf8 "`. Anything else is an `invalid value` error.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Page {
///     charset: &'static textcodec::Encoding,
/// }
///
/// let page: Page = serde_json::from_str(r#"{"charset":"latin1"}"#)?;
/// assert_eq!(page.charset, textcodec::WINDOWS_1252);
/// let name: &'static textcodec::Encoding = serde_json::from_str(r#""Shift_JIS""#)?;
/// assert_eq!(name, textcodec::SHIFT_JIS);
/// assert!(serde_json::from_str::<&'static textcodec::Encoding>(r#""klingon""#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for &'static Encoding {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(LabelVisitor)
    }
}

/// Turns a label into an encoding.
struct LabelVisitor;

impl<'de> Visitor<'de> for LabelVisitor {
    type Value = &'static Encoding;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an encoding label, such as \"utf-8\" or \"shift_jis\"")
    }

    fn visit_str<E: de::Error>(self, label: &str) -> Result<Self::Value, E> {
        Encoding::for_label(label.as_bytes())
            .ok_or_else(|| E::invalid_value(Unexpected::Str(label), &self))
    }

    fn visit_bytes<E: de::Error>(self, label: &[u8]) -> Result<Self::Value, E> {
        Encoding::for_label(label).ok_or_else(|| E::invalid_value(Unexpected::Bytes(label), &self))
    }
}
