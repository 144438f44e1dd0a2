//! The HTML Standard's encoding sniffing algorithm and the declarations it reads, step by
//! step:
//!
//! - [`prescan`] is "prescan a byte stream to determine its encoding", with "get an attribute"
//!   and "get an XML encoding"
//!   (<https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding>);
//! - [`extract_meta_charset`] is "algorithm for extracting a character encoding from a `meta`
//!   element"
//!   (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element>);
//! - [`charset_from_content_type`] is Fetch's "legacy extract an encoding" of the MIME type that
//!   "extract a MIME type" finds in a `Content-Type` value
//!   (<https://fetch.spec.whatwg.org/#legacy-extract-an-encoding>,
//!   <https://fetch.spec.whatwg.org/#concept-header-extract-mime-type>), through "get, decode,
//!   and split" (<https://fetch.spec.whatwg.org/#header-value-get-decode-and-split>), "collect
//!   an HTTP quoted string" (<https://fetch.spec.whatwg.org/#collect-an-http-quoted-string>)
//!   and MIME Sniffing's "parse a MIME type"
//!   (<https://mimesniff.spec.whatwg.org/#parse-a-mime-type>);
//! - [`sniff_html`] is the "encoding sniffing algorithm"
//!   (<https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm>).
//!
//! The steps are transcribed from the HTML Standard's source as of
//! <https://github.com/whatwg/html/blob/12879d61087b1067fe6f5d5bdceda9aa532b22b4/source> (a
//! copy of the whatwg/html `source` file at that commit) and from the Fetch Standard and MIME
//! Sniffing Standard as published; each step below is cited by its algorithm's name.
//!
//! Where implementations read the text differently, this module follows the text:
//!
//! - "get an XML encoding" looks for `encoding` anywhere after `<?xml`, also past the `>` that
//!   ends the declaration (the algorithm computes `xmlDeclarationEnd` and never uses it).
//!   Gecko, Blink and WebKit stop at that `>`; the spec's editors call the text a bug
//!   (<https://github.com/whatwg/html/issues/6939>). Pages where it matters have
//!   `<?xml ...?>`, no `<meta>` declaration, and the word `encoding="..."` after it.
//! - The prescan does not know `<script>`, `<style>` or `<textarea>`: a `<meta charset>` written
//!   inside a script's text is read as any other. Blink's `HTMLMetaCharsetParser` runs its
//!   tokenizer and skips script text; Gecko's `nsHtml5MetaScanner` and the spec do not.
//! - html5lib's `ContentAttrParser` ends an unquoted `charset=` value at whitespace only; the
//!   "algorithm for extracting a character encoding from a meta element" also ends it at `;`.
//!   html5lib also stops at the first `charset` not followed by `=`; the algorithm looks for the
//!   next one.
//! - A `<meta charset>` that names the replacement encoding (`iso-2022-kr`, `hz-gb-2312`, ...)
//!   gives the replacement encoding: "get an encoding" returns it, and the prescan only maps
//!   UTF-16BE/LE and x-user-defined. Gecko does the same.

use super::{Confidence, Detector, Sniffed, Source};
use crate::{Encoding, ISO_2022_JP, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};
use alloc::vec::Vec;
use core::ops::Range;

/// How many bytes [`sniff_html`] gives the prescan: "User agents are encouraged to only
/// prescan the first 1024 bytes."
pub const PRESCAN_BYTES: usize = 1024;

/// The bytes being scanned. Every look at a byte goes through [`Input::at`], which (in test
/// builds) counts it, so that tests can check that the work is linear in the input's length.
struct Input<'a> {
    bytes: &'a [u8],
    #[cfg(test)]
    work: core::cell::Cell<usize>,
}

impl<'a> Input<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Input {
            bytes,
            #[cfg(test)]
            work: core::cell::Cell::new(0),
        }
    }

    /// The byte at `position`; `None` past the end, where the prescan "runs out of bytes".
    #[inline]
    fn at(&self, position: usize) -> Option<u8> {
        #[cfg(test)]
        self.work.set(self.work.get() + 1);
        self.bytes.get(position).copied()
    }

    /// Whether the bytes at `position` start with `pattern`.
    fn starts_with_at(&self, position: usize, pattern: &[u8]) -> bool {
        pattern
            .iter()
            .enumerate()
            .all(|(i, &p)| self.at(position + i) == Some(p))
    }

    /// The first position at or after `from` whose byte satisfies `f`.
    fn find(&self, from: usize, f: impl Fn(u8) -> bool) -> Option<usize> {
        let mut p = from;
        loop {
            if f(self.at(p)?) {
                return Some(p);
            }
            p += 1;
        }
    }
}

/// 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP): the prescan's spaces, which are
/// Infra's "ASCII whitespace".
fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// What "get an attribute" found: the attribute's name and value, as ranges of the input. The
/// algorithm lowercases both (A-Z only); the caller compares them ASCII case-insensitively,
/// which is the same.
struct Attribute {
    name: Range<usize>,
    value: Range<usize>,
}

/// Why the prescan stopped without an encoding: it "runs out of bytes".
struct OutOfBytes;

/// HTML: "get an attribute", from `position`. `Ok(None)` when there isn't one (a `>`, where
/// `position` is left).
fn get_attribute(input: &Input, position: &mut usize) -> Result<Option<Attribute>, OutOfBytes> {
    let at = |p: usize| input.at(p).ok_or(OutOfBytes);
    let attribute = |name: Range<usize>, value: Range<usize>| Ok(Some(Attribute { name, value }));
    // 1. "If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR),
    //    0x20 (SP), or 0x2F (/) then advance position to the next byte and redo this step."
    while is_space(at(*position)?) || at(*position)? == b'/' {
        *position += 1;
    }
    // 2. "If the byte at position is 0x3E (>), then abort the get an attribute algorithm.
    //    There isn't one."
    if at(*position)? == b'>' {
        return Ok(None);
    }
    // 3. "Otherwise, the byte at position is the start of the attribute name. Let attribute
    //    name and attribute value be the empty string."
    let name_start = *position;
    // 4. "Process the byte at position as follows", 5. "Advance position to the next byte and
    //    return to the previous step."
    loop {
        match at(*position)? {
            // "If it is 0x3D (=), and the attribute name is longer than the empty string":
            // "Advance position to the next byte and jump to the step below labeled value."
            b'=' if *position > name_start => {
                let name = name_start..*position;
                *position += 1;
                return get_attribute_value(input, position, name);
            }
            // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), or 0x20 (SP)": "Jump to
            // the step below labeled spaces."
            b if is_space(b) => break,
            // "If it is 0x2F (/) or 0x3E (>)": "Abort the get an attribute algorithm. The
            // attribute's name is the value of attribute name, its value is the empty string."
            b'/' | b'>' => return attribute(name_start..*position, *position..*position),
            // "If it is in the range 0x41 (A) to 0x5A (Z)": append it lowercased; "Anything
            // else": append it.
            _ => {}
        }
        *position += 1;
    }
    let name = name_start..*position;
    // 6. "Spaces: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D
    //    (CR), or 0x20 (SP) then advance position to the next byte, then, repeat this step."
    while is_space(at(*position)?) {
        *position += 1;
    }
    // 7. "If the byte at position is not 0x3D (=), abort the get an attribute algorithm. The
    //    attribute's name is the value of attribute name, its value is the empty string."
    if at(*position)? != b'=' {
        return attribute(name, *position..*position);
    }
    // 8. "Advance position past the 0x3D (=) byte."
    *position += 1;
    get_attribute_value(input, position, name)
}

