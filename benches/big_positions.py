#!/usr/bin/env python3
"""Large mid-game positions for `sapper analyse --probabilities` (scale runs).

Usage:
    python3 benches/big_positions.py --size 1000 --density 0.15 --open 0.5 \
        --seed 1 -o target/big-1000-15.txt [--no-total]

Lays round(density · size²) mines uniformly (seeded), then opens the board as a
player who never hits a mine would, from the centre outwards: each click is on a
random closed safe cell next to what is open (a revealed 0 opens its
neighbours), until the fraction `--open` of the safe cells is open (or
none is left). After each click it plays what single numbers force (a number with
all its mines flagged opens its other neighbours; a number with as many
closed neighbours as mines left flags them), as a player would, so closed
safe cells that one number proves do not pile up inside the opened region;
these deductions stop with the clicks once the target is reached (a
mid-game position), or go on to their end with `--deduce-to-end` (then
boards of low density are mostly solved), or are skipped with
`--no-deduce`. The result is one opened region whose boundary is the
frontier. `--scattered` clicks anywhere instead.
Written in sapper's position text format with `mines N` (unless --no-total).
"""
import argparse, random, sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--height", type=int, default=None)
    ap.add_argument("--density", type=float, default=0.15)
    ap.add_argument("--open", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-total", action="store_true")
    ap.add_argument("--scattered", action="store_true")
    ap.add_argument("--no-deduce", action="store_true")
    ap.add_argument("--deduce-to-end", action="store_true")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    w = a.size
    h = a.height or a.size
    n = w * h
    rng = random.Random(a.seed)
    mines = round(a.density * n)
    mine = bytearray(n)
    for i in rng.sample(range(n), mines):
        mine[i] = 1
    number = bytearray(n)
    for i in range(n):
        if mine[i]:
            r, c = divmod(i, w)
            for dr in (-1, 0, 1):
                rr = r + dr
                if 0 <= rr < h:
                    for dc in (-1, 0, 1):
                        cc = c + dc
                        if (dr or dc) and 0 <= cc < w:
                            number[rr * w + cc] += 1
    opened = bytearray(n)
    flagged = bytearray(n)
    safe = n - mines
    open_count = 0
    target = a.open * safe
    candidates = [(h // 2) * w + w // 2]

    def neighbours(i):
        r, c = divmod(i, w)
        for dr in (-1, 0, 1):
            rr = r + dr
            if 0 <= rr < h:
                for dc in (-1, 0, 1):
                    cc = c + dc
                    if (dr or dc) and 0 <= cc < w:
                        yield rr * w + cc

    def open_from(start, touched):
        nonlocal open_count
        stack = [start]
        while stack:
            i = stack.pop()
            if opened[i]:
                continue
            opened[i] = 1
            open_count += 1
            touched.append(i)
            for j in neighbours(i):
                if not opened[j]:
                    if number[i] == 0:
                        stack.append(j)
                    elif not mine[j]:
                        candidates.append(j)

    def deduce(queue):
        # Single-number deductions to the fixpoint, from the numbers in
        # `queue` (and those whose neighbourhood changes).
        while queue and (a.deduce_to_end or open_count < target):
            i = queue.pop()
            if not opened[i]:
                continue
            closed = [j for j in neighbours(i) if not opened[j] and not flagged[j]]
            if not closed:
                continue
            left = number[i] - sum(flagged[j] for j in neighbours(i))
            if left == 0:
                for j in closed:
                    touched = []
                    open_from(j, touched)
                    for t in touched:
                        queue.append(t)
                        queue.extend(neighbours(t))
            elif left == len(closed):
                for j in closed:
                    flagged[j] = 1
                    queue.extend(neighbours(j))

    while open_count < target:
        if a.scattered:
            start = rng.randrange(n)
        else:
            if not candidates:
                break
            k = rng.randrange(len(candidates))
            start = candidates[k]
            candidates[k] = candidates[-1]
            candidates.pop()
        if mine[start] or opened[start]:
            continue
        touched = []
        open_from(start, touched)
        if not a.no_deduce:
            queue = []
            for t in touched:
                queue.append(t)
                queue.extend(neighbours(t))
            deduce(queue)
    with open(a.output, "w") as f:
        if not a.no_total:
            f.write(f"mines {mines}\n")
        chars = "." + "12345678"
        for r in range(h):
            row = opened[r * w:(r + 1) * w]
            f.write("".join(chars[number[r * w + c]] if row[c]
                            else ("F" if flagged[r * w + c] else "?") for c in range(w)))
            f.write("\n")
    print(f"{a.output}: {h}x{w}, {mines} mines, {open_count} of {safe} safe cells open",
          file=sys.stderr)


if __name__ == "__main__":
    main()
