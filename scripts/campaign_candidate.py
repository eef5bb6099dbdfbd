#!/usr/bin/env python3
"""Keeps the campaign candidate's list of deep batches in step with the
position database (issue 70).

The candidate recipe (training/campaign-candidate.json) trains on the
whole folder at `database_weight`, then lists every batch labelled at 3
plies or deeper again at a weight of its own, so that the deeper labels
count above the rest. A relabel gives a batch a new file (named by its
content) and a new labelling, and a new batch adds one, so a list kept by
hand goes stale without a word: the candidate would train the old 2-ply
labels at the deep weight, or leave new 3-ply batches at the common one.
This script writes the list from the manifest instead.

    python3 scripts/campaign_candidate.py [--config PATH] [--data DIR] [--weight W] [--check]

It keeps every other key of the recipe and the folder entry, and lists
the manifest's deep batches in seed order at `--weight` (by default the
weight the recipe already gives its listed batches). With `--check` it
writes nothing and exits 1, naming what differs, when the recipe is not
what it would write; `scripts/campaign_judge.sh` runs that before it
trains. The file is written whole to a temporary name and renamed.

    python3 scripts/campaign_candidate.py --freeze OUT --teacher models/kotra-vN.net

writes the shipped recipe of a judged candidate instead (the recipe read
as it is, not rewritten): the folder entry expanded to the batch files
its manifest names now, so that later batches and relabels leave the
recipe as it was judged, and the teacher and start network named by
their versioned file rather than `models/kotra.net`, which moves on.
Batches that landed after the judged run started are not its: give the
copies `scripts/campaign_judge.sh` kept when it started training,

    python3 scripts/campaign_candidate.py --config RUN.recipe.json \
        --manifest RUN.manifest.json --freeze OUT --teacher models/kotra-vN.net
"""
import argparse
import json
import os
import re
import sys
import tempfile

DEEP = re.compile(r"^(\d+)-ply")


def manifest_batches(data_dir, path=None):
    """The batch entries of the manifest at `path` (by default the one in
    `data_dir`), in seed order."""
    path = path or os.path.join(data_dir, "manifest.json")
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"campaign_candidate: cannot read {path}: {e}")
    return sorted(manifest.get("batches", []), key=lambda b: b["seed"])


def deep_batches(data_dir):
    """The manifest's batches whose labels come from a search of 3 plies
    or more, in seed order, as paths under `data_dir`."""
    deep = []
    for batch in manifest_batches(data_dir):
        m = DEEP.match(batch.get("labelling", ""))
        if m and int(m.group(1)) >= 3:
            deep.append(os.path.join(data_dir, batch["file"]))
    return deep


def manifest_files(data_dir, manifest=None):
    """Every batch file the manifest (`manifest`, or the one in
    `data_dir`) names, in seed order, as paths under `data_dir`."""
    return [os.path.join(data_dir, b["file"]) for b in manifest_batches(data_dir, manifest)]


def write_atomically(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".campaign-candidate.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def freeze(recipe, data_dir, teacher, out, manifest=None):
    """The shipped recipe: `recipe` with the folder expanded to the files
    `manifest` (by default the folder's own) names and `teacher` as
    teacher and start."""
    database = []
    for entry in recipe.get("database", []):
        database.extend(manifest_files(data_dir, manifest) if entry == data_dir else [entry])
    recipe["database"] = database
    recipe["distill_teacher"] = teacher
    recipe["init_model"] = teacher
    write_atomically(out, json.dumps(recipe, indent=2, ensure_ascii=False) + "\n")
    print(f"{out}: {len(database)} database entries, teacher and start {teacher}")


def listed_weight(database):
    """The weight the recipe gives its listed batches, if all agree."""
    weights = {e["weight"] for e in database if isinstance(e, dict)}
    if len(weights) > 1:
        sys.exit(f"campaign_candidate: the listed batches have several weights {sorted(weights)}; give --weight")
    return weights.pop() if weights else None


def render(recipe):
    """The recipe as the repository writes it: one key a line, one
    database entry a line."""
    lines = ["{"]
    keys = list(recipe)
    for i, key in enumerate(keys):
        comma = "," if i + 1 < len(keys) else ""
        value = recipe[key]
        if key == "database":
            entries = [f"    {json.dumps(e, separators=(', ', ': '))}" for e in value]
            lines.append('  "database": [')
            if entries:
                lines.append(",\n".join(entries))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", default="training/campaign-candidate.json")
    p.add_argument("--data", default="training/data")
    p.add_argument("--weight", type=int)
    p.add_argument("--check", action="store_true")
    p.add_argument("--freeze", metavar="OUT")
    p.add_argument("--teacher")
    p.add_argument("--manifest", help="with --freeze: the manifest the judged run trained on "
                   "(campaign_judge.sh keeps it as OUT/../NAME.manifest.json)")
    args = p.parse_args()
    if bool(args.freeze) != bool(args.teacher):
        sys.exit("campaign_candidate: --freeze OUT and --teacher PATH go together")
    try:
        with open(args.config) as f:
            text = f.read()
        recipe = json.loads(text)
    except (OSError, ValueError) as e:
        sys.exit(f"campaign_candidate: cannot read {args.config}: {e}")
    database = recipe.get("database", [])
    folders = [e for e in database if not isinstance(e, dict)]
    if args.data not in folders:
        sys.exit(f"campaign_candidate: {args.config} does not train on the folder {args.data}")
    if args.freeze:
        freeze(recipe, args.data, args.teacher, args.freeze, args.manifest)
        return
    weight = args.weight or listed_weight(database)
    if not weight:
        sys.exit("campaign_candidate: the recipe lists no batch at a weight of its own; give --weight")
    deep = deep_batches(args.data)
    recipe["database"] = folders + [{"path": path, "weight": weight} for path in deep]
    new = render(recipe)
    if args.check:
        if new == text:
            return
        old = {e["path"] for e in database if isinstance(e, dict)}
        added = sorted(set(deep) - old)
        dropped = sorted(old - set(deep))
        sys.stderr.write(
            f"campaign_candidate: {args.config} is stale: {len(added)} deep batches not listed "
            f"({', '.join(os.path.basename(a) for a in added[:3])}{'…' if len(added) > 3 else ''}), "
            f"{len(dropped)} listed that are not; run scripts/campaign_candidate.py\n"
        )
        sys.exit(1)
    write_atomically(args.config, new)
    print(f"{args.config}: {len(deep)} deep batches at weight {weight}")


if __name__ == "__main__":
    main()
