"""Browser tests of the page's review: a replay file loaded (file input,
drag and drop), its metrics against `sapper review --json`, its moves
stepped through with buttons, the slider and the keys, the verdicts in
words and each position's heat map against /api/probabilities."""

import base64
import json
import math
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, SCREENSHOTS, api, sapper_binary
from helpers import broken_words, label, open_page, phone, rect, tooltip

REPLAYS = ROOT / "tests" / "data" / "replays"
EXPERT = REPLAYS / "rmv" / "wmp_exp.rmv"
LOST = REPLAYS / "evf" / "sw_c_10_39.832_24_0.477_Pu_Tian_Yi_fail.evf"


def cli_review(path):
    """`sapper review --json` of one file: the reference the page must show."""
    out = subprocess.run([str(sapper_binary()), "review", "--json", str(path)], check=True, capture_output=True)
    return json.loads(out.stdout)


def cell_name(rc):
    return f"({rc[0]}, {rc[1]})"


def pct(p):
    """format.js's pct, written again: three significant digits of the
    distance to the nearer end (0 or 100%)."""
    x = p * 100
    if x in (0, 100):
        return f"{x:g}%"
    near = min(x, 100 - x)
    decimals = 1 if near >= 10 else 2 if near >= 1 else 2 - math.floor(math.log10(near))
    if decimals <= 8:
        return f"{x:.{decimals}f}%"

    def exp(v):  # JavaScript's toExponential(2): no padded exponent
        m, e = f"{v:.2e}".split("e")
        return f"{m}e{int(e)}"

    return f"{exp(x)}%" if x < 50 else f"(100 − {exp(100 - x)})%"


def open_review(browser, server, path):
    """Opens the review tab and loads `path` through its file input."""
    open_page(browser, server)
    browser.find_element(By.ID, "tab-review").click()
    browser.find_element(By.ID, "r-file").send_keys(str(path))
    return wait_review(browser)


def wait_review(browser):
    WebDriverWait(browser, 60).until(
        lambda d: d.execute_script("return document.body.dataset.review") in ("ready", "error")
    )
    return browser.execute_script("return document.body.dataset.review")


def wait_status(browser, state, word):
    """Waits until the review's status is in `state` and names `word`."""
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "r-status").get_attribute("data-state") == state
        and word in d.find_element(By.ID, "r-status").text
    )


def shown_step(browser):
    return browser.execute_script("return window.sapper.review.step")


def wait_heat(browser, step):
    """Waits until move `step` is shown with its probabilities drawn."""
    WebDriverWait(browser, 30).until(
        lambda d: d.execute_script(
            "const r = window.sapper.review; return r.step === arguments[0] && r.result !== null", step
        )
    )


def check_board(browser, server, review, step):
    """The board shows move `step`'s position, every closed or flagged
    cell's probability as /api/probabilities gives it (flags taken as
    closed cells), the heat colours drawn, and the clicked cell marked
    with its verdict. Returns the API's answer."""
    move = review["clicks"][step]
    rows = [row.replace("F", "?").replace(".", "0") for row in move["position"]]
    status, expected = api(server, "/api/probabilities", {"rows": rows, "mines": review["mines"]})
    assert status == 200, expected
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#r-board .cell')].map(e =>"
        " [Number(e.dataset.r), Number(e.dataset.c), e.dataset.state, e.dataset.p ?? null, e.textContent,"
        "  e.dataset.verdict ?? null, e.classList.contains('heat'), e.style.background])"
    )
    assert len(shown) == review["rows"] * review["cols"]
    heat = 0
    for r, c, state, p, text, verdict, is_heat, background in shown:
        ch = move["position"][r][c]
        want = expected["probabilities"][r][c]
        if ch == "?":
            assert state == "closed", (r, c, state)
        elif ch == "F":
            assert (state, text) == ("flag", "⚑"), (r, c, state, text)
        else:
            assert state == "number" and text == ("" if ch == "." else ch), (r, c, state, text)
        if want is None:
            assert p is None, (r, c, p)
        else:
            assert p is not None and abs(float(p) - want) <= 1e-12, (r, c, p, want)
            if ch == "?":
                assert text == label(want), (r, c, text, want)
                if 0 < want < 1:
                    assert is_heat and background, (r, c)
                    heat += 1
        assert (verdict is not None) == ([r, c] == move["cell"] or (
            move["action"] == "chord" and ch == "?" and max(abs(r - move["cell"][0]), abs(c - move["cell"][1])) == 1
        )), (r, c, verdict)
        if verdict is not None:
            assert verdict == move["verdict"]
    r, c = move["cell"]
    if move["action"] in ("open", "flag", "unflag") and move["source"] != "first_click":
        # The verdict's probability is the heat map's, for the clicked cell
        # (not for the first click: the game protects it).
        assert expected["probabilities"][r][c] == move["p_mine"]
    clicked = browser.find_element(By.CSS_SELECTOR, "#r-board .cell.clicked")
    assert (int(clicked.get_attribute("data-r")), int(clicked.get_attribute("data-c"))) == (r, c)
    assert f"verdict-{move['verdict']}" in clicked.get_attribute("class")
    return expected, heat


