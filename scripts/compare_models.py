"""Paired comparison of two networks on the oracle's dev sets: the mean
difference of their errors decision by decision, with its standard error.

    python3 scripts/compare_models.py A.net B.net [--plies 0,1,2]
        [--cube-plies 0,2] [--oracle ../shared/oracle]
        [--bin target/release/kotra-ai] [--work DIR] [--no-gap]
        [--duel GAMES]

Run from the repository root after `cargo build --release`.

A shipping decision rests on these figures (models/README.md): two
networks of the last rounds choose differently in a few dozen of the 1,500
dev decisions, so their separate means, each with a standard error of
about 0.2 to 0.4 mp, cannot tell them apart where the paired difference
can. Plies are gnubg's (0 = the network alone); the engine is driven
through `kotra-ai ubgi` by the oracle's answer_set.py, the moves cubeless
(the set's labels are gnubg's cubeless 2-ply equities), the cube with the
cube on. The cube's error turns on a dozen positions, so the smooth
figure beside it is the cubeless gap: the mean distance of each
network's 0-ply cubeless equity (`kotra-ai analyze --json`) from gnubg's
2-ply one over the dev cube positions, paired the same way. Each answer
file is kept in --work under the digests of the model and the binary, so
the shipped network is answered once per build. Errors follow the
oracle's score.py. With --duel N it also plays the two head to head
(`kotra-ai duel --a net:A --b net:B --games N --seed 25`, mirrored dice)
and each against PubEval (seed 2027), the other two figures a ship
decision reads; these are kept in --work too.
"""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def answers(args, model, kind, ply):
    """The answer file of `model` on the dev set of `kind` at `ply`,
    made by answer_set.py unless --work already holds it."""
    out = os.path.join(args.work, "%s-%s-%s-%d.jsonl" % (digest(model), args.bin_digest, kind, ply))
    if os.path.exists(out):
        return out
    cmd = [sys.executable, os.path.join(args.oracle, "answer_set.py"),
           "--engine", "%s ubgi --model %s" % (os.path.abspath(args.bin), os.path.abspath(model)),
           "--engine-ply", str(ply + 1)]
    if kind == "moves":
        cmd += ["--set", "engine.cubeful=false"]
    cmd += [os.path.join(args.oracle, "data", "dev-%s.jsonl" % kind), out + ".tmp"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit("compare_models: answer_set.py failed on %s: %s" % (model, last))
    os.replace(out + ".tmp", out)
    return out


def errors(score, rows, path):
    """Each decision's error in mp, as the oracle's score.py scores it
    (its scorer run on that decision alone)."""
    scorer = score.score_moves if score.kind_of(rows) == "moves" else score.score_cube
    ans = {a["id"]: a for a in score.load(path)}
    missing = [rec["id"] for rec in rows if rec["id"] not in ans]
    if missing:
        sys.exit("compare_models: %s has no answer for %s" % (path, missing[0]))
    return {rec["id"]: scorer([rec], [ans[rec["id"]]])["overall"]["mean_mp"] for rec in rows}


def cubeless_gaps(args, model, rows):
    """|our 0-ply cubeless equity - gnubg's 2-ply| for each dev cube position."""
    gaps = {}
    for rec in rows:
        run = subprocess.run([args.bin, "analyze", rec["gnubg_id"], "--model", model, "--ply", "0", "--json"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("compare_models: kotra-ai analyze failed on %s: %s"
                     % (rec["id"], run.stderr.strip()))
        ours = json.loads(run.stdout)["cubeless_equity"]
        gaps[rec["id"]] = 1000 * abs(ours - rec["cubeless_equity"])
    return gaps


def duel(args, a, b, games, seed):
    """`kotra-ai duel`'s JSON for A against B (a player spec each), kept in
    --work under the digests of the models, the binary and the match."""
    key = "-".join(digest(x[4:]) if x.startswith("net:") else x for x in (a, b))
    out = os.path.join(args.work, "duel-%s-%s-%d-%d.json" % (key, args.bin_digest, games, seed))
    if not os.path.exists(out):
        run = subprocess.run([args.bin, "duel", "--a", a, "--b", b, "--games", str(games),
                              "--seed", str(seed), "--json"], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("compare_models: kotra-ai duel failed: %s" % run.stderr.strip())
        with open(out + ".tmp", "w") as f:
            f.write(run.stdout)
        os.replace(out + ".tmp", out)
    with open(out) as f:
        return json.load(f)


def paired(a, b):
    d = [a[k] - b[k] for k in a]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
    mean_a = sum(a.values()) / n
    mean_b = sum(b.values()) / n
    differ = sum(1 for x in d if abs(x) > 1e-6)
    return mean_a, mean_b, mean, se, differ


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--plies", default="0,1,2")
    p.add_argument("--cube-plies", default="0,2")
    p.add_argument("--oracle", default="../shared/oracle")
    p.add_argument("--bin", default="target/release/kotra-ai")
    p.add_argument("--work", default="target/compare-models")
    p.add_argument("--no-gap", action="store_true", help="skip the cubeless gap")
    p.add_argument("--duel", type=int, default=0, metavar="GAMES",
                   help="also play A against B and each against PubEval, GAMES games each")
    args = p.parse_args()
    for path in (args.a, args.b, args.bin, os.path.join(args.oracle, "score.py")):
        if not os.path.exists(path):
            sys.exit("compare_models: no such file: %s" % path)
    os.makedirs(args.work, exist_ok=True)
    args.bin_digest = digest(args.bin)[:6]
    sys.path.insert(0, args.oracle)
    import score

    print("A = %s, B = %s; A - B in mp a decision, paired" % (args.a, args.b))
    sets = [("moves", int(x)) for x in args.plies.split(",") if x]
    sets += [("cube", int(x)) for x in args.cube_plies.split(",") if x]
    for kind, ply in sets:
        rows = score.load(os.path.join(args.oracle, "data", "dev-%s.jsonl" % kind))
        ea = errors(score, rows, answers(args, args.a, kind, ply))
        eb = errors(score, rows, answers(args, args.b, kind, ply))
        mean_a, mean_b, mean, se, differ = paired(ea, eb)
        print("%-5s %d-ply  A %6.2f  B %6.2f  A-B %+6.2f +- %.2f  (%d of %d differ)"
              % (kind, ply, mean_a, mean_b, mean, se, differ, len(rows)))
    if not args.no_gap:
        rows = score.load(os.path.join(args.oracle, "data", "dev-cube.jsonl"))
        mean_a, mean_b, mean, se, _ = paired(cubeless_gaps(args, args.a, rows),
                                             cubeless_gaps(args, args.b, rows))
        print("gap   0-ply  A %6.2f  B %6.2f  A-B %+6.2f +- %.2f  (cubeless equity, dev cube)"
              % (mean_a, mean_b, mean, se))
    if args.duel > 0:
        a, b = "net:" + args.a, "net:" + args.b
        d = duel(args, a, b, args.duel, 25)
        print("duel  0-ply  A against B %+.4f +- %.4f ppg  (%d mirrored games, seed 25)"
              % (d["ppg"], d["se"], d["games"]))
        pa, pb = duel(args, a, "pubeval", args.duel, 2027), duel(args, b, "pubeval", args.duel, 2027)
        print("pubev 0-ply  A %+.3f +- %.3f  B %+.3f +- %.3f ppg  (%d games, seed 2027)"
              % (pa["ppg"], pa["se"], pb["ppg"], pb["se"], args.duel))


if __name__ == "__main__":
    main()
