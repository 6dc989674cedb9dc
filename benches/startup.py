#!/usr/bin/env python3
"""Start-up of `sapper solve` with grown rulebases against the default.

Runs `sapper solve CORPUS` once with the embedded default rulebase and once
with `--rules F` for every rulebase F given, alternated, ROUNDS times, as
whole processes; each run's wall time and peak resident memory come from
`wait4` (the child's own rusage, not the largest of all children). Prints
per variant the median, min and max wall time, the median of the
round-by-round differences to the default (what a rulebase adds to
start-up: its overhead over the default) and the peak memory.

    python3 benches/startup.py /tmp/big.rules /tmp/learn.rules
    python3 benches/startup.py --rounds 21 --sapper target/release/sapper \
        --corpus ../shared/data/sgt-expert /tmp/big.rules --json

A rulebase with a saved index (`sapper rules index F`) loads it; one
without is proven and indexed at every start, which this measures too.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TIME = "/usr/bin/time"


def run(cmd):
    """Wall seconds and peak RSS (KB) of one run of `cmd`, output discarded."""
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        done = subprocess.run(
            [TIME, "-f", "%M", "-o", rss.name] + cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wall = time.perf_counter() - start
        if done.returncode != 0:
            err = done.stderr.decode(errors="replace")
            sys.exit(f"{' '.join(cmd)} exited with {done.returncode}:\n{err}")
        return wall, int(rss.read().split()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rulebases", nargs="*", help="rulebase files to compare with the default")
    p.add_argument("--sapper", default="target/release/sapper")
    p.add_argument("--corpus", default="../shared/data/sgt-expert")
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--json", action="store_true", help="one JSON object per variant")
    args = p.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{TIME} (GNU time) is needed for peak memory: apt-get install time")
    if args.rounds < 1:
        sys.exit("--rounds must be at least 1")
    for f in args.rulebases:
        if not os.path.isfile(f):
            sys.exit(f"{f}: no such rulebase file")

    variants = [("default", [])] + [(f, ["--rules", f]) for f in args.rulebases]
    base = [args.sapper, "solve", args.corpus]
    run(base)  # warm the page cache and the binary
    walls = {name: [] for name, _ in variants}
    rss = {name: [] for name, _ in variants}
    for _ in range(args.rounds):
        for name, extra in variants:
            w, m = run(base + extra)
            walls[name].append(w)
            rss[name].append(m)

    for name, _ in variants:
        w = walls[name]
        over = [a - b for a, b in zip(w, walls["default"])]
        row = {
            "rulebase": name,
            "rounds": args.rounds,
            "median_ms": round(1e3 * statistics.median(w), 2),
            "min_ms": round(1e3 * min(w), 2),
            "max_ms": round(1e3 * max(w), 2),
            "median_overhead_ms": round(1e3 * statistics.median(over), 2),
            "peak_rss_mb": round(max(rss[name]) / 1024, 1),
        }
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{name:<24} median {row['median_ms']:7.2f} ms "
                f"(min {row['min_ms']:.2f}, max {row['max_ms']:.2f}), "
                f"over the default {row['median_overhead_ms']:+.2f} ms, "
                f"peak {row['peak_rss_mb']} MB"
            )


if __name__ == "__main__":
    main()
