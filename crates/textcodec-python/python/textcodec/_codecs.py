"""``textcodec.register()``: every WHATWG label as a Python codec named ``whatwg-LABEL``.

Decoding is the spec's "decode" (a UTF-8 or UTF-16 byte order mark wins over the label),
encoding the spec's "encode" to the label's output encoding. Every Python error handler
works: ``UnicodeDecodeError`` and ``UnicodeEncodeError`` carry the exact start and end of
the malformed sequence or of the unencodable character.
"""

import codecs
import threading

from . import _textcodec as _tc

PREFIX = "whatwg_"

_lock = threading.Lock()
_registered = False
_infos = {}


def _normalize(name):
    """A codec name as ``codecs.lookup`` gives it to search functions (Python 3.9+): lower
    case, each run of characters other than ASCII letters, digits and dots as one ``_``,
    none at either end."""
    out = []
    gap = False
    for c in name:
        if (c.isascii() and c.isalnum()) or c == ".":
            if gap and out:
                out.append("_")
            out.append(c.lower())
            gap = False
        else:
            gap = True
    return "".join(out)


def _labels():
    table = {}
    for enc in _tc.encodings():
        for label in enc.labels:
            table[_normalize(label)] = enc
    return table


_LABELS = _labels()


def _codec_info(enc):
    """The CodecInfo of one encoding (shared by all its labels)."""

    def encode(input, errors="strict"):
        return _tc.encode(input, enc, errors), len(input)

    def decode(input, errors="strict"):
        return _tc.decode(input, enc, errors), memoryview(input).nbytes

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._e = _tc._IncrementalEncoder(enc)

        def encode(self, input, final=False):
            return self._e.encode(input, final, self.errors)

        def reset(self):
            self._e.reset()

        def getstate(self):
            return self._e.getstate()

        def setstate(self, state):
            self._e.setstate(state)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._d = _tc._IncrementalDecoder(enc)

        def decode(self, input, final=False):
            return self._d.decode(input, final, self.errors)

        def reset(self):
            self._d.reset()

        def getstate(self):
            return self._d.getstate()

        def setstate(self, state):
            self._d.setstate(state)

    class StreamWriter(codecs.StreamWriter):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, errors)
            self._e = _tc._IncrementalEncoder(enc)

        def encode(self, input, errors="strict"):
            return self._e.encode(input, False, errors), len(input)

        def reset(self):
            # Ends the stream's state (ISO-2022-JP returns to ASCII), as Python's own
            # stateful stream writers do.
            tail = self._e.encode("", True, self.errors)
            if tail:
                self.stream.write(tail)
            self._e.reset()

    class StreamReader(codecs.StreamReader):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, errors)
            self._d = _tc._IncrementalDecoder(enc)

        def decode(self, input, errors="strict"):
            return self._d.decode(input, False, errors), memoryview(input).nbytes

        def read(self, size=-1, chars=-1, firstline=False):
            # As codecs.StreamReader.read, and the end of the stream ends the decoder (a
            # partial sequence there is malformed, not dropped).
            if self.linebuffer:
                self.charbuffer = "".join(self.linebuffer)
                self.linebuffer = None
            if chars < 0:
                chars = size
            while chars < 0 or len(self.charbuffer) < chars:
                data = self.stream.read() if size < 0 else self.stream.read(size)
                # read() without a size reads to the end.
                final = size < 0 or not data
                self.charbuffer += self._d.decode(data, final, self.errors)
                if final or size < 0:
                    break
            if chars < 0:
                result, self.charbuffer = self.charbuffer, ""
            else:
                result, self.charbuffer = self.charbuffer[:chars], self.charbuffer[chars:]
            return result

        def reset(self):
            super().reset()
            self._d.reset()

    return codecs.CodecInfo(
        name="whatwg-" + enc.name.lower(),
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamwriter=StreamWriter,
        streamreader=StreamReader,
    )


def _search(name):
    n = _normalize(name)
    if not n.startswith(PREFIX):
        return None
    enc = _LABELS.get(n[len(PREFIX):])
    if enc is None:
        return None
    with _lock:
        info = _infos.get(enc)
        if info is None:
            info = _infos[enc] = _codec_info(enc)
    return info


def register():
    """Makes every label available to Python's codec machinery as ``whatwg-LABEL``.

    >>> import textcodec
    >>> textcodec.register()
    >>> b"\\x82\\xa0".decode("whatwg-shift_jis")
    'あ'
    >>> "€".encode("whatwg-latin1")
    b'\\x80'

    ``open(path, encoding="whatwg-euc-kr")``, ``codecs.iterdecode``,
    ``codecs.getincrementaldecoder`` and every error handler work. Calling it again does
    nothing.
    """
    global _registered
    with _lock:
        if _registered:
            return
        codecs.register(_search)
        _registered = True
