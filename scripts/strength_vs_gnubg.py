#!/usr/bin/env python3
"""kotra-ai against GNU Backgammon by play: money games with the cube,
many seeds in parallel, pooled into points per game with its standard
error, and gnubg's own analysis of the games split so you see where the
points go (issue 48's harness).

    python3 scripts/strength_vs_gnubg.py --ply 0 --games 4000 [--procs 2] [--seed 101]
        [--chunk 250] [--model PATH] [--engine-set KEY=VALUE ...] [--dir runs/strength/NAME] [--against DIR]
        [--no-luck] [--analyse] [--analyse-ply 0]

Both seats search as deep as `--ply` says, in gnubg's meaning: gnubg plays
at that ply, kotra-ai at UBGI engine.ply = ply + 1 (root-inclusive). The
games run in chunks of `--chunk`, each its own `../shared/oracle/play.py`
process (seed SEED * 1000 + chunk number) at low priority, `--procs` at a
time. A chunk whose output holds its summary line is done: a killed run
started again plays only the chunks missing, losing at most those in
flight. Every finished chunk is pooled: ppg ± SE from kotra-ai's side, per
chunk and in all. The folder keeps whose games they are (`player.json`:
the `--model` file's digest, the ply, the engine settings), and a run of
another player there stops before its first game.

With `--against DIR`, another network's run on the same seeds and chunks
(its `--dir`), the two are also compared game by game: the same dice
make most pairs of games alike, so the paired difference has a smaller
error than the two results side by side, and it is the figure a ship
decision reads.

Run it beside other work (the campaign, at its lowest priority): on an
idle machine gnubg waits for each of its own moves in 10 ms sleeps
(`g_usleep` under its Python `command`), so most 0-ply games' time is
spent asleep; the same 40 games took 7.0 s on an idle 2-core machine and
2.2 s beside the campaign, which lost little to them.

Every game is also judged for luck (`kotra-ai review --ply 0` of its
saved SGF, by the network compiled into `--bin`, whatever `--model`
plays): the result less the luck of both sides' rolls, in the game's
stakes. Each roll's luck has mean zero over the dice, so the adjusted
points per game estimate the same thing as the plain ones with a far
smaller error (as the duel's `--luck` does); the LUCK-ADJUSTED line and,
with `--against`, the paired line give it. Judged chunks are kept
beside the games (`luck-JUDGE-NNNN.json`, JUDGE the digest of `--bin`);
`--no-luck` skips this.

With `--analyse`, gnubg analyses every saved game (at `--analyse-ply`,
0 by default: the games are many; `--analyse-chunks N` the first N chunks
only), keeping each chunk's analysis beside its games, and reports, for
each side, chequer and cube error per decision (mEMG), the cube errors by
kind (missed and wrong doubles, wrong takes and passes: how many, and
mEMG a game) and the chequer error by phase (contact, race, bear-off),
summed over the games.

For a cheap A/B of two networks without gnubg, use the mirrored duel:
    kotra-ai duel --a net:NEW.bin --b net --games 20000 --seed 1
"""
import argparse
import glob
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.normpath(os.path.join(ROOT, "..", "shared", "oracle"))

# gnubg's statistics name each kind of cube error; the report shows them
# in these groups.
CUBE_ERROR_GROUPS = (("missed double", ("missed-double-below-cp", "missed-double-above-cp")),
                     ("wrong double", ("wrong-double-below-dp", "wrong-double-above-tg")),
                     ("wrong take", ("wrong-take",)), ("wrong pass", ("wrong-drop",)))
CUBE_KINDS = tuple(kind for _, kinds in CUBE_ERROR_GROUPS for kind in kinds)
# What each side's analysis sums over the games, beside the cube kinds.
SUMMED = ("moves", "chequer", "close_cube", "cube")

