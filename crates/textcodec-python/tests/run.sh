#!/usr/bin/env bash
# The Python package's tests, as .ci/run runs them: a fresh virtual environment, the pinned
# test requirements, the package from this checkout, pytest. Run from anywhere.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 -m venv "$dir/venv"
"$dir/venv/bin/pip" install -q --disable-pip-version-check -r "$root/crates/textcodec-python/tests/requirements.txt"
"$dir/venv/bin/pip" install -q --disable-pip-version-check "$root/crates/textcodec-python"
# The tests' oracle is the Rust core through the `textcodec` command.
cargo build -q --release -p textcodec-cli --manifest-path "$root/Cargo.toml"
cd "$root/crates/textcodec-python/tests"
TEXTCODEC_CLI="$root/target/release/textcodec" "$dir/venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