def verdict_text(browser):
    return browser.find_element(By.ID, "r-verdict-text").text


def test_an_expert_replay_from_the_file_input_shows_its_metrics_and_steps_to_its_guess(browser, server):
    review = cli_review(EXPERT)
    assert open_review(browser, server, EXPERT) == "ready"
    assert browser.find_element(By.ID, "r-status").get_attribute("data-state") == "done"

    # The summary: every metric as the CLI gives it, with an explanation.
    def metric(key):
        return browser.find_element(By.CSS_SELECTOR, f"#r-summary td[data-metric='{key}'] .metric-value").text

    assert metric("bbbv") == "106"
    for key, want in [("openings", 16), ("islands", 17), ("zini", 88), ("left", 67), ("right", 37), ("double", 74),
                      ("cl", 178), ("ce", 142), ("guesses", 1), ("needless_guesses", 1), ("flags", 35)]:
        assert review[key] == want, key
        assert metric(key) == str(want), key
    assert metric("time") == f"{review['time']:.3f} s"
    assert metric("bbbv_per_s") == f"{review['bbbv_per_s']:.3f}"
    assert metric("ioe") == f"{review['ioe']:.3f}"
    assert metric("luck") == "50.0%"
    assert (metric("risk"), metric("least_risk")) == ("0.50", "0.00")
    for td in browser.find_elements(By.CSS_SELECTOR, "#r-summary td"):
        assert len(td.get_attribute("title")) > 20, td.get_attribute("data-metric")

    # The first move: the first click, safe by the game's protection.
    assert shown_step(browser) == 0
    assert browser.find_element(By.ID, "r-step").text.startswith(f"Move 1 of {len(review['clicks'])} ")
    assert verdict_text(browser) == "safe — the first click (the game keeps it free of mines)"
    wait_heat(browser, 0)
    check_board(browser, server, review, 0)
    browser.save_screenshot(str(SCREENSHOTS / "review-summary.png"))

    # A chord: the cells it opens are marked with its verdict.
    chord = next(k for k, m in enumerate(review["clicks"])
                 if m["action"] == "chord" and any(
                     m["position"][r][c] == "?"
                     for r in range(m["cell"][0] - 1, m["cell"][0] + 2) for c in range(m["cell"][1] - 1, m["cell"][1] + 2)
                     if 0 <= r < 16 and 0 <= c < 30))
    browser.execute_script("window.sapper.review.go(arguments[0])", chord)
    wait_heat(browser, chord)
    check_board(browser, server, review, chord)
    assert browser.find_elements(By.CSS_SELECTOR, "#r-board .cell.chorded")
    assert verdict_text(browser).startswith("safe — every cell the chord opens is proven by rules")
    # Its cells are proven by one pattern, shown with each of them marked.
    chord = next(k for k, m in enumerate(review["clicks"])
                 if m["action"] == "chord" and m["proof"] and "".join(m["proof"]["pattern"]).count("S") > 1)
    browser.execute_script("window.sapper.review.go(arguments[0])", chord)
    wait_heat(browser, chord)
    proof = review["clicks"][chord]["proof"]
    assert verdict_text(browser) == (
        f"safe — every cell the chord opens is proven by rules: the {proof['name']} at {cell_name(proof['foci'][0])}")
    assert browser.find_element(By.ID, "r-proof").text == "\n".join(p.rstrip() for p in proof["pattern"])
    browser.save_screenshot(str(SCREENSHOTS / "review-chord.png"))

    # Flags: one on a proven mine names its proof, one not proven its chance.
    for verdict in ("proven_mine", "unproven_flag"):
        step = next(k for k, m in enumerate(review["clicks"]) if m["verdict"] == verdict)
        move = review["clicks"][step]
        browser.execute_script("window.sapper.review.go(arguments[0])", step)
        wait_heat(browser, step)
        check_board(browser, server, review, step)
        if verdict == "proven_mine":
            proof = move["proof"]
            assert len(proof["foci"]) == 1
            want = f"flag on a proven mine — proven by rules: the {proof['name']} at {cell_name(proof['foci'][0])}"
        else:
            want = f"{move['action']} not proven: {pct(move['p_mine'])} mine"
            if move["p_mine"] == 0:
                want += " (the cell is proven safe)"
        assert verdict_text(browser) == want

    # Keys: → on, ← back, End the last, Home the first.
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert shown_step(browser) == 0
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert shown_step(browser) == 2
    body.send_keys(Keys.ARROW_LEFT)
    assert shown_step(browser) == 1
    body.send_keys(Keys.END)
    assert shown_step(browser) == len(review["clicks"]) - 1
    assert browser.find_element(By.ID, "r-next").get_attribute("disabled")
    body.send_keys(Keys.HOME)
    assert shown_step(browser) == 0
    assert browser.find_element(By.ID, "r-prev").get_attribute("disabled")

    # A safe opening proven by a rule, reached with the slider: its
    # verdict names the pattern, which is shown.
    step = next(k for k, m in enumerate(review["clicks"])
                if m["verdict"] == "safe" and m["action"] == "open" and m["proof"] and k > 20)
    move = review["clicks"][step]
    slider = browser.find_element(By.ID, "r-slider")
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", slider, step
    )
    wait_heat(browser, step)
    proof = move["proof"]
    where = " and ".join(cell_name(f) for f in proof["foci"])
    kind = f"the {proof['name']} at" if len(proof["foci"]) == 1 else f"the {proof['name']} pattern at"
    assert verdict_text(browser) == f"safe — proven by rules: {kind} {where}"
    assert browser.find_element(By.ID, "r-proof").text == "\n".join(p.rstrip() for p in proof["pattern"])
    _, heat = check_board(browser, server, review, step)
    assert heat > 0
    foci = browser.execute_script(
        "return [...document.querySelectorAll('#r-board .cell.focus')].map(e => [Number(e.dataset.r), Number(e.dataset.c)])"
    )
    assert sorted(foci) == sorted(proof["foci"])
    r, c = move["cell"]
    assert "the player's open: safe" in tooltip(browser, "r-board", r, c)
    browser.save_screenshot(str(SCREENSHOTS / "review-safe.png"))

    # The guess, from the list: a needless 50% guess; the safe cell named
    # is one the API proves safe in that position.
    guesses = browser.find_elements(By.CSS_SELECTOR, "#r-guesses button")
    assert len(guesses) == 1
    guesses[0].click()
    step = next(k for k, m in enumerate(review["clicks"]) if m["verdict"] == "guess")
    wait_heat(browser, step)
    assert "current" in guesses[0].get_attribute("class")
    expected, heat = check_board(browser, server, review, step)
    assert heat > 0
    text = verdict_text(browser)
    assert text.startswith("guess: 50.0% mine; a safe cell was available at ("), text
    named = [int(x) for x in text.rsplit("(", 1)[1].rstrip(")").split(", ")]
    assert expected["probabilities"][named[0]][named[1]] == 0
    assert browser.find_element(By.CSS_SELECTOR, "#r-board .cell.clicked").text == "50%"
    browser.save_screenshot(str(SCREENSHOTS / "review-guess.png"))

    # The other views still work.
    browser.find_element(By.ID, "tab-analyser").click()
    assert browser.find_element(By.ID, "analyser").is_displayed()
    assert not browser.find_element(By.ID, "review").is_displayed()
    body.send_keys(Keys.ARROW_RIGHT)
    assert shown_step(browser) == step  # the review's keys act only while it is shown


