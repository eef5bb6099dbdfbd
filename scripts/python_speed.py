#!/usr/bin/env python3
"""Positions evaluated per second from Python, side by side in one run:
kotra's Engine.evaluate_batch on batches of 1, 1,000 and 100,000; the
command line's `kotra-ai bench eval` (one thread); and, where the `gnubg`
package is installed (pip install gnubg), gnubg.evaluate one position at
a time, as its Python module offers it.

    python3 scripts/python_speed.py [--bin target/release/kotra-ai] [--positions 100000]

Build the package in release first (pip install ./python, or maturin build
--release). The positions are distinct, drawn at random (every checker of
each side on a random point, no point shared), so no evaluation cache
helps anyone. A benchmark, not a test: it prints, it asserts nothing.
"""

import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

import kotra


def random_boards(n, seed):
    """`n` distinct legal boards, (n, 26) int8, in kotra's array layout."""
    rng = np.random.default_rng(seed)
    boards = np.zeros((n, 26), np.int8)
    for row in boards:
        # Each side: 15 checkers on up to 6 random points (its bar among
        # them now and then), the opponent never on the mover's points.
        mine = rng.choice(np.arange(1, 25), size=rng.integers(3, 7), replace=False)
        for point in rng.choice(mine, size=15):
            row[point] += 1
        free = np.array([p for p in range(1, 25) if row[p] == 0])
        theirs = rng.choice(free, size=rng.integers(3, 7), replace=False)
        for point in rng.choice(theirs, size=15):
            row[point] -= 1
    return boards


def rate(count, seconds):
    return count / seconds if seconds > 0 else float("inf")


def time_batches(engine, boards, size, budget=2.0):
    """Positions a second through evaluate_batch in batches of `size`: the
    best of three for a batch of all the positions, else as many batches
    as `budget` seconds allow."""
    if size >= len(boards):
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            engine.evaluate_batch(boards)
            best = min(best, time.perf_counter() - started)
        return rate(len(boards), best)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < budget:
        start = (done % (len(boards) - size + 1)) if len(boards) > size else 0
        engine.evaluate_batch(boards[start : start + size])
        done += size
    return rate(done, time.perf_counter() - started)


def cli_rate(binary):
    out = subprocess.run(
        [binary, "bench", "eval", "--seconds", "2"], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r"contact net evaluations\s+(\d+) /s", out)
    return int(found.group(1)) if found else None


def gnubg_rate(boards, budget=2.0):
    try:
        import gnubg
    except ImportError:
        return None
    done, started = 0, time.perf_counter()
    for row in boards:
        mine = [int(row[p]) if row[p] > 0 else 0 for p in range(1, 25)] + [int(row[25])]
        theirs = [int(-row[25 - p]) if row[25 - p] < 0 else 0 for p in range(1, 25)]
        theirs.append(int(-row[0]))
        gnubg.evaluate((tuple(theirs), tuple(mine)))
        done += 1
        if time.perf_counter() - started > budget:
            break
    return rate(done, time.perf_counter() - started)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/kotra-ai")
    ap.add_argument("--positions", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    boards = random_boards(args.positions, args.seed)
    engine = kotra.Engine()
    cores = os.cpu_count() or 1
    if os.environ.get("RAYON_NUM_THREADS") == "1":
        # The one-thread run main() starts below: print its rate alone.
        print(time_batches(engine, boards, args.positions))
        return
    rows = [
        (f"kotra evaluate_batch, batches of {size:,}", time_batches(engine, boards, size), cores)
        for size in (1, 1_000, args.positions)
    ]
    one = subprocess.run(
        [sys.executable, __file__, "--positions", str(args.positions), "--seed", str(args.seed)],
        env={**os.environ, "RAYON_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    rows.append(
        (f"kotra evaluate_batch, {args.positions:,}, 1 thread", float(one.stdout.split()[-1]), 1)
    )
    cli = cli_rate(args.bin)
    rows.append(("kotra-ai bench eval (contact, 1 thread)", cli, 1))
    rows.append(("gnubg.evaluate, one at a time", gnubg_rate(boards), 1))

    print(f"{args.positions:,} random positions; {cores} cores; kotra {kotra.__version__}")
    print(f"{'':44} {'positions/s':>12} {'threads':>8} {'per thread':>11}")
    for name, r, threads in rows:
        if r is None:
            print(f"{name:44} {'(not here)':>12}")
            continue
        print(f"{name:44} {r:12,.0f} {threads:8} {r / threads:11,.0f}")
    if cli:
        print(
            f"batches of {args.positions:,}: {rows[2][1] / cores / cli:.0%} of the command line's"
            f" one-thread rate per core on {cores} threads, {rows[3][1] / cli:.0%} on one thread"
        )


if __name__ == "__main__":
    main()
