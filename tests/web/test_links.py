"""Browser tests of links: a position or a game carried in the address's
fragment (never sent to the server) and restored by opening it."""

import random
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import cell, expert_midgame, game, new_game, open_page, paste_position, played, wait_analysed, wait_game


def position(browser):
    return browser.execute_script("return window.sapper.analyser.position")


def share(browser, button, field):
    """Clicks a link button; returns the link it offers (also the address now)."""
    browser.find_element(By.ID, button).click()
    link = browser.find_element(By.ID, field).get_attribute("value")
    assert link and browser.current_url == link, (link, browser.current_url)
    return link


def test_a_position_opens_from_its_link(browser, server):
    layout, rows = expert_midgame(server, seed=5, rounds=3, per_round=6)
    # Flags on mines and known safe cells too (true ones: the analysis stands).
    rows = [list(row) for row in rows]
    closed = [(r, c) for r in range(16) for c in range(30) if rows[r][c] == "?"]
    for r, c in [rc for rc in closed if layout[rc[0]][rc[1]] < 0][:8]:
        rows[r][c] = "F"
    for r, c in [rc for rc in closed if layout[rc[0]][rc[1]] >= 0][:8]:
        rows[r][c] = "*"
    rows = ["".join(row) for row in rows]
    open_page(browser, server)
    paste_position(browser, "mines 99\n" + "\n".join(rows) + "\n")
    assert wait_analysed(browser) == "done"
    link = share(browser, "a-share", "a-link")
    fragment = urllib.parse.urlsplit(link).fragment
    assert fragment.startswith("position=") and "mines=99" in fragment
    assert len(link) < 16 * 30, "runs are written short"
    expected = position(browser)
    open_page(browser, link)
    assert browser.find_element(By.ID, "analyser").is_displayed()
    assert position(browser) == expected
    assert wait_analysed(browser) == "done"
    browser.save_screenshot(str(SCREENSHOTS / "analyser-from-link.png"))
    # Without a mine count the link has none; a new fragment on the open
    # page (no reload) is opened too.
    paste_position(browser, "??1.\n?21.\n11..\n")
    link = share(browser, "a-share", "a-link")
    assert "mines" not in urllib.parse.urlsplit(link).fragment
    browser.execute_script("location.hash = '#position=~4?/?11?/1111&mines=2'")
    assert wait_analysed(browser) == "done"
    assert position(browser) == {"rows": 3, "cols": 4, "cells": list("?????11?1111"), "mines": 2}
    open_page(browser, link)
    assert position(browser) == {"rows": 3, "cols": 4, "cells": list("??10?2101100"), "mines": None}
    # A link that is no position says which character is wrong.
    open_page(browser, server + "/#position=??x?/????")
    error = browser.find_element(By.ID, "link-error")
    assert error.is_displayed()
    assert "row 0, character 2" in error.text and '"x"' in error.text, error.text
    open_page(browser, server + "/#position=???/??")
    assert "row 1 has 2 cells" in browser.find_element(By.ID, "link-error").text
    browser.execute_script("location.hash = '#position=~4?/?11?/1111&mines=2'")
    assert not browser.find_element(By.ID, "link-error").is_displayed()


def test_random_positions_survive_their_links(browser, server):
    """share.js's writing and reading of positions, on random positions
    rich in runs (of digits too, which are never run together)."""
    rng = random.Random(5)
    positions = []
    for _ in range(200):
        rows, cols = rng.randint(1, 12), rng.randint(1, 40)
        alphabet = rng.choice(["?F*0", "?12345678", "?F*012345678"])
        cells, ch = [], "?"
        for _ in range(rows * cols):
            if rng.random() < 0.3:
                ch = rng.choice(alphabet)
            cells.append(ch)
        mines = rng.choice([None, rng.randint(0, rows * cols)])
        positions.append({"rows": rows, "cols": cols, "cells": cells, "mines": mines})
    open_page(browser, server)
    back = browser.execute_async_script(
        "const [positions, done] = arguments;"
        "import('/assets/share.js').then((s) => done(positions.map((p) => s.readFragment('#' + s.positionFragment(p)).position)))",
        positions,
    )
    assert back == positions


def test_a_game_opens_from_its_link(browser, server):
    new_game(browser, server, "intermediate", "noguess", 1234)
    cell(browser, "p-board", 5, 6).click()
    wait_game(browser, "playing")
    link = share(browser, "p-share", "p-link")
    assert urllib.parse.urlsplit(link).fragment == "game=noguess&rows=16&cols=16&mines=40&seed=1234&click=5,6"
    first = game(browser)
    open_page(browser, link)
    assert browser.find_element(By.ID, "play").is_displayed()
    wait_game(browser, "playing")
    again = game(browser)
    assert again["mine"] == first["mine"] and again["open"] == first["open"]
    assert browser.find_element(By.ID, "p-game-seed").text == "1234"
    assert browser.find_element(By.ID, "p-level").get_attribute("value") == "intermediate"
    browser.save_screenshot(str(SCREENSHOTS / "play-from-link.png"))
    layout = [again["values"][r * 16 : r * 16 + 16] for r in range(16)]
    assert opened_cells(again) == played(layout, [(5, 6)])[0]
    # A custom random game, and a game shared before its first click.
    open_page(browser, server + "/#game=random&rows=12&cols=20&mines=30&seed=77&click=0,0")
    wait_game(browser, "playing", "won")
    g = game(browser)
    assert (g["rows"], g["cols"], sum(g["mine"]), g["game"]["seed"]) == (12, 20, 30, 77) and g["open"][0]
    assert browser.find_element(By.ID, "p-level").get_attribute("value") == "custom"
    assert browser.find_element(By.ID, "p-rows").get_attribute("value") == "12"
    open_page(browser, server + "/#game=random&rows=12&cols=20&mines=30&seed=77&click=0,0")
    wait_game(browser, "playing", "won")
    assert game(browser)["mine"] == g["mine"]
    open_page(browser, server + "/#game=random&rows=9&cols=9&mines=10&seed=8")
    assert browser.execute_script("return document.body.dataset.game") == "ready"
    assert browser.find_element(By.ID, "p-game-seed").text == "8"
    link = share(browser, "p-share", "p-link")
    assert urllib.parse.urlsplit(link).fragment == "game=random&rows=9&cols=9&mines=10&seed=8"
    # A bad game link is refused with its reason.
    open_page(browser, server + "/#game=random&rows=9&cols=9&mines=81&seed=8")
    assert 'mines "81" is not a whole number from 1 to 80' in browser.find_element(By.ID, "link-error").text


def opened_cells(g):
    return {divmod(i, g["cols"]) for i, o in enumerate(g["open"]) if o}
