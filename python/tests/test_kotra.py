"""The Python package against the command line: the same questions give
the same answers, bad input raises kotra.Error with the same words, and a
long call stops on Ctrl-C.

The command line is found by $KOTRA_BIN, else in target/debug or
target/release (`cargo test` builds target/debug/kotra-ai).
"""

import json
import os
import pathlib
import signal
import subprocess
import threading
import time
import _thread

import numpy as np
import pytest

import kotra

ROOT = pathlib.Path(__file__).resolve().parents[2]
MATCHES = ROOT / "tests" / "data" / "matches"

# Opening, a race, a match score with a cube turned, an XGID with dice,
# a contact position with a checker on the bar.
IDS = [
    "4HPwATDgc/ABMA",
    "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "2+4OAADbdgAAAA:MAEAAAAAAAAE",
    "4HPwATDgc/ABMA:AQHgAEAAEAAE",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    "XGID=aBB-B-C-A---aB-a-bBcb-cb--:1:1:1:00:0:2:0:7:10",
    "sGfgATDgc/ABMA:cAkAAAAAAAAA",
]


def cli_binary():
    env = os.environ.get("KOTRA_BIN")
    if env:
        return env
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "kotra-ai"
        if path.exists():
            return str(path)
    raise RuntimeError(
        "no kotra-ai binary: run `cargo build` first or set KOTRA_BIN"
    )


