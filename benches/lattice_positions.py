#!/usr/bin/env python3
"""Lattice positions: a frontier as wide as the board, for memory and time budgets.

Usage:
    python3 benches/lattice_positions.py --size 19 --seed 7 -o target/lattice-19-7.txt

Numbers on every other cell of every other row (the cells at odd row and odd
column, counted from 0), every other cell closed, from a layout with a mine on
each closed cell with chance 1/3 (Python's `random`, seeded); the total is
given (`mines N`). Every closed cell lies next to a number, so the whole board
is one frontier component, and its exact count needs layers that grow
exponentially with the narrower side: from about 15×15 on, counting takes
tens to hundreds of megabytes, and a position can be set to fit a memory
budget or not (`sapper analyse FILE --probabilities --budget-mb M`).
Written in sapper's position text format.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=19, help="rows (and columns)")
    ap.add_argument("--width", type=int, default=None, help="columns, if not --size")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    h, w = a.size, a.width or a.size
    rng = random.Random(a.seed)

    def number(r, c):
        return r % 2 == 1 and c % 2 == 1

    mine = [[(not number(r, c)) and rng.random() < 1 / 3 for c in range(w)] for r in range(h)]
    rows = []
    for r in range(h):
        row = ""
        for c in range(w):
            if number(r, c):
                k = sum(
                    mine[rr][cc]
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if 0 <= rr < h and 0 <= cc < w
                )
                row += "." if k == 0 else str(k)
            else:
                row += "?"
        rows.append(row)
    with open(a.output, "w") as f:
        f.write(f"mines {sum(map(sum, mine))}\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
