"""Type stubs of kotra, the kotra-ai backgammon engine.

Reports are plain dicts and lists: exactly the JSON that
``kotra-ai ... --json`` prints, read back (floats rounded to six decimals).
"""

import os
from typing import Any, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str
DEFAULT_PLY: int

class Error(ValueError):
    """Bad input: a malformed ID or match file, an illegal setting, a
    missing or corrupt model. The message is the command line's one line."""

class Position:
    """A position: the board from the side on roll's view, the cube, the
    score and the dice. A finished game (the position after a winning
    move) is one too: it can be shown and evaluated; analyses refuse it."""

    def __init__(self, text: str) -> None:
        """Reads gnubg's ``PositionID:MatchID``, a bare Position ID (money,
        cube centred, player 0 on roll) or an ``XGID=...``."""
    @staticmethod
    def from_array(board: Union[npt.ArrayLike, Sequence[int]]) -> "Position":
        """A 26-slot integer board from the side on roll's view: slots 1-24
        its points in its own numbering (its checkers positive, the
        opponent's negative), slot 25 its bar (>= 0), slot 0 the
        opponent's bar (<= 0). Money play, cube centred, no dice."""
    def to_array(self) -> npt.NDArray[np.int8]:
        """The board as ``from_array`` reads it."""
    @property
    def gnubg_id(self) -> str: ...
    @property
    def position_id(self) -> str: ...
    @property
    def match_id(self) -> str: ...
    @property
    def xgid(self) -> str: ...
    @property
    def dice(self) -> Optional[Tuple[int, int]]:
        """The dice rolled, high die first, or None before the roll."""
    @property
    def match_length(self) -> int:
        """0 for money play."""
    @property
    def score(self) -> Tuple[int, int]:
        """Points won by gnubg's players 0 and 1."""
    @property
    def cube_value(self) -> int: ...
    @property
    def is_game_over(self) -> bool:
        """Whether a side has borne off all its checkers (shown and
        evaluated, never analysed)."""
    @property
    def pip_counts(self) -> Tuple[int, int]:
        """The side on roll's pips, then the opponent's."""
    def __str__(self) -> str:
        """The board drawn as ``kotra-ai show`` draws it."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

PositionLike = Union[Position, str]
DiceLike = Union[str, Tuple[int, int]]

class LegalMove(TypedDict):
    move: str
    position_id: str

def legal_moves(position: PositionLike, dice: Optional[DiceLike] = None) -> list[LegalMove]:
    """Every legal move of ``dice`` (the position's own dice when left
    out), in the move generator's order; empty when the roll is forfeited."""

class Engine:
    """The engine: a network (the shipped one by default) behind the
    analysis facade, keeping its evaluation caches from call to call.
    Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt)."""

    def __init__(self, model: Union[str, os.PathLike[str], None] = None) -> None: ...
    def analyze(
        self, position: PositionLike, dice: Optional[DiceLike] = None, ply: int = 2
    ) -> dict[str, Any]:
        """Every legal move ranked at ``ply`` (0-3), best first:
        ``{"ply", "moves": [{"move", "position_id", "equity", "diff",
        "cubeless_equity", "ply", "probs", "mwc"?, "explanation"?}]}``
        (the top five explained: why the best beats each, in facts and a
        sentence) as
        ``kotra-ai analyze ID --dice D --json``."""
    def cube(self, position: PositionLike, ply: int = 2) -> dict[str, Any]:
        """The cube decision before the roll: ``{"ply", "cube": {"no_double",
        "double_take", "double_pass", "action", "take"}, "cubeless_equity",
        "probs", "mwc", "mwc_actions"?, "explanation": {"wins",
        "gammon_share", "gammon_losses_share", "taker_chances", "take_point",
        "market_losers", "sentence"}}`` as ``kotra-ai analyze ID --json``."""
    def evaluate(self, position: PositionLike) -> npt.NDArray[np.float32]:
        """Cubeless probabilities for the side on roll, shape (5,): win, win
        gammon, win backgammon, lose gammon, lose backgammon (a finished
        game's result)."""
    def evaluate_batch(
        self, positions: Union[npt.ArrayLike, Sequence[PositionLike]]
    ) -> npt.NDArray[np.float32]:
        """``evaluate`` for each row of an (n, 26) integer array (the
        layout of ``Position.from_array``) or each position of a sequence,
        on all cores: shape (n, 5)."""
    def rollout(
        self,
        position: PositionLike,
        dice: Optional[DiceLike] = None,
        *,
        trials: int = 1296,
        ply: int = 0,
        seed: int = 1,
        cubeful: bool = False,
        truncate: Optional[int] = None,
        candidates: int = 8,
        variance_reduction: bool = True,
        filter: Optional[str] = None,
        middle: Optional[str] = None,
    ) -> dict[str, Any]:
        """With dice, the best ``candidates`` moves rolled out; without, the
        position and its cube decision. Every mean has its standard error
        (``{"mean", "se"}``), as ``kotra-ai rollout ... --json``.
        ``filter`` ("KEEP:WINDOW") sets a searching play's move filter,
        ``middle`` ("skip" or "KEEP:WINDOW") a 2-ply play's 1-ply pass."""
    def review(
        self, match_file: Union[str, os.PathLike[str]], ply: int = 2
    ) -> dict[str, Any]:
        """A played match (.mat or .sgf; a path, or the file's text)
        judged decision by decision: ``{"players", "games", "decisions",
        ...}`` as ``kotra-ai review FILE --json``."""