def test_a_lost_game_says_the_chance_the_losing_click_had(browser, server):
    review = cli_review(LOST)
    assert open_review(browser, server, LOST) == "ready"
    last = len(review["clicks"]) - 1
    assert review["clicks"][last]["verdict"] == "lost"
    browser.find_element(By.ID, "r-last").click()
    wait_heat(browser, last)
    move = review["clicks"][last]
    text = verdict_text(browser)
    assert text.startswith(f"lost: {pct(move['p_mine'])} mine"), text
    assert pct(move["p_mine"]) == "76.3%"
    check_board(browser, server, review, last)
    browser.save_screenshot(str(SCREENSHOTS / "review-lost.png"))
    # Every guess and the loss are listed, in order.
    listed = [int(b.get_attribute("data-step")) for b in browser.find_elements(By.CSS_SELECTOR, "#r-guesses button")]
    assert listed == [k for k, m in enumerate(review["clicks"]) if m["verdict"] in ("guess", "lost")]
    # The guess buttons walk the guesses.
    browser.find_element(By.ID, "r-first").click()
    browser.find_element(By.ID, "r-next-guess").click()
    assert shown_step(browser) == listed[0]
    browser.find_element(By.ID, "r-next-guess").click()
    assert shown_step(browser) == listed[1]
    browser.find_element(By.ID, "r-prev-guess").click()
    assert shown_step(browser) == listed[0]


