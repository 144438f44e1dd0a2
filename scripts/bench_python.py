#!/usr/bin/env python3
"""Benchmarks of the Python package against Python's own codecs, side by side in one run.

    python scripts/bench_python.py [--rounds N] [--quick]   # prints Markdown tables

Needs `textcodec` (pip install ./crates/textcodec-python) and pyarrow. Each workload runs
its two sides alternately, ROUNDS times, each time for about 20 ms; the table gives the best
time of each side (throughput in MB/s of input) and their ratio (Python's time / textcodec's:
above 1 means textcodec is faster). One-thread workloads are timed in the thread's CPU time
(time.thread_time), so that a loaded machine's waits for a core do not count; the batch
calls that run threads of their own, in wall time, with their CPU time / wall time (how many
cores they kept busy). Ratios still move by some percent from run to run.

Workloads:
- UTF-8: `bytes.decode("utf-8", "replace")` against `textcodec.decode(b)` on every corpus file.
- Every encoding Python has a codec for: the corpus text of its script, encoded by textcodec
  (the Web's bytes), decoded by Python's codec (errors="replace") and by textcodec; and
  encoded by each (Python with "xmlcharrefreplace", textcodec in its html mode).
- Batches: 20,000 rows of mixed encodings, a Python loop against `decode_many`, on 1 and 2
  threads, from a list and from a pyarrow array.
"""

import argparse
import math
import os
import pathlib
import time

import pyarrow as pa

import textcodec

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "corpus" / "wikipedia"

# WHATWG encoding -> (Python codec, the corpus language whose script it is for).
PYTHON_CODECS = {
    "IBM866": ("cp866", "ru"),
    "ISO-8859-2": ("iso8859_2", "cs"),
    "ISO-8859-3": ("iso8859_3", "tr"),
    "ISO-8859-4": ("iso8859_4", "de"),
    "ISO-8859-5": ("iso8859_5", "ru"),
    "ISO-8859-6": ("iso8859_6", "ar"),
    "ISO-8859-7": ("iso8859_7", "el"),
    "ISO-8859-8": ("iso8859_8", "he"),
    "ISO-8859-8-I": ("iso8859_8", "he"),
    "ISO-8859-10": ("iso8859_10", "de"),
    "ISO-8859-13": ("iso8859_13", "de"),
    "ISO-8859-14": ("iso8859_14", "fr"),
    "ISO-8859-15": ("iso8859_15", "fr"),
    "ISO-8859-16": ("iso8859_16", "cs"),
    "KOI8-R": ("koi8_r", "ru"),
    "KOI8-U": ("koi8_u", "ru"),
    "macintosh": ("mac_roman", "fr"),
    "windows-874": ("cp874", "th"),
    "windows-1250": ("cp1250", "cs"),
    "windows-1251": ("cp1251", "ru"),
    "windows-1252": ("cp1252", "pt"),
    "windows-1253": ("cp1253", "el"),
    "windows-1254": ("cp1254", "tr"),
    "windows-1255": ("cp1255", "he"),
    "windows-1256": ("cp1256", "ar"),
    "windows-1257": ("cp1257", "de"),
    "windows-1258": ("cp1258", "vi"),
    "x-mac-cyrillic": ("mac_cyrillic", "ru"),
    "GBK": ("gbk", "zh_cn"),
    "gb18030": ("gb18030", "zh_cn"),
    "Big5": ("big5", "zh_tw"),
    "EUC-JP": ("euc_jp", "ja"),
    "ISO-2022-JP": ("iso2022_jp", "ja"),
    "Shift_JIS": ("shift_jis", "ja"),
    "EUC-KR": ("euc_kr", "ko"),
    "UTF-16BE": ("utf-16-be", "ja"),
    "UTF-16LE": ("utf-16-le", "ja"),
}