/// HTML: "get an attribute", from the step labeled "value".
fn get_attribute_value(
    input: &Input,
    position: &mut usize,
    name: Range<usize>,
) -> Result<Option<Attribute>, OutOfBytes> {
    let at = |p: usize| input.at(p).ok_or(OutOfBytes);
    let attribute = |value: Range<usize>| Ok(Some(Attribute { name, value }));
    // 9. "Value: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR),
    //    or 0x20 (SP) then advance position to the next byte, then, repeat this step."
    while is_space(at(*position)?) {
        *position += 1;
    }
    // 10. "Process the byte at position as follows:"
    match at(*position)? {
        // "If it is 0x22 (") or 0x27 (')":
        quote @ (b'"' | b'\'') => {
            // 1. "Let b be the value of the byte at position."
            let start = *position + 1;
            loop {
                // 2. "Quote loop: Advance position to the next byte."
                *position += 1;
                // 3. "If the value of the byte at position is the value of b, then advance
                //    position to the next byte and abort the "get an attribute" algorithm.
                //    The attribute's name is the value of attribute name, and its value is
                //    the value of attribute value."
                if at(*position)? == quote {
                    let value = start..*position;
                    *position += 1;
                    return attribute(value);
                }
                // 4., 5. Append the byte (lowercased if A-Z) to attribute value; 6. "Return
                // to the step above labeled quote loop."
            }
        }
        // "If it is 0x3E (>)": "Abort the get an attribute algorithm. The attribute's name is
        // the value of attribute name, its value is the empty string."
        b'>' => attribute(*position..*position),
        // "If it is in the range 0x41 (A) to 0x5A (Z)", "Anything else": append it to
        // attribute value (lowercased if A-Z) and advance position to the next byte.
        _ => {
            let start = *position;
            *position += 1;
            // 11. "Process the byte at position as follows:", 12. "Advance position to the
            //     next byte and return to the previous step."
            loop {
                match at(*position)? {
                    // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or
                    // 0x3E (>)": "Abort the get an attribute algorithm. The attribute's name
                    // is the value of attribute name and its value is the value of attribute
                    // value."
                    b if is_space(b) || b == b'>' => return attribute(start..*position),
                    // "If it is in the range 0x41 (A) to 0x5A (Z)", "Anything else": append.
                    _ => *position += 1,
                }
            }
        }
    }
}

/// The bits of the prescan's "attribute list" that matter: only `http-equiv`, `content` and
/// `charset` have a step, so a name seen twice matters only for them.
const HTTP_EQUIV: u8 = 1;
const CONTENT: u8 = 2;
const CHARSET: u8 = 4;

