#!/bin/bash
# Commits what the campaign has finished in training/data/ (issue 70): the
# campaign itself commits nothing, and a session must commit its batches
# before it stops. For every batch file the manifest names that git does
# not have yet, one line of the message: a new batch (its positions, its
# teacher and labelling depth) or a relabelled one (what it replaced).
# Before it stages, it writes the candidate recipe's list of deep batches
# (scripts/campaign_candidate.py) and takes the files relabels replaced
# out of the tree (scripts/batch_history.py prune; git history keeps
# them), then runs tests/training_configs.rs, so a commit never leaves a
# recipe naming a batch nobody can find.
#
#   scripts/campaign_commit.sh [TEACHER_NAME]
#
# Teachers are named by the models/ file with their digest (else by the
# digest); TEACHER_NAME (e.g. kotra-v36) overrides the new labels' one.
# Exits 0 with "nothing new" when the manifest names no file git lacks,
# and 1, changing nothing, when the new files would take the repository
# past the campaign's room (scripts/repo_room.py; FORCE=1 overrides).
# DRY_RUN=1 prints the message and changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
teacher=${1:-}
message=$(python3 - "$teacher" <<'EOF'
import glob, hashlib, json, os, subprocess, sys

teacher = sys.argv[1]
# Networks by digest, so that a teacher is named as models/ names it
# (kotra.net is the alias of a versioned file).
names = {}
for path in sorted(glob.glob("models/*.net")):
    name = os.path.basename(path)[: -len(".net")]
    if name != "kotra":
        names[hashlib.sha256(open(path, "rb").read()).hexdigest()] = name


def named(sha):
    return names.get(sha, sha[:8])


manifest = json.load(open("training/data/manifest.json"))
tracked = set(subprocess.run(["git", "ls-files", "training/data"], capture_output=True,
                             text=True, check=True).stdout.split())
lines = []
for b in manifest["batches"]:
    if "training/data/" + b["file"] in tracked:
        continue
    who = teacher or named(b["teacher_sha256"])
    depth = b["labelling"].split(" ", 1)[0]
    was = b.get("relabelled")
    if was:
        lines.append(f"batch {b['seed']} relabelled ({b['positions']:,} positions, by {who} at "
                     f"{depth} in place of {named(was['teacher_sha256'])}'s "
                     f"{was['labelling'].split(' ', 1)[0]} labels)")
    else:
        lines.append(f"batch {b['seed']} ({b['positions']:,} positions, {who} at {depth})")
total = sum(b["positions"] for b in manifest["batches"])
if lines:
    print("Campaign: " + "; ".join(lines)
          + f" ({len(manifest['batches'])} batches, {total:,} positions; candidate list updated)")
EOF
)
if [ -z "$message" ]; then
  echo "nothing new"
  exit 0
fi
if [ -n "${DRY_RUN:-}" ]; then
  echo "$message"
  exit 0
fi
# New batch files (a relabel renames its batch) must fit the repository's
# bound; FORCE=1 commits them anyway.
mapfile -t new_files < <(git ls-files --others --exclude-standard -- 'training/data/*.kpd')
if [ ${#new_files[@]} -gt 0 ] && [ -z "${FORCE:-}" ]; then
  python3 scripts/repo_room.py --fits "${new_files[@]}"
fi
python3 scripts/campaign_candidate.py >/dev/null
python3 scripts/batch_history.py prune >/dev/null
# The tests that keep every recipe's batches findable (in the tree or
# named as replaced by the manifest), run on what is about to be committed.
cargo test --release --quiet --test training_configs >/dev/null
git add training/data training/campaign-candidate.json
git commit -q -m "$message"
git log --oneline -1
