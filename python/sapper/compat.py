"""ms_toollib-compatible solver calls, computed by sapper.

``import sapper.compat as ms`` lets a script written for ms_toollib 1.5.20
run its solver calls unchanged:

- ``cal_probability_onboard(game_board, mine_num)`` returns
  ``(probabilities, [min, cur, max])`` like ms_toollib: a list of lists of
  floats, 0.0 for every revealed cell; codes 0-8, 10 (closed), 11 (flag)
  and 12 (question mark) only, flags and question marks read as closed
  cells, as ms_toollib re-marks the board itself; ``mine_num`` of 1 or
  more is the total, below 1 a density (the total is
  ``floor(mine_num * rows * cols)``); ``min``/``max`` are the fewest and
  most mines a layout that fits the numbers can hold and ``cur`` the
  total used, clamped into them. A board with no closed cell, or one no
  layout fits (a contradiction), is answered with zeros and ``[0, 0, 0]``.
  ms_toollib answers so on a board with no closed cell and on the
  contradictions its marking pass leaves without a closed cell (such as
  ``[[3, 10], [10, 0]]``), and raises ``RuntimeError`` on the others
  (such as ``[[1, 10], [0, 0]]``): here every contradiction is answered
  alike. A total inside ``[min, max]`` that no layout can hold (the
  totals that fit can skip one) raises, as in ms_toollib. Every
  probability is exact (within 1e-12) on every board.
- ``laymine(row, column, mine_num, x0, y0)`` (safe first click),
  ``laymine_op(...)`` (an opening) and ``laymine_solvable(row, column,
  mine_num, x0, y0, max_times=1000000)`` (an opening, no-guess; returns
  ``(board, found)``): ``x0`` is the start's row, ``y0`` its column, the
  board a list of lists with -1 for a mine. Their randomness comes from
  Python's ``random`` module, so ``random.seed(...)`` makes them
  repeatable.
- ``is_solvable(board, x0, y0)``: whether no-guess play solves the layout
  from ``(x0, y0)``; a mine there is ``False``. sapper's solver knows the
  total number of mines, so it solves some boards ms_toollib's does not.

Errors are :class:`SapperError`, a ``RuntimeError`` like ms_toollib's and a
:class:`sapper.Error` (a ``ValueError``) like the rest of sapper's, raised
from the sapper error that says which (``InputError``,
``ContradictionError``, ...). ``laymine_solvable`` stops on Ctrl-C.
"""

import random as _random
from typing import List, Tuple

from . import _sapper

__all__ = [
    "SapperError",
    "cal_probability_onboard",
    "is_solvable",
    "laymine",
    "laymine_op",
    "laymine_solvable",
]


class SapperError(RuntimeError, _sapper.Error):
    """A board or argument sapper cannot answer (ms_toollib raises
    ``RuntimeError``); its ``__cause__`` is the sapper error."""


def _call(f, *args):
    try:
        return f(*args)
    except (ValueError, OverflowError) as e:
        raise SapperError(str(e)) from e


def _seed() -> int:
    return _random.getrandbits(64)


def cal_probability_onboard(
    game_board: List[List[int]], mine_num: float
) -> Tuple[List[List[float]], List[int]]:
    """Every cell's mine probability and ``[min, cur, max]`` mines."""
    try:
        mine_num = float(mine_num)
    except OverflowError:  # an int beyond float: more mines than any board holds
        mine_num = float("inf")
    return _call(_sapper._compat_probability_onboard, game_board, mine_num)


def laymine(row: int, column: int, mine_num: int, x0: int, y0: int) -> List[List[int]]:
    """A uniform layout with (x0, y0) safe: -1 a mine, 0-8 the numbers."""
    return _call(_sapper._compat_laymine, row, column, mine_num, x0, y0, _seed(), False)


def laymine_op(row: int, column: int, mine_num: int, x0: int, y0: int) -> List[List[int]]:
    """A uniform layout with (x0, y0) and its neighbours safe (an opening)."""
    return _call(_sapper._compat_laymine, row, column, mine_num, x0, y0, _seed(), True)


def laymine_solvable(
    row: int, column: int, mine_num: int, x0: int, y0: int, max_times: int = 1000000
) -> Tuple[List[List[int]], bool]:
    """A no-guess layout with an opening at (x0, y0), and whether one was
    found within ``max_times`` attempts (if not: a plain opening layout)."""
    return _call(
        _sapper._compat_laymine_solvable, row, column, mine_num, x0, y0, max_times, _seed()
    )


def is_solvable(board: List[List[int]], x0: int, y0: int) -> bool:
    """Whether no-guess play solves the layout ``board`` from (x0, y0)."""
    return _call(_sapper._compat_is_solvable, board, x0, y0)
