"""decode_many and encode_many: lists and pyarrow arrays (nulls, slices, chunked, large),
per-row labels, threads, errors."""

import os
import sys

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


def kinds_rows():
    """Rows of every encoding and every kind of string (empty, ASCII, Latin-1, BMP, astral,
    with BOMs, long Latin-1 text that turns CJK or malformed late, every byte, damaged):
    (bytes, label) pairs."""
    from conftest import NAMES, damage

    texts = ["", "plain ascii, <b>markup</b>", "café ÿ déjà", "Ā€ 火 あ Ж", "a😀b 𝄞", "é" * 300 + "火",
             "x" * 400 + "é" * 50 + "😀", "ü" * 700]
    out = []
    for k, name in enumerate(NAMES):
        for t in texts:
            if name in ("UTF-16BE", "UTF-16LE"):
                data = t.encode(name.lower().replace("utf-16", "utf-16-"))
            else:
                data = textcodec.encode(t, name)
            out.append((data, name))
            out.append((damage(data, k * 31 + len(t)), name))
        out.append((bytes(range(256)), name))
        out.append((bytes(range(128, 256)) * 3, name))
        out.append((b"\xef\xbb\xbf" + "é火😀".encode(), name))
        out.append((b"\xff\xfe" + "é火".encode("utf-16-le"), name))
        out.append((b"\xfe\xff", name))
        out.append((b"abc" * 200 + b"\xc3\xa9" * 100 + b"\xe2\x82", name))
        out.append((b"\xc3\xa9" * 100 + b"\xf0\x9f\x98\x80" + b"\xe9", name))
    return out


def same(got, want):
    """Equal strings of the same representation (CPython's == compares the kinds first;
    sys.getsizeof tells the kind and the layout)."""
    import sys

    assert got == want
    assert [sys.getsizeof(s) for s in got] == [sys.getsizeof(s) for s in want]


def test_decode_many_is_decode_on_every_kind_of_string():
    pairs = kinds_rows()
    items, labels = [p[0] for p in pairs], [p[1] for p in pairs]
    # Big enough for several chunks on each thread, in a different order each time.
    big_items, big_labels = items * 12, labels * 12
    assert sum(map(len, big_items)) > 4 << 18
    for errors in ("replace", "ignore", "backslashreplace"):
        want = [textcodec.decode(b, l, errors) for b, l in zip(items, labels)]
        for threads in (1, 2, 3):
            same(textcodec.decode_many(items, labels, errors, threads=threads), want)
        same(textcodec.decode_many(big_items, big_labels, errors, threads=2), want * 12)
    want = [textcodec.decode(b, l) for b, l in zip(big_items, big_labels)]
    for threads in (None, 1, 2, 3):
        same(textcodec.decode_many(big_items, big_labels, threads=threads), want)
    # One label for every row.
    for name in ("utf-8", "windows-1252", "KOI8-R", "Shift_JIS", "UTF-16LE"):
        same(textcodec.decode_many(big_items, name, threads=2), [textcodec.decode(b, name) for b in big_items])
    # Strict: the rows that decode give the same strings; the first that does not raises
    # decode's error, noted with its row, whatever the threads.
    ok = []
    for b, l in zip(items, labels):
        try:
            ok.append((b, l, textcodec.decode(b, l, "strict")))
        except UnicodeDecodeError:
            pass
    assert len(ok) > len(items) // 3
    for threads in (1, 2):
        got = textcodec.decode_many([o[0] for o in ok] * 12, [o[1] for o in ok] * 12, "strict", threads=threads)
        same(got, [o[2] for o in ok] * 12)
    bad = next(i for i, (b, l) in enumerate(zip(big_items, big_labels)) if i > 2000 and
               textcodec.decode(b, l) != textcodec.decode(b, l, "ignore"))
    with pytest.raises(UnicodeDecodeError) as e:
        textcodec.decode(big_items[bad], big_labels[bad], "strict")
    want_err = e.value
    ok_items = [o[0] for o in ok] * 6
    ok_labels = [o[1] for o in ok] * 6
    for threads in (1, 2, 3):
        with pytest.raises(UnicodeDecodeError) as e:
            textcodec.decode_many(ok_items + [big_items[bad]] + items, ok_labels + [big_labels[bad]] + labels,
                                  "strict", threads=threads)
        assert (e.value.start, e.value.end, e.value.reason, e.value.object) == \
            (want_err.start, want_err.end, want_err.reason, want_err.object)
        if hasattr(e.value, "__notes__"):
            assert e.value.__notes__ == [f"in row {len(ok_items)}"]


