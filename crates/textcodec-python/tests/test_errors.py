"""Error handlers: the exact start and end of every malformed sequence and unencodable
character, and every standard handler."""

import codecs

import pytest

import textcodec
from conftest import NAMES, corpus_texts, damage

textcodec.register()
TEXT = corpus_texts()["ja.txt"][:1500] + corpus_texts()["ru.txt"][:500] + "é€😀"


def damaged(name, seed):
    enc = textcodec.lookup(name)
    if name in ("UTF-16LE", "UTF-16BE"):
        clean = TEXT.encode(name.lower())
    else:
        clean = textcodec.encode(TEXT, enc.output_encoding)
    return damage(clean, seed) + b"\x80\xff\x1b$" + bytes(range(0x80, 0x100, 7))


def recorded(data, name):
    """Decodes with a handler that records each error's (start, end) and gives U+FFFD."""
    seen = []

    def handler(exc):
        assert isinstance(exc, UnicodeDecodeError) and exc.object == data
        seen.append((exc.start, exc.end))
        return "\ufffd", exc.end

    codecs.register_error("textcodec-test-record", handler)
    text = textcodec.decode(data, name, "textcodec-test-record")
    return text, seen


@pytest.mark.parametrize("name", NAMES)
def test_handlers_see_each_malformed_sequence(name):
    for seed in range(1, 4):
        data = damaged(name, seed)
        want = textcodec.decode(data, name)
        text, seen = recorded(data, name)
        # The handler runs once per U+FFFD of replacement mode, at increasing positions.
        assert text == want
        assert len(seen) == want.count("\ufffd")
        assert all(s < e for s, e in seen)
        assert all(e1 <= s2 for (_, e1), (s2, _) in zip(seen, seen[1:]))
        # strict stops at the first.
        if seen:
            with pytest.raises(UnicodeDecodeError) as e:
                textcodec.decode(data, name, "strict")
            assert (e.value.start, e.value.end) == seen[0]
            assert e.value.encoding == textcodec.lookup(name).name
        # ignore drops exactly the replacement characters.
        assert textcodec.decode(data, name, "ignore") == _without_errors(want, seen, data, name)
        # backslashreplace shows exactly the malformed bytes.
        br = textcodec.decode(data, name, "backslashreplace")
        assert br == _filled(data, name, seen, lambda b: "".join(f"\\x{x:02x}" for x in b))
        # surrogateescape keeps them, so the bytes come back (where they are not ASCII,
        # which Python's handler refuses or leaves to the decoder).
        if all(x >= 0x80 for s, e in seen for x in data[s:e]):
            se = textcodec.decode(data, name, "surrogateescape")
            assert se == _filled(data, name, seen, lambda b: "".join(chr(0xDC00 + x) for x in b))
        # The codec machinery gives the same.
        assert data.decode("whatwg-" + name, "backslashreplace") == br


def _filled(data, name, seen, show):
    """Replacement-mode output with each U+FFFD of an error replaced by show(its bytes)."""
    parts = []
    it = iter(seen)

    def handler(exc):
        s, e = next(it)
        assert (exc.start, exc.end) == (s, e)
        return show(data[s:e]), e

    codecs.register_error("textcodec-test-fill", handler)
    parts.append(textcodec.decode(data, name, "textcodec-test-fill"))
    return "".join(parts)


def _without_errors(want, seen, data, name):
    return _filled(data, name, seen, lambda b: "")


def test_utf8_errors_match_python():
    # CPython's UTF-8 decoder replaces the same maximal subparts as the spec: its error
    # positions are a second oracle for UTF-8.
    samples = [
        b"a\x80b", b"\xc3", b"\xc3(", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
        b"\xf0\x9f\x98", b"\xf0\x9f\x98x", b"\xff\xff", b"caf\xc3\xa9\xc3",
    ] + [damage("héllo wörld 😀 漢字 ".encode() * 40, s) for s in range(1, 30)]
    for data in samples:
        mine, theirs = [], []

        def h1(exc):
            mine.append((exc.start, exc.end))
            return "\ufffd", exc.end

        def h2(exc):
            theirs.append((exc.start, exc.end))
            return "\ufffd", exc.end

        codecs.register_error("tc-h1", h1)
        codecs.register_error("tc-h2", h2)
        if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            continue
        assert textcodec.decode(data, "utf-8", "tc-h1") == data.decode("utf-8", "tc-h2")
        assert mine == theirs, data
        assert textcodec.decode(data, "utf-8", "backslashreplace") == data.decode("utf-8", "backslashreplace")
        assert textcodec.decode(data, "utf-8", "surrogateescape") == data.decode("utf-8", "surrogateescape")


def test_single_byte_errors_are_one_byte():
    data = bytes(range(256))
    for name in ["windows-1253", "windows-1255", "ISO-8859-3", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "windows-874"]:
        want = [i for i in range(256) if textcodec.decode(bytes([i]), name) == "\ufffd"]
        _, seen = recorded(data, name)
        assert seen == [(i, i + 1) for i in want]


