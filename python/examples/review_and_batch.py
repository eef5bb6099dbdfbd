"""A notebook's worth of kotra in one script: review a played match, plot
each player's error rate game by game, and evaluate 100,000 positions in
one batch.

    python python/examples/review_and_batch.py [MATCH_FILE] [--ply N] [--out PNG]

Needs matplotlib beside kotra (pip install matplotlib).
"""

import argparse
import pathlib
import time

import matplotlib

matplotlib.use("Agg")  # write a file; no window needed
import matplotlib.pyplot as plt
import numpy as np

import kotra

ROOT = pathlib.Path(__file__).resolve().parents[2]


def review(engine, path, ply):
    started = time.perf_counter()
    report = engine.review(path, ply=ply)
    seconds = time.perf_counter() - started
    print(f"{path.name}: {len(report['decisions'])} decisions at {ply}-ply in {seconds:.1f} s")
    for p in report["players"]:
        print(
            f"  {p['name']:<12} error rate {p['error_rate']:6.1f} mEMG"
            f"  PR {p['pr']:5.1f}  ({p['rating']}; luck: {p['luck_words']})"
        )
    return report


def plot_errors(report, out):
    """One bar a player a game: the error rate (mEMG a decision)."""
    games = report["games"]
    names = [p["name"] for p in report["players"]]
    x = np.arange(len(games))
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(6, len(games) * 0.8), 4))
    for i, name in enumerate(names):
        rates = [g["players"][i]["error_rate"] for g in games]
        ax.bar(x + (i - (len(names) - 1) / 2) * width, rates, width, label=name)
    ax.set_xticks(x, [str(g["number"]) for g in games])
    ax.set_xlabel("game")
    ax.set_ylabel("error rate (mEMG a decision)")
    ax.set_title(f"{report['length']}-point match reviewed at {report['ply']}-ply")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot: {out}")


def positions_by_random_play(n, seed=1):
    """`n` positions from games of random legal moves, as an (n, 26) array:
    what a reinforcement-learning loop or a data set would hand the engine."""
    rng = np.random.default_rng(seed)
    start = kotra.Position("4HPwATDgc/ABMA")
    boards = np.empty((n, 26), np.int8)
    pos, filled = start, 0
    while filled < n:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        moves = kotra.legal_moves(pos, dice)
        after = kotra.Position(moves[rng.integers(len(moves))]["position_id"]) if moves else pos
        # The board after a move is seen from the mover: turn it round
        # for the side to roll next.
        board = -after.to_array()[::-1]
        try:
            pos = kotra.Position.from_array(board)
        except kotra.Error:  # the mover bore off its last checker
            pos = start
            continue
        boards[filled] = board
        filled += 1
    return boards


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("match", nargs="?", type=pathlib.Path,
                    default=ROOT / "tests" / "data" / "matches" / "7-pt-104.mat")
    ap.add_argument("--ply", type=int, default=1)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("review_errors.png"))
    ap.add_argument("--positions", type=int, default=100_000)
    args = ap.parse_args()

    engine = kotra.Engine()
    plot_errors(review(engine, args.match, args.ply), args.out)

    started = time.perf_counter()
    boards = positions_by_random_play(args.positions)
    made = time.perf_counter() - started
    started = time.perf_counter()
    probs = engine.evaluate_batch(boards)
    seconds = time.perf_counter() - started
    equity = probs[:, 0] * 2 - 1 + probs[:, 1] - probs[:, 3] + probs[:, 2] - probs[:, 4]
    print(
        f"{len(boards):,} positions (made by random play in {made:.1f} s) evaluated in one batch"
        f" in {seconds:.2f} s ({len(boards) / seconds:,.0f} a second);"
        f" mean win chance {probs[:, 0].mean():.3f}, mean cubeless equity {equity.mean():+.3f}"
    )


if __name__ == "__main__":
    main()
