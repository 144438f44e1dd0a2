"""TextDecoder and TextEncoder with the JavaScript semantics."""

import pytest

import textcodec


def test_text_decoder_attributes():
    d = textcodec.TextDecoder()
    assert (d.encoding, d.fatal, d.ignore_bom) == ("utf-8", False, False)
    d = textcodec.TextDecoder("SJIS", fatal=True, ignore_bom=True)
    assert (d.encoding, d.fatal, d.ignore_bom) == ("shift_jis", True, True)
    assert textcodec.TextDecoder("latin1").encoding == "windows-1252"
    with pytest.raises(LookupError):
        textcodec.TextDecoder("iso-2022-kr")  # the replacement encoding is refused
    with pytest.raises(LookupError):
        textcodec.TextDecoder("replacement")


def test_text_decoder_bom():
    # Only the encoding's own BOM is removed, and only at the start.
    assert textcodec.TextDecoder().decode(b"\xef\xbb\xbfa\xef\xbb\xbf") == "a\ufeff"
    assert textcodec.TextDecoder(ignore_bom=True).decode(b"\xef\xbb\xbfa") == "\ufeffa"
    assert textcodec.TextDecoder().decode(b"\xff\xfea\x00") == "\ufffd\ufffda\x00"
    assert textcodec.TextDecoder("utf-16le").decode(b"\xff\xfea\x00") == "a"
    assert textcodec.TextDecoder("utf-16be").decode(b"\xfe\xff\x00a") == "a"
    assert textcodec.TextDecoder("windows-1252").decode(b"\xef\xbb\xbf") == "ï»¿"
    # A BOM split across calls.
    d = textcodec.TextDecoder()
    assert d.decode(b"\xef", stream=True) + d.decode(b"\xbb", stream=True) + d.decode(b"\xbfz") == "z"
    d = textcodec.TextDecoder()
    assert d.decode(b"\xef", stream=True) + d.decode(b"\xbb") == "\ufffd"


def test_text_decoder_stream_and_reset():
    d = textcodec.TextDecoder("euc-jp")
    assert d.decode(b"\xa4", stream=True) == ""
    assert d.decode(b"\xa2") == "あ"
    assert d.decode(b"\xa4") == "\ufffd"  # stream=False ends the stream
    assert d.decode() == ""
    assert d.decode(b"\xa4\xa2") == "あ"
    # A non-streaming call after a streaming one starts over, BOM included.
    d = textcodec.TextDecoder()
    assert d.decode(b"\xef\xbb\xbfa", stream=True) == "a"
    assert d.decode(b"\xef\xbb\xbfb") == "\ufeffb"
    assert d.decode(b"\xef\xbb\xbfc") == "c"


def test_text_decoder_fatal():
    d = textcodec.TextDecoder("utf-8", fatal=True)
    with pytest.raises(UnicodeDecodeError) as e:
        d.decode(b"ab\xffcd")
    assert (e.value.start, e.value.end) == (2, 3)
    assert d.decode(b"ok") == "ok"
    with pytest.raises(UnicodeDecodeError):
        d.decode(b"\xc3")
    d.decode(b"\xc3", stream=True)
    assert d.decode(b"\xa9") == "é"


def test_text_decoder_inputs():
    d = textcodec.TextDecoder()
    for data in [b"x", bytearray(b"x"), memoryview(b"x")]:
        assert d.decode(data) == "x"
    with pytest.raises(TypeError):
        d.decode(12)


def test_text_encoder():
    e = textcodec.TextEncoder()
    assert e.encoding == "utf-8"
    assert e.encode() == b""
    assert e.encode("é😀") == "é😀".encode()
    assert e.encode("a\ud800b\udfff") == "a\ufffdb\ufffd".encode()
    # Python keeps a surrogate pair as two code points; as JavaScript (UTF-16) strings, they
    # are one character.
    assert e.encode("\ud83d\ude00") == "\U0001f600".encode()


def test_encode_into_never_writes_past_what_it_reports():
    e = textcodec.TextEncoder()
    text = "aé€😀" * 3 + "\ud800z"
    full = e.encode(text)
    for size in range(len(full) + 3):
        buf = bytearray(b"\xaa" * (size + 8))
        view = memoryview(buf)[:size]
        read, written = e.encode_into(text, view)
        assert written <= size
        assert buf[:written] == full[:written]
        assert buf[written:] == b"\xaa" * (len(buf) - written)
        # Whole characters only: what was written is the encoding of the chars read.
        assert e.encode(text[:read]) == bytes(buf[:written])
        assert read == len(text) or len(e.encode(text[read])) > size - written
    with pytest.raises(BufferError):
        e.encode_into("x", b"readonly")
    with pytest.raises(TypeError):
        e.encode_into(b"x", bytearray(4))
