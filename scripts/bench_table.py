#!/usr/bin/env python3
"""Turns criterion results of crates/textcodec/benches/codecs.rs into a Markdown table.

Usage: scripts/bench_table.py [--top N] ROUND_DIR [ROUND_DIR ...]

Each ROUND_DIR is the CRITERION_HOME of one round (scripts/bench.sh makes them). For
every benchmark it reads new/benchmark.json (names, throughput) and new/estimates.json
(criterion's median time per iteration). Across rounds it reports the median MB/s
(10^6 bytes per second of input) of each implementation and the median of the per-round
ratios textcodec / encoding_rs (above 1: textcodec is faster); ratios are taken within a
round because both functions of a workload run back to back there. Geometric means of
the ratios are given per category and overall (the error-dense workloads, inputs named
`dense-*`, apart), then the workloads where textcodec is furthest behind.

Where simdutf was measured (the Unicode workloads, issue 16), **vs simdutf** is textcodec /
simdutf the same way, and for UTF-8 to UTF-8 **vs bar** is textcodec / the slower of
`memcpy` and simdutf's validation alone (`validate_utf8/INPUT/UTF-8`, function `simdutf`),
the bar of the issue's goal. scripts/simdutf-goals.sh measures the same goals with
per-thread CPU time, interleaved.
"""

import argparse
import json
import math
import os
import statistics
import sys

TC, ER = "textcodec", "encoding_rs"
TC_FAST, ER_FAST = "textcodec_fastrun", "encoding_rs_fast"
EXTRAS = ["std", "simdutf8", "simdutf8_only", "memcpy", "simdutf"]
SU = "simdutf"
CJK = {"Shift_JIS", "EUC-JP", "ISO-2022-JP", "EUC-KR", "GBK", "gb18030", "Big5"}

DIRECTION_TITLE = {
    "decode_utf8": "decode to UTF-8",
    "decode_utf16": "decode to UTF-16",
    "encode_utf8": "encode from UTF-8",
    "encode_utf16": "encode from UTF-16",
}
DIRECTIONS = list(DIRECTION_TITLE)
# Error-dense input (inputs named `dense-*`): replacement mode and fatal mode resumed after
# each error, each to UTF-8 and to UTF-16.
DENSE_TITLE = {
    "decode_utf8": "replacement, to UTF-8",
    "decode_utf16": "replacement, to UTF-16",
    "fatal_utf8": "fatal resumed after each error, to UTF-8",
    "fatal_utf16": "fatal resumed after each error, to UTF-16",
}
DENSE_KEY = 80


def is_dense(key):
    return key[0] >= DENSE_KEY


def category(group):
    """(sort key, title) of a workload `direction/input/encoding`."""
    direction, inp, enc = group.split("/", 2)
    d = DIRECTIONS.index(direction) if direction in DIRECTIONS else 9
    if inp.startswith("dense-"):
        titles = list(DENSE_TITLE)
        return (DENSE_KEY + titles.index(direction), "Error-dense input: " + DENSE_TITLE[direction])
    if direction.startswith("hook_"):
        return (70, "Hooks: decode / encode a whole .txt file (new String or Vec)")
    if inp == "short":
        return (60, "Short strings (16-64 bytes, a new decoder or encoder each)")
    if inp.startswith("ascii"):
        return (50, "Pure ASCII (ascii.html)")
    if enc == "x-user-defined":
        return (40, "x-user-defined (binary.jpg)")
    if direction == "validate_utf8":
        return (20 + len(DIRECTIONS), "UTF-8 validation alone (`utf8_valid_up_to`)")
    if enc == "UTF-8":
        title = {
            "decode_utf8": "UTF-8 to UTF-8 (validate and copy)",
            "decode_utf16": "UTF-8 to UTF-16",
            "encode_utf16": "UTF-16 to UTF-8 (encode from UTF-16)",
        }.get(direction, direction + " UTF-8")
        return (20 + d, title)
    if enc.startswith("UTF-16"):
        return (30, "UTF-16LE/BE bytes to UTF-8")
    if enc in CJK:
        return (10 + d, "CJK: " + DIRECTION_TITLE.get(direction, direction))
    return (d, "Single-byte: " + DIRECTION_TITLE.get(direction, direction))


def load_round(path):
    """{(group, function): (bytes, median ns)} of one CRITERION_HOME."""
    results = {}
    for dirpath, _dirs, files in os.walk(path):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        throughput = bench.get("throughput") or {}
        nbytes = throughput.get("Bytes") or throughput.get("BytesDecimal")
        if not nbytes:
            continue
        ns = est["median"]["point_estimate"]
        results[(bench["group_id"], bench["function_id"])] = (nbytes, ns)
    return results


