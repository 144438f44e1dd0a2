"""Every encoding, decoded and encoded, against the Rust core (the `textcodec` command), on
the corpus and on damaged input; and the batch API against the one-item API."""

import pytest

import textcodec
from conftest import CORPUS, NAMES, corpus_texts, damage

TEXTS = corpus_texts()
# Characters no legacy encoding has, and some that only some have.
EXTRA = "a\u00e9\u20ac\u3042\u4e00\uac00\U0001f600\u0e01\u05d0\u0628\u00a5\u203e\x0e\x1b\ufffd z"


def inputs_for(name, oracle):
    """Byte strings in encoding `name`: the corpus encoded (by the oracle), damaged copies,
    and the corpus's UTF-8 read as `name`."""
    out = []
    for i, (fname, text) in enumerate(TEXTS.items()):
        text = text[:6000] + EXTRA
        if name in ("UTF-16LE", "UTF-16BE"):
            clean = text.encode("utf-16-le" if name == "UTF-16LE" else "utf-16-be")
        elif name == "replacement":
            clean = text.encode("utf-8")
        else:
            clean = oracle.encode(text, name)
        out.append(clean)
        out.append(damage(clean, i + 1))
        out.append(text.encode("utf-8")[: 3000 + i])
    return out


@pytest.mark.parametrize("name", NAMES)
def test_decode_against_core(name, oracle):
    items = inputs_for(name, oracle)
    got = [textcodec.decode(b, name) for b in items]
    for data, text in zip(items, got):
        assert text.encode("utf-8") == oracle.decode(data, name)
    assert textcodec.decode_many(items, name) == got
    assert textcodec.decode_many(items, [name] * len(items), threads=2) == got
    assert [textcodec.decode_with_encoding(b, name)[0] for b in items] == got


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("UTF-16LE", "UTF-16BE", "replacement")])
def test_encode_against_core(name, oracle):
    texts = [t[:6000] + EXTRA for t in TEXTS.values()] + [EXTRA * 3, "", "\U0010ffff"]
    got = [textcodec.encode(t, name) for t in texts]
    for text, data in zip(texts, got):
        assert data == oracle.encode(text, name)
    assert textcodec.encode_many(texts, name) == got
    assert textcodec.encode_many(texts, name, threads=2) == got


def test_every_corpus_file_as_utf8(oracle):
    paths = sorted(CORPUS.iterdir())
    assert len(paths) >= 30
    for p in paths:
        data = p.read_bytes()
        assert textcodec.decode(data).encode("utf-8") == oracle.decode(data, "utf-8")
        if p.suffix in (".txt", ".html"):
            assert textcodec.decode(data) == data.decode("utf-8")  # valid UTF-8: Python agrees
            assert textcodec.decode(data, errors="strict") == data.decode("utf-8")
