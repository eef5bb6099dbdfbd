#!/usr/bin/env python3
"""kotra-ai review against GNU Backgammon's own analysis of the same
matches: per player the overall, chequer and cube error rates (mEMG), the
counted cube decisions and the luck rate side by side; the Spearman rank
correlation of the error rates; how many of gnubg's very bad chequer plays
we mark bad or very bad; and both programs' times.

    python3 scripts/review_vs_gnubg.py [--ply 2] [--bin target/release/kotra-ai] [FILE.mat ...]

Default files: tests/data/matches/*-pt-*.mat. The 30-match comparison of
the closing note: make them with
    MATCH_DIR=/tmp/cmp30 MATCH_SET=comparison gnubg -t -q -r -p scripts/gnubg_matches.py
and pass /tmp/cmp30/*.mat. gnubg analyses at the same ply (`analyse
match`: chequer play, cube and luck, as our review does).
"""
import argparse
import glob
import json
import os
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
    seconds = time.time() - t
    m = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
    skills = [[(r['player'], r.get('analysis', {{}}).get('skill'))
               for r in g['game'] if r['action'] == 'move'] for g in m['games']]
    names = {{side: m['match-info'][side]['name'] for side in ('X', 'O')}}
    out.append(dict(seconds=seconds, stats=m['stats'], names=names, skills=skills))
json.dump(out, open({result!r}, 'w'))
"""


def spearman(xs, ys):
    def rank(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    rx, ry = rank(xs), rank(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def gnubg_figures(stats):
    """Overall, chequer and cube error rates, close cube decisions and the
    luck rate of one player from gnubg's statistics."""
    mv, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    per = lambda e, n: 1000 * e / n if n else 0.0
    # The cube's "error-skill" is not the sum of its errors (the text
    # report's total is): add the kinds up.
    cube_error = sum(v for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill"))
    return dict(
        overall=per(mv["error-skill"] + cube_error, mv["unforced-moves"] + cube["close-cube"]),
        checker=per(mv["error-skill"], mv["unforced-moves"]),
        cube=per(cube_error, cube["close-cube"]),
        close=cube["close-cube"],
        luck=per(dice["luck"], mv["total-moves"]),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kotra-ai"))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = [os.path.abspath(f) for f in args.files] or sorted(
        glob.glob(os.path.join(ROOT, "tests", "data", "matches", "*-pt-*.mat")))
    with tempfile.TemporaryDirectory() as tmp:
        listing, result, script = (os.path.join(tmp, n) for n in ("files.json", "out.json", "a.py"))
        json.dump(files, open(listing, "w"))
        open(script, "w").write(GNUBG_SCRIPT.format(files=listing, ply=args.ply, result=result))
        subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p", script],
                       capture_output=True, text=True, check=True)
        theirs_all = json.load(open(result))
    cols = ("overall", "checker", "cube", "close", "luck")
    print(f"ply {args.ply}; each cell gnubg / kotra-ai (error rates mEMG per counted decision, "
          "luck mEMG per roll)")
    print(f"{'file':<14} {'player':<8} " + " ".join(f"{c:>13}" for c in cols))
    pairs = {c: ([], []) for c in cols}
    very_bad = caught = 0
    times = [0.0, 0.0]
    for f, theirs in zip(files, theirs_all):
        t = time.time()
        out = subprocess.run([args.bin, "review", f, "--ply", str(args.ply), "--json"],
                             capture_output=True, check=True).stdout
        times[1] += time.time() - t
        times[0] += theirs["seconds"]
        ours = json.loads(out)
        side_of = {name: side for side, name in theirs["names"].items()}
        for p, player in enumerate(ours["players"]):
            g = gnubg_figures(theirs["stats"][side_of[player["name"]]])
            mine = dict(overall=player["error_rate"], checker=player["checker_error_rate"],
                        cube=player["cube_error_rate"], close=player["cube_decisions"],
                        luck=player["luck_rate"])
            for c in cols:
                pairs[c][0].append(g[c])
                pairs[c][1].append(mine[c])
            print(f"{os.path.basename(f):<14} {p:<8} " +
                  " ".join(f"{g[c]:>6.1f}/{mine[c]:<6.1f}" for c in cols))
        # gnubg's very bad chequer plays, matched to ours by game and order.
        checker = {}
        for d in ours["decisions"]:
            if d["kind"] == "checker":
                checker.setdefault(d["game"], []).append(d)
        for gi, skills in enumerate(theirs["skills"]):
            mine = checker.get(gi + 1, [])
            for k, (_, skill) in enumerate(skills):
                if skill == "very bad":
                    very_bad += 1
                    caught += k < len(mine) and mine[k]["mark"] in ("bad", "very bad")
    print()
    for c in cols:
        xs, ys = pairs[c]
        print(f"Spearman {c:<8} over {len(xs)} players: {spearman(xs, ys):.3f}")
    print(f"gnubg's very bad chequer plays: {very_bad}; we mark {caught} of them bad or very bad "
          f"({100 * caught / max(very_bad, 1):.0f}%)")
    print(f"time: gnubg analyse match {times[0]:.1f} s, kotra-ai review {times[1]:.1f} s "
          f"(ratio {times[1] / max(times[0], 1e-9):.2f})")


if __name__ == "__main__":
    main()
