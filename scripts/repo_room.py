#!/usr/bin/env python3
"""How much of the repository's bound the campaign may still spend
(issue 70: the repository stays under 120 MB).

A relabelled batch replaces a file whose old version git keeps for good,
so every relabel the campaign commits grows the history by about one
compressed batch, and the database's own 80 MB limit does not stop it.
This script measures the repository as a clone would fetch it (a bare
clone, `git clone --bare --no-local`, of what is committed) and says
how much is left below the bound, less a reserve kept for what the
campaign exists to make: shipped networks, their recipes and the code.

    python3 scripts/repo_room.py                 one line: size, room left,
                                                 and about how many
                                                 relabels fit
    python3 scripts/repo_room.py --relabels      only that count (for
                                                 scripts/campaign_background.sh)
    python3 scripts/repo_room.py --fits FILE...  exits 1 with one line when
                                                 committing FILEs (new
                                                 versions) would spend more
                                                 than the room left (for
                                                 scripts/campaign_commit.sh)

KOTRA_REPO_LIMIT (bytes, default 120000000) and KOTRA_REPO_RESERVE
(bytes, default 3000000) override the bound and the reserve.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import zlib

def fail(message):
    sys.exit(f"repo_room: {message}")


def bytes_setting(name, default):
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        fail(f"{name}={text!r}: not a number of bytes")


LIMIT = bytes_setting("KOTRA_REPO_LIMIT", 120_000_000)
# About six shipped networks with their recipes and notes: the room a
# campaign block needs after its relabels.
RESERVE = bytes_setting("KOTRA_REPO_RESERVE", 3_000_000)


def clone_bytes():
    """The bytes a bare clone of the committed history takes."""
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "clone.git")
        done = subprocess.run(["git", "clone", "-q", "--bare", "--no-local", ".", target],
                              capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"cannot clone the repository: {done.stderr.strip()}")
        return sum(os.path.getsize(os.path.join(root, name))
                   for root, _, names in os.walk(target) for name in names)


def stored_bytes(path):
    """What git stores for a new version of the file: its zlib stream
    (a relabel shares no run of bytes long enough with the old version
    for a delta to pay)."""
    try:
        with open(path, "rb") as f:
            return len(zlib.compress(f.read(), 6))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def relabel_bytes():
    """A relabel's cost: the mean stored size of the database's batches."""
    batches = glob.glob("training/data/*.kpd")
    if not batches:
        return 0
    return sum(stored_bytes(path) for path in batches) // len(batches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--relabels", action="store_true")
    parser.add_argument("--fits", nargs="+", metavar="FILE")
    args = parser.parse_args()
    # The files as the caller named them, before the repository's root
    # becomes the working directory.
    fits = [os.path.abspath(path) for path in args.fits or []]
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    size = clone_bytes()
    room = max(0, LIMIT - RESERVE - size)
    mb = 1e6
    if fits:
        need = sum(stored_bytes(path) for path in fits)
        if need > room:
            fail(f"committing {len(fits)} new file{'' if len(fits) == 1 else 's'} would add about {need / mb:.1f} MB to "
                 f"a repository of {size / mb:.1f} MB, past the campaign's room of "
                 f"{room / mb:.1f} MB ({LIMIT / mb:.0f} MB less {RESERVE / mb:.1f} MB kept "
                 f"for networks); not committed")
        return
    per = relabel_bytes()
    relabels = room // per if per else 0
    if args.relabels:
        print(relabels)
        return
    print(f"repository {size / mb:.1f} MB (bare clone); campaign room {room / mb:.1f} MB "
          f"below {LIMIT / mb:.0f} MB less {RESERVE / mb:.1f} MB kept for networks; "
          f"about {relabels} relabels of {per / mb:.2f} MB")


if __name__ == "__main__":
    main()
