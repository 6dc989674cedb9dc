#!/usr/bin/env python3
"""The paired difference of two players over the same games.

    sapper play --games 1000000 --seed 2026 --games-json a.jsonl --without third-move
    sapper play --games 1000000 --seed 2026 --games-json b.jsonl
    python3 benches/paired.py a.jsonl b.jsonl

Reads two `sapper play --games-json` files of the same games (same level,
seed and count) and prints each player's wins with the Wilson 95%
interval, the games only one of them won, and B − A in points with the 95%
interval of the paired difference (normal approximation over the per-game
differences −1, 0, 1).
"""
import json
import math
import sys


def outcomes(path):
    """Per game index, whether it was won."""
    won = {}
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    game = json.loads(line)
                    won[game["index"]] = game["won"]
                except (ValueError, KeyError, TypeError) as e:
                    sys.exit(f"{path}:{number}: not a --games-json line ({e!r})")
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    return won


def wilson(wins, n, z=1.96):
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def main(a_path, b_path):
    a, b = outcomes(a_path), outcomes(b_path)
    if a.keys() != b.keys():
        sys.exit(f"{a_path} and {b_path} do not hold the same games")
    n = len(a)
    only_a = sum(1 for k in a if a[k] and not b[k])
    only_b = sum(1 for k in a if b[k] and not a[k])
    d = (only_b - only_a) / n
    half = 1.96 * math.sqrt(((only_a + only_b) / n - d * d) / n)
    for name, won in (("A", a), ("B", b)):
        wins = sum(won.values())
        lo, hi = wilson(wins, n)
        print(f"{name}: {wins} / {n} = {100 * wins / n:.2f}% ({100 * lo:.2f}-{100 * hi:.2f})")
    print(f"B - A: {100 * d:+.3f} ± {100 * half:.3f} points; "
          f"discordant: {only_a} won by A only, {only_b} by B only")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
