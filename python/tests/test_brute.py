"""sapper against exact enumeration written here, on tiny boards."""

import itertools
import random
from fractions import Fraction

import pytest

import sapper
from positions import CLOSED, FLAG, neighbours, numbers


def brute(board, total, density=None):
    """(layouts, per-cell probability as Fractions) by enumerating every
    assignment of mines to the closed cells. With `density` (and no total)
    a layout with k mines on n closed cells weighs d^k (1-d)^(n-k)."""
    rows, cols = len(board), len(board[0])
    closed = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == CLOSED]
    flags = {(r, c) for r in range(rows) for c in range(cols) if board[r][c] == FLAG}
    weight_sum, mine_weight, layouts = Fraction(0), {cell: Fraction(0) for cell in closed}, 0
    d = Fraction(density) if density is not None else None
    for bits in itertools.product((0, 1), repeat=len(closed)):
        k = sum(bits)
        if total is not None and k + len(flags) != total:
            continue
        mines = flags | {cell for cell, b in zip(closed, bits) if b}
        if any(0 <= board[r][c] <= 8 and
               sum(n in mines for n in neighbours(rows, cols, r, c)) != board[r][c]
               for r in range(rows) for c in range(cols)):
            continue
        layouts += 1
        w = Fraction(1) if d is None else d ** k * (1 - d) ** (len(closed) - k)
        weight_sum += w
        for cell, b in zip(closed, bits):
            if b:
                mine_weight[cell] += w
    if layouts == 0:
        return 0, None
    return layouts, {cell: mine_weight[cell] / weight_sum for cell in closed}


def tiny_positions(seed, count):
    """Random positions on boards of at most 16 cells: a random layout,
    some safe cells revealed, some mines flagged."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.randint(1, 4), rng.randint(2, 4)
        n = rows * cols
        mines = set(rng.sample([(r, c) for r in range(rows) for c in range(cols)],
                               rng.randint(0, n // 2)))
        layout = numbers(rows, cols, mines)
        board = []
        for r in range(rows):
            row = []
            for c in range(cols):
                if (r, c) in mines:
                    row.append(FLAG if rng.random() < 0.2 else CLOSED)
                else:
                    row.append(layout[r][c] if rng.random() < 0.5 else CLOSED)
            board.append(row)
        out.append((board, len(mines)))
    return out


@pytest.mark.parametrize("board,total", tiny_positions(5, 150))
def test_counts_and_probabilities_are_exact(board, total):
    layouts, exact = brute(board, total)
    assert layouts >= 1  # the true layout fits
    assert sapper.count_layouts(board, total) == layouts
    p = sapper.probabilities(board, mines=total)
    for r, row in enumerate(board):
        for c, v in enumerate(row):
            if v == CLOSED:
                assert abs(p[r][c] - float(exact[(r, c)])) <= 1e-12
                # forced cells are exactly 0 or 1
                if exact[(r, c)] in (0, 1):
                    assert p[r][c] == float(exact[(r, c)])
            else:
                assert p[r][c] != p[r][c]  # NaN


@pytest.mark.parametrize("board,total", tiny_positions(6, 40))
def test_density_is_exact(board, total):
    _, exact = brute(board, None, density=0.3)
    p = sapper.probabilities(board, density=0.3)
    for (r, c), q in exact.items():
        assert abs(p[r][c] - float(q)) <= 1e-12


def test_a_large_count_is_a_python_int():
    from math import comb
    assert sapper.count_layouts([[CLOSED] * 30] * 16, 99) == comb(480, 99)
    assert sapper.count_layouts(["?" * 30] * 16, 0) == 1