def cli(*args, ok=True):
    done = subprocess.run(
        [cli_binary(), *args], capture_output=True, text=True, timeout=600
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def cli_json(*args):
    return json.loads(cli(*args, "--json").stdout)


@pytest.fixture(scope="module")
def engine():
    return kotra.Engine()


def positions():
    return [kotra.Position(i) for i in IDS]


# Notations


def test_each_notation_reads_back_to_the_same_position():
    for p in positions():
        assert kotra.Position(p.gnubg_id) == p
        assert kotra.Position(p.xgid) == p
        assert kotra.Position(p.position_id).position_id == p.position_id
        board = p.to_array()
        assert board.dtype == np.int8 and board.shape == (26,)
        again = kotra.Position.from_array(board)
        assert again.position_id == p.position_id
        assert hash(kotra.Position(p.gnubg_id)) == hash(p)


def test_ids_and_the_board_drawing_are_the_command_lines():
    for p in positions():
        shown = cli("show", p.gnubg_id).stdout
        assert str(p) == shown
        assert f"gnubg ID   : {p.gnubg_id}" in shown
        assert p.xgid in shown


def test_the_array_layout_is_the_documented_one():
    start = kotra.Position("4HPwATDgc/ABMA").to_array()
    # The side on roll: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6.
    assert [start[i] for i in (24, 13, 8, 6)] == [2, 5, 3, 5]
    # The opponent's 24-point is the side on roll's 1-point.
    assert [start[i] for i in (1, 12, 17, 19)] == [-2, -5, -3, -5]
    assert start[0] == 0 and start[25] == 0
    board = start.copy()
    board[6] -= 1
    board[25] = 1  # one checker of the side on roll on the bar
    p = kotra.Position.from_array(board)
    assert p.pip_counts == (167 - 6 + 25, 167)


def test_dice_score_and_cube_are_read():
    p = kotra.Position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert p.dice == (5, 2)
    assert p.match_length == 0 and p.cube_value == 1
    q = kotra.Position("4HPwATDgc/ABMA:AQHgAEAAEAAE")
    assert q.match_length == 7 and q.score == (4, 2) and q.cube_value == 2


def test_legal_moves_are_the_command_lines():
    for p in positions():
        for dice in ("31", "66", "52"):
            ours = kotra.legal_moves(p, dice)
            assert ours == cli_json("moves", p.gnubg_id, "--dice", dice)["moves"]
    assert kotra.legal_moves(IDS[0], (3, 1)) == kotra.legal_moves(IDS[0], "31")


# The engine against `kotra-ai ... --json`


def test_analyze_is_the_command_lines(engine):
    for p in positions():
        for ply in (0, 1):
            ours = engine.analyze(p, "43", ply=ply)
            theirs = cli_json(
                "analyze", p.gnubg_id, "--dice", "43", "--ply", str(ply)
            )
            assert ours == theirs
    # The dice an ID carries are used when none are given.
    withdice = IDS[4]
    assert engine.analyze(withdice, ply=0) == cli_json("analyze", withdice, "--ply", "0")


def before_the_roll():
    return [p for p in positions() if p.dice is None]


def test_cube_is_the_command_lines(engine):
    for p in before_the_roll():
        ours = engine.cube(p, ply=1)
        assert ours == cli_json("analyze", p.gnubg_id, "--ply", "1")
    assert len(before_the_roll()) >= 4


def test_evaluate_is_the_command_lines_cubeless_probabilities(engine):
    for p in before_the_roll():
        probs = engine.evaluate(p)
        assert probs.dtype == np.float32 and probs.shape == (5,)
        theirs = cli_json("analyze", p.gnubg_id, "--ply", "0")["probs"]
        assert np.allclose(probs, theirs, atol=1e-6)


def test_rollouts_with_the_same_seed_are_the_command_lines(engine):
    p = IDS[0]
    ours = engine.rollout(p, "31", trials=72, seed=7, candidates=3)
    theirs = cli_json(
        "rollout", p, "--dice", "31", "--trials", "72", "--seed", "7", "--candidates", "3"
    )
    assert ours == theirs
    assert all(m["equity"]["se"] > 0 for m in ours["moves"])
    ours = engine.rollout(p, trials=72, seed=3, cubeful=True, truncate=9)
    theirs = cli_json(
        "rollout", p, "--trials", "72", "--seed", "3", "--cubeful", "--truncate", "9"
    )
    assert ours == theirs
    assert "cube" in ours
    for ply, key, given, trials in [(1, "filter", "2:0.04", 36), (2, "middle", "2:0.1", 2)]:
        ours = engine.rollout(p, trials=trials, seed=3, ply=ply, truncate=3, **{key: given})
        theirs = cli_json(
            "rollout", p, "--trials", str(trials), "--seed", "3", "--ply", str(ply),
            f"--{key}", given, "--truncate", "3",
        )
        assert ours == theirs
        assert ours["move_filter" if key == "filter" else "middle_filter"] == given


def test_review_is_the_command_lines(engine):
    path = MATCHES / "3-pt-102.mat"
    theirs = cli_json("review", str(path), "--ply", "0")
    assert engine.review(path, ply=0) == theirs
    assert engine.review(str(path), ply=0) == theirs
    assert engine.review(path.read_text(), ply=0) == theirs
    sgf = MATCHES / "3-pt-102.sgf"
    assert engine.review(sgf, ply=0) == cli_json("review", str(sgf), "--ply", "0")
    assert len(theirs["players"]) == 2 and theirs["decisions"]


# Batches


def random_boards(n, seed=5):
    """Positions reached by random legal play from the start."""
    rng = np.random.default_rng(seed)
    out = []
    p = kotra.Position("4HPwATDgc/ABMA")
    while len(out) < n:
        dice = f"{rng.integers(1, 7)}{rng.integers(1, 7)}"
        moves = kotra.legal_moves(p, dice)
        if moves:
            nxt = moves[rng.integers(len(moves))]["position_id"]
        else:
            nxt = p.position_id
        # The position after the move is from the mover's view: the
        # opponent is on roll next.
        board = kotra.Position(nxt).to_array()
        p = kotra.Position.from_array(-board[::-1])
        out.append(p)
        if p.is_game_over:
            p = kotra.Position("4HPwATDgc/ABMA")
    return out


def test_a_batch_is_one_evaluation_a_row(engine):
    ps = random_boards(600)
    finished = [p for p in ps if p.is_game_over]
    assert finished, "no game ended in 600 random moves"
    for p in finished:
        # The side on roll has lost: no chance to win, the result's gammons.
        assert engine.evaluate(p)[0] == 0.0
    boards = np.stack([p.to_array() for p in ps])
    batch = engine.evaluate_batch(boards)
    assert batch.shape == (600, 5) and batch.dtype == np.float32
    for row, p in zip(batch, ps):
        assert np.array_equal(row, engine.evaluate(p))
    assert np.array_equal(engine.evaluate_batch(ps), batch)
    assert np.array_equal(engine.evaluate_batch([p.gnubg_id for p in ps]), batch)
    assert np.array_equal(engine.evaluate_batch(boards.astype(np.int64)), batch)
    # A view with a stride (every other row) reads the same rows.
    assert np.array_equal(engine.evaluate_batch(boards[::2]), batch[::2])
    assert engine.evaluate_batch(np.zeros((0, 26), np.int8)).shape == (0, 5)


# Bad input


def first_line_of_error(*args):
    done = cli(*args, ok=False)
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1]


