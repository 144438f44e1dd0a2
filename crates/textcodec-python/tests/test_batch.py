"""decode_many and encode_many: lists and pyarrow arrays (nulls, slices, chunked, large),
per-row labels, threads, errors."""

import pyarrow as pa
import pytest

import textcodec
from conftest import corpus_texts

TEXTS = list(corpus_texts().values())
LABELS = ["utf-8", "shift_jis", "euc-kr", "gbk", "big5", "windows-1251", "latin1", "iso-2022-jp", "utf-16le", "euc-jp"]


def rows(n=300):
    """n rows, each a slice of the corpus in one of LABELS, some damaged, and its label."""
    items, labels = [], []
    for i in range(n):
        label = LABELS[i % len(LABELS)]
        text = TEXTS[i % len(TEXTS)][i * 7 % 500 :][: 50 + i * 13 % 400]
        data = text.encode("utf-16-le") if label == "utf-16le" else textcodec.encode(text, label)
        if i % 9 == 4:
            data = data[:-1] + b"\xff\x80"
        items.append(data)
        labels.append(label)
    return items, labels


def test_lists_match_one_by_one():
    items, labels = rows()
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    for threads in (None, 1, 2, 3):
        assert textcodec.decode_many(items, labels, threads=threads) == want
        assert textcodec.decode_many(tuple(items), tuple(labels), threads=threads) == want
    one = [textcodec.decode(b, "gbk") for b in items]
    assert textcodec.decode_many(items, "gbk") == one
    assert textcodec.decode_many(items, textcodec.lookup("gbk")) == one
    assert textcodec.decode_many([bytearray(b) for b in items], labels) == want
    assert textcodec.decode_many([memoryview(b) for b in items], labels, threads=2) == want
    assert textcodec.decode_many([]) == []
    assert textcodec.decode_many(iter(items[:3])) == [textcodec.decode(b) for b in items[:3]]
    texts = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    enc = [textcodec.encode(t, l) for t, l in zip(texts, labels)]
    assert textcodec.encode_many(texts, labels) == enc
    assert textcodec.encode_many(texts, labels, threads=2) == enc


def test_big_batches_on_threads():
    items, labels = rows(4000)
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    assert sum(map(len, items)) > textcodec._textcodec.__dict__.get("PARALLEL_BYTES", 1 << 18)
    assert textcodec.decode_many(items, labels) == want
    assert textcodec.decode_many(items, labels, threads=2) == want
    assert textcodec.decode_many(items, labels, threads=7) == want


def test_errors_in_batches():
    items = [b"ok", b"a\xffb", b"\x82\xa0"]
    assert textcodec.decode_many(items, "shift_jis") == ["ok", "a\ufffdb", "あ"]
    with pytest.raises(UnicodeDecodeError) as e:
        textcodec.decode_many(items, "shift_jis", "strict")
    assert (e.value.start, e.value.end) == (1, 2)
    assert "in row 1" in getattr(e.value, "__notes__", ["in row 1"])
    assert textcodec.decode_many(items, "shift_jis", "backslashreplace") == ["ok", "a\\xffb", "あ"]
    assert textcodec.encode_many(["a", "☃"], "latin1") == [b"a", b"&#9731;"]
    assert textcodec.encode_many(["a", "☃"], "latin1", "replace") == [b"a", b"?"]
    with pytest.raises(UnicodeEncodeError):
        textcodec.encode_many(["a", "☃"], "latin1", "strict")
    assert textcodec.encode_many(["a\udc80"], "latin1", "surrogateescape") == [b"a\x80"]


def test_bad_arguments():
    with pytest.raises(LookupError, match="row 1"):
        textcodec.decode_many([b"a", b"b"], ["utf-8", "nope"])
    with pytest.raises(LookupError, match="row 0"):
        textcodec.decode_many([b"a"], [None])
    with pytest.raises(ValueError):
        textcodec.decode_many([b"a", b"b"], ["utf-8"])
    with pytest.raises(TypeError):
        textcodec.decode_many([b"a", "b"])
    with pytest.raises(TypeError):
        textcodec.decode_many(b"abc")
    with pytest.raises(TypeError):
        textcodec.decode_many(12)
    with pytest.raises(TypeError):
        textcodec.decode_many([b"a"], [12])
    with pytest.raises(TypeError):
        textcodec.encode_many([b"a"])
    with pytest.raises(TypeError):
        textcodec.encode_many("abc")
    with pytest.raises(LookupError):
        textcodec.decode_many([b"a"], "nope")
    with pytest.raises(ValueError):
        textcodec.decode_many([b"a"], threads=0)


