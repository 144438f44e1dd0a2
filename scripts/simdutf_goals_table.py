#!/usr/bin/env python3
"""Combines the measurements of scripts/simdutf-goals.sh into one Markdown table.

Usage: scripts/simdutf_goals_table.py REPORT.md

REPORT.md holds one or more configurations and runs (`## ...` sections, each with the
harness's summary table and its per-file table). For every file and column this prints the
median of the measurements and their range, and per workload the geometric mean of those
medians, the lowest files and how many are below the goal, beside the geometric mean of each
measurement. Only meaningful when the measurements compare the same kernels (on a machine
without AVX-512 both configurations are AVX2 against simdutf's `haswell`) or to read the
spread of one configuration over several runs (`--config active --repeat N`).
"""

import math
import re
import statistics
import sys


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(section):
    """The Markdown tables of a section, each a list of rows of cells (header first)."""
    out, cur = [], []
    for line in section.splitlines():
        if line.startswith("|"):
            if not line.startswith("|---"):
                cur.append(cells(line))
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


def main():
    text = open(sys.argv[1]).read()
    sections = re.split(r"\n## ", text)[1:]
    goals = {}  # label -> (goal, [geomean per measurement])
    per_file = []  # per measurement: (columns, {file: (kb, [ratios])})
    for sec in sections:
        for t in tables(sec):
            head = t[0]
            if head[:2] == ["workload", "goal"]:
                for row in t[1:]:
                    g = goals.setdefault(row[0], (float(row[1]), []))
                    g[1].append(float(row[3].strip("*")))
            elif head[:2] == ["file", "KB"]:
                per_file.append((head[2:], {r[0]: (r[1], [float(x) for x in r[2:]]) for r in t[1:]}))
    if not per_file:
        sys.exit("simdutf_goals_table.py: no per-file table found")
    columns, first = per_file[0]
    per_file = [m for c, m in per_file if c == columns]
    files = list(first)
    n = len(per_file)
    medians = {}
    for i in range(len(columns)):
        for f in files:
            v = sorted(m[f][1][i] for m in per_file if f in m)
            medians[(i, f)] = (statistics.median(v), v[0], v[-1])

    print(f"{n} measurement(s): median per file, its range in brackets.")
    print()
    print("| workload | goal | geomean of the medians | lowest files | below goal | geomean of each measurement |")
    print("|---|---:|---:|---|---:|---|")
    # The summary's lines are in the per-file table's column order.
    for i, (label, (goal, gms)) in enumerate(goals.items()):
        if i >= len(columns):
            break
        ms = sorted((medians[(i, f)][0], f) for f in files)
        worst = ", ".join(f"{f} {m:.2f}" for m, f in ms[:3])
        below = sum(1 for m, _ in ms if m < goal)
        each = " / ".join(f"{g:.2f}" for g in gms)
        print(f"| {label} | {goal:.1f} | **{geomean([m for m, _ in ms]):.2f}** | {worst} | {below} | {each} |")
    print()
    print("| file | KB | " + " | ".join(columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))
    for f in files:
        row = []
        for i in range(len(columns)):
            m, lo, hi = medians[(i, f)]
            row.append(f"{m:.2f} ({lo:.2f}-{hi:.2f})" if n > 1 else f"{m:.2f}")
        print(f"| {f} | {first[f][0]} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
