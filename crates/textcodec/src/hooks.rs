//! The spec's "Hooks for standards" and "Legacy hooks for standards", as plain functions named
//! after them. Each borrows its input (`Cow::Borrowed`) when nothing needs to change.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::decoder::{BomHandling, DecodeError, DecoderErrorMode, DecoderOptions};
use crate::encoder::{EncodeError, EncoderErrorMode};
use crate::encoding::Encoding;
use crate::status::Status;
use crate::{ISO_2022_JP, UTF_8};

/// Decodes all of `bytes` with `encoding`'s decoder in replacement mode, after `skip` bytes.
fn decode_all(bytes: &[u8], encoding: &'static Encoding, bom: BomHandling) -> (String, bool) {
    let mut d = encoding.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Replacement,
        bom,
    });
    // The result's capacity is the worst case (as encoding_rs reserves it; memory that is
    // never written is never touched), and `decode_to_string` fills it through a small
    // buffer that stays in L1: zeroing a worst-case buffer up front cost more than the
    // decoding of Latin text (three bytes per input byte, memset below the mmap threshold).
    let max = d
        .max_utf8_buffer_length(bytes.len())
        .expect("input too long");
    let mut text = String::with_capacity(max);
    let p = d
        .decode_to_string(bytes, &mut text, true)
        .expect("replacement mode never fails");
    debug_assert_eq!((p.status, p.read), (Status::InputEmpty, bytes.len()));
    (text, p.replaced)
}

/// `bytes` as text, if it is all ASCII that `encoding`'s decoder maps to itself.
fn ascii_to_itself<'a>(encoding: &'static Encoding, bytes: &'a [u8]) -> Option<&'a str> {
    // Every ASCII-compatible decoder maps ASCII bytes to themselves.
    if !encoding.is_ascii_compatible() {
        return None;
    }
    let text = crate::simd::ascii_str(bytes)?;
    // ISO-2022-JP's ASCII state treats ESC, SO and SI specially.
    if encoding == ISO_2022_JP && bytes.iter().any(|&b| matches!(b, 0x0E | 0x0F | 0x1B)) {
        return None;
    }
    Some(text)
}

/// `bytes` as text, if `encoding`'s decoder maps them to themselves (valid UTF-8 for UTF-8;
/// ASCII it decodes to itself for the others).
fn decodes_to_itself<'a>(encoding: &'static Encoding, bytes: &'a [u8]) -> Option<&'a str> {
    if encoding == UTF_8 {
        return crate::simd::str_from_utf8(bytes);
    }
    ascii_to_itself(encoding, bytes)
}

/// "decode": BOM sniffing, then `fallback`'s decoder (or the BOM's) in replacement mode.
///
/// Returns the text, the encoding actually used, and whether any malformed sequence was
/// replaced with U+FFFD.
///
/// ```
/// use textcodec::{decode, UTF_16LE, WINDOWS_1252};
/// let (text, used, replaced) = decode(b"caf\xE9", WINDOWS_1252);
/// assert_eq!((&*text, used, replaced), ("café", WINDOWS_1252, false));
/// let (text, used, _) = decode(b"\xFF\xFEh\0i\0", WINDOWS_1252); // the BOM wins
/// assert_eq!((&*text, used), ("hi", UTF_16LE));
/// ```
pub fn decode<'a>(
    bytes: &'a [u8],
    fallback: &'static Encoding,
) -> (Cow<'a, str>, &'static Encoding, bool) {
    let (encoding, skip) = Encoding::for_bom(bytes).unwrap_or((fallback, 0));
    let rest = &bytes[skip..];
    if let Some(text) = decodes_to_itself(encoding, rest) {
        return (Cow::Borrowed(text), encoding, false);
    }
    let (text, replaced) = decode_all(rest, encoding, BomHandling::Keep);
    (Cow::Owned(text), encoding, replaced)
}

