"""Times GNU Backgammon's own analysis over dev-set decisions, for
comparison with `kotra-ai bench analyze` on the same machine and the same
decisions (every step-th record, as the bench samples them).

Run inside gnubg, the settings in the environment (gnubg hands a script
no arguments):
    SET=tests/data/dev-moves.jsonl N=300 PLY=2 gnubg -t -q -r -p scripts/gnubg_analysis_time.py
Those are the defaults (PLY as gnubg counts).
Uses gnubg's world-class-like context: cubeful, deterministic, pruning on.
"""
import json
import os
import sys
import time

import gnubg

path = os.environ.get("SET", "tests/data/dev-moves.jsonl")
n = int(os.environ.get("N", "300"))
plies = int(os.environ.get("PLY", "2"))

records = [json.loads(l) for l in open(path) if l.strip()]
step = max(1, len(records) // n)
records = records[::step][:n]

ec = gnubg.evalcontext(1, plies, 1, 1, 0.0)
ci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)


def board(rec):
    # dev records: board = [opponent[25], on_roll[25]]; gnubg wants the same order.
    return tuple(tuple(x) for x in rec["board"])


def quantile(xs, q):
    xs = sorted(xs)
    return xs[int(round((len(xs) - 1) * q))]


moves, cubes = [], []
for rec in records:
    b = board(rec)
    t = time.perf_counter()
    gnubg.findbestmove(b, ci, ec, tuple(rec["dice"]))
    moves.append((time.perf_counter() - t) * 1e3)
    t = time.perf_counter()
    gnubg.cfevaluate(b, ci, ec)
    cubes.append((time.perf_counter() - t) * 1e3)

print("gnubg %d-ply over %d dev decisions (ms per decision)" % (plies, len(records)))
print("%-10s %9s %9s %9s %9s" % ("kind", "median", "mean", "p95", "max"))
for kind, xs in (("moves", moves), ("cube", cubes)):
    print("%-10s %9.2f %9.2f %9.2f %9.2f" % (kind, quantile(xs, 0.5), sum(xs) / len(xs), quantile(xs, 0.95), max(xs)))
