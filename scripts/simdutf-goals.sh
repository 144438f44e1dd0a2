#!/usr/bin/env bash
# The goals of issue 16: textcodec against simdutf on the 32 corpus files, UTF-8 to UTF-16,
# UTF-16 to UTF-8, UTF-8 validation and UTF-8 to UTF-8, in one process with per-thread CPU
# time and interleaved rounds (crates/textcodec/benches/simdutf_goals.rs). Prints Markdown
# for two configurations: textcodec at its detected level against simdutf's active kernel,
# and textcodec forced to AVX2 against simdutf forced to `haswell`.
#
# Usage: scripts/simdutf-goals.sh [--repeat N] [--out FILE] [HARNESS_OPTIONS...]
#
#   --repeat N   run the harness N times one after the other (default 1), to see the spread;
#                with more than one measurement (runs or configurations) the report ends with
#                scripts/simdutf_goals_table.py's table of them all (median and range per file)
#   --out FILE   also write the report there (default target/bench-results/simdutf-goals-DATE.md)
#   HARNESS_OPTIONS, passed on (see the harness's doc comment):
#     --config active|avx2|both   (default both)
#     --workload LIST             utf8_to_utf16,utf16le_to_utf8,utf16_to_utf8,validate_utf8,utf8_to_utf8
#     --file LIST                 parts of file names, e.g. fr.txt,ja,.html
#     --rounds N --sample-ms MS --stat min|median --mbps
#
# Examples:
#   scripts/simdutf-goals.sh                                    # everything (about a minute)
#   scripts/simdutf-goals.sh --workload utf16 --file fr.txt,vi.txt,th.txt --config avx2
set -euo pipefail

repeat=1
out=""
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --repeat) repeat="$2"; shift 2 ;;
        --repeat=*) repeat="${1#*=}"; shift ;;
        --out) out="$2"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$1"); shift ;;
    esac
done

cd "$(dirname "$0")/.."
mkdir -p target/bench-results
out="${out:-target/bench-results/simdutf-goals-$(date -u +%Y%m%d-%H%M%S).md}"

exe=$(cargo bench -p textcodec --bench simdutf_goals --no-run --message-format=json \
    | python3 scripts/bench_executable.py simdutf_goals)
[ -n "$exe" ] || { echo "simdutf-goals.sh: build failed" >&2; exit 1; }

rev=$(git rev-parse --short --verify -q HEAD 2>/dev/null || echo none)
dirty=$(git status --porcelain -- crates 2>/dev/null | head -n 1 || true)
{
    echo "Command: \`scripts/simdutf-goals.sh ${args[*]+"${args[*]}"}\`, commit $rev${dirty:+ plus uncommitted changes in crates/},"
    echo "$(rustc -V), simdutf crate $(cargo tree -p textcodec -e dev -i simdutf --depth 0 2>/dev/null | head -n 1 | awk '{print $2}'),"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    for r in $(seq 1 "$repeat"); do
        [ "$repeat" -gt 1 ] && { echo "# Run $r of $repeat"; echo; }
        "$exe" ${args[@]+"${args[@]}"}
        echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
        echo
    done
} | tee "$out"
if [ "$(grep -c '^## ' "$out")" -gt 1 ]; then
    {
        echo
        echo "# All measurements together (scripts/simdutf_goals_table.py)"
        echo
        python3 scripts/simdutf_goals_table.py "$out"
    } | tee -a "$out.tmp"
    cat "$out.tmp" >>"$out"
    rm -f "$out.tmp"
fi
echo "simdutf-goals.sh: report in $out" >&2
