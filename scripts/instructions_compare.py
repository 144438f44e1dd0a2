#!/usr/bin/env python3
"""Compare two instruction-count runs of scripts/instructions.sh.

Usage: scripts/instructions_compare.py OLD.tsv NEW.tsv [--threshold PERCENT]

Prints every workload whose count moved by more than the threshold (default 1 %), the
largest moves first, and a summary (geometric mean of NEW/OLD, the worst ratio). Exits 1
when any workload is above the threshold, so a refactoring step can assert "no workload
more than 1 % slower".
"""
import math
import sys


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            name, _, count = line.rstrip("\n").partition("\t")
            if count.isdigit():
                out[name] = int(count)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    threshold = 1.0
    if "--threshold" in sys.argv:
        threshold = float(sys.argv[sys.argv.index("--threshold") + 1])
        args = [a for a in args if a != str(sys.argv[sys.argv.index("--threshold") + 1])]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    old, new = load(args[0]), load(args[1])
    common = sorted(set(old) & set(new))
    if not common:
        print("no workload in common", file=sys.stderr)
        return 2
    ratios = {n: new[n] / old[n] for n in common if old[n] > 0}
    moved = sorted(ratios.items(), key=lambda kv: -abs(math.log(kv[1])))
    over = [(n, r) for n, r in moved if r > 1 + threshold / 100]
    print(f"{len(common)} workloads; only in old: {len(set(old) - set(new))}, only in new: {len(set(new) - set(old))}")
    geo = math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios))
    worst = max(ratios.items(), key=lambda kv: kv[1])
    best = min(ratios.items(), key=lambda kv: kv[1])
    print(f"geometric mean new/old: {geo:.4f}; worst {worst[0]} {worst[1]:.4f}; best {best[0]} {best[1]:.4f}")
    for n, r in moved:
        if abs(r - 1) * 100 > threshold:
            print(f"{r:8.4f}  {old[n]:>12}  {new[n]:>12}  {n}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
