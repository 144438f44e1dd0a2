"""The module's surface: lookup, Encoding, decode, decode_with_encoding, encode, bad input."""

import inspect
import pickle

import pytest

import textcodec
from conftest import NAMES, SPEC


def test_every_label_of_the_spec():
    seen = 0
    for name, labels in SPEC:
        for label in labels:
            for variant in (label, label.upper(), f"  {label}\t\n", f"\x0c{label.title()} "):
                enc = textcodec.lookup(variant)
                assert enc is not None, variant
                assert enc.name == name
            seen += 1
        assert set(textcodec.lookup(labels[0]).labels) == set(labels)
    assert seen == 228  # every label of the spec's table


def test_unknown_labels():
    for label in ["", "utf-9", "latin-1 ", "x-user-defined2", "utf\u20138", "\u00a0utf-8", "shift_jis\x00", "replacement2"]:
        assert textcodec.lookup(label) is None
        with pytest.raises(LookupError):
            textcodec.decode(b"", label)
        with pytest.raises(LookupError):
            textcodec.encode("", label)
        with pytest.raises(LookupError):
            textcodec.TextDecoder(label)


def test_encodings_in_spec_order():
    assert [e.name for e in textcodec.encodings()] == NAMES
    assert len(NAMES) == 40


def test_encoding_object():
    sjis = textcodec.lookup("sjis")
    assert sjis.name == "Shift_JIS" and str(sjis) == "Shift_JIS"
    assert repr(sjis) == "<Encoding Shift_JIS>"
    assert sjis == textcodec.lookup("ms_kanji")
    assert sjis != textcodec.lookup("euc-jp") and sjis != "Shift_JIS"
    assert hash(sjis) == hash(textcodec.lookup("shift_jis"))
    assert len({textcodec.lookup(l) for _, labels in SPEC for l in labels}) == 40
    assert isinstance(sjis.labels, tuple) and "sjis" in sjis.labels
    assert pickle.loads(pickle.dumps(sjis)) == sjis
    outputs = {e.name: e.output_encoding.name for e in textcodec.encodings()}
    assert outputs["UTF-16LE"] == outputs["UTF-16BE"] == outputs["replacement"] == "UTF-8"
    assert outputs["gb18030"] == "gb18030" and outputs["ISO-2022-JP"] == "ISO-2022-JP"
    # An Encoding is accepted wherever a label is.
    assert textcodec.decode(b"\x82\xa0", sjis) == "あ"


def test_decode_basics():
    assert textcodec.decode(b"caf\xe9", "latin1") == "café"
    assert textcodec.decode(b"\x80", "iso-8859-1") == "\u20ac"  # windows-1252
    assert textcodec.decode(b"\x82\xa0\x80", "shift_jis") == "あ\x80"
    assert textcodec.decode(b"\xef\xbb\xbfa", "windows-1252") == "a"  # the BOM wins
    assert textcodec.decode(b"\xfe\xff\x00a", "utf-8") == "a"
    assert textcodec.decode(b"a\xff") == "a\ufffd"
    assert textcodec.decode(b"") == ""
    assert textcodec.decode(b"abc", "iso-2022-kr") == "\ufffd"  # the replacement encoding
    assert textcodec.decode(b"", "iso-2022-kr") == ""
    for data in [bytearray(b"caf\xc3\xa9"), memoryview(b"caf\xc3\xa9"), memoryview(b"xcaf\xc3\xa9")[1:]]:
        assert textcodec.decode(data) == "café"
    import array

    assert textcodec.decode(array.array("B", b"caf\xc3\xa9")) == "café"


def test_decode_with_encoding():
    assert textcodec.decode_with_encoding(b"\xff\xfeh\x00i\x00", "windows-1252") == ("hi", textcodec.lookup("utf-16le"), False)
    text, enc, errors = textcodec.decode_with_encoding(b"a\x81\xff", "shift_jis")
    assert (text, enc.name, errors) == ("a\ufffd", "Shift_JIS", True)
    assert textcodec.decode_with_encoding(b"abc") == ("abc", textcodec.lookup("utf-8"), False)


