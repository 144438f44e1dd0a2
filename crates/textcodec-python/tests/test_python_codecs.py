"""Python's own codecs against the Web's: where they agree they are a second oracle, and
where they differ the differences are pinned, counted exactly, by name.

"Differently" means: the browser decodes the sequence to a character, and Python's codec
either fails or gives another character.
"""

import pytest

import textcodec
from conftest import WHATWG


def rng(a, b):
    return range(a, b + 1)


def pairs(leads, trails):
    return [bytes([l, t]) for l in leads for t in trails]


SHIFT_JIS = pairs([*rng(0x81, 0x9F), *rng(0xE0, 0xFC)], [*rng(0x40, 0x7E), *rng(0x80, 0xFC)])
EUC_KR = pairs(rng(0x81, 0xFE), rng(0x41, 0xFE))
BIG5 = pairs(rng(0x81, 0xFE), [*rng(0x40, 0x7E), *rng(0xA1, 0xFE)])
GBK = pairs(rng(0x81, 0xFE), [*rng(0x40, 0x7E), *rng(0x80, 0xFE)])


def index(name):
    """pointer -> code point, from the WHATWG index file (not from the library)."""
    table = {}
    for line in (WHATWG / f"index-{name}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            p, cp = line.split("\t")[:2]
            table[int(p)] = int(cp, 16)
    return table


def web(seqs, label):
    out = textcodec.decode_many(seqs, label)
    return [None if "\ufffd" in s else s for s in out]


def python(seqs, codec):
    out = []
    for s in seqs:
        try:
            out.append(s.decode(codec))
        except UnicodeDecodeError:
            out.append(None)
    return out


def differences(seqs, label, codec):
    return sum(1 for w, p in zip(web(seqs, label), python(seqs, codec)) if w is not None and p != w)


def test_the_web_tables_are_the_index_files():
    # The browser's decoding of every two-byte sequence is the spec's index: checked here
    # against the index files themselves, so the counts below are the spec's.
    jis = index("jis0208")
    got = web(SHIFT_JIS, "shift_jis")
    for seq, text in zip(SHIFT_JIS, got):
        lead, trail = seq
        pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 if trail < 0x7F else 0x41)
        want = chr(0xE000 - 8836 + pointer) if 8836 <= pointer <= 10715 else (chr(jis[pointer]) if pointer in jis else None)
        assert text == want, seq
    kr = index("euc-kr")
    for seq, text in zip(EUC_KR, web(EUC_KR, "euc-kr")):
        pointer = (seq[0] - 0x81) * 190 + seq[1] - 0x41
        assert text == (chr(kr[pointer]) if pointer in kr else None), seq
    gb = index("gb18030")
    for seq, text in zip(GBK, web(GBK, "gbk")):
        pointer = (seq[0] - 0x81) * 190 + seq[1] - (0x40 if seq[1] < 0x7F else 0x41)
        assert text == (chr(gb[pointer]) if pointer in gb else None), seq


def test_python_shift_jis_differs_on_2731_of_11280():
    assert len(SHIFT_JIS) == 11280
    assert differences(SHIFT_JIS, "shift_jis", "shift_jis") == 2731


def test_python_euc_kr_differs_on_8823_of_23940():
    assert len(EUC_KR) == 23940
    assert differences(EUC_KR, "euc-kr", "euc_kr") == 8823


def test_python_big5_differs_on_5144_of_19782():
    assert len(BIG5) == 19782
    assert differences(BIG5, "big5", "big5") == 5144


def test_python_gbk_differs_on_2149_of_23940():
    assert len(GBK) == 23940
    assert differences(GBK, "gbk", "gbk") == 2149


def test_python_cp932_is_the_web_shift_jis():
    # cp932 decodes every two-byte sequence that the Web maps, to the same character, and
    # refuses exactly those the Web does not map: a second oracle.
    w, p = web(SHIFT_JIS, "shift_jis"), python(SHIFT_JIS, "cp932")
    assert w == p
    assert sum(x is not None for x in w) == 9604
    # Single bytes too, but for 0xA0 and 0xFD-0xFF, which the Web refuses and cp932 maps to
    # private-use characters.
    single = [bytes([b]) for b in range(256)]
    w, p = web(single, "shift_jis"), python(single, "cp932")
    diff = {s[0]: b for s, a, b in zip(single, w, p) if a != b}
    assert diff == {0xA0: "\uf8f0", 0xFD: "\uf8f1", 0xFE: "\uf8f2", 0xFF: "\uf8f3"}


def test_python_cp949_is_the_web_euc_kr():
    w, p = web(EUC_KR, "euc-kr"), python(EUC_KR, "cp949")
    assert w == p
    assert sum(x is not None for x in w) == 17048
    single = [bytes([b]) for b in range(256)]
    assert web(single, "euc-kr") == python(single, "cp949")


def test_python_gb18030_on_two_bytes():
    # Python's gb18030 is an older edition: 20 two-byte sequences decode differently.
    w, p = web(GBK, "gb18030"), python(GBK, "gb18030")
    diff = [s for s, a, b in zip(GBK, w, p) if a != b]
    assert len(diff) == 20
    assert all(a is not None and b is not None for s, a, b in zip(GBK, w, p) if s in diff)


CP125X = {"cp1250": 5, "cp1251": 1, "cp1252": 5, "cp1253": 14, "cp1254": 7, "cp1255": 13,
          "cp1256": 0, "cp1257": 10, "cp1258": 9, "cp874": 23}


@pytest.mark.parametrize("codec", sorted(CP125X))
def test_python_cp125x_single_bytes(codec):
    label = "windows-" + codec[2:]
    singles = [bytes([b]) for b in range(256)]
    w, p = web(singles, label), python(singles, codec)
    diff = [s for s, a, b in zip(singles, w, p) if a is not None and a != b]
    assert len(diff) == CP125X[codec]
    # Every difference is a byte Python refuses and the Web maps (to a C1 control or a
    # character the vendor table has).
    assert all(b is None for s, a, b in zip(singles, w, p) if s in diff)
    # Elsewhere, Python agrees.
    assert all(a == b for a, b in zip(w, p) if a is not None and b is not None)


def test_python_cp125x_total():
    assert sum(CP125X.values()) == 87


def test_python_latin1_is_not_the_web_latin1():
    singles = [bytes([b]) for b in range(256)]
    w = textcodec.decode_many(singles, "latin1")
    p = [s.decode("latin1") for s in singles]
    diff = [s[0] for s, a, b in zip(singles, w, p) if a != b]
    assert len(diff) == 27 and all(0x80 <= b <= 0x9F for b in diff)
    assert textcodec.lookup("latin1").name == "windows-1252"
    assert textcodec.decode(b"\x93quoted\x94", "iso-8859-1") == "\u201cquoted\u201d"
    assert b"\x93quoted\x94".decode("latin1") == "\x93quoted\x94"
