#!/bin/sh
# Fuzz textcodec on the stable toolchain. See README.md.
#
#   fuzz/run_stable.sh smoke [ITERATIONS]        deterministic smoke run of every target (no
#                                                libFuzzer, no cargo-fuzz needed; CI-friendly)
#   fuzz/run_stable.sh fuzz TARGET [SECONDS]     coverage-guided libFuzzer run via
#                                                `cargo fuzz run --sanitizer none` (needs cargo-fuzz)
#   fuzz/run_stable.sh all [SECONDS]             every target with cargo fuzz, SECONDS each
set -eu
cd "$(dirname "$0")"
mode="${1:-smoke}"
case "$mode" in
  smoke)
    n="${2:-20000}"
    exec cargo run --quiet --release --example smoke -- -n "$n"
    ;;
  fuzz)
    target="${2:?usage: run_stable.sh fuzz TARGET [SECONDS]}"
    secs="${3:-60}"
    exec cargo fuzz run --sanitizer none "$target" -- -max_total_time="$secs" -rss_limit_mb=2048
    ;;
  all)
    secs="${2:-60}"
    for t in decode encode hooks text_decoder text_encoder detect prescan sniff_html; do
      cargo fuzz run --sanitizer none "$t" -- -max_total_time="$secs" -rss_limit_mb=2048
    done
    ;;
  *)
    echo "usage: run_stable.sh [smoke [N] | fuzz TARGET [SECONDS] | all [SECONDS]]" >&2
    exit 2
    ;;
esac
