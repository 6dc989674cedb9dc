"""Browser tests of the game's controls: a lost game's board, the seed and
Replay, custom sizes within the server's limits, keyboard play and the
touch flag mode."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SCREENSHOTS, api
from helpers import cell, game, hinted, new_game, open_page, wait_game


def neighbours(i, rows, cols):
    r, c = divmod(i, cols)
    return [(r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def chord_target(g):
    """An open number of game `g` with a closed safe neighbour: (the
    number's index, its mines, its closed safe neighbours)."""
    rows, cols = g["rows"], g["cols"]
    for i in range(rows * cols):
        if not g["open"][i] or g["values"][i] <= 0:
            continue
        around = neighbours(i, rows, cols)
        safe = [n for n in around if not g["open"][n] and not g["mine"][n]]
        if safe:
            return i, [n for n in around if g["mine"][n]], safe
    return None


def overlaid(browser):
    return browser.find_elements(By.CSS_SELECTOR, "#p-board .cell.heat, #p-board .cell.hint, #p-board .cell.hint-mine")


def test_a_lost_game_keeps_no_overlay_or_hints(browser, server):
    new_game(browser, server, "beginner", "random", 7)
    cell(browser, "p-board", 0, 0).click()
    wait_game(browser, "playing")
    browser.find_element(By.ID, "p-overlay").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#p-board .cell.heat"))
    browser.find_element(By.ID, "p-hint").click()
    WebDriverWait(browser, 30).until(lambda d: hinted(d))
    g = game(browser)
    # A safe cell (the overlay is asked again) and at once a mine.
    safe = next(i for i in range(81) if not g["open"][i] and not g["mine"][i])
    mine = g["mine"].index(True)
    cell(browser, "p-board", *divmod(safe, 9)).click()
    cell(browser, "p-board", *divmod(mine, 9)).click()
    assert wait_game(browser, "lost") == "lost"
    time.sleep(1.5)  # past any answer still on its way
    assert overlaid(browser) == []
    shown = browser.find_elements(By.CSS_SELECTOR, "#p-board .cell[data-state='mine']")
    assert len(shown) == 10 - sum(1 for i in range(81) if g["flag"][i] and g["mine"][i])
    browser.save_screenshot(str(SCREENSHOTS / "play-lost.png"))


def test_the_seed_is_shown_and_replays_the_same_board(browser, server):
    for kind in ("random", "noguess"):
        new_game(browser, server, "intermediate", kind, None)
        seed = browser.find_element(By.ID, "p-game-seed").text
        assert seed.isdigit(), seed
        cell(browser, "p-board", 7, 9).click()
        wait_game(browser, "playing", "won")
        assert "first click (7, 9)" in browser.find_element(By.CLASS_NAME, "game-id").text
        first = game(browser)
        # Replay: the same board, the same first click made.
        browser.find_element(By.ID, "p-replay").click()
        wait_game(browser, "playing", "won")
        again = game(browser)
        assert again["mine"] == first["mine"] and again["open"] == first["open"], kind
        assert browser.find_element(By.ID, "p-game-seed").text == seed
        # The seed typed in: the same board from the same first click.
        box = browser.find_element(By.ID, "p-seed")
        box.clear()
        box.send_keys(seed)
        browser.find_element(By.ID, "p-new").click()
        assert browser.find_element(By.ID, "p-game-seed").text == seed
        cell(browser, "p-board", 7, 9).click()
        wait_game(browser, "playing", "won")
        assert game(browser)["mine"] == first["mine"], kind
        if kind == "noguess":
            status, board = api(server, "/api/generate", {"rows": 16, "cols": 16, "mines": 40, "seed": int(seed), "first_click": [7, 9]})
            assert status == 200
            assert [v < 0 for row in board["layout"] for v in row] == first["mine"]
    browser.save_screenshot(str(SCREENSHOTS / "play-seed.png"))


def set_custom(browser, rows, cols, mines, kind, seed):
    Select(browser.find_element(By.ID, "p-level")).select_by_value("custom")
    for key, value in (("p-rows", rows), ("p-cols", cols), ("p-mines", mines), ("p-seed", seed)):
        box = browser.find_element(By.ID, key)
        box.clear()
        box.send_keys(str(value))
    Select(browser.find_element(By.ID, "p-kind")).select_by_value(kind)
    browser.find_element(By.ID, "p-new").click()


def test_a_custom_game_within_the_servers_limits(browser, server):
    open_page(browser, server)
    browser.find_element(By.ID, "tab-play").click()
    set_custom(browser, 20, 25, 60, "noguess", 9)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#p-board .cell")) == 500
    cell(browser, "p-board", 10, 12).click()
    wait_game(browser, "playing", "won")
    g = game(browser)
    status, board = api(server, "/api/generate", {"rows": 20, "cols": 25, "mines": 60, "seed": 9, "first_click": [10, 12]})
    assert status == 200
    assert g["mine"] == [v < 0 for row in board["layout"] for v in row]
    assert browser.find_element(By.ID, "p-left").text == "60"
    browser.save_screenshot(str(SCREENSHOTS / "play-custom.png"))
    # A random board of another size: its mines, the first click safe.
    set_custom(browser, 30, 40, 200, "random", 4)
    cell(browser, "p-board", 0, 39).click()
    wait_game(browser, "playing", "won")
    g = game(browser)
    assert (g["rows"], g["cols"], sum(g["mine"])) == (30, 40, 200) and not g["mine"][39]
    # Out of the limits: said, and no game.
    for rows, cols, mines, words in (
        (101, 10, 10, "Rows must be a whole number from 1 to 100"),
        (10, 0, 10, "Columns must be a whole number from 1 to 100"),
        (10, 10, 100, "Mines must be a whole number from 1 to 99"),
        (10, 10, 0, "Mines must be a whole number from 1 to 99"),
    ):
        set_custom(browser, rows, cols, mines, "random", 4)
        message = browser.find_element(By.ID, "p-message")
        assert message.get_attribute("data-state") == "error" and words in message.text, message.text
        assert browser.execute_script("return document.body.dataset.game") == "invalid"
    # Dense for a no-guess board: the server's reason.
    set_custom(browser, 5, 5, 17, "noguess", 4)
    cell(browser, "p-board", 2, 2).click()
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "p-message").get_attribute("data-state") == "error")
    assert "mines do not fit" in browser.find_element(By.ID, "p-message").text


