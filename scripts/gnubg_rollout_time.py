"""Times GNU Backgammon's rollouts of the opening position, for
scripts/speed_vs_peers.sh: quasi-random dice, first without and then with
its variance reduction (lookahead), each reported as games a second. Run
inside gnubg:

    TRIALS=324 PLY=1 CUBEFUL=1 THREADS=2 gnubg -t -q -r -p scripts/gnubg_rollout_time.py

Settings come from the environment (gnubg hands a script no arguments):
TRIALS (default 1296); PLY (default 0) is the checker play's and, in a cubeful rollout, the cube
decisions' depth, with gnubg's own move filter for that depth (8 moves
within 0.16 after 0-ply) and its pruning nets; CUBEFUL is 1 for a cubeful
money rollout (default 0, cubeless); THREADS defaults to 1. It prints
`plain G` and `luck G` lines. Only the time is used: gnubg 1.07 prints a
rollout's result only to a terminal, which is not needed here.
"""
import os
import sys
import time

import gnubg

TRIALS = int(os.environ.get("TRIALS", "1296"))
PLY = int(os.environ.get("PLY", "0"))
CUBEFUL = os.environ.get("CUBEFUL", "0") == "1"
THREADS = int(os.environ.get("THREADS", "1"))
for c in ("set display off", "set jacoby off", "set beavers 0",
          "set automatic game off", "set automatic move off", "set automatic roll off",
          "set rng mersenne", "set threads %d" % THREADS, "set cube use %s" % ("on" if CUBEFUL else "off"),
          "set player 0 human", "set player 1 human", "new session",
          "set rollout trials %d" % TRIALS, "set rollout cubeful %s" % ("on" if CUBEFUL else "off"),
          "set rollout chequerplay plies %d" % PLY, "set rollout cubedecision plies %d" % PLY,
          "set rollout quasirandom on",
          "set rollout seed 1", "set board 4HPwATDgc/ABMA"):
    gnubg.command(c)
# The second rollout gets other dice, so that it does not replay the
# first one's games out of gnubg's evaluation cache.
for name, switch, seed in (("plain", "off", 1), ("luck", "on", 2)):
    gnubg.command("set rollout varredn " + switch)
    gnubg.command("set rollout seed %d" % seed)
    start = time.time()
    gnubg.command("rollout")
    print("%s %.3f" % (name, TRIALS / (time.time() - start)))
    sys.stdout.flush()
