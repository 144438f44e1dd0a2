"""Shared fixtures: the repository's data, and the oracle.

The oracle is the Rust core through the `textcodec` command (crates/textcodec-cli), a
program independent of the Python bindings under test: `convert` decodes and encodes files
exactly as the library does. Its path comes from TEXTCODEC_CLI, else target/release/textcodec,
built on first use.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CORPUS = ROOT / "data" / "corpus" / "wikipedia"
WHATWG = ROOT / "data" / "whatwg"


def spec_encodings():
    """(name, labels) of every encoding, from the spec's encodings.json (not from the
    bindings)."""
    out = []
    for group in json.loads((WHATWG / "encodings.json").read_text()):
        for enc in group["encodings"]:
            out.append((enc["name"], enc["labels"]))
    return out


SPEC = spec_encodings()
NAMES = [name for name, _ in SPEC]


def corpus_texts():
    """The corpus's text files (UTF-8), name -> str."""
    return {p.name: p.read_text("utf-8") for p in sorted(CORPUS.glob("*.txt"))}


def damage(data, seed):
    """`data` with a few bytes replaced, deleted and duplicated at seeded positions, and cut
    short: input that is malformed in every encoding."""
    x = seed * 2654435761 % 2**32 or 1
    out = bytearray(data)

    def rnd(n):
        nonlocal x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        return x % n if n else 0

    for _ in range(max(4, len(out) // 64)):
        if not out:
            break
        i = rnd(len(out))
        op = rnd(4)
        if op == 0:
            out[i] = rnd(256)
        elif op == 1:
            del out[i]
        elif op == 2:
            out.insert(i, out[i])
        else:
            out[i] = 0x80 | rnd(128)
    return bytes(out[: len(out) - rnd(3)])


class Oracle:
    def __init__(self, exe):
        self.exe = exe

    def _run(self, args, data):
        r = subprocess.run([self.exe, *args], input=data, capture_output=True)
        assert r.returncode == 0, r.stderr.decode(errors="replace")
        return r.stdout

    def decode(self, data, label):
        """The spec's "decode" (BOM sniffing, replacement) as UTF-8 bytes."""
        return self._run(["convert", "-f", label, "-t", "utf-8", "--quiet"], data)

    def encode(self, text, label):
        """The spec's "encode" in html mode."""
        return self._run(["convert", "-f", "utf-8", "-t", label, "--unmappable", "html", "--quiet"], text.encode("utf-8"))


@pytest.fixture(scope="session")
def oracle():
    exe = os.environ.get("TEXTCODEC_CLI")
    if not exe:
        exe = str(ROOT / "target" / "release" / "textcodec")
        if not os.path.exists(exe):
            subprocess.run(["cargo", "build", "--release", "-q", "-p", "textcodec-cli"], cwd=ROOT, check=True)
    return Oracle(exe)
