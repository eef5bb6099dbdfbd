#!/bin/bash
# How `kotra-ai train` scales with threads: the same TD(λ) self-play run
# (128-hidden contact and race networks, the data-parallel learner) at 1
# thread, at 2, and at every power of two up to this machine's cores,
# alternated ROUNDS times. Prints each count's median wall time, its
# speedup over 1 thread and over 2, the serial fraction Amdahl's law
# gives for the 2-thread speedup (2/S - 1), and the median run's split
# into self-play, learning and the rest (KOTRA_TRAIN_TIMING).
#
# Beside each run, the same thread count plays 4,000 games of the shipped
# network against PubEval (`kotra-ai duel`), work with no serial part: its
# speedup is what this machine gives at all (clocks drop and caches are
# shared when every core is busy), and the serial fraction is given both
# plainly and against that ceiling. A third figure needs no second run:
# the 2-thread run's own CPU time over twice its wall time is its
# utilisation u, and Amdahl's serial fraction is 1/u - 1 (drift of the
# machine's speed between runs cannot move it; rayon's brief spin before
# an idle thread sleeps counts as busy, so it errs low by that spin).
#
#   scripts/train_scaling.sh [ROUNDS] [GAMES] [LEARNER] [OVERLAP]
#
# LEARNER is parallel (default) or burn, for the comparison; OVERLAP is
# true to play each step's games during the step before's learning
# (`overlap_play`; then "learn s" is that learning and those games).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
games=${2:-8000}
learner=${3:-parallel}
overlap=${4:-false}
kotra="$repo/target/release/kotra-ai"
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (apt-get install -y time)" >&2; exit 2; }
(cd "$repo" && cargo build --release --quiet)
work=$(mktemp -d /tmp/kotra-scaling.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/config.json" <<EOF
{ "seed": 5, "learner": "$learner", "overlap_play": $overlap, "games": $games, "games_per_step": 500,
  "contact_hidden": 128, "race_hidden": 128, "measure_every": 100000000, "measure_games": 10 }
EOF
cores=$(nproc)
counts=(1)
t=2
while [ "$t" -le "$cores" ]; do counts+=("$t"); t=$((t * 2)); done
[ "${counts[-1]}" = "$cores" ] || counts+=("$cores")
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores cores; $games games, learner $learner, overlap_play $overlap, $rounds rounds"
for round in $(seq "$rounds"); do
    for n in "${counts[@]}"; do
        rm -rf "$work/out"
        start=$(date +%s.%N)
        # From the scratch folder: no dev set there, so the one
        # measurement at the end is a short duel.
        (cd "$work" && RAYON_NUM_THREADS=$n KOTRA_TRAIN_TIMING=1 /usr/bin/time -f "%U %S" -o cpu \
            "$kotra" train --quiet --config config.json --out out >/dev/null 2>timing)
        end=$(date +%s.%N)
        duel_start=$(date +%s.%N)
        RAYON_NUM_THREADS=$n "$kotra" duel --a net --b pubeval --games 4000 >/dev/null 2>&1
        echo "$n $(echo "4000 / ($(date +%s.%N) - $duel_start)" | bc -l)" >>"$work/ceiling"
        awk -v n="$n" -v wall="$(echo "$end - $start" | bc)" -v cpu="$(awk '{print $1 + $2}' "$work/cpu")" \
            '/^step/ {p += $6; l += $9} END {printf "%d %.3f %.3f %.3f %.3f\n", n, wall, p, l, cpu}' \
            "$work/timing" >>"$work/runs"
    done
done
python3 - "$work/runs" "$work/ceiling" <<'EOF'
import statistics, sys
ceiling = {}
for line in open(sys.argv[2]):
    n, rate = line.split()
    ceiling.setdefault(int(n), []).append(float(rate))
runs = {}
for line in open(sys.argv[1]):
    n, wall, play, learn, cpu = line.split()
    runs.setdefault(int(n), []).append((float(wall), float(play), float(learn), float(cpu)))
def median_run(n):
    walls = sorted(runs[n])
    return walls[len(walls) // 2]
one = median_run(1)[0]
two = median_run(2)[0] if 2 in runs else None
print(f"{'threads':>7} {'wall s':>8} {'vs 1':>6} {'vs 2':>6} {'play s':>7} {'learn s':>8} {'other s':>8}")
for n in sorted(runs):
    wall, play, learn, _ = median_run(n)
    vs2 = f"{two / wall:6.2f}" if two else "     -"
    print(f"{n:>7} {wall:8.2f} {one / wall:6.2f} {vs2} {play:7.2f} {learn:8.2f} {wall - play - learn:8.2f}")
if two:
    # Amdahl on each round's pair, so the spread says how sure it is.
    fractions = [2 * b[0] / a[0] - 1 for a, b in zip(runs[1], runs[2])]
    f = statistics.mean(fractions)
    se = statistics.stdev(fractions) / len(fractions) ** 0.5 if len(fractions) > 1 else float("nan")
    print(f"serial fraction from 1 -> 2 threads: {100 * f:.1f}% ± {100 * se:.1f}% (mean of {len(fractions)} rounds ± SE)")
    # The same against the rollouts' speedup in the same rounds.
    ratios = [b / a for a, b in zip(ceiling[1], ceiling[2])]
    # Amdahl with the ceiling C for the 2: S = 1 / (f + (1 - f) / C).
    relative = [(c * b[0] / a[0] - 1) / (c - 1) for a, b, c in zip(runs[1], runs[2], ratios)]
    g = statistics.mean(relative)
    gse = statistics.stdev(relative) / len(relative) ** 0.5 if len(relative) > 1 else float("nan")
    print(f"duel games (no serial part) on 2 threads: {statistics.mean(ratios):.2f}x; "
          f"the serial fraction against that ceiling: {100 * g:.1f}% ± {100 * gse:.1f}%")
    by_cpu = [2 * b[0] / b[3] - 1 for b in runs[2]]
    h = statistics.mean(by_cpu)
    hse = statistics.stdev(by_cpu) / len(by_cpu) ** 0.5 if len(by_cpu) > 1 else float("nan")
    print(f"the 2-thread runs' CPU time over twice their wall time: serial fraction "
          f"{100 * h:.1f}% ± {100 * hse:.1f}%")
EOF
