#!/usr/bin/env bash
# Runs the criterion benchmarks of textcodec against encoding_rs (crates/textcodec/benches/
# codecs.rs) for several rounds and prints the Markdown table of scripts/bench_table.py.
# On the Unicode workloads simdutf is measured in the same run (function `simdutf`, columns
# "simdutf" and "vs simdutf"); scripts/simdutf-goals.sh measures issue 16's goals against it
# with per-thread CPU time.
#
# Usage: scripts/bench.sh [--rounds N] [--quick] [--no-fast] [--update-doc] [--out DIR]
#                         [FILTER] [-- CRITERION_ARGS...]
#
#   --rounds N     run the suite N times (default 3); the table gives medians over rounds
#   --quick        a representative subset (FILTER defaults to $QUICK_FILTER below)
#   --no-fast      skip the second run against encoding_rs built with fast-legacy-encode
#   --update-doc   also replace the generated part of BENCHMARKS.md with this report
#   --out DIR      where rounds, logs and report.md go (default target/bench-results/DATE)
#   FILTER         criterion's regular expression over `direction/input/encoding/function`,
#                  e.g. 'encode_utf8/ja' or '/(de|ru)\.html/'
#   CRITERION_ARGS passed on, e.g. -- --measurement-time 2 --warm-up-time 0.5
#
# Each round runs, one after the other: the main suite (textcodec and encoding_rs with
# default features, interleaved per workload), then, unless --no-fast, the CJK encode
# workloads built with `--features bench-er-fast` (textcodec again, and encoding_rs with
# fast-legacy-encode). Each round has its own CRITERION_HOME, so nothing stale is read.
# The full suite (1,448 measurements, 120 of them the error-dense inputs `dense-*`, 204
# simdutf's) takes about 35 minutes per round on 2 shared cores;
# --quick (306) about 9.
set -euo pipefail

QUICK_FILTER='^[a-z_0-9]+/(de\.txt|ru\.txt|ja\.txt|ko\.txt|zh_cn\.txt|zh_tw\.txt|ar\.html|ja\.html|ascii\.html|binary\.jpg|short)/'

rounds=3
quick=0
fast=1
update_doc=0
out=""
filter=""
criterion_args=()
command_line="scripts/bench.sh $*"

while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --rounds=*) rounds="${1#*=}"; shift ;;
        --quick) quick=1; shift ;;
        --no-fast) fast=0; shift ;;
        --update-doc) update_doc=1; shift ;;
        --out) out="$2"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; criterion_args=("$@"); break ;;
        -*) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) filter="$1"; shift ;;
    esac
done
if [ "$quick" = 1 ] && [ -z "$filter" ]; then
    filter="$QUICK_FILTER"
fi

cd "$(dirname "$0")/.."
root=$(pwd)
out="${out:-target/bench-results/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
out=$(cd "$out" && pwd)

args=()
[ -n "$filter" ] && args+=("$filter")
args+=(${criterion_args[@]+"${criterion_args[@]}"})

# Build once and copy the executables, so that every round measures the same code even
# while the library is being edited.
build() { # build DEST [CARGO_ARGS...]
    local dest="$1"; shift
    local exe
    exe=$(cargo bench -p textcodec --bench codecs --no-run --message-format=json "$@" \
        | python3 "$root/scripts/bench_executable.py" codecs)
    [ -n "$exe" ] || { echo "bench.sh: build failed" >&2; exit 1; }
    cp "$exe" "$dest"
}
rev=$(git rev-parse --short --verify -q HEAD 2>/dev/null || echo none)
dirty=$(git status --porcelain -- crates 2>/dev/null | head -n 1 || true)
built=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "bench.sh: building (results in $out)" >&2
mkdir -p "$out/bin"
build "$out/bin/codecs"
if [ "$fast" = 1 ]; then
    build "$out/bin/codecs-fast" --features bench-er-fast
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
start=$(date +%s)
for r in $(seq 1 "$rounds"); do
    home="$out/round-$r"
    mkdir -p "$home"
    t0=$(date +%s)
    echo "bench.sh: round $r/$rounds: main suite" >&2
    CRITERION_HOME="$home" "$out/bin/codecs" --bench ${args[@]+"${args[@]}"} >"$out/round-$r.log" 2>&1 \
        || { echo "bench.sh: the bench failed, see $out/round-$r.log" >&2; tail -n 20 "$out/round-$r.log" >&2; exit 1; }
    if [ "$fast" = 1 ]; then
        echo "bench.sh: round $r/$rounds: CJK encode against encoding_rs fast-legacy-encode" >&2
        CRITERION_HOME="$home" "$out/bin/codecs-fast" --bench ${args[@]+"${args[@]}"} \
            >"$out/round-$r-fast.log" 2>&1 \
            || { echo "bench.sh: the bench failed, see $out/round-$r-fast.log" >&2; tail -n 20 "$out/round-$r-fast.log" >&2; exit 1; }
    fi
    echo "bench.sh: round $r took $(( $(date +%s) - t0 )) s" >&2
done
elapsed=$(( $(date +%s) - start ))
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

report="$out/report.md"
{
    echo "Command: \`$command_line\` (${rounds} round(s), $(( elapsed / 60 )) min $(( elapsed % 60 )) s;"
    echo "filter: \`${filter:-none}\`), run $(date -u '+%Y-%m-%d %H:%M UTC'),"
    echo "built $built from commit $rev${dirty:+ plus uncommitted changes in crates/},"
    echo "$(rustc -V). Load average before/after: $load_before / $load_after."
    echo
    echo "Machine (\`lscpu\`):"
    echo
    echo '```'
    lscpu | grep -E '^(Model name|Architecture|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Hypervisor vendor|L1d cache|L2 cache|L3 cache)' || true
    echo '```'
    echo
    python3 "$root/scripts/bench_table.py" "$out"/round-*/
    warnings=$(cat "$out"/round-*.log | grep -h 'textcodec-bench: WARNING' | sort -u || true)
    if [ -n "$warnings" ]; then
        echo "### Warnings from the set-up checks"
        echo
        echo '```'
        echo "$warnings"
        echo '```'
    fi
} >"$report"

cat "$report"

if [ "$update_doc" = 1 ]; then
    python3 - "$root/BENCHMARKS.md" "$report" <<'EOF'
import sys
doc_path, report_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- BEGIN GENERATED by scripts/bench.sh -->", "<!-- END GENERATED -->"
doc = open(doc_path).read()
report = open(report_path).read().rstrip("\n")
i, j = doc.index(begin) + len(begin), doc.index(end)
open(doc_path, "w").write(doc[:i] + "\n" + report + "\n" + doc[j:])
EOF
    echo "bench.sh: BENCHMARKS.md updated" >&2
fi
