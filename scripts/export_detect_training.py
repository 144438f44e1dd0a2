#!/usr/bin/env python3
"""Export the detector's training statistics into data/detect/train/ (committed).

The encoding detector (crates/textcodec/src/detect/) is trained by `cargo xtask
gen-detect-model` from the files this script writes; CI checks that the model is fresh
without Python or network. Run this script only to change the training data:

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1 pythainlp==5.4.0
    /tmp/wf/bin/python scripts/export_detect_training.py

Sources (pinned; see data/detect/README.md for the licences and attribution):
- wordfreq 3.1.1 (PyPI): word frequencies of 40+ languages, data under CC BY-SA 4.0;
- pythainlp 5.4.0 (PyPI): tnc_freq.txt, Thai word frequencies from the Thai National
  Corpus, CC0 1.0 (wordfreq has no Thai).

wordfreq gives words with frequencies, not running text. Each word w with frequency f
stands for f of the running text as " w " (a word between word boundaries); the character
bigrams of " w " are counted with weight f. Within a word the counts are exact; across
words the boundary is a space, which is what running text has in these languages apart
from punctuation. For Chinese, Japanese and Korean the files hold character unigram
frequencies (the CJK model scores characters one by one).

Output: one file per language, `<lang>.tsv`, lines `<two characters>\\t<count>` (bigrams;
and `<space><letter>'\\t<count>`, an ASCII letter beginning a word and followed by an
apostrophe) or
`<character>\\t<count>` (CJK unigrams), counts in parts per 10^9 of the language's
characters, sorted by descending count, entries under 1 part per 10^9 dropped.
"""

import gzip
import os
import sys
import unicodedata
from collections import Counter

WORDFREQ_VERSION = "3.1.1"
PYTHAINLP_VERSION = "5.4.0"

# Alphabetic languages of wordfreq whose legacy encodings the detector chooses among.
ALPHABETIC = [
    "en", "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is",
    "pl", "cs", "sk", "sl", "hu", "ro", "sh", "lt", "lv", "tr", "vi",
    "ru", "uk", "bg", "mk", "el", "he", "ar", "fa", "ur",
]
CJK = ["ja", "ko"]

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "detect", "train")


def check_versions():
    import wordfreq  # noqa: F401
    from importlib.metadata import version

    if version("wordfreq") != WORDFREQ_VERSION:
        sys.exit(f"needs wordfreq=={WORDFREQ_VERSION}, found {version('wordfreq')}")
    if version("pythainlp") != PYTHAINLP_VERSION:
        sys.exit(f"needs pythainlp=={PYTHAINLP_VERSION}, found {version('pythainlp')}")


def usable(word):
    return word and not any(c.isdigit() or c.isspace() for c in word)


def to_windows_1258_form(word):
    """Vietnamese as windows-1258 writes it: base letters (with the circumflex, breve and
    horn the code page has) followed by combining tone marks."""
    out = []
    for ch in unicodedata.normalize("NFD", word):
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


def restore_casefolding(lang):
    """wordfreq case-folds its words (str.casefold), which turns German ß into "ss" and Greek
    final sigma into σ. Undo what can be undone: Greek σ at the end of a word is ς; German
    "ss" after a diphthong (weiß, außen, heißen) and in a few common stems (groß, Straße, Fuß,
    Gruß, süß, Spaß, bloß, Stoß, gemäß) is ß."""
    if lang == "el":
        return lambda w: w[:-1] + "ς" if w.endswith("σ") else w
    if lang == "de":
        stems = ["gross", "strass", "fuss", "grüss", "gruss", "süss", "spass", "bloss", "stoss", "gemäss"]

        def de(w):
            for stem in stems:
                if stem in w:
                    w = w.replace(stem, stem[:-2] + "ß")
            for d in ["ei", "au", "eu", "äu", "ie"]:
                w = w.replace(d + "ss", d + "ß")
            return w

        return de
    return None


# Elided words that wordfreq's tokenizer splits off the next word (l'heure -> "l", "heure"
# in French, Catalan and Italian): in text each is followed by an apostrophe and a word that
# begins with a vowel or h, not by a space.
ELIDED = {
    "fr": ["l", "d", "j", "m", "n", "s", "t", "c", "qu"],
    "ca": ["l", "d", "m", "n", "s", "t"],
    "it": ["l", "d", "c", "m", "n", "s", "t"],
}