/// HTML: "prescan a byte stream to determine its encoding", the steps themselves: an encoding
/// and whether a UTF-16 XML declaration or a `<meta>` gave it, or [`OutOfBytes`] where the
/// algorithm is aborted (it has no other way to end).
fn prescan_steps(input: &Input) -> Result<(&'static Encoding, Source), OutOfBytes> {
    let bytes = input.bytes;
    let at = |p: usize| input.at(p).ok_or(OutOfBytes);
    // 1. "Let position be a pointer to a byte in the input byte stream, initially pointing at
    //    the first byte."
    let mut position = 0;
    // 2. "Prescan for UTF-16 XML declarations: If position points to:"
    //    "A sequence of bytes starting with: 0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0 (case-sensitive
    //    UTF-16 little-endian '<?x')": "Return UTF-16LE."
    if input.starts_with_at(0, &[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Ok((UTF_16LE, Source::XmlDeclaration));
    }
    //    "A sequence of bytes starting with: 0x0, 0x3C, 0x0, 0x3F, 0x0, 0x78 (case-sensitive
    //    UTF-16 big-endian '<?x')": "Return UTF-16BE."
    if input.starts_with_at(0, &[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Ok((UTF_16BE, Source::XmlDeclaration));
    }
    loop {
        // 3. "Loop: If position points to:"
        if at(position)? == b'<' {
            let next = input.at(position + 1);
            if input.starts_with_at(position, b"<!--") {
                // "A sequence of bytes starting with: 0x3C 0x21 0x2D 0x2D (`<!--`)": "Advance
                // the position pointer so that it points at the first 0x3E byte which is
                // preceded by two 0x2D bytes (i.e. at the end of an ASCII '-->' sequence) and
                // comes after the 0x3C byte that was found. (The two 0x2D bytes can be the
                // same as those in the '<!--' sequence.)"
                let mut p = position + 4;
                while !(at(p)? == b'>' && bytes[p - 1] == b'-' && bytes[p - 2] == b'-') {
                    p += 1;
                }
                position = p;
            } else if is_meta_start(input, position) {
                // "A sequence of bytes starting with: 0x3C, 0x4D or 0x6D, 0x45 or 0x65, 0x54
                // or 0x74, 0x41 or 0x61, and one of 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F
                // (case-insensitive ASCII '<meta' followed by a space or slash)":
                if let Some(found) = prescan_meta(input, &mut position)? {
                    return Ok((found, Source::Prescan));
                }
            } else if next.is_some_and(|b| b.is_ascii_alphabetic())
                || (next == Some(b'/')
                    && input
                        .at(position + 2)
                        .is_some_and(|b| b.is_ascii_alphabetic()))
            {
                // "A sequence of bytes starting with a 0x3C byte (<), optionally a 0x2F byte
                // (/), and finally a byte in the range 0x41-0x5A or 0x61-0x7A (A-Z or a-z)":
                // 1. "Advance the position pointer so that it points at the next 0x09 (HT),
                //    0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>) byte."
                position = input
                    .find(position, |b| is_space(b) || b == b'>')
                    .ok_or(OutOfBytes)?;
                // 2. "Repeatedly get an attribute until no further attributes can be found,
                //    then jump to the step below labeled next byte."
                while get_attribute(input, &mut position)?.is_some() {}
            } else if matches!(next, Some(b'!' | b'/' | b'?')) {
                // "A sequence of bytes starting with: 0x3C 0x21 (`<!`)", "... 0x3C 0x2F
                // (`</`)", "... 0x3C 0x3F (`<?`)": "Advance the position pointer so that it
                // points at the first 0x3E byte (>) that comes after the 0x3C byte that was
                // found."
                position = input.find(position + 1, |b| b == b'>').ok_or(OutOfBytes)?;
            }
            // "Any other byte": "Do nothing with that byte."
        }
        // 4. "Next byte: Move position so it points at the next byte in the input byte
        //    stream, and return to the step above labeled loop."
        position += 1;
    }
}

/// Whether `<meta` followed by a space or slash (ASCII case-insensitive) starts at `position`.
fn is_meta_start(input: &Input, position: usize) -> bool {
    let lower = |p: usize| input.at(p).map(|b| b.to_ascii_lowercase());
    lower(position + 1) == Some(b'm')
        && lower(position + 2) == Some(b'e')
        && lower(position + 3) == Some(b't')
        && lower(position + 4) == Some(b'a')
        && input
            .at(position + 5)
            .is_some_and(|b| is_space(b) || b == b'/')
}

/// The prescan's steps for a `<meta` at `position`: the encoding it declares, or `None` with
/// `position` at the `>` that ends it.
fn prescan_meta(
    input: &Input,
    position: &mut usize,
) -> Result<Option<&'static Encoding>, OutOfBytes> {
    let bytes = input.bytes;
    // 1. "Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C, 0x0D,
    //    0x20, or 0x2F byte (the one in sequence of characters matched above)."
    *position += 5;
    // 2. "Let attribute list be an empty list of strings."
    let mut attribute_list = 0u8;
    // 3. "Let got pragma be false."
    let mut got_pragma = false;
    // 4. "Let need pragma be null."
    let mut need_pragma: Option<bool> = None;
    // 5. "Let charset be the null value (which, for the purposes of this algorithm, is
    //    distinct from an unrecognized encoding or the empty string)." None is null,
    //    Some(None) failure.
    let mut charset: Option<Option<&'static Encoding>> = None;
    // 6. "Attributes: Get an attribute and its value. If no attribute was sniffed, then jump
    //    to the processing step below."
    while let Some(attribute) = get_attribute(input, position)? {
        let name = &bytes[attribute.name];
        let value = &bytes[attribute.value];
        let bit = if name.eq_ignore_ascii_case(b"http-equiv") {
            HTTP_EQUIV
        } else if name.eq_ignore_ascii_case(b"content") {
            CONTENT
        } else if name.eq_ignore_ascii_case(b"charset") {
            CHARSET
        } else {
            // Other names are added to the attribute list, where nothing ever looks for them.
            continue;
        };
        // 7. "If the attribute's name is already in attribute list, then return to the step
        //    labeled attributes."
        if attribute_list & bit != 0 {
            continue;
        }
        // 8. "Add the attribute's name to attribute list."
        attribute_list |= bit;
        // 9. "Run the appropriate step from the following list, if one applies:"
        match bit {
            // "If the attribute's name is "http-equiv"": "If the attribute's value is
            // "content-type", then set got pragma to true."
            HTTP_EQUIV => {
                if value.eq_ignore_ascii_case(b"content-type") {
                    got_pragma = true;
                }
            }
            // "If the attribute's name is "content"": "Apply the algorithm for extracting a
            // character encoding from a meta element, giving the attribute's value as the
            // string to parse. If a character encoding is returned, and if charset is still
            // set to null, let charset be the encoding returned, and set need pragma to true."
            CONTENT => {
                if let Some(encoding) = extract_meta_charset(value) {
                    if charset.is_none() {
                        charset = Some(Some(encoding));
                        need_pragma = Some(true);
                    }
                }
            }
            // "If the attribute's name is "charset"": "Let charset be the result of getting an
            // encoding from the attribute's value, and set need pragma to false."
            _ => {
                charset = Some(Encoding::for_label(value));
                need_pragma = Some(false);
            }
        }
        // 10. "Return to the step labeled attributes."
    }
    // 11. "Processing: If need pragma is null, then jump to the step below labeled next byte."
    let Some(need_pragma) = need_pragma else {
        return Ok(None);
    };
    // 12. "If need pragma is true but got pragma is false, then jump to the step below labeled
    //     next byte."
    if need_pragma && !got_pragma {
        return Ok(None);
    }
    // 13. "If charset is failure, then jump to the step below labeled next byte."
    let Some(Some(mut charset)) = charset else {
        return Ok(None);
    };
    // 14. "If charset is UTF-16BE/LE, then set charset to UTF-8."
    if charset == UTF_16BE || charset == UTF_16LE {
        charset = UTF_8;
    }
    // 15. "If charset is x-user-defined, then set charset to windows-1252."
    if charset == X_USER_DEFINED {
        charset = WINDOWS_1252;
    }
    // 16. "Return charset."
    Ok(Some(charset))
}

/// HTML: "get an XML encoding", run "when the prescan a byte stream to determine its encoding
/// algorithm is aborted without returning an encoding".
fn get_xml_encoding(input: &Input) -> Option<&'static Encoding> {
    let bytes = input.bytes;
    // 1. "Let encodingPosition be a pointer to the start of the stream."
    let mut position = 0;
    // 2. "If encodingPosition does not point to the start of a byte sequence 0x3C, 0x3F, 0x78,
    //    0x6D, 0x6C (`<?xml`), then return failure."
    if !input.starts_with_at(position, b"<?xml") {
        return None;
    }
    // 3. "Let xmlDeclarationEnd be a pointer to the next byte in the input byte stream which
    //    is 0x3E (>). If there is no such byte, then return failure."
    let _xml_declaration_end = input.find(position, |b| b == b'>')?;
    // 4. "Set encodingPosition to the position of the first occurrence of the subsequence of
    //    bytes 0x65, 0x6E, 0x63, 0x6F, 0x64, 0x69, 0x6E, 0x67 (`encoding`) at or after the
    //    current encodingPosition. If there is no such sequence, then return failure."
    //    (Not limited to the bytes before xmlDeclarationEnd: see the module's documentation.)
    while !input.starts_with_at(position, b"encoding") {
        input.at(position)?;
        position += 1;
    }
    // 5. "Advance encodingPosition past the 0x67 (g) byte."
    position += b"encoding".len();
    // 6. "While the byte at encodingPosition is less than or equal to 0x20 (i.e., it is either
    //    an ASCII space or control character), advance encodingPosition to the next byte."
    while input.at(position)? <= 0x20 {
        position += 1;
    }
    // 7. "If the byte at encodingPosition is not 0x3D (=), then return failure."
    if input.at(position)? != b'=' {
        return None;
    }
    // 8. "Advance encodingPosition to the next byte."
    position += 1;
    // 9. "While the byte at encodingPosition is less than or equal to 0x20 ..., advance
    //    encodingPosition to the next byte."
    while input.at(position)? <= 0x20 {
        position += 1;
    }
    // 10. "Let quoteMark be the byte at encodingPosition."
    let quote_mark = input.at(position)?;
    // 11. "If quoteMark is not either 0x22 (") or 0x27 ('), then return failure."
    if quote_mark != b'"' && quote_mark != b'\'' {
        return None;
    }
    // 12. "Advance encodingPosition to the next byte."
    position += 1;
    // 13. "Let encodingEndPosition be the position of the next occurrence of quoteMark at or
    //     after encodingPosition. If quoteMark does not occur again, then return failure."
    let encoding_end_position = input.find(position, |b| b == quote_mark)?;
    // 14. "Let potentialEncoding be the sequence of the bytes between encodingPosition
    //     (inclusive) and encodingEndPosition (exclusive)."
    let potential_encoding = &bytes[position..encoding_end_position];
    // 15. "If potentialEncoding contains one or more bytes whose byte value is 0x20 or below,
    //     then return failure."
    if potential_encoding.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // 16. "Let encoding be the result of getting an encoding given potentialEncoding
    //     isomorphic decoded."
    let mut encoding = Encoding::for_label(potential_encoding)?;
    // 17. "If the encoding is UTF-16BE/LE, then change it to UTF-8."
    if encoding == UTF_16BE || encoding == UTF_16LE {
        encoding = UTF_8;
    }
    // 18. "Return encoding."
    Some(encoding)
}

