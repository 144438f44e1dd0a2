//! The registry: the 40 encodings of the spec as statics, their names and labels,
//! "get an encoding", "get an output encoding" and "BOM sniff".

use crate::codecs::Kind;
use crate::decoder::{BomHandling, Decoder, DecoderOptions};
use crate::encoder::{Encoder, EncoderErrorMode};
use crate::tables::labels::{LABELS, LONGEST_LABEL, NAMES, SORTED_LABELS};

/// An encoding of the Encoding Standard. There is one static instance per encoding; use
/// `&'static Encoding` and compare with `==`.
///
/// ```
/// use textcodec::Encoding;
/// let e = Encoding::for_label(b" sjis ").unwrap();
/// assert_eq!(e, textcodec::SHIFT_JIS);
/// assert_eq!(e.name(), "Shift_JIS");
/// ```
pub struct Encoding {
    index: u8,
    pub(crate) kind: Kind,
}

impl PartialEq for Encoding {
    #[inline]
    fn eq(&self, other: &Encoding) -> bool {
        self.index == other.index
    }
}

impl Eq for Encoding {}

impl core::hash::Hash for Encoding {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl core::fmt::Debug for Encoding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Encoding {{ {} }}", self.name())
    }
}

impl core::fmt::Display for Encoding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

static UTF_8_INIT: Encoding = Encoding {
    index: 0,
    kind: Kind::Utf8,
};
static IBM866_INIT: Encoding = Encoding {
    index: 1,
    kind: Kind::SingleByte(0),
};
static ISO_8859_2_INIT: Encoding = Encoding {
    index: 2,
    kind: Kind::SingleByte(1),
};
static ISO_8859_3_INIT: Encoding = Encoding {
    index: 3,
    kind: Kind::SingleByte(2),
};
static ISO_8859_4_INIT: Encoding = Encoding {
    index: 4,
    kind: Kind::SingleByte(3),
};
static ISO_8859_5_INIT: Encoding = Encoding {
    index: 5,
    kind: Kind::SingleByte(4),
};
static ISO_8859_6_INIT: Encoding = Encoding {
    index: 6,
    kind: Kind::SingleByte(5),
};
static ISO_8859_7_INIT: Encoding = Encoding {
    index: 7,
    kind: Kind::SingleByte(6),
};
static ISO_8859_8_INIT: Encoding = Encoding {
    index: 8,
    kind: Kind::SingleByte(7),
};
static ISO_8859_8_I_INIT: Encoding = Encoding {
    index: 9,
    kind: Kind::SingleByte(8),
};
static ISO_8859_10_INIT: Encoding = Encoding {
    index: 10,
    kind: Kind::SingleByte(9),
};
static ISO_8859_13_INIT: Encoding = Encoding {
    index: 11,
    kind: Kind::SingleByte(10),
};
static ISO_8859_14_INIT: Encoding = Encoding {
    index: 12,
    kind: Kind::SingleByte(11),
};
static ISO_8859_15_INIT: Encoding = Encoding {
    index: 13,
    kind: Kind::SingleByte(12),
};
static ISO_8859_16_INIT: Encoding = Encoding {
    index: 14,
    kind: Kind::SingleByte(13),
};
static KOI8_R_INIT: Encoding = Encoding {
    index: 15,
    kind: Kind::SingleByte(14),
};
static KOI8_U_INIT: Encoding = Encoding {
    index: 16,
    kind: Kind::SingleByte(15),
};
static MACINTOSH_INIT: Encoding = Encoding {
    index: 17,
    kind: Kind::SingleByte(16),
};
static WINDOWS_874_INIT: Encoding = Encoding {
    index: 18,
    kind: Kind::SingleByte(17),
};
static WINDOWS_1250_INIT: Encoding = Encoding {
    index: 19,
    kind: Kind::SingleByte(18),
};
static WINDOWS_1251_INIT: Encoding = Encoding {
    index: 20,
    kind: Kind::SingleByte(19),
};
static WINDOWS_1252_INIT: Encoding = Encoding {
    index: 21,
    kind: Kind::SingleByte(20),
};
static WINDOWS_1253_INIT: Encoding = Encoding {
    index: 22,
    kind: Kind::SingleByte(21),
};
static WINDOWS_1254_INIT: Encoding = Encoding {
    index: 23,
    kind: Kind::SingleByte(22),
};
static WINDOWS_1255_INIT: Encoding = Encoding {
    index: 24,
    kind: Kind::SingleByte(23),
};
static WINDOWS_1256_INIT: Encoding = Encoding {
    index: 25,
    kind: Kind::SingleByte(24),
};
static WINDOWS_1257_INIT: Encoding = Encoding {
    index: 26,
    kind: Kind::SingleByte(25),
};
static WINDOWS_1258_INIT: Encoding = Encoding {
    index: 27,
    kind: Kind::SingleByte(26),
};
static X_MAC_CYRILLIC_INIT: Encoding = Encoding {
    index: 28,
    kind: Kind::SingleByte(27),
};
static GBK_INIT: Encoding = Encoding {
    index: 29,
    kind: Kind::Gbk,
};
static GB18030_INIT: Encoding = Encoding {
    index: 30,
    kind: Kind::Gb18030,
};
static BIG5_INIT: Encoding = Encoding {
    index: 31,
    kind: Kind::Big5,
};
static EUC_JP_INIT: Encoding = Encoding {
    index: 32,
    kind: Kind::EucJp,
};
static ISO_2022_JP_INIT: Encoding = Encoding {
    index: 33,
    kind: Kind::Iso2022Jp,
};
static SHIFT_JIS_INIT: Encoding = Encoding {
    index: 34,
    kind: Kind::ShiftJis,
};
static EUC_KR_INIT: Encoding = Encoding {
    index: 35,
    kind: Kind::EucKr,
};
static REPLACEMENT_INIT: Encoding = Encoding {
    index: 36,
    kind: Kind::Replacement,
};
static UTF_16BE_INIT: Encoding = Encoding {
    index: 37,
    kind: Kind::Utf16Be,
};
static UTF_16LE_INIT: Encoding = Encoding {
    index: 38,
    kind: Kind::Utf16Le,
};
static X_USER_DEFINED_INIT: Encoding = Encoding {
    index: 39,
    kind: Kind::XUserDefined,
};

