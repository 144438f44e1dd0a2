#!/usr/bin/env python3
"""Export training statistics from Lingua's language models into data/detect/train/.

wordfreq has no Estonian, Welsh, Irish, Esperanto, Belarusian or Azerbaijani, and no Serbian in
Cyrillic letters; its Korean list has the words of about 2,100 characters, so a Korean syllable
it lacks cost as much as the rarest Chinese character.
Lingua (a language identifier, https://github.com/pemistahl/lingua-rs) publishes, per
language, a crate of character n-gram statistics counted over about a million sentences of
news and Web text from the Leipzig Corpora Collection, and a thousand of those sentences as
its test data. This script takes from each crate:

- the letter bigrams within words: `models/bigrams.json.zip` gives P(b | a) for letters a, b
  and `models/unigrams.json.zip` P(a), so count(ab) = P(b | a) P(a), over tens of millions
  of letters;
- the word boundaries: Lingua's n-grams stop at word boundaries, so the bigrams across them
  (" a" at a word start, "a " at a word end) and those with an apostrophe come from the
  words of `testdata/sentences.txt`, counted as export_detect_training.py counts wordfreq's
  words (each word as " word ").

The two are put together in the proportions of the sentences: the letter-to-letter
bigrams of the sentences are replaced by the crate's, scaled to the same total.

For Korean (`ko_lingua.tsv`), the character frequencies `models/unigrams.json.zip` gives
(Hangul syllables counted over about 45 million), which the model mixes with wordfreq's
(`ko.tsv`). For Chinese, Japanese and Korean (`cjk_non_ascii.tsv`), the share of non-ASCII
characters in the test sentences (one a line), which word lists cannot give: Korean puts
spaces between words, Chinese and Japanese do not.

Evaluation text must not be trained on: a sentence that shares a run of six words with the
evaluation text (data/detect/eval/, data/corpus/wikipedia/) is left out, and the script says
how many were. (The n-gram statistics are counts of letter pairs over millions of sentences;
a sentence of the declaration among them, if any, weighs nothing.)

    mkdir /tmp/lingua && cd /tmp/lingua && cargo init -q --name fetch
    for l in estonian welsh irish esperanto serbian belarusian azerbaijani korean chinese japanese; do
        cargo add -q lingua-$l-language-model@=1.0.0; done
    cargo fetch
    python3 scripts/export_detect_training_lingua.py \\
        ~/.cargo/registry/cache/*/lingua-*-language-model-1.0.0.crate

Source: the crates lingua-<language>-language-model 1.0.0 (crates.io), by Peter M. Stahl,
Apache License 2.0. Checked against the SHA-256 sums below (those of crates.io's index).
"""

import collections
import hashlib
import io
import json
import os
import re
import sys
import tarfile
import unicodedata
import zipfile

LINGUA_VERSION = "1.0.0"
# The model's language code -> the crate's language, and the crate's SHA-256.
CRATES = {
    "et": ("estonian", "a311f11b0840e8cd54a05738e8fb822cc3329cb311d20250db957ab1f2fd703b"),
    "cy": ("welsh", "23e102068fb9b366cbb8a14ac5a49893dbb9a039b2f68e2f4a0aaf64c8dc2326"),
    "ga": ("irish", "02224904ee01a4c26a64e41f1f4afa0d34d2f4f1e6ceb1990df5fc6d7db1b488"),
    "eo": ("esperanto", "3b37315aafae3ae8b5222f0d54a34d1d8380e44f20728303083f831e68797232"),
    "sr": ("serbian", "8538cf1dabf39c8ddcf24a6dac57405616524bf058bf67ee812861093684cc9f"),
    "be": ("belarusian", "924adbb7acf2028f004071d8258e82763763606a710a0622cdc53e4f0f2ebd43"),
    "az": ("azerbaijani", "aa65693c7e993ffdc08750ec0588109f6158994ced690a19ec47eb23042a2395"),
}
# Languages whose character frequencies (unigrams) are taken: the model's code -> the crate's
# language, its SHA-256, and the file written.
CHARACTER_CRATES = {
    "ko": ("korean", "0ea966fffc8db18da7602cf1689dabf7727290651f0aff2c0b3c08c27c6a87f6", "ko_lingua"),
}
# Languages whose share of non-ASCII characters is measured in the test sentences: the
# model's codes -> the crate's language and its SHA-256.
SHARE_CRATES = {
    ("zh_hans", "zh_hant"): ("chinese", "b037cd47ffb61e2cd959012ed287e4e2686b69c1e29abb91fb95dc45316c88d5"),
    ("ja",): ("japanese", "05298b2a9d55574b4182ea3d3a1380a39e14e4538abde88d0c7a29fc7fa1ff96"),
    ("ko",): ("korean", "0ea966fffc8db18da7602cf1689dabf7727290651f0aff2c0b3c08c27c6a87f6"),
}

