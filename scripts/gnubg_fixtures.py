"""Make the gnubg reference fixtures used by `cargo test`.

Runs INSIDE GNU Backgammon 1.07 (apt-get install gnubg):
    gnubg -t -q -r -p scripts/gnubg_fixtures.py
with KOTRA_OUT (default tests/data) and KOTRA_DECISIONS (default 4000).

1. tests/data/gnubg-movegen.jsonl: (position, dice) pairs from noisy gnubg
   self-play, each with gnubg's full set of legal resulting positions.
   gnubg picks most moves (0-ply); some turns take a random legal move or a
   hitting move instead, which drives games into back games, crashed and
   closed boards and long stays on the bar. The legal moves are gnubg's own
   hint list (every move, 0-ply); each listed move is applied to the board
   to get its after-move Position ID (mover's view, not swapped).
2. tests/data/gnubg-xgid.jsonl: random XGIDs (board from the self-play,
   random cube, owner, turn, dice, scores, match length) with the
   PositionID:MatchID that gnubg's `set gnubgid XGID=...` makes of them.
   gnubg always makes the XGID's player on roll its player 1, so tests
   compare from the roller's point of view.

Nothing here is trained on: these are rules fixtures.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.environ.get("ORACLE_DIR", "../shared/oracle"))
import gnubg  # noqa: E402
import bgid  # noqa: E402

OUT = os.environ.get("KOTRA_OUT", "tests/data")
DECISIONS = int(os.environ.get("KOTRA_DECISIONS", "4000"))
rng = random.Random(20261121)


def cmd(c):
    gnubg.command(c)


def setup():
    for c in ["set display off", "set jacoby off", "set beavers 0", "set automatic game off",
              "set automatic move off", "set cube use off", "set player 0 human", "set player 1 human",
              "new session",
              "set evaluation chequerplay evaluation plies 0",
              "set evaluation chequerplay evaluation cubeful off"]:
        cmd(c)


def hint_moves(pid, dice):
    cmd("set board " + pid)
    assert gnubg.positionid() == pid, (pid, gnubg.positionid())
    cmd("set dice %d %d" % dice)
    try:
        return [h["move"] for h in gnubg.hint(5000)["hint"]]
    except Exception as e:  # gnubg raises when the roll cannot be played
        return None if "no legal" not in str(e).lower() and "no moves" not in str(e).lower() else []


def label(board, ply):
    cls = gnubg.classifypos(board, 0) if True else 0
    return bgid.phase_label(board, cls, ply), cls


def bar_or_closed(board):
    me, opp = board[1], board[0]
    tags = []
    if me[24]:
        tags.append("bar")
    if sum(1 for i in range(6) if opp[i] >= 2) >= 5 and me[24]:
        tags.append("closed")
    return tags


def self_play(out):
    n = 0
    games = 0
    while n < DECISIONS:
        games += 1
        board = bgid.decode_position_id("4HPwATDgc/ABMA")
        style = rng.random()  # per game: how wild the play is
        ply = 0
        while True:
            d = (rng.randint(1, 6), rng.randint(1, 6))
            if ply == 0:
                while d[0] == d[1]:
                    d = (rng.randint(1, 6), rng.randint(1, 6))
            pid = bgid.encode_position_id(board)
            moves = hint_moves(pid, d)
            if moves is None:
                raise SystemExit("hint failed for %s %s" % (pid, d))
            afters = sorted({bgid.move_to_after_id(board, m) for m in moves})
            lab, cls = label(board, ply)
            rec = {"position_id": pid, "dice": list(d), "label": lab, "gnubg_class": cls,
                   "tags": bar_or_closed(board), "after_ids": afters}
            out.write(json.dumps(rec) + "\n")
            n += 1
            if moves:
                r = rng.random()
                if r < style * 0.5:
                    m = rng.choice(moves)
                elif r < style * 0.8 and any("*" in x for x in moves):
                    m = rng.choice([x for x in moves if "*" in x])
                else:
                    m = moves[0]
                board = bgid.apply_move(board, bgid.parse_move(m))
            if sum(board[1]) == 0:
                break
            board = bgid.swap(board)
            ply += 1
            if n >= DECISIONS:
                break
    return games


def xgid_fixture(out, boards):
    cmd("set cube use on")  # otherwise gnubg ignores the XGID's cube
    letters_up = "ABCDEFGHIJKLMNO"
    for board in boards:
        # board = (opp, me) from the view of the player on roll; place it as
        # bottom or top at random and write the XGID by hand.
        turn = rng.choice([1, -1])
        bottom, top = (board[1], board[0]) if turn == 1 else (board[0], board[1])
        chars = []
        chars.append("-" if top[24] == 0 else letters_up[top[24] - 1].lower())
        for p in range(1, 25):
            if bottom[p - 1]:
                chars.append(letters_up[bottom[p - 1] - 1])
            elif top[24 - p]:
                chars.append(letters_up[top[24 - p] - 1].lower())
            else:
                chars.append("-")
        chars.append("-" if bottom[24] == 0 else letters_up[bottom[24] - 1])
        length = rng.choice([0, 0, 3, 5, 7, 11])
        cube = rng.choice([0, 0, 1, 2]) if length != 1 else 0
        owner = 0 if cube == 0 else rng.choice([1, -1])
        dice = rng.choice(["00", "%d%d" % (rng.randint(1, 6), rng.randint(1, 6))])
        if length:
            sb, st = rng.randrange(length), rng.randrange(length)
            craw = 1 if (length - sb == 1 or length - st == 1) and rng.random() < 0.5 else 0
        else:
            sb = st = 0
            craw = rng.choice([0, 1])
        x = "XGID=%s:%d:%d:%d:%s:%d:%d:%d:%d:10" % ("".join(chars), cube, owner, turn, dice, sb, st, craw, length)
        cmd("set gnubgid " + x)
        out.write(json.dumps({"xgid": x, "gnubg_id": gnubg.positionid() + ":" + gnubg.matchid()}) + "\n")


def main():
    setup()
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "gnubg-movegen.jsonl")
    with open(path + ".tmp", "w") as f:
        games = self_play(f)
    os.replace(path + ".tmp", path)
    sys.stderr.write("wrote %d decisions from %d games to %s\n" % (DECISIONS, games, path))
    recs = [json.loads(l) for l in open(path)]
    boards = [bgid.decode_position_id(r["position_id"]) for r in rng.sample(recs, min(300, len(recs)))]
    xpath = os.path.join(OUT, "gnubg-xgid.jsonl")
    with open(xpath + ".tmp", "w") as f:
        xgid_fixture(f, boards)
    os.replace(xpath + ".tmp", xpath)
    sys.stderr.write("wrote 300 XGIDs to %s\n" % xpath)


main()
