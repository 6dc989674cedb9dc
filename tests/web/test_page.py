"""Browser tests of `sapper serve`'s page in a real (headless) Chromium:
the analyser's probabilities against the API's, files and keys, and a
no-guess game played to a win by following the hints."""

import math
import re
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SCREENSHOTS, api

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


def open_page(browser, server):
    browser.get(server + "/")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def cell(browser, board, r, c):
    return browser.find_element(By.CSS_SELECTOR, f"#{board} .cell[data-r='{r}'][data-c='{c}']")


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


def board_position(server, seed):
    """A beginner layout's first opening (clicked at (4,4)): the rows a
    player sees, the total, and the layout's numbers."""
    status, board = api(server, "/api/generate", {"rows": 9, "cols": 9, "mines": 10, "seed": seed, "first_click": [4, 4]})
    assert status == 200, board
    layout = board["layout"]
    h, w = len(layout), len(layout[0])
    opened, stack = set(), [(4, 4)]
    while stack:
        r, c = stack.pop()
        if (r, c) in opened or layout[r][c] < 0:
            continue
        opened.add((r, c))
        if layout[r][c] == 0:
            stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < h and 0 <= c + dc < w]
    rows = ["".join(str(layout[r][c]) if (r, c) in opened else "?" for c in range(w)) for r in range(h)]
    return rows, 10


def check_against_api(browser, server, rows, mines):
    """Every cell the page shows against /api/probabilities: the same
    probability (within 1e-12), the same label, the palette's colour."""
    status, expected = api(server, "/api/probabilities", {"rows": rows, "mines": mines})
    assert status == 200, expected
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#a-board .cell')].map(e =>"
        " [Number(e.dataset.r), Number(e.dataset.c), e.dataset.p ?? null, e.textContent, e.title,"
        "  getComputedStyle(e).backgroundColor])"
    )
    palette = browser.execute_script("return (async () => (await fetch('/palette.json')).json())()")
    assert len(shown) == len(rows) * len(rows[0])
    forced = 0
    for r, c, p, text, title, background in shown:
        want = expected["probabilities"][r][c]
        if want is None:
            assert p is None, (r, c, p)
            continue
        assert p is not None, (r, c)
        assert abs(float(p) - want) <= 1e-12, (r, c, p, want)
        assert text == label(want), (r, c, text, want)
        if want in (0, 1):
            forced += 1
            assert re.match(r"proven (safe|mine) by ", title), (r, c, title)
        else:
            k = round(want * (palette["steps"] - 1))
            hexa = palette["heat"][k]
            rgb = tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))
            assert background == f"rgb({rgb[0]}, {rgb[1]}, {rgb[2]})", (r, c, background, hexa)
    layouts = browser.find_element(By.ID, "a-layouts").text
    assert layouts.startswith(expected["layouts"]), (layouts, expected["layouts"])
    return forced


def test_analyser_by_clicks_matches_the_api(browser, server):
    open_page(browser, server)
    rows, mines = board_position(server, seed=11)
    # Enter every revealed cell by clicks: a click cycles ? → 0 → … → 8.
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != "?":
                element = cell(browser, "a-board", r, c)
                for _ in range(CYCLE.index(ch)):
                    element.click()
    assert wait_analysed(browser) == "done"
    page_rows = browser.execute_script("return window.sapper.analyser.position.cells.join('')")
    assert page_rows == "".join(rows)
    forced = check_against_api(browser, server, rows, mines)
    assert forced > 0, "the opening proves some cells"
    browser.save_screenshot(str(SCREENSHOTS / "analyser-beginner.png"))