def test_a_finished_game_is_shown_and_evaluated_but_not_analysed(engine):
    # Two checkers each on the 1-point; 21 bears off the last two of the
    # side on roll: the position after the move.
    board = np.zeros(26, np.int8)
    board[1], board[24] = 2, -2
    before = kotra.Position.from_array(board)
    after = kotra.legal_moves(before, "21")[0]["position_id"]
    p = kotra.Position(after)
    assert p.is_game_over
    assert str(p) == cli("show", after).stdout
    assert list(engine.evaluate(p)) == [1.0, 0.0, 0.0, 0.0, 0.0]
    for call in (
        lambda: engine.analyze(p, "31"),
        lambda: engine.cube(p),
        lambda: engine.rollout(p),
        lambda: kotra.legal_moves(p, "31"),
    ):
        with pytest.raises(kotra.Error) as raised:
            call()
        assert "the game is over" in str(raised.value)
    assert str(raised.value) in first_line_of_error("analyze", p.gnubg_id)


def test_a_bad_position_raises_the_command_lines_words():
    for bad in ("xyz", "4HPwATDgc/ABMA:zzzz", "XGID=nonsense", ""):
        with pytest.raises(kotra.Error) as raised:
            kotra.Position(bad)
        assert isinstance(raised.value, ValueError)
        assert str(raised.value) in first_line_of_error("show", bad)


def test_bad_settings_raise(engine):
    p = IDS[0]
    cases = [
        (lambda: engine.analyze(p, "31", ply=4), "ply 4: 0 to 3"),
        (lambda: engine.analyze(p, "31", ply=-1), "ply -1: 0 to 3"),
        (lambda: engine.analyze(p), "no dice"),
        (lambda: engine.analyze(p, "71"), "bad dice"),
        (lambda: engine.analyze(p, (0, 3)), "bad dice"),
        (lambda: engine.rollout(p, trials=0), "trials 0: 1 to 46656"),
        (lambda: engine.rollout(p, ply=3), "a rollout's checker play is 0 to 2-ply"),
        (lambda: engine.rollout(p, "31", candidates=0), "candidates 0"),
        (lambda: engine.rollout(p, truncate=0), "truncate 0"),
        (lambda: engine.rollout(p, ply=1, filter="0:0.1"), "KEEP:WINDOW"),
        (lambda: engine.rollout(p, ply=2, middle="none"), "skip or a move filter"),
        (
            lambda: engine.rollout("4HPwATDgc/ABMA:AQHgAEAAEAAE", cubeful=True),
            "money play only",
        ),
        (lambda: engine.review("/no/such/file.mat"), "cannot read /no/such/file.mat"),
        (lambda: engine.review("this is\nnot a match"), "the match text"),
        (lambda: engine.evaluate(42), "give a kotra.Position or an ID string"),
        (lambda: engine.evaluate_batch(np.zeros((3, 25), np.int8)), "(3, 25)"),
        (lambda: engine.evaluate_batch(np.full((2, 26), 1, np.int8)), "row 0"),
        (lambda: engine.evaluate_batch(np.zeros((2, 26), np.float64)), "integer array"),
        (lambda: engine.evaluate_batch(["4HPwATDgc/ABMA", "nope"]), "bad position"),
        (lambda: kotra.Position.from_array(np.zeros(25, np.int8)), "25 slots"),
        (lambda: kotra.Position.from_array([300] + [0] * 25), "300 checkers"),
        (lambda: kotra.Engine(model="/no/such/model.net"), "cannot read model file"),
    ]
    for call, words in cases:
        with pytest.raises(kotra.Error) as raised:
            call()
        assert words in str(raised.value), str(raised.value)
        assert "\n" not in str(raised.value)


