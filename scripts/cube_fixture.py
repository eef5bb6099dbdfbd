"""Make tests/data/gnubg-cube.jsonl from the oracle's dev cube set.

    python3 scripts/cube_fixture.py [ORACLE_DATA_DIR]

Keeps, for each of the 300 money cube decisions of
../shared/oracle/data/dev-cube.jsonl (GNU Backgammon 1.07, 2-ply cubeful,
no Jacoby, no beavers), the position, gnubg's 2-ply cubeless probabilities
and its cubeful equities of no double, double/take and double/pass. The
test `cube_model_decides_like_gnubg_on_gnubgs_probabilities` feeds the
probabilities to our cube model and scores its decisions against the
equities: it checks the cube model alone, apart from any network. Nothing
here is trained on.
"""
import json
import os
import sys

src = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "../shared/oracle/data", "dev-cube.jsonl")
keep = ["id", "gnubg_id", "gnubg_class", "label", "cubeless_probs", "nd", "dt", "dp", "action", "response"]
with open(src) as f, open("tests/data/gnubg-cube.jsonl", "w") as out:
    for line in f:
        r = json.loads(line)
        out.write(json.dumps({k: r[k] for k in keep}) + "\n")
