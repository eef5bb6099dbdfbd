#!/usr/bin/env bash
# kotra-ai's speed beside its peers', measured back to back on this
# machine, alternating, and printed as ratios (issue 51):
#   - move generation: wildbg's own criterion bench (its 1,000 contact and
#     1,000 race positions, 15 mixed and 6 double rolls) beside
#     `kotra-ai bench movegen --positions` on the same positions;
#   - evaluation: gnubg's `calibrate 300` (static evaluations a second;
#     an iteration is about a thousand evaluations) beside
#     `kotra-ai bench eval` (contact network evaluations a second);
#   - 2-ply analysis: gnubg over dev-set decisions
#     (scripts/gnubg_analysis_time.py) beside `kotra-ai bench analyze`;
#   - 0-ply rollouts of the opening position, one thread, without and with
#     each tool's own variance reduction: gnubg's (quasi-random dice,
#     scripts/gnubg_rollout_time.py) beside `kotra-ai bench rollout`.
#
#   scripts/speed_vs_peers.sh WILDBG_CHECKOUT [ROUNDS] [SECONDS]
#
# WILDBG_CHECKOUT is a clone of github.com/carsten-wenderdel/wildbg (never
# vendored here); its benches are built there, in its own target folder.
# ROUNDS (default 2) alternates the tools that many times; SECONDS
# (default 5) is each measurement's length. Run it on a quiet machine.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
wildbg="${1:?usage: scripts/speed_vs_peers.sh WILDBG_CHECKOUT [ROUNDS] [SECONDS]}"
rounds="${2:-2}"
seconds="${3:-5}"
# Trials of each rollout (gnubg's with variance reduction take about half
# a minute at 324).
rollout_trials="${ROLLOUT_TRIALS:-324}"
gnubg="${GNUBG:-/usr/games/gnubg}"
[ -d "$wildbg/crates/benchmarks/resources" ] || { echo "no wildbg checkout at $wildbg" >&2; exit 2; }
[ -x "$gnubg" ] || { echo "gnubg not found at $gnubg (apt-get install -y gnubg)" >&2; exit 2; }
command -v script >/dev/null || { echo "needs script(1) from util-linux" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; one thread each unless said"
(cd "$here" && cargo build --release --quiet)
kotra="$here/target/release/kotra-ai"
(cd "$wildbg" && cargo bench -p benchmarks --bench move_generation_bench --no-run --quiet 2>/dev/null)

# Criterion's middle estimate in nanoseconds, for the bench named $2.
criterion_ns() {
  python3 - "$1" "$2" <<'EOF'
import re, sys
text, name = open(sys.argv[1]).read(), sys.argv[2]
block = text.split(name, 1)[1]
m = re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+) ", block)
scale = {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
print(float(m.group(1)) * scale)
EOF
}

# kotra-ai's ns per (position, roll) for class $2 and rolls $3.
kotra_ns() {
  awk -v c="$2" -v k="$3" '$1 == c && $2 == k { print $4 }' "$1"
}

declare -A wild kotra
for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds..." >&2
  (cd "$wildbg/crates/benchmarks" && cargo bench --quiet --bench move_generation_bench -- \
    --warm-up-time 1 --measurement-time "$seconds" --noplot >"$work/wildbg.txt" 2>&1)
  for class in contact race; do
    "$kotra" bench movegen --positions "$wildbg/crates/benchmarks/resources/$class.csv" \
      --seconds "$seconds" >"$work/kotra-$class.txt"
    for kind in mixed doubles; do
      wname="generate moves: $class, ${kind%s}"
      per=$([ "$kind" = mixed ] && echo 15000 || echo 6000)
      w=$(python3 -c "print($(criterion_ns "$work/wildbg.txt" "$wname") / $per)")
      k=$(kotra_ns "$work/kotra-$class.txt" "$class" "$kind")
      [ -n "$k" ] || { echo "kotra-ai classed some of wildbg's $class positions otherwise" >&2; exit 1; }
      wild[$class-$kind]+="$w "
      kotra[$class-$kind]+="$k "
    done
  done
  printf 'calibrate 300\nquit\n' >"$work/cal.txt"
  script -qc "$gnubg -t -q -c $work/cal.txt" /dev/null </dev/null 2>&1 | tr '\r' '\n' \
    | sed -n 's/.*Calibrating: \([0-9]*\) static evaluations.*/\1/p' | tail -1 >"$work/cal.out"
  wild[calibrate]+="$(cat "$work/cal.out") "
  "$kotra" bench eval --seconds "$seconds" >"$work/eval.txt"
  kotra[eval]+="$(awk '/^contact net evaluations/ { print $4 }' "$work/eval.txt") "
  (cd "$here" && "$gnubg" -t -q -r -p scripts/gnubg_analysis_time.py tests/data/dev-moves.jsonl 300 2 \
    >"$work/gnubg-analysis.txt" 2>/dev/null)
  wild[analyze]+="$(awk '$1 == "moves" { print $2 }' "$work/gnubg-analysis.txt") "
  (cd "$here" && "$kotra" bench analyze --ply 2 --positions 300 >"$work/kotra-analysis.txt")
  kotra[analyze]+="$(awk '$1 == "moves" { print $2 }' "$work/kotra-analysis.txt") "
  (cd "$here" && "$gnubg" -t -q -r -p scripts/gnubg_rollout_time.py "$rollout_trials" \
    >"$work/gnubg-rollout.txt" 2>/dev/null)
  RAYON_NUM_THREADS=1 "$kotra" bench rollout --trials "$rollout_trials" >"$work/kotra-rollout.txt"
  for kind in plain luck; do
    wild[rollout-$kind]+="$(awk -v k="$kind" '$1 == k { print $2 }' "$work/gnubg-rollout.txt") "
  done
  kotra[rollout-plain]+="$(awk '/^without luck adjustment/ { print $4 }' "$work/kotra-rollout.txt") "
  kotra[rollout-luck]+="$(awk '/^with luck adjustment/ { print $4 }' "$work/kotra-rollout.txt") "
done

# Medians over the rounds, and the ratios.
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" $1; }
printf '\n%-28s %14s %14s %12s\n' "measure" "peer" "kotra-ai" "kotra-ai is"
for class in contact race; do
  for kind in mixed doubles; do
    w=$(median "${wild[$class-$kind]}"); k=$(median "${kotra[$class-$kind]}")
    printf '%-28s %11.1f ns %11.1f ns %11.2fx\n' "movegen $class $kind (wildbg)" "$w" "$k" \
      "$(python3 -c "print($w / $k)")"
  done
done
w=$(median "${wild[calibrate]}"); k=$(median "${kotra[eval]}")
printf '%-28s %12.0f/s %12.0f/s %11.2fx\n' "evaluations (gnubg)" "$w" "$k" "$(python3 -c "print($k / $w)")"
w=$(median "${wild[analyze]}"); k=$(median "${kotra[analyze]}")
printf '%-28s %11.2f ms %11.2f ms %11.2fx\n' "2-ply decision, median (gnubg)" "$w" "$k" \
  "$(python3 -c "print($w / $k)")"
for kind in plain luck; do
  w=$(median "${wild[rollout-$kind]}"); k=$(median "${kotra[rollout-$kind]}")
  printf '%-28s %12.1f/s %12.1f/s %11.2fx\n' "0-ply rollout, $kind (gnubg)" "$w" "$k" \
    "$(python3 -c "print($k / $w)")"
done
echo "(movegen: ns per (position, roll), one thread; evaluations: gnubg calibrate's static"
echo " evaluations a second against kotra-ai's contact network, one thread; 2-ply: median ms"
echo " per dev-set checker decision, gnubg with its own thread setting, kotra-ai on $(nproc) threads;"
echo " rollouts: games a second of the opening position's 0-ply rollout, one thread, \"luck\" with each"
echo " tool's own variance reduction)"
