"""What the browser tests share: opening the page, finding cells, waiting
for the analyser, layouts played out from /api/generate, a phone's
viewport, and the checks of text and layout that several tests make."""

import math
import time
from contextlib import contextmanager

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import api

CYCLE = ["?", "0", "1", "2", "3", "4", "5", "6", "7", "8", "F"]


def label(p: float) -> str:
    """The page's (and the SVG's) label of a closed cell."""
    if p == 0:
        return "S"
    if p == 1:
        return "M"
    whole = math.floor(p * 100 + 0.5)  # half up, as JS Math.round and Rust round
    if whole < 1:
        return "<1%"
    if whole > 99:
        return ">99%"
    return f"{whole}%"


def short_count(exact: str) -> str:
    """A count as the page should show it: exact with thousands separators
    up to 15 digits, else three significant digits (half up) and a power
    of ten, `10^N` alone when they are 1.00."""
    if len(exact) <= 15:
        return f"{int(exact):,}"
    exponent = len(exact) - 1
    lead = (int(exact[:4]) + 5) // 10
    if lead == 1000:
        lead, exponent = 100, exponent + 1
    mantissa = f"{lead // 100}.{lead % 100:02d}"
    return f"10^{exponent}" if mantissa == "1.00" else f"{mantissa} × 10^{exponent}"


def shown_count(browser) -> str:
    """The analyser's count of layouts, its superscript written `^N`."""
    return browser.execute_script(
        "return [...document.getElementById('a-layouts').childNodes]"
        ".map((n) => (n.nodeName === 'SUP' ? '^' : '') + n.textContent).join('')"
    )


def open_page(browser, url):
    """Loads `url` (the server's root, or a link into the page) afresh."""
    browser.get("about:blank")
    browser.get(url if "/" in url.split("//", 1)[-1] else url + "/")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def cell(browser, board, r, c):
    return browser.find_element(By.CSS_SELECTOR, f"#{board} .cell[data-r='{r}'][data-c='{c}']")


def tooltip(browser, board, r, c):
    """The tooltip of a cell as a person sees it: the mouse on it."""
    element = cell(browser, board, r, c)
    ActionChains(browser).move_to_element(element).perform()
    return element.get_attribute("title")


def wait_analysed(browser, timeout=30):
    """Waits until the analyser's latest analysis is shown; returns its state."""

    def settled(d):
        state = d.execute_script(
            "const s = document.getElementById('a-status');"
            "return [s.dataset.state, Number(s.dataset.seq), window.sapper.analyser.seq]"
        )
        return state[0] if state[0] in ("done", "error") and state[1] == state[2] else False

    time.sleep(0.4)  # past the debounce
    return WebDriverWait(browser, timeout).until(settled)


def set_analyser_board(browser, rows, cols, mines):
    """A new all-closed board in the analyser, by its controls."""
    for key, value in (("a-rows", rows), ("a-cols", cols), ("a-mines", mines)):
        box = browser.find_element(By.ID, key)
        box.clear()
        box.send_keys(str(value))
    browser.find_element(By.ID, "a-new").click()


def paste_position(browser, text):
    """Loads a position text through the analyser's text box."""
    browser.find_element(By.CSS_SELECTOR, "#analyser details summary").click()
    area = browser.find_element(By.ID, "a-text")
    browser.execute_script("arguments[0].value = arguments[1]", area, text)
    browser.find_element(By.ID, "a-paste").click()
    browser.find_element(By.CSS_SELECTOR, "#analyser details summary").click()


def played(layout, clicks):
    """The cells a player has open after clicking `clicks` on `layout`
    (a 0 opens its neighbours), and the rows the player sees."""
    h, w = len(layout), len(layout[0])
    opened = set()
    for start in clicks:
        stack = [tuple(start)]
        while stack:
            r, c = stack.pop()
            if (r, c) in opened or layout[r][c] < 0:
                continue
            opened.add((r, c))
            if layout[r][c] == 0:
                stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < h and 0 <= c + dc < w]
    rows = ["".join(str(layout[r][c]) if (r, c) in opened else "?" for c in range(w)) for r in range(h)]
    return opened, rows


def expert_midgame(server, seed, rounds, per_round):
    """An expert position from a no-guess board of `seed`: the opening at
    (8, 15), then `rounds` rounds of the player's first `per_round` safe
    moves. Returns (layout, rows)."""
    status, board = api(server, "/api/generate", {"rows": 16, "cols": 30, "mines": 99, "seed": seed, "first_click": [8, 15]})
    assert status == 200, board
    layout = board["layout"]
    clicks = [(8, 15)]
    for _ in range(rounds):
        _, rows = played(layout, clicks)
        status, move = api(server, "/api/move", {"rows": rows, "mines": 99})
        assert status == 200 and not move["guess"], move
        clicks += move["open"][:per_round]
    return layout, played(layout, clicks)[1]


def new_game(browser, server, level, kind, seed):
    """Opens the page's game tab and starts a `kind` game of `level` with
    `seed` (None: the seed box left empty, a random seed)."""
    open_page(browser, server)
    browser.find_element(By.ID, "tab-play").click()
    Select(browser.find_element(By.ID, "p-level")).select_by_value(level)
    Select(browser.find_element(By.ID, "p-kind")).select_by_value(kind)
    seed_box = browser.find_element(By.ID, "p-seed")
    seed_box.clear()
    if seed is not None:
        seed_box.send_keys(str(seed))
    browser.find_element(By.ID, "p-new").click()


def game_state(browser):
    return browser.execute_script("return document.body.dataset.game")


def wait_game(browser, *states, timeout=30):
    WebDriverWait(browser, timeout).until(lambda d: game_state(d) in states)
    return game_state(browser)


def game(browser):
    """The game in the page: its layout (booleans), numbers and open cells."""
    return browser.execute_script(
        "const p = window.sapper.play;"
        "return {mine: p.layout && p.layout.mine, values: p.values, open: p.open, flag: p.flag,"
        " rows: p.rows, cols: p.cols, game: p.game}"
    )


def hinted(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('#p-board .cell.hint')].map(e => [e.dataset.r, e.dataset.c])"
    )


@contextmanager
def phone(browser, width=390, height=844):
    """A phone's viewport (390 × 844 CSS pixels, a mobile page, two device
    pixels a CSS pixel) for the block's duration."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def broken_words(browser, *ids):
    """The words (runs between spaces and dashes) of the elements `ids`
    that are split over two lines."""
    return browser.execute_script(
        """
        const broken = [];
        for (const id of arguments) {
          const el = document.getElementById(id);
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node; (node = walker.nextNode()); ) {
            const re = /[^\\s\\-–—]+/g;
            for (let m; (m = re.exec(node.data)); ) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (tops.size > 1) broken.push(`${id}: ${m[0].slice(0, 40)}`);
            }
          }
        }
        return broken;
        """,
        *ids,
    )


def rect(browser, element):
    return browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}",
        element,
    )
