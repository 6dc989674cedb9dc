"""sapper: the sapper Minesweeper engine from Python.

Exact mine probabilities, every forced cell of a position, the sapper
player's move, whole games, and uniform no-guess boards, computed by the
Rust engine (``sapper-engine``) with the GIL released.

Boards
------
A *board* (what a player sees) is either

- a 2-D list or numpy array of ints in ms_toollib's encoding: 0-8 a
  revealed number, 10 closed, 11 flagged, 12 question mark (closed), and
  also 9 for a cell known safe without a number; or
- position text: a list of row strings such as ``["??1.", "?21.", "1F.."]``
  (``?`` closed, ``F`` flag, ``0``-``8`` a number, ``.`` a revealed 0,
  ``*`` known safe), optionally with a ``"mines N"`` line first, or the
  whole text as one string.

A *layout* (the truth) is a 2-D list or array of ints: -1 a mine, 0-8 the
numbers. Cells are ``[row, col]`` from 0 everywhere.

Errors
------
Bad values (ragged rows, unknown codes, empty or oversized boards, a
position no layout fits) raise ``ValueError`` with the engine's message;
values of the wrong type raise ``TypeError``.

Threads
-------
One engine is shared by every call and thread; each call that computes
releases the GIL, so other Python threads run meanwhile.
``probabilities_many``, ``generate`` and ``play`` use every core.

``sapper.compat`` offers ms_toollib's solver calls under their own names
and return shapes.
"""

from ._sapper import (
    __version__,
    analyse,
    count_layouts,
    generate,
    is_solvable,
    next_move,
    play,
    probabilities,
    probabilities_many,
)

__all__ = [
    "analyse",
    "count_layouts",
    "generate",
    "is_solvable",
    "next_move",
    "play",
    "probabilities",
    "probabilities_many",
]