/// "UTF-8 decode": removes a leading UTF-8 BOM, then decodes as UTF-8 in replacement mode.
///
/// ```
/// assert_eq!(textcodec::utf8_decode(b"\xEF\xBB\xBFa\xFFb"), "a\u{FFFD}b");
/// ```
pub fn utf8_decode(bytes: &[u8]) -> Cow<'_, str> {
    utf8_decode_without_bom(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

/// "UTF-8 decode without BOM": decodes as UTF-8 in replacement mode; a BOM is kept as U+FEFF.
///
/// ```
/// assert_eq!(textcodec::utf8_decode_without_bom(b"\xEF\xBB\xBFa"), "\u{FEFF}a");
/// ```
pub fn utf8_decode_without_bom(bytes: &[u8]) -> Cow<'_, str> {
    match crate::simd::str_from_utf8(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(decode_all(bytes, UTF_8, BomHandling::Keep).0),
    }
}

/// "UTF-8 decode without BOM" then Infra's "isomorphic encode" (each code point as the byte of
/// its value), over the longest prefix of `src` whose characters are all below U+0100 and fit
/// in `dst`: how a program that keeps such text one byte per character (as Python's strings
/// do) decodes it without a second copy. Returns (bytes read, bytes written); stops before
/// the first character at or above U+0100 and before any malformed or incomplete sequence
/// (which the caller then decodes otherwise). `dst` is untouched past the bytes written.
///
/// ```
/// let mut buf = [0u8; 16];
/// let (read, written) = textcodec::utf8_to_isomorphic("Größe €1".as_bytes(), &mut buf);
/// assert_eq!((read, &buf[..written]), (8, &b"Gr\xF6\xDFe "[..]));
/// ```
pub fn utf8_to_isomorphic(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    crate::simd::utf8_to_isomorphic(src, dst)
}

/// "UTF-8 decode without BOM or fail": the text if `bytes` is entirely valid UTF-8; otherwise
/// the first malformed sequence (`written`: the valid bytes before it; `read`: through it).
///
/// ```
/// assert_eq!(textcodec::utf8_decode_without_bom_or_fail(b"ok"), Ok("ok"));
/// let e = textcodec::utf8_decode_without_bom_or_fail(b"ab\xE2\x82").unwrap_err();
/// assert_eq!((e.written, e.read), (2, 4));
/// ```
pub fn utf8_decode_without_bom_or_fail(bytes: &[u8]) -> Result<&str, DecodeError> {
    if let Some(s) = crate::simd::str_from_utf8(bytes) {
        return Ok(s);
    }
    // Malformed: the standard library's validator tells the length of the bad sequence.
    match core::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let valid = e.valid_up_to();
            // The spec's decoder consumes the longest prefix of a valid sequence (and the
            // first byte of an invalid one), exactly what `error_len` reports; at the end of
            // the input it consumes the rest.
            let read = valid + e.error_len().unwrap_or(bytes.len() - valid);
            Err(DecodeError {
                read,
                written: valid,
            })
        }
    }
}

/// Encodes all of `text` with `encoding`'s encoder in `mode`.
fn encode_all(
    text: &str,
    encoding: &'static Encoding,
    mode: EncoderErrorMode,
) -> Result<(Vec<u8>, bool), EncodeError> {
    let mut e = encoding.new_encoder(mode);
    // Through a small buffer that stays in L1 into the result, reserved for the common case
    // (no character references: at most the input's length plus, for ISO-2022-JP and
    // gb18030, some slack) and grown if need be. A zeroed worst-case buffer (ten bytes per
    // character in HTML mode) cost more to clear than the encoding of the text.
    let mut out = Vec::with_capacity(text.len() + text.len() / 8 + 16);
    let mut buf = [0u8; 8192];
    let mut read = 0;
    let mut replaced = false;
    loop {
        let p = match e.encode_from_utf8(&text[read..], &mut buf, true) {
            Ok(p) => p,
            Err(err) => {
                out.extend_from_slice(&buf[..err.written]);
                return Err(EncodeError {
                    read: read + err.read,
                    written: out.len(),
                    unmappable: err.unmappable,
                });
            }
        };
        out.extend_from_slice(&buf[..p.written]);
        read += p.read;
        replaced |= p.replaced;
        if p.status == Status::InputEmpty {
            debug_assert_eq!(read, text.len());
            return Ok((out, replaced));
        }
    }
}