def bigrams(freqs, transform=None, elided=()):
    """The character bigrams of " w " for each word w, and the count of each word-initial
    letter x followed by an apostrophe (the key " x'": l'ànima, d'aquest, I'm), which tells
    an elision from an apostrophe within a word (a bigram cannot)."""
    counts = Counter()
    freqs = [(w, f) for w, f in freqs if usable(w)]
    # What follows an elided word: the first letters of the words that begin with a vowel
    # or h, as often as those words are.
    starts = Counter()
    for word, f in freqs:
        if word not in elided and word[0] in "aeiouhàáâèéêìíîòóôùúûœ":
            starts[word[0]] += f
    total_starts = sum(starts.values())
    for word, f in freqs:
        if transform:
            word = transform(word)
        if word in elided and total_starts:
            s = " " + word + "'"
            for x, g in starts.items():
                counts["'" + x] += f * g / total_starts
        else:
            s = " " + word + " "
        for a, b in zip(s, s[1:]):
            counts[a + b] += f
        if s[1].isascii() and s[1].isalpha() and s[2] == "'":
            counts[s[:3]] += f
    return counts


def unigrams(freqs, transform=None):
    counts = Counter()
    for word, f in freqs:
        if not usable(word):
            continue
        for ch in word:
            for c in transform(ch) if transform else ch:
                counts[c] += f
    return counts


def write(lang, counts, source):
    # Parts of the characters: the word-initial apostrophe counts (three-character keys) are
    # a part of the bigrams they are in, not more characters.
    total = sum(v for k, v in counts.items() if len(k) <= 2)
    rows = [(k, round(v / total * 1e9)) for k, v in counts.items()]
    rows = [(k, v) for k, v in rows if v >= 1]
    rows.sort(key=lambda kv: (-kv[1], kv[0]))
    path = os.path.join(OUT, f"{lang}.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"# {source}\n")
        for k, v in rows:
            f.write(f"{k}\t{v}\n")
    print(f"{path}: {len(rows)} entries")


def main():
    check_versions()
    import wordfreq
    import msgpack

    os.makedirs(OUT, exist_ok=True)
    src = f"wordfreq {WORDFREQ_VERSION} (CC BY-SA 4.0)"
    for lang in ALPHABETIC:
        freqs = wordfreq.get_frequency_dict(lang, wordlist="best").items()
        transform = to_windows_1258_form if lang == "vi" else restore_casefolding(lang)
        counts = bigrams(freqs, transform, ELIDED.get(lang, ()))
        write(lang, counts, f"{src}, language {lang}, character bigrams")
    for lang in CJK:
        freqs = wordfreq.get_frequency_dict(lang, wordlist="best").items()
        write(lang, unigrams(freqs), f"{src}, language {lang}, characters")

    # Chinese: wordfreq's Chinese list is in simplified characters. Traditional text's
    # character frequencies are estimated through wordfreq's own traditional-to-simplified
    # mapping: a traditional character is as frequent as the simplified one it maps to.
    zh = wordfreq.get_frequency_dict("zh", wordlist="best").items()
    hans = unigrams(zh)
    write("zh_hans", hans, f"{src}, language zh, characters")
    path = os.path.join(os.path.dirname(wordfreq.__file__), "data", "_chinese_mapping.msgpack.gz")
    with gzip.open(path) as f:
        trad_to_simp = msgpack.load(f, raw=False, strict_map_key=False)
    simplified_only = {s for t, s in trad_to_simp.items() if len(s) == 1 and s != chr(t)}
    hant = Counter()
    for t, s in trad_to_simp.items():
        if s in hans:
            hant[chr(t)] += hans[s]
    for c, v in hans.items():
        if c not in simplified_only and c not in hant:
            hant[c] = v
    write("zh_hant", hant, f"{src}, language zh, characters mapped to traditional by wordfreq's mapping")

    # Thai: word frequencies of the Thai National Corpus, from pythainlp.
    import pythainlp

    path = os.path.join(os.path.dirname(pythainlp.__file__), "corpus", "tnc_freq.txt")
    freqs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 2 and parts[1].isdigit():
                freqs.append((parts[0], int(parts[1])))
    write("th", bigrams(freqs), f"pythainlp {PYTHAINLP_VERSION} corpus/tnc_freq.txt (CC0 1.0), character bigrams")


if __name__ == "__main__":
    main()