def test_analyser_keys_and_flags(browser, server):
    open_page(browser, server)
    # Hover + keys: a 1-2-1 under three closed cells.
    for c, key in enumerate("121"):
        ActionChains(browser).move_to_element(cell(browser, "a-board", 1, c)).send_keys(key).perform()
    for c in range(3):
        ActionChains(browser).move_to_element(cell(browser, "a-board", 2, c)).send_keys("0").perform()
    # A right click flags, `?` closes again.
    target = cell(browser, "a-board", 8, 8)
    ActionChains(browser).context_click(target).perform()
    assert target.get_attribute("data-state") == "flag"
    ActionChains(browser).move_to_element(target).send_keys("?").perform()
    assert cell(browser, "a-board", 8, 8).get_attribute("data-state") == "closed"
    assert wait_analysed(browser) == "done"
    assert cell(browser, "a-board", 0, 0).text == "M"
    assert cell(browser, "a-board", 0, 1).text == "S"
    assert "proven safe by" in cell(browser, "a-board", 0, 1).get_attribute("title")
    # A contradiction is reported, not drawn.
    ActionChains(browser).move_to_element(cell(browser, "a-board", 1, 1)).send_keys("8").perform()
    assert wait_analysed(browser) == "error"
    assert browser.find_element(By.ID, "a-status").text


def test_analyser_pasted_expert_position(browser, server):
    """A mid-game expert position pasted as text: the heat map screenshot."""
    open_page(browser, server)
    status, board = api(server, "/api/generate", {"rows": 16, "cols": 30, "mines": 99, "seed": 5, "first_click": [8, 15]})
    assert status == 200
    layout = board["layout"]
    h, w = 16, 30
    opened = set()

    def flood(r, c):
        stack = [(r, c)]
        while stack:
            r, c = stack.pop()
            if (r, c) in opened or layout[r][c] < 0:
                continue
            opened.add((r, c))
            if layout[r][c] == 0:
                stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < h and 0 <= c + dc < w]

    def rows_now():
        return ["".join(str(layout[r][c]) if (r, c) in opened else "?" for c in range(w)) for r in range(h)]

    flood(8, 15)
    # A few rounds of the player's safe moves: a frontier worth a heat map.
    for _ in range(3):
        status, move = api(server, "/api/move", {"rows": rows_now(), "mines": 99})
        assert status == 200 and not move["guess"]
        for r, c in move["open"][:6]:
            flood(r, c)
    rows = rows_now()
    text = "mines 99\n" + "\n".join(rows) + "\n"
    browser.find_element(By.CSS_SELECTOR, "#analyser details summary").click()
    area = browser.find_element(By.ID, "a-text")
    area.clear()
    browser.execute_script("arguments[0].value = arguments[1]", area, text)
    browser.find_element(By.ID, "a-paste").click()
    assert wait_analysed(browser) == "done"
    check_against_api(browser, server, rows, 99)
    browser.find_element(By.CSS_SELECTOR, "#analyser details summary").click()
    browser.save_screenshot(str(SCREENSHOTS / "analyser.png"))


def test_analyser_loads_an_mbf_file(browser, server, tmp_path):
    open_page(browser, server)
    # 9×9, mines in the far corner block: (3,3) opens most of the board.
    mines = [(7, 7), (8, 7), (7, 8)]
    data = bytes([9, 9, 0, len(mines)]) + b"".join(bytes([c, r]) for r, c in mines)
    path = tmp_path / "board.mbf"
    path.write_bytes(data)
    browser.find_element(By.ID, "a-file").send_keys(str(path))
    assert wait_analysed(browser) == "done"
    position = browser.execute_script("return window.sapper.analyser.position")
    assert (position["rows"], position["cols"], position["mines"]) == (9, 9, 3)
    assert position["cells"][3 * 9 + 3] == "0"
    assert position["cells"][8 * 9 + 8] == "?"
    assert cell(browser, "a-board", 8, 8).text == "S"  # surrounded by the three mines


def hinted(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('#p-board .cell.hint')].map(e => [e.dataset.r, e.dataset.c])"
    )