def test_decode_many_arrow_is_decode_on_every_kind_of_string():
    pairs = kinds_rows()
    items = [p[0] for p in pairs] * 4
    labels = [p[1] for p in pairs] * 4
    items[3] = items[100] = None
    want = [None if b is None else textcodec.decode(b, l) for b, l in zip(items, labels)]
    for typ in (pa.binary(), pa.large_binary()):
        arr = pa.array(items, typ)
        for threads in (1, 2, 3):
            got = textcodec.decode_many(arr, pa.array(labels), threads=threads)
            got.validate(full=True)
            assert got.null_count == 2 and got.to_pylist() == want
        for a, b in [(1, 2), (3, 101), (57, len(items))]:
            got = textcodec.decode_many(arr[a:b], labels[a:b], threads=2)
            got.validate(full=True)
            assert got.to_pylist() == want[a:b]
    ignore = [None if b is None else textcodec.decode(b, l, "ignore") for b, l in zip(items, labels)]
    assert textcodec.decode_many(pa.array(items), labels, "ignore").to_pylist() == ignore


@pytest.fixture(params=["in place", "limited API"])
def string_path(request):
    """Each way the package makes strings: in place (`PyUnicode_New`, where the interpreter
    allows it) and by the limited API's decoders (as where it does not), forced by a test hook."""
    limited = request.param == "limited API"
    before = textcodec._textcodec._limited_strings(limited)
    try:
        if limited:
            assert not textcodec._textcodec._fast_strings()
        yield request.param
    finally:
        textcodec._textcodec._limited_strings(before)


