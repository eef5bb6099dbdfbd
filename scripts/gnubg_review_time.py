"""Times GNU Backgammon's `analyse match` of one match file (chequer play,
cube decisions and luck, as `kotra-ai review` does), for
scripts/speed_vs_peers.sh. Run inside gnubg; the settings come from the
environment, since gnubg hands a script no arguments:

    MATCH=tests/data/matches/7-pt-104.mat PLY=2 THREADS=2 \\
        gnubg -t -q -r -p scripts/gnubg_review_time.py

PLY (default 2) is the depth of the chequer play's and the cube's
analysis, with gnubg's default filters; THREADS defaults to 1. It prints
`seconds S` and `decisions N` (the moves and cube decisions analysed).
"""
import os
import time

import gnubg

MATCH = os.environ.get("MATCH", "tests/data/matches/7-pt-104.mat")
PLY = int(os.environ.get("PLY", "2"))
THREADS = int(os.environ.get("THREADS", "1"))
for c in ("set display off", "set threads %d" % THREADS, "import mat " + MATCH,
          "set analysis chequerplay evaluation plies %d" % PLY,
          "set analysis cubedecision evaluation plies %d" % PLY):
    gnubg.command(c)
start = time.time()
gnubg.command("analyse match")
print("seconds %.3f" % (time.time() - start))
m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
print("decisions %d" % sum(1 for g in m["games"] for r in g["game"] if r["action"] in ("move", "double")))