ANALYSE = r"""
import gnubg, glob, json, os
PLY = {ply}
CUBE_KINDS = {kinds!r}
SUMMED = {summed!r}
out = dict(players={{}}, phases={{}})

def phase(position_id):
    # [opponent[25], on roll[25]], each from its own side; index 24 the bar.
    opp, me = gnubg.positionfromid(position_id)
    # Contact while some checker of one side is still behind one of the other's.
    my_back = max((i for i in range(25) if me[i]), default=-1)
    opp_back = max((i for i in range(25) if opp[i]), default=-1)
    if my_back + opp_back >= 23:
        return "contact"
    if my_back < 6 and opp_back < 6:
        return "bear-off"
    return "race"

for f in sorted(glob.glob(os.path.join({sgf_dir!r}, "*.sgf"))):
    gnubg.command("load match " + f)
    gnubg.command("set analysis chequerplay evaluation plies %d" % PLY)
    gnubg.command("set analysis cubedecision evaluation plies %d" % PLY)
    gnubg.command("analyse match")
    m = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
    names = {{side: m["match-info"][side]["name"] for side in ("X", "O")}}
    for side, stats in m["stats"].items():
        p = out["players"].setdefault(names[side], dict.fromkeys(SUMMED, 0))
        p["moves"] += stats["moves"]["unforced-moves"]
        p["chequer"] += stats["moves"]["error-skill"]
        p["close_cube"] += stats["cube"]["close-cube"]
        p["cube"] += sum(v for k, v in stats["cube"].items() if k.startswith("err-") and k.endswith("-skill"))
        # gnubg's kinds of cube error, each a count and its summed error.
        for kind in CUBE_KINDS:
            k = p.setdefault("cube_kinds", {{}}).setdefault(kind, [0, 0.0])
            k[0] += stats["cube"][kind]
            k[1] += stats["cube"]["err-" + kind + "-skill"]
    for g in m["games"]:
        for r in g["game"]:
            a = r.get("analysis", {{}})
            if r.get("action") != "move" or "moves" not in a or "board" not in r:
                continue
            moves = a["moves"]
            if len(moves) < 2:
                continue
            chosen = moves[a["imove"]] if a.get("imove") is not None and a["imove"] < len(moves) else None
            if chosen is None:
                continue
            err = moves[0]["score"] - chosen["score"]
            key = names[r["player"]] + " " + phase(r["board"])
            ph = out["phases"].setdefault(key, [0, 0.0])
            ph[0] += 1
            ph[1] += max(err, 0.0)
json.dump(out, open({result!r}, "w"))
"""


def summary(points):
    n = len(points)
    if n == 0:
        return 0.0, 0.0
    mean = sum(points) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (n - 1)) if n > 1 else 0.0
    return mean, sd / math.sqrt(n)


def chunk_seed(args, number):
    """gnubg's dice seed for chunk `number` (play.py's --seed)."""
    return args.seed * 1000 + number


def chunk_done(path):
    """The per-game points of a finished chunk, or None."""
    if not os.path.exists(path):
        return None
    games, finished = [], False
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if "summary" in rec:
                finished = True
            else:
                games.append(rec["engine_points"])
    return games if finished else None


def play_chunk(args, engine, number, games):
    seed = chunk_seed(args, number)
    out = os.path.join(args.dir, "chunk-%04d.jsonl" % number)
    if chunk_done(out) is not None:
        return out
    sgf_dir = os.path.join(args.dir, "sgf-%04d" % number)
    tmp = out + ".tmp"
    cmd = ["nice", "-n", "10", os.path.join(ORACLE, "gnubg-run.sh"), os.path.join(ORACLE, "play.py"),
           "--engine", engine, "--engine-ply", str(args.ply + 1), "--gnubg-ply", str(args.ply),
           "--games", str(games), "--seed", str(seed), "--out", tmp, "--sgf-dir", sgf_dir]
    for setting in args.engine_set:
        cmd += ["--set", setting]
    log = open(out + ".log", "w")
    r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    if r.returncode != 0 or chunk_done(tmp) is None:
        raise SystemExit("chunk %d failed (seed %d): see %s.log" % (number, seed, out))
    os.replace(tmp, out)
    return out


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:8]


