#!/usr/bin/env python3
"""No-guess board generation: sapper against Simon Tatham's Mines and ms_toollib.

Usage:
    python3 benches/generate_baseline.py [--count N] [--rounds R] [--seed S]
        [--sapper target/release/sapper] [--sgt /usr/games/sgt-mines]

(needs `pip install ms_toollib==1.5.20` and Debian's `sgt-puzzles`; build
sapper first with `cargo build --release`).

Per level (beginner 9x9/10, intermediate 16x16/40, expert 30x16/99, all
with the first click an opening), alternating R rounds of:
  - sapper: one whole `sapper generate --level L --count N --seed S+round`
    process (uniform method), wall time / N;
  - sgt-mines: one whole `sgt-mines --generate N WxHnM#seed` process, wall
    time / N (Tatham's generator: an opening start, its own solver, not
    uniform);
  - ms_toollib: `laymine_solvable(rows, cols, mines, 3, 3)` called N times
    in this process, each call timed (uniform among the boards its solver,
    which ignores the total, gets through).
Prints per tool the median per-board time over the rounds (ms_toollib also
its median and slowest call) and sapper's speed-up over each.

Then `--method fast` at 30x16 with 130 and 170 mines (sapper and
sgt-mines; ms_toollib's docs stop at about 130 mines on expert), and how
far the fast method is from uniform on a small board (5x5, 6 mines, opening
at the centre): a two-sample chi-square of fast against uniform boards,
with the 0.999 threshold.
"""
import argparse, collections, json, math, statistics, subprocess, sys, time

import ms_toollib as ms

LEVELS = [("beginner", 9, 9, 10), ("intermediate", 16, 16, 40), ("expert", 16, 30, 99)]


def timed(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t, out


def sapper_round(args, extra, count, seed):
    wall, out = timed([args.sapper, "generate", "--count", str(count), "--seed", str(seed), "--json"] + extra)
    summary = json.loads(out.stderr.decode().strip().splitlines()[-1])
    assert len(out.stdout.decode().splitlines()) == count
    return wall / count, summary


def sgt_round(args, rows, cols, mines, count, seed):
    wall, out = timed([args.sgt, "--generate", str(count), f"{cols}x{rows}n{mines}#{seed}"])
    assert len(out.stdout.decode().splitlines()) == count
    return wall / count


def mstl_round(rows, cols, mines, count):
    calls = []
    for _ in range(count):
        t = time.perf_counter()
        ms.laymine_solvable(rows, cols, mines, 3, 3)
        calls.append(time.perf_counter() - t)
    return sum(calls) / count, calls


def chi_square_999(k):
    z = 3.090232
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sapper", default="target/release/sapper")
    p.add_argument("--sgt", default="/usr/games/sgt-mines")
    args = p.parse_args()

    for name, rows, cols, mines in LEVELS:
        sap, sgt, mstl, calls, attempts = [], [], [], [], []
        for r in range(args.rounds):
            per, summary = sapper_round(args, ["--level", name], args.count, args.seed + r)
            sap.append(per)
            attempts.append(summary["attempts_per_board"])
            sgt.append(sgt_round(args, rows, cols, mines, args.count, args.seed + r))
            per, c = mstl_round(rows, cols, mines, args.count)
            mstl.append(per)
            calls += c
        s, g, m = (statistics.median(x) * 1e3 for x in (sap, sgt, mstl))
        print(f"{name} {rows}x{cols}/{mines}, opening, {args.count} boards x {args.rounds} rounds:")
        print(f"  sapper uniform     {s:8.3f} ms/board (rounds {', '.join(f'{x*1e3:.3f}' for x in sap)}; "
              f"{statistics.median(attempts):.1f} attempts per board)")
        print(f"  sgt-mines          {g:8.3f} ms/board (rounds {', '.join(f'{x*1e3:.3f}' for x in sgt)})")
        print(f"  ms_toollib         {m:8.3f} ms/board (median call {statistics.median(calls)*1e3:.3f} ms, "
              f"slowest {max(calls)*1e3:.1f} ms)")
        print(f"  sapper is {g/s:.1f}x faster than sgt-mines, {m/s:.1f}x faster than ms_toollib")

    for mines in (130, 170):
        count = max(10, args.count // 10)
        sap, sgt = [], []
        for r in range(args.rounds):
            per, _ = sapper_round(args, ["--size", "16x30", "--mines", str(mines), "--method", "fast"],
                                  count, args.seed + r)
            sap.append(per)
            sgt.append(sgt_round(args, 16, 30, mines, count, args.seed + r))
        s, g = statistics.median(sap) * 1e3, statistics.median(sgt) * 1e3
        print(f"30x16/{mines} fast, {count} boards x {args.rounds} rounds: sapper {s:.2f} ms/board, "
              f"sgt-mines {g:.2f} ms/board")

    # How far from uniform the fast method is on a small board.
    boards = {}
    for method in ("uniform", "fast"):
        out = subprocess.run([args.sapper, "generate", "--size", "5x5", "--mines", "6", "--start", "2,2",
                              "--count", "60000", "--seed", "3", "--method", method],
                             check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        boards[method] = collections.Counter(
            tuple(map(tuple, json.loads(line)["mines"])) for line in out.stdout.decode().splitlines())
    keys = set(boards["uniform"]) | set(boards["fast"])
    x2 = 0.0
    for k in keys:
        a, b = boards["uniform"][k], boards["fast"][k]
        x2 += (a - b) ** 2 / (a + b)
    k = len(keys) - 1
    print(f"5x5/6 opening at the centre, 60,000 boards each: {len(keys)} distinct boards; "
          f"two-sample chi-square fast vs uniform {x2:.0f} ({k} degrees of freedom, 0.999 threshold "
          f"{chi_square_999(k):.0f}): {'biased' if x2 > chi_square_999(k) else 'no bias detected'}")


if __name__ == "__main__":
    sys.exit(main())
