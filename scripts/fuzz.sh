#!/usr/bin/env bash
# Runs the cargo-fuzz targets in fuzz/ for a while each and prints, per
# target, the executions done and the crashes found.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]
#
# SECONDS_PER_TARGET defaults to 10 (a smoke run); RUNS=N in the
# environment also stops a target after N executions (the long runs
# reported in the closing notes: RUNS=10000000 and 1800 seconds, whichever
# comes first). Needs the
# nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); the seed
# corpus comes from scripts/fuzz_corpus.py (run here when missing).
# A crash input lands in fuzz/artifacts/TARGET/; commit it as a
# regression test before fixing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
shift || true
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
if [ ! -d fuzz/corpus ]; then
    cargo build --release --quiet
    python3 scripts/fuzz_corpus.py
fi
printf '%-22s %12s %8s %8s\n' target executions crashes seconds
status=0
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t"
    log=$(mktemp)
    # A working copy of the seeds, so the committed corpus stays small.
    work=$(mktemp -d)
    cp -r "fuzz/corpus/$t/." "$work/"
    if cargo +nightly fuzz run -s none "$t" "$work" -- -max_total_time="$seconds" \
        -runs="${RUNS:--1}" \
        -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 >"$log" 2>&1; then
        crashes=0
    else
        crashes=1
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "$seconds")
    printf '%-22s %12s %8s %8s\n' "$t" "$execs" "$crashes" "$took"
    if [ "$crashes" != 0 ]; then
        grep -E 'panicked|ERROR|SUMMARY|artifact' "$log" | head -5 | sed 's/^/    /'
    fi
    rm -rf "$work" "$log"
done
exit $status
