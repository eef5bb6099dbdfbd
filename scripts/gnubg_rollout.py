"""Rolls out dev-set positions with GNU Backgammon, to measure how far the
oracle's 2-ply labels sit from gnubg's own rollouts (cubeless, 0-ply
checker play, variance reduction, quasi-random dice). Measurement only:
never a training target (our networks learn from our own play).

    python3 scripts/gnubg_rollout.py [--trials 1296] [--jobs 2] [--labels backgame,crashed]
        [--ids dev-c-0131,dev-c-0300] [--limit N] SET.jsonl OUT.jsonl

SET is an oracle set (`../shared/oracle/data/dev-cube.jsonl`; a moves set
works too, each position before its roll). Each record of OUT:
`{"id", "position_id", "label", "trials", "probs": [win, win gammon,
win backgammon, lose gammon, lose backgammon], "equity", "se", "label_equity"}`
for the side on roll, `label_equity` being the set's cubeless 2-ply value
where it has one. OUT is rewritten atomically after every batch (8
positions a job) and positions already in it are skipped, so a killed
run loses one batch at most and resumes. At the end a table by label compares the rollouts with the
labels.

gnubg 1.07 prints a rollout's result only when its standard output is a
terminal, so each job runs gnubg under `script` (util-linux) on a
pseudo-terminal and reads the result from that transcript. The same file
is the script gnubg runs (it is told so by GNUBG_ROLLOUT_POSITIONS).
"""
import os
import sys

INNER = os.environ.get("GNUBG_ROLLOUT_POSITIONS")

if INNER:
    import gnubg

    def cmd(c):
        gnubg.command(c)

    for c in ("set display off", "set jacoby off", "set beavers 0",
              "set automatic game off", "set automatic move off", "set automatic roll off",
              "set rng mersenne", "set threads 1", "set cube use off",
              "set player 0 human", "set player 1 human", "new session",
              "set rollout trials %s" % os.environ["GNUBG_ROLLOUT_TRIALS"],
              "set rollout cubeful off", "set rollout chequerplay plies 0",
              "set rollout varredn on", "set rollout quasirandom on",
              "set rollout seed %s" % os.environ["GNUBG_ROLLOUT_SEED"]):
        cmd(c)
    for pid in open(INNER).read().split():
        cmd("set board " + pid)
        print("=== BEGIN %s %s" % (pid, gnubg.positionid()))
        sys.stdout.flush()
        cmd("rollout")
        print("=== END %s" % pid)
        sys.stdout.flush()
