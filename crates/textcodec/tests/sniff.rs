//! The encoding sniffing algorithm and the declarations it reads, a vector per step, each
//! citing the step of the algorithm it checks (HTML Standard, "prescan a byte stream to
//! determine its encoding", "get an attribute", "get an XML encoding", "algorithm for
//! extracting a character encoding from a meta element", "encoding sniffing algorithm";
//! Fetch, "extract a MIME type", "legacy extract an encoding", "get, decode, and split",
//! "collect an HTTP quoted string"; MIME Sniffing, "parse a MIME type"). The expected values
//! are read off the algorithms' text, including where browsers or other libraries differ.

use textcodec::detect::{
    charset_from_content_type, extract_meta_charset, prescan, sniff_html, Confidence, Detector,
    Sniffed, Source,
};
use textcodec::{
    Encoding, BIG5, EUC_JP, EUC_KR, GBK, ISO_2022_JP, ISO_8859_2, KOI8_R, REPLACEMENT, SHIFT_JIS,
    UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1251, WINDOWS_1252, X_USER_DEFINED,
};

fn check(cases: &[(&[u8], Option<&'static Encoding>)], f: fn(&[u8]) -> Option<&'static Encoding>) {
    for &(input, expected) in cases {
        assert_eq!(
            f(input).map(Encoding::name),
            expected.map(Encoding::name),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

// ------------------------------------------------ prescan a byte stream to determine its encoding

#[test]
fn prescan_utf16_xml_declarations() {
    // Step 2, "Prescan for UTF-16 XML declarations": case-sensitive `<?x` in UTF-16LE/BE,
    // returned as UTF-16 (not mapped to UTF-8); the encoding name is not checked.
    check(
        &[
            (b"<\0?\0x\0m\0l\0", Some(UTF_16LE)),
            (b"<\0?\0x\0", Some(UTF_16LE)),
            (b"\0<\0?\0x\0m\0l", Some(UTF_16BE)),
            (b"\0<\0?\0x", Some(UTF_16BE)),
            // Case-sensitive, and only at the very start.
            (b"<\0?\0X\0m\0l\0", None),
            (b" <\0?\0x\0", None),
            // Five bytes are not the six of the pattern.
            (b"<\0?\0x", None),
        ],
        prescan,
    );
}

#[test]
fn prescan_comments() {
    // Step 3, `<!--`: "advance ... at the first 0x3E byte which is preceded by two 0x2D bytes
    // ... (The two 0x2D bytes can be the same as those in the '<!--' sequence.)"
    check(
        &[
            (
                b"<!-- <meta charset=gbk> --><meta charset=big5>",
                Some(BIG5),
            ),
            (b"<!-- <meta charset=gbk> -->", None),
            // `<!-->` and `<!--->` are whole comments.
            (b"<!--><meta charset=gbk>", Some(GBK)),
            (b"<!---><meta charset=gbk>", Some(GBK)),
            // `--!>` ends a comment for the tokenizer, not for the prescan.
            (b"<!-- a --!><meta charset=gbk>", None),
            (b"<!-- a --!><meta charset=gbk>-->", None),
            // A comment that never ends: the prescan runs out of bytes.
            (b"<!-- <meta charset=gbk>", None),
            // `<!-` is not a comment but a `<!` construct, which ends at the first `>`.
            (b"<!-><meta charset=gbk>", Some(GBK)),
            (b"<!DOCTYPE html><meta charset=gbk>", Some(GBK)),
        ],
        prescan,
    );
}

#[test]
fn prescan_meta_start() {
    // Step 3, "case-insensitive ASCII '<meta' followed by a space or slash": 0x09, 0x0A, 0x0C,
    // 0x0D, 0x20 or 0x2F.
    check(
        &[
            (b"<meta charset=gbk>", Some(GBK)),
            (b"<META CHARSET=GBK>", Some(GBK)),
            (b"<MeTa ChArSeT=gBk>", Some(GBK)),
            (b"<meta\tcharset=gbk>", Some(GBK)),
            (b"<meta\ncharset=gbk>", Some(GBK)),
            (b"<meta\x0Ccharset=gbk>", Some(GBK)),
            (b"<meta\rcharset=gbk>", Some(GBK)),
            (b"<meta/charset=gbk>", Some(GBK)),
            // Other bytes after `<meta`: an ordinary tag, whose attributes are skipped.
            (b"<metacharset=gbk>", None),
            (b"<meta\x0Bcharset=gbk>", None),
            (b"<meta\0charset=gbk>", None),
            (b"<meta>", None),
            (b"<metadata charset=gbk>", None),
        ],
        prescan,
    );
}

#[test]
fn prescan_get_an_attribute() {
    // "get an attribute": step 1 skips spaces and slashes; the name ends at `=` (if not empty),
    // a space, `/` or `>`; spaces around `=`; quoted values end at the same quote; unquoted
    // values end at a space or `>`.
    check(
        &[
            (b"<meta charset='gbk'>", Some(GBK)),
            (b"<meta charset=\"gbk\">", Some(GBK)),
            (b"<meta charset = gbk >", Some(GBK)),
            (b"<meta  charset\n=\t'gbk'>", Some(GBK)),
            (b"<meta //charset='gbk'//>", Some(GBK)),
            (b"<meta //charset=gbk//>", None),
            (b"<meta charset=\"gbk\"/>", Some(GBK)),
            // An unquoted value takes everything up to a space or `>`, `/` and `;` included.
            (b"<meta charset=gbk/>", None),
            (b"<meta charset=gbk;>", None),
            (b"<meta charset=gbk />", Some(GBK)),
            // Quoted values take the other quote, and `>`, as data; "get an encoding" then
            // trims ASCII whitespace.
            (b"<meta charset=\"gbk'\">", None),
            (b"<meta charset=\" gbk \">", Some(GBK)),
            (b"<meta charset='gbk\"'>", None),
            // "If it is 0x3D (=), and the attribute name is longer than the empty string": a
            // leading `=` belongs to the name.
            (b"<meta =charset=gbk>", None),
            // A name ended by `/` or `>` has the empty value; `charset` with no value then
            // fails "get an encoding".
            (b"<meta charset/=gbk>", None),
            (b"<meta charset>", None),
            // "Spaces", then "If the byte at position is not 0x3D (=)": an attribute with the
            // empty value, and the next attribute starts there.
            (b"<meta http-equiv content-type charset=gbk>", Some(GBK)),
            // "If it is 0x3E (>)" right after `=`: the empty value, and the tag ends.
            (b"<meta charset=>", None),
            (b"<meta charset= >", None),
            // Value bytes are lowercased (A-Z only) and not trimmed.
            (b"<meta charset=GBK>", Some(GBK)),
        ],
        prescan,
    );
}

#[test]
fn prescan_attribute_list_and_pragma() {
    // The `<meta>` steps: "attribute list" (a name seen again is ignored), "got pragma",
    // "need pragma", "charset" (null, failure or an encoding), and "Processing".
    check(
        &[
            // "If the attribute's name is "charset"": need pragma false.
            (b"<meta charset=gbk charset=big5>", Some(GBK)),
            // A second charset is ignored even where the first failed.
            (b"<meta charset=bogus charset=gbk>", None),
            // "If the attribute's name is "content"": need pragma true, so http-equiv must say
            // content-type ("got pragma").
            (
                b"<meta http-equiv=content-type content='text/html; charset=euc-jp'>",
                Some(EUC_JP),
            ),
            (
                b"<meta content='text/html; charset=euc-jp' http-equiv=Content-Type>",
                Some(EUC_JP),
            ),
            (
                b"<meta http-equiv=\"CONTENT-TYPE\" content=\"charset=euc-jp\">",
                Some(EUC_JP),
            ),
            // content without http-equiv, or with another http-equiv, declares nothing.
            (b"<meta content='text/html; charset=euc-jp'>", None),
            (b"<meta http-equiv=refresh content='charset=euc-jp'>", None),
            // The http-equiv value is compared whole: no trimming.
            (
                b"<meta http-equiv=' content-type' content='charset=euc-jp'>",
                None,
            ),
            // A second http-equiv or content is ignored.
            (
                b"<meta http-equiv=refresh http-equiv=content-type content='charset=big5'>",
                None,
            ),
            (
                b"<meta http-equiv=content-type content='text/html' content='charset=big5'>",
                None,
            ),
            // content without charset leaves need pragma null.
            (b"<meta http-equiv=content-type content='text/html'>", None),
            // charset wins over content whatever the order, and sets need pragma to false.
            (
                b"<meta content='charset=big5' charset=gbk http-equiv=content-type>",
                Some(GBK),
            ),
            (b"<meta content='charset=big5' charset=gbk>", Some(GBK)),
            (b"<meta charset=gbk content='charset=big5'>", Some(GBK)),
            // "if charset is still set to null": a charset that failed is not null, so a later
            // content cannot replace it, and "If charset is failure" ends the element.
            (
                b"<meta charset=bogus http-equiv=content-type content='charset=big5'>",
                None,
            ),
            // ... while content first, then a failing charset, also fails.
            (
                b"<meta http-equiv=content-type content='charset=big5' charset=bogus>",
                None,
            ),
            // Other attributes, however many and however repeated, change nothing.
            (b"<meta name=a name=b lang=x charset=gbk>", Some(GBK)),
            // A `<meta>` that declares nothing, then one that does.
            (b"<meta name=viewport><meta charset=gbk>", Some(GBK)),
            (b"<meta charset=bogus><meta charset=gbk>", Some(GBK)),
        ],
        prescan,
    );
}

#[test]
fn prescan_utf16_and_x_user_defined_in_meta() {
    // "If charset is UTF-16BE/LE, then set charset to UTF-8." "If charset is x-user-defined,
    // then set charset to windows-1252."
    check(
        &[
            (b"<meta charset=utf-16>", Some(UTF_8)),
            (b"<meta charset=utf-16le>", Some(UTF_8)),
            (b"<meta charset=UTF-16BE>", Some(UTF_8)),
            (b"<meta charset=unicodefffe>", Some(UTF_8)),
            (
                b"<meta http-equiv=content-type content='charset=utf-16'>",
                Some(UTF_8),
            ),
            (b"<meta charset=x-user-defined>", Some(WINDOWS_1252)),
            // "get an encoding" gives the replacement encoding for these labels, and the
            // prescan returns it.
            (b"<meta charset=iso-2022-kr>", Some(REPLACEMENT)),
            (b"<meta charset=hz-gb-2312>", Some(REPLACEMENT)),
        ],
        prescan,
    );
}

#[test]
fn prescan_other_tags() {
    // Step 3, "<, optionally /, and a letter": advance to a space or `>`, then "Repeatedly get
    // an attribute until no further attributes can be found". `<!`, `</`, `<?`: advance to
    // the first `>`. "Any other byte": nothing.
    check(
        &[
            // A declaration inside another tag's attribute value is skipped ...
            (
                b"<a title='<meta charset=gbk>'><meta charset=big5>",
                Some(BIG5),
            ),
            (b"<p title=\"<meta charset=gbk>\">", None),
            (b"<p title=<meta charset=gbk>", None),
            (b"<img alt=\"x>\"<meta charset=gbk>", None),
            // ... and an attribute of another tag named charset means nothing.
            (b"<body charset=gbk>", None),
            (b"<link charset=gbk><meta charset=big5>", Some(BIG5)),
            // End tags with a letter are tags too; `</` with anything else skips to `>`.
            (b"</p charset=gbk><meta charset=big5>", Some(BIG5)),
            (b"</ title='><meta charset=gbk>'>", Some(GBK)),
            (b"</meta charset=gbk>", None),
            // `<?`: up to the first `>`, quotes or not.
            (b"<?php echo '<meta charset=gbk>'; ?>", None),
            (b"<?php echo 'x' ?><meta charset=gbk>", Some(GBK)),
            // `<` followed by anything else is an ordinary byte.
            (b"< meta charset=gbk>", None),
            (b"<<meta charset=gbk>", Some(GBK)),
            (b"<1><meta charset=gbk>", Some(GBK)),
            (b"\xff\xfe<meta charset=gbk>", Some(GBK)),
        ],
        prescan,
    );
}

#[test]
fn prescan_reads_meta_inside_script() {
    // The prescan has no notion of script, style or textarea text: a `<meta>` written there is
    // read. (Blink's HTMLMetaCharsetParser tokenizes and would skip it; the spec does not.)
    check(
        &[
            (
                b"<script>document.write('<meta charset=gbk>')</script>",
                Some(GBK),
            ),
            (b"<style>/* <meta charset=gbk> */</style>", Some(GBK)),
            (b"<textarea><meta charset=gbk></textarea>", Some(GBK)),
            // A script with `<!--` in it is a comment to the prescan.
            (b"<script><!-- <meta charset=gbk> --></script>", None),
        ],
        prescan,
    );
}

#[test]
fn prescan_nuls() {
    // NUL is an ordinary byte: "Any other byte", part of names and values.
    check(
        &[
            (b"\0<meta charset=gbk>", Some(GBK)),
            (b"<meta charset=\"gb\0k\">", None),
            (b"<meta charset=gbk\0>", None),
            (b"<meta \0 charset=gbk>", Some(GBK)),
            (b"<meta char\0set=gbk>", None),
            // A `<meta>` in UTF-16 is not ASCII `<meta`.
            (
                b"<\0m\0e\0t\0a\0 \0c\0h\0a\0r\0s\0e\0t\0=\0g\0b\0k\0>\0",
                None,
            ),
        ],
        prescan,
    );
}

#[test]
fn prescan_runs_out_of_bytes() {
    // "If at any point ... the user agent either runs out of bytes ... then abort ... and
    // return the result get an XML encoding": a declaration counts only once its tag ends.
    check(
        &[
            (b"<meta charset=gbk", None),
            (b"<meta charset=gbk ", None),
            (b"<meta charset='gbk'", None),
            (b"<meta charset='gbk>", None),
            (b"<meta charset=\"gbk", None),
            (b"<meta charset=", None),
            (b"<meta", None),
            (b"<meta ", None),
            (b"<a href='x><meta charset=gbk>", None),
            (b"<!doctype html", None),
            (b"", None),
        ],
        prescan,
    );
}

#[test]
fn prescan_at_the_1024_byte_edge() {
    // sniff_html gives the prescan the first 1024 bytes ("User agents are encouraged to only
    // prescan the first 1024 bytes"): a `<meta>` whose `>` is byte 1024 counts, one byte later
    // it does not, and an attribute value cut at the edge is running out of bytes.
    let meta = b"<meta charset=gbk>";
    for (pad, expected) in [
        (1024 - meta.len(), Some(GBK)),
        (1024 - meta.len() + 1, None),
        (1024 - 5, None),
    ] {
        let mut page = vec![b' '; pad];
        page.extend_from_slice(meta);
        page.extend_from_slice(b"<p>");
        assert_eq!(
            prescan(&page[..1024.min(page.len())]),
            expected,
            "pad {pad}"
        );
        // Given all the bytes, the prescan finds it.
        assert_eq!(prescan(&page), Some(GBK));
    }
    // A quoted value that opens before the edge and closes after it.
    let mut page = vec![b' '; 1000];
    page.extend_from_slice(b"<meta charset=\"");
    page.resize(1030, b' ');
    page.extend_from_slice(b"gbk\">");
    assert_eq!(prescan(&page[..1024]), None);
    assert_eq!(prescan(&page), Some(GBK));
    // A comment that ends past the edge hides a `<meta>` after it from the 1024 bytes.
    let mut page = b"<!--".to_vec();
    page.resize(1022, b'x');
    page.extend_from_slice(b"--><meta charset=gbk>");
    assert_eq!(prescan(&page[..1024]), None);
    assert_eq!(prescan(&page), Some(GBK));
}

// --------------------------------------------------------------------------- get an XML encoding

#[test]
fn get_an_xml_encoding() {
    check(
        &[
            (
                b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>",
                Some(WINDOWS_1251),
            ),
            (
                b"<?xml version='1.0' encoding='ISO-8859-2'?><p>",
                Some(ISO_8859_2),
            ),
            // Steps 6 and 9: bytes up to 0x20 around `=` are skipped.
            (b"<?xml encoding\t=\n 'big5'?>", Some(BIG5)),
            (b"<?xml encoding\x01=\x02'big5'?>", Some(BIG5)),
            // Step 2: `<?xml` at the very start, case-sensitive.
            (b" <?xml version='1.0' encoding='big5'?>", None),
            (b"<?XML version='1.0' encoding='big5'?>", None),
            (b"\xEF\xBB\xBF<?xml encoding='big5'?>", None),
            // Step 3: a `>` must follow.
            (b"<?xml version='1.0' encoding='big5'", None),
            // Step 4: the first `encoding`, even inside another word.
            (
                b"<?xml version='1.0' xencoding='gbk' encoding='big5'?>",
                Some(GBK),
            ),
            (b"<?xml version='1.0' encodingx='gbk'?>", None),
            // Step 7: `=` must follow; step 11: a quote must follow.
            (b"<?xml encoding 'big5'?>", None),
            (b"<?xml encoding=big5?>", None),
            // Step 13: the same quote must close it.
            (b"<?xml encoding='big5\"?>", None),
            // Step 15: no byte up to 0x20 in the name, not even around it.
            (b"<?xml encoding='big 5'?>", None),
            (b"<?xml encoding=' big5'?>", None),
            (b"<?xml encoding='big5\0'?>", None),
            // Step 16: "get an encoding" may fail.
            (b"<?xml encoding='bogus'?>", None),
            // Step 17: UTF-16BE/LE become UTF-8; x-user-defined is not mapped here.
            (b"<?xml encoding='UTF-16'?>", Some(UTF_8)),
            (b"<?xml encoding='utf-16be'?>", Some(UTF_8)),
            (b"<?xml encoding='x-user-defined'?>", Some(X_USER_DEFINED)),
            // The prescan runs first: a `<meta>` after the declaration wins.
            (
                b"<?xml version='1.0' encoding='big5'?><meta charset=gbk>",
                Some(GBK),
            ),
            (
                b"<?xml version='1.0' encoding='big5'?><meta charset=bogus>",
                Some(BIG5),
            ),
            // Step 4 as written searches past xmlDeclarationEnd (whatwg/html#6939; browsers
            // stop at the `>`).
            (b"<?xml version='1.0'?><p>encoding='big5'</p>", Some(BIG5)),
        ],
        prescan,
    );
}

// -------------------------------------------- extracting a character encoding from a meta element

#[test]
fn extract_a_character_encoding_from_a_meta_element() {
    check(
        &[
            (b"text/html; charset=Shift_JIS", Some(SHIFT_JIS)),
            (b"text/html;CHARSET=gbk", Some(GBK)),
            (b"charset=gbk", Some(GBK)),
            // Step 2 finds the word anywhere, ASCII case-insensitively.
            (b"text/html; xcharset=gbk", Some(GBK)),
            (b"text/html; ChArSeT=gbk", Some(GBK)),
            // Steps 3 and 5: ASCII whitespace around `=`.
            (b"text/html; charset \t= \ngbk", Some(GBK)),
            // Step 4: no `=` after the word: look for the next one.
            (b"charsetfoo; charset=gbk", Some(GBK)),
            (b"charset charset=gbk", Some(GBK)),
            (b"charset; charset", None),
            (b"charse=gbk", None),
            // Step 6, quotes: up to the next same quote, whatever is in between.
            (b"text/html; charset='gbk'", Some(GBK)),
            (b"text/html; charset=\"gbk\"", Some(GBK)),
            (b"text/html; charset=\" gbk \"", Some(GBK)),
            (b"text/html; charset='gbk\"'", None),
            (b"text/html; charset=\"gbk; x\"", None),
            (b"text/html; charset=\"gbk'\" x='big5'", None),
            // An unmatched quote, or nothing after `=`: nothing.
            (b"text/html; charset=\"gbk", None),
            (b"text/html; charset='gbk", None),
            (b"text/html; charset=", None),
            (b"text/html; charset=  ", None),
            // Otherwise up to ASCII whitespace or `;`.
            (b"text/html; charset=gbk;foo", Some(GBK)),
            (b"text/html; charset=gbk foo", Some(GBK)),
            (b"text/html; charset=gbk\tfoo", Some(GBK)),
            (b"text/html; charset=g'bk'", None),
            (b"text/html; charset=gbk,big5", None),
            // Only the first `charset=` counts, even if it names nothing.
            (b"charset=bogus; charset=gbk", None),
            // "get an encoding" as it is: UTF-16 is UTF-16LE here, x-user-defined stays.
            (b"text/html; charset=utf-16", Some(UTF_16LE)),
            (b"text/html; charset=utf-16be", Some(UTF_16BE)),
            (b"text/html; charset=x-user-defined", Some(X_USER_DEFINED)),
            (b"text/html; charset=iso-2022-kr", Some(REPLACEMENT)),
            // NUL is no whitespace.
            (b"charset=gbk\0", None),
            (b"\0charset=gbk", Some(GBK)),
            (b"", None),
        ],
        extract_meta_charset,
    );
}

// -------------------------------------------------------------- Fetch: legacy extract an encoding

#[test]
fn legacy_extract_an_encoding() {
    check(
        &[
            (b"text/html; charset=shift_jis", Some(SHIFT_JIS)),
            (b"text/html;charset=gbk", Some(GBK)),
            (b"TEXT/HTML; CHARSET=GBK", Some(GBK)),
            (b"application/xhtml+xml; charset=euc-kr", Some(EUC_KR)),
            // "parse a MIME type" step 11.8: a quoted value, with "collect an HTTP quoted
            // string" unescaping; what follows the quotes up to `;` is dropped.
            (b"text/html; charset=\"shift_jis\"", Some(SHIFT_JIS)),
            (b"text/html; charset=\"shift\\_jis\"", Some(SHIFT_JIS)),
            (b"text/html; charset=\"gbk\"big5", Some(GBK)),
            (b"text/html; charset=\"gbk", Some(GBK)),
            // Parameter names end at `=`: spaces before it make another name.
            (b"text/html; charset =gbk", None),
            (b"text/html;   charset=gbk", Some(GBK)),
            // Trailing HTTP whitespace of a value is removed, leading is not.
            (b"text/html; charset=gbk \t", Some(GBK)),
            (b"text/html; charset= gbk", Some(GBK)),
            // The first valid charset parameter counts; empty and invalid ones are skipped.
            (b"text/html; charset=gbk; charset=big5", Some(GBK)),
            (b"text/html; charset=; charset=gbk", Some(GBK)),
            (b"text/html; charset=\"\x7f\"; charset=gbk", Some(GBK)),
            (b"text/html; charset; charset=gbk", Some(GBK)),
            (b"text/html; charset", None),
            (b"text/html; charset=", None),
            // A charset that names nothing gives nothing (no fallback).
            (b"text/html; charset=bogus", None),
            (b"text/html; charset=bogus; charset=gbk", None),
            (b"text/html", None),
            // A value that is not a MIME type gives nothing.
            (b"text; charset=gbk", None),
            (b"/html; charset=gbk", None),
            (b"text/; charset=gbk", None),
            (b"text/ht ml; charset=gbk", None),
            (b"text(/html; charset=gbk", None),
            (b"", None),
            // Leading and trailing HTTP whitespace (CR and LF too) is removed.
            (b"\r\n text/html; charset=gbk\r\n", Some(GBK)),
            // "get an encoding", unmapped: the transport may say UTF-16.
            (b"text/html; charset=utf-16", Some(UTF_16LE)),
            (b"text/html; charset=x-user-defined", Some(X_USER_DEFINED)),
        ],
        charset_from_content_type,
    );
}

#[test]
fn extract_a_mime_type_from_combined_values() {
    // Fetch "extract a MIME type" over "get, decode, and split" values: the last MIME type
    // counts; a charset carries over only between values of the same essence; `*/*` and
    // values that do not parse are skipped. (The examples in Fetch's text, and more.)
    check(
        &[
            (b"text/plain;charset=gbk, text/html", None),
            (b"text/html;charset=gbk;a=b, text/html;x=y", Some(GBK)),
            (b"text/html;charset=gbk, */*", Some(GBK)),
            (b"text/html;charset=gbk, cannot-parse", Some(GBK)),
            (b"text/html;charset=gbk, ", Some(GBK)),
            (b"text/html;charset=gbk, x/x, text/html;x=y", None),
            (
                b"text/html;charset=gbk, text/plain;charset=big5",
                Some(BIG5),
            ),
            (b"text/html;charset=gbk, text/html;charset=big5", Some(BIG5)),
            (b"text/html, text/html;charset=gbk", Some(GBK)),
            (b"TEXT/HTML;charset=gbk, text/html", Some(GBK)),
            // Commas inside quoted strings do not split values.
            (b"text/html;charset=\"gbk,big5\"", None),
            (b"text/html;charset=\"gbk,\", text/html", None),
            (b"text/html;x=\"a,b\";charset=gbk", Some(GBK)),
            (b"text/html;charset=\"gbk\", text/plain", None),
        ],
        charset_from_content_type,
    );
}

// ----------------------------------------------------------------- the encoding sniffing algorithm

fn sniffed(encoding: &'static Encoding, confidence: Confidence, source: Source) -> Sniffed {
    Sniffed {
        encoding,
        confidence,
        source,
    }
}

use Confidence::{Certain, Tentative};

#[test]
fn sniffing_step_1_bom_is_certain() {
    // 1. "If the result of BOM sniffing is an encoding, return that encoding with confidence
    //    certain": over the transport and any declaration.
    let html = Some(&b"text/html; charset=gbk"[..]);
    for (bytes, encoding) in [
        (&b"\xEF\xBB\xBF<meta charset=big5>"[..], UTF_8),
        (b"\xFF\xFE<\0m\0", UTF_16LE),
        (b"\xFE\xFF\0<\0m", UTF_16BE),
        (b"\xFF\xFE", UTF_16LE),
    ] {
        assert_eq!(
            sniff_html(bytes, html, None),
            sniffed(encoding, Certain, Source::Bom)
        );
        assert_eq!(
            sniff_html(bytes, None, Some(b"jp")),
            sniffed(encoding, Certain, Source::Bom)
        );
    }
    // Two bytes of the UTF-8 BOM are no BOM.
    assert_eq!(
        sniff_html(b"\xEF\xBB", html, None).source,
        Source::Transport
    );
}

#[test]
fn sniffing_step_4_transport_is_certain() {
    // 4. "If the transport layer specifies a character encoding, and it is supported, return
    //    that encoding with the confidence certain."
    let page = b"<meta charset=big5><p>\xa4\xa4";
    assert_eq!(
        sniff_html(page, Some(b"text/html; charset=koi8-r"), None),
        sniffed(KOI8_R, Certain, Source::Transport)
    );
    // The transport's UTF-16 and replacement are what it says (no prescan mapping).
    assert_eq!(
        sniff_html(page, Some(b"text/html; charset=utf-16"), None),
        sniffed(UTF_16LE, Certain, Source::Transport)
    );
    assert_eq!(
        sniff_html(page, Some(b"text/html; charset=iso-2022-kr"), None),
        sniffed(REPLACEMENT, Certain, Source::Transport)
    );
    // No charset, or one that names nothing: on to the prescan.
    for content_type in [
        &b"text/html"[..],
        b"text/html; charset=bogus",
        b"",
        b"garbage",
    ] {
        assert_eq!(
            sniff_html(page, Some(content_type), None),
            sniffed(BIG5, Tentative, Source::Prescan)
        );
    }
}

#[test]
fn sniffing_step_5_prescan_of_1024_bytes_is_tentative() {
    // 5. The prescan of the first 1024 bytes; "If it returns a character encoding, then return
    //    the same encoding, with confidence tentative."
    assert_eq!(
        sniff_html(b"<meta charset=euc-kr>\xb0\xa1", None, None),
        sniffed(EUC_KR, Tentative, Source::Prescan)
    );
    assert_eq!(
        sniff_html(b"<meta charset=utf-16le>", None, None),
        sniffed(UTF_8, Tentative, Source::Prescan)
    );
    assert_eq!(
        sniff_html(b"<?xml version='1.0' encoding='shift_jis'?><p>", None, None),
        sniffed(SHIFT_JIS, Tentative, Source::XmlDeclaration)
    );
    assert_eq!(
        sniff_html(b"<\0?\0x\0m\0l\0", None, None),
        sniffed(UTF_16LE, Tentative, Source::XmlDeclaration)
    );
    // A declaration that ends past byte 1024 is not seen: the detector decides.
    let mut page = vec![b' '; 1010];
    page.extend_from_slice(b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4");
    let found = sniff_html(&page, None, None);
    assert_ne!(found.source, Source::Prescan);
    assert_eq!(found.source, Source::Detector);
    // ... and one that ends at byte 1024 is.
    let mut page = vec![b' '; 1024 - 21];
    page.extend_from_slice(b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4");
    assert_eq!(
        sniff_html(&page, None, None),
        sniffed(KOI8_R, Tentative, Source::Prescan)
    );
    // An XML declaration is read from the same 1024 bytes.
    let mut page = b"<?xml version='1.0'".to_vec();
    page.resize(1030, b' ');
    page.extend_from_slice(b" encoding='koi8-r'?>");
    assert_ne!(sniff_html(&page, None, None).source, Source::XmlDeclaration);
}

#[test]
fn sniffing_step_8_detector_is_tentative_without_utf8() {
    // 8. "autodetect the character encoding ... Such algorithms may use information about the
    //    resource other than the resource's contents, including the address of the resource":
    //    the Detector over all the bytes, guess(tld, false).
    let pages: [&[u8]; 4] = [
        "<p>Привет, мир! Как дела?</p>".as_bytes(),
        b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xca\xe0\xea \xe4\xe5\xeb\xe0?</p>",
        b"<title>\x93\xfa\x96\x7b\x8c\xea</title>",
        b"<p>\x1b$B$3$s$K$A$O\x1b(B</p>",
    ];
    for page in pages {
        for tld in [None, Some(&b"jp"[..]), Some(b"ru"), Some(b"com")] {
            let mut detector = Detector::new();
            detector.feed(page, true);
            let expected = detector.guess(tld, false);
            assert_eq!(
                sniff_html(page, None, tld),
                sniffed(expected, Tentative, Source::Detector),
                "{page:?} {tld:?}"
            );
            // Browsers do not guess UTF-8 for Web content.
            assert_ne!(expected, UTF_8);
        }
    }
    assert_eq!(sniff_html(pages[1], None, None).encoding, WINDOWS_1251);
    assert_eq!(sniff_html(pages[3], None, None).encoding, ISO_2022_JP);
    // A declaration that names nothing leaves the decision to the detector.
    assert_eq!(
        sniff_html(
            b"<meta charset=bogus><p>\xcf\xf0\xe8\xe2\xe5\xf2",
            None,
            None
        )
        .source,
        Source::Detector
    );
}

#[test]
fn sniffing_step_9_default() {
    // 9. "Otherwise, return an implementation-defined or user-specified default character
    //    encoding, with the confidence tentative": the Detector always answers; for ASCII, with
    //    the default (the top-level domain's usual encoding, windows-1252 when unknown), and the
    //    contract reports every undeclared document as the Detector's guess.
    for page in [&b""[..], b"<p>Hello</p>", b"<meta charset=bogus>plain"] {
        assert_eq!(
            sniff_html(page, None, None),
            sniffed(WINDOWS_1252, Tentative, Source::Detector)
        );
        let mut detector = Detector::new();
        detector.feed(page, true);
        assert_eq!(
            sniff_html(page, None, Some(b"jp")),
            sniffed(
                detector.guess(Some(b"jp"), false),
                Tentative,
                Source::Detector
            )
        );
    }
}
