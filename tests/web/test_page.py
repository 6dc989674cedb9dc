"""Browser tests of `sapper serve`'s page in a real (headless) Chromium:
the analyser's probabilities against the API's, files and keys, and a
no-guess game played to a win by following the hints."""

import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS, api
from helpers import (
    CYCLE,
    cell,
    expert_midgame,
    hinted,
    label,
    new_game,
    open_page,
    paste_position,
    played,
    short_count,
    shown_count,
    tooltip,
    wait_analysed,
)


def board_position(server, seed):
    """A beginner layout's first opening (clicked at (4,4)): the rows a
    player sees and the total."""
    status, board = api(server, "/api/generate", {"rows": 9, "cols": 9, "mines": 10, "seed": seed, "first_click": [4, 4]})
    assert status == 200, board
    return played(board["layout"], [(4, 4)])[1], 10


def check_against_api(browser, server, rows, mines):
    """Every cell the page shows against /api/probabilities: the same
    probability (within 1e-12), the same label, the palette's colour."""
    status, expected = api(server, "/api/probabilities", {"rows": rows, "mines": mines})
    assert status == 200, expected
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#a-board .cell')].map(e =>"
        " [Number(e.dataset.r), Number(e.dataset.c), e.dataset.p ?? null, e.textContent,"
        "  getComputedStyle(e).backgroundColor])"
    )
    palette = browser.execute_script("return (async () => (await fetch('/palette.json')).json())()")
    assert len(shown) == len(rows) * len(rows[0])
    forced = 0
    for r, c, p, text, background in shown:
        want = expected["probabilities"][r][c]
        if want is None:
            assert p is None, (r, c, p)
            continue
        assert p is not None, (r, c)
        assert abs(float(p) - want) <= 1e-12, (r, c, p, want)
        assert text == label(want), (r, c, text, want)
        if want in (0, 1):
            forced += 1
            title = tooltip(browser, "a-board", r, c)
            assert re.match(rf"\({r}, {c}\): proven (safe|mine) by ", title), (r, c, title)
        else:
            k = round(want * (palette["steps"] - 1))
            hexa = palette["heat"][k]
            rgb = tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))
            assert background == f"rgb({rgb[0]}, {rgb[1]}, {rgb[2]})", (r, c, background, hexa)
    assert shown_count(browser) == short_count(expected["layouts"]), expected["layouts"]
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
    assert "proven safe by" in tooltip(browser, "a-board", 0, 1)
    # A contradiction is reported, not drawn.
    ActionChains(browser).move_to_element(cell(browser, "a-board", 1, 1)).send_keys("8").perform()
    assert wait_analysed(browser) == "error"
    assert browser.find_element(By.ID, "a-status").text


def test_analyser_pasted_expert_position(browser, server):
    """A mid-game expert position pasted as text: the heat map screenshot."""
    open_page(browser, server)
    _, rows = expert_midgame(server, seed=5, rounds=3, per_round=6)
    paste_position(browser, "mines 99\n" + "\n".join(rows) + "\n")
    assert wait_analysed(browser) == "done"
    check_against_api(browser, server, rows, 99)
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