/// Whether `encoding`'s encoder maps `text` to its own bytes.
fn encodes_to_itself(encoding: &'static Encoding, text: &str) -> bool {
    encoding == UTF_8 || ascii_to_itself(encoding, text.as_bytes()).is_some()
}

/// "encode" (the legacy hook for HTML forms), with "get an output encoding" applied first:
/// unmappable characters become `&#NNNN;`.
///
/// Returns the bytes, the encoding they are in, and whether any character was replaced.
///
/// ```
/// use textcodec::{encode, SHIFT_JIS, UTF_16LE, UTF_8};
/// let (bytes, used, replaced) = encode("aé", SHIFT_JIS);
/// assert_eq!((&*bytes, used, replaced), (&b"a&#233;"[..], SHIFT_JIS, true));
/// assert_eq!(encode("x", UTF_16LE).1, UTF_8);
/// ```
pub fn encode<'a>(
    text: &'a str,
    encoding: &'static Encoding,
) -> (Cow<'a, [u8]>, &'static Encoding, bool) {
    let encoding = encoding.output_encoding();
    if encodes_to_itself(encoding, text) {
        return (Cow::Borrowed(text.as_bytes()), encoding, false);
    }
    let (bytes, replaced) =
        encode_all(text, encoding, EncoderErrorMode::Html).expect("html mode never fails");
    (Cow::Owned(bytes), encoding, replaced)
}

/// "encode or fail": encodes `text` to `encoding`'s output encoding, or reports the first
/// character it cannot represent (`read` includes it). For a stream that continues after an
/// error (URL percent-encoding), use an [`Encoder`](crate::Encoder) in fatal mode.
///
/// ```
/// use textcodec::{encode_or_fail, EUC_KR};
/// assert_eq!(&*encode_or_fail("abc", EUC_KR).unwrap(), b"abc");
/// let error = encode_or_fail("a¥", EUC_KR).unwrap_err();
/// assert_eq!((error.unmappable, error.read, error.written), ('¥', 3, 1));
/// ```
pub fn encode_or_fail<'a>(
    text: &'a str,
    encoding: &'static Encoding,
) -> Result<Cow<'a, [u8]>, EncodeError> {
    let encoding = encoding.output_encoding();
    if encodes_to_itself(encoding, text) {
        return Ok(Cow::Borrowed(text.as_bytes()));
    }
    encode_all(text, encoding, EncoderErrorMode::Fatal).map(|(bytes, _)| Cow::Owned(bytes))
}

