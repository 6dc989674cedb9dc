"""Multi-core calls work in child processes of every start method, after
the parent used its threads (the example of the package docs)."""

import subprocess
import sys
import textwrap

import pytest

EXAMPLE = textwrap.dedent("""
    import multiprocessing as mp, sys, time
    import sapper

    def f(_):
        return (sapper.play("beginner", games=20, seed=1)["wins"],
                len(sapper.probabilities_many([["??1.", "?21.", "11.."]] * 4, mines=2)),
                sapper.generate(9, 9, 10, count=2, seed=1).shape)

    if __name__ == "__main__":
        parent = f(0)  # the parent's threads are running before the fork
        with mp.get_context(sys.argv[1]).Pool(1) as p:
            t = time.perf_counter()
            child = p.apply_async(f, (0,)).get(timeout=float(sys.argv[2]))
            seconds = time.perf_counter() - t
        assert child == parent, (child, parent)
        print(f"{seconds:.3f}")
""")


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_a_child_process_gets_working_threads(method, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(EXAMPLE)
    # The child's work takes milliseconds; a child without threads hangs
    # (the 10 s timeout). The time is printed for the record.
    done = subprocess.run([sys.executable, str(script), method, "10"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seconds = float(done.stdout)
    print(f"{method}: the child answered in {seconds:.3f} s")
    assert seconds < 5
