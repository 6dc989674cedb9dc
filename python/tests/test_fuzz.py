"""Random calls of every function of sapper and sapper.compat, with random
arguments of every kind (valid, out of range, of the wrong type, huge,
empty, odd numpy arrays): each answers or raises TypeError or ValueError
(sapper.Error, compat.SapperError) — never a PanicException (a Rust panic
crossing into Python), never another exception.

SAPPER_FUZZ_CALLS sets the number of calls (default 3000; the acceptance
run uses 100000), SAPPER_FUZZ_SEED the seed (default 1)."""

import os
import random
import time
from collections import Counter

import numpy as np

import sapper
import sapper.compat as compat

CALLS = int(os.environ.get("SAPPER_FUZZ_CALLS", "3000"))
SEED = int(os.environ.get("SAPPER_FUZZ_SEED", "1"))

HUGE = [2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64, 2 ** 70, -(2 ** 63) - 1, -(2 ** 70)]
CODES = list(range(-2, 15)) + HUGE
TEXT = "?F.*012345678x9 \t"
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float64, np.bool_, ">i4", "<u2", object]


def pick(rng, values):
    return values[rng.randrange(len(values))]


def either(rng, valid, invalid=()):
    """Mostly a valid value; else one of `invalid` or any value at all."""
    if rng.random() < 0.93:
        return pick(rng, valid)
    if invalid and rng.random() < 0.5:
        return invalid(rng) if callable(invalid) else pick(rng, invalid)
    return number(rng)


def small_int(rng):
    return pick(rng, [-1, 0, 1, 2, 3, 4, 5, 8] + [1001, 2 ** 33] + HUGE[:2])


def number(rng):
    """Any scalar a numeric argument might be given."""
    return pick(rng, [None, 0, 1, 2, 3, 7, 10, 99, -1, -5, 0.5, 1.5, 0.2, -0.1, float("nan"),
                      float("inf"), "3", b"1", [], True, np.int64(4), np.float32(0.3)] + HUGE)


def code_grid(rng):
    rows, cols = rng.randint(0, 6), rng.randint(0, 6)
    common = [0, 1, 2, 3, 10, 10, 10, 11, 12]
    return [[pick(rng, common) if rng.random() < 0.9 else pick(rng, CODES)
             for _ in range(cols)] for _ in range(rows)]


def layout_grid(rng):
    """A layout, mostly consistent (its numbers from its mines)."""
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    mines = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.25}
    grid = [[-1 if (r, c) in mines else sum((a, b) in mines for a in range(r - 1, r + 2)
                                            for b in range(c - 1, c + 2))
             for c in range(cols)] for r in range(rows)]
    if rng.random() < 0.3:
        grid[rng.randrange(rows)][rng.randrange(cols)] = pick(rng, CODES)
    return grid


def position(rng):
    """A consistent board: a random layout, some safe cells revealed, some
    mines flagged (ms_toollib's codes)."""
    grid = layout_grid(rng)
    return [[(11 if rng.random() < 0.2 else 10) if v == -1 else
             (v if rng.random() < 0.6 and isinstance(v, int) and 0 <= v <= 8 else 10)
             for v in row] for row in grid]


def text_rows(rng):
    rows, cols = rng.randint(0, 5), rng.randint(0, 5)
    out = ["".join(pick(rng, TEXT) for _ in range(cols + (rng.random() < 0.1)))
           for _ in range(rows)]
    if rng.random() < 0.3:
        out.insert(0, f"mines {pick(rng, [0, 1, 3, -2, 'x', 2 ** 40])}")
    return out


def board(rng):
    """Any value a board argument might be given."""
    kind = rng.randrange(24)
    if kind >= 16:
        return position(rng)
    if kind >= 14:
        from positions import expert_positions
        return expert_positions(rng.randrange(10 ** 6), 1)[0]
    if kind < 4:
        return code_grid(rng)
    if kind == 4:
        return layout_grid(rng)
    if kind < 7:
        return text_rows(rng)
    if kind == 7:
        return "\n".join(text_rows(rng))
    if kind < 10:
        grid = code_grid(rng)
        dtype = pick(rng, DTYPES)
        try:
            a = np.array(grid, dtype=dtype)
        except (OverflowError, ValueError):
            a = np.array([[10, 1]], dtype=dtype)
        if rng.random() < 0.3 and a.ndim == 2:
            a = a.T if rng.random() < 0.5 else a[:, ::2]
        if rng.random() < 0.2:
            a = a.reshape(-1) if rng.random() < 0.5 else a[None]
        return a
    if kind == 10:
        return [tuple(row) for row in code_grid(rng)]
    return pick(rng, [None, 3, 2.5, "", "?", {"a": 1}, {1, 2}, [[]], [], [[None]], [[1.5]],
                      [10, 10], ["??", [10]], [[10], "??"], [[[10]]], np.zeros(()),
                      np.zeros((2, 0)), b"??", iter([[10]]), [[True, False]]])