def test_arrow_arrays():
    items, labels = rows()
    items[5] = None
    items[17] = None
    want = [None if b is None else textcodec.decode(b, l) for b, l in zip(items, labels)]
    for typ, out_typ in [(pa.binary(), pa.string()), (pa.large_binary(), pa.large_string())]:
        arr = pa.array(items, typ)
        for lab in (labels, pa.array(labels), pa.array(labels).dictionary_encode(), pa.chunked_array([labels[:100], labels[100:]])):
            for threads in (1, 2):
                got = textcodec.decode_many(arr, lab, threads=threads)
                assert got.type == out_typ and got.null_count == 2
                got.validate(full=True)
                assert got.to_pylist() == want
        # Slices: offsets into the same buffers, the validity bits included.
        for a, b in [(3, 40), (5, 6), (1, 299), (17, 17)]:
            got = textcodec.decode_many(arr[a:b], labels[a:b])
            got.validate(full=True)
            assert got.to_pylist() == want[a:b]
        # Chunked arrays give chunked arrays.
        ch = pa.chunked_array([arr[:100], arr[100:250], arr[250:]], typ)
        got = textcodec.decode_many(ch, labels, threads=2)
        assert isinstance(got, pa.ChunkedArray) and got.type == out_typ
        assert got.to_pylist() == want
        assert textcodec.decode_many(pa.chunked_array([], typ)).type == out_typ
    # Round trip through encode_many.
    texts = pa.array(want, pa.string())
    back = textcodec.encode_many(texts, labels)
    assert back.type == pa.binary() and back.null_count == 2
    assert back.to_pylist() == [None if t is None else textcodec.encode(t, l) for t, l in zip(want, labels)]
    assert textcodec.encode_many(pa.array(want, pa.large_string()), labels).type == pa.large_binary()
    # A string array decodes as its UTF-8 bytes.
    assert textcodec.decode_many(pa.array(["é", None])).to_pylist() == ["é", None]


def test_arrow_errors():
    arr = pa.array([b"ok", None, b"a\xffb"])
    assert textcodec.decode_many(arr, "utf-8").to_pylist() == ["ok", None, "a\ufffdb"]
    assert textcodec.decode_many(arr, "utf-8", "ignore").to_pylist() == ["ok", None, "ab"]
    assert textcodec.decode_many(arr, "utf-8", "backslashreplace").to_pylist() == ["ok", None, "a\\xffb"]
    with pytest.raises(UnicodeDecodeError):
        textcodec.decode_many(arr, "utf-8", "strict")
    with pytest.raises(ValueError):  # lone surrogates cannot be Arrow strings
        textcodec.decode_many(arr, "utf-8", "surrogateescape")
    with pytest.raises(TypeError):
        textcodec.decode_many(pa.array([1, 2]))
    with pytest.raises(TypeError):
        textcodec.encode_many(pa.array([b"x"]))
    with pytest.raises(LookupError, match="row 1"):
        textcodec.decode_many(arr, pa.array(["utf-8", "bad", "utf-8"]))
    with pytest.raises(LookupError, match="row 2"):
        textcodec.decode_many(arr, pa.array(["utf-8", "utf-8", None]))
    with pytest.raises(ValueError):
        textcodec.decode_many(arr, pa.array(["utf-8"]))
    assert textcodec.encode_many(pa.array(["a", "☃"]), "latin1").to_pylist() == [b"a", b"&#9731;"]
    with pytest.raises(UnicodeEncodeError):
        textcodec.encode_many(pa.array(["a", "☃"]), "latin1", "strict")


def test_arrow_large_batch_threads():
    items, labels = rows(3000)
    arr = pa.array(items, pa.binary())
    one = textcodec.decode_many(arr, labels, threads=1)
    two = textcodec.decode_many(arr, labels, threads=2)
    assert one.equals(two)
    assert one.to_pylist() == textcodec.decode_many(items, labels)
