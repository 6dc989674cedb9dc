#!/usr/bin/env bash
# Browser tests of `sapper serve`: installs what is missing (Debian's
# chromium and chromium-driver, a venv with selenium and pytest under
# target/webenv), builds the release binary unless $SAPPER_BIN names the
# binary to test (./test.sh passes the one `cargo test` built), and runs
# tests/web with pytest.
# Screenshots go to target/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "tests/web: installing chromium and chromium-driver" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

venv=target/webenv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium, pytest" 2>/dev/null; then
    echo "tests/web: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check selenium pytest
fi

if [ -z "${SAPPER_BIN:-}" ]; then
    cargo build --release
fi
PYTHONDONTWRITEBYTECODE=1 exec "$venv/bin/python" -m pytest -p no:cacheprovider -v tests/web "$@"
