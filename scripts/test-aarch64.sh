#!/usr/bin/env bash
# Runs textcodec's test suite for aarch64 under qemu user-mode emulation, so the NEON kernels
# (crates/textcodec/src/simd/aarch64.rs) are checked for exactness against the scalar ones and
# encoding_rs on an x86-64 machine. Emulation says nothing about speed.
#
# Usage: scripts/test-aarch64.sh [--quick] [CARGO_TEST_ARGS...]
#
#   (no arguments)  the whole suite, `cargo test -p textcodec --release` for aarch64: 10 to 13
#                   minutes under qemu on 2 shared cores (262 tests and 134 doctests), most of
#                   it differential.rs (6 min), spec_reference.rs (2), codec_japanese_korean.rs
#                   (1.5): exhaustive runs over every 1- and 2-byte input and every scalar value,
#                   which are mostly shorter than the 16-byte blocks the SIMD kernels take.
#   --quick         the tests aimed at the SIMD layer, about a minute: the unit tests (each
#                   kernel against the scalar one and std), dispatch_levels (the encoding_rs
#                   comparison at Scalar and at Neon), vectors and streaming.
#   CARGO_TEST_ARGS passed on to cargo test, e.g. `--test vectors` or `--lib -- simd`
#
# Needs: rustup target add aarch64-unknown-linux-gnu
#        apt-get install gcc-aarch64-linux-gnu qemu-user   (or qemu-user-static)
# The linker and runner are set here through the environment, not in .cargo/config.toml, so
# native builds are unaffected.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
if ! rustup target list --installed | grep -qx "$target"; then
    echo "test-aarch64: the Rust target $target is not installed (rustup target add $target)" >&2
    exit 1
fi
linker=${AARCH64_LINKER:-aarch64-linux-gnu-gcc}
qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
if ! command -v "$linker" >/dev/null || [ -z "$qemu" ]; then
    echo "test-aarch64: needs $linker and qemu-aarch64 (apt-get install gcc-aarch64-linux-gnu qemu-user)" >&2
    exit 1
fi
sysroot=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER="$linker"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$qemu -L $sysroot"

if [ "${1:-}" = --quick ]; then
    shift
    exec cargo test -p textcodec --release --target "$target" \
        --lib --test dispatch_levels --test vectors --test streaming "$@"
fi
exec cargo test -p textcodec --release --target "$target" "$@"
