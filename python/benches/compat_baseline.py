#!/usr/bin/env python3
"""sapper.compat against ms_toollib 1.5.20, call for call, in one process.

Usage:
    python python/benches/compat_baseline.py [--seed S] [--count N] [--rounds R]

(needs sapper and ms_toollib==1.5.20 installed, e.g. the venv python/test.sh
makes: target/pywheel/bin/python python/benches/compat_baseline.py).

1. Makes N expert (30×16, 99 mines) mid-game positions as
   benches/probabilities_baseline.py does (`make_positions`), as lists of
   rows (10 = closed, 0-8 = numbers).
2. R rounds; in each, every position in turn gets
   `ms_toollib.cal_probability_onboard(board, 99)` and
   `sapper.compat.cal_probability_onboard(board, 99)`, each call timed,
   in turns (ms_toollib first on every other call, so that neither always
   finds the caches as the other left them); then, for reference,
   `sapper.probabilities(board, mines=99)` over the positions. A
   position's time is its median over the rounds; prints the median and
   slowest position of each, the ratio of the medians, and checks the
   answers agree: the same [min, cur, max] and probabilities within 1e-12.
3. The same with `mine_num` a density (0.2063, about 99 / 480).
"""
import argparse
import os
import statistics
import sys
import time

import ms_toollib as ms

import sapper
import sapper.compat as compat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benches"))
from probabilities_baseline import make_positions  # noqa: E402


def timed(f, *args, **kwargs):
    t = time.perf_counter()
    out = f(*args, **kwargs)
    return time.perf_counter() - t, out


def ours_total(board, mine_num):
    """The total compat uses (clamped into [min, max])."""
    return compat.cal_probability_onboard(board, mine_num)[1][1]


def compare(boards, rounds, mine_num):
    n = len(boards)
    t_ms = [[0.0] * rounds for _ in range(n)]
    t_compat = [[0.0] * rounds for _ in range(n)]
    t_prob = [[0.0] * rounds for _ in range(n)]
    worst = 0.0
    for r in range(rounds):
        for k, b in enumerate(boards):
            if (k + r) % 2:
                t_ms[k][r], theirs = timed(ms.cal_probability_onboard, b, mine_num)
                t_compat[k][r], ours = timed(compat.cal_probability_onboard, b, mine_num)
            else:
                t_compat[k][r], ours = timed(compat.cal_probability_onboard, b, mine_num)
                t_ms[k][r], theirs = timed(ms.cal_probability_onboard, b, mine_num)
            if r == 0:
                assert ours[1] == theirs[1], (k, ours[1], theirs[1])
                worst = max(worst, max(abs(x - y) for a, b2 in zip(ours[0], theirs[0])
                                       for x, y in zip(a, b2)))
        for k, b in enumerate(boards):
            t_prob[k][r], _ = timed(sapper.probabilities, b, mines=ours_total(b, mine_num))
    med = lambda t: [statistics.median(row) for row in t]  # noqa: E731
    return med(t_ms), med(t_compat), med(t_prob), worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    boards = make_positions(args.seed, args.count)
    print(f"{len(boards)} expert mid-game positions (seed {args.seed}), {args.rounds} rounds, "
          f"sapper {sapper.__version__}, ms_toollib {ms.__version__ if hasattr(ms, '__version__') else '1.5.20'}")
    compat.cal_probability_onboard(boards[0], 99)  # the engine is built on first use
    for mine_num in (99, 0.2063):
        t_ms, t_compat, t_prob, worst = compare(boards, args.rounds, mine_num)
        m_ms, m_c, m_p = (statistics.median(t) for t in (t_ms, t_compat, t_prob))
        print(f"mine_num={mine_num}: per call, median position (slowest)")
        print(f"  ms_toollib.cal_probability_onboard     {m_ms * 1e6:8.1f} µs "
              f"({max(t_ms) * 1e6:.1f} µs)")
        print(f"  sapper.compat.cal_probability_onboard  {m_c * 1e6:8.1f} µs "
              f"({max(t_compat) * 1e6:.1f} µs)")
        print(f"  sapper.probabilities (the count alone) {m_p * 1e6:8.1f} µs "
              f"({max(t_prob) * 1e6:.1f} µs)")
        print(f"  ratio ms_toollib / compat: median {m_ms / m_c:.1f}×; "
              f"largest difference {worst:.2e}; [min, cur, max] equal on every position")


if __name__ == "__main__":
    main()