def test_decode_many_threads_write_the_strings(string_path):
    """On threads, the strings are allocated by the calling thread and their characters
    written by the threads: every kind of row, in many chunks (huge rows, many empty or tiny
    ones, per-row labels), on many threads, gives decode's strings, of the same kind."""
    import sys

    pairs = kinds_rows()
    items, labels = [p[0] for p in pairs], [p[1] for p in pairs]
    huge_text = ("é" * 1000 + "火" * 1000 + "a" * 3000 + "😀") * 200
    extra = [
        (b"", "utf-8"), (b"", "shift_jis"), (b"x", "utf-8"), (b"\xe9", "windows-1252"),
        (("a" * (3 << 20)).encode(), "utf-8"), (("é" * (1 << 20)).encode(), "utf-8"),
        (huge_text.encode(), "utf-8"), (textcodec.encode(huge_text[:400000], "gb18030"), "gb18030"),
        (huge_text.encode("utf-16-le"), "UTF-16LE"), (b"\x82\xa0" * 300000 + b"\xff", "shift_jis"),
    ]
    mixed_items, mixed_labels = [], []
    for r in range(6):
        mixed_items += items + [e[0] for e in extra[r::3]] + [b""] * 50
        mixed_labels += labels + [e[1] for e in extra[r::3]] + ["utf-8"] * 50
    assert sum(map(len, mixed_items)) > 40 << 18
    for errors in ("replace", "ignore"):
        want = [textcodec.decode(b, l, errors) for b, l in zip(mixed_items, mixed_labels)]
        for threads in (2, 3, 8):
            got = textcodec.decode_many(mixed_items, mixed_labels, errors, threads=threads)
            same(got, want)
            # The strings are whole Python strings: hashable, usable, referenced by the list alone.
            assert {s: i for i, s in enumerate(got)} == {s: i for i, s in enumerate(want)}
            assert [s.encode("utf-8", "surrogatepass") for s in got] == [s.encode("utf-8", "surrogatepass") for s in want]
            refs = [sys.getrefcount(s) for s in want if len(s) > 1]
            assert [sys.getrefcount(s) for s in got if len(s) > 1] == refs
    # The first row that strict decoding refuses raises decode's error, wherever it is, with
    # the strings of the rows before it and of the chunks in flight dropped.
    ok = [(b, l) for b, l in zip(mixed_items, mixed_labels) if b is not None
          and textcodec.decode(b, l) == textcodec.decode(b, l, "ignore")]
    ok_items, ok_labels = [o[0] for o in ok], [o[1] for o in ok]
    want_ok = [textcodec.decode(b, l) for b, l in ok]
    same(textcodec.decode_many(ok_items, ok_labels, "strict", threads=3), want_ok)
    for at in (0, len(ok) // 2, len(ok) - 1):
        bad_items = ok_items[:at] + [b"ab\xff"] + ok_items[at:]
        bad_labels = ok_labels[:at] + ["utf-8"] + ok_labels[at:]
        for threads in (2, 5):
            with pytest.raises(UnicodeDecodeError) as e:
                textcodec.decode_many(bad_items, bad_labels, "strict", threads=threads)
            assert (e.value.start, e.value.end, e.value.object) == (2, 3, b"ab\xff")
            if hasattr(e.value, "__notes__"):
                assert e.value.__notes__ == [f"in row {at}"]


def test_decode_many_every_kind_on_both_string_paths(string_path):
    pairs = kinds_rows()
    items, labels = [p[0] for p in pairs] * 12, [p[1] for p in pairs] * 12
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    for threads in (1, 2, 4):
        same(textcodec.decode_many(items, labels, threads=threads), want)


def test_encode_many_threads_write_the_bytes():
    """On threads, the bytes objects are allocated by the calling thread and their bytes
    written by the threads: every kind of row, empty ones, rows made with the GIL (lone
    surrogates, Python handlers), per-row labels, gives encode's bytes."""
    import sys

    pairs = kinds_rows()
    texts = [textcodec.decode(b, l) for b, l in pairs] * 8
    labels = [l for _, l in pairs] * 8
    texts += ["", "a", "é" * (1 << 20), "x\udc80y", "火" * 100000, ""]
    labels += ["utf-8", "latin1", "utf-8", "utf-8", "gbk", "shift_jis"]
    assert sum(len(t) for t in texts) > 1 << 18
    for errors in ("xmlcharrefreplace", "replace", "backslashreplace"):
        want = [textcodec.encode(t, l, errors) for t, l in zip(texts, labels)]
        for threads in (1, 2, 3, 8):
            got = textcodec.encode_many(texts, labels, errors, threads=threads)
            assert got == want
            assert all(type(b) is bytes for b in got)
            refs = [sys.getrefcount(b) for b in want if len(b) > 1]
            assert [sys.getrefcount(b) for b in got if len(b) > 1] == refs
    with pytest.raises(UnicodeEncodeError) as e:
        textcodec.encode_many(texts, "latin1", "strict", threads=3)
    bad = next(i for i, t in enumerate(texts) if any(ord(c) > 255 for c in t))
    if hasattr(e.value, "__notes__"):
        assert e.value.__notes__ == [f"in row {bad}"]


def test_decode_many_strict_raises_the_first_failed_row_of_many():
    """Fatal mode with failed rows in many chunks (decoded on any thread, in any order): the
    error is that of the first failed row, as decode raises it, whatever the threads."""
    items, labels = rows(6000)
    fails = [i for i, (b, l) in enumerate(zip(items, labels))
             if textcodec.decode(b, l) != textcodec.decode(b, l, "ignore")]
    assert len(fails) > 100 and sum(map(len, items[: fails[0]])) < 1 << 18
    for first in (fails[0], fails[len(fails) // 2], fails[-1]):
        # The rows before `first` that fail, replaced by rows that do not.
        its = [items[0] if i in fails and i < first else b for i, b in enumerate(items)]
        las = [labels[0] if i in fails and i < first else l for i, l in enumerate(labels)]
        with pytest.raises(UnicodeDecodeError) as e:
            textcodec.decode(its[first], las[first], "strict")
        want = e.value
        for threads in (1, 2, 3, 8):
            with pytest.raises(UnicodeDecodeError) as e:
                textcodec.decode_many(its, las, "strict", threads=threads)
            assert (e.value.encoding, e.value.start, e.value.end, e.value.reason, e.value.object) == \
                (want.encoding, want.start, want.end, want.reason, want.object)
            if hasattr(e.value, "__notes__"):
                assert e.value.__notes__ == [f"in row {first}"]


def test_decode_many_any_sequence_and_fresh_label_objects():
    """Rows from a tuple or a generator, labels as new objects for every row (equal labels,
    different objects, of different encodings after one another): decode's strings."""
    items, labels = rows(3000)
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    for threads in (1, 2):
        fresh = ("".join(list(l)) for l in labels)
        assert textcodec.decode_many(iter(items), fresh, threads=threads) == want
        assert textcodec.decode_many(tuple(items), [textcodec.lookup(l) for l in labels], threads=threads) == want
        # The same few label objects, many times.
        assert textcodec.decode_many(items, [sys.intern(l) for l in labels], threads=threads) == want


def test_decode_many_from_many_python_threads_at_once():
    """Python threads calling decode_many at once share the package's threads: each call gets
    its own rows' strings, whatever the thread counts, errors included."""
    import threading

    items, labels = rows(4000)
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    good = [(b, l) for b, l in zip(items, labels) if textcodec.decode(b, l) == textcodec.decode(b, l, "ignore")]
    bad = [g[0] for g in good[:2500]] + [b"\xff"] + [g[0] for g in good[2500:]]
    bad_labels = [g[1] for g in good[:2500]] + ["utf-8"] + [g[1] for g in good[2500:]]
    failures = []

    def run(t):
        try:
            for r in range(6):
                k = (t + r) % 4 + 1
                if (t + r) % 3 == 0:
                    with pytest.raises(UnicodeDecodeError) as e:
                        textcodec.decode_many(bad, bad_labels, "strict", threads=k)
                    assert e.value.object == b"\xff"
                    if hasattr(e.value, "__notes__"):
                        assert e.value.__notes__ == ["in row 2500"]
                else:
                    lo = (t * 37 + r * 101) % 1000
                    assert textcodec.decode_many(items[lo:], labels[lo:], threads=k) == want[lo:]
        except BaseException as e:  # noqa: BLE001 (reported below)
            failures.append(e)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_decode_many_after_fork():
    """A process forked after decode_many ran on threads (its threads do not exist in the
    child), even while another Python thread was in a call, decodes on threads in the child."""
    import threading
    import time

    items, labels = rows(4000)
    want = [textcodec.decode(b, l) for b, l in zip(items, labels)]
    assert textcodec.decode_many(items, labels, threads=3) == want
    busy = threading.Event()

    def calls():
        while not busy.is_set():
            textcodec.decode_many(items, labels, threads=2)

    other = threading.Thread(target=calls)
    other.start()
    try:
        for _ in range(3):
            time.sleep(0.01)
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    ok = all(textcodec.decode_many(items, labels, threads=k) == want for k in (1, 2, 3))
                    code = 0 if ok else 1
                finally:
                    os._exit(code)
            deadline = time.monotonic() + 60
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    pytest.fail("the forked child did not finish (a deadlock)")
                time.sleep(0.01)
            assert os.waitstatus_to_exitcode(status) == 0
    finally:
        busy.set()
        other.join()
    assert textcodec.decode_many(items, labels, threads=2) == want


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_decode_many_threads_are_kept_between_calls_then_end():
    """The threads of decode_many are made by the first call that needs them, used again by
    the next calls, and end once idle (2 s), leaving the process as it was."""
    import time

    def count():
        return len(os.listdir("/proc/self/task"))

    items, labels = rows(4000)
    time.sleep(2.5)
    base = count()
    textcodec.decode_many(items, labels, threads=3)
    assert count() == base + 2
    for k in (2, 3, 1):
        textcodec.decode_many(items, labels, threads=k)
        assert count() == base + 2
    time.sleep(2.5)
    assert count() == base
