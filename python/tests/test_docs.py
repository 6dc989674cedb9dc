"""The Python referee of docs/design.md (the engine protocol) runs against
the sapper binary and prints the cells to open."""
import contextlib
import io
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sapper_binary():
    """The CLI built last (`cargo test` builds the debug one; a release one
    left from an earlier build may be older than the source)."""
    built = [p for p in (ROOT / "target" / b / "sapper" for b in ("release", "debug"))
             if p.exists()]
    if not built:
        pytest.fail("no target/release/sapper or target/debug/sapper: run `cargo build` first")
    return max(built, key=lambda p: p.stat().st_mtime)


def test_the_design_referee_example_runs_against_the_engine(monkeypatch):
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text[text.index("### The engine protocol"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.setenv("PATH", f"{sapper_binary().parent}{os.pathsep}{os.environ['PATH']}")
    out = io.StringIO()
    scope = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/design.md", "exec"), scope)
    scope["engine"].stdin.close()
    scope["engine"].wait(timeout=30)
    lines = out.getvalue().splitlines()
    assert lines and all(re.fullmatch(r"open \d \d", line) for line in lines), lines