else:
    import argparse
    import json
    import re
    import shutil
    import statistics
    import subprocess
    import tempfile

    RESULT = re.compile(
        r"Current Position:\s*\n\s*([\d.]+) ([\d.]+) ([\d.]+) - [\d.]+ ([\d.]+) ([\d.]+) CL\s*([+-]?[\d.]+)\s*\n"
        r"\s*\[[\d.]+ [\d.]+ [\d.]+ - [\d.]+ [\d.]+ [\d.]+ CL\s*([\d.]+)")

    def parse_transcript(text):
        """position id -> (probs, equity, se) for every finished rollout."""
        text = text.replace("\r", "\n")
        found = {}
        for seg in text.split("=== BEGIN ")[1:]:
            pid = seg.split()[0]
            if "=== END" not in seg or "Rollout done" not in seg:
                continue
            m = RESULT.search(seg[seg.rindex("Rollout done"):])
            if m:
                v = [float(x) for x in m.groups()]
                found[pid] = (v[:5], v[5], v[6])
        return found

    # Positions per gnubg job between two writes of OUT: a killed run loses at most one batch.
    BATCH_PER_JOB = 8

    def roll_out(pids, a):
        """Rolls out `pids` in `a.jobs` gnubg processes; position id -> (probs, equity, se)."""
        results = {}
        with tempfile.TemporaryDirectory() as tmp:
            procs = []
            for j in range(min(a.jobs, len(pids))):
                lst = os.path.join(tmp, "positions-%d" % j)
                with open(lst, "w") as f:
                    f.write("\n".join(pids[j::a.jobs]) + "\n")
                log = os.path.join(tmp, "transcript-%d" % j)
                env = dict(os.environ, GNUBG_ROLLOUT_POSITIONS=lst,
                           GNUBG_ROLLOUT_TRIALS=str(a.trials), GNUBG_ROLLOUT_SEED=str(a.seed))
                inner = "%s -t -q -r -p %s" % (a.gnubg, os.path.abspath(__file__))
                procs.append((subprocess.Popen(["script", "-q", "-c", inner, log], env=env,
                                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL), log))
            for p, log in procs:
                p.wait()
                results.update(parse_transcript(open(log, errors="replace").read()))
        return results

    def write_atomically(path, recs):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            for rec in recs:
                f.write(json.dumps(rec) + "\n")
        os.replace(tmp, path)

    def main():
        ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        ap.add_argument("set")
        ap.add_argument("out")
        ap.add_argument("--trials", type=int, default=1296)
        ap.add_argument("--seed", type=int, default=1)
        ap.add_argument("--jobs", type=int, default=2)
        ap.add_argument("--labels", default="", help="comma-separated labels to keep")
        ap.add_argument("--ids", default="", help="comma-separated record ids to keep")
        ap.add_argument("--limit", type=int, default=0)
        ap.add_argument("--gnubg", default="/usr/games/gnubg")
        a = ap.parse_args()
        if a.trials < 1 or a.jobs < 1:
            sys.exit("gnubg_rollout: --trials and --jobs must be at least 1")
        try:
            records = [json.loads(line) for line in open(a.set) if line.strip()]
        except (OSError, ValueError) as e:
            sys.exit("gnubg_rollout: cannot read %s: %s" % (a.set, e))
        labels = set(filter(None, a.labels.split(",")))
        ids = set(filter(None, a.ids.split(",")))
        records = [r for r in records if (not labels or r.get("label") in labels) and (not ids or r["id"] in ids)]
        if a.limit:
            records = records[:a.limit]
        done = {}
        if os.path.exists(a.out):
            try:
                for line in open(a.out):
                    if line.strip():
                        r = json.loads(line)
                        done[r["id"]] = r
            except (OSError, ValueError, KeyError) as e:
                sys.exit("gnubg_rollout: cannot read %s to resume it: %s" % (a.out, e))
        todo = [r for r in records if r["id"] not in done]
        for tool in (a.gnubg, "script"):
            if shutil.which(tool) is None:
                sys.exit("gnubg_rollout: %s not found (gnubg: apt-get install gnubg; script: util-linux)" % tool)
        # Several records may share a position; roll each position out once.
        pids = list(dict.fromkeys(r["position_id"] for r in todo))
        batch = a.jobs * BATCH_PER_JOB
        for start in range(0, len(pids), batch):
            results = roll_out(pids[start:start + batch], a)
            for r in todo:
                if r["position_id"] in results and r["id"] not in done:
                    probs, eq, se = results[r["position_id"]]
                    done[r["id"]] = {"id": r["id"], "position_id": r["position_id"], "label": r.get("label"),
                                     "trials": a.trials, "probs": probs, "equity": eq, "se": se,
                                     "label_equity": r.get("cubeless_equity")}
            write_atomically(a.out, done.values())
            print("gnubg_rollout: %d of %d positions rolled out" % (min(start + batch, len(pids)), len(pids)),
                  file=sys.stderr)
        for r in todo:
            if r["id"] not in done:
                print("gnubg_rollout: no result for %s" % r["id"], file=sys.stderr)
        summary([done[r["id"]] for r in records if r["id"] in done])

    def summary(recs):
        by = {}
        for r in recs:
            if r.get("label_equity") is not None:
                by.setdefault(r["label"], []).append(1000 * (r["equity"] - r["label_equity"]))
        print("rollout minus the set's 2-ply label, cubeless equity of the side on roll (mp):")
        print("%-10s %4s %9s %9s %11s" % ("label", "n", "mean", "mean |d|", "rollout se"))
        for lab in sorted(by, key=lambda k: -len(by[k])):
            d = by[lab]
            se = statistics.mean(1000 * r["se"] for r in recs if r["label"] == lab)
            print("%-10s %4d %+9.1f %9.1f %11.1f" % (lab, len(d), statistics.mean(d),
                                                    statistics.mean(abs(x) for x in d), se))

    main()
