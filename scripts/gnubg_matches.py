"""Plays matches between two gnubg players of different noise, inside GNU
Backgammon, and exports each as .mat and .sgf: the fixtures the match
reader is checked against (tests/data/matches/).

    /usr/games/gnubg -t -q -r -p scripts/gnubg_matches.py

Writes to $MATCH_DIR (default tests/data/matches); with MATCH_SGF=1 also
the .sgf files (large: gnubg stores its evaluations in them). Each file is named
LENGTH-pt-SEED (money sessions: money-SEED) and its players' noise is in
the list below; gnubg's own RNG and seed make the games reproducible.
MATCH_SET=comparison plays the 30 matches of the comparison with gnubg's
own analysis instead.
"""
import os
import gnubg

OUT = os.environ.get("MATCH_DIR", "tests/data/matches")
# (match length, seed, noise of player 0, noise of player 1)
MATCHES = [
    (1, 101, 0.0, 0.06),
    (3, 102, 0.02, 0.1),
    (5, 103, 0.0, 0.04),
    (7, 104, 0.06, 0.0),
    (7, 105, 0.1, 0.02),
    (9, 106, 0.04, 0.08),
]
MONEY = [(201, 0.0, 0.06), (202, 0.08, 0.02)]
# MATCH_SET=comparison: 30 matches of 3, 5 and 7 points whose players
# range over noise 0 to 0.1, for scripts/review_vs_gnubg.py (not fixtures).
if os.environ.get("MATCH_SET") == "comparison":
    MATCHES = [(3 + 2 * (i % 3), 1001 + i, (i * 7 % 11) / 100, (i * 3 + 5) % 11 / 100)
               for i in range(30)]
    MONEY = []


def players(n0, n1):
    for p, noise in ((0, n0), (1, n1)):
        gnubg.command(f"set player {p} gnubg")
        for what in ("chequerplay", "cubedecision"):
            gnubg.command(f"set player {p} {what} evaluation plies 0")
            gnubg.command(f"set player {p} {what} evaluation noise {noise}")
            gnubg.command(f"set player {p} {what} evaluation deterministic on")


def save(name):
    gnubg.command(f"export match mat {OUT}/{name}.mat")
    if os.environ.get("MATCH_SGF"):
        gnubg.command(f"save match {OUT}/{name}.sgf")


os.makedirs(OUT, exist_ok=True)
gnubg.command("set automatic game on")
gnubg.command("set automatic roll on")
gnubg.command("set jacoby off")
for length, seed, n0, n1 in MATCHES:
    players(n0, n1)
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"set matchlength {length}")
    gnubg.command("new match")
    save(f"{length}-pt-{seed}")
# A money session never ends by itself: one game at a time. One beaver
# at most (gnubg allows raccoons by default; our rules do not).
gnubg.command("set automatic game off")
gnubg.command("set beavers 1")
for seed, n0, n1 in MONEY:
    players(n0, n1)
    gnubg.command(f"set seed {seed}")
    gnubg.command("new session")
    for _ in range(2):
        gnubg.command("new game")
    save(f"money-{seed}")
