#!/usr/bin/env bash
# Builds the `sapper` wheel and tests it the way a user installs it:
#   1. a build venv (target/pyenv, at the repository root) with maturin;
#      `maturin build --release --strip` makes one stripped abi3 wheel (every
#      CPython >= 3.9) in target/wheels;
#   2. a fresh venv (target/pywheel, made anew on each run) where that
#      wheel is installed with pytest, numpy and ms_toollib 1.5.20 (binary
#      wheels only), with no `cargo` or `rustc` on PATH;
#   3. pytest on python/tests in that venv, run from outside the source
#      tree, so `import sapper` is the installed wheel (test_wheel.py
#      checks it).
# Arguments are passed to pytest; exits with pytest's code. Needs Rust
# (cargo) for step 1 and Python >= 3.9 (python3, or $PYTHON). The tests
# that compare with the CLI need target/release/sapper or target/debug/sapper
# (`cargo build`; ./test.sh builds it first).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"

# 1. The wheel.
build="$root/target/pyenv"
if [ ! -x "$build/bin/python" ]; then
    "$python" -m venv "$build"
fi
"$build/bin/python" -m pip install --quiet --upgrade pip
"$build/bin/python" -m pip install --quiet "maturin>=1.7,<2"
wheels="$root/target/wheels"
rm -f "$wheels"/sapper-*.whl
"$build/bin/maturin" build --release --strip --manifest-path python/Cargo.toml --out "$wheels"
wheel="$(ls "$wheels"/sapper-*.whl)"
echo "wheel: $wheel ($(du -k "$wheel" | cut -f1) KB)"

# 2. A fresh venv, and a PATH without the Rust toolchain.
clean_path=""
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    if [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ]; then
        clean_path="${clean_path:+$clean_path:}$d"
    fi
done
if PATH="$clean_path" command -v cargo >/dev/null; then
    echo "cargo is still on PATH: $(PATH="$clean_path" command -v cargo)" >&2
    exit 1
fi
venv="$root/target/pywheel"
"$python" -m venv --clear "$venv"
PATH="$clean_path" "$venv/bin/python" -m pip install --quiet --upgrade pip
PATH="$clean_path" "$venv/bin/python" -m pip install --quiet --only-binary :all: \
    pytest numpy "ms_toollib==1.5.20" "$wheel"

# 3. The tests, against the installed wheel.
run="$root/target/pywheel-run"
mkdir -p "$run"
cd "$run"
set +e
PATH="$clean_path" SAPPER_WHEEL="$wheel" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    "$root/python/tests" "$@"
status=$?
set -e
exit "$status"
