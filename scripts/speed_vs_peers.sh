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
#     scripts/gnubg_rollout_time.py) beside `kotra-ai bench rollout`;
#   - rollouts with 1-ply and 2-ply checker play (and, cubeful, the cube
#     decided at the same depth), cubeless and cubeful, without and with
#     variance reduction, on one thread and on all (issue 74);
#   - a 3-ply decision (kotra-ai) beside gnubg's 2-ply one, over the same
#     dev-set decisions;
#   - a 7-point match reviewed (tests/data/matches/7-pt-104.mat) by
#     `kotra-ai review` at 2 and at 3-ply beside gnubg's `analyse match` at
#     2-ply (scripts/gnubg_review_time.py), all threads each.
#
#   scripts/speed_vs_peers.sh WILDBG_CHECKOUT [ROUNDS] [SECONDS]
#
# SECTIONS (default "base deep") picks what runs: "base" the first four
# measures above, "deep" the searching rollouts, the 3-ply decision and
# the review. ROLLOUT1_TRIALS and ROLLOUT2_TRIALS (default 72 and 12) are
# the trials of the 1-ply and 2-ply rollouts; DEEP_PLIES (default "1 2")
# picks the searching rollouts' plies (DEEP_PLIES=none: no rollouts, only
# the 3-ply decision and the reviews). With SECTIONS=deep the
# WILDBG_CHECKOUT argument is not read (pass any word).
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
sections="${SECTIONS:-base deep}"
threads_all="$(nproc)"
match="$here/tests/data/matches/7-pt-104.mat"
gnubg="${GNUBG:-/usr/games/gnubg}"
has() { [[ " $sections " == *" $1 "* ]]; }
# Only the base section reads wildbg's checkout.
if has base; then
  [ -d "$wildbg/crates/benchmarks/resources" ] || { echo "no wildbg checkout at $wildbg" >&2; exit 2; }
fi
[ -x "$gnubg" ] || { echo "gnubg not found at $gnubg (apt-get install -y gnubg)" >&2; exit 2; }
command -v script >/dev/null || { echo "needs script(1) from util-linux" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The model name alone ("AMD EPYC") hides the generation, and with it
# how wide the vector units are (Zen 1 splits every 256-bit operation in
# two): the family, model and vector extensions say which class of
# machine a run's ratios belong to.
cpu_field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -1; }
cpu_flags=" $(cpu_field flags) " vectors=""
for extension in avx2 fma f16c avx512f avx512bw avx512_vnni; do
  [[ "$cpu_flags" == *" $extension "* ]] && vectors+="$extension "
done
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1) (family $(cpu_field 'cpu family'), model $(cpu_field model); ${vectors% }), $(nproc) cores; one thread each unless said"
(cd "$here" && cargo build --release --quiet)
kotra="$here/target/release/kotra-ai"
if has base; then
  (cd "$wildbg" && cargo bench -p benchmarks --bench move_generation_bench --no-run --quiet 2>/dev/null)
fi

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

declare -A wild kotra filters middles

# One round of the base measures: move generation, evaluations, the 2-ply
# decision and the 0-ply rollouts.
base_round() {
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
  gnubg_analysis
  (cd "$here" && "$kotra" bench analyze --ply 2 --positions 300 >"$work/kotra-analysis.txt")
  kotra[analyze]+="$(awk '$1 == "moves" { print $2 }' "$work/kotra-analysis.txt") "
  rollout_pair 0 0 1 "$rollout_trials" r0
}

# gnubg's 2-ply decision time over the dev set (its median, once a round).
gnubg_analysis() {
  (cd "$here" && N=300 PLY=2 "$gnubg" -t -q -r -p scripts/gnubg_analysis_time.py \
    >"$work/gnubg-analysis.txt" 2>/dev/null)
  wild[analyze]+="$(awk '$1 == "moves" { print $2 }' "$work/gnubg-analysis.txt") "
}

# Both tools' rollouts of the opening at ply $1, cubeful $2 (0/1), on $3
# threads, $4 trials; stored under key $5 (plain and luck).
rollout_pair() {
  local ply=$1 cubeful=$2 threads=$3 trials=$4 key=$5
  (cd "$here" && TRIALS=$trials PLY=$ply CUBEFUL=$cubeful THREADS=$threads \
    "$gnubg" -t -q -r -p scripts/gnubg_rollout_time.py >"$work/gnubg-rollout.txt" 2>/dev/null)
  local flag=""
  [ "$cubeful" = 1 ] && flag="--cubeful"
  RAYON_NUM_THREADS=$threads "$kotra" bench rollout --trials "$trials" --ply "$ply" $flag \
    >"$work/kotra-rollout.txt"
  for kind in plain luck; do
    wild[$key-$kind]+="$(awk -v k="$kind" '$1 == k { print $2 }' "$work/gnubg-rollout.txt") "
  done
  filters[$ply]=$(sed -n 's/.*move filter \([0-9.:]*\).*/\1/p' "$work/kotra-rollout.txt" | head -1)
  middles[$ply]=$(sed -n 's/.*move filter [0-9.:]*, \(.*\)$/\1/p' "$work/kotra-rollout.txt" | head -1)
  kotra[$key-plain]+="$(awk '/^without luck adjustment/ { print $4 }' "$work/kotra-rollout.txt") "
  kotra[$key-luck]+="$(awk '/^with luck adjustment/ { print $4 }' "$work/kotra-rollout.txt") "
}

