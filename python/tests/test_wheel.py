"""Under python/test.sh (SAPPER_WHEEL set): the package under test is the
wheel installed in the test venv, not the source tree, and the Rust
toolchain is not on PATH."""

import importlib.metadata
import os
import pathlib
import shutil
import sys

import pytest

import sapper

WHEEL = os.environ.get("SAPPER_WHEEL")
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not WHEEL, reason="python/test.sh sets SAPPER_WHEEL to the wheel it tests")
def test_the_package_is_the_installed_wheel_without_rust():
    package = pathlib.Path(sapper.__file__).resolve().parent
    assert package.is_relative_to(pathlib.Path(sys.prefix).resolve()), package
    assert not package.is_relative_to(ROOT / "python"), package
    dist = importlib.metadata.distribution("sapper")
    assert pathlib.Path(WHEEL).name.startswith(f"sapper-{dist.version}-")
    assert "abi3" in pathlib.Path(WHEEL).name
    files = {str(f) for f in dist.files}
    assert any(f.startswith("sapper/_sapper") and f.endswith(".so") for f in files), files
    assert shutil.which("cargo") is None and shutil.which("rustc") is None