/// The UTF-8 encoding.
///
/// ```
/// assert_eq!(textcodec::UTF_8.name(), "UTF-8");
/// ```
pub static UTF_8: &Encoding = &UTF_8_INIT;
/// The IBM866 encoding.
///
/// ```
/// assert_eq!(textcodec::IBM866.name(), "IBM866");
/// ```
pub static IBM866: &Encoding = &IBM866_INIT;
/// The ISO-8859-2 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_2.name(), "ISO-8859-2");
/// ```
pub static ISO_8859_2: &Encoding = &ISO_8859_2_INIT;
/// The ISO-8859-3 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_3.name(), "ISO-8859-3");
/// ```
pub static ISO_8859_3: &Encoding = &ISO_8859_3_INIT;
/// The ISO-8859-4 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_4.name(), "ISO-8859-4");
/// ```
pub static ISO_8859_4: &Encoding = &ISO_8859_4_INIT;
/// The ISO-8859-5 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_5.name(), "ISO-8859-5");
/// ```
pub static ISO_8859_5: &Encoding = &ISO_8859_5_INIT;
/// The ISO-8859-6 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_6.name(), "ISO-8859-6");
/// ```
pub static ISO_8859_6: &Encoding = &ISO_8859_6_INIT;
/// The ISO-8859-7 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_7.name(), "ISO-8859-7");
/// ```
pub static ISO_8859_7: &Encoding = &ISO_8859_7_INIT;
/// The ISO-8859-8 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_8.name(), "ISO-8859-8");
/// ```
pub static ISO_8859_8: &Encoding = &ISO_8859_8_INIT;
/// The ISO-8859-8-I encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_8_I.name(), "ISO-8859-8-I");
/// ```
pub static ISO_8859_8_I: &Encoding = &ISO_8859_8_I_INIT;
/// The ISO-8859-10 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_10.name(), "ISO-8859-10");
/// ```
pub static ISO_8859_10: &Encoding = &ISO_8859_10_INIT;
/// The ISO-8859-13 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_13.name(), "ISO-8859-13");
/// ```
pub static ISO_8859_13: &Encoding = &ISO_8859_13_INIT;
/// The ISO-8859-14 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_14.name(), "ISO-8859-14");
/// ```
pub static ISO_8859_14: &Encoding = &ISO_8859_14_INIT;
/// The ISO-8859-15 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_15.name(), "ISO-8859-15");
/// ```
pub static ISO_8859_15: &Encoding = &ISO_8859_15_INIT;
/// The ISO-8859-16 encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_8859_16.name(), "ISO-8859-16");
/// ```
pub static ISO_8859_16: &Encoding = &ISO_8859_16_INIT;
/// The KOI8-R encoding.
///
/// ```
/// assert_eq!(textcodec::KOI8_R.name(), "KOI8-R");
/// ```
pub static KOI8_R: &Encoding = &KOI8_R_INIT;
/// The KOI8-U encoding.
///
/// ```
/// assert_eq!(textcodec::KOI8_U.name(), "KOI8-U");
/// ```
pub static KOI8_U: &Encoding = &KOI8_U_INIT;
/// The macintosh encoding.
///
/// ```
/// assert_eq!(textcodec::MACINTOSH.name(), "macintosh");
/// ```
pub static MACINTOSH: &Encoding = &MACINTOSH_INIT;
/// The windows-874 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_874.name(), "windows-874");
/// ```
pub static WINDOWS_874: &Encoding = &WINDOWS_874_INIT;
/// The windows-1250 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1250.name(), "windows-1250");
/// ```
pub static WINDOWS_1250: &Encoding = &WINDOWS_1250_INIT;
/// The windows-1251 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1251.name(), "windows-1251");
/// ```
pub static WINDOWS_1251: &Encoding = &WINDOWS_1251_INIT;
/// The windows-1252 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1252.name(), "windows-1252");
/// ```
pub static WINDOWS_1252: &Encoding = &WINDOWS_1252_INIT;
/// The windows-1253 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1253.name(), "windows-1253");
/// ```
pub static WINDOWS_1253: &Encoding = &WINDOWS_1253_INIT;
/// The windows-1254 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1254.name(), "windows-1254");
/// ```
pub static WINDOWS_1254: &Encoding = &WINDOWS_1254_INIT;
/// The windows-1255 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1255.name(), "windows-1255");
/// ```
pub static WINDOWS_1255: &Encoding = &WINDOWS_1255_INIT;
/// The windows-1256 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1256.name(), "windows-1256");
/// ```
pub static WINDOWS_1256: &Encoding = &WINDOWS_1256_INIT;
/// The windows-1257 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1257.name(), "windows-1257");
/// ```
pub static WINDOWS_1257: &Encoding = &WINDOWS_1257_INIT;
/// The windows-1258 encoding.
///
/// ```
/// assert_eq!(textcodec::WINDOWS_1258.name(), "windows-1258");
/// ```
pub static WINDOWS_1258: &Encoding = &WINDOWS_1258_INIT;
/// The x-mac-cyrillic encoding.
///
/// ```
/// assert_eq!(textcodec::X_MAC_CYRILLIC.name(), "x-mac-cyrillic");
/// ```
pub static X_MAC_CYRILLIC: &Encoding = &X_MAC_CYRILLIC_INIT;
/// The GBK encoding.
///
/// ```
/// assert_eq!(textcodec::GBK.name(), "GBK");
/// ```
pub static GBK: &Encoding = &GBK_INIT;
/// The gb18030 encoding.
///
/// ```
/// assert_eq!(textcodec::GB18030.name(), "gb18030");
/// ```
pub static GB18030: &Encoding = &GB18030_INIT;
/// The Big5 encoding.
///
/// ```
/// assert_eq!(textcodec::BIG5.name(), "Big5");
/// ```
pub static BIG5: &Encoding = &BIG5_INIT;
/// The EUC-JP encoding.
///
/// ```
/// assert_eq!(textcodec::EUC_JP.name(), "EUC-JP");
/// ```
pub static EUC_JP: &Encoding = &EUC_JP_INIT;
/// The ISO-2022-JP encoding.
///
/// ```
/// assert_eq!(textcodec::ISO_2022_JP.name(), "ISO-2022-JP");
/// ```
pub static ISO_2022_JP: &Encoding = &ISO_2022_JP_INIT;
/// The Shift_JIS encoding.
///
/// ```
/// assert_eq!(textcodec::SHIFT_JIS.name(), "Shift_JIS");
/// ```
pub static SHIFT_JIS: &Encoding = &SHIFT_JIS_INIT;
/// The EUC-KR encoding.
///
/// ```
/// assert_eq!(textcodec::EUC_KR.name(), "EUC-KR");
/// ```
pub static EUC_KR: &Encoding = &EUC_KR_INIT;
/// The replacement encoding.
///
/// ```
/// assert_eq!(textcodec::REPLACEMENT.name(), "replacement");
/// ```
pub static REPLACEMENT: &Encoding = &REPLACEMENT_INIT;
/// The UTF-16BE encoding.
///
/// ```
/// assert_eq!(textcodec::UTF_16BE.name(), "UTF-16BE");
/// ```
pub static UTF_16BE: &Encoding = &UTF_16BE_INIT;
/// The UTF-16LE encoding.
///
/// ```
/// assert_eq!(textcodec::UTF_16LE.name(), "UTF-16LE");
/// ```
pub static UTF_16LE: &Encoding = &UTF_16LE_INIT;
/// The x-user-defined encoding.
///
/// ```
/// assert_eq!(textcodec::X_USER_DEFINED.name(), "x-user-defined");
/// ```
pub static X_USER_DEFINED: &Encoding = &X_USER_DEFINED_INIT;

