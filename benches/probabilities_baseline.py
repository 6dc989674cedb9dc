#!/usr/bin/env python3
"""Mine probabilities: sapper against ms_toollib's `cal_probability_onboard`.

Usage:
    python3 benches/probabilities_baseline.py [--seed S] [--count N] [--rounds R]
        [--sapper target/release/sapper] [--dir DIR]

(needs `pip install ms_toollib==1.5.20`; build sapper first with
`cargo build --release`).

1. Makes N expert (30×16, 99 mines) mid-game positions from the seed: 99
   mines uniformly among the cells outside the 3×3 around (3,3) (as
   `laymine_op` does, but from the seed), the first click there, then 0–25 flood fills
   of random safe cells next to what is open (a player who never hits a mine),
   skipping positions with no closed safe cell left. Each is written in
   sapper's position text format (`mines 99`, `?` closed, `.`/`1`-`8` open)
   to DIR/pos_NNN.txt; ms_toollib gets the same board as a list of rows
   (10 = closed, 0-8 = numbers).
2. Runs, alternating, R rounds of:
   - ms_toollib: `cal_probability_onboard(board, 99)` over the N boards in
     this Python process (boards built before timing), each call timed;
   - sapper: one whole process `sapper analyse DIR/pos_*.txt --probabilities
     --json` (start, reading, computing, printing to a file), started with
     posix_spawn and timed from outside until it exits; its per-position
     `micros` are read from the output.
   - the floor: `benches/floor/io_floor.rs` (compiled here with rustc),
     a process that only reads the N files on every core and writes as
     many bytes as sapper printed, computing nothing, timed like sapper.
3. Prints per tool: the wall time of each round, the first and the median
   round, the median position and the slowest position (file name), the
   speed-ups (first rounds, median rounds, and call for call: the median
   positions' times inside the processes); for the floor, its rounds and
   the speed-up it would show (no program that prints this output can show
   more on this machine); and the largest difference between the two
   tools' probabilities (ms_toollib averages blocks over 55 cells, so it
   can differ there).
"""
import argparse, json, os, random, statistics, subprocess, sys, time

import ms_toollib as ms

H, W, N = 16, 30, 99


def flood(board, seen, r, c):
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if seen[r][c]:
            continue
        seen[r][c] = True
        if board[r][c] == 0:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < H and 0 <= cc < W and not seen[rr][cc]:
                        stack.append((rr, cc))


def next_to_open(seen, r, c):
    return any(0 <= r + dr < H and 0 <= c + dc < W and seen[r + dr][c + dc]
               for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def lay_mines(rng, r0, c0):
    """N mines uniformly outside the 3×3 around (r0, c0); the numbers."""
    free = [(r, c) for r in range(H) for c in range(W) if abs(r - r0) > 1 or abs(c - c0) > 1]
    mines = set(rng.sample(free, N))
    board = [[-1 if (r, c) in mines else 0 for c in range(W)] for r in range(H)]
    for r in range(H):
        for c in range(W):
            if board[r][c] == 0:
                board[r][c] = sum((rr, cc) in mines for rr in range(r - 1, r + 2)
                                  for cc in range(c - 1, c + 2))
    return board


def make_positions(seed, count):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = lay_mines(rng, 3, 3)
        seen = [[False] * W for _ in range(H)]
        flood(board, seen, 3, 3)
        for _ in range(rng.randint(0, 25)):
            frontier = [(r, c) for r in range(H) for c in range(W)
                        if not seen[r][c] and board[r][c] != -1 and next_to_open(seen, r, c)]
            if not frontier:
                break
            r, c = rng.choice(frontier)
            flood(board, seen, r, c)
        if all(seen[r][c] or board[r][c] == -1 for r in range(H) for c in range(W)):
            continue  # nothing left to guess
        positions.append([[board[r][c] if seen[r][c] else 10 for c in range(W)] for r in range(H)])
    return positions


def position_text(game_board):
    rows = ["".join("?" if v == 10 else ("." if v == 0 else str(v)) for v in row)
            for row in game_board]
    return f"mines {N}\n" + "\n".join(rows) + "\n"


def run_ms_toollib(boards):
    times, results = [], []
    t0 = time.perf_counter()
    for b in boards:
        s = time.perf_counter()
        p, _ = ms.cal_probability_onboard(b, N)
        times.append(time.perf_counter() - s)
        results.append(p)
    return time.perf_counter() - t0, times, results


def timed_process(args, out_path):
    """Wall time of one process running `args` with its standard output to
    `out_path`, until it exits. Started with posix_spawn, not subprocess:
    forking this interpreter (ms_toollib loaded) costs a few milliseconds
    that are not the process's. Exits the script if the process fails."""
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        pid = os.posix_spawnp(args[0], args, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1)])
        _, status, _ = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(args[:2])} ... failed (exit {os.waitstatus_to_exitcode(status)})")
    return wall