def new_game(browser, server, level, kind, seed):
    """Opens the page's game tab and starts a `kind` game of `level` with `seed`."""
    open_page(browser, server)
    browser.find_element(By.ID, "tab-play").click()
    Select(browser.find_element(By.ID, "p-level")).select_by_value(level)
    Select(browser.find_element(By.ID, "p-kind")).select_by_value(kind)
    seed_box = browser.find_element(By.ID, "p-seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    browser.find_element(By.ID, "p-new").click()


def test_play_a_no_guess_game_to_a_win_by_hints(browser, server):
    new_game(browser, server, "intermediate", "noguess", 42)
    cell(browser, "p-board", 8, 8).click()
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.game") == "playing")
    # A right click flags, another unflags; the counter follows.
    closed = browser.find_element(By.CSS_SELECTOR, "#p-board .cell[data-state='closed']")
    ActionChains(browser).context_click(closed).perform()
    assert browser.find_element(By.ID, "p-left").text == "39"
    ActionChains(browser).context_click(closed).perform()
    assert browser.find_element(By.ID, "p-left").text == "40"
    rounds = 0
    screenshot_taken = False
    while browser.execute_script("return document.body.dataset.game") == "playing":
        rounds += 1
        assert rounds < 400, "the game should end"
        browser.find_element(By.ID, "p-hint").click()
        WebDriverWait(browser, 30).until(
            lambda d: d.find_element(By.ID, "p-message").get_attribute("data-state") in ("hint", "error")
        )
        message = browser.find_element(By.ID, "p-message").text
        assert browser.find_element(By.ID, "p-message").get_attribute("data-state") == "hint", message
        assert "guess" not in message, f"a no-guess board needed a guess: {message}"
        cells = hinted(browser)
        assert cells, message
        if rounds == 4 and not screenshot_taken:
            browser.find_element(By.ID, "p-overlay").click()
            WebDriverWait(browser, 30).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "#p-board .cell.heat")
            )
            browser.find_element(By.ID, "p-hint").click()
            WebDriverWait(browser, 30).until(lambda d: hinted(d))
            browser.save_screenshot(str(SCREENSHOTS / "play-midgame.png"))
            screenshot_taken = True
            browser.find_element(By.ID, "p-overlay").click()
            cells = hinted(browser)
        for r, c in cells:
            element = cell(browser, "p-board", r, c)
            if element.get_attribute("data-state") == "closed":
                element.click()
    assert browser.execute_script("return document.body.dataset.game") == "won"
    assert "won" in browser.find_element(By.ID, "p-message").text
    assert screenshot_taken
    browser.save_screenshot(str(SCREENSHOTS / "play-won.png"))
    # The finished position goes to the analyser.
    browser.find_element(By.ID, "p-analyse").click()
    assert browser.find_element(By.ID, "analyser").is_displayed()
    assert wait_analysed(browser) == "done"


def test_play_random_game_and_chording(browser, server):
    new_game(browser, server, "beginner", "random", 7)
    cell(browser, "p-board", 0, 0).click()
    assert browser.execute_script("return document.body.dataset.game") in ("playing", "won")
    assert cell(browser, "p-board", 0, 0).get_attribute("data-state") == "open"
    # Chord: flag a proven mine next to a satisfied number, click the number.
    play = "window.sapper.play"
    layout = browser.execute_script(f"return [{play}.layout.mine, {play}.values, {play}.open]")
    mine, values, opened = layout
    for i in range(81):
        if not opened[i] or values[i] <= 0:
            continue
        r, c = divmod(i, 9)
        around = [(r + dr) * 9 + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9]
        closed_safe = [n for n in around if not opened[n] and not mine[n]]
        if not closed_safe:
            continue
        for n in around:
            if mine[n]:
                ActionChains(browser).context_click(cell(browser, "p-board", *divmod(n, 9))).perform()
        cell(browser, "p-board", r, c).click()
        for n in closed_safe:
            assert cell(browser, "p-board", *divmod(n, 9)).get_attribute("data-state") == "open"
        break
    else:
        pytest.fail("seed 7 should leave a number to chord on")
