#!/usr/bin/env bash
# Instruction counts of the benchmark workloads under callgrind: repeatable on a shared
# machine, where the clock is not. See crates/textcodec/benches/instructions.rs.
#
# Usage: scripts/instructions.sh [--impl textcodec|encoding_rs] [--level LEVEL]
#                                [--out FILE] [FILTER]
#
#   FILTER        an extended regular expression over the workload names (default: all)
#   --impl        which implementation to count (default textcodec)
#   --level       force a dispatch level (scalar, sse2, avx2, ...) via TEXTCODEC_LEVEL
#   --out FILE    where the TSV goes (default target/instructions/<commit>.tsv)
#
# Compare two runs with scripts/instructions_compare.py OLD.tsv NEW.tsv.
# Each workload is one valgrind run (about a second); the whole set takes about 10 minutes.
set -euo pipefail
impl=textcodec
filter=""
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --impl) impl="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --level) export TEXTCODEC_LEVEL="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "instructions.sh: unknown option $1" >&2; exit 2 ;;
        *) filter="$1"; shift ;;
    esac
done
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 2; }
exe=$(cargo bench -p textcodec --bench instructions --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "instructions" and m.get("executable"):
        print(m["executable"])')
[ -n "$exe" ] || { echo "instructions.sh: build failed" >&2; exit 1; }
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && rev="$rev-dirty"
out="${out:-target/instructions/$rev-$impl${TEXTCODEC_LEVEL:+-$TEXTCODEC_LEVEL}.tsv}"
mkdir -p "$(dirname "$out")"
: > "$out"
"$exe" list | { if [ -n "$filter" ]; then grep -E "$filter" || true; else cat; fi; } | while read -r name; do
    count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
        --toggle-collect='instructions::measure*' "$exe" run "$name" "$impl" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    printf '%s\t%s\n' "$name" "${count:-ERROR}" | tee -a "$out"
done
echo "instructions.sh: wrote $out" >&2
