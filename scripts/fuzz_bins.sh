#!/usr/bin/env bash
# Runs already-built fuzz binaries (fuzz/target/.../release/TARGET) on
# their seed corpora without rebuilding: for long campaigns beside other
# work on the same tree. Prints target, executions, crashes, seconds.
#
#   scripts/fuzz_bins.sh BIN_DIR SECONDS RUNS TARGET ...
set -uo pipefail
cd "$(dirname "$0")/.."
bins="$1"; seconds="$2"; runs="$3"; shift 3
for t in "$@"; do
    work=$(mktemp -d)
    cp -r "fuzz/corpus/$t/." "$work/"
    log="${FUZZ_LOGS:-/tmp}/fuzz-$t.log"
    mkdir -p fuzz/artifacts/"$t"
    start=$(date +%s)
    "$bins/$t" "$work" -max_total_time="$seconds" -runs="$runs" -rss_limit_mb=4096 \
        -timeout=20 -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    crashes=$([ $rc -eq 0 ] && echo 0 || echo 1)
    printf '%-22s %12s %8s %8s\n' "$t" "$execs" "$crashes" "$took"
    rm -rf "$work"
done
