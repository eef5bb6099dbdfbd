"""kotra: the kotra-ai backgammon engine from Python.

Every call goes through the engine's analysis facade, so the numbers are
the command line's: ``Engine().analyze(pos, "31")`` returns what
``kotra-ai analyze ID --dice 31 --json`` prints, as Python objects.

>>> import kotra
>>> pos = kotra.Position("4HPwATDgc/ABMA")
>>> best = kotra.Engine().analyze(pos, "31")["moves"][0]["move"]
"""

from ._kotra import (
    DEFAULT_PLY,
    Engine,
    Error,
    Position,
    __version__,
    legal_moves,
)

__all__ = ["DEFAULT_PLY", "Engine", "Error", "Position", "__version__", "legal_moves"]
