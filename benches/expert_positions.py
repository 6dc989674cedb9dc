#!/usr/bin/env python3
"""Writes the 300 expert mid-game positions of the probability benchmarks
to one file, for the Rust benchmarks that read them (`benches/counting.rs`).

Usage:
    python3 benches/expert_positions.py [--seed S] [--count N] [--out FILE]

The positions are exactly those of `benches/probabilities_baseline.py`
and `benches/python_baseline.py` (their `make_positions`, seed 1, 300
positions by default), in sapper's position text format (`mines 99`, `?`
closed, `.`/`1`-`8` open), one after the other with a blank line between
them. Only the standard library is needed: the generator does not use
ms_toollib, so a stand-in module is put in its place for the import.
"""
import argparse
import os
import sys
import types

sys.modules.setdefault("ms_toollib", types.ModuleType("ms_toollib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probabilities_baseline import make_positions, position_text  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "data", "expert-midgame-300.txt"))
    args = ap.parse_args()
    boards = make_positions(args.seed, args.count)
    with open(args.out, "w") as f:
        f.write("\n".join(position_text(b) for b in boards))
    print(f"{len(boards)} positions (seed {args.seed}) written to {args.out}")


if __name__ == "__main__":
    main()
