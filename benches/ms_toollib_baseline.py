#!/usr/bin/env python3
"""Baseline for the engine speed target: ms_toollib's `is_solvable` over a corpus.

Usage: python3 benches/ms_toollib_baseline.py ../shared/data/sgt-expert
(needs `pip install ms_toollib==1.5.20`).

Loops `is_solvable(board, row, col)` over every field of the corpus in one Python
process, clicking the first open 0 of the field's start (its opening is the start
region), and prints the solved count and the wall time of the loop (reading excluded).
"""
import sys, time, os, re
import ms_toollib as ms

def natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]

def load(d):
    rows = lambda f: [l.strip().split(",") for l in open(os.path.join(d, f)) if l.strip()]
    values = [[int(v) for v in r] for r in rows("values.csv")]
    status = rows("status.csv")
    click = next((r, c) for r, row in enumerate(status) for c, s in enumerate(row)
                 if s == "T" and values[r][c] == 0)
    return values, click

corpus = sys.argv[1]
fields = sorted((f for f in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, f))), key=natural)
boards = [load(os.path.join(corpus, f)) for f in fields]
t0 = time.perf_counter()
solved = sum(1 for b, (r, c) in boards if ms.is_solvable(b, r, c))
dt = time.perf_counter() - t0
print(f"{corpus}: {len(boards)} fields, ms_toollib is_solvable solved {solved}, "
      f"{dt*1000:.1f} ms total, {dt*1000/len(boards):.3f} ms per field")