# Azerbaijani's schwa (ə, Ə) is in no legacy encoding: its legacy text is windows-1254
# (Turkish) with the schwa as a numeric character reference, as browsers send characters a
# page's encoding lacks. The statistics are of that form (as the Vietnamese ones are of
# windows-1258's): the schwa becomes "&#601;", ASCII.
FORMS = {"az": lambda s: s.replace("\u0259", "&#601;").replace("\u018f", "&#399;")}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "data", "detect", "train")
SHARED_WORDS = 6


def words_of(text):
    """The words of running text, lower case: runs of letters (and combining marks), with an
    apostrophe inside a word kept (d'imigh, fe'i)."""
    text = unicodedata.normalize("NFC", text).replace("\u2019", "'")
    return re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)*", text.lower())


def evaluation_runs():
    """Every run of SHARED_WORDS words of the evaluation text."""
    runs = set()
    dirs = [os.path.join(ROOT, "data", "detect", "eval"), os.path.join(ROOT, "data", "corpus", "wikipedia")]
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith(".txt"):
                with open(os.path.join(d, name), encoding="utf-8") as f:
                    w = words_of(f.read())
                for i in range(len(w) - SHARED_WORDS + 1):
                    runs.add(tuple(w[i : i + SHARED_WORDS]))
    return runs


def crate_archive(path, digest):
    """The crate at `path` opened as a tar archive, once its SHA-256 is the pinned one."""
    data = open(path, "rb").read()
    got = hashlib.sha256(data).hexdigest()
    if got != digest:
        sys.exit(f"{path}: SHA-256 {got}, expected {digest}")
    return tarfile.open(fileobj=io.BytesIO(data))


def fractions(tar, name):
    """{n-gram: probability} from one of the crate's zipped JSON models."""
    member = next(m for m in tar.getmembers() if m.name.endswith("/models/" + name))
    with zipfile.ZipFile(io.BytesIO(tar.extractfile(member).read())) as z:
        data = json.loads(z.read(z.namelist()[0]))
    out = {}
    for fraction, grams in data["ngrams"].items():
        num, den = fraction.split("/")
        for g in grams.split(" "):
            out[g] = int(num) / int(den)
    return out


