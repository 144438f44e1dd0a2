"""The codec machinery: incremental decoders and encoders at every split point, getstate and
setstate, codecs.iterdecode/iterencode, open() and the stream readers and writers."""

import codecs
import io

import pytest

import textcodec
from conftest import NAMES, corpus_texts, damage

textcodec.register()
TEXTS = corpus_texts()
SAMPLE = TEXTS["ja.txt"][:60] + TEXTS["zh_tw.txt"][:30] + TEXTS["ko.txt"][:30] + "é€😀\u00a5\u203e~\\ z"
ENCODABLE = [n for n in NAMES if n not in ("UTF-16LE", "UTF-16BE", "replacement")]


def sample_bytes(name):
    if name in ("UTF-16LE", "UTF-16BE"):
        clean = b"\xff\xfe" if name == "UTF-16LE" else b"\xfe\xff"
        clean += SAMPLE.encode(name.lower())
    elif name == "replacement":
        clean = b"anything"
    else:
        clean = textcodec.encode(SAMPLE, name)
    # A BOM at the start (which wins), the text, and damage at the end.
    return clean, clean[:200] + damage(clean[200:300], 7)


@pytest.mark.parametrize("name", NAMES)
def test_incremental_decoder_every_split(name):
    codec = "whatwg-" + name
    for data in sample_bytes(name):
        for errors in ("replace", "strict", "backslashreplace"):
            try:
                want = data.decode(codec, errors)
            except UnicodeDecodeError as e:
                want = e
            for cut in range(len(data) + 1):
                d = codecs.getincrementaldecoder(codec)(errors)
                try:
                    got = d.decode(data[:cut]) + d.decode(data[cut:], final=True)
                except UnicodeDecodeError as e:
                    got = e
                if isinstance(want, Exception):
                    assert isinstance(got, UnicodeDecodeError)
                else:
                    assert got == want, (name, errors, cut)
                # getstate/setstate: a new decoder given the state goes on identically.
                if not isinstance(want, Exception) and cut % 3 == 0:
                    d1 = codecs.getincrementaldecoder(codec)(errors)
                    first = d1.decode(data[:cut])
                    state = d1.getstate()
                    assert isinstance(state, tuple) and isinstance(state[0], bytes) and isinstance(state[1], int)
                    d2 = codecs.getincrementaldecoder(codec)(errors)
                    d2.setstate(state)
                    assert first + d2.decode(data[cut:], final=True) == want


@pytest.mark.parametrize("name", NAMES)
def test_iterdecode_any_chunking(name):
    codec = "whatwg-" + name
    for data in sample_bytes(name):
        want = textcodec.decode(data, name)
        for size in (1, 2, 3, 5, 64):
            chunks = [data[i : i + size] for i in range(0, len(data), size)]
            assert "".join(codecs.iterdecode(chunks, codec, "replace")) == want
        # Byte by byte, with an empty chunk between each.
        chunks = [c for i in range(len(data)) for c in (data[i : i + 1], b"")]
        assert "".join(codecs.iterdecode(chunks, codec, "replace")) == want


@pytest.mark.parametrize("name", ENCODABLE)
def test_incremental_encoder_every_split(name):
    codec = "whatwg-" + name
    want = textcodec.encode(SAMPLE, name)
    assert SAMPLE.encode(codec, "xmlcharrefreplace") == want
    for cut in range(len(SAMPLE) + 1):
        e = codecs.getincrementalencoder(codec)("xmlcharrefreplace")
        assert e.encode(SAMPLE[:cut]) + e.encode(SAMPLE[cut:], final=True) == want
        if cut % 7 == 0:
            e1 = codecs.getincrementalencoder(codec)("xmlcharrefreplace")
            first = e1.encode(SAMPLE[:cut])
            e2 = codecs.getincrementalencoder(codec)("xmlcharrefreplace")
            e2.setstate(e1.getstate())
            assert first + e2.encode(SAMPLE[cut:], final=True) == want
    assert b"".join(codecs.iterencode(list(SAMPLE), codec, "xmlcharrefreplace")) == want


def test_iso2022jp_states():
    # Decoder states with nothing pending survive getstate/setstate.
    for data in [b"\x1b(Jab\\", b"\x1b(I!", b"\x1b$B$\"", b"\x1b$B", b"\x1b(J", b"\x1b(Ba", b"\x1b$B$", b"\x1b"]:
        d1 = codecs.getincrementaldecoder("whatwg-iso-2022-jp")("replace")
        first = d1.decode(data)
        for rest in [b"\\~!!", b"\x1b(Bx", b"$\"", b""]:
            d2 = codecs.getincrementaldecoder("whatwg-iso-2022-jp")("replace")
            d2.setstate(d1.getstate())
            assert first + d2.decode(rest, final=True) == textcodec.decode(data + rest, "iso-2022-jp")
    # Encoder states too: ASCII, Roman, JIS X 0208.
    for text in ["a", "\u00a5", "\u3042", ""]:
        e1 = codecs.getincrementalencoder("whatwg-iso-2022-jp")()
        first = e1.encode(text)
        e2 = codecs.getincrementalencoder("whatwg-iso-2022-jp")()
        e2.setstate(e1.getstate())
        for rest in ["b\\", "\u3044", "\u00a5"]:
            e3 = codecs.getincrementalencoder("whatwg-iso-2022-jp")()
            e3.setstate(e1.getstate())
            assert first + e3.encode(rest, final=True) == textcodec.encode(text + rest, "iso-2022-jp")