/// HTML: "prescan a byte stream to determine its encoding", whole: its steps, and "get an XML
/// encoding" applied to the same bytes where they are aborted. The encoding and the kind of
/// declaration that gave it.
pub(crate) fn prescan_declaration(bytes: &[u8]) -> Option<(&'static Encoding, Source)> {
    let input = Input::new(bytes);
    prescan_in(&input)
}

fn prescan_in(input: &Input) -> Option<(&'static Encoding, Source)> {
    // "If at any point during these steps (including during instances of the get an attribute
    // algorithm invoked by this one) the user agent either runs out of bytes ... or reaches
    // its end condition, then abort the prescan a byte stream to determine its encoding
    // algorithm and return the result get an XML encoding applied to the same bytes that the
    // prescan a byte stream to determine its encoding algorithm was applied to. Otherwise,
    // these steps will return a character encoding."
    match prescan_steps(input) {
        Ok(found) => Some(found),
        Err(OutOfBytes) => get_xml_encoding(input).map(|e| (e, Source::XmlDeclaration)),
    }
}

/// HTML: "prescan a byte stream to determine its encoding", over all of `bytes` (the end
/// condition is their end; [`sniff_html`] passes the first [`PRESCAN_BYTES`]).
///
/// Finds the encoding that a `<meta charset>` or `<meta http-equiv="Content-Type"
/// content="...; charset=...">` declares, skipping comments and the attributes of other tags;
/// failing that, the encoding of an XML declaration (`<?xml ... encoding="..."`) at the very
/// start. UTF-16BE/LE declared in a `<meta>` or an XML declaration become UTF-8 (the bytes were
/// read as ASCII, so they are not UTF-16), and x-user-defined declared in a `<meta>` becomes
/// windows-1252, as the algorithm says; bytes that start with `<?x` in UTF-16 are UTF-16.
/// `None` where nothing declares an encoding. The result is tentative: a browser would confirm
/// it while parsing.
///
/// ```
/// use textcodec::detect::prescan;
/// assert_eq!(prescan(b"<!doctype html><meta charset=shift_jis>"), Some(textcodec::SHIFT_JIS));
/// assert_eq!(
///     prescan(b"<meta http-equiv=Content-Type content='text/html; charset=euc-kr'>"),
///     Some(textcodec::EUC_KR)
/// );
/// // Only http-equiv="Content-Type" makes the content attribute count.
/// assert_eq!(prescan(b"<meta content='text/html; charset=euc-kr'>"), None);
/// // Comments are skipped, and a tag must end for its declaration to count.
/// assert_eq!(prescan(b"<!-- <meta charset=big5> --><p>"), None);
/// assert_eq!(prescan(b"<meta charset=big5"), None);
/// assert_eq!(prescan(b"<meta charset=utf-16>"), Some(textcodec::UTF_8));
/// assert_eq!(prescan(b"<?xml version='1.0' encoding='ISO-8859-2'?>"), Some(textcodec::ISO_8859_2));
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    prescan_declaration(bytes).map(|(encoding, _)| encoding)
}

/// HTML: the "algorithm for extracting a character encoding from a `meta` element", on the
/// value of a `content` attribute: the encoding that its `charset=` names, as "get an
/// encoding" gives it (`charset=utf-16` is UTF-16LE here; the prescan maps it to UTF-8), or
/// `None`.
///
/// ```
/// use textcodec::detect::extract_meta_charset;
/// assert_eq!(extract_meta_charset(b"text/html; charset=Shift_JIS"), Some(textcodec::SHIFT_JIS));
/// assert_eq!(extract_meta_charset(b"text/html; charset = 'koi8-r'"), Some(textcodec::KOI8_R));
/// assert_eq!(extract_meta_charset(b"text/html; charset=\"utf-8"), None); // unmatched quote
/// assert_eq!(extract_meta_charset(b"text/html"), None);
/// ```
pub fn extract_meta_charset(content: &[u8]) -> Option<&'static Encoding> {
    let s = content;
    // 1. "Let position be a pointer into s, initially pointing at the start of the string."
    let mut position = 0;
    loop {
        // 2. "Loop: Find the first seven characters in s after position that are an ASCII
        //    case-insensitive match for the word "charset". If no such match is found, return
        //    nothing."
        let found = (position..s.len().saturating_sub(6))
            .find(|&i| s[i..i + 7].eq_ignore_ascii_case(b"charset"))?;
        let mut p = found + 7;
        // 3. "Skip any ASCII whitespace that immediately follow the word "charset" (there
        //    might not be any)."
        while s.get(p).is_some_and(|&b| is_space(b)) {
            p += 1;
        }
        // 4. "If the next character is not a U+003D EQUALS SIGN (=), then move position to
        //    point just before that next character, and jump back to the step labeled loop."
        if s.get(p) != Some(&b'=') {
            position = p;
            continue;
        }
        p += 1;
        // 5. "Skip any ASCII whitespace that immediately follow the equals sign (there might
        //    not be any)."
        while s.get(p).is_some_and(|&b| is_space(b)) {
            p += 1;
        }
        // 6. "Process the next character as follows:"
        return match s.get(p) {
            // "If there is no next character": "Return nothing."
            None => None,
            // "If it is a U+0022 QUOTATION MARK character (") and there is a later U+0022
            // QUOTATION MARK character (") in s", and the same for U+0027 APOSTROPHE: "Return
            // the result of getting an encoding from the substring that is between this
            // character and the next earliest occurrence of this character."
            // "If it is an unmatched U+0022 QUOTATION MARK character (")", or an unmatched
            // U+0027 APOSTROPHE: "Return nothing."
            Some(&quote @ (b'"' | b'\'')) => {
                let start = p + 1;
                let end = start + s[start..].iter().position(|&b| b == quote)?;
                Encoding::for_label(&s[start..end])
            }
            // "Otherwise": "Return the result of getting an encoding from the substring that
            // consists of this character up to but not including the first ASCII whitespace or
            // U+003B SEMICOLON character (;), or the end of s, whichever comes first."
            Some(_) => {
                let end = s[p..]
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .map_or(s.len(), |n| p + n);
                Encoding::for_label(&s[p..end])
            }
        };
    }
}

