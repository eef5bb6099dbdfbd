#!/usr/bin/env python3
"""The campaign's batches whose labels are stalest, in the order a full
database relabels them (issue 70).

Once the database reaches its limit of bytes, new games can no longer be
added, but every batch labelled by an older network can still be
searched again by the teacher: the positions stay, the targets improve.
The oldest labels are the furthest from what the teacher now knows, so
they go first.

    python3 scripts/campaign_stale.py [--teacher FILE] [--data DIR] [--models DIR]

prints, on one line for `kotra-ai campaign relabel --seeds`, the seeds of
DIR's (training/data) batches whose labels' network is not FILE
(models/kotra.net): the oldest network first, networks ordered by the
number of their models/ file (kotra-v31 before kotra-v38); a network no
models/ file holds counts as older than every one. Ascending seeds within
a network. Prints nothing when every batch has the teacher's labels.
Exits 1 with one line when the manifest or the teacher cannot be read.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import sys


def fail(message):
    sys.exit(f"campaign_stale: {message}")


def sha256(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def versions(models):
    """Each versioned network's digest and its number."""
    numbered = {}
    for path in glob.glob(os.path.join(models, "kotra-v*.net")):
        found = re.fullmatch(r"kotra-v(\d+)\.net", os.path.basename(path))
        if found:
            numbered[sha256(path)] = int(found.group(1))
    return numbered


def stale_seeds(manifest, teacher_sha, numbered):
    """Seeds not labelled by the teacher, oldest labels first."""
    stale = [
        (numbered.get(batch["teacher_sha256"], -1), batch["seed"])
        for batch in manifest["batches"]
        if batch["teacher_sha256"] != teacher_sha
    ]
    return [seed for _, seed in sorted(stale)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", default="models/kotra.net")
    parser.add_argument("--data", default="training/data")
    parser.add_argument("--models", default="models")
    args = parser.parse_args()
    path = os.path.join(args.data, "manifest.json")
    try:
        with open(path) as f:
            manifest = json.load(f)
        seeds = stale_seeds(manifest, sha256(args.teacher), versions(args.models))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not a campaign manifest ({e})")
    print(",".join(str(seed) for seed in seeds))


if __name__ == "__main__":
    main()