def keys(browser, *sequence):
    ActionChains(browser).send_keys(*sequence).perform()


def cursor(browser):
    found = browser.find_elements(By.CSS_SELECTOR, "#p-board .cell.cursor")
    assert len(found) <= 1
    return (int(found[0].get_attribute("data-r")), int(found[0].get_attribute("data-c"))) if found else None


def move_to(browser, target):
    """Moves the cursor to (r, c) with h j k l."""
    r, c = cursor(browser)
    tr, tc = target
    keys(browser, ("j" if tr > r else "k") * abs(tr - r) + ("l" if tc > c else "h") * abs(tc - c))
    assert cursor(browser) == target


def test_keyboard_play_moves_opens_flags_and_chords(browser, server):
    new_game(browser, server, "beginner", "random", 7)
    # The first arrow puts the cursor in the middle; arrows and h j k l move it.
    keys(browser, Keys.ARROW_DOWN)
    assert cursor(browser) == (4, 4)
    keys(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_UP)
    assert cursor(browser) == (3, 6)
    keys(browser, "hhhjj")
    assert cursor(browser) == (5, 3)
    keys(browser, "jjjjjjjj")  # held at the edge
    assert cursor(browser) == (8, 3)
    move_to(browser, (0, 0))
    keys(browser, Keys.SPACE)
    wait_game(browser, "playing")
    assert cell(browser, "p-board", 0, 0).get_attribute("data-state") == "open"
    g = game(browser)
    target = chord_target(g)
    assert target, "seed 7 should leave a number to chord on"
    number, mines, safe = target
    for m in mines:
        move_to(browser, divmod(m, 9))
        keys(browser, "f")
        assert cell(browser, "p-board", *divmod(m, 9)).get_attribute("data-state") == "flag"
    move_to(browser, divmod(number, 9))
    keys(browser, Keys.ENTER)
    for n in safe:
        assert cell(browser, "p-board", *divmod(n, 9)).get_attribute("data-state") == "open"
    # f again unflags.
    move_to(browser, divmod(mines[0], 9))
    keys(browser, "f")
    assert cell(browser, "p-board", *divmod(mines[0], 9)).get_attribute("data-state") == "closed"
    browser.save_screenshot(str(SCREENSHOTS / "play-keyboard.png"))


def test_flag_mode_makes_a_tap_flag(browser, server):
    new_game(browser, server, "beginner", "random", 7)
    cell(browser, "p-board", 0, 0).click()
    wait_game(browser, "playing")
    toggle = browser.find_element(By.ID, "p-flagmode")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    g = game(browser)
    number, mines, safe = chord_target(g)
    closed = cell(browser, "p-board", *divmod(safe[0], 9))
    closed.click()
    assert closed.get_attribute("data-state") == "flag"
    assert browser.find_element(By.ID, "p-left").text == "9"
    closed.click()
    assert closed.get_attribute("data-state") == "closed"
    # Taps flag the mines; a tap on the number chords.
    for m in mines:
        cell(browser, "p-board", *divmod(m, 9)).click()
    cell(browser, "p-board", *divmod(number, 9)).click()
    for n in safe:
        assert cell(browser, "p-board", *divmod(n, 9)).get_attribute("data-state") == "open"
    browser.save_screenshot(str(SCREENSHOTS / "play-flag-mode.png"))
    # Off again: a tap opens.
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    g = game(browser)
    other = next(i for i in range(81) if not g["open"][i] and not g["mine"][i] and not g["flag"][i])
    cell(browser, "p-board", *divmod(other, 9)).click()
    assert cell(browser, "p-board", *divmod(other, 9)).get_attribute("data-state") == "open"