def first_click(rng):
    return pick(rng, [None, "opening", "safe", "middle", (0, 0), [1, 1], (2, 2), (9, 9),
                      (-1, 0), [1], [1, 2, 3], np.array([1, 1]), 3.5, "", (2 ** 70, 0),
                      ("a", 1)])


def names(rng):
    return pick(rng, [None, (), [], "influence", "blend,dead", "bland", ["blend"],
                      ["third-move"], 3, [3], "", ",", {"blend": 1}, ("isolated", "blend")])


def board_and_total(rng):
    """A board and a total: mostly a consistent position and its number of
    mines, else any board and any total."""
    if rng.random() < 0.6:
        grid = layout_grid(rng)
        total = sum(v == -1 for row in grid for v in row)
        board = [[(11 if rng.random() < 0.2 else 10) if v == -1 else
                  (v if rng.random() < 0.6 and isinstance(v, int) and 0 <= v <= 8 else 10)
                  for v in row] for row in grid]
        return board, either(rng, [total, total, None], [total + 1, -1])
    return globals()["board"](rng), either(rng, [None, 0, 1, 2, 3, 99])


def args_probabilities(rng):
    b, mines = board_and_total(rng)
    return (b,), {"mines": mines, "density": either(rng, [None, 0.2, 0.5], [0, 1.5])}


def args_many(rng):
    kind = rng.randrange(6)
    if kind == 0:
        grid = [[x % 16 for x in row] for row in code_grid(rng)]
        boards = np.array([grid] * rng.randint(0, 3), dtype=pick(rng, DTYPES[:8]))
        mines = either(rng, [None, 1, 3])
    elif kind == 1:
        boards = pick(rng, [None, 3, "???", ["???", "???"], [[10, 10]], {}, [None]])
        mines = None
    else:
        pairs = [board_and_total(rng) for _ in range(rng.randint(0, 4))]
        boards = [b for b, _ in pairs]
        mines = either(rng, [[m for _, m in pairs]],
                       [[1] * (len(pairs) + 1), "x", [-1] * len(pairs)])
    return (boards,), {"mines": mines, "density": either(rng, [None, 0.2])}


def args_board_mines(rng):
    b, mines = board_and_total(rng)
    return (b,), {"mines": mines}


def args_next_move(rng):
    b, mines = board_and_total(rng)
    return (b,), {"mines": mines, "density": either(rng, [None, 0.1, 0.5], [0.0, 2])}


def args_generate(rng):
    rows = either(rng, [4, 5, 6, 8], [0, 1, 2, 1001, 2 ** 70, -1])
    cols = either(rng, [4, 5, 6, 8], [0, 1, 2, 1001, 2 ** 40, -1])
    # Few mines: a no-guess board is found in a few attempts (a dense tiny
    # board can take the full million).
    mines = either(rng, [0, 1, 2, 3], [-1, 2 ** 70, 10 ** 6, 40])
    click = either(rng, [None, "opening", (1, 1), [2, 2], np.array([2, 1])],
                   [(9, 9), "middle", "safe", [1], (-1, 0), 3.5])
    if isinstance(click, str) and click == "safe":
        # A safe first click on a tiny board is rarely no-guess.
        rows, cols, mines = pick(rng, [6, 8]), pick(rng, [6, 8]), pick(rng, [0, 1])
    kwargs = {"count": either(rng, [0, 1, 2, 3], [-1, 2 ** 70]),
              "seed": either(rng, [None, 0, 1, 2 ** 64 - 1], [-1, 2 ** 64]),
              "method": either(rng, ["uniform", "fast"], ["magic"]), "first_click": click}
    return (rows, cols, mines), kwargs


