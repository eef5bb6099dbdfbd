#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora under fuzz/corpus/ from the
repository's fixtures (gnubg IDs, XGIDs, dev-set moves, training configs,
the other games' notations) and, for the binary formats, small files the
binary itself writes (models, checkpoints, bear-off caches).

Usage: scripts/fuzz_corpus.py [--bin target/release/kotra-ai]
Run from the repository root; the corpus is rewritten each time.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus")
PER_TARGET = 64


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(OUT, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def lines(path):
    with open(os.path.join(ROOT, path)) as f:
        return [json.loads(l) for l in f if l.strip()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kotra-ai"))
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"fuzz_corpus: {args.bin} not found: build with cargo build --release first")
    shutil.rmtree(OUT, ignore_errors=True)
    rng = random.Random(50)

    xgids = rng.sample(lines("tests/data/gnubg-xgid.jsonl"), PER_TARGET)
    for r in xgids:
        pos, mid = r["gnubg_id"].split(":")
        put("position_id", pos)
        put("match_id", mid)
        put("gnubg_id", r["gnubg_id"])
        put("gnubg_id", r["xgid"])
        put("xgid", r["xgid"])
    for r in rng.sample(lines("tests/data/gnubg-cube.jsonl"), 16):
        put("gnubg_id", r["gnubg_id"])

    dev = lines("tests/data/dev-moves.jsonl")
    for r in rng.sample(dev, PER_TARGET):
        move = rng.choice(r["moves"])["move"]
        put("move_text", f'{r["position_id"]}\n{r["dice"][0]}{r["dice"][1]}\n{move}')

    icelandic = [
        "start",
        "W: a11 g4 G; B: m10 n o p q d F5; B",
        "W: a15 first; B: m15 first; W",
        "W: s5 t5 u5; B: a5 b5 c5; W",
        "W: bar2 a13; B: off3 x12; B",
        "W: x1 off14; B: m15; W",
    ]
    for t in icelandic:
        put("icelandic_notation", t)
    for t in ["start", "start4", "S: Qe7 Db7 stash=0,1,0 scored=0,0,4; N: Qf2; S"]:
        put("icehouse_notation", t)

    for r in xgids[:16]:
        put(
            "ubgi",
            "ubgi\nisready\nset engine.cubeful true\nnewgame\n"
            f'position gnubgid {r["gnubg_id"]}\ndice 3 1\ngo chequer\ngo cube\n'
            f'position xgid {r["xgid"]}\ngo cube\nkeys\nget engine.ply\nquit\n',
        )

    matches = os.path.join(ROOT, "tests", "data", "matches")
    for name in sorted(os.listdir(matches)):
        with open(os.path.join(matches, name)) as f:
            put("sgf_file" if name.endswith(".sgf") else "mat_file", f.read())

    for name in sorted(os.listdir(os.path.join(ROOT, "training"))):
        path = os.path.join(ROOT, "training", name)
        if not name.endswith(".json"):
            continue
        with open(path) as f:
            text = f.read()
        target = "game_train_config" if '"round_games"' in text else "train_config"
        put(target, text)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, KOTRA_CACHE_DIR=os.path.join(tmp, "cache"))

        def run(*cmd):
            subprocess.run([args.bin, *cmd], check=True, env=env, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        bg = os.path.join(tmp, "bg.json")
        with open(bg, "w") as f:
            json.dump({"contact_hidden": 8, "race_hidden": 8, "games": 4, "games_per_step": 2,
                       "measure_every": 1000, "measure_games": 2}, f)
        run("train", "--quiet", "--config", bg, "--out", os.path.join(tmp, "bg"),
            "--dev-set", os.path.join(ROOT, "tests", "data", "dev-moves.jsonl"))
        with open(os.path.join(tmp, "bg", "model.net"), "rb") as f:
            put("model_file", f.read())
        with open(os.path.join(tmp, "bg", "checkpoint.bin"), "rb") as f:
            put("checkpoint", f.read())
        house = os.path.join(tmp, "house.json")
        with open(house, "w") as f:
            json.dump({"hidden": 8, "games": 4, "round_games": 2, "lambda": 0.7, "lr": 0.001,
                       "batch": 16, "explore": 0.0, "seed": 3}, f)
        run("--game", "icehouse-kotra", "train", "--quiet", "--config", house,
            "--out", os.path.join(tmp, "house"))
        with open(os.path.join(tmp, "house", "model.net"), "rb") as f:
            put("game_model_file", f.read())
        # Bear-off caches are megabytes: their frame headers and a slice
        # of each table are enough to steer the fuzzer.
        run("analyze", "EwAAsAEAAAAAAA", "--ply", "0")
        for name in os.listdir(os.path.join(tmp, "cache")):
            with open(os.path.join(tmp, "cache", name), "rb") as f:
                put("bearoff_cache", f.read(4096))
    for target in sorted(os.listdir(OUT)):
        print(f"{target}: {len(os.listdir(os.path.join(OUT, target)))} seeds")


if __name__ == "__main__":
    main()
