#!/usr/bin/env python3
"""The `sapper` Python package against ms_toollib, call for call, in one process.

Usage:
    python3 benches/python_baseline.py [--seed S] [--count N] [--rounds R] [--boards B]

(needs `pip install ./python ms_toollib==1.5.20`, e.g. the venv python/test.sh
makes: target/pyenv/bin/python benches/python_baseline.py).

1. Makes N expert (30×16, 99 mines) mid-game positions exactly as
   benches/probabilities_baseline.py does (its `make_positions`: mines
   uniform outside the 3×3 around (3,3), that opening, then 0–25 flood
   fills of random safe cells next to what is open), as lists of rows
   (10 = closed, 0-8 = numbers).
2. Per call, alternating R rounds: `sapper.probabilities(board, mines=99)`
   and `ms_toollib.cal_probability_onboard(board, 99)` on every position,
   each call timed; prints the median and slowest call of each (median over
   rounds per position) and the ratio, and the largest difference between
   them on closed cells. Then each library in a loop of its own (R rounds
   over the positions): alternated, each call starts with the caches the
   other's call left, so the two figures bound what a caller sees.
3. Batch: `sapper.probabilities_many(boards, mines=99)` (all cores) against
   ms_toollib's loop over the same boards, wall time per round (median).
4. Boards: `sapper.generate(16, 30, 99, count=1, seed=k)` per call against
   `ms_toollib.laymine_solvable(16, 30, 99, 3, 3)` per call, B boards each
   (both an opening at (3,3)); also `sapper.generate(..., count=B)` in one
   call (all cores). Median and slowest per board.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import ms_toollib as ms
import sapper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probabilities_baseline import make_positions  # noqa: E402  (needs ms_toollib too)


def timed(f, *args, **kwargs):
    t = time.perf_counter()
    out = f(*args, **kwargs)
    return time.perf_counter() - t, out


def per_call(boards, rounds):
    ours = [[0.0] * len(boards) for _ in range(rounds)]
    theirs = [[0.0] * len(boards) for _ in range(rounds)]
    worst = 0.0
    for r in range(rounds):
        for k, b in enumerate(boards):
            theirs[r][k], q = timed(ms.cal_probability_onboard, b, 99)
            ours[r][k], p = timed(sapper.probabilities, b, mines=99)
            if r == 0:
                closed = np.array(b) == 10
                worst = max(worst, float(np.abs(p[closed] - np.array(q[0])[closed]).max()))
    return per_position(ours), per_position(theirs), worst


def per_position(times):
    """Each position's median call over the rounds of `times[round][position]`."""
    return [statistics.median(t[k] for t in times) for k in range(len(times[0]))]


def alone(f, boards, rounds):
    """Each position's median call of `f` in a loop of its own."""
    times = [[timed(f, b)[0] for b in boards] for _ in range(rounds)]
    return per_position(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--boards", type=int, default=50)
    args = ap.parse_args()

    boards = make_positions(args.seed, args.count)
    print(f"{len(boards)} expert mid-game positions (seed {args.seed}), {args.rounds} rounds, "
          f"{os.cpu_count()} cores")
    sapper.probabilities(boards[0], mines=99)  # the engine is built on first use

    ours, theirs, worst = per_call(boards, args.rounds)
    om, tm = statistics.median(ours), statistics.median(theirs)
    print(f"per call: sapper.probabilities median {om*1e6:.1f} µs, slowest {max(ours)*1e6:.1f} µs; "
          f"ms_toollib.cal_probability_onboard median {tm*1e6:.1f} µs, slowest {max(theirs)*1e6:.1f} µs")
    print(f"  ratio (ms_toollib / sapper): median {tm/om:.1f}×, slowest {max(theirs)/max(ours):.1f}×, "
          f"total {sum(theirs)/sum(ours):.1f}×; largest difference {worst:.3g}")
    ours = alone(lambda b: sapper.probabilities(b, mines=99), boards, args.rounds)
    theirs = alone(lambda b: ms.cal_probability_onboard(b, 99), boards, args.rounds)
    om, tm = statistics.median(ours), statistics.median(theirs)
    print(f"each in a loop of its own: sapper median {om*1e6:.1f} µs, ms_toollib median {tm*1e6:.1f} µs: "
          f"{tm/om:.1f}× (median), slowest {max(theirs)/max(ours):.1f}×")

    batch, loop = [], []
    for _ in range(args.rounds):
        batch.append(timed(sapper.probabilities_many, boards, mines=99)[0])
        loop.append(timed(lambda: [ms.cal_probability_onboard(b, 99) for b in boards])[0])
    bm, lm = statistics.median(batch), statistics.median(loop)
    print(f"batch of {len(boards)}: sapper.probabilities_many {bm*1e3:.1f} ms; "
          f"ms_toollib loop {lm*1e3:.1f} ms: {lm/bm:.1f}×")

    gen = [timed(sapper.generate, 16, 30, 99, count=1, seed=k)[0] for k in range(args.boards)]
    mst = [timed(ms.laymine_solvable, 16, 30, 99, 3, 3)[0] for _ in range(args.boards)]
    whole, _ = timed(sapper.generate, 16, 30, 99, count=args.boards, seed=10_000)
    gm, mm = statistics.median(gen), statistics.median(mst)
    print(f"expert no-guess boards, {args.boards} each: sapper.generate(count=1) median "
          f"{gm*1e3:.2f} ms, slowest {max(gen)*1e3:.2f} ms; ms_toollib.laymine_solvable median "
          f"{mm*1e3:.2f} ms, slowest {max(mst)*1e3:.2f} ms: {mm/gm:.1f}× (median), "
          f"{sum(mst)/sum(gen):.1f}× (total)")
    print(f"  sapper.generate(count={args.boards}) in one call: {whole/args.boards*1e3:.2f} ms per board "
          f"({sum(mst)/whole:.1f}× ms_toollib's loop)")


if __name__ == "__main__":
    main()
