"""Times GNU Backgammon's 0-ply rollouts of the opening position, for
scripts/speed_vs_peers.sh: cubeless, one thread, quasi-random dice, first
without and then with its variance reduction (lookahead), each reported
as games a second. Run inside gnubg:

    gnubg -t -q -r -p scripts/gnubg_rollout_time.py [TRIALS]

It prints `plain G` and `luck G` lines. Only the time is used: gnubg 1.07
prints a rollout's result only to a terminal, which is not needed here.
"""
import sys
import time

import gnubg

TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 1296
for c in ("set display off", "set jacoby off", "set beavers 0",
          "set automatic game off", "set automatic move off", "set automatic roll off",
          "set rng mersenne", "set threads 1", "set cube use off",
          "set player 0 human", "set player 1 human", "new session",
          "set rollout trials %d" % TRIALS, "set rollout cubeful off",
          "set rollout chequerplay plies 0", "set rollout quasirandom on",
          "set rollout seed 1", "set board 4HPwATDgc/ABMA"):
    gnubg.command(c)
for name, switch in (("plain", "off"), ("luck", "on")):
    gnubg.command("set rollout varredn " + switch)
    start = time.time()
    gnubg.command("rollout")
    print("%s %.3f" % (name, TRIALS / (time.time() - start)))
    sys.stdout.flush()