def main():
    paths = sys.argv[1:]
    by_language = {}
    characters = {}
    shares = {}
    for path in paths:
        name = os.path.basename(path)
        for codes, (language, _) in SHARE_CRATES.items():
            if name == f"lingua-{language}-language-model-{LINGUA_VERSION}.crate":
                shares[codes] = path
        for code, (language, _) in CRATES.items():
            if name == f"lingua-{language}-language-model-{LINGUA_VERSION}.crate":
                by_language[code] = path
        for code, (language, _, _) in CHARACTER_CRATES.items():
            if name == f"lingua-{language}-language-model-{LINGUA_VERSION}.crate":
                characters[code] = path
    if (
        sorted(by_language) != sorted(CRATES)
        or sorted(characters) != sorted(CHARACTER_CRATES)
        or sorted(shares) != sorted(SHARE_CRATES)
        or len(set(paths)) != len(CRATES) + len({l for l, _ in SHARE_CRATES.values()})
    ):
        languages = [l for l, _ in CRATES.values()] + sorted({l for l, _ in SHARE_CRATES.values()})
        want = " ".join(f"lingua-{l}-language-model-{LINGUA_VERSION}.crate" for l in languages)
        sys.exit(f"usage: export_detect_training_lingua.py {want}")
    for code, path in sorted(characters.items()):
        language, digest, file = CHARACTER_CRATES[code]
        with crate_archive(path, digest) as tar:
            unigrams = fractions(tar, "unigrams.json.zip")
        total = sum(unigrams.values())
        rows = [(k, round(v / total * 1e9)) for k, v in unigrams.items()]
        rows = [(k, v) for k, v in rows if v >= 1]
        rows.sort(key=lambda kv: (-kv[1], kv[0]))
        out = os.path.join(OUT, f"{file}.tsv")
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write(f"# lingua-{language}-language-model {LINGUA_VERSION} (Apache-2.0): its unigrams; characters\n")
            for k, v in rows:
                f.write(f"{k}\t{v}\n")
        print(f"{out}: {len(rows)} entries")
    rows = []
    for codes, path in sorted(shares.items()):
        language, digest = SHARE_CRATES[codes]
        with crate_archive(path, digest) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("/testdata/sentences.txt"))
            text = "\n".join(tar.extractfile(member).read().decode("utf-8").splitlines())
        share = sum(1 for c in text if ord(c) >= 0x80) / len(text)
        rows += [(code, round(share * 1e9)) for code in codes]
    out = os.path.join(OUT, "cjk_non_ascii.tsv")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(
            f"# lingua-<language>-language-model {LINGUA_VERSION} (Apache-2.0): the share of non-ASCII"
            " characters in its test sentences, parts per 10^9\n"
        )
        for code, v in sorted(rows):
            f.write(f"{code}\t{v}\n")
    print(f"{out}: {rows}")
    runs = evaluation_runs()
    for code, path in sorted(by_language.items()):
        language, digest = CRATES[code]
        with crate_archive(path, digest) as tar:
            unigrams = fractions(tar, "unigrams.json.zip")
            bigrams = fractions(tar, "bigrams.json.zip")
            member = next(m for m in tar.getmembers() if m.name.endswith("/testdata/sentences.txt"))
            sentences = tar.extractfile(member).read().decode("utf-8").splitlines()
        words = collections.Counter()
        dropped = 0
        for sentence in sentences:
            w = words_of(sentence)
            if any(tuple(w[i : i + SHARED_WORDS]) in runs for i in range(len(w) - SHARED_WORDS + 1)):
                dropped += 1
                continue
            words.update(w)
        # The sentences' bigrams, as the words' (" word ").
        counts = collections.Counter()
        for word, n in words.items():
            s = " " + word + " "
            for a, b in zip(s, s[1:]):
                counts[a + b] += n

        def letter(c):
            return c != " " and c != "'"

        within = sum(n for k, n in counts.items() if letter(k[0]) and letter(k[1]))
        for k in [k for k in counts if letter(k[0]) and letter(k[1])]:
            del counts[k]
        joint = {g: p * unigrams.get(g[0], 0.0) for g, p in bigrams.items() if len(g) == 2}
        total = sum(joint.values())
        for g, p in joint.items():
            counts[g] += p / total * within
        if code in FORMS:
            # The bigrams of the letters' form: bigram ab becomes the pairs within a's form
            # (each character is the first of one bigram) and the pair of the last of a's
            # form and the first of b's.
            form = FORMS[code]
            formed = collections.Counter()
            for k, v in counts.items():
                fa, fb = form(k[0]), form(k[1])
                for x, y in zip(fa, fa[1:]):
                    formed[x + y] += v
                formed[fa[-1] + fb[0]] += v
            counts = formed
        total = sum(counts.values())
        rows = [(k, round(v / total * 1e9)) for k, v in counts.items()]
        rows = [(k, v) for k, v in rows if v >= 1]
        rows.sort(key=lambda kv: (-kv[1], kv[0]))
        out = os.path.join(OUT, f"{code}.tsv")
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write(
                f"# lingua-{language}-language-model {LINGUA_VERSION} (Apache-2.0): bigrams within words from its"
                f" models, word boundaries from its test sentences; character bigrams\n"
            )
            for k, v in rows:
                f.write(f"{k}\t{v}\n")
        print(f"{out}: {len(rows)} entries; {len(sentences) - dropped} sentences, {dropped} left out (shared with the evaluation text)")


if __name__ == "__main__":
    main()
