//! Byte offsets of malformed input that begins like a byte order mark but is not one: "BOM
//! sniff" only peeks at those bytes, so offsets count from the first byte of the input.

mod common;

use common::*;

#[test]
fn offsets_after_a_bom_prefix_that_does_not_complete() {
    // EF could start a UTF-8 BOM; with A after it, it is a malformed sequence at offset 0.
    let out = run(&["decode", "-e", "utf-8", "--invalid", "fail"], b"\xEFA");
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "textcodec: standard input: malformed UTF-8 at byte offset 0: EF\n"
    );
    // FF FF could start a UTF-16LE BOM (FF FE): four errors, the first at offset 0.
    let out = run(&["decode", "-e", "utf-8"], b"\xFF\xFF\xFF\xFF");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "\u{FFFD}".repeat(4));
    assert_eq!(
        stderr(&out),
        "textcodec: warning: standard input: 4 malformed UTF-8 sequences replaced with U+FFFD, \
         the first at byte offset 0\n"
    );
}
