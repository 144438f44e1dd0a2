#!/usr/bin/env bash
# Times textcodec at two commits by the clock: the criterion suite (crates/textcodec/benches/
# codecs.rs, function `textcodec` only) of each commit, built with its own target directory,
# run in interleaved rounds (the order of the two alternates from round to round), at the
# active dispatch level and/or forced to AVX2, under `chrt -f 10` when allowed. Prints, per
# workload and level, the median time of each commit over the rounds, the ratio NEW/OLD of
# those medians and the spread of the per-round ratios (each round pairs a run of OLD with
# the run of NEW next to it), with the load average of every round.
#
# Usage: scripts/bench-compare.sh [--rounds N] [--level active|avx2|both] [--dir DIR]
#                                 [--seed TARGET_DIR] OLD NEW FILTER [-- CRITERION_ARGS...]
#
#   OLD, NEW     commits (anything `git rev-parse` takes); WORKTREE for the working tree
#   FILTER       criterion's regular expression over `direction/input/encoding`, e.g.
#                '^decode_utf16/zh_tw\.(txt|html)/Big5$' (the instruction suite's
#                `short/DIRECTION/ENCODING` is `DIRECTION/short/ENCODING` here)
#   --rounds N   rounds (default 3); each runs OLD and NEW at every level asked
#   --level L    active (the detected level), avx2 (dispatch::set_level(Avx2) through the
#                TEXTCODEC_LEVEL variable), or both (default)
#   --dir DIR    sources, targets and results (default target/bench-compare)
#   --seed T     copy T/release into a commit's new target directory first (a warm cache for
#                the dependencies; the workspace crates are rebuilt anyway)
#   CRITERION_ARGS default: --warm-up-time 0.5 --measurement-time 2
#
# Each commit is extracted with `git archive` into DIR/src-SHA and built there with
# CARGO_TARGET_DIR=DIR/target-SHA. A commit whose codecs.rs does not read TEXTCODEC_LEVEL
# (before this script) gets the same few lines inserted at the start of `fn config()`.
# Build first at normal priority (`--rounds 0` only builds), then time under chrt:
#
#   scripts/bench-compare.sh --rounds 0 bf60dc6 HEAD '^decode_utf16/zh_tw'
#   chrt -f 10 scripts/bench-compare.sh --rounds 4 bf60dc6 HEAD '^decode_utf16/zh_tw'
set -euo pipefail

rounds=3
levels=both
dir=""
seed=""
pos=()
criterion_args=(--warm-up-time 0.5 --measurement-time 2)
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --level) levels="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; criterion_args=("$@"); break ;;
        -*) echo "bench-compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) pos+=("$1"); shift ;;
    esac
done
[ ${#pos[@]} = 3 ] || { echo "usage: bench-compare.sh [options] OLD NEW FILTER (see --help)" >&2; exit 2; }
old="${pos[0]}"; new="${pos[1]}"; filter="${pos[2]}"
# The filter is followed by `/textcodec$` below: a `$` of its own would end it too early.
filter="${filter%\$}"
case "$levels" in
    active) levels=(active) ;;
    avx2) levels=(avx2) ;;
    both) levels=(active avx2) ;;
    *) echo "bench-compare.sh: --level active|avx2|both" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
