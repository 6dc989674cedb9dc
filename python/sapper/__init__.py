"""sapper: the sapper Minesweeper engine from Python.

Exact mine probabilities, every forced cell of a position, the sapper
player's move, whole games, uniform no-guess boards, recorded games read
and reviewed click by click, and board metrics, computed by the Rust
engine (``sapper-engine``) with the GIL released.

Boards
------
A *board* (what a player sees) is either

- a 2-D list or numpy array of ints in ms_toollib's encoding: 0-8 a
  revealed number, 10 closed, 11 flagged, 12 question mark (closed), and
  also 9 for a cell known safe without a number; or
- position text: a list of row strings such as ``["??1.", "?21.", "1F.."]``
  (``?`` closed, ``F`` flag, ``0``-``8`` a number, ``.`` a revealed 0,
  ``*`` known safe), optionally with a ``"mines N"`` line first, or the
  whole text as one string (its rows on separate lines).

A *layout* (the truth) is a 2-D list or array of ints: -1 a mine, 0-8 the
numbers. Cells are ``[row, col]`` from 0 everywhere.

Replays
-------
``read_replay`` and ``review`` take a recorded game: a path (``str`` or
``os.PathLike``) to a Viennasweeper ``.rmv``, Metasweeper ``.evf``,
Arbiter ``.avf``, Minesweeper Clone ``.mvf`` or RAWVF file; the file's
bytes (with ``name="game.evf"``: ``.evf``, ``.avf`` and old ``.mvf``
files are told apart by the extension); or, for ``review``, the dict
``read_replay`` returned. A file that is not a replay is an
:class:`sapper.InputError` naming the file and the byte offset at fault;
a file that cannot be opened an ``OSError`` (``FileNotFoundError``, ...).
``review`` answers the object ``sapper review --json`` prints for the
file; ``metrics`` that of ``sapper metrics --json`` for a layout.

Errors
------
Every refusal is a :class:`sapper.Error`, a ``ValueError``:

- :class:`sapper.InputError`: the input describes no board, or an argument
  is out of range (ragged rows, unknown codes, empty or oversized boards,
  a total below the flags, an unknown name, a negative seed);
- :class:`sapper.ContradictionError`: a well-formed position no mine
  layout fits;
- :class:`sapper.BudgetError`: an exact computation would exceed the
  engine's budget (10 s and 1 GiB per computation): refused, not answered
  wrongly;
- :class:`sapper.Error` itself for the rest (no no-guess board found within
  the attempts allowed).

Values of the wrong type raise ``TypeError``.

Seeds
-----
``generate`` and ``play`` take ``seed``: the same seed gives the same
boards or games on any machine and thread count; ``seed=None`` (the
default) draws a fresh seed from the operating system, numpy's convention
(``play`` reports the seed it used).

Threads, processes and Ctrl-C
-----------------------------
One engine is shared by every call and thread; each call that computes
releases the GIL, so other Python threads run meanwhile.
``probabilities_many``, ``generate`` and ``play`` use every core, in a
thread pool of the package's own (``RAYON_NUM_THREADS`` threads if set)
that a forked child (``multiprocessing`` with ``fork``) rebuilds for
itself. These calls, and ``compat.laymine_solvable``, stop on Ctrl-C,
raising ``KeyboardInterrupt`` within a fraction of a second. So do the
calls on one board (``probabilities``, ``count_layouts``, ``analyse``,
``next_move``, ``is_solvable``): one still running after 0.05 s on the
calling thread is dropped and started again in the pool, where Ctrl-C
stops it (a board of more than 65,536 cells goes there at once); most
calls end long before and never leave the calling thread. Numpy arrays
given to ``probabilities_many`` are read in place without the GIL: do
not modify them from another thread during the call.

``sapper.compat`` offers ms_toollib's solver calls under their own names
and return shapes.
"""

from ._sapper import (
    BudgetError,
    ContradictionError,
    Error,
    InputError,
    __version__,
    analyse,
    count_layouts,
    generate,
    is_solvable,
    next_move,
    play,
    metrics,
    probabilities,
    probabilities_many,
    read_replay,
    review,
)
from ._types import (
    Analysis,
    BySource,
    Deduction,
    Guessing,
    Level,
    Metrics,
    Move,
    PlaySummary,
    Proof,
    Replay,
    ReplayEvent,
    ReplayHeader,
    Review,
    ReviewedMove,
    RulesByOrder,
)

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
