#!/usr/bin/env bash
# Issue 16: the `textcodec` command on UTF-8 input (validate and write through) against a
# converter of the same design on encoding_rs (crates/textcodec-cli/examples/er_utf8_convert.rs:
# 64 KiB reads, encoding_rs's streaming Decoder with replacement into a buffer, written to
# standard output). Whole processes, on en.html and ja.txt (data/corpus/wikipedia) repeated to
# SIZE_MB, output to /dev/null and to a regular file in a temporary directory (redirected
# standard output, the same for both tools; the file is truncated before each run).
#
#   scripts/cli-utf8-bench.sh [SIZE_MB]      # default 100; RUNS=11 by default
#   TIMER=python scripts/cli-utf8-bench.sh   # the python timer even if hyperfine is installed
#   TEXTCODEC_BIN=/path/to/textcodec ...     # another build of the command (e.g. an older one)
#
# hyperfine (apt-get install -y hyperfine) times each command RUNS times after a warm-up; else
# (or TIMER=python) a python3 timer runs the two tools alternately, RUNS rounds after a warm-up
# round. MB/s counts input megabytes (10^6 bytes) per second of wall-clock time, median of
# RUNS; the ratio is textcodec / encoding_rs (above 1: textcodec is faster), also in CPU time
# (user + system: less sensitive to other load on the machine than wall-clock time). Each
# tool's output is checked once to be the input (valid UTF-8, no BOM).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SIZE_MB=${1:-100}
RUNS=${RUNS:-11}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BENCH_DIR=${BENCH_DIR:-$TARGET_DIR/cli-bench}
TIMER=${TIMER:-}
if [ -z "$TIMER" ]; then
    TIMER=python
    command -v hyperfine >/dev/null && TIMER=hyperfine
fi

cargo build --quiet --release -p textcodec-cli --bin textcodec --example er_utf8_convert
TC=${TEXTCODEC_BIN:-$TARGET_DIR/release/textcodec}
ER=$TARGET_DIR/release/examples/er_utf8_convert
mkdir -p "$BENCH_DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

RESULTS=$BENCH_DIR/utf8.tsv
: >"$RESULTS"
for file in en.html ja.txt; do
    input=$BENCH_DIR/utf8.$file.${SIZE_MB}mb
    if [ ! -s "$input" ]; then
        python3 - "data/corpus/wikipedia/$file" "$input" "$SIZE_MB" <<'PY'
import sys
src, dst, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
unit = open(src, 'rb').read()
with open(dst, 'wb') as f:
    for _ in range(max(1, mb * 1000 * 1000 // len(unit))):
        f.write(unit)
PY
    fi
    bytes=$(stat -c %s "$input")
    cmd_tc="$TC decode -e utf-8 $input"
    cmd_er="$ER $input"
    for cmd in "$cmd_tc" "$cmd_er"; do
        $cmd >"$TMP/out"
        cmp -s "$input" "$TMP/out" || { echo "output differs from the input: $cmd" >&2; exit 1; }
    done
    for out in /dev/null "$TMP/out"; do
        where=file
        [ "$out" = /dev/null ] && where=/dev/null
        json=$BENCH_DIR/utf8.$file.${where//\//}.json
        if [ "$TIMER" = hyperfine ]; then
            hyperfine --style none --warmup 1 --runs "$RUNS" --output "$out" --export-json "$json" \
                -n textcodec "$cmd_tc" -n encoding_rs "$cmd_er" >&2
        else
            python3 - "$json" "$RUNS" "$out" "$cmd_tc" "$cmd_er" <<'PY'
import json, os, subprocess, sys, time
path, runs, out, cmds = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
res = {name: {"command": name, "times": [], "cpu": []} for name in ("textcodec", "encoding_rs")}
for i in range(runs + 1):
    for name, cmd in zip(res, cmds):
        with open(out, "wb") as f:
            t = time.perf_counter()
            child = subprocess.Popen(cmd.split(), stdout=f)
            _, status, usage = os.wait4(child.pid, 0)
            dt = time.perf_counter() - t
        assert os.waitstatus_to_exitcode(status) == 0, cmd
        if i:
            res[name]["times"].append(dt)
            res[name]["cpu"].append(usage.ru_utime + usage.ru_stime)
json.dump({"results": list(res.values())}, open(path, "w"))
PY
        fi
        printf '%s\t%s\t%s\t%s\n' "$file" "$where" "$bytes" "$json" >>"$RESULTS"
    done
done

python3 - "$RESULTS" "$RUNS" "$TIMER" <<'PY'
import json, statistics, sys
print()
print("| input | output | textcodec MB/s | encoding_rs MB/s | textcodec / encoding_rs | CPU time: textcodec / encoding_rs |")
print("|---|---|---:|---:|---:|---:|")
for line in open(sys.argv[1]):
    name, where, size, path = line.rstrip("\n").split("\t")
    mb = int(size) / 1e6
    speed, cpu = {}, {}
    for r in json.load(open(path))["results"]:
        speed[r["command"]] = mb / statistics.median(r["times"])
        # hyperfine: mean user and system time; the python timer: each run's.
        cpu[r["command"]] = statistics.median(r["cpu"]) if "cpu" in r else r["user"] + r["system"]
    t, e = speed["textcodec"], speed["encoding_rs"]
    print(f"| {name} | {where} | {t:.0f} | {e:.0f} | {t / e:.2f}x | {cpu['encoding_rs'] / cpu['textcodec']:.2f}x |")
print()
print(f"{int(int(open(sys.argv[1]).readline().split(chr(9))[2]) / 1e6)} MB inputs; wall-clock medians of {sys.argv[2]} runs ({sys.argv[3]}), whole process; "
      "CPU time (user + system) as medians (python timer) or means (hyperfine).")
PY