# The rollout configurations of the deep section: ply, cubeful, threads.
deep_rollouts=()
deep_plies="${DEEP_PLIES:-1 2}"
[ "$deep_plies" = none ] && deep_plies=""
for ply in $deep_plies; do
  for cubeful in 0 1; do
    for threads in 1 "$threads_all"; do
      deep_rollouts+=("$ply $cubeful $threads")
    done
  done
done

# One round of the deep measures: searching rollouts, the 3-ply decision
# and the review of a 7-point match.
deep_round() {
  for config in "${deep_rollouts[@]}"; do
    read -r ply cubeful threads <<<"$config"
    local trials
    trials=$([ "$ply" = 1 ] && echo "${ROLLOUT1_TRIALS:-72}" || echo "${ROLLOUT2_TRIALS:-12}")
    rollout_pair "$ply" "$cubeful" "$threads" "$trials" "r$ply-$cubeful-$threads"
  done
  has base || gnubg_analysis
  (cd "$here" && "$kotra" bench analyze --ply 3 --positions 100 >"$work/kotra-analysis3.txt")
  kotra[analyze3]+="$(awk '$1 == "moves" { print $2 }' "$work/kotra-analysis3.txt") "
  (cd "$here" && MATCH="$match" PLY=2 THREADS=$threads_all "$gnubg" -t -q -r -p \
    scripts/gnubg_review_time.py >"$work/gnubg-review.txt" 2>/dev/null)
  wild[review]+="$(awk '$1 == "seconds" { print $2 }' "$work/gnubg-review.txt") "
  for ply in 2 3; do
    local start end
    start=$(date +%s.%N)
    "$kotra" review "$match" --ply "$ply" >/dev/null 2>&1
    end=$(date +%s.%N)
    kotra[review$ply]+="$(python3 -c "print($end - $start)") "
  done
}

for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds..." >&2
  if has base; then base_round; fi
  if has deep; then deep_round; fi
done

# Medians over the rounds, and the ratios.
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" $1; }
ratio() { python3 -c "print($1 / $2)"; }
printf '\n%-40s %14s %14s %12s\n' "measure (peer)" "peer" "kotra-ai" "kotra-ai is"
if has base; then
  for class in contact race; do
    for kind in mixed doubles; do
      w=$(median "${wild[$class-$kind]}"); k=$(median "${kotra[$class-$kind]}")
      printf '%-40s %11.1f ns %11.1f ns %11.2fx\n' "movegen $class $kind (wildbg)" "$w" "$k" "$(ratio "$w" "$k")"
    done
  done
  w=$(median "${wild[calibrate]}"); k=$(median "${kotra[eval]}")
  printf '%-40s %12.0f/s %12.0f/s %11.2fx\n' "evaluations (gnubg)" "$w" "$k" "$(ratio "$k" "$w")"
  w=$(median "${wild[analyze]}"); k=$(median "${kotra[analyze]}")
  printf '%-40s %11.2f ms %11.2f ms %11.2fx\n' "2-ply decision, median (gnubg)" "$w" "$k" "$(ratio "$w" "$k")"
  for kind in plain luck; do
    w=$(median "${wild[r0-$kind]}"); k=$(median "${kotra[r0-$kind]}")
    printf '%-40s %12.1f/s %12.1f/s %11.2fx\n' "0-ply rollout, $kind, 1 thread (gnubg)" "$w" "$k" "$(ratio "$k" "$w")"
  done
fi
if has deep; then
  for config in "${deep_rollouts[@]}"; do
    read -r ply cubeful threads <<<"$config"
    cube=$([ "$cubeful" = 1 ] && echo cubeful || echo cubeless)
    for kind in plain luck; do
      key="r$ply-$cubeful-$threads-$kind"
      w=$(median "${wild[$key]}"); k=$(median "${kotra[$key]}")
      printf '%-40s %12.2f/s %12.2f/s %11.2fx\n' "$ply-ply rollout, $cube, $kind, $threads thr (gnubg)" \
        "$w" "$k" "$(ratio "$k" "$w")"
    done
  done
  w=$(median "${wild[analyze]}"); k=$(median "${kotra[analyze3]}")
  printf '%-40s %11.2f ms %11.2f ms %11.2fx\n' "3-ply decision vs gnubg 2-ply, median" "$w" "$k" "$(ratio "$w" "$k")"
  w=$(median "${wild[review]}")
  for ply in 2 3; do
    k=$(median "${kotra[review$ply]}")
    printf '%-40s %12.1f s %12.1f s %11.2fx\n' "7-pt review at $ply-ply vs gnubg 2-ply" "$w" "$k" "$(ratio "$w" "$k")"
  done
fi
echo "(movegen: ns per (position, roll), one thread; evaluations: gnubg calibrate's static"
echo " evaluations a second against kotra-ai's contact network, one thread; decisions: median ms"
echo " per dev-set checker decision, gnubg with its own thread setting, kotra-ai on $threads_all threads;"
echo " rollouts: games a second of the opening position, \"luck\" with each tool's own variance"
echo " reduction, the cube decided at the checker play's depth; review: seconds for the whole"
echo " match on $threads_all threads, gnubg's analyse match (chequer play, cube, luck) at 2-ply)"
if has deep; then
  echo "(searching rollouts: kotra-ai's move filter after the 0-ply pass ${filters[1]:-?} at 1-ply and"
  echo " ${filters[2]:-?} at 2-ply (${middles[2]:-no 1-ply pass}), its rollouts' defaults; gnubg's its own"
  echo " defaults)"
fi
