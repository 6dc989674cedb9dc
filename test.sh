#!/usr/bin/env bash
# Every test of the project, on a fresh machine with Rust and Python 3:
#   1. Rust: unit, integration, property and doc tests (cargo test);
#   2. Python: python/test.sh builds the stripped abi3 wheel
#      (target/wheels) and tests it installed in a fresh venv with no Rust
#      on PATH, against ms_toollib and brute force;
#   3. Browser: the `sapper serve` page in headless Chromium
#      (tests/web/test.sh: installs Debian's chromium and chromium-driver
#      when they are missing, a venv in target/webenv).
# Each part runs even if an earlier one failed; the exit status is the
# first failure's. Arguments are passed to `cargo test`.
set -uo pipefail
cd "$(dirname "$0")"

status=0
run() {
    echo "== $*"
    "$@"
    local s=$?
    if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then
        status=$s
    fi
}

run cargo test --workspace "$@"
run bash python/test.sh
run bash tests/web/test.sh
exit "$status"
