"""detect and sniff_html: against the Rust core (the `textcodec detect` command), and the HTML
Standard's steps."""

import json
import subprocess

import pytest

import textcodec
from conftest import corpus_texts

TEXTS = corpus_texts()
CASES = [
    ("ja.txt", "Shift_JIS"), ("ja.txt", "EUC-JP"), ("ja.txt", "ISO-2022-JP"), ("zh_cn.txt", "GBK"),
    ("zh_tw.txt", "Big5"), ("ko.txt", "EUC-KR"), ("ru.txt", "windows-1251"), ("ru.txt", "KOI8-R"),
    ("el.txt", "windows-1253"), ("he.txt", "windows-1255"), ("ar.txt", "windows-1256"), ("th.txt", "windows-874"),
    ("cs.txt", "windows-1250"), ("tr.txt", "windows-1254"), ("vi.txt", "windows-1258"), ("de.txt", "windows-1252"),
    ("fr.txt", "UTF-8"), ("en.txt", "UTF-8"),
]


def cli_detect(oracle, data, tld=None, allow_utf8=True, tmp=None):
    args = [oracle.exe, "detect", "--json"]
    if tld:
        args += ["--tld", tld]
    if not allow_utf8:
        args += ["--no-utf8"]
    r = subprocess.run(args + ["-"], input=data, capture_output=True, check=True)
    return json.loads(r.stdout)[0]


@pytest.mark.parametrize("fname,name", CASES)
def test_detect_against_core(fname, name, oracle):
    text = TEXTS[fname][:3000]
    data = textcodec.encode(text, name)
    for tld, allow in [(None, True), (None, False), ("jp", True), ("ru", False)]:
        got = textcodec.detect(data, tld=tld, allow_utf8=allow)
        want = cli_detect(oracle, data, tld, allow)
        assert (got.encoding.name, got.source) == (want["encoding"], want["source"])
        assert abs(got.score - want["score"]) < 1e-4
        assert 0.0 <= got.score <= 1.0
    # The guess decodes the text as its author wrote it (confusable encodings included).
    guess = textcodec.detect(data).encoding
    assert textcodec.decode(data, guess) == textcodec.decode(data, name)


def test_detect_declared():
    d = textcodec.detect(b"\xef\xbb\xbf\x82\xa0")
    assert (d.encoding.name, d.source, d.score, d.confidence) == ("UTF-8", "bom", 1.0, "certain")
    d = textcodec.detect(b"<html><meta charset='euc-kr'>\xb0\xa1")
    assert (d.encoding.name, d.source) == ("EUC-KR", "meta")
    d = textcodec.detect(b"<?xml version='1.0' encoding='Shift_JIS'?><a/>")
    assert d.encoding.name == "Shift_JIS"
    assert textcodec.detect(memoryview(b"\xff\xfea\x00")).encoding.name == "UTF-16LE"
    assert "Detection(" in repr(d)
    with pytest.raises(TypeError):
        textcodec.detect("str")
    with pytest.raises(TypeError):
        textcodec.detect(b"x", "jp")  # tld is keyword-only


def test_sniff_html_steps():
    page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2"
    s = textcodec.sniff_html(page)
    assert (s.encoding.name, s.source, s.confidence) == ("windows-1251", "meta", "tentative")
    s = textcodec.sniff_html(page, "text/html; charset=koi8-r")
    assert (s.encoding.name, s.source, s.confidence) == ("KOI8-R", "transport", "certain")
    s = textcodec.sniff_html(b"\xef\xbb\xbf<meta charset=gbk>", "text/html; charset=big5")
    assert (s.encoding.name, s.source, s.confidence) == ("UTF-8", "bom", "certain")
    s = textcodec.sniff_html(b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!</p>")
    assert (s.encoding.name, s.source, s.confidence) == ("windows-1251", "guess", "tentative")
    assert 0.0 < s.score <= 1.0
    # UTF-8 is not a guess for Web content: the contract's reading.
    s = textcodec.sniff_html("<p>héllo wörld</p>".encode())
    assert s.encoding.name != "UTF-8" and s.source == "guess"
    # A <meta> past the first 1024 bytes is not seen.
    assert textcodec.sniff_html(b" " * 1100 + b"<meta charset=koi8-r>").source == "guess"
    assert textcodec.sniff_html(b"abc", None, "jp").encoding.name == textcodec.detect(b"abc", tld="jp", allow_utf8=False).encoding.name
    with pytest.raises(TypeError):
        textcodec.sniff_html(b"x", b"text/html")
