"""The browser's encodings for Python: the WHATWG Encoding Standard from the Rust core.

Python's own codecs are not the Web's (its ``shift_jis``, ``euc_kr``, ``big5``, ``gbk`` and
``cp125x`` decode many sequences differently from a browser, and its ``latin1`` is
ISO-8859-1, not windows-1252). This package decodes and encodes all 40 encodings of the
Encoding Standard byte for byte as browsers do.

>>> import textcodec
>>> textcodec.decode(b"caf\\xe9", "latin1")
'café'
>>> textcodec.encode("naïve ☃", "latin1")
b'na\\xefve &#9731;'
>>> textcodec.lookup("sjis")
<Encoding Shift_JIS>
"""

from ._textcodec import (
    Detection,
    Encoding,
    TextDecoder,
    TextEncoder,
    decode,
    decode_many,
    decode_with_encoding,
    detect,
    encode,
    encode_many,
    encodings,
    lookup,
    sniff_html,
)
from ._codecs import register

__all__ = [
    "Detection",
    "Encoding",
    "TextDecoder",
    "TextEncoder",
    "decode",
    "decode_many",
    "decode_with_encoding",
    "detect",
    "encode",
    "encode_many",
    "encodings",
    "lookup",
    "register",
    "sniff_html",
]