/// Infra: "HTTP whitespace" (U+000A LF, U+000D CR, U+0009 TAB, U+0020 SPACE).
fn is_http_whitespace(b: u8) -> bool {
    matches!(b, 0x0A | 0x0D | 0x09 | 0x20)
}

/// Fetch: "HTTP tab or space".
fn is_http_tab_or_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x20)
}

/// MIME Sniffing: "HTTP token code points": U+0021 (!), U+0023 (#), U+0024 ($), U+0025 (%),
/// U+0026 (&), U+0027 ('), U+002A (*), U+002B (+), U+002D (-), U+002E (.), U+005E (^), U+005F
/// (_), U+0060 (`), U+007C (|), U+007E (~), or an ASCII alphanumeric.
fn is_http_token_code_point(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// MIME Sniffing: "HTTP quoted-string token code points": U+0009 TAB, a code point in the
/// range U+0020 SPACE to U+007E (~), inclusive, or a code point in the range U+0080 through
/// U+00FF (ÿ), inclusive. (The bytes of a header value are its code points, "isomorphic
/// decoded".)
fn is_http_quoted_string_token_code_point(b: u8) -> bool {
    b == 0x09 || (0x20..=0x7E).contains(&b) || b >= 0x80
}

/// Fetch: "collect an HTTP quoted string" from `input`, given `position` (at a U+0022). With
/// extract-value true (`value` given), the value, unescaped, is appended to `value`; with
/// extract-value false ("7. Return the code points from positionStart to position, inclusive,
/// within input"), the caller keeps the bytes as they are, from the old `position` to the new.
fn collect_http_quoted_string(input: &[u8], position: &mut usize, mut value: Option<&mut Vec<u8>>) {
    let mut append = |bytes: &[u8]| {
        if let Some(value) = value.as_deref_mut() {
            value.extend_from_slice(bytes);
        }
    };
    // 1. "Let positionStart be position." 2. "Let value be the empty string."
    // 3. "Assert: the code point at position within input is U+0022 (")."
    debug_assert_eq!(input[*position], b'"');
    // 4. "Advance position by 1."
    *position += 1;
    // 5. "While true:"
    loop {
        // 1. "Append the result of collecting a sequence of code points that are not U+0022
        //    (") or U+005C (\) from input, given position, to value."
        let run = input[*position..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .unwrap_or(input.len() - *position);
        append(&input[*position..*position + run]);
        *position += run;
        // 2. "If position is past the end of input, then break."
        let Some(&quote_or_backslash) = input.get(*position) else {
            break;
        };
        // 3. "Let quoteOrBackslash be the code point at position within input."
        // 4. "Advance position by 1."
        *position += 1;
        // 5. "If quoteOrBackslash is U+005C (\), then:"
        if quote_or_backslash == b'\\' {
            // 1. "If position is past the end of input, then append U+005C (\) to value and
            //    break."
            let Some(escaped) = input.get(*position) else {
                append(b"\\");
                break;
            };
            // 2. "Append the code point at position within input to value."
            append(core::slice::from_ref(escaped));
            // 3. "Advance position by 1."
            *position += 1;
        } else {
            // 6. "Otherwise: Assert: quoteOrBackslash is U+0022 ("). Break."
            break;
        }
    }
    // 6. "If extract-value is true, then return value." 7. "Return the code points from
    //    positionStart to position, inclusive, within input."
}

/// Fetch: "get, decode, and split" a header value: its comma-separated values (commas inside
/// quoted strings excepted), each with HTTP tabs or spaces trimmed, as ranges of `input`.
fn get_decode_split(input: &[u8]) -> Vec<Range<usize>> {
    // 1. "Let input be the result of isomorphic decoding value." (Its bytes.)
    // 2. "Let position be a position variable for input, initially pointing at the start of
    //    input."
    let mut position = 0;
    // 3. "Let values be a list of strings, initially « »."
    let mut values = Vec::new();
    // 4. "Let temporaryValue be the empty string." (A quoted string is kept as it is, so
    //    temporaryValue is always the bytes from `start` to `position`.)
    let mut start = 0;
    // 5. "While true:"
    loop {
        // 1. "Append the result of collecting a sequence of code points that are not U+0022
        //    (") or U+002C (,) from input, given position, to temporaryValue."
        position += input[position..]
            .iter()
            .position(|&b| b == b'"' || b == b',')
            .unwrap_or(input.len() - position);
        // 2. "If position is not past the end of input and the code point at position within
        //    input is U+0022 ("):"
        if input.get(position) == Some(&b'"') {
            // 1. "Append the result of collecting an HTTP quoted string from input, given
            //    position, to temporaryValue."
            collect_http_quoted_string(input, &mut position, None);
            // 2. "If position is not past the end of input, then continue."
            if position < input.len() {
                continue;
            }
        }
        // 3. "Remove all HTTP tab or space from the start and end of temporaryValue."
        let mut value = start..position;
        while value.start < value.end && is_http_tab_or_space(input[value.start]) {
            value.start += 1;
        }
        while value.start < value.end && is_http_tab_or_space(input[value.end - 1]) {
            value.end -= 1;
        }
        // 4. "Append temporaryValue to values."
        values.push(value);
        // 6. "If position is past the end of input, then return values."
        if position >= input.len() {
            return values;
        }
        // 7. "Assert: the code point at position within input is U+002C (,)."
        debug_assert_eq!(input[position], b',');
        // 8. "Advance position by 1."
        position += 1;
        // 5. "Set temporaryValue to the empty string."
        start = position;
    }
}

/// The parts of a MIME Sniffing "MIME type" record that "legacy extract an encoding" reads:
/// the essence and the `charset` parameter.
struct MimeType {
    /// "type", U+002F (/), "subtype", both ASCII lowercase.
    essence: Vec<u8>,
    /// parameters["charset"], where it exists.
    charset: Option<Vec<u8>>,
}

/// MIME Sniffing: "parse a MIME type" (the parameters other than `charset` are read and
/// dropped: nothing looks at them). `None` is failure.
fn parse_mime_type(input: &[u8]) -> Option<MimeType> {
    // 1. "Remove any leading and trailing HTTP whitespace from input."
    let start = input
        .iter()
        .position(|&b| !is_http_whitespace(b))
        .unwrap_or(input.len());
    let end = input
        .iter()
        .rposition(|&b| !is_http_whitespace(b))
        .map_or(start, |i| i + 1);
    let input = &input[start..end];
    // 2. "Let position be a position variable for input, initially pointing at the start of
    //    input."
    let mut position = 0;
    let collect_until = |position: &mut usize, stop: &dyn Fn(u8) -> bool| {
        let start = *position;
        *position += input[start..]
            .iter()
            .position(|&b| stop(b))
            .unwrap_or(input.len() - start);
        start..*position
    };
    // 3. "Let type be the result of collecting a sequence of code points that are not U+002F
    //    (/) from input, given position."
    let type_ = &input[collect_until(&mut position, &|b| b == b'/')];
    // 4. "If type is the empty string or does not solely contain HTTP token code points, then
    //    return failure."
    if type_.is_empty() || !type_.iter().all(|&b| is_http_token_code_point(b)) {
        return None;
    }
    // 5. "If position is past the end of input, then return failure."
    if position >= input.len() {
        return None;
    }
    // 6. "Advance position by 1. (This skips past U+002F (/).)"
    position += 1;
    // 7. "Let subtype be the result of collecting a sequence of code points that are not
    //    U+003B (;) from input, given position."
    let mut subtype = &input[collect_until(&mut position, &|b| b == b';')];
    // 8. "Remove any trailing HTTP whitespace from subtype."
    while let [rest @ .., last] = subtype {
        if !is_http_whitespace(*last) {
            break;
        }
        subtype = rest;
    }
    // 9. "If subtype is the empty string or does not solely contain HTTP token code points,
    //    then return failure."
    if subtype.is_empty() || !subtype.iter().all(|&b| is_http_token_code_point(b)) {
        return None;
    }
    // 10. "Let mimeType be a new MIME type record whose type is type, in ASCII lowercase, and
    //     subtype is subtype, in ASCII lowercase."
    let mut essence = Vec::with_capacity(type_.len() + 1 + subtype.len());
    essence.extend(type_.iter().map(u8::to_ascii_lowercase));
    essence.push(b'/');
    essence.extend(subtype.iter().map(u8::to_ascii_lowercase));
    let mut mime_type = MimeType {
        essence,
        charset: None,
    };
    // 11. "While position is not past the end of input:"
    while position < input.len() {
        // 1. "Advance position by 1. (This skips past U+003B (;).)"
        position += 1;
        // 2. "Collect a sequence of code points that are HTTP whitespace from input given
        //    position."
        collect_until(&mut position, &|b| !is_http_whitespace(b));
        // 3. "Let parameterName be the result of collecting a sequence of code points that are
        //    not U+003B (;) or U+003D (=) from input, given position."
        // 4. "Set parameterName to parameterName, in ASCII lowercase." (Compared below
        //    ASCII case-insensitively.)
        let parameter_name = &input[collect_until(&mut position, &|b| b == b';' || b == b'=')];
        // 5. "If position is not past the end of input, then:"
        if position < input.len() {
            // 1. "If the code point at position within input is U+003B (;), then continue."
            if input[position] == b';' {
                continue;
            }
            // 2. "Advance position by 1. (This skips past U+003D (=).)"
            position += 1;
        }
        // 6. "If position is past the end of input, then break."
        if position >= input.len() {
            break;
        }
        // 7. "Let parameterValue be null."
        let parameter_value: Vec<u8>;
        // 8. "If the code point at position within input is U+0022 ("), then:"
        if input[position] == b'"' {
            // 1. "Set parameterValue to the result of collecting an HTTP quoted string from
            //    input, given position and true."
            let mut value = Vec::new();
            collect_http_quoted_string(input, &mut position, Some(&mut value));
            parameter_value = value;
            // 2. "Collect a sequence of code points that are not U+003B (;) from input, given
            //    position."
            collect_until(&mut position, &|b| b == b';');
        } else {
            // 9. "Otherwise:"
            // 1. "Set parameterValue to the result of collecting a sequence of code points
            //    that are not U+003B (;) from input, given position."
            let mut value = &input[collect_until(&mut position, &|b| b == b';')];
            // 2. "Remove any trailing HTTP whitespace from parameterValue."
            while let [rest @ .., last] = value {
                if !is_http_whitespace(*last) {
                    break;
                }
                value = rest;
            }
            // 3. "If parameterValue is the empty string, then continue."
            if value.is_empty() {
                continue;
            }
            parameter_value = value.to_vec();
        }
        // 10. "If all of the following are true: parameterName is not the empty string;
        //     parameterName solely contains HTTP token code points; parameterValue solely
        //     contains HTTP quoted-string token code points; mimeType's
        //     parameters[parameterName] does not exist; then set mimeType's
        //     parameters[parameterName] to parameterValue." (Only "charset" is kept: a
        //     parameterName of "charset" is not empty and is all token code points.)
        if parameter_name.eq_ignore_ascii_case(b"charset")
            && parameter_value
                .iter()
                .all(|&b| is_http_quoted_string_token_code_point(b))
            && mime_type.charset.is_none()
        {
            mime_type.charset = Some(parameter_value);
        }
    }
    // 12. "Return mimeType."
    Some(mime_type)
}

/// Fetch: "legacy extract an encoding" from the MIME type that "extract a MIME type" finds in
/// a `Content-Type` header value, with no fallback encoding: the encoding that its `charset`
/// parameter names, or `None`.
///
/// `value` is the header's value, several values combined with commas included (as Fetch's
/// "get" combines repeated headers): the last value that parses as a MIME type counts, with
/// the `charset` of an earlier value of the same essence if it has none of its own.
///
/// ```
/// use textcodec::detect::charset_from_content_type;
/// assert_eq!(charset_from_content_type(b"text/html; charset=\"shift_jis\""), Some(textcodec::SHIFT_JIS));
/// assert_eq!(charset_from_content_type(b"text/html;charset=gbk;a=b, text/html;x=y"), Some(textcodec::GBK));
/// assert_eq!(charset_from_content_type(b"text/plain;charset=gbk, text/html"), None);
/// assert_eq!(charset_from_content_type(b"text/html; charset=bogus"), None);
/// ```
pub fn charset_from_content_type(value: &[u8]) -> Option<&'static Encoding> {
    let header_value = value;
    // Fetch, "extract a MIME type":
    // 1. "Let charset be null." 2. "Let essence be null." 3. "Let mimeType be null."
    let mut charset: Option<Vec<u8>> = None;
    let mut essence: Option<Vec<u8>> = None;
    let mut mime_type: Option<MimeType> = None;
    // 4. "Let values be the result of getting, decoding, and splitting `Content-Type` from
    //    headers." 5. "If values is null, then return failure." (A value was given.)
    // 6. "For each value of values:"
    for value in get_decode_split(header_value) {
        // 1. "Let temporaryMimeType be the result of parsing value."
        // 2. "If temporaryMimeType is failure or its essence is "*/*", then continue."
        let Some(temporary) = parse_mime_type(&header_value[value]) else {
            continue;
        };
        if temporary.essence == b"*/*" {
            continue;
        }
        // 3. "Set mimeType to temporaryMimeType."
        let mime = mime_type.insert(temporary);
        // 4. "If mimeType's essence is not essence, then:"
        if essence.as_deref() != Some(&mime.essence[..]) {
            // 1. "Set charset to null."
            // 2. "If mimeType's parameters["charset"] exists, then set charset to mimeType's
            //    parameters["charset"]."
            charset = mime.charset.clone();
            // 3. "Set essence to mimeType's essence."
            essence = Some(mime.essence.clone());
        } else if mime.charset.is_none() {
            // 5. "Otherwise, if mimeType's parameters["charset"] does not exist, and charset is
            //    non-null, set mimeType's parameters["charset"] to charset."
            mime.charset = charset.clone();
        }
    }
    // 7. "If mimeType is null, then return failure." 8. "Return mimeType."
    // Fetch, "legacy extract an encoding", given mimeType and no fallbackEncoding:
    // 1. "If mimeType is failure, then return fallbackEncoding."
    // 2. "If mimeType["charset"] does not exist, then return fallbackEncoding."
    let charset = mime_type?.charset?;
    // 3. "Let tentativeEncoding be the result of getting an encoding from
    //    mimeType["charset"]."
    // 4. "If tentativeEncoding is failure, then return fallbackEncoding."
    // 5. "Return tentativeEncoding."
    Encoding::for_label(&charset)
}

/// HTML: the "encoding sniffing algorithm", end to end, for a document whose bytes are all
/// available, with the `Content-Type` header value `content_type` of its transport (if any)
/// and the top-level domain `tld` it came from (ASCII without the dot, `b"jp"`; if known):
///
/// 1. "If the result of BOM sniffing is an encoding, return that encoding with confidence
///    certain" ([`Source::Bom`]).
/// 2. and 3. The user's override, and waiting for more bytes: not for a library.
/// 4. "If the transport layer specifies a character encoding, and it is supported, return that
///    encoding with the confidence certain": [`charset_from_content_type`] of `content_type`
///    ([`Source::Transport`]).
/// 5. "Optionally, prescan the byte stream to determine its encoding ... User agents are
///    encouraged to only prescan the first 1024 bytes": [`prescan`] of the first
///    [`PRESCAN_BYTES`], tentative ([`Source::Prescan`] for a `<meta>`,
///    [`Source::XmlDeclaration`] for an XML declaration).
/// 6. and 7. The parent document's encoding, and what the user agent remembers of the page:
///    not for a library.
/// 8. "The user agent may attempt to autodetect the character encoding from applying frequency
///    analysis or other algorithms to the data stream. Such algorithms may use information
///    about the resource other than the resource's contents, including the address of the
///    resource": the [`Detector`] over all of `bytes`, its [`guess`](Detector::guess) with
///    `tld` and UTF-8 not allowed, as browsers do for Web content, tentative
///    ([`Source::Detector`]).
/// 9. "Otherwise, return an implementation-defined or user-specified default character
///    encoding, with the confidence tentative": not reached, as the Detector always answers.
///    Where the bytes give it nothing to go on (no byte above 0x7F, and no ISO-2022-JP), its
///    answer is that default: the usual encoding of `tld`, windows-1252 when that is unknown.
///    Whatever the bytes, where nothing is declared the result is the Detector's guess, from
///    [`Source::Detector`].
///
/// ```
/// use textcodec::detect::{sniff_html, Confidence, Source};
/// let page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2";
/// let sniffed = sniff_html(page, None, None);
/// assert_eq!(sniffed.encoding, textcodec::WINDOWS_1251);
/// assert_eq!((sniffed.source, sniffed.confidence), (Source::Prescan, Confidence::Tentative));
///
/// // The transport's charset wins over the <meta>, and a BOM over both.
/// let sniffed = sniff_html(page, Some(b"text/html; charset=koi8-r"), None);
/// assert_eq!((sniffed.encoding, sniffed.source), (textcodec::KOI8_R, Source::Transport));
/// let sniffed = sniff_html(b"\xEF\xBB\xBF<meta charset=gbk>", Some(b"text/html; charset=big5"), None);
/// assert_eq!((sniffed.encoding, sniffed.confidence), (textcodec::UTF_8, Confidence::Certain));
///
/// // Nothing declared: the statistical guess.
/// let sniffed = sniff_html(b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!</p>", None, None);
/// assert_eq!((sniffed.encoding, sniffed.source), (textcodec::WINDOWS_1251, Source::Detector));
/// ```
pub fn sniff_html(bytes: &[u8], content_type: Option<&[u8]>, tld: Option<&[u8]>) -> Sniffed {
    let certain = |encoding, source| Sniffed {
        encoding,
        confidence: Confidence::Certain,
        source,
    };
    let tentative = |encoding, source| Sniffed {
        encoding,
        confidence: Confidence::Tentative,
        source,
    };
    // 1. "If the result of BOM sniffing is an encoding, return that encoding with confidence
    //    certain."
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return certain(encoding, Source::Bom);
    }
    // 4. "If the transport layer specifies a character encoding, and it is supported, return
    //    that encoding with the confidence certain."
    if let Some(encoding) = content_type.and_then(charset_from_content_type) {
        return certain(encoding, Source::Transport);
    }
    // 5. "Optionally, prescan the byte stream to determine its encoding, with the end condition
    //    being when the user agent decides that scanning further bytes would not be
    //    efficient. User agents are encouraged to only prescan the first 1024 bytes. ... If it
    //    returns a character encoding, then return the same encoding, with confidence
    //    tentative."
    if let Some((encoding, source)) = prescan_declaration(&bytes[..bytes.len().min(PRESCAN_BYTES)])
    {
        return tentative(encoding, source);
    }
    // 8. "The user agent may attempt to autodetect the character encoding ... If autodetection
    //    succeeds in determining a character encoding, and that encoding is a supported
    //    encoding, then return that encoding, with the confidence tentative."
    // 9. "Otherwise, return an implementation-defined or user-specified default character
    //    encoding, with the confidence tentative." (The Detector's answer where the bytes are
    //    ASCII; it is reported as the Detector's, as for any undeclared document.)
    Sniffed {
        source: Source::Detector,
        ..guess(bytes, tld, false, true)
    }
}