def mbps(nbytes, ns):
    return nbytes * 1e3 / ns  # bytes / (ns * 1e-9) / 1e6


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt_speed(v):
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def fmt_ratio(v):
    return "—" if v is None else f"{v:.2f}"


def fmt_spread(values):
    """Median over workloads of how far apart the rounds' ratios were."""
    values = [v for v in values if v is not None]
    return f"{statistics.median(values) * 100:.0f} %" if values else "—"


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=15, help="how many slowest workloads to list")
    ap.add_argument("rounds", nargs="+", help="CRITERION_HOME directory of each round")
    args = ap.parse_args()

    rounds = [load_round(p) for p in args.rounds]
    rounds = [r for r in rounds if r]
    if not rounds:
        sys.exit("bench_table.py: no criterion results found in " + " ".join(args.rounds))

    groups = sorted({g for r in rounds for (g, _) in r})
    functions = {}
    for r in rounds:
        for (g, fn) in r:
            functions.setdefault(g, set()).add(fn)

    def speeds(g, fn):
        return [mbps(*r[(g, fn)]) if (g, fn) in r else None for r in rounds]

    def per_round_ratios(g, a, b):
        return [
            mbps(*r[(g, a)]) / mbps(*r[(g, b)])
            for r in rounds
            if (g, a) in r and (g, b) in r
        ]

    def ratio(g, a, b):
        return median_or_none(per_round_ratios(g, a, b))

    def bar_ratio(g):
        """UTF-8 to UTF-8: textcodec / the slower of memcpy and simdutf's validation alone
        (measured in the group validate_utf8 of the same input, same round)."""
        direction, inp, enc = g.split("/", 2)
        if direction != "decode_utf8" or enc != "UTF-8":
            return None
        v = f"validate_utf8/{inp}/{enc}"
        rs = []
        for r in rounds:
            if (g, TC) in r and (g, "memcpy") in r and (v, SU) in r:
                bar = min(mbps(*r[(g, "memcpy")]), mbps(*r[(v, SU)]))
                rs.append(mbps(*r[(g, TC)]) / bar)
        return median_or_none(rs)

    def spread(g):
        """max / min - 1 of the per-round ratios: how much the rounds disagree."""
        rs = per_round_ratios(g, TC, ER)
        return max(rs) / min(rs) - 1 if len(rs) > 1 else None

    rows = {}
    for g in groups:
        fns = functions[g]
        row = {fn: median_or_none(speeds(g, fn)) for fn in fns}
        row["ratio"] = ratio(g, TC, ER)
        row["ratio_fast"] = ratio(g, TC_FAST, ER_FAST)
        row["ratio_su"] = ratio(g, TC, SU)
        row["ratio_bar"] = bar_ratio(g)
        rows[g] = row

    cats = {}
    for g in groups:
        cats.setdefault(category(g), []).append(g)

    out = []
    n_rounds = len(rounds)
    out.append(
        f"Throughput in MB/s (10^6 bytes of input per second), median over {n_rounds} "
        f"round{'s' if n_rounds != 1 else ''} of criterion's median time. **ratio** = "
        "textcodec / encoding_rs, per round then median (above 1: textcodec is faster). "
        "**vs fast** = textcodec / encoding_rs built with `fast-legacy-encode`, measured "
        "in the separate `bench-er-fast` run. **spread** = median over the category's "
        "workloads of (largest / smallest per-round ratio - 1), a measure of the noise. "
        "**vs simdutf** = textcodec / simdutf the same way; **vs bar** (UTF-8 to UTF-8) = "
        "textcodec / the slower of memcpy and simdutf's validation alone."
    )
    out.append("")

    # Summary per category.
    out.append("### Summary: geometric mean of the ratios per category")
    out.append("")
    has_fast = any(rows[g]["ratio_fast"] is not None for g in groups)
    head = "| category | workloads | geomean ratio | lowest ratio | spread |"
    sep = "|---|---:|---:|---:|---:|"
    if has_fast:
        head += " geomean vs fast |"
        sep += "---:|"
    has_su = any(rows[g]["ratio_su"] is not None for g in groups)
    if has_su:
        head += " geomean vs simdutf | lowest vs simdutf |"
        sep += "---:|---:|"
    out += [head, sep]

    def su_cells(gs):
        rs = [rows[g]["ratio_su"] for g in gs if rows[g]["ratio_su"] is not None]
        if not rs:
            return " — | — |"
        return f" {fmt_ratio(geomean(rs))} | {fmt_ratio(min(rs))} |"

    all_ratios = []
    dense_ratios = []
    for key in sorted(cats):
        gs = cats[key]
        ratios = [rows[g]["ratio"] for g in gs if rows[g]["ratio"] is not None]
        if is_dense(key):
            dense_ratios += ratios
        else:
            all_ratios += ratios
        lowest = min(ratios) if ratios else None
        line = (
            f"| {key[1]} | {len(ratios)} | {fmt_ratio(geomean(ratios))} | "
            f"{fmt_ratio(lowest)} | {fmt_spread([spread(g) for g in gs])} |"
        )
        if has_fast:
            fr = [rows[g]["ratio_fast"] for g in gs if rows[g]["ratio_fast"] is not None]
            line += f" {fmt_ratio(geomean(fr))} |"
        if has_su:
            line += su_cells(gs)
        out.append(line)
    plain = [g for g in groups if not is_dense(category(g))]
    line = f"| **all** | {len(all_ratios)} | **{fmt_ratio(geomean(all_ratios))}** | " + (
        f"{fmt_ratio(min(all_ratios)) if all_ratios else '—'} | "
        f"{fmt_spread([spread(g) for g in plain])} |"
    )
    if has_fast:
        fr = [rows[g]["ratio_fast"] for g in plain if rows[g]["ratio_fast"] is not None]
        line += f" {fmt_ratio(geomean(fr))} |"
    if has_su:
        line += su_cells(plain)
    if all_ratios:
        out.append(line)
    if dense_ratios:
        dense = [g for g in groups if is_dense(category(g))]
        line = (
            f"| **all error-dense** (not in **all**) | {len(dense_ratios)} | "
            f"**{fmt_ratio(geomean(dense_ratios))}** | {fmt_ratio(min(dense_ratios))} | "
            f"{fmt_spread([spread(g) for g in dense])} |"
        )
        if has_fast:
            line += " — |"
        if has_su:
            line += su_cells(dense)
        out.append(line)
    out.append("")

    # Slowest workloads.
    ranked = sorted((rows[g]["ratio"], g) for g in groups if rows[g]["ratio"] is not None)
    if ranked:
        out.append(f"### Slowest relative to encoding_rs (lowest {min(args.top, len(ranked))} ratios)")
        out.append("")
        out.append("| workload | textcodec MB/s | encoding_rs MB/s | ratio |")
        out.append("|---|---:|---:|---:|")
        for r, g in ranked[: args.top]:
            out.append(
                f"| `{g}` | {fmt_speed(rows[g].get(TC))} | {fmt_speed(rows[g].get(ER))} | "
                f"{fmt_ratio(r)} |"
            )
        out.append("")

    missing = [g for g in groups if ER in functions[g] and TC not in functions[g]]
    if missing:
        out.append("Not measured for textcodec (it panicked in set-up): " +
                   ", ".join(f"`{g}`" for g in missing))
        out.append("")

    # One table per category.
    for key in sorted(cats):
        gs = cats[key]
        extras = [e for e in EXTRAS if any(e in functions[g] for g in gs)]
        fast = any(ER_FAST in functions[g] for g in gs)
        su = any(rows[g]["ratio_su"] is not None for g in gs)
        bar = any(rows[g]["ratio_bar"] is not None for g in gs)
        out.append(f"### {key[1]}")
        out.append("")
        head = "| workload | textcodec | encoding_rs | ratio |"
        sep = "|---|---:|---:|---:|"
        for e in extras:
            head += f" {e} |"
            sep += "---:|"
        if su:
            head += " vs simdutf |"
            sep += "---:|"
        if bar:
            head += " vs bar |"
            sep += "---:|"
        if fast:
            head += " textcodec (fast run) | encoding_rs fast | vs fast |"
            sep += "---:|---:|---:|"
        out += [head, sep]
        for g in gs:
            row = rows[g]
            line = (
                f"| `{g}` | {fmt_speed(row.get(TC))} | {fmt_speed(row.get(ER))} | "
                f"{fmt_ratio(row['ratio'])} |"
            )
            for e in extras:
                line += f" {fmt_speed(row.get(e))} |"
            if su:
                line += f" {fmt_ratio(row['ratio_su'])} |"
            if bar:
                line += f" {fmt_ratio(row['ratio_bar'])} |"
            if fast:
                line += (
                    f" {fmt_speed(row.get(TC_FAST))} | {fmt_speed(row.get(ER_FAST))} | "
                    f"{fmt_ratio(row['ratio_fast'])} |"
                )
            out.append(line)
        ratios = [rows[g]["ratio"] for g in gs if rows[g]["ratio"] is not None]
        gm = geomean(ratios)
        out.append("")
        line = f"Geometric mean ratio: **{fmt_ratio(gm)}** over {len(ratios)} workloads"
        for key_, label in (("ratio_su", "vs simdutf"), ("ratio_bar", "vs bar")):
            rs = [rows[g][key_] for g in gs if rows[g][key_] is not None]
            if rs:
                line += f"; {label} **{fmt_ratio(geomean(rs))}** (lowest {fmt_ratio(min(rs))})"
        out.append(line + ".")
        out.append("")

    print("\n".join(out))


if __name__ == "__main__":
    main()
