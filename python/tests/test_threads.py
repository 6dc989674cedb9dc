"""The GIL is released during long calls, and calls are thread-safe."""

import threading
import time

import numpy as np

import sapper
from positions import expert_positions


def progress_during(call):
    """How many times this thread counted while `call` ran in another."""
    span = {}

    def worker():
        span["start"] = time.perf_counter()
        call()
        span["end"] = time.perf_counter()

    t = threading.Thread(target=worker)
    ticks = []
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
    t.join()
    inside = [x for x in ticks if span["start"] < x < span["end"]]
    return len(inside), span["end"] - span["start"]


def test_other_threads_run_during_probabilities_many():
    # Enough boards for a call of well over 0.05 s on a fast machine too
    # (8,000 boards took 0.07-0.09 s on one; about 10 µs a board, on every
    # core).
    boards = expert_positions(seed=9, count=100) * 200
    count, seconds = progress_during(lambda: sapper.probabilities_many(boards, mines=99))
    assert seconds > 0.05
    assert count > 1000, (count, seconds)


def test_other_threads_run_during_play():
    count, seconds = progress_during(lambda: sapper.play("expert", games=200))
    assert count > 1000, (count, seconds)


def test_concurrent_calls_agree():
    boards = expert_positions(seed=10, count=40)
    expected = [sapper.probabilities(b, mines=99) for b in boards]
    errors = []

    def worker():
        for b, e in zip(boards, expected):
            if not np.array_equal(sapper.probabilities(b, mines=99), e, equal_nan=True):
                errors.append(b)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
