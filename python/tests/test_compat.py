"""sapper.compat returns what ms_toollib 1.5.20 returns, in the same shapes."""

import random

import pytest

import ms_toollib as ms
import sapper
import sapper.compat as compat

SMALL = [
    ([[1, 10, 10], [10, 10, 10]], 2),
    ([[1, 11, 10], [10, 10, 10]], 2),  # a flag: read as closed
    ([[1, 12, 12], [12, 12, 10]], 1),  # question marks: closed
    ([[1, 10, 10], [10, 10, 10]], 0.25),  # a density
    ([[1, 10, 10], [10, 10, 10]], 0.34),
    ([[1, 10, 10], [10, 10, 10]], 7),  # clamped to the most
    ([[1, 10, 10], [10, 10, 10]], 0),  # clamped to the fewest
    ([[10, 10, 10]] * 3, 2),
    ([[0, 0, 0], [1, 1, 1], [11, 10, 10]], 1),  # a wrong flag
    ([[10, 10], [10, 10]], 1e30),
    ([[1, 10, 10, 10, 1]], 2.5),
]


@pytest.mark.parametrize("board,mine_num", SMALL)
def test_onboard_same_values_and_shape(board, mine_num):
    ours, theirs = compat.cal_probability_onboard(board, mine_num), ms.cal_probability_onboard(board, mine_num)
    assert type(ours) is tuple and len(ours) == 2
    assert type(ours[0]) is list and all(type(row) is list for row in ours[0])
    assert all(type(x) is float for row in ours[0] for x in row)
    assert type(ours[1]) is list and all(type(x) is int for x in ours[1])
    assert ours[1] == theirs[1]
    for a, b in zip(ours[0], theirs[0]):
        assert len(a) == len(b)
        assert all(abs(x - y) <= 1e-12 for x, y in zip(a, b))


def check_layout(board, rows, cols, mines, start, opening):
    assert type(board) is list and len(board) == rows
    assert all(type(r) is list and len(r) == cols and all(type(x) is int for x in r) for r in board)
    assert sum(x == -1 for r in board for x in r) == mines
    x0, y0 = start
    around = [(x0 + a, y0 + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
              if 0 <= x0 + a < rows and 0 <= y0 + b < cols] if opening else [start]
    assert all(board[r][c] != -1 for r, c in around)


def test_laymine_shapes():
    random.seed(4)
    for f, opening in ((compat.laymine, False), (compat.laymine_op, True)):
        b = f(16, 30, 99, 5, 7)
        theirs = getattr(ms, f.__name__)(16, 30, 99, 5, 7)
        check_layout(b, 16, 30, 99, (5, 7), opening)
        check_layout(theirs, 16, 30, 99, (5, 7), opening)


def test_laymine_solvable_shapes():
    board, found = compat.laymine_solvable(16, 30, 99, 3, 3)
    theirs = ms.laymine_solvable(16, 30, 99, 3, 3)
    assert type(theirs) is tuple and type(found) is bool and found
    check_layout(board, 16, 30, 99, (3, 3), True)
    assert compat.is_solvable(board, 3, 3) is True
    board, found = compat.laymine_solvable(16, 30, 99, 3, 3, max_times=1000000)
    assert found
    # One attempt: a layout, and whether it is no-guess.
    board, found = compat.laymine_solvable(3, 3, 4, 0, 0, max_times=1)
    assert type(found) is bool
    check_layout(board, 3, 3, 4, (0, 0), True)


def test_is_solvable_like_ms_toollib():
    random.seed(5)
    for _ in range(20):
        b = ms.laymine_op(9, 9, 10, 4, 4)
        ours, theirs = compat.is_solvable(b, 4, 4), ms.is_solvable(b, 4, 4)
        assert type(ours) is bool
        if theirs:  # sapper's solver is complete and knows the total
            assert ours
    b = ms.laymine(9, 9, 10, 0, 0)
    mine = next((r, c) for r in range(9) for c in range(9) if b[r][c] == -1)
    assert compat.is_solvable(b, *mine) is False and ms.is_solvable(b, *mine) is False


def test_compat_is_importable_as_ms():
    import sapper.compat as ms2
    for name in ("cal_probability_onboard", "laymine", "laymine_op", "laymine_solvable", "is_solvable"):
        assert callable(getattr(ms2, name))


# Boards with no closed cell, contradictions, extreme totals: ms_toollib
# 1.5.20's answers, equal here.
EDGES = [
    ([[0, 0], [0, 0]], 0),
    ([[0, 0], [0, 0]], 5),
    ([[1, 1], [1, 1]], 0),        # no closed cell, and contradictory
    ([[3, 10], [10, 0]], 1),      # no layout fits: zeros and [0, 0, 0]
    ([[3, 10], [10, 0]], 5),
    ([[11, 11], [0, 0]], 1),      # flags next to a 0
    ([[1, 0], [0, 0]], 1),
    ([[0, 10]], 1),               # a closed cell next to a 0
    ([[0, 10, 10]], 1),
    ([[0, 11]], 1),
    ([[10, 10], [10, 10]], 0),
    ([[10, 10], [10, 10]], 0.5),
    ([[11, 10], [10, 10]], 0),
    ([[11, 1], [1, 1]], 0),
    ([[12, 1], [1, 1]], 1),
    ([[10]], 1),
    ([[10]], 0),
    ([[0]], 0),
    ([[10, 10]], -1),
    ([[10, 10]], float("nan")),
    ([[10, 10]], float("inf")),
    ([[11, 11, 10]], 1),
    ([[1, 11, 11]], 0),
    ([[1, 1, 1], [1, 10, 1], [1, 1, 1]], 0),
    ([[10, 2, 10], [10, 10, 10]], 0),
    ([[1, 10, 4, 10], [10, 10, 10, 10], [10, 2, 3, 10]], 4),
]


@pytest.mark.parametrize("board,mine_num", EDGES)
def test_edge_boards_answer_as_ms_toollib(board, mine_num):
    assert compat.cal_probability_onboard(board, mine_num) == ms.cal_probability_onboard(board,
                                                                                         mine_num)


# Contradictions ms_toollib notices (it raises RuntimeError): sapper answers
# every contradiction alike, with zeros and [0, 0, 0] (a documented
# difference).
RAISED_BY_MS_TOOLLIB = [
    ([[1, 10], [0, 0]], 1),
    ([[1, 11], [0, 0]], 1),
    ([[2, 10]], 1),
    ([[8, 10]], 1),
    ([[2, 2, 2], [2, 10, 2], [2, 2, 2]], 0),
]


@pytest.mark.parametrize("board,mine_num", RAISED_BY_MS_TOOLLIB)
def test_every_contradiction_is_answered_with_zeros(board, mine_num):
    with pytest.raises(RuntimeError):
        ms.cal_probability_onboard(board, mine_num)
    zeros = [[0.0] * len(board[0]) for _ in board]
    assert compat.cal_probability_onboard(board, mine_num) == (zeros, [0, 0, 0])


def test_a_total_the_layouts_skip_raises_as_in_ms_toollib():
    # The totals that fit are 4 and 6, never 5.
    board = [[1, 10, 4, 10], [10, 10, 10, 10], [10, 2, 3, 10]]
    with pytest.raises(RuntimeError):
        ms.cal_probability_onboard(board, 5)
    with pytest.raises(compat.SapperError, match="no mine layout fits") as e:
        compat.cal_probability_onboard(board, 5)
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, sapper.Error)
    assert isinstance(e.value.__cause__, sapper.ContradictionError)


