"""Type stubs of the sapper package (see the package docstring)."""

from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

#: A board: a 2-D list/array of int codes, a list of row strings, or one text.
Board = Union[Sequence[Sequence[int]], npt.NDArray[np.integer], Sequence[str], str]
#: A layout: a 2-D list/array of ints, -1 a mine, 0-8 the numbers.
Layout = Union[Sequence[Sequence[int]], npt.NDArray[np.integer]]
Cell = List[int]
FirstClick = Union[Literal["opening", "safe"], Tuple[int, int]]

class BySource(TypedDict):
    rules: int
    single_cell: int
    linked_cells_1: int
    linked_cells_2: int
    hypotheses: int

class Analysis(TypedDict):
    safe: List[Cell]
    mines: List[Cell]
    deductions: List[Dict[str, Any]]
    by_source: BySource
    unknown_left: int

def probabilities(
    board: Board, mines: Optional[int] = None, density: Optional[float] = None
) -> npt.NDArray[np.float64]:
    """Mine probability of each closed cell (h×w float64), NaN elsewhere.

    ``mines`` sets (or overrides) the total; without a total, ``density``
    weighs a layout with k mines by d^k (1-d)^(n-k). Each value is within
    1e-12 of the exact fraction; forced cells are exactly 0 or 1.
    """

def probabilities_many(
    boards: Sequence[Board], mines: Optional[int] = None, density: Optional[float] = None
) -> List[npt.NDArray[np.float64]]:
    """``probabilities`` of many boards on all cores, in the order given."""

def count_layouts(board: Board, mines: Optional[int] = None) -> int:
    """The exact number of mine layouts that fit (a Python int)."""

def analyse(board: Board, mines: Optional[int] = None) -> Analysis:
    """Every forced cell, as ``sapper analyse --json``: safe, mines,
    deductions, by_source, unknown_left."""

def next_move(board: Board, mines: Optional[int] = None) -> Dict[str, Any]:
    """The player's move: ``{"open", "flag", "guess"[, "p_mine"]}``."""

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
    there. ``seed=None`` means seed 1: the same boards on every call.
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
    third_move: bool = False,
    policy: Literal["least", "informed", "second-safety"] = "second-safety",
    endgame_layouts: int = 1000,
    without: Sequence[Literal["free-fifties", "influence", "blend", "dead",
                              "off-frontier-cap", "isolated"]] = (),
) -> Dict[str, Any]:
    """Plays seeded games; the ``sapper play --json`` summary.

    ``policy``, ``endgame_layouts`` (0 to 65535; 0 turns the exact endgame
    off) and ``without`` (refinements turned off, to measure them) are the
    options of ``sapper play`` of those names. ``third_move`` looks three
    moves deep where the next move would be a guess too (``sapper play
    --with third-move``): slower, a little stronger. A name or count out of
    range is a ``ValueError``."""