def best(fn, rounds, target=0.02):
    """Calibrates `fn` to about `target` seconds, then returns a list of per-call times."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= target / 4 or n > 1 << 20:
            break
        n *= 2
    n = max(1, int(n * target / max(dt, 1e-9)))
    return n


def compare(a, b, rounds, clock=time.thread_time):
    """Best time per call of `a` and `b`, run alternately. The clock is this thread's CPU
    time (time spent waiting for a core on a loaded machine is not counted), or wall time for
    calls that run threads of their own."""
    na, nb = best(a, rounds), best(b, rounds)
    ta = tb = math.inf
    for _ in range(rounds):
        t0 = clock()
        for _ in range(na):
            a()
        ta = min(ta, (clock() - t0) / na)
        t0 = clock()
        for _ in range(nb):
            b()
        tb = min(tb, (clock() - t0) / nb)
    return ta, tb


def mbps(nbytes, t):
    return f"{nbytes / t / 1e6:,.0f}"


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def utf8_table(rounds):
    print("### UTF-8 decode, every corpus file\n")
    print("| file | bytes | Python MB/s | textcodec MB/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    ratios = []
    for p in sorted(CORPUS.iterdir()):
        if p.suffix not in (".txt", ".html", ".jpg"):
            continue
        data = p.read_bytes()
        assert textcodec.decode(data) == data.decode("utf-8", "replace")
        tp, tt = compare(lambda: data.decode("utf-8", "replace"), lambda: textcodec.decode(data), rounds)
        ratios.append(tp / tt)
        print(f"| {p.name} | {len(data):,} | {mbps(len(data), tp)} | {mbps(len(data), tt)} | {tp / tt:.2f} |")
    print(f"\nLowest ratio {min(ratios):.2f}, geometric mean {geomean(ratios):.2f}.\n")


def legacy_table(rounds):
    print("### Every encoding Python has: decode and encode\n")
    print("| encoding | Python codec | input | bytes | decode: Python MB/s | textcodec MB/s | ratio | encode: Python MB/s | textcodec MB/s | ratio |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    dec, enc = {}, {}
    for name, (codec, lang) in PYTHON_CODECS.items():
        for suffix in (".txt", ".html"):
            text = (CORPUS / f"{lang}{suffix}").read_text("utf-8")
            if name.startswith("UTF-16"):
                data = text.encode(codec)
                enc_t = lambda: textcodec.TextEncoder().encode(text)  # noqa: E731 (no UTF-16 encoder in the spec)
                enc_p = None
            else:
                data = textcodec.encode(text, name)
                enc_t = lambda: textcodec.encode(text, name)  # noqa: E731
                enc_p = lambda: text.encode(codec, "xmlcharrefreplace")  # noqa: E731
            tp, tt = compare(lambda: data.decode(codec, "replace"), lambda: textcodec.decode(data, name), rounds)
            dec.setdefault(name, []).append(tp / tt)
            row = f"| {name} | {codec} | {lang}{suffix} | {len(data):,} | {mbps(len(data), tp)} | {mbps(len(data), tt)} | {tp / tt:.2f} |"
            if enc_p is not None:
                ep, et = compare(enc_p, enc_t, rounds)
                enc.setdefault(name, []).append(ep / et)
                row += f" {mbps(len(data), ep)} | {mbps(len(data), et)} | {ep / et:.2f} |"
            else:
                row += " | | |"
            print(row)
    legacy = [r for n, rs in dec.items() if not n.startswith("UTF-16") for r in rs]
    legacy_enc = [r for rs in enc.values() for r in rs]
    print(
        f"\nLegacy encodings (all but UTF-16), geometric mean of the ratios: decode {geomean(legacy):.2f} "
        f"(lowest {min(legacy):.2f}), encode {geomean(legacy_enc):.2f} (lowest {min(legacy_enc):.2f}).\n"
    )


def batch_rows(n):
    labels = ["utf-8", "Shift_JIS", "windows-1251", "GBK", "EUC-KR", "windows-1252", "Big5", "EUC-JP"]
    codecs = {"utf-8": "utf-8", "Shift_JIS": "cp932", "windows-1251": "cp1251", "GBK": "gbk", "EUC-KR": "cp949",
              "windows-1252": "cp1252", "Big5": "big5", "EUC-JP": "euc_jp"}
    texts = [p.read_text("utf-8") for p in sorted(CORPUS.glob("*.txt"))]
    items, labs = [], []
    for i in range(n):
        label = labels[i % len(labels)]
        text = texts[i % len(texts)][(i * 131) % 2000 :][: 300 + (i * 97) % 1500]
        items.append(textcodec.encode(text, label))
        labs.append(label)
    return items, labs, [codecs[l] for l in labs]


def wall(fn, rounds):
    """Best wall time per call of `fn` and, in that round, the process's CPU time / wall
    time (how many cores the call kept busy) and the calling thread's CPU time / the
    process's (the part of the work done on the calling thread: with the GIL, the serial
    part, whose inverse bounds the scaling whatever the cores and the load)."""
    n = best(fn, rounds, target=0.2)
    t, par, share = math.inf, 0.0, 1.0
    for _ in range(rounds):
        c0, w0, m0 = time.process_time(), time.perf_counter(), time.thread_time()
        for _ in range(n):
            fn()
        w = (time.perf_counter() - w0) / n
        c, m = time.process_time() - c0, time.thread_time() - m0
        if w < t:
            t, par, share = w, c / (w * n), m / c
    return t, par, share


def batch_table(rounds):
    items, labels, pycodecs = batch_rows(20000)
    total = sum(map(len, items))
    arr = pa.array(items, pa.binary())
    lab_arr = pa.array(labels)
    print(f"### Batches: 20,000 rows of 8 encodings, {total / 1e6:.1f} MB\n")
    print("One thread, in the thread's CPU time, against a Python loop over `bytes.decode` (Python's")
    print("nearest codecs), side by side:\n")
    print("| workload | MB/s | against the Python loop |")
    print("|---|---:|---:|")
    loop = lambda: [b.decode(c, "replace") for b, c in zip(items, pycodecs)]  # noqa: E731
    work = [
        ("textcodec.decode in a Python loop", lambda: [textcodec.decode(b, l) for b, l in zip(items, labels)]),
        ("decode_many(list), 1 thread", lambda: textcodec.decode_many(items, labels, threads=1)),
        ("decode_many(pyarrow), 1 thread", lambda: textcodec.decode_many(arr, lab_arr, threads=1)),
    ]
    base = math.inf
    for what, fn in work:
        tp, tt = compare(loop, fn, rounds)
        base = min(base, tp)
        print(f"| {what} | {mbps(total, tt)} | {tp / tt:.2f} |")
    print(f"| Python loop (`bytes.decode`, Python's nearest codecs) | {mbps(total, base)} | 1.00 |\n")
    scaling_table(rounds, items, labels, arr, lab_arr, total)


def scaling_table(rounds, items=None, labels=None, arr=None, lab_arr=None, total=None):
    if items is None:
        items, labels, _ = batch_rows(20000)
        total = sum(map(len, items))
        arr, lab_arr = pa.array(items, pa.binary()), pa.array(labels)
    cores = os.cpu_count() or 1
    counts = sorted({1, 2, cores})
    load0 = os.getloadavg()
    print(f"decode_many on threads, in wall time (best of {rounds} rounds of about 200 ms), with the")
    print(f"process's CPU time / wall time, and the calling thread's CPU time / the process's (its")
    print(f"inverse bounds the scaling, whatever the cores and the load); os.cpu_count() = {cores}:\n")
    print("| input | threads | MB/s | against 1 thread | CPU time / wall time | calling thread's CPU share |")
    print("|---|---:|---:|---:|---:|---:|")
    for what, fn in [
        ("list", lambda k: textcodec.decode_many(items, labels, threads=k)),
        ("pyarrow", lambda k: textcodec.decode_many(arr, lab_arr, threads=k)),
    ]:
        one = None
        for k in counts:
            t, par, share = wall(lambda: fn(k), rounds)
            one = one or t
            print(f"| {what} | {k} | {mbps(total, t)} | {one / t:.2f} | {par:.2f} | {share:.2f} |")
    load1 = os.getloadavg()
    print(f"\nLoad average (1 min) before and after: {load0[0]:.2f}, {load1[0]:.2f}.\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="2 rounds")
    ap.add_argument("--only", choices=["utf8", "legacy", "batch", "scaling"], help="one table")
    args = ap.parse_args()
    rounds = 2 if args.quick else args.rounds
    import platform
    import sys

    print(f"Python {sys.version.split()[0]} ({platform.machine()}), textcodec {textcodec.__name__}, pyarrow {pa.__version__}, {rounds} rounds\n")
    tables = {"utf8": utf8_table, "legacy": legacy_table, "batch": batch_table, "scaling": scaling_table}
    for name, table in tables.items():
        if args.only in (None, name) and not (args.only is None and name == "scaling"):
            table(rounds)


if __name__ == "__main__":
    main()
