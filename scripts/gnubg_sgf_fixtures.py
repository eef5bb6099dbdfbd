"""GNU Backgammon's .sgf of every fixture match: each tests/data/matches/
*.mat imported into gnubg and saved as .sgf beside it, so the .sgf reader
is checked against files gnubg wrote of the same games.

    /usr/games/gnubg -t -q -r -p scripts/gnubg_sgf_fixtures.py
"""
import glob
import os
import gnubg

DIR = os.environ.get("MATCH_DIR", "tests/data/matches")
for mat in sorted(glob.glob(os.path.join(DIR, "*.mat"))):
    gnubg.command(f"import mat {mat}")
    gnubg.command(f"save match {mat[:-4]}.sgf")
