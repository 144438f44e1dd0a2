#!/usr/bin/env python3
"""The table of scripts/bench-compare.sh: textcodec at two commits by the clock.

Usage: scripts/bench_compare_table.py RUN_DIR

RUN_DIR holds one CRITERION_HOME per run, named SIDE-LEVEL-ROUND (SIDE old or new, LEVEL
active or avx2), and `meta` (the commits, the load average at each run). For every workload
and level: the median over the rounds of criterion's median time per iteration of each
side, NEW/OLD of those medians, and the per-round ratios, sorted (a round pairs the two
sides' runs made one after the other); then the fastest sample of each side over all rounds
(criterion's sample.json: time / iterations) and their ratio: on a shared machine the other
processes only ever add time, so the minimum is the steadier estimate. Above 1: NEW is
slower.
"""

import json
import os
import re
import statistics
import sys


def times(home, fastest=False):
    """{workload: median ns per iteration} of one CRITERION_HOME (with `fastest`, the
    fastest sample's ns per iteration)."""
    out = {}
    for dirpath, _, files in os.walk(home):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            b = json.load(f)
        if fastest:
            with open(os.path.join(dirpath, "sample.json")) as f:
                smp = json.load(f)
            out[b["group_id"]] = min(t / n for t, n in zip(smp["times"], smp["iters"]))
            continue
        with open(os.path.join(dirpath, "estimates.json")) as f:
            e = json.load(f)
        out[b["group_id"]] = e["median"]["point_estimate"]
    return out


def fmt(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.0f} ns"


def main():
    run = sys.argv[1]
    runs = {}
    fast = {}
    for name in os.listdir(run):
        m = re.fullmatch(r"(old|new)-(active|avx2)-(\d+)", name)
        if m and os.path.isdir(os.path.join(run, name)):
            runs[(m[1], m[2], int(m[3]))] = times(os.path.join(run, name))
            fast[(m[1], m[2], int(m[3]))] = times(os.path.join(run, name), fastest=True)
    meta = open(os.path.join(run, "meta")).read().splitlines()
    old = next(l for l in meta if l.startswith("old ")).split()[1]
    new = next(l for l in meta if l.startswith("new ")).split()[1]
    loads = [float(l.split("load ")[1].split()[0]) for l in meta if " load " in l or l.startswith("end load")]
    rounds = sorted({r for (_, _, r) in runs})
    levels = [l for l in ("active", "avx2") if any(k[1] == l for k in runs)]
    print(f"{old} (old) against {new} (new), {len(rounds)} interleaved rounds; "
          f"load average (1 min) {min(loads):.2f}-{max(loads):.2f} over the runs")
    print()
    print(f"| workload | level | {old} | {new} | new/old | per-round ratios | fastest {old} | fastest {new} | new/old |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|")
    ratios_all = {l: [] for l in levels}
    fastest_all = {l: [] for l in levels}
    workloads = sorted({w for t in runs.values() for w in t})
    for w in workloads:
        for level in levels:
            o = [runs[("old", level, r)].get(w) for r in rounds if ("old", level, r) in runs]
            n = [runs[("new", level, r)].get(w) for r in rounds if ("new", level, r) in runs]
            o = [x for x in o if x is not None]
            n = [x for x in n if x is not None]
            if not o or not n:
                continue
            per_round = [
                runs[("new", level, r)][w] / runs[("old", level, r)][w]
                for r in rounds
                if w in runs.get(("new", level, r), {}) and w in runs.get(("old", level, r), {})
            ]
            mo, mn = statistics.median(o), statistics.median(n)
            ratios_all[level].append(mn / mo)
            spread = ", ".join(f"{x:.3f}" for x in sorted(per_round))
            fo = min(t[w] for k, t in fast.items() if k[0] == "old" and k[1] == level and w in t)
            fn = min(t[w] for k, t in fast.items() if k[0] == "new" and k[1] == level and w in t)
            fastest_all[level].append(fn / fo)
            print(f"| {w} | {level} | {fmt(mo)} | {fmt(mn)} | **{mn / mo:.3f}** | {spread} "
                  f"| {fmt(fo)} | {fmt(fn)} | **{fn / fo:.3f}** |")
    print()
    for level in levels:
        r = ratios_all[level]
        if r:
            g = statistics.geometric_mean(r)
            gf = statistics.geometric_mean(fastest_all[level])
            print(f"- {level}: geomean new/old {g:.3f} (medians), {gf:.3f} (fastest samples) "
                  f"over {len(r)} workloads")


if __name__ == "__main__":
    main()
