#!/usr/bin/env python3
"""Export training statistics for languages wordfreq lacks into data/detect/train/.

wordfreq has no Faroese, Scottish Gaelic or Maltese, and Lingua (export_detect_training_lingua.py)
has none of them either. For them the detector learns from the Unicode CLDR's localized
strings (names of languages, countries, scripts, units, months and days, date formats, and
the names and keywords of emoji): about five thousand real words per language, with the
letters the language uses. A coarser model than wordfreq's, but enough to know that Faroese
has ð and ø, Scottish Gaelic à and ò, Maltese ħ and ż.

    npm pack cldr-localenames-full@48.2.0 cldr-units-full@48.2.0 cldr-dates-full@48.2.0 \
        cldr-annotations-full@48.2.0 cldr-annotations-derived-full@48.2.0
    python3 scripts/export_detect_training_cldr.py cldr-*-full-48.2.0.tgz

Source: the npm packages cldr-localenames-full, cldr-units-full, cldr-dates-full,
cldr-annotations-full and cldr-annotations-derived-full 48.2.0 (Unicode CLDR, Unicode
License v3). Each distinct word (a run of letters in a string,
lower-cased) counts once (the strings repeat names across files, which would weigh a few
words heavily); bigrams as in export_detect_training.py.
"""

import collections
import json
import os
import re
import sys
import tarfile

CLDR_VERSION = "48.2.0"
PACKAGES = [
    "cldr-localenames-full",
    "cldr-units-full",
    "cldr-dates-full",
    "cldr-annotations-full",
    "cldr-annotations-derived-full",
]
LANGUAGES = ["fo", "gd", "mt"]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "detect", "train")


def strings(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)
    elif isinstance(node, str):
        yield node


def main():
    paths = sys.argv[1:]
    names = sorted(os.path.basename(p) for p in paths)
    want = sorted(f"{p}-{CLDR_VERSION}.tgz" for p in PACKAGES)
    if names != want:
        sys.exit(f"usage: export_detect_training_cldr.py {' '.join(want)}")
    words = {lang: collections.Counter() for lang in LANGUAGES}
    for path in paths:
        with tarfile.open(path) as tar:
            for member in tar.getmembers():
                parts = member.name.split("/")
                if len(parts) == 4 and parts[1] in ("main", "annotations", "annotationsDerived") and parts[2] in words and parts[3].endswith(".json"):
                    data = json.load(tar.extractfile(member))
                    for s in strings(data):
                        for w in re.findall(r"[^\W\d_]+", s.lower()):
                            words[parts[2]][w] += 1
    for lang, counter in words.items():
        counts = collections.Counter()
        for word in counter:
            s = " " + word + " "
            for a, b in zip(s, s[1:]):
                counts[a + b] += 1
        total = sum(counts.values())
        rows = [(k, round(v / total * 1e9)) for k, v in counts.items()]
        rows = [(k, v) for k, v in rows if v >= 1]
        rows.sort(key=lambda kv: (-kv[1], kv[0]))
        path = os.path.join(OUT, f"{lang}.tsv")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(f"# Unicode CLDR {CLDR_VERSION} (Unicode License v3), language {lang}, character bigrams\n")
            for k, v in rows:
                f.write(f"{k}\t{v}\n")
        print(f"{path}: {len(rows)} entries")


if __name__ == "__main__":
    main()
