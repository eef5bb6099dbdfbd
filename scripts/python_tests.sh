#!/usr/bin/env bash
# The Python package's tests: builds the package in release, as
# `pip install ./python` does (on the engine alone, about a minute cold
# on 2 cores), into a fresh virtual environment and runs pytest against
# the command line in target/debug (built first if out of date).
#
#   scripts/python_tests.sh [pytest options]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
rm -rf "$venv" target/wheels
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet maturin numpy pytest
# Built (or found up to date) every time: a binary left from before a
# change, such as a newly shipped network, would disagree with the
# package built below.
cargo build --quiet
"$venv/bin/maturin" build --quiet --release --manifest-path python/Cargo.toml \
  --interpreter "$venv/bin/python" --out target/wheels
"$venv/bin/pip" install --quiet target/wheels/kotra-*.whl
# Run from the tests' folder, so that `import kotra` finds the installed
# package and not the source folder python/kotra; without pytest's cache,
# which would write into the checkout.
cd python/tests
KOTRA_BIN=${KOTRA_BIN:-$PWD/../../target/debug/kotra-ai} "../../$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
