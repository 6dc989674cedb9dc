"""Seeded Minesweeper positions for the tests (plain Python, no sapper).

Expert mid-game positions are made as benches/probabilities_baseline.py
makes them: mines uniform outside the 3×3 around the start (3, 3), the
start's opening flooded, then 0–25 flood fills of random safe cells next
to what is open (a player who never hits a mine).
"""

import random

CLOSED, FLAG = 10, 11


def neighbours(rows, cols, r, c):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            rr, cc = r + dr, c + dc
            if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols:
                yield rr, cc


def numbers(rows, cols, mines):
    """The layout of the set `mines`: -1 a mine, else its number."""
    return [[-1 if (r, c) in mines else
             sum((n in mines) for n in neighbours(rows, cols, r, c))
             for c in range(cols)] for r in range(rows)]


def random_layout(rng, rows, cols, count, start=(3, 3)):
    """`count` mines uniform outside the 3×3 around `start`."""
    r0, c0 = start
    free = [(r, c) for r in range(rows) for c in range(cols)
            if abs(r - r0) > 1 or abs(c - c0) > 1]
    return numbers(rows, cols, set(rng.sample(free, count)))


def flood(layout, seen, r, c):
    rows, cols = len(layout), len(layout[0])
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if seen[r][c]:
            continue
        seen[r][c] = True
        if layout[r][c] == 0:
            stack.extend(n for n in neighbours(rows, cols, r, c) if not seen[n[0]][n[1]])


def midgame(rng, layout, start=(3, 3), fills=25):
    """The player's board after the start and 0..fills random safe clicks
    next to what is open; None if nothing is left to guess."""
    rows, cols = len(layout), len(layout[0])
    seen = [[False] * cols for _ in range(rows)]
    flood(layout, seen, *start)
    for _ in range(rng.randint(0, fills)):
        frontier = [(r, c) for r in range(rows) for c in range(cols)
                    if not seen[r][c] and layout[r][c] != -1
                    and any(seen[a][b] for a, b in neighbours(rows, cols, r, c))]
        if not frontier:
            break
        flood(layout, seen, *rng.choice(frontier))
    if all(seen[r][c] or layout[r][c] == -1 for r in range(rows) for c in range(cols)):
        return None
    return [[layout[r][c] if seen[r][c] else CLOSED for c in range(cols)] for r in range(rows)]


def expert_positions(seed, count):
    """`count` expert (16×30, 99 mines) mid-game boards (10 = closed)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = midgame(rng, random_layout(rng, 16, 30, 99))
        if board is not None:
            out.append(board)
    return out


def lattice(rows, cols, density, seed, band=None):
    """A position hard for exact analysis (the shape of the engine's
    tests/suite/hard_positions.rs): numbers on every (even row, even
    column), every other cell closed, each closed cell a mine with chance
    `density`, so the frontier is as wide as the board. With `band`, rows
    `band` and `band + 1` of every `band + 2` are open too (numbers), which
    cuts the board into independent lattices `band` rows high. Returns the
    board (lists of codes, 10 closed) and its number of mines."""
    rng = random.Random(seed)

    def is_open(r, c):
        return (r % 2 == 0 and c % 2 == 0) or (band is not None and r % (band + 2) >= band)

    mines = {(r, c) for r in range(rows) for c in range(cols)
             if not is_open(r, c) and rng.random() < density}
    layout = numbers(rows, cols, mines)
    board = [[layout[r][c] if is_open(r, c) else CLOSED for c in range(cols)]
             for r in range(rows)]
    return board, len(mines)
