"""Write benches/positions.txt: 1000 contact and 1000 race positions
(Position IDs, side on roll) for the move-generation benchmark.

Positions come from gnubg play already in tests/data: every position after
a legal move in the dev set and the self-play fixture, turned to the view of
the next player on roll. A stable hash picks the sample, so the set never
changes unless this script does. Plain python3, run from the repository root.
"""
import base64
import hashlib
import json

import sys


def decode(pid):
    key = int.from_bytes(base64.b64decode(pid + "=="), "little")
    board = ([0] * 25, [0] * 25)
    side, idx = 0, 0
    for bit in range(80):
        if side == 2:
            break
        if key >> bit & 1:
            board[side][idx] += 1
        else:
            idx += 1
            if idx == 25:
                side, idx = side + 1, 0
    return board


def encode(board):
    key, bit = 0, 0
    for side in (0, 1):
        for n in board[side]:
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def contact(board):
    opp, me = board
    my_back = max([i + 1 for i in range(25) if me[i]] or [0])  # 25 = bar
    # the opponent's rearmost checker in my numbering: his point k is my 25-k
    opp_back = max([i + 1 for i in range(25) if opp[i]] or [0])
    return my_back + opp_back > 25


ids = set()
for name in ("tests/data/dev-moves.jsonl", "tests/data/gnubg-movegen.jsonl"):
    for line in open(name):
        r = json.loads(line)
        afters = [m["after_id"] for m in r["moves"]] if "moves" in r else r["after_ids"]
        for a in afters:
            b = decode(a)
            if sum(b[1]) == 0 or sum(b[0]) == 0:
                continue
            ids.add(encode((b[1], b[0])))

rank = sorted(ids, key=lambda i: hashlib.sha256(i.encode()).hexdigest())
chosen = {"contact": [], "race": []}
for i in rank:
    c = "contact" if contact(decode(i)) else "race"
    if len(chosen[c]) < 1000:
        chosen[c].append(i)
with open("benches/positions.txt", "w") as f:
    f.write("# Move-generation benchmark set: Position ID (side on roll) and class.\n")
    f.write("# Made by scripts/make_bench_positions.py from gnubg-played positions.\n")
    for c in ("contact", "race"):
        for i in chosen[c]:
            f.write("%s %s\n" % (i, c))
sys.stderr.write("contact %d race %d from %d positions\n" % (len(chosen["contact"]), len(chosen["race"]), len(ids)))
