"""Ctrl-C stops every long call: SIGINT during it raises KeyboardInterrupt
within a second, on many boards as on one hard or huge board.

Each call runs in a fresh interpreter (a call that ignored the signal
would run on and hit the timeout instead of hanging the test run); a
thread sends SIGINT to the process 0.5 s into the call, and the
interpreter prints how long after the signal KeyboardInterrupt came."""

import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import sapper
from positions import lattice

HARNESS = textwrap.dedent("""
    import faulthandler, os, signal, sys, threading, time
    faulthandler.dump_traceback_later(60, exit=True)  # what a hang was doing
    import numpy as np
    import sapper, sapper.compat
    sys.path.insert(0, {tests!r})
    from positions import lattice
    {setup}
    sent = []
    def interrupt():
        time.sleep(0.5)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    t0 = time.perf_counter()
    print("calling", flush=True)
    try:
        {call}
        print("finished", time.perf_counter() - t0)
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - sent[0])
""")

# Each would run for minutes (or forever) if not stopped.
CALLS = {
    "play": ("", 'sapper.play("expert", games=10**6)'),
    "generate": ("", "sapper.generate(1, 1, 0, count=10**9)"),
    "generate_expert": ("", "sapper.generate(16, 30, 99, count=10**5)"),
    # Next to no uniform layout of 170 mines is no-guess: no board is found.
    "generate_rare": ("", "sapper.generate(16, 30, 170, count=10**6)"),
    # A repaired board of 130 mines takes a third of a second of one core;
    # boards are repaired 64 at a time.
    "generate_fast_dense": ("", 'sapper.generate(16, 30, 130, count=10**6, method="fast")'),
    # 4,000 boards of 100x100, lattice bands 8 rows high (about 5 ms a
    # board on two cores: some 20 s in all).
    "probabilities_many": (
        "board = np.array(lattice(100, 100, 0.2, 1, band=8)[0], dtype=np.int8)\n"
        "boards = np.broadcast_to(board, (4000, 100, 100))",
        "sapper.probabilities_many(boards, density=0.2)"),
    "probabilities_many_lists": (
        "boards = [lattice(100, 100, 0.2, 1, band=8)[0]] * 4000",
        "sapper.probabilities_many(boards, density=0.2)"),
    "laymine_solvable": ("", "sapper.compat.laymine_solvable(16, 30, 200, 3, 3, 10**9)"),
}

# One board each, seconds of work (lattices: numbers on every other cell
# of every other row, a frontier as wide as the board). Small boards first
# run on the calling thread, then move to the pool; the 600×600 boards
# (bands of lattice 8 rows high: a count past the 10 s budget; or one
# lattice, whose order alone takes seconds) go to the pool at once.
HARD = "board, mines = lattice({}, {}, {}, 1{})"
ONE_BOARD = {
    "probabilities": (HARD.format(22, 22, 0.37, ""), "sapper.probabilities(board, mines)"),
    "probabilities_huge": (HARD.format(600, 600, 0.3, ", band=8"),
                           "sapper.probabilities(board, mines)"),
    "count_layouts": (HARD.format(23, 40, 0.3, ""), "sapper.count_layouts(board, mines)"),
    "analyse": (HARD.format(40, 40, 0.37, ""), "sapper.analyse(board, mines)"),
    "analyse_huge": (HARD.format(600, 600, 0.3, ", band=8"), "sapper.analyse(board, mines)"),
    # One component as wide as the board: choosing its order takes seconds.
    "probabilities_wide": (HARD.format(600, 600, 0.3, ""), "sapper.probabilities(board, mines)"),
    "analyse_wide": (HARD.format(600, 600, 0.3, ""), "sapper.analyse(board, mines)"),
    "next_move": (HARD.format(40, 40, 0.37, ""), "sapper.next_move(board, mines)"),
    "cal_probability_onboard": (HARD.format(22, 22, 0.37, ""),
                                "sapper.compat.cal_probability_onboard(board, mines)"),
}


def run(setup, call):
    """The harness's outcome ("interrupted" or "finished") and seconds."""
    code = HARNESS.format(tests=os.path.dirname(os.path.abspath(__file__)), setup=setup,
                          call=call)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    called, outcome, seconds = done.stdout.split()
    return outcome, float(seconds)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_sigint_stops_a_long_call_within_a_second(name):
    outcome, seconds = run(*CALLS[name])
    print(f"{name}: {outcome} {seconds:.3f} s after SIGINT")
    assert outcome == "interrupted", (outcome, seconds)
    assert seconds < 1.0


@pytest.mark.parametrize("name", sorted(ONE_BOARD))
def test_sigint_stops_a_call_on_one_hard_board_within_a_second(name):
    setup, call = ONE_BOARD[name]
    outcome, seconds = run(setup, call)
    print(f"{name}: {outcome} {seconds:.3f} s after SIGINT")
    assert outcome == "interrupted", (outcome, seconds)
    assert seconds < 1.0


def test_a_call_too_long_for_the_calling_thread_answers_from_the_pool():
    """A call on one board still running after 0.05 s on the calling thread
    is dropped and run again in the pool with the whole budget: it answers
    (no budget error from the short deadline), as probabilities_many (the
    pool from the start) does, and analyse finds the cells the count
    forces."""
    board, mines = lattice(23, 40, 0.3, 1)
    sapper.probabilities([[10, 1]], mines=1)  # the engine, built
    t0 = time.perf_counter()
    p = sapper.probabilities(board, mines)
    assert time.perf_counter() - t0 > 0.05  # it did move
    np.testing.assert_array_equal(p, sapper.probabilities_many([board], mines)[0])
    a = sapper.analyse(board, mines)
    assert sorted(a["safe"]) == sorted(map(list, zip(*np.nonzero(p == 0))))
    assert sorted(a["mines"]) == sorted(map(list, zip(*np.nonzero(p == 1))))
    m = sapper.next_move(board, mines)
    assert m["open"] and all(p[r, c] == 0 for r, c in m["open"])
    # Its exact count takes about 0.25 s here (16×30 took 0.045-0.09 s:
    # at times done before the move).
    small, small_mines = lattice(20, 30, 0.3, 1)
    t0 = time.perf_counter()
    assert sapper.count_layouts(small, small_mines) > 0
    assert time.perf_counter() - t0 > 0.05
