#!/bin/sh
# The detector's evaluation (DETECTION.md): textcodec's detect::Detector and chardetng on the
# same inputs in the same run, on the test set (the headline) and the development set.
# Rewrites the part of DETECTION.md between the markers "<!-- eval:start -->" and
# "<!-- eval:end -->" with this machine's run. The only way the test set is read: tune on the
# development set (`cargo run --release -p textcodec --example detect_eval [-- --rows|--misses]`).
#
#   scripts/detect-eval.sh
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
cargo run --quiet --release -p textcodec --example detect_eval -- --report > "$out"
python3 - "$out" <<'PY'
import sys
report = open(sys.argv[1], encoding="utf-8").read()
doc = open("DETECTION.md", encoding="utf-8").read()
start, end = "<!-- eval:start -->\n", "<!-- eval:end -->"
a, b = doc.index(start) + len(start), doc.index(end)
open("DETECTION.md", "w", encoding="utf-8").write(doc[:a] + report + doc[b:])
PY
rm -f "$out"
echo "DETECTION.md updated"