def test_a_replay_dropped_on_the_review_is_read(browser, server):
    path = REPLAYS / "rmv" / "wmp_int.rmv"
    review = cli_review(path)
    open_page(browser, server)
    browser.find_element(By.ID, "tab-review").click()
    browser.execute_script(
        """
        const bytes = Uint8Array.from(atob(arguments[0]), (ch) => ch.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], arguments[1]));
        const zone = document.querySelector('header');  // outside the review: the whole page takes it
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: transfer, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
        """,
        base64.b64encode(path.read_bytes()).decode(),
        path.name,
    )
    assert wait_review(browser) == "ready"
    shown = browser.find_element(By.CSS_SELECTOR, "#r-summary td[data-metric='bbbv'] .metric-value").text
    assert shown == str(review["bbbv"])
    assert "wmp_int.rmv" in browser.find_element(By.ID, "r-status").text
    assert not browser.find_element(By.ID, "review").get_attribute("class")  # the drop mark is gone


def test_a_bad_file_shows_an_error_beside_the_file_control(browser, server, tmp_path):
    # A corrupt replay: the server's reader names the file and the byte.
    bad = tmp_path / "broken.rmv"
    bad.write_bytes(b"not a replay at all")
    assert open_review(browser, server, bad) == "error"
    status = browser.find_element(By.ID, "r-status")
    assert status.get_attribute("data-state") == "error"
    assert status.text.startswith("broken.rmv: byte 0:"), status.text
    assert not browser.find_element(By.ID, "r-body").is_displayed()
    # Next to the control: on the same line.
    picker = browser.find_element(By.CSS_SELECTOR, "#review .file-button")
    a, b = rect(browser, picker), rect(browser, status)
    assert b["left"] > a["right"] and b["top"] < a["bottom"] and b["bottom"] > a["top"], (a, b)
    # A truncated expert game: an error, not a partial review.
    cut = tmp_path / "cut.rmv"
    cut.write_bytes(EXPERT.read_bytes()[:300])
    browser.find_element(By.ID, "r-file").send_keys(str(cut))
    wait_status(browser, "error", "cut.rmv")
    assert status.get_attribute("data-state") == "error"
    assert "byte" in status.text, status.text
    # A file that is no replay by its name is refused by the page itself.
    other = tmp_path / "picture.png"
    other.write_bytes(b"\x89PNG")
    browser.find_element(By.ID, "r-file").send_keys(str(other))
    wait_status(browser, "error", "picture.png")
    assert "not a replay file" in status.text
    # A good file after the errors is read.
    browser.find_element(By.ID, "r-file").send_keys(str(EXPERT))
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "r-status").get_attribute("data-state") == "done")
    assert browser.find_element(By.ID, "r-body").is_displayed()


def test_the_review_fits_a_phones_width(browser, server):
    with phone(browser):
        review = cli_review(EXPERT)
        assert open_review(browser, server, EXPERT) == "ready"
        step = next(k for k, m in enumerate(review["clicks"]) if m["verdict"] == "guess")
        browser.find_element(By.CSS_SELECTOR, "#r-guesses button").click()
        wait_heat(browser, step)
        fit = browser.execute_script(
            """
            const board = document.getElementById('r-board'), wrap = board.closest('.board-wrap');
            return {page: document.documentElement.scrollWidth, frameRight: board.closest('.frame').getBoundingClientRect().right,
                    wrapScroll: wrap.scrollWidth - wrap.clientWidth, summaryRight: document.getElementById('r-summary').getBoundingClientRect().right,
                    cell: board.querySelector('.cell').getBoundingClientRect().width};
            """
        )
        assert fit["page"] <= 390 and fit["frameRight"] <= 390 and fit["wrapScroll"] == 0, fit
        assert fit["summaryRight"] <= 390 and fit["cell"] >= 8, fit
        assert broken_words(browser, "r-summary", "r-verdict-text", "r-step") == []
        browser.save_screenshot(str(SCREENSHOTS / "phone-review.png"))