@pytest.mark.parametrize("name", ENCODABLE)
def test_open_round_trip(name, tmp_path):
    path = tmp_path / "f.txt"
    text = SAMPLE.replace("\r", "") + "\nline two\n"
    with open(path, "w", encoding="whatwg-" + name, errors="xmlcharrefreplace") as f:
        for i in range(0, len(text), 7):
            f.write(text[i : i + 7])
    data = path.read_bytes()
    assert data == textcodec.encode(text, name)
    with open(path, encoding="whatwg-" + name) as f:
        back = f.read()
    assert back == textcodec.decode(data, name)
    with open(path, encoding="whatwg-" + name) as f:
        assert f.readlines() == back.splitlines(keepends=True)
    # Small reads, and tell()/seek() back to a remembered position.
    with open(path, encoding="whatwg-" + name) as f:
        got, marks = [], []
        while True:
            marks.append((f.tell(), len("".join(got))))
            c = f.read(3)
            if not c:
                break
            got.append(c)
        assert "".join(got) == back
        for pos, nchars in marks[::5]:
            f.seek(pos)
            assert f.read() == back[nchars:]


def test_open_strict_errors(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok \x82\xa0 then \x82")
    with open(path, encoding="whatwg-shift_jis") as f:
        with pytest.raises(UnicodeDecodeError) as e:
            f.read()
    with open(path, encoding="whatwg-shift_jis", errors="replace") as f:
        assert f.read() == "ok あ then \ufffd"
    with open(path, "w", encoding="whatwg-latin1") as f:
        with pytest.raises(UnicodeEncodeError):
            f.write("☃")
            f.flush()


@pytest.mark.parametrize("name", ["Shift_JIS", "ISO-2022-JP", "UTF-16LE", "gb18030", "EUC-KR"])
def test_stream_reader_writer(name):
    codec = "whatwg-" + name
    data = sample_bytes(name)[0]
    want = textcodec.decode(data, name)
    for size in (1, 3, 100, -1):
        r = codecs.getreader(codec)(io.BytesIO(data), "replace")
        out = []
        while True:
            c = r.read(size) if size > 0 else r.read()
            if not c:
                break
            out.append(c)
        assert "".join(out) == want
    r = codecs.getreader(codec)(io.BytesIO(data + b"\n2nd\n"), "replace")
    assert r.readline() + r.read() == textcodec.decode(data + b"\n2nd\n", name)
    # A partial sequence at the end is malformed, not dropped.
    r = codecs.getreader(codec)(io.BytesIO(b"ab" + data[-1:] if name == "UTF-16LE" else b"a\x82"), "replace")
    assert r.read().endswith("\ufffd")
    if name in ENCODABLE:
        buf = io.BytesIO()
        w = codecs.getwriter(codec)(buf, "xmlcharrefreplace")
        for ch in SAMPLE:
            w.write(ch)
        w.reset()
        assert buf.getvalue() == textcodec.encode(SAMPLE, name)


def test_codec_names():
    # Every label, as codecs.lookup normalizes it (case, '-' and '_').
    for enc in textcodec.encodings():
        for label in enc.labels:
            for variant in (label, label.upper(), label.replace("-", "_")):
                info = codecs.lookup("whatwg-" + variant)
                assert info.name == "whatwg-" + enc.name.lower()
    assert codecs.lookup("WHATWG_Shift-JIS").name == "whatwg-shift_jis"
    with pytest.raises(LookupError):
        codecs.lookup("whatwg-nope")
    with pytest.raises(LookupError):
        b"x".decode("whatwg-")
    # Python's own codecs are untouched.
    assert b"\x80".decode("latin1") == "\x80"
    assert b"\x80".decode("whatwg-latin1") == "\u20ac"
    textcodec.register()  # twice is harmless
    assert b"\x82\xa0".decode("whatwg-sjis") == "あ"
    assert codecs.decode(b"\x82\xa0", "whatwg-sjis") == "あ"
    assert codecs.encode("あ", "whatwg-sjis") == b"\x82\xa0"
    assert codecs.decode(memoryview(b"\x82\xa0"), "whatwg-sjis") == "あ"
