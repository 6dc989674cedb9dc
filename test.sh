#!/usr/bin/env bash
# Every test of the project, on a fresh machine with Rust and Python 3:
#   1. Rust: unit, integration, property and doc tests (cargo test);
#   2. Python: python/test.sh builds the stripped abi3 wheel
#      (target/wheels) and tests it installed in a fresh venv with no Rust
#      on PATH, against ms_toollib and brute force;
#   3. Browser: the `sapper serve` page in headless Chromium
#      (tests/web/test.sh: installs Debian's chromium and chromium-driver
#      when they are missing, a venv in target/webenv). It drives the
#      `sapper` binary step 1 built (optimised, with debug assertions),
#      so a fresh run makes no second, release build of it, and they run
#      beside step 2, their output shown after it.
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

# The binary the Rust tests ran, from cargo's own report of what it built
# (the arguments before any `--`); none when those tests built no CLI.
cargo_args=()
for a in "$@"; do
    [ "$a" = "--" ] && break
    cargo_args+=("$a")
done
bin="$(cargo test --workspace --no-run --message-format=json "${cargo_args[@]}" 2>/dev/null |
    python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    t = m.get("target", {})
    if (m.get("reason") == "compiler-artifact" and t.get("name") == "sapper"
            and "bin" in t.get("kind", []) and not m["profile"]["test"]
            and m.get("executable")):
        print(m["executable"])
')" || bin=""

# With that binary, the browser tests need no build: they run beside the
# Python part (which builds the wheel), their output kept and shown after.
if [ -n "${SAPPER_BIN:-}" ] || [ -z "$bin" ]; then
    run bash python/test.sh
    run bash tests/web/test.sh
else
    web_log="$(mktemp)"
    trap 'rm -f "$web_log"' EXIT
    # A session of its own, so that Ctrl-C (which a background job of a
    # script ignores) stops it with its server and browser.
    SAPPER_BIN="$bin" setsid bash tests/web/test.sh >"$web_log" 2>&1 &
    web=$!
    trap 'kill -TERM -- -"$web" 2>/dev/null; exit 130' INT TERM
    run bash python/test.sh
    wait "$web"
    web_status=$?
    echo "== SAPPER_BIN=$bin bash tests/web/test.sh (run beside the Python part)"
    cat "$web_log"
    if [ "$web_status" -ne 0 ] && [ "$status" -eq 0 ]; then
        status=$web_status
    fi
fi
exit "$status"