/// The 40 encodings in the spec table's order.
static ALL: [&Encoding; 40] = [
    &UTF_8_INIT,
    &IBM866_INIT,
    &ISO_8859_2_INIT,
    &ISO_8859_3_INIT,
    &ISO_8859_4_INIT,
    &ISO_8859_5_INIT,
    &ISO_8859_6_INIT,
    &ISO_8859_7_INIT,
    &ISO_8859_8_INIT,
    &ISO_8859_8_I_INIT,
    &ISO_8859_10_INIT,
    &ISO_8859_13_INIT,
    &ISO_8859_14_INIT,
    &ISO_8859_15_INIT,
    &ISO_8859_16_INIT,
    &KOI8_R_INIT,
    &KOI8_U_INIT,
    &MACINTOSH_INIT,
    &WINDOWS_874_INIT,
    &WINDOWS_1250_INIT,
    &WINDOWS_1251_INIT,
    &WINDOWS_1252_INIT,
    &WINDOWS_1253_INIT,
    &WINDOWS_1254_INIT,
    &WINDOWS_1255_INIT,
    &WINDOWS_1256_INIT,
    &WINDOWS_1257_INIT,
    &WINDOWS_1258_INIT,
    &X_MAC_CYRILLIC_INIT,
    &GBK_INIT,
    &GB18030_INIT,
    &BIG5_INIT,
    &EUC_JP_INIT,
    &ISO_2022_JP_INIT,
    &SHIFT_JIS_INIT,
    &EUC_KR_INIT,
    &REPLACEMENT_INIT,
    &UTF_16BE_INIT,
    &UTF_16LE_INIT,
    &X_USER_DEFINED_INIT,
];