@pytest.mark.parametrize("board", [
    [[9, 10]], [[13, 10]], [[-1, 10]], [], [[]], [[1, 10], [10]], ["??"], "??",
])
def test_boards_ms_toollib_refuses_are_refused(board):
    # ms_toollib raises on these, or (-1, empty, ragged) aborts the process.
    with pytest.raises(compat.SapperError):
        compat.cal_probability_onboard(board, 1)


def brute_range(board):
    """The fewest and most mines of a layout that fits, by enumeration
    (flags and question marks read as closed); None if none fits."""
    import itertools
    from positions import neighbours
    rows, cols = len(board), len(board[0])
    closed = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] >= 10]
    totals = []
    for bits in itertools.product((0, 1), repeat=len(closed)):
        mines = {x for x, b in zip(closed, bits) if b}
        if all(board[r][c] >= 10 or
               sum(n in mines for n in neighbours(rows, cols, r, c)) == board[r][c]
               for r in range(rows) for c in range(cols)):
            totals.append(len(mines))
    return (min(totals), max(totals)) if totals else None


def small_boards(seed, count):
    """Boards of at most 14 cells, some consistent, some not, many with
    every closed cell on the frontier (where totals can skip a value)."""
    from positions import neighbours
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        if rows * cols > 14:
            continue
        mines = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.4}
        board = []
        for r in range(rows):
            row = []
            for c in range(cols):
                if (r, c) in mines or rng.random() < 0.35:
                    row.append(rng.choice((10, 10, 10, 11, 12)))
                else:
                    n = sum(x in mines for x in neighbours(rows, cols, r, c))
                    row.append(n if rng.random() < 0.9 else rng.randint(0, 8))
            board.append(row)
        out.append(board)
    return out


def test_the_mine_range_is_the_brute_force_one():
    gaps = [[[1, 10, 4, 10], [10, 10, 10, 10], [10, 2, 3, 10]],
            [[10, 4, 10, 1], [10, 10, 10, 10], [10, 3, 2, 10]]]  # totals 4 or 6
    found = {"none": 0, "one": 0, "range": 0}
    for board in small_boards(7, 600) + gaps:
        expected = brute_range(board)
        assert sapper._sapper._compat_mine_range(board, False) == expected, board
        assert sapper._sapper._compat_mine_range(board, True) == expected, board
        if expected is None:
            found["none"] += 1
            continue
        lo, hi = expected
        found["one" if lo == hi else "range"] += 1
        assert compat.cal_probability_onboard(board, 0)[1][0] == lo
        assert compat.cal_probability_onboard(board, 10 ** 9)[1][2] == hi
    assert min(found.values()) >= 50, found
    for board in gaps:
        assert compat.cal_probability_onboard(board, 4)[1] == [4, 4, 6]
        assert compat.cal_probability_onboard(board, 6)[1] == [4, 6, 6]
        with pytest.raises(compat.SapperError):
            compat.cal_probability_onboard(board, 5)


def test_the_mine_range_agrees_on_expert_positions():
    from positions import expert_positions
    for board in expert_positions(seed=31, count=40):
        assert sapper._sapper._compat_mine_range(board, False) == \
            sapper._sapper._compat_mine_range(board, True)
