"""`sapper metrics --json` against ms_toollib 1.5.20 on 10,000 random boards
of each level (beginner 9x9/10, intermediate 16x16/40, expert 16x30/99, the
mines uniform over the board).

On every board 3BV equals `cal_bbbv`, openings `cal_op`, islands `cal_isl`
(8-connected groups of the numbers with no 0 around), and the count of each
number `cal_cell_nums`, read as ms_toollib's `Board` properties `bbbv`,
`op`, `isl` and `cell0` ... `cell8` (its `Board` computes them with those
functions, converting the board once; the first boards are checked against
`cal_bbbv` and `cal_op` called directly too). sapper's ZiNi may be lower
than `cal_zini` (`Board.zini`) only where its clicks, replayed by the Rust
tests' referee, clear the board; how often it is equal and lower is printed
(`pytest -s`). sapper computes the same greedy ZiNi, so it is equal on
every board here.

ms_toollib's ZiNi takes most of the time (0.3-0.4 ms an expert board): the
boards are compared in chunks on every core.
"""

import json
import os
import subprocess
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import ms_toollib as ms
from test_docs import sapper_binary

COUNT = 10_000
LEVELS = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}


def random_layouts(rows, cols, mines, count, seed):
    """`count` layouts as lists of rows: -1 a mine, else its number."""
    rng = np.random.default_rng(seed)
    keys = rng.random((count, rows * cols))
    places = np.argpartition(keys, mines, axis=1)[:, :mines]
    mine = np.zeros((count, rows * cols), dtype=np.int32)
    np.put_along_axis(mine, places, 1, axis=1)
    mine = mine.reshape(count, rows, cols)
    padded = np.pad(mine, ((0, 0), (1, 1), (1, 1)))
    around = sum(
        padded[:, 1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    )
    return np.where(mine == 1, -1, around).tolist()


def sapper_metrics(layouts):
    """`sapper metrics - --json` of the layouts, one dict per board."""
    text = "".join(json.dumps({"layout": b}, separators=(",", ":")) + "\n" for b in layouts)
    run = subprocess.run(
        [str(sapper_binary()), "metrics", "-", "--json"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(layouts)
    return [json.loads(line) for line in lines]


def compare(chunk):
    """Boards whose metrics differ from ms_toollib's, and how many ZiNi
    are equal and lower, for `(first index, layouts, sapper's metrics)`."""
    first, layouts, ours = chunk
    differ, equal, lower = [], 0, 0
    for k, (layout, m) in enumerate(zip(layouts, ours), start=first):
        board = ms.Board(layout)
        theirs = {
            "bbbv": board.bbbv,
            "openings": board.op,
            "islands": board.isl,
            "numbers": [getattr(board, f"cell{n}") for n in range(9)],
        }
        if k < 200:
            assert (ms.cal_bbbv(layout), ms.cal_op(layout)) == (board.bbbv, board.op)
            assert ms.cal_zini(layout) == board.zini
        zini = board.zini
        if {key: m[key] for key in theirs} != theirs or m["zini"] > zini:
            differ.append((k, m, dict(theirs, zini=zini), layout))
        equal += m["zini"] == zini
        lower += m["zini"] < zini
    return differ, equal, lower


@pytest.mark.parametrize("level", LEVELS)
def test_metrics_equal_ms_toollibs_on_ten_thousand_boards_of_each_level(level):
    rows, cols, mines = LEVELS[level]
    layouts = random_layouts(rows, cols, mines, COUNT, seed=36 + rows * cols)
    ours = sapper_metrics(layouts)
    for m in ours:
        assert list(m) == ["bbbv", "openings", "islands", "zini", "numbers"]
    size = 1000
    chunks = [(i, layouts[i : i + size], ours[i : i + size]) for i in range(0, COUNT, size)]
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        results = list(pool.map(compare, chunks))
    differ = [d for r in results for d in r[0]]
    equal = sum(r[1] for r in results)
    lower = sum(r[2] for r in results)
    assert not differ, f"{len(differ)} {level} boards differ; the first: {differ[0]}"
    print(f"{level}: ZiNi equal to cal_zini on {equal} boards, lower on {lower}")
    assert equal + lower == COUNT


def test_ms_toollib_counts_an_opening_twice_where_flags_split_it():
    """The case tests/suite/metrics.rs replays: one opening (3BV 1), split
    by two flags on 0-cells that are then taken off; ms_toollib's
    `bbbv_solved` counts it at each of the two clicks that open its last
    0-cells, where sapper's 3BV solved (every 0-cell open) counts it once."""
    layout = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 1], [0, 0, 0, 1, -1]]
    assert ms.cal_bbbv(layout) == 1
    game = ms.MinesweeperBoard(layout)

    def click(press, release, cell):
        game.step(press, cell)
        game.step(release, cell)

    click("rc", "rr", (0, 0))
    click("rc", "rr", (0, 4))
    click("lc", "lr", (1, 2))
    assert game.bbbv_solved == 0
    click("rc", "rr", (0, 0))
    click("rc", "rr", (0, 4))
    click("lc", "lr", (0, 0))
    assert game.bbbv_solved == 1
    click("lc", "lr", (0, 4))
    assert game.bbbv_solved == 2
    (ours,) = sapper_metrics([layout])
    assert ours["bbbv"] == 1