def args_is_solvable(rng):
    return (pick(rng, [layout_grid(rng), layout_grid(rng), board(rng)]),
            either(rng, [0, 1, 2], [9, -1, 2 ** 70]), either(rng, [0, 1, 2], [9, -1])), {}


def args_play(rng):
    kwargs = {"games": either(rng, [1, 2], [0, -1, 2 ** 70]),
              "seed": either(rng, [None, 1, 7], [-1, 2 ** 64]),
              "first_click": either(rng, [None, "safe", "opening", (1, 1), [2, 2]], first_click),
              "third_move": either(rng, [False, True], [1, "x"]),
              "policy": either(rng, ["least", "informed", "second-safety"], ["greedy", 3]),
              "endgame_layouts": either(rng, [0, 10, 1000, 65535], [65536, -1, 2 ** 70]),
              "without": either(rng, [None, (), "influence", "blend,dead", ["isolated"]], names)}
    if rng.random() < 0.5:
        kwargs["level"] = either(rng, ["beginner", "intermediate", "expert"], ["master", 3])
    else:
        kwargs.update(rows=either(rng, [3, 5, 9], [0, -1, 2 ** 70]),
                      cols=either(rng, [3, 5, 9], [0, 1001]),
                      mines=either(rng, [0, 1, 3], [-1, 2 ** 40, 81]))
    if rng.random() < 0.05:
        kwargs["level"] = "beginner"  # and rows: refused
    return (), kwargs


def args_onboard(rng):
    return (pick(rng, [code_grid(rng), position(rng), position(rng), board(rng)]),
            either(rng, [0, 1, 2, 5, 99, 0.2, 1e9])), {}


def args_laymine(rng):
    rows, cols = either(rng, [3, 5, 9], [0, 1, 2 ** 70]), either(rng, [3, 5, 9], [1001, -1])
    return (rows, cols, either(rng, [0, 1, 3], [-1, 10 ** 6]), either(rng, [0, 1, 2], [4, -1]),
            either(rng, [0, 1, 2], [9, 2 ** 64])), {}


def args_laymine_solvable(rng):
    args, _ = args_laymine(rng)
    return args + (either(rng, [1, 5, 50], [0, -1, 2 ** 70]),), {}


def args_compat_is_solvable(rng):
    return (pick(rng, [layout_grid(rng), board(rng)]), either(rng, [0, 1, 2], [-1, 9]),
            either(rng, [0, 1, 2], [2 ** 70])), {}


FUNCTIONS = [
    (sapper.probabilities, args_probabilities),
    (sapper.probabilities_many, args_many),
    (sapper.count_layouts, args_board_mines),
    (sapper.analyse, args_board_mines),
    (sapper.next_move, args_next_move),
    (sapper.generate, args_generate),
    (sapper.is_solvable, args_is_solvable),
    (sapper.play, args_play),
    (compat.cal_probability_onboard, args_onboard),
    (compat.laymine, args_laymine),
    (compat.laymine_op, args_laymine),
    (compat.laymine_solvable, args_laymine_solvable),
    (compat.is_solvable, args_compat_is_solvable),
]


def test_random_calls_never_panic():
    rng = random.Random(SEED)
    outcomes = Counter()
    failures = []
    t0 = time.perf_counter()
    for i in range(CALLS):
        f, make = FUNCTIONS[i % len(FUNCTIONS)]
        args, kwargs = make(rng)
        kwargs = {k: v for k, v in kwargs.items() if v is not None or rng.random() < 0.5}
        try:
            f(*args, **kwargs)
            outcomes["answered"] += 1
        except (TypeError, ValueError) as e:
            outcomes[type(e).__name__] += 1
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # PanicException derives from BaseException
            outcomes[type(e).__name__] += 1
            if len(failures) < 20:
                failures.append(f"call {i}: {f.__module__}.{f.__name__}(*{args!r:.200}, "
                                f"**{kwargs!r:.200}) raised {type(e).__name__}: {e}")
    seconds = time.perf_counter() - t0
    print(f"{CALLS} calls in {seconds:.1f} s: {dict(outcomes)}")
    assert not failures, "\n".join(failures)
    # Both sides are exercised: answers and refusals.
    assert outcomes["answered"] > CALLS // 5 and outcomes["InputError"] > CALLS // 10
