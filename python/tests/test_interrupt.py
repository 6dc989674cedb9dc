"""Ctrl-C stops every long call: SIGINT during it raises KeyboardInterrupt
within a second.

Each call runs in a fresh interpreter (a call that ignored the signal
would run on and hit the timeout instead of hanging the test run); a
thread sends SIGINT to the process 0.5 s into the call, and the
interpreter prints how long after the signal KeyboardInterrupt came."""

import subprocess
import sys
import textwrap

import pytest

HARNESS = textwrap.dedent("""
    import faulthandler, os, signal, sys, threading, time
    faulthandler.dump_traceback_later(60, exit=True)  # what a hang was doing
    import numpy as np
    import sapper, sapper.compat
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
    "probabilities_many": (
        # 4,000 boards of 100x100, a closed band along an open region.
        "board = np.full((100, 100), 10, dtype=np.int8); board[:, :40] = 0; board[:, 39] = 1\n"
        "boards = np.broadcast_to(board, (4000, 100, 100))",
        "sapper.probabilities_many(boards, density=0.2)"),
    "probabilities_many_lists": (
        "board = [[0] * 39 + [1] + [10] * 60 for _ in range(100)]\nboards = [board] * 4000",
        "sapper.probabilities_many(boards, density=0.2)"),
    "laymine_solvable": ("", "sapper.compat.laymine_solvable(16, 30, 200, 3, 3, 10**9)"),
}


def run(setup, call):
    """The harness's outcome ("interrupted" or "finished") and seconds."""
    code = HARNESS.format(setup=setup, call=call)
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