/// The whole-input conversions of encoding_rs, as methods of [`Encoding`]: each is one of the
/// hooks above (or its fatal or BOM-removing variant) with the same meaning, so that code written
/// for encoding_rs compiles unchanged. Like the hooks they borrow the input when nothing needs to
/// change.
impl Encoding {
    /// "decode" ([`decode`]) as a method: BOM sniffing, then this encoding's decoder in
    /// replacement mode. Returns the text, the encoding used (the BOM's, if any) and whether a
    /// malformed sequence became U+FFFD. encoding_rs's `Encoding::decode`.
    ///
    /// ```
    /// let (text, used, had_errors) = textcodec::WINDOWS_1252.decode(b"caf\xE9");
    /// assert_eq!((&*text, used, had_errors), ("café", textcodec::WINDOWS_1252, false));
    /// ```
    pub fn decode<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, &'static Encoding, bool) {
        decode(bytes, self)
    }

    /// Decodes all of `bytes` in replacement mode after removing this encoding's own BOM, if
    /// `bytes` starts with it (UTF-8, UTF-16LE and UTF-16BE have one; any other BOM is decoded
    /// as text). "UTF-8 decode" for UTF-8 ([`utf8_decode`]). Returns the text and whether a
    /// malformed sequence became U+FFFD. encoding_rs's `Encoding::decode_with_bom_removal`.
    ///
    /// ```
    /// let (text, had_errors) = textcodec::UTF_8.decode_with_bom_removal(b"\xEF\xBB\xBFa\xFF");
    /// assert_eq!((&*text, had_errors), ("a\u{FFFD}", true));
    /// // Only this encoding's BOM: a UTF-16LE BOM is windows-1252 text.
    /// assert_eq!(textcodec::WINDOWS_1252.decode_with_bom_removal(b"\xFF\xFEa").0, "ÿþa");
    /// ```
    pub fn decode_with_bom_removal<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, bool) {
        let bom = crate::encoding::bom_of(self);
        self.decode_without_bom_handling(bytes.strip_prefix(bom).unwrap_or(bytes))
    }

    /// Decodes all of `bytes` in replacement mode with no BOM handling (a BOM is text: U+FEFF
    /// for UTF-8). "UTF-8 decode without BOM" for UTF-8 ([`utf8_decode_without_bom`]). Returns
    /// the text and whether a malformed sequence became U+FFFD. encoding_rs's
    /// `Encoding::decode_without_bom_handling`.
    ///
    /// ```
    /// let (text, had_errors) = textcodec::SHIFT_JIS.decode_without_bom_handling(b"\x82\xa0");
    /// assert_eq!((&*text, had_errors), ("あ", false));
    /// ```
    pub fn decode_without_bom_handling<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, bool) {
        if let Some(text) = decodes_to_itself(self, bytes) {
            return (Cow::Borrowed(text), false);
        }
        let (text, replaced) = decode_all(bytes, self, BomHandling::Keep);
        (Cow::Owned(text), replaced)
    }

    /// Decodes all of `bytes` in fatal mode with no BOM handling: `None` if any byte sequence
    /// is malformed. "UTF-8 decode without BOM or fail" for UTF-8
    /// ([`utf8_decode_without_bom_or_fail`], which also says where). encoding_rs's
    /// `Encoding::decode_without_bom_handling_and_without_replacement`.
    ///
    /// ```
    /// let euc_kr = textcodec::EUC_KR;
    /// assert_eq!(euc_kr.decode_without_bom_handling_and_without_replacement(b"\xC7\xD1").as_deref(), Some("한"));
    /// assert_eq!(euc_kr.decode_without_bom_handling_and_without_replacement(b"\xC7"), None);
    /// ```
    pub fn decode_without_bom_handling_and_without_replacement<'a>(
        &'static self,
        bytes: &'a [u8],
    ) -> Option<Cow<'a, str>> {
        if let Some(text) = decodes_to_itself(self, bytes) {
            return Some(Cow::Borrowed(text));
        }
        if self == UTF_8 {
            // `decodes_to_itself` checked all of it.
            return None;
        }
        let mut d = self.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Keep,
        });
        // `decode_to_string` grows the string if the worst case does not fit in a `usize`.
        let max = d.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len());
        let mut text = String::with_capacity(max);
        d.decode_to_string(bytes, &mut text, true).ok()?;
        Some(Cow::Owned(text))
    }

    /// "encode" ([`encode`]) as a method: encodes all of `string` to this encoding's output
    /// encoding, unmappable characters as `&#NNNN;`. Returns the bytes, the encoding they are
    /// in (UTF-8 for UTF-16BE, UTF-16LE and replacement) and whether a character was replaced.
    /// encoding_rs's `Encoding::encode`.
    ///
    /// ```
    /// let (bytes, used, replaced) = textcodec::EUC_KR.encode("한 ☃");
    /// assert_eq!((&*bytes, used, replaced), (&b"\xC7\xD1 &#9731;"[..], textcodec::EUC_KR, true));
    /// ```
    pub fn encode<'a>(&'static self, string: &'a str) -> (Cow<'a, [u8]>, &'static Encoding, bool) {
        encode(string, self)
    }
}