def run_sapper(sapper, files, out_path):
    # Output to a file, so that the timing is sapper's own (not how fast
    # this script drains a pipe); read and parsed after the clock stops.
    wall = timed_process([sapper, "analyse", *files, "--probabilities", "--json"], out_path)
    with open(out_path) as f:
        objects = [json.loads(line) for line in f]
    return wall, objects


def build_floor(out_dir):
    """Compiles benches/floor/io_floor.rs (when newer than the binary)."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor", "io_floor.rs")
    binary = os.path.join(out_dir, "io_floor")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        subprocess.run(["rustc", "-O", "--edition", "2021", source, "-o", binary], check=True)
    return binary


def run_floor(floor, files, size, out_path):
    """Wall time of the floor process reading `files` and writing `size` bytes."""
    return timed_process([floor, str(size), *files], out_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sapper", default="target/release/sapper")
    ap.add_argument("--dir", default="target/probabilities-bench")
    args = ap.parse_args()

    boards = make_positions(args.seed, args.count)
    os.makedirs(args.dir, exist_ok=True)
    files = []
    for k, b in enumerate(boards):
        path = os.path.join(args.dir, f"pos_{k:03}.txt")
        with open(path, "w") as f:
            f.write(position_text(b))
        files.append(path)

    floor = build_floor(args.dir)
    sapper_out = os.path.join(args.dir, "sapper-output.jsonl")
    ms_rounds, sapper_rounds, floor_rounds = [], [], []
    for _ in range(args.rounds):
        ms_wall, ms_times, ms_results = run_ms_toollib(boards)
        ms_rounds.append((ms_wall, ms_times, ms_results))
        sapper_wall, objects = run_sapper(args.sapper, files, sapper_out)
        sapper_rounds.append((sapper_wall, objects))
        floor_rounds.append(run_floor(floor, files, os.path.getsize(sapper_out),
                                      os.path.join(args.dir, "floor-output")))

    def summary(name, rounds, per_position):
        walls = [r[0] for r in rounds]
        # per position: the median over rounds of its time (µs)
        per = [statistics.median(per_position(r)[k] for r in rounds) for k in range(len(files))]
        slowest = max(range(len(files)), key=lambda k: per[k])
        print(f"{name}: rounds " + " / ".join(f"{w*1000:.1f}" for w in walls)
              + f" ms; first {walls[0]*1000:.1f} ms, median round {statistics.median(walls)*1000:.1f} ms; "
              f"median position {statistics.median(per):.1f} µs; "
              f"slowest {os.path.basename(files[slowest])} {per[slowest]:.1f} µs")
        return walls[0], statistics.median(walls), statistics.median(per)

    print(f"{len(files)} positions (seed {args.seed}) in {args.dir}")
    ms_median = summary("ms_toollib cal_probability_onboard (loop in Python)", ms_rounds,
                        lambda r: [t * 1e6 for t in r[1]])
    for objects in (sapper_rounds[0][1],):
        errors = [o for o in objects if "error" in o]
        if errors:
            print(f"sapper reported errors: {errors[:3]}", file=sys.stderr)
    sapper_median = summary("sapper analyse --probabilities --json (whole process)", sapper_rounds,
                            lambda r: [o.get("micros", 0.0) for o in r[1]])
    print(f"speed-up: first rounds {ms_median[0] / sapper_median[0]:.1f}×, "
          f"median rounds {ms_median[1] / sapper_median[1]:.1f}× "
          f"(ms_toollib's first round in a process is slower than the later ones)")
    print(f"call for call (median position: ms_toollib's call against sapper's `micros`, "
          f"which counts building the board, the probabilities and the exact layouts): "
          f"{ms_median[2] / sapper_median[2]:.1f}×")
    floor_median = statistics.median(floor_rounds)
    print("floor (reads the files, writes as many bytes, computes nothing): rounds "
          + " / ".join(f"{w*1000:.1f}" for w in floor_rounds)
          + f" ms; median round {floor_median*1000:.1f} ms: no program printing this output "
          f"can be more than {ms_median[1] / floor_median:.1f}× faster than ms_toollib here "
          f"(median rounds); sapper takes {sapper_median[1] / floor_median:.1f}× the floor")

    worst, where = 0.0, None
    for k, (b, o) in enumerate(zip(boards, sapper_rounds[0][1])):
        ms_p = ms_rounds[0][2][k]
        for r in range(H):
            for c in range(W):
                if b[r][c] == 10:
                    d = abs(ms_p[r][c] - o["probabilities"][r][c])
                    if d > worst:
                        worst, where = d, (os.path.basename(files[k]), r, c)
    print(f"largest difference between the tools' probabilities: {worst:.3g} at {where}")


if __name__ == "__main__":
    main()