/// ASCII whitespace: TAB, LF, FF, CR and SPACE.
fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// The byte order mark of `encoding`, if it has one.
pub(crate) fn bom_of(encoding: &Encoding) -> &'static [u8] {
    match encoding.kind {
        Kind::Utf8 => b"\xEF\xBB\xBF",
        Kind::Utf16Be => b"\xFE\xFF",
        Kind::Utf16Le => b"\xFF\xFE",
        _ => b"",
    }
}

impl Encoding {
    /// "Get an encoding": the encoding for `label`, after removing leading and trailing ASCII
    /// whitespace and matching ASCII case-insensitively; `None` if it is not a label.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::for_label(b"\tLatin1\n"), Some(textcodec::WINDOWS_1252));
    /// assert_eq!(Encoding::for_label(b"utf-8\x0B"), None); // VT is not ASCII whitespace
    /// ```
    pub fn for_label(label: &[u8]) -> Option<&'static Encoding> {
        let start = label.iter().position(|&b| !is_ascii_whitespace(b))?;
        let end = label.iter().rposition(|&b| !is_ascii_whitespace(b))? + 1;
        let label = &label[start..end];
        if label.len() > LONGEST_LABEL {
            return None;
        }
        let mut buf = [0u8; LONGEST_LABEL];
        let lower = &mut buf[..label.len()];
        lower.copy_from_slice(label);
        lower.make_ascii_lowercase();
        SORTED_LABELS
            .binary_search_by(|(l, _)| l.as_bytes().cmp(lower))
            .ok()
            .map(|i| ALL[SORTED_LABELS[i].1 as usize])
    }

    /// "BOM sniff": the encoding whose byte order mark `bytes` starts with, and the BOM's length.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::for_bom(b"\xFF\xFEa\0"), Some((textcodec::UTF_16LE, 2)));
    /// assert_eq!(Encoding::for_bom(b"\xEF\xBB"), None);
    /// ```
    pub fn for_bom(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
        [UTF_8, UTF_16BE, UTF_16LE].into_iter().find_map(|e| {
            let bom = bom_of(e);
            bytes.starts_with(bom).then_some((e, bom.len()))
        })
    }

    /// The 40 encodings, in the order of the spec's table.
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::all().len(), 40);
    /// assert_eq!(textcodec::Encoding::all()[0], textcodec::UTF_8);
    /// ```
    pub fn all() -> &'static [&'static Encoding] {
        &ALL
    }

    /// The encoding's name, exactly as in the spec (`"Shift_JIS"`, `"windows-1252"`).
    ///
    /// ```
    /// assert_eq!(textcodec::SHIFT_JIS.name(), "Shift_JIS");
    /// ```
    pub fn name(&self) -> &'static str {
        NAMES[self.index as usize]
    }

    /// The encoding's labels, as in the spec (lowercase).
    ///
    /// ```
    /// assert!(textcodec::EUC_KR.labels().contains(&"ks_c_5601-1987"));
    /// ```
    pub fn labels(&self) -> &'static [&'static str] {
        LABELS[self.index as usize]
    }

    /// "Get an output encoding": UTF-8 for replacement, UTF-16BE and UTF-16LE; otherwise the
    /// encoding itself.
    ///
    /// ```
    /// assert_eq!(textcodec::UTF_16LE.output_encoding(), textcodec::UTF_8);
    /// assert_eq!(textcodec::GBK.output_encoding(), textcodec::GBK);
    /// ```
    pub fn output_encoding(&'static self) -> &'static Encoding {
        match self.kind {
            Kind::Replacement | Kind::Utf16Be | Kind::Utf16Le => UTF_8,
            _ => self,
        }
    }

    /// Whether every ASCII byte decodes to the same ASCII code point and back (false only for
    /// UTF-16BE, UTF-16LE, ISO-2022-JP and replacement).
    ///
    /// ```
    /// assert!(textcodec::SHIFT_JIS.is_ascii_compatible());
    /// assert!(!textcodec::ISO_2022_JP.is_ascii_compatible());
    /// ```
    pub fn is_ascii_compatible(&self) -> bool {
        !matches!(
            self.kind,
            Kind::Utf16Be | Kind::Utf16Le | Kind::Iso2022Jp | Kind::Replacement
        )
    }

    /// Whether this encoding is one of the spec's legacy single-byte encodings or
    /// x-user-defined: one byte is one character below U+10000, both ways (encoding_rs's
    /// `is_single_byte`).
    ///
    /// ```
    /// assert!(textcodec::KOI8_R.is_single_byte());
    /// assert!(textcodec::X_USER_DEFINED.is_single_byte());
    /// assert!(!textcodec::UTF_8.is_single_byte() && !textcodec::GBK.is_single_byte());
    /// ```
    pub fn is_single_byte(&self) -> bool {
        matches!(self.kind, Kind::SingleByte(_) | Kind::XUserDefined)
    }

    /// Whether the encoder of this encoding ("get an output encoding" first) can encode every
    /// scalar value: true when the output encoding is UTF-8 (UTF-8, UTF-16BE, UTF-16LE and
    /// replacement), as encoding_rs's `can_encode_everything` says. gb18030 is not among them:
    /// its encoder reports U+E5E5 as an error.
    ///
    /// ```
    /// assert!(textcodec::UTF_16LE.can_encode_everything());
    /// assert!(!textcodec::GB18030.can_encode_everything());
    /// ```
    pub fn can_encode_everything(&'static self) -> bool {
        self.output_encoding() == UTF_8
    }

    /// "Get an encoding", refusing the labels of the replacement encoding (`"iso-2022-kr"`,
    /// `"hz-gb-2312"`...): what the `TextDecoder` constructor does, and encoding_rs's
    /// `for_label_no_replacement`. For a label that falls back to another encoding when it is
    /// unknown, use [`for_label`](Self::for_label): the replacement encoding is there so that
    /// those labels do not fall back.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::for_label_no_replacement(b"latin1"), Some(textcodec::WINDOWS_1252));
    /// assert_eq!(Encoding::for_label_no_replacement(b"iso-2022-kr"), None);
    /// assert_eq!(Encoding::for_label(b"iso-2022-kr"), Some(textcodec::REPLACEMENT));
    /// ```
    pub fn for_label_no_replacement(label: &[u8]) -> Option<&'static Encoding> {
        Encoding::for_label(label).filter(|&e| e != REPLACEMENT)
    }

    /// The length of the longest prefix of `bytes` that is valid UTF-8: the index of the first
    /// byte of the first malformed (or, at the end, incomplete) sequence, or `bytes.len()`
    /// (`core::str::Utf8Error::valid_up_to`, encoding_rs's `Encoding::utf8_valid_up_to`). SIMD.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::utf8_valid_up_to("caf\u{e9}".as_bytes()), 5);
    /// assert_eq!(Encoding::utf8_valid_up_to(b"ab\xE2\x82"), 2); // cut short
    /// assert_eq!(Encoding::utf8_valid_up_to(b"ab\xFFcd"), 2);
    /// ```
    pub fn utf8_valid_up_to(bytes: &[u8]) -> usize {
        crate::simd::valid_utf8_prefix(bytes)
    }

    /// The length of the longest prefix of `bytes` that is ASCII: the index of the first byte
    /// at or above 0x80, or `bytes.len()` (encoding_rs's `Encoding::ascii_valid_up_to`). SIMD.
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::ascii_valid_up_to(b"abc\xE9"), 3);
    /// ```
    pub fn ascii_valid_up_to(bytes: &[u8]) -> usize {
        crate::simd::ascii_len(bytes)
    }

    /// A new streaming decoder for this encoding.
    ///
    /// ```
    /// use textcodec::{DecoderOptions, DecoderErrorMode};
    /// let opts = DecoderOptions { error_mode: DecoderErrorMode::Fatal, ..Default::default() };
    /// let mut d = textcodec::UTF_8.new_decoder(opts);
    /// let mut out = [0u8; 8];
    /// assert!(d.decode_to_utf8(b"a\xFFb", &mut out, true).is_err());
    /// ```
    #[inline]
    pub fn new_decoder(&'static self, options: DecoderOptions) -> Decoder {
        Decoder::new(self, options)
    }

    /// A new streaming encoder; it encodes to [`output_encoding`](Self::output_encoding).
    ///
    /// ```
    /// let e = textcodec::UTF_16BE.new_encoder(Default::default());
    /// assert_eq!(e.encoding(), textcodec::UTF_8);
    /// ```
    #[inline]
    pub fn new_encoder(&'static self, mode: EncoderErrorMode) -> Encoder {
        Encoder::new(self, mode)
    }

    /// A new streaming decoder in replacement mode that removes this encoding's own BOM
    /// ([`BomHandling::Strip`]: only UTF-8, UTF-16LE and UTF-16BE have one); any other BOM is
    /// text. The streaming "UTF-8 decode" for UTF-8; encoding_rs's
    /// `new_decoder_with_bom_removal`.
    ///
    /// ```
    /// let mut d = textcodec::UTF_16LE.new_decoder_with_bom_removal();
    /// let mut text = String::new();
    /// d.decode_to_string(b"\xFF\xFEh\0i\0", &mut text, true).unwrap();
    /// assert_eq!(text, "hi");
    /// ```
    #[inline]
    pub fn new_decoder_with_bom_removal(&'static self) -> Decoder {
        self.new_decoder(DecoderOptions {
            bom: BomHandling::Strip,
            ..DecoderOptions::default()
        })
    }

    /// A new streaming decoder in replacement mode with no BOM handling
    /// ([`BomHandling::Keep`]): a BOM is text (U+FEFF for UTF-8). The streaming "UTF-8 decode
    /// without BOM" for UTF-8; encoding_rs's `new_decoder_without_bom_handling`.
    ///
    /// ```
    /// let mut d = textcodec::UTF_8.new_decoder_without_bom_handling();
    /// let mut text = String::new();
    /// d.decode_to_string(b"\xEF\xBB\xBFhi", &mut text, true).unwrap();
    /// assert_eq!(text, "\u{FEFF}hi");
    /// ```
    #[inline]
    pub fn new_decoder_without_bom_handling(&'static self) -> Decoder {
        self.new_decoder(DecoderOptions {
            bom: BomHandling::Keep,
            ..DecoderOptions::default()
        })
    }
}
