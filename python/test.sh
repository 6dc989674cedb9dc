#!/usr/bin/env bash
# Builds and tests the `sapper` Python package: a venv in target/pyenv (at
# the repository root), maturin, pytest, numpy and ms_toollib 1.5.20 there,
# `pip install ./python`, then pytest on python/tests; exits with pytest's
# code. Needs Rust (cargo) and Python >= 3.9 (python3, or $PYTHON).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/target/pyenv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet maturin pytest numpy "ms_toollib==1.5.20"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python

set +e
"$venv/bin/python" -m pytest -q python/tests "$@"
status=$?
set -e
exit "$status"