def test_encode_basics():
    assert textcodec.encode("naïve ☃", "latin1") == b"na\xefve &#9731;"
    assert textcodec.encode("€", "latin1") == b"\x80"
    assert textcodec.encode("é😀") == "é😀".encode()
    assert textcodec.encode("é", "utf-16le") == b"\xc3\xa9"  # the output encoding is UTF-8
    assert textcodec.encode("é", "iso-2022-kr") == b"\xc3\xa9"
    assert textcodec.encode("火星 é", "shift_jis") == b"\x89\xce\x90\xaf &#233;"
    assert textcodec.encode("\u3042", "iso-2022-jp") == b"\x1b$B$\x22\x1b(B"
    assert textcodec.encode("\u00e9", "iso-2022-jp") == b"&#233;"
    assert textcodec.encode("\x0e", "iso-2022-jp") == b"&#65533;"  # the spec's special case
    assert textcodec.encode("\ufffd", "gb18030") == b"\x84\x31\xa4\x37"
    with pytest.raises(UnicodeEncodeError) as e:
        textcodec.encode("ab☃c", "latin1", "strict")
    assert (e.value.start, e.value.end, e.value.object) == (2, 3, "ab☃c")


def test_wrong_types_are_type_errors():
    for bad in ["text", 12, None, 1.5, [1, 2], object()]:
        with pytest.raises(TypeError):
            textcodec.decode(bad)
        with pytest.raises(TypeError):
            textcodec.decode_with_encoding(bad)
    for bad in [b"bytes", 12, None, ["a"]]:
        with pytest.raises(TypeError):
            textcodec.encode(bad)
    for bad_label in [12, b"utf-8", None, ["utf-8"]]:
        with pytest.raises(TypeError):
            textcodec.lookup(bad_label)
    with pytest.raises(TypeError):
        textcodec.decode(b"", 12)
    with pytest.raises(TypeError):
        textcodec.TextDecoder(b"utf-8")
    with pytest.raises(TypeError):
        textcodec.TextDecoder().decode("str")
    with pytest.raises(TypeError):
        textcodec.TextEncoder().encode(b"bytes")
    with pytest.raises(LookupError):
        textcodec.decode(b"", "utf-8", "no-such-handler")


def test_decode_arguments():
    # decode parses its own arguments (a METH_FASTCALL function): by place and by keyword.
    assert textcodec.decode(data=b"caf\xe9", label="latin1", errors="strict") == "café"
    assert textcodec.decode(b"caf\xe9", errors="strict", label="latin1") == "café"
    assert textcodec.decode(b"\xe9", None) == textcodec.decode(b"\xe9") == "\ufffd"
    assert str(inspect.signature(textcodec.decode)) == "(data, label='utf-8', errors='replace')"
    assert "BOM" in textcodec.decode.__doc__
    for args, kwargs in [
        ((), {}),
        ((), {"label": "utf-8"}),
        ((b"a", "utf-8", "replace", 1), {}),
        ((b"a",), {"data": b"b"}),
        ((b"a",), {"label": "utf-8", "lable": "utf-8"}),
        ((b"a", "utf-8"), {"errors": 3}),
    ]:
        with pytest.raises(TypeError):
            textcodec.decode(*args, **kwargs)


def test_strings_are_canonical():
    # Strings built in place must be in the smallest kind: equal to (and hashed like)
    # strings CPython built.
    assert textcodec._textcodec._fast_strings()
    for s in ["", "a", "abc", "é", "ÿé", "Ā", "\ufffd", "あ", "😀", "a😀", "\U0010ffff", "é" * 1000 + "😀"]:
        got = textcodec.decode(s.encode("utf-8"))
        assert got == s and hash(got) == hash(s) and len(got) == len(s)
        assert got.isascii() == s.isascii()
        assert got.encode("utf-8") == s.encode("utf-8")
        assert sorted([got, "é", "Ā", "😀"]) == sorted([s, "é", "Ā", "😀"])
    assert {textcodec.decode(b"caf\xe9", "latin1"): 1}["café"] == 1