def test_the_command_line_refuses_with_the_same_words():
    p = IDS[0]
    assert "ply 4: 0 to 3" in first_line_of_error("analyze", p, "--dice", "31", "--ply", "4")
    assert "trials 0: 1 to 46656" in first_line_of_error("rollout", p, "--trials", "0")


def test_a_corrupt_model_raises(tmp_path):
    bad = tmp_path / "corrupt.net"
    bad.write_bytes(b"not a model at all")
    with pytest.raises(kotra.Error) as raised:
        kotra.Engine(model=bad)
    assert str(raised.value) in first_line_of_error("analyze", IDS[0], "--model", str(bad))


def test_a_rust_panic_is_a_python_exception():
    with pytest.raises(BaseException) as raised:
        kotra._kotra._panic_for_tests("deliberate")
    assert type(raised.value).__name__ == "PanicException"
    assert "deliberate" in str(raised.value)
    # The interpreter lives on, and so does the engine.
    assert kotra.Position("4HPwATDgc/ABMA").pip_counts == (167, 167)


# Ctrl-C


class Interrupter:
    """Sends Ctrl-C to the main thread after `seconds`, then once a second
    until the `with` block ends: a lost first signal fails the test's
    one-second assertion instead of leaving a rollout of hours running.
    The block's end always stops the sender, so a call that ends early or
    raises something else fails its own test and leaves no Ctrl-C pending
    for the tests after it (or for pytest's own shutdown)."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.first = None
        self.late = None
        self.done = threading.Event()

    def __enter__(self):
        # A Python started in the background by a non-interactive shell
        # inherits SIGINT ignored and keeps it so: Ctrl-C (and
        # interrupt_main) then does nothing. Give it the handler an
        # interactive Python has.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def run(self):
        wait = self.seconds
        while not self.done.wait(wait):
            if self.first is None:
                self.first = time.monotonic()
            _thread.interrupt_main()
            wait = 1.0

    def __exit__(self, *exc):
        stopped = time.monotonic()
        self.done.set()
        self.thread.join()
        if self.first is not None:
            self.late = stopped - self.first
        return False


def test_ctrl_c_stops_a_long_rollout_within_a_second(engine):
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Interrupter(0.5) as ctrl_c:
        engine.rollout(IDS[0], "31", trials=46656, candidates=20, ply=1)
    assert ctrl_c.late < 1.0, ctrl_c.late
    assert time.monotonic() - start < 5.0
    # The engine answers the next question.
    assert engine.analyze(IDS[0], "31", ply=0)["moves"][0]["move"] == "8/5 6/5"


def test_ctrl_c_stops_a_review_and_a_large_batch(engine):
    with pytest.raises(KeyboardInterrupt), Interrupter(0.3) as ctrl_c:
        engine.review(MATCHES / "9-pt-106.mat", ply=2)
    assert ctrl_c.late < 1.0, ctrl_c.late
    # Contact positions: each is a network evaluation, where a race's
    # bear-off could be a table lookup that ends a batch before the
    # interrupt comes.
    boards = np.tile(kotra.Position(IDS[0]).to_array(), (3_000_000, 1))
    with pytest.raises(KeyboardInterrupt), Interrupter(0.3) as ctrl_c:
        engine.evaluate_batch(boards)
    assert ctrl_c.late < 1.0, ctrl_c.late


# The stub


def test_the_stub_declares_every_public_name_and_method():
    import ast

    stub = ast.parse((ROOT / "python" / "kotra" / "__init__.pyi").read_text())
    declared = {}
    for node in stub.body:
        if isinstance(node, ast.ClassDef):
            declared[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            }
        elif isinstance(node, ast.FunctionDef):
            declared[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            declared[node.target.id] = set()
    for name in kotra.__all__:
        assert name in declared, name
    for cls in (kotra.Engine, kotra.Position):
        public = {n for n in vars(cls) if not n.startswith("_")}
        assert public <= declared[cls.__name__], public - declared[cls.__name__]
    assert (ROOT / "python" / "kotra" / "py.typed").exists()
