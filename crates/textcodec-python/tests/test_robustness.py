"""Threads, and faults: many threads at once, and a Rust panic never crosses into Python."""

import concurrent.futures
import gc
import sys

import pytest

import textcodec
from conftest import corpus_texts

TEXTS = corpus_texts()


def test_many_threads_at_once():
    cases = []
    for i, (name, text) in enumerate(TEXTS.items()):
        for label in ["utf-8", "shift_jis", "gb18030", "windows-1251", "iso-2022-jp", "euc-kr"]:
            data = textcodec.encode(text, label)
            cases.append((data, label, textcodec.decode(data, label), text))

    def work(k):
        out = []
        for j in range(40):
            data, label, want, text = cases[(k * 7 + j) % len(cases)]
            assert textcodec.decode(data, label) == want
            assert textcodec.decode(data, label, "strict") == want
            d = textcodec.TextDecoder(label)
            assert "".join(d.decode(data[i : i + 97], stream=True) for i in range(0, len(data), 97)) + d.decode() == want
            assert textcodec.decode_many([data] * 3, label, threads=2) == [want] * 3
            out.append(len(textcodec.encode(want, label)))
        return out

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        results = list(pool.map(work, range(64)))
    assert len(results) == 64


def test_shared_decoder_across_threads():
    # One incremental decoder used from several threads (serialised by the GIL or a lock
    # inside): no crash, and each call sees a consistent state.
    d = textcodec.TextDecoder("shift_jis")

    def work(_):
        for _ in range(200):
            d.decode(b"\x82\xa0\x82", stream=True)
        return True

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(8)))


def test_a_panic_becomes_an_exception():
    # pyo3 turns a Rust panic into pyo3_runtime.PanicException (a BaseException, as
    # Python's SystemExit): the interpreter goes on.
    for where in ("here", "thread"):
        with pytest.raises(BaseException) as e:
            textcodec._textcodec._panic(where)
        assert type(e.value).__name__ == "PanicException"
        assert "textcodec test panic" in str(e.value)
    assert textcodec.decode(b"still alive") == "still alive"
    gc.collect()


def test_bad_input_never_crashes():
    import random

    rnd = random.Random(5)
    for _ in range(300):
        data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(40)))
        for enc in textcodec.encodings():
            for errors in ("replace", "strict", "ignore", "backslashreplace", "surrogateescape"):
                try:
                    textcodec.decode(data, enc, errors)
                except UnicodeDecodeError:
                    pass
    assert sys.getrefcount(textcodec) > 0