def luck_judge(args):
    """A short name for what judges luck: the digest of --bin, whose
    compiled network does it (a rebuilt binary judges its chunks anew)."""
    return file_digest(os.path.abspath(args.bin))


def luck_adjusted(args, run_dir, number, points, judge):
    """The engine's luck-adjusted points of chunk `number` of the run in
    `run_dir`, game by game, judged once and kept beside its games. Each
    game's review must give the points the chunk recorded."""
    kept = os.path.join(run_dir, "luck-%s-%04d.json" % (judge, number))
    if os.path.exists(kept):
        return json.load(open(kept))
    files = [os.path.join(run_dir, "sgf-%04d" % number, "game%05d.sgf" % g) for g in range(len(points))]
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        sys.exit("luck: %s is missing (play.py saves every game; --no-luck skips this)" % missing[0])
    r = subprocess.run(["nice", "-n", "10", os.path.abspath(args.bin), "review", "--ply", "0", "--json"] + files,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("luck: review of chunk %d in %s failed: %s" % (number, run_dir, r.stderr.strip()[-300:]))
    adjusted = []
    for f, line, played in zip(files, r.stdout.splitlines(), points):
        engine = [p for p in json.loads(line)["players"] if p["name"] == "engine"]
        if len(engine) != 1 or abs(engine[0]["result"] - played) > 1e-6:
            sys.exit("luck: %s does not give the engine the %+g points its chunk recorded" % (f, played))
        adjusted.append(engine[0]["luck_adjusted"])
    if len(adjusted) != len(points):
        sys.exit("luck: the review of chunk %d in %s gave %d games of %d" % (number, run_dir, len(adjusted), len(points)))
    with open(kept + ".tmp", "w") as out:
        json.dump(adjusted, out)
    os.replace(kept + ".tmp", kept)
    return adjusted


def judged_run(args, run_dir, chunks, judge):
    """Every chunk of the run in `run_dir` (`chunks`, each chunk's points)
    luck-adjusted, `--procs` chunks at a time."""
    with ThreadPoolExecutor(max_workers=args.procs) as pool:
        return list(pool.map(lambda job: luck_adjusted(args, run_dir, job[0], job[1], judge), enumerate(chunks)))


def luck_report(args, chunks):
    """The LUCK-ADJUSTED line, and with --against the paired one."""
    judge = luck_judge(args)
    mine = judged_run(args, args.dir, chunks, judge)
    mean, se = summary([x for c in mine for x in c])
    print("LUCK-ADJUSTED %+.3f ± %.3f ppg over %d games (luck judged at 0-ply by %s)" % (
        mean, se, sum(map(len, mine)), judge))
    if args.against:
        theirs = [chunk_done(os.path.join(args.against, "chunk-%04d.jsonl" % n)) for n in range(len(chunks))]
        theirs = judged_run(args, args.against, theirs, judge)
        mean, se = summary([x - y for a, b in zip(mine, theirs) for x, y in zip(a, b)])
        print("PAIRED-LUCK-ADJUSTED %+.4f ± %.4f ppg, this run less %s, game by game over %d games" % (
            mean, se, args.against, sum(map(len, mine))))


def analyse(args):
    """gnubg's analysis of each chunk's games, kept beside them once made
    (a killed analysis resumes), over the first --analyse-chunks chunks."""
    totals = dict(players={}, phases={})
    dirs = sorted(glob.glob(os.path.join(args.dir, "sgf-*")))[:args.analyse_chunks or None]
    games = 0
    for sgf_dir in dirs:
        chunk_games = len(glob.glob(os.path.join(sgf_dir, "*.sgf")))
        games += chunk_games
        result = os.path.join(args.dir, "analysis-ply%d-%s.json" % (args.analyse_ply, os.path.basename(sgf_dir)))
        if not os.path.exists(result):
            with tempfile.TemporaryDirectory() as tmp:
                # Written beside the result, then renamed: never half a file.
                script, out = os.path.join(tmp, "a.py"), result + ".tmp"
                open(script, "w").write(ANALYSE.format(ply=args.analyse_ply, kinds=CUBE_KINDS, summed=SUMMED, sgf_dir=sgf_dir,
                                                    result=out))
                subprocess.run(["nice", "-n", "10", "/usr/games/gnubg", "-t", "-q", "-r", "-p", script],
                               capture_output=True, check=True)
                os.replace(out, result)
        part = json.load(open(result))
        for name, p in part["players"].items():
            t = totals["players"].setdefault(name, dict.fromkeys(SUMMED, 0))
            for k in SUMMED:
                t[k] += p[k]
            # Analyses kept from before the kinds were counted have none.
            if "cube_kinds" in p:
                t["kinds_games"] = t.get("kinds_games", 0) + chunk_games
                for kind, (n, err) in p["cube_kinds"].items():
                    k = t.setdefault("cube_kinds", {}).setdefault(kind, [0, 0.0])
                    k[0] += n
                    k[1] += err
        for key, (n, err) in part["phases"].items():
            t = totals["phases"].setdefault(key, [0, 0.0])
            t[0] += n
            t[1] += err
    print("\ngnubg's %d-ply analysis of %d games (mEMG per decision):" % (args.analyse_ply, games))
    for name, p in sorted(totals["players"].items()):
        print("  %-8s chequer %6.2f over %6d moves   cube %6.2f over %5d close decisions" % (
            name, 1000 * p["chequer"] / max(p["moves"], 1), p["moves"],
            1000 * p["cube"] / max(p["close_cube"], 1), p["close_cube"]))
    for name, p in sorted(totals["players"].items()):
        if "cube_kinds" not in p:
            continue
        parts = []
        for label, kinds in CUBE_ERROR_GROUPS:
            n = sum(p["cube_kinds"][k][0] for k in kinds)
            err = sum(p["cube_kinds"][k][1] for k in kinds)
            parts.append("%s %d (%.2f a game)" % (label, n, 1000 * err / p["kinds_games"]))
        print("  %-8s cube errors over %d games, mEMG: %s" % (name, p["kinds_games"], ", ".join(parts)))
    print("  chequer error by phase (cubeless equity at the analysis ply):")
    for key, (n, err) in sorted(totals["phases"].items()):
        print("    %-18s %6.2f over %6d moves" % (key, 1000 * err / max(n, 1), n))


def check_player(args):
    """Before any game: --dir holds games of this player or none. A run
    resumes from the chunks it finds, so a folder reused for another
    network (or ply, or engine setting) would pool that one's games
    under this one's name. The player is written to `player.json` when
    the folder has no games yet; a folder from before this check, with
    games and no `player.json`, is resumed as it is, with a warning."""
    player = dict(ply=args.ply, engine_set=sorted(args.engine_set),
                  model=file_digest(args.model) if args.model else "compiled into --bin")
    path = os.path.join(args.dir, "player.json")
    if os.path.exists(path):
        try:
            with open(path) as f:
                theirs = json.load(f)
        except ValueError:
            sys.exit("--dir %s: player.json is not this script's" % args.dir)
        if theirs != player:
            sys.exit("--dir %s holds games of another player (%s, this run %s): give a fresh --dir"
                     % (args.dir, json.dumps(theirs, sort_keys=True), json.dumps(player, sort_keys=True)))
    elif glob.glob(os.path.join(args.dir, "chunk-*.jsonl")):
        print("warning: --dir %s has games but no player.json; resumed without checking whose they are"
              % args.dir, file=sys.stderr)
    else:
        with open(path + ".tmp", "w") as f:
            json.dump(player, f, sort_keys=True)
        os.replace(path + ".tmp", path)


def check_against(args, chunks):
    """Before any game: the run in --against is finished and on this run's seeds."""
    other = os.path.join(args.against, "result.json")
    if not os.path.exists(other):
        sys.exit("--against %s: no result.json there (a finished run of this script)" % args.against)
    try:
        seeds = json.load(open(other)).get("seeds")
    except (ValueError, AttributeError):
        sys.exit("--against %s: result.json is not this script's" % args.against)
    if seeds != [chunk_seed(args, number) for number in range(chunks)]:
        sys.exit("--against %s: played on other seeds or chunks (use the same --seed, --games and --chunk)"
                 % args.against)


def paired(args, outs, chunks):
    """This run's points (`chunks`, each chunk's games) less those of the
    run in --against, game by game."""
    diffs = []
    for number, (out, a) in enumerate(zip(outs, chunks)):
        b = chunk_done(os.path.join(args.against, os.path.basename(out)))
        if b is None or len(a) != len(b):
            sys.exit("--against %s: chunk %d is missing or of another size" % (args.against, number))
        diffs += [x - y for x, y in zip(a, b)]
    mean, se = summary(diffs)
    print("PAIRED %+.3f ± %.3f ppg, this run less %s, game by game over %d games" % (
        mean, se, args.against, len(diffs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ply", type=int, default=0, help="gnubg's meaning; kotra-ai plays at UBGI ply + 1")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--chunk", type=int, default=250)
    ap.add_argument("--model", default=None, help="a model file instead of the shipped network")
    ap.add_argument("--engine-set", action="append", default=[], metavar="KEY=VALUE",
                    help="a UBGI setting for kotra-ai's seat, e.g. engine.preselect=network (repeatable)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kotra-ai"))
    ap.add_argument("--dir", default=None, help="where chunks, logs and games go (resumes from it)")
    ap.add_argument("--against", default=None,
                    help="another run's --dir on the same seeds: also report the difference game by game")
    ap.add_argument("--no-luck", action="store_true", help="skip judging each game's luck")
    ap.add_argument("--analyse", action="store_true")
    ap.add_argument("--analyse-ply", type=int, default=0)
    ap.add_argument("--analyse-chunks", type=int, default=0, help="analyse only the first N chunks (0: all)")
    args = ap.parse_args()
    if args.games < 1 or args.chunk < 1 or args.procs < 1 or args.ply < 0:
        sys.exit("--games, --chunk and --procs must be at least 1, --ply at least 0")
    args.dir = os.path.abspath(args.dir or os.path.join(
        ROOT, "runs", "strength", "ply%d-seed%d" % (args.ply, args.seed)))
    os.makedirs(args.dir, exist_ok=True)
    # gnubg makes ~/.gnubg on its first start; two first starts at once
    # race for it and one chunk fails ("File exists"), ending the run.
    os.makedirs(os.path.expanduser("~/.gnubg"), exist_ok=True)
    engine = os.path.abspath(args.bin) + " ubgi"
    if args.model:
        engine += " --model " + os.path.abspath(args.model)
    sizes = [args.chunk] * (args.games // args.chunk) + ([args.games % args.chunk] if args.games % args.chunk else [])
    check_player(args)
    if args.against:
        check_against(args, len(sizes))
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.procs) as pool:
        outs = list(pool.map(lambda job: play_chunk(args, engine, *job), enumerate(sizes)))
    chunks = [chunk_done(out) for out in outs]
    points, rows = [], []
    for number, games in enumerate(chunks):
        points += games
        rows.append((chunk_seed(args, number), *summary(games), len(games)))
    mean, se = summary(points)
    print("kotra-ai (UBGI ply %d) against gnubg %d-ply, money with the cube" % (args.ply + 1, args.ply))
    for seed, m, s, n in rows:
        print("  seed %7d: %+.3f ± %.3f over %d games" % (seed, m, s, n))
    print("RESULT %+.3f ± %.3f ppg over %d games (%.0f s this run)" % (mean, se, len(points), time.time() - t0))
    result = os.path.join(args.dir, "result.json")
    with open(result + ".tmp", "w") as f:
        json.dump(dict(ply=args.ply, games=len(points), ppg=mean, se=se, seeds=[r[0] for r in rows]), f)
    os.replace(result + ".tmp", result)
    if args.against:
        paired(args, outs, chunks)
    if not args.no_luck:
        luck_report(args, chunks)
    if args.analyse:
        analyse(args)


if __name__ == "__main__":
    main()
