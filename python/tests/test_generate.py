"""Generated boards are no-guess, checked independently of sapper's solver."""

import itertools

import numpy as np
import pytest

import ms_toollib as ms
import sapper
from positions import neighbours, numbers


def check_layout(layout, mines):
    rows, cols = layout.shape
    mine_set = {(r, c) for r in range(rows) for c in range(cols) if layout[r, c] == -1}
    assert len(mine_set) == mines
    assert np.array_equal(layout, np.array(numbers(rows, cols, mine_set)))


def brute_no_guess(layout, start):
    """Plays `layout` from `start` with a complete solver written here: a
    closed cell is opened when it is safe in every layout (of the right
    total) that fits what is open. True iff every safe cell gets opened."""
    rows, cols = layout.shape
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    total = int((layout == -1).sum())
    candidates = [set(m) for m in itertools.combinations(cells, total)]
    is_open = set()

    def open_cell(cell):
        stack = [cell]
        while stack:
            r, c = stack.pop()
            if (r, c) in is_open:
                continue
            is_open.add((r, c))
            if layout[r, c] == 0:
                stack.extend(neighbours(rows, cols, r, c))

    open_cell(start)
    while True:
        fits = [m for m in candidates if not (m & is_open) and all(
            sum(n in m for n in neighbours(rows, cols, r, c)) == layout[r, c] for r, c in is_open)]
        candidates = fits
        closed = [x for x in cells if x not in is_open]
        safe = [x for x in closed if not any(x in m for m in fits)]
        if not safe:
            return len(closed) == total
        for x in safe:
            open_cell(x)


def test_expert_boards_are_valid_and_no_guess():
    boards = sapper.generate(16, 30, 99, count=8, seed=3)
    assert boards.shape == (8, 16, 30) and boards.dtype == np.int8
    for b in boards:
        check_layout(b, 99)
        assert all(b[r, c] != -1 for r in range(2, 5) for c in range(2, 5))
        assert sapper.is_solvable(b, 3, 3)


def test_tiny_boards_are_no_guess_by_enumeration():
    boards = sapper.generate(5, 5, 5, count=12, seed=11, first_click=(2, 2))
    for b in boards:
        check_layout(b, 5)
        assert (b[1:4, 1:4] != -1).all()
        assert brute_no_guess(b, (2, 2))


def test_safe_first_click_and_fast_method():
    for b in sapper.generate(9, 9, 10, count=5, seed=2, first_click="safe"):
        check_layout(b, 10)
        assert b[0, 0] != -1 and sapper.is_solvable(b, 0, 0)
    for b in sapper.generate(16, 30, 130, count=2, seed=2, method="fast"):
        check_layout(b, 130)
        assert sapper.is_solvable(b, 3, 3)


def test_seed_gives_the_same_boards():
    a = sapper.generate(9, 9, 10, count=3, seed=1)
    assert np.array_equal(a, sapper.generate(9, 9, 10, count=3, seed=1))
    assert not np.array_equal(a, sapper.generate(9, 9, 10, count=3, seed=2))
    assert sapper.generate(9, 9, 10, count=0).shape == (0, 9, 9)


def test_no_seed_means_fresh_boards():
    # numpy's convention: seed=None draws fresh entropy on every call. Ten
    # uniform 9x9 boards from two fresh seeds coincide with chance ~0.
    a = sapper.generate(9, 9, 10, count=10)
    b = sapper.generate(9, 9, 10, count=10, seed=None)
    assert not np.array_equal(a, b)


def test_first_click_as_a_list_or_an_array():
    for click in ([4, 4], (4, 4), np.array([4, 4])):
        boards = sapper.generate(9, 9, 10, count=3, seed=5, first_click=click)
        np.testing.assert_array_equal(boards, sapper.generate(9, 9, 10, count=3, seed=5,
                                                              first_click=(4, 4)))
        assert all((b[3:6, 3:6] != -1).all() and sapper.is_solvable(b, 4, 4) for b in boards)


def test_boards_ms_toollib_solves_are_solvable_for_sapper():
    # ms_toollib's solver ignores the total: whatever it solves, sapper does.
    for _ in range(10):
        board, found = ms.laymine_solvable(16, 30, 99, 3, 3)
        if found:
            assert sapper.is_solvable(board, 3, 3)
