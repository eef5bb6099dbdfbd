#!/usr/bin/env python3
"""Keeps replaced position batches in git history rather than in the tree,
and brings back the ones a recipe needs (issue 70).

A relabel writes a batch anew under a new content-named file; the
manifest stops naming the old one and keeps its name in the new entry's
`relabelled` field. The recipes of the networks trained on the old labels
still name the old files. Kept in training/data/, every replaced batch
would weigh on each checkout; git history already holds them.

    python3 scripts/batch_history.py prune [--data DIR]
        removes from DIR (training/data) each .kpd file the manifest does
        not name, provided git history holds it as it is (so that it can
        come back); the commit of the removal is the caller's
    python3 scripts/batch_history.py restore RECIPE.json...
        writes back every .kpd file the recipes' `database` names that is
        missing, from the last commit that had it, checked against the
        content digest in its name (the leading hex digits of the bytes'
        SHA-256), to a temporary name and renamed
    python3 scripts/batch_history.py check RECIPE.json...
        restores nothing; exits 1 naming each missing file

Either command exits 1 with one line on what it cannot do (a file in
neither the tree nor history, as in a shallow clone: `git fetch
--unshallow`).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

BATCH_EXTENSION = ".kpd"


def fail(message):
    sys.exit(f"batch_history: {message}")


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, check=False)


def named_batches(recipe):
    """The `.kpd` paths a recipe's `database` names (a folder stands for
    its manifest's batches, which are in the tree by construction)."""
    try:
        with open(recipe) as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read recipe {recipe}: {e}")
    if not isinstance(config, dict):
        fail(f"{recipe}: not a recipe (a JSON object)")
    paths = []
    for entry in config.get("database", []):
        path = entry.get("path") if isinstance(entry, dict) else entry
        if isinstance(path, str) and path.endswith(BATCH_EXTENSION):
            paths.append(path)
    return paths


def missing_batches(recipes):
    missing = []
    for recipe in recipes:
        for path in named_batches(recipe):
            if not os.path.isfile(path) and path not in missing:
                missing.append(path)
    return missing


def from_history(path):
    """The bytes of `path` in the last commit that had it, or None."""
    last = git("rev-list", "-n", "1", "HEAD", "--", path)
    commit = last.stdout.decode().strip()
    if last.returncode != 0 or not commit:
        return None
    # The last commit touching a missing file is the one that removed it.
    for revision in (f"{commit}:{path}", f"{commit}^:{path}"):
        shown = git("show", revision)
        if shown.returncode == 0:
            return shown.stdout
    return None


def content_matches(path, data):
    """Whether `data` hashes to the content digest that ends the name."""
    stem = os.path.basename(path)[: -len(BATCH_EXTENSION)]
    digest = stem.rsplit("-", 1)[-1]
    return hashlib.sha256(data).hexdigest().startswith(digest)


def write_atomically(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".",
                               prefix=".restore-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def restore(recipes):
    missing = missing_batches(recipes)
    for path in missing:
        data = from_history(path)
        if data is None:
            fail(f"{path} is in neither the tree nor git history "
                 "(a shallow clone? git fetch --unshallow)")
        if not content_matches(path, data):
            fail(f"{path} in git history does not match the content digest "
                 "in its name")
        write_atomically(path, data)
        print(f"restored {path} ({len(data)} bytes)")
    print(f"{len(missing)} batch file(s) restored; every batch the recipes "
          "name is in the tree")


def check(recipes):
    missing = missing_batches(recipes)
    for path in missing:
        print(f"missing: {path}")
    sys.exit(1 if missing else 0)


def prune(data_dir):
    try:
        with open(os.path.join(data_dir, "manifest.json")) as f:
            named = {b["file"] for b in json.load(f)["batches"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"cannot read {data_dir}/manifest.json: {e}")
    removed = 0
    for name in sorted(os.listdir(data_dir)):
        if not name.endswith(BATCH_EXTENSION) or name in named:
            continue
        path = os.path.join(data_dir, name)
        with open(path, "rb") as f:
            kept = from_history(path) == f.read()
        if not kept:
            print(f"kept {path}: git history does not hold it as it is, so "
                  "it could not come back")
            continue
        os.remove(path)
        removed += 1
        print(f"removed {path}")
    print(f"{removed} replaced batch file(s) removed; `git add {data_dir}` "
          "records it")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    pr = sub.add_parser("prune", help="remove committed files the manifest no longer names")
    pr.add_argument("--data", default="training/data")
    for name in ("restore", "check"):
        s = sub.add_parser(name, help=f"{name} the batch files recipes name")
        s.add_argument("recipes", nargs="+", metavar="RECIPE")
    args = p.parse_args()
    # Recipes name their batches from the repository's root.
    recipes = [os.path.abspath(r) for r in getattr(args, "recipes", [])]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    data = os.path.relpath(os.path.abspath(getattr(args, "data", ".")), root)
    os.chdir(root)
    if args.command == "prune":
        prune(data)
    elif args.command == "restore":
        restore(recipes)
    else:
        check(recipes)


if __name__ == "__main__":
    main()