/// The encoding sniffing algorithm's steps 8 and 9 over `bytes` (`last`: all of the text, or
/// only its start), as detecting readers report them: the [`Detector`]'s guess, tentative, from
/// [`Source::Detector`] where the bytes gave it something to go on (a byte above 0x7F, or
/// ISO-2022-JP), else from [`Source::Default`] (the Detector's answer for ASCII: the usual
/// encoding of `tld`, windows-1252 when unknown, or UTF-8 where allowed).
pub(crate) fn guess(bytes: &[u8], tld: Option<&[u8]>, allow_utf8: bool, last: bool) -> Sniffed {
    let mut detector = Detector::new();
    let non_ascii = detector.feed(bytes, last);
    let encoding = detector.guess(tld, allow_utf8);
    let source = if non_ascii || encoding == ISO_2022_JP {
        Source::Detector
    } else {
        Source::Default
    };
    Sniffed {
        encoding,
        confidence: Confidence::Tentative,
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The bytes the prescan looked at (with repeats) for `bytes`, and its answer.
    fn work(bytes: &[u8]) -> (usize, Option<(&'static Encoding, Source)>) {
        let input = Input::new(bytes);
        let found = prescan_in(&input);
        (input.work.get(), found)
    }

    /// `piece` repeated to `len` bytes, after `head`.
    fn repeated(head: &[u8], piece: &[u8], len: usize) -> Vec<u8> {
        let mut v = head.to_vec();
        while v.len() < len {
            v.extend_from_slice(piece);
        }
        v
    }

    /// Inputs built to make a careless prescan quadratic: every construct that searches ahead
    /// left unterminated, over and over.
    fn worst_cases(len: usize) -> Vec<Vec<u8>> {
        vec![
            // Many unterminated attributes, quoted and not.
            repeated(b"<a ", b"b='x c=\"y d=z ", len),
            repeated(b"<meta ", b"a=\"", len),
            repeated(b"<meta ", b"charset=", len),
            repeated(b"", b"<meta charset=x ", len),
            repeated(b"", b"<meta http-equiv=content-type content='charset=", len),
            // Comments that never end, and `-->` look-alikes.
            repeated(b"<!--", b"-", len),
            repeated(b"", b"<!--->-", len),
            repeated(b"<!--", b"->-->", len),
            // Tags and bogus comments that never end.
            repeated(b"", b"<a", len),
            repeated(b"", b"<!", len),
            repeated(b"", b"</", len),
            repeated(b"", b"<?", len),
            repeated(b"", b"<", len),
            repeated(b"", b"<meta/", len),
            // "get an XML encoding" searching for `encoding` through near misses.
            repeated(b"<?xml>", b"encodin", len),
            repeated(b"<?xml>", b"e", len),
            repeated(b"<?xml> encoding", b" ", len),
            repeated(b"<?xml> encoding = '", b"x", len),
            // Many attributes of a `<meta>`, all duplicates or unknown.
            repeated(b"<meta", b" charset=x content=y http-equiv=z foo", len),
        ]
    }

    #[test]
    fn prescan_work_is_linear() {
        for len in [64, 1024, 64 * 1024] {
            for input in worst_cases(len) {
                let (steps, _) = work(&input);
                assert!(
                    steps <= 8 * input.len() + 16,
                    "{steps} steps for {} bytes starting {:?}",
                    input.len(),
                    &input[..input.len().min(24)]
                );
            }
        }
    }

    #[test]
    fn prescan_work_is_linear_on_random_markup() {
        const PIECES: &[&[u8]] = &[
            b"<",
            b">",
            b"<meta ",
            b"<META/",
            b"<!--",
            b"-->",
            b"-",
            b"<!",
            b"</",
            b"<?",
            b"<a ",
            b"=",
            b"\"",
            b"'",
            b" ",
            b"\t",
            b"/",
            b"charset",
            b"content",
            b"http-equiv",
            b"content-type",
            b"utf-8",
            b"x",
            b"<?xml",
            b"encoding",
            b"\0",
        ];
        let mut seed = 0x2545_F491u32;
        for _ in 0..2000 {
            let mut input = Vec::new();
            let pieces = 1 + crate::xorshift32(&mut seed) as usize % 400;
            for _ in 0..pieces {
                let i = crate::xorshift32(&mut seed) as usize % PIECES.len();
                input.extend_from_slice(PIECES[i]);
            }
            let (steps, found) = work(&input);
            assert!(steps <= 8 * input.len() + 16, "{steps} steps: {input:?}");
            assert_eq!(found, prescan_declaration(&input));
        }
    }

    #[test]
    fn get_decode_split_keeps_quoted_commas() {
        let v = b"a, \"b,c\" ,d\t,\"e";
        let ranges = get_decode_split(v);
        let values: Vec<&[u8]> = ranges.into_iter().map(|r| &v[r]).collect();
        assert_eq!(values, [&b"a"[..], b"\"b,c\"", b"d", b"\"e"]);
        assert_eq!(get_decode_split(b"").len(), 1);
        assert_eq!(get_decode_split(b"")[0], 0..0);
    }

    #[test]
    fn quoted_string_value_unescapes() {
        let collect = |input: &[u8]| {
            let (mut p, mut q) = (0, 0);
            let mut value = Vec::new();
            collect_http_quoted_string(input, &mut p, Some(&mut value));
            collect_http_quoted_string(input, &mut q, None);
            assert_eq!(p, q);
            (value, p)
        };
        assert_eq!(collect(br#""a\"b\\c"x"#), (b"a\"b\\c".to_vec(), 9));
        assert_eq!(collect(br#""ab\"#), (b"ab\\".to_vec(), 4));
    }
}
