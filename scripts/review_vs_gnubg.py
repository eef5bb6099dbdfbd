#!/usr/bin/env python3
"""kotra-ai review against GNU Backgammon's own analysis of the same
matches: chequer-play error rates side by side, their Spearman rank
correlation, and both programs' times.

    python3 scripts/review_vs_gnubg.py [--ply 2] [--bin target/release/kotra-ai] [FILE.mat ...]

Default files: tests/data/matches/*-pt-*.mat (matches; gnubg prints money
sessions' statistics differently). gnubg analyses at the same ply
(`analyse match`, which also analyses the cube: its time is not yet a
like-for-like comparison with our chequer-only review).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GNUBG_SCRIPT = """
import gnubg, json, time
out = []
for f in json.load(open({files!r})):
    gnubg.command('import mat ' + f)
    gnubg.command('set analysis chequerplay evaluation plies {ply}')
    gnubg.command('set analysis cubedecision evaluation plies {ply}')
    t = time.time()
    gnubg.command('analyse match')
    out.append(time.time() - t)
    gnubg.command('show statistics match')
json.dump(out, open({times!r}, 'w'))
"""


def spearman(xs, ys):
    def rank(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0] * len(v)
        for k, i in enumerate(order):
            r[i] = k + 1
        return r
    rx, ry = rank(xs), rank(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry)) / (n * (n * n - 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kotra-ai"))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = [os.path.abspath(f) for f in args.files] or sorted(
        glob.glob(os.path.join(ROOT, "tests", "data", "matches", "*-pt-*.mat")))
    with tempfile.TemporaryDirectory() as tmp:
        listing, times, script = (os.path.join(tmp, n) for n in ("files.json", "times.json", "a.py"))
        json.dump(files, open(listing, "w"))
        open(script, "w").write(GNUBG_SCRIPT.format(files=listing, ply=args.ply, times=times))
        log = subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p", script],
                             capture_output=True, text=True).stdout
        gnubg_times = json.load(open(times))
    blocks = log.split("Chequerplay statistics")[1:]
    xs, ys = [], []
    print(f"{'file':<16} {'gnubg mEMG':>18} {'kotra-ai mEMG':>18} {'gnubg s':>8} {'ours s':>7}")
    for f, block, gt in zip(files, blocks, gnubg_times):
        m = re.search(r"Error rate mEMG \(MWC\)\s+(-?[\d.]+)\s+\(\s*-?[\d.]+%\)\s+(-?[\d.]+)",
                      block.split("Luck statistics")[0])
        t = time.time()
        out = subprocess.run([args.bin, "review", f, "--ply", str(args.ply), "--json"],
                             capture_output=True, check=True).stdout
        ours_t = time.time() - t
        ours = [p["error_rate"] for p in json.loads(out)["players"]]
        theirs = [abs(float(m.group(1))), abs(float(m.group(2)))] if m else None
        if theirs:
            xs += theirs
            ys += ours
        print(f"{os.path.basename(f):<16} {str(theirs):>18} {str([round(v, 1) for v in ours]):>18} "
              f"{gt:>8.1f} {ours_t:>7.1f}")
    if len(xs) > 2:
        print(f"Spearman over {len(xs)} players: {spearman(xs, ys):.3f}")


if __name__ == "__main__":
    main()
