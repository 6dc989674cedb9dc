"""Fixtures of the browser tests: a `sapper serve` process on a free
loopback port and a headless Debian Chromium driven by chromedriver.

A missing browser or driver FAILS the tests (never skips them)."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "target" / "screenshots"


def sapper_binary() -> Path:
    """The binary under test: $SAPPER_BIN (./test.sh names the one
    `cargo test` built), else the release binary target/release/sapper
    (under $CARGO_TARGET_DIR when set)."""
    if os.environ.get("SAPPER_BIN"):
        return Path(os.environ["SAPPER_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "sapper"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server():
    """The server's base URL; the process is stopped after the session.
    With $SAPPER_URL set, the server already running there is tested
    instead (no process is started)."""
    if os.environ.get("SAPPER_URL"):
        yield os.environ["SAPPER_URL"].rstrip("/")
        return
    binary = sapper_binary()
    if not binary.exists():
        pytest.fail(f"{binary} is missing: run `cargo build --release` first")
    port = free_port()
    process = subprocess.Popen(
        [str(binary), "serve", "--addr", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 20
    while True:
        try:
            urllib.request.urlopen(url + "/palette.json", timeout=1).read()
            break
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                pytest.fail(f"sapper serve did not start: {process.stderr.read().decode()}")
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


def api(server: str, path: str, body: dict):
    """POSTs `body` to the API: (status, parsed JSON)."""
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (Debian's) through chromedriver, with the flags
    that keep it off the (closed) network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        pytest.fail(
            "Chromium or chromedriver is missing: apt-get install -y chromium chromium-driver "
            "(tests/web/test.sh does it)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile = tempfile.mkdtemp(prefix="sapper-chromium-")
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1500,1000",
    ]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(30)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)