def test_known_positions():
    cases = [
        ("shift_jis", b"a\x81 b", (1, 2)),  # an ASCII trail byte is not swallowed
        ("shift_jis", b"\x82", (0, 1)),
        ("euc-kr", b"\xa1\xa1\xc9\x41", (2, 3)),
        ("gb18030", b"\x81\x30\x81\x20", (0, 1)),  # a bad fourth byte: the first alone
        ("big5", b"\x81\x40", (0, 1)),  # an ASCII trail byte is restored
        ("big5", b"\x81\xa1", (0, 2)),
        ("iso-2022-jp", b"\x1b$B\x21\x0a", (3, 5)),
        ("iso-2022-jp", b"ab\x1b(Xc", (2, 3)),
        ("iso-2022-jp", b"\x1b(J\x1b(B", (3, 6)),  # an escape right after another
        ("iso-2022-jp", b"\x1b(Ja\x1b(B\x0e", (7, 8)),
        ("utf-16le", b"a\x00\x00\xd8b\x00", (2, 4)),
        ("utf-16be", b"\x00a\x00", (2, 3)),
        ("euc-jp", b"\x8f\xa1", (0, 2)),
        # Bytes that begin like a UTF-8 BOM and are not one: the error is after them (the
        # core's BOM sniffing holds them while it decides, so the binding sniffs by itself).
        ("utf-16le", b"\xef\xbbA", (2, 3)),
        ("euc-kr", b"\xef\xbb\xff", (2, 3)),
    ]
    for name, data, span in cases:
        with pytest.raises(UnicodeDecodeError) as e:
            textcodec.decode(data, name, "strict")
        assert (e.value.start, e.value.end) == span, (name, data)


def test_encode_handlers():
    text = "aé☃b😀c\u0101"
    for name, unmappable in [("latin1", [2, 4, 6]), ("shift_jis", [1, 2, 4, 6]), ("iso-2022-jp", [1, 2, 4, 6])]:
        seen = []

        def handler(exc):
            assert isinstance(exc, UnicodeEncodeError) and exc.object == text
            seen.append(exc.start)
            assert exc.end == exc.start + 1
            return "?", exc.end

        codecs.register_error("tc-enc", handler)
        out = textcodec.encode(text, name, "tc-enc")
        assert seen == unmappable
        assert textcodec.decode(out, name).count("?") == len(unmappable)
        assert textcodec.encode(text, name, "ignore") == textcodec.encode(
            "".join(c for i, c in enumerate(text) if i not in unmappable), name, "strict"
        )
        assert textcodec.encode(text, name, "backslashreplace") == textcodec.encode(
            "".join(c.encode("ascii", "backslashreplace").decode() if i in unmappable else c for i, c in enumerate(text)),
            name,
            "strict",
        )
        nr = textcodec.encode(text, name, "namereplace")
        assert b"\\N{SNOWMAN}" in nr
        assert text.encode("whatwg-" + name, "xmlcharrefreplace") == textcodec.encode(text, name)
    # Handlers may give bytes, and may skip further.
    codecs.register_error("tc-bytes", lambda exc: (b"<>", exc.end + 1))
    assert textcodec.encode("a☃bc", "latin1", "tc-bytes") == b"a<>c"
    codecs.register_error("tc-back", lambda exc: ("<", -1))
    assert textcodec.encode("a☃b", "latin1", "tc-back") == b"a<b"
    codecs.register_error("tc-bad", lambda exc: 12)
    with pytest.raises(TypeError):
        textcodec.encode("a☃", "latin1", "tc-bad")
    with pytest.raises(TypeError):
        textcodec.decode(b"a\xff", "utf-8", "tc-bad")
    codecs.register_error("tc-far", lambda exc: ("", 99))
    with pytest.raises(IndexError):
        textcodec.decode(b"a\xff", "utf-8", "tc-far")


def test_surrogates():
    # Lone surrogates are unencodable characters; surrogateescape turns them back into bytes.
    raw = b"caf\xe9 \x81\x8d"
    s = raw.decode("utf-8", "surrogateescape")
    assert textcodec.encode(s, "utf-8", "surrogateescape") == raw
    assert textcodec.encode(s, "shift_jis", "surrogateescape") == raw
    with pytest.raises(UnicodeEncodeError) as e:
        textcodec.encode("ab\ud800c", "latin1", "strict")
    assert (e.value.start, e.value.end) == (2, 3)
    assert textcodec.encode("a\ud83dé", "latin1") == b"a&#55357;\xe9"
    assert textcodec.encode("\ud83d\ude00", "gb18030", "replace") == b"??"
    # Decoding then encoding round-trips arbitrary bytes with surrogateescape where every
    # byte is a character or an error of its own.
    for name in ["windows-1253", "ISO-8859-8"]:
        data = bytes(range(256))
        assert textcodec.encode(textcodec.decode(data, name, "surrogateescape"), name, "surrogateescape") == data
    # surrogatepass is Python's UTF-8/16/32 handler: it refuses other codecs, as Python does.
    with pytest.raises(UnicodeEncodeError):
        textcodec.encode("\ud800", "shift_jis", "surrogatepass")
