#!/usr/bin/env python3
"""Prints the executable of the bench target NAME from `cargo bench --no-run
--message-format=json` read on standard input (for scripts/bench.sh and
scripts/simdutf-goals.sh, which copy or run the built binary).

Usage: cargo bench ... --no-run --message-format=json | scripts/bench_executable.py NAME
"""

import json
import sys

name = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == name:
        print(m["executable"])
