"""The README's Python example runs, and prints what the README shows."""
import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_example():
    """The README's ```python block and the ```text block right after it."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```\s*```text\n(.*?)```", text, re.S)
    assert match, "README.md has no ```python block followed by its ```text output"
    return match.group(1), match.group(2)


def test_the_readme_python_example_prints_what_the_readme_shows():
    code, shown = python_example()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
