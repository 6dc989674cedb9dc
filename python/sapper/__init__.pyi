"""Type stubs of the sapper package (see the package docstring)."""

import os
from typing import List, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._types import Analysis as Analysis
from ._types import BySource as BySource
from ._types import Cell as Cell
from ._types import Deduction as Deduction
from ._types import FirstClick as FirstClick
from ._types import Guessing as Guessing
from ._types import Level as Level
from ._types import Metrics as Metrics
from ._types import Move as Move
from ._types import PlaySummary as PlaySummary
from ._types import Proof as Proof
from ._types import Replay as Replay
from ._types import ReplayEvent as ReplayEvent
from ._types import ReplayHeader as ReplayHeader
from ._types import Review as Review
from ._types import ReviewedMove as ReviewedMove
from ._types import RulesByOrder as RulesByOrder

__all__ = [
    "Analysis",
    "BudgetError",
    "BySource",
    "ContradictionError",
    "Deduction",
    "Error",
    "Guessing",
    "InputError",
    "Level",
    "Metrics",
    "Move",
    "PlaySummary",
    "Proof",
    "Replay",
    "ReplayEvent",
    "ReplayHeader",
    "Review",
    "ReviewedMove",
    "RulesByOrder",
    "analyse",
    "count_layouts",
    "generate",
    "is_solvable",
    "metrics",
    "next_move",
    "play",
    "probabilities",
    "probabilities_many",
    "read_replay",
    "review",
]

__version__: str

#: A board: a 2-D list/array of int codes, a list of row strings, or one text.
Board = Union[Sequence[Sequence[int]], npt.NDArray[np.integer], Sequence[str], str]
#: A layout: a 2-D list/array of ints, -1 a mine, 0-8 the numbers.
Layout = Union[Sequence[Sequence[int]], npt.NDArray[np.integer]]
#: A replay file: its path, or its bytes.
ReplaySource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]
#: A layout for ``metrics``: rows of text (``*`` a mine, ``.`` safe), a 2-D
#: bool list or array (True a mine), or a layout of int codes.
MinesLayout = Union[Sequence[str], str, Sequence[Sequence[bool]], npt.NDArray[np.bool_], Layout]
#: The refinements ``play(without=...)`` can turn off.
Refinement = Literal[
    "free-fifties", "influence", "blend", "dead", "off-frontier-cap", "isolated", "third-move"
]

class Error(ValueError):
    """Raised when sapper cannot answer (a ``ValueError``)."""

class InputError(Error):
    """The input describes no board, or an argument is out of range."""

class ContradictionError(Error):
    """No mine layout fits the position."""

class BudgetError(Error):
    """An exact computation would exceed the engine's time or memory budget."""

def probabilities(
    board: Board, mines: Optional[int] = None, density: Optional[float] = None
) -> npt.NDArray[np.float64]:
    """Mine probability of each closed cell (h×w float64), NaN elsewhere.

    ``mines`` sets (or overrides) the total; without a total, ``density``
    weighs a layout with k mines by d^k (1-d)^(n-k). Each value is within
    1e-12 of the exact fraction; forced cells are exactly 0 or 1.
    """

def probabilities_many(
    boards: Union[Sequence[Board], npt.NDArray[np.integer]],
    mines: Union[None, int, Sequence[Optional[int]]] = None,
    density: Optional[float] = None,
) -> List[npt.NDArray[np.float64]]:
    """``probabilities`` of many boards on all cores, in the order given.

    ``boards``: a list of boards, or a 3-D integer array (a stack of
    boards). ``mines``: one total for every board, or a list of one per
    board (``None`` where the board gives its own). A line of text or a
    list of ints where a board is expected (a board's rows passed as
    boards) is an ``InputError``. Numpy arrays are read in place without
    the GIL. Stops on Ctrl-C between boards and within a board's count.
    """

def count_layouts(board: Board, mines: Optional[int] = None) -> int:
    """The exact number of mine layouts that fit (a Python int)."""

def analyse(board: Board, mines: Optional[int] = None) -> Analysis:
    """Every forced cell, as ``sapper analyse --json``: safe, mines,
    deductions, by_source, unknown_left."""

def next_move(
    board: Board, mines: Optional[int] = None, density: Optional[float] = None
) -> Move:
    """The player's move: ``{"open", "flag", "guess"[, "p_mine"]}``.

    Without a total, a guess weighs the closed cells by ``density``
    (default 0.2). On a finished game (no closed cell may be safe) the
    answer is ``{"open": [], "flag": [...], "guess": False, "game_over":
    True}``, ``flag`` listing the closed cells (every one a mine).
    """

def generate(
    rows: int,
    cols: int,
    mines: int,
    count: int = 1,
    seed: Optional[int] = None,
    first_click: FirstClick = "opening",
    method: Literal["uniform", "fast"] = "uniform",
) -> npt.NDArray[np.int8]:
    """``count`` no-guess layouts, shape (count, rows, cols), -1 a mine.

    ``first_click``: "opening" (an opening at (3,3), clamped into small
    boards), "safe" (a safe click at (0,0)) or (row, col) for an opening
    there. ``seed``: 0 to 2**64-1, the same boards for the same seed;
    ``None`` draws a fresh seed (numpy's convention). Stops on Ctrl-C
    within a layout's solve, however rare no-guess boards are.
    """

def is_solvable(layout: Layout, row: int, col: int) -> bool:
    """Whether no-guess play solves ``layout`` from a click on (row, col)."""

def play(
    level: Optional[Literal["beginner", "intermediate", "expert"]] = None,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    mines: Optional[int] = None,
    games: int = 1000,
    seed: Optional[int] = None,
    first_click: FirstClick = "safe",
    third_move: bool = True,
    policy: Literal["least", "informed", "second-safety"] = "second-safety",
    endgame_layouts: int = 1000,
    without: Union[Refinement, str, Sequence[Refinement]] = (),
) -> PlaySummary:
    """Plays seeded games; the ``sapper play --json`` summary.

    ``level`` (default expert) or ``rows``, ``cols`` and ``mines``.
    ``policy``, ``endgame_layouts`` (0 to 65535; 0 turns the exact endgame
    off) and ``without`` (refinements turned off, to measure them: one
    name, names separated by commas, or a list) are the options of
    ``sapper play`` of those names. ``third_move=False`` looks two moves
    deep, not three where the next move would be a guess too (``sapper play
    --without third-move``): faster, a little weaker. ``seed=None`` draws a fresh
    seed (reported as ``"seed"``). A name or count out of range is an
    ``InputError``. Stops on Ctrl-C.
    """

def read_replay(source: ReplaySource, name: Optional[str] = None) -> Replay:
    """A recorded game: its board, header, events and outcome.

    ``source``: a path, or the file's bytes (``name``, e.g. ``"game.evf"``,
    names them in errors and tells ``.evf``, ``.avf`` and old ``.mvf``
    files apart). A file that is not a replay is an ``InputError`` naming
    the file and the byte offset; one that cannot be opened an ``OSError``.
    """

def review(source: Union[ReplaySource, Replay], name: Optional[str] = None) -> Review:
    """The game reviewed click by click, as ``sapper review --json``:
    metrics, clicks, and every move's verdict with its exact probability.

    ``source``: a path (the answer then starts with ``"file"``), the
    file's bytes (with ``name`` as for ``read_replay``), or a dict from
    ``read_replay``. Runs without the GIL.
    """

def metrics(layout: MinesLayout) -> Metrics:
    """A layout's metrics, as ``sapper metrics --json``: 3BV, openings,
    islands, ZiNi and the count of each number."""
