#!/usr/bin/env bash
# Whole-process conversion speed of the `textcodec` CLI against iconv (glibc) and uconv (ICU),
# side by side, on ~100 MB inputs built from the Wikipedia corpus. Prints a markdown table.
#
#   scripts/cli-bench.sh [SIZE_MB]        # default 100; RUNS=5 by default
#   DENSE_ONLY=1 scripts/cli-bench.sh     # only the error-dense inputs (no iconv/uconv needed)
#
# Tools:
#   iconv      glibc, normally present (package libc-bin)
#   uconv      ICU:  apt-get install -y icu-devtools
#   hyperfine  optional: apt-get install -y hyperfine   (else a python3 timer is used)
#   python3    builds the inputs and the table
#
# Inputs: each corpus text (data/corpus/wikipedia/LANG.txt) is encoded once by textcodec
# (the library's encoder, HTML mode as data/corpus/README.md prescribes), and the encoded
# bytes are repeated up to SIZE_MB. Every tool converts the same file to UTF-8 with output
# to /dev/null; each tool's output is also compared once with textcodec's ("same output").
# MB/s counts input megabytes (10^6 bytes) per second of wall-clock time, median of RUNS.
#
# Then error-dense inputs, generated here (SIZE_MB of one pattern repeated, every sequence
# malformed; the patterns of the library's dense-* benchmarks and a few more), decoded to UTF-8
# with replacement (the default `--invalid replace`, which also
# counts the errors and finds the first one's offset for the warning). textcodec alone: iconv
# stops at the first error (`-c` drops the bytes instead: another output).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SIZE_MB=${1:-100}
RUNS=${RUNS:-5}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BENCH_DIR=${BENCH_DIR:-$TARGET_DIR/cli-bench}

DENSE_ONLY=${DENSE_ONLY:-0}
tools="iconv uconv python3"
[ "$DENSE_ONLY" = 1 ] && tools=python3
for tool in $tools; do
    if ! command -v "$tool" >/dev/null; then
        case $tool in
            uconv) echo "uconv not found: apt-get install -y icu-devtools" >&2 ;;
            *) echo "$tool not found" >&2 ;;
        esac
        exit 2
    fi
done

cargo build --quiet --release -p textcodec-cli
TC=$TARGET_DIR/release/textcodec
mkdir -p "$BENCH_DIR"

# name | textcodec label | corpus file | iconv name | uconv name
CASES=(
    "Shift_JIS|shift_jis|ja|CP932|windows-31j"
    "gb18030|gb18030|zh_cn|GB18030|gb18030"
    "Big5|big5|zh_tw|BIG5-HKSCS|ibm-1375"
    "EUC-KR|euc-kr|ko|CP949|windows-949"
    "windows-1251|windows-1251|ru|CP1251|windows-1251"
    "windows-1252|windows-1252|fr|CP1252|windows-1252"
    "UTF-8|utf-8|ALL|UTF-8|utf-8"
)