root=$(pwd)
dir="${dir:-$root/target/bench-compare}"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The lines that make codecs.rs honour TEXTCODEC_LEVEL (as in this tree's codecs.rs, without
# avx512: commits before the AVX-512 kernels have no such level).
read -r -d '' LEVEL_SNIPPET <<'EOF' || true
    if let Ok(level) = std::env::var("TEXTCODEC_LEVEL") {
        use textcodec::dispatch::{set_level, Level};
        let wanted = match level.to_ascii_lowercase().as_str() {
            "scalar" => Level::Scalar,
            "sse2" => Level::Sse2,
            "avx2" => Level::Avx2,
            other => panic!("unknown level {other}"),
        };
        assert_eq!(set_level(wanted), wanted, "this machine cannot run {level}");
    }
EOF
export LEVEL_SNIPPET

build() { # build REV -> prints the executable's path
    local rev="$1" sha src target exe
    if [ "$rev" = WORKTREE ]; then
        sha=worktree
        src="$dir/src-$sha"
        rm -rf "$src"
        mkdir -p "$src"
        git ls-files -z --cached --others --exclude-standard | grep -zv '^target/' \
            | xargs -0 cp --parents -t "$src" 2>/dev/null || true
    else
        sha=$(git rev-parse --short=9 "$rev^{commit}")
        src="$dir/src-$sha"
        if [ ! -d "$src" ]; then
            mkdir -p "$src"
            git archive "$sha" | tar -x -C "$src"
        fi
    fi
    local bench="$src/crates/textcodec/benches/codecs.rs"
    if ! grep -q TEXTCODEC_LEVEL "$bench"; then
        python3 - "$bench" <<'PY'
import os, sys
path = sys.argv[1]
text = open(path).read()
anchor = "fn config() -> Criterion {\n"
assert anchor in text, "codecs.rs has no fn config()"
text = text.replace(anchor, anchor + os.environ["LEVEL_SNIPPET"] + "\n", 1)
open(path, "w").write(text)
PY
    fi
    target="$dir/target-$sha"
    if [ -n "$seed" ] && [ ! -d "$target/release" ]; then
        mkdir -p "$target"
        cp -a "$seed/release" "$target/"
    fi
    exe=$(cd "$src" && CARGO_TARGET_DIR="$target" cargo bench -p textcodec --bench codecs \
        --no-run --message-format=json 2>"$dir/build-$sha.log" \
        | python3 "$root/scripts/bench_executable.py" codecs)
    [ -n "$exe" ] || { echo "bench-compare.sh: build of $rev failed, see $dir/build-$sha.log" >&2; exit 1; }
    cp "$exe" "$dir/codecs-$sha"
    echo "$dir/codecs-$sha"
}

echo "bench-compare.sh: building $old and $new" >&2
old_exe=$(build "$old")
new_exe=$(build "$new")
[ "$rounds" -gt 0 ] || { echo "bench-compare.sh: built $old_exe $new_exe" >&2; exit 0; }

rt=()
if chrt -f 10 true 2>/dev/null; then
    rt=(chrt -f 10)
fi
run_dir="$dir/run-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$run_dir"
echo "bench-compare.sh: results in $run_dir" >&2
{
    echo "old $old $(basename "$old_exe")"
    echo "new $new $(basename "$new_exe")"
    echo "filter $filter"
    echo "criterion ${criterion_args[*]}"
    echo "priority ${rt[*]:-normal}"
} >"$run_dir/meta"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order=(old new); else order=(new old); fi
    for level in "${levels[@]}"; do
        for side in "${order[@]}"; do
            if [ "$side" = old ]; then exe="$old_exe"; else exe="$new_exe"; fi
            home="$run_dir/$side-$level-$r"
            mkdir -p "$home"
            echo "round $r $level $side load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$run_dir/meta" >&2
            vars=(CRITERION_HOME="$home")
            [ "$level" = avx2 ] && vars+=(TEXTCODEC_LEVEL=avx2)
            # The filter keeps textcodec's function of each matched workload.
            env -u TEXTCODEC_LEVEL "${vars[@]}" ${rt[@]+"${rt[@]}"} "$exe" --bench \
                "(${filter})/textcodec\$" "${criterion_args[@]}" >"$home.log" 2>&1 \
                || { echo "bench-compare.sh: run failed, see $home.log" >&2; tail -n 20 "$home.log" >&2; exit 1; }
        done
    done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$run_dir/meta"
python3 "$root/scripts/bench_compare_table.py" "$run_dir"
