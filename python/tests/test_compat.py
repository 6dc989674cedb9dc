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