repeat_to() { # repeat_to SRC DST: DST = SRC repeated up to SIZE_MB
    python3 - "$1" "$2" "$SIZE_MB" <<'EOF'
import sys
src, dst, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
unit = open(src, 'rb').read()
n = max(1, (mb * 1000 * 1000) // len(unit))
with open(dst, 'wb') as f:
    for _ in range(n):
        f.write(unit)
EOF
}

HAVE_HYPERFINE=0
command -v hyperfine >/dev/null && HAVE_HYPERFINE=1

RESULTS=$BENCH_DIR/results.tsv
: >"$RESULTS"
[ "$DENSE_ONLY" = 1 ] && CASES=()
for case in ${CASES[@]+"${CASES[@]}"}; do
    IFS='|' read -r name label lang iconv_name uconv_name <<<"$case"
    input=$BENCH_DIR/$label.${SIZE_MB}mb.txt
    if [ ! -s "$input" ]; then
        if [ "$lang" = ALL ]; then
            cat data/corpus/wikipedia/*.txt >"$BENCH_DIR/unit.utf8"
        else
            cp "data/corpus/wikipedia/$lang.txt" "$BENCH_DIR/unit.utf8"
        fi
        "$TC" encode -e "$label" --unmappable html "$BENCH_DIR/unit.utf8" >"$BENCH_DIR/unit.$label"
        repeat_to "$BENCH_DIR/unit.$label" "$input"
    fi
    bytes=$(stat -c %s "$input")
    cmd_tc="$TC convert -f $label -t utf-8 $input"
    cmd_iconv="iconv -f $iconv_name -t UTF-8 $input"
    cmd_uconv="uconv -f $uconv_name -t utf-8 $input"

    # Same output as textcodec?
    $cmd_tc >"$BENCH_DIR/out.textcodec"
    same_iconv=no; same_uconv=no
    $cmd_iconv >"$BENCH_DIR/out.other" 2>/dev/null && cmp -s "$BENCH_DIR/out.textcodec" "$BENCH_DIR/out.other" && same_iconv=yes
    $cmd_uconv >"$BENCH_DIR/out.other" 2>/dev/null && cmp -s "$BENCH_DIR/out.textcodec" "$BENCH_DIR/out.other" && same_uconv=yes
    rm -f "$BENCH_DIR/out.textcodec" "$BENCH_DIR/out.other"

    json=$BENCH_DIR/$label.json
    if [ $HAVE_HYPERFINE = 1 ]; then
        hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$json" \
            -n textcodec "$cmd_tc" -n iconv "$cmd_iconv" -n uconv "$cmd_uconv" >&2
    else
        python3 - "$json" "$RUNS" "$cmd_tc" "$cmd_iconv" "$cmd_uconv" <<'EOF'
import json, subprocess, sys, time
out, runs, cmds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
res = []
for name, cmd in zip(["textcodec", "iconv", "uconv"], cmds):
    times = []
    for i in range(runs + 1):
        t = time.perf_counter()
        subprocess.run(cmd.split(), stdout=subprocess.DEVNULL, check=True)
        if i:
            times.append(time.perf_counter() - t)
    res.append({"command": name, "times": times})
json.dump({"results": res}, open(out, "w"))
EOF
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$bytes" "$json" "$same_iconv" "$same_uconv" >>"$RESULTS"
done

# Error-dense inputs: name | label | byte pattern (a Python bytes literal)
# (gb18030's 0x80 is not one: it decodes to U+20AC.)
DENSE=(
    "UTF-8 80|utf-8|b'\x80'"
    "UTF-8 E3 81 41|utf-8|b'\xe3\x81\x41'"
    "Shift_JIS A0|shift_jis|b'\xa0'"
    "Shift_JIS 82 20|shift_jis|b'\x82\x20'"
    "EUC-JP A4 20|euc-jp|b'\xa4\x20'"
    "EUC-KR FF|euc-kr|b'\xff'"
    "Big5 A4 20|big5|b'\xa4\x20'"
    "gb18030 FF|gb18030|b'\xff'"
    "gb18030 81 30 81 20|gb18030|b'\x81\x30\x81\x20'"
    "UTF-16LE lone high surrogates 00 D8|utf-16le|b'\x00\xd8'"
    "UTF-16LE lone low surrogates 00 DC|utf-16le|b'\x00\xdc'"
    "UTF-16LE high surrogate + ASCII 00 D8 41 00|utf-16le|b'\x00\xd8\x41\x00'"
    "ISO-2022-JP bad escape 1B 28 5A|iso-2022-jp|b'\x1b\x28\x5a'"
    "windows-1253 AA (unmapped)|windows-1253|b'\xaa'"
)
DENSE_RESULTS=$BENCH_DIR/dense.tsv
: >"$DENSE_RESULTS"
for case in "${DENSE[@]}"; do
    IFS='|' read -r name label pattern <<<"$case"
    key=$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_')
    input=$BENCH_DIR/dense.$key.${SIZE_MB}mb.bin
    if [ ! -s "$input" ]; then
        python3 -c "import sys; p = $pattern; open(sys.argv[1], 'wb').write(p * ($SIZE_MB * 1000 * 1000 // len(p)))" "$input"
    fi
    bytes=$(stat -c %s "$input")
    json=$BENCH_DIR/dense.$key.json
    cmd_tc="$TC decode -q -e $label $input"
    if [ $HAVE_HYPERFINE = 1 ]; then
        hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$json" -n textcodec "$cmd_tc" >&2
    else
        python3 - "$json" "$RUNS" "$cmd_tc" <<'EOF'
import json, subprocess, sys, time
out, runs, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
times = []
for i in range(runs + 1):
    t = time.perf_counter()
    subprocess.run(cmd.split(), stdout=subprocess.DEVNULL, check=True)
    if i:
        times.append(time.perf_counter() - t)
json.dump({"results": [{"command": "textcodec", "times": times}]}, open(out, "w"))
EOF
    fi
    printf '%s\t%s\t%s\n' "$name" "$bytes" "$json" >>"$DENSE_RESULTS"
done

python3 - "$RESULTS" "$RUNS" "$DENSE_RESULTS" <<'EOF'
import json, statistics, sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
if rows:
  print()
  print("| conversion to UTF-8 | input MB | textcodec MB/s | iconv MB/s | uconv MB/s | textcodec vs iconv | uconv vs iconv | same output (iconv, uconv) |")
  print("|---|---:|---:|---:|---:|---:|---:|---|")
  for name, size, path, si, su in rows:
      mb = int(size) / 1e6
      speed = {}
      for r in json.load(open(path))["results"]:
          speed[r["command"]] = mb / statistics.median(r["times"])
      t, i, u = speed["textcodec"], speed["iconv"], speed["uconv"]
      print(f"| {name} | {mb:.0f} | {t:.0f} | {i:.0f} | {u:.0f} | {t / i:.2f}x | {u / i:.2f}x | {si}, {su} |")
  print()
  print(f"Median of {sys.argv[2]} runs, whole process, output to /dev/null.")
print()
print("| error-dense input, decoded to UTF-8 with U+FFFD | input MB | textcodec MB/s |")
print("|---|---:|---:|")
for line in open(sys.argv[3]):
    name, size, path = line.rstrip('\n').split('\t')
    mb = int(size) / 1e6
    times = json.load(open(path))["results"][0]["times"]
    print(f"| {name} | {mb:.0f} | {mb / statistics.median(times):.0f} |")
EOF
