"""Browser tests of what the analyser says about its answers: which rule
or method proved a cell, a refusal of the probabilities beside the board
with the player's move kept, and the count of layouts written short."""

import json
import random

import pytest
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS, api
from helpers import (
    broken_words,
    expert_midgame,
    open_page,
    paste_position,
    rect,
    set_analyser_board,
    short_count,
    shown_count,
    tooltip,
    wait_analysed,
)

METHOD_WORDS = {
    "single_cell": "single-cell",
    "linked_cells_1": "linked cells 1",
    "linked_cells_2": "linked cells 2",
    "hypotheses": "hypotheses",
}


def test_proof_tooltips_name_the_rule_order_or_the_method(browser, server):
    # An expert position whose forced cells are proved both by rules and
    # by a method: the opening of seed 5 and a few rounds of safe moves.
    for rounds in range(1, 12):
        _, rows = expert_midgame(server, seed=5, rounds=rounds, per_round=3)
        status, expected = api(server, "/api/probabilities", {"rows": rows, "mines": 99})
        assert status == 200, expected
        sources = {d["source"] for d in expected["deductions"]}
        if "rules" in sources and sources - {"rules"}:
            break
    else:
        pytest.fail("no position of seed 5 has cells proved by rules and by a method")
    open_page(browser, server)
    paste_position(browser, "mines 99\n" + "\n".join(rows) + "\n")
    assert wait_analysed(browser) == "done"
    for d in expected["deductions"]:
        r, c = d["cell"]
        title = tooltip(browser, "a-board", r, c)
        assert title.startswith(f"({r}, {c}): proven {d['value']} by "), (d, title)
        if d["source"] == "rules":
            assert f"a rule of order {d['order']}" in title, (d, title)
        else:
            assert METHOD_WORDS[d["source"]] in title, (d, title)


def checkerboard(n, density, reveal, seed):
    """A consistent n × n position whose frontier is one huge component:
    mines only on the cells with r + c odd (each a mine with chance
    `density`), each other cell revealed with chance `reveal`. Returns
    (rows, the mine total)."""
    rng = random.Random(seed)
    mine = [[(r + c) % 2 == 1 and rng.random() < density for c in range(n)] for r in range(n)]
    rows = []
    for r in range(n):
        row = ""
        for c in range(n):
            if (r + c) % 2 == 1 or rng.random() > reveal:
                row += "?"
            else:
                row += str(sum(mine[r + dr][c + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < n and 0 <= c + dc < n))
        rows.append(row)
    return rows, sum(map(sum, mine))


def test_refused_probabilities_keep_the_move_and_show_the_error_by_the_board(browser, server):
    rows, mines = checkerboard(100, 0.6, 0.8, seed=1)
    status, refused = api(server, "/api/probabilities", {"rows": rows, "mines": mines})
    assert status == 422, "the server should refuse this position's probabilities (over its budget)"
    status, move = api(server, "/api/move", {"rows": rows, "mines": mines})
    assert status == 200 and not move["guess"] and move["open"], move
    open_page(browser, server)
    paste_position(browser, f"mines {mines}\n" + "\n".join(rows) + "\n")
    assert wait_analysed(browser) == "error"
    status_box = browser.find_element(By.ID, "a-status")
    assert refused["error"] in status_box.text, status_box.text
    assert "move" in status_box.text
    # Beside the board: just above its top, within the first screen.
    board = browser.find_element(By.ID, "a-board")
    above, top = rect(browser, status_box), rect(browser, board)
    assert 0 <= top["top"] - above["bottom"] <= 40, (above, top)
    assert above["top"] < browser.execute_script("return innerHeight")
    # The move is kept: its safe cells marked and drawn proven, its mines too.
    drawn = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#a-board .cell')]"
        ".map((e) => [e.dataset.r + ',' + e.dataset.c, [e.textContent, e.classList.contains('move')]]))"
    )
    for r, c in move["open"]:
        assert drawn[f"{r},{c}"] == ["S", True], (r, c)
    for r, c in move["flag"]:
        assert drawn[f"{r},{c}"] == ["M", False], (r, c)
    others = set(drawn) - {f"{r},{c}" for r, c in move["open"] + move["flag"]}
    assert not [k for k in others if drawn[k][0] in ("S", "M") or drawn[k][1]], "only the move's cells are drawn proven"
    r, c = move["open"][0]
    assert f"open ({r}, {c})" in browser.find_element(By.ID, "a-move").text
    assert "the player's move opens it" in tooltip(browser, "a-board", r, c)
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(SCREENSHOTS / "analyser-refused.png"))


def test_the_layout_count_is_short_and_no_word_is_broken(browser, server):
    open_page(browser, server)
    set_analyser_board(browser, 100, 100, 2000)
    assert wait_analysed(browser) == "done"
    status, expected = api(server, "/api/probabilities", {"rows": ["?" * 100] * 100, "mines": 2000})
    assert status == 200 and len(expected["layouts"]) > 1000
    assert shown_count(browser) == short_count(expected["layouts"])
    assert len(browser.find_element(By.ID, "a-layouts").text) < 20
    assert broken_words(browser, "a-layouts", "a-safest", "a-move", "a-status") == []
    layouts = rect(browser, browser.find_element(By.ID, "a-layouts"))
    assert layouts["height"] < 30, "one line"
    browser.save_screenshot(str(SCREENSHOTS / "analyser-100x100.png"))
    # A count of at most 15 digits is exact: beginner's C(81, 10).
    set_analyser_board(browser, 9, 9, 10)
    assert wait_analysed(browser) == "done"
    assert shown_count(browser) == "1,878,392,407,320"
    assert broken_words(browser, "a-layouts", "a-safest", "a-move", "a-status") == []


def test_short_counts_match_an_independent_writing(browser, server):
    """format.js's shortCount against short_count (this file's), on counts
    of every length around the cut and at the rounding edges; and from a
    logarithm alone (boards too large for an exact count)."""
    rng = random.Random(3)
    counts = ["1", "12", "999999999999999", "1000000000000000", "9994999", "9995000000000000", "99999999999999999"]
    for digits in range(1, 40):
        counts.append(str(rng.randrange(10 ** (digits - 1), 10**digits)))
    counts.append("1234" + "0" * 1844)
    open_page(browser, server)
    shown = browser.execute_async_script(
        "const [counts, done] = arguments;"
        "import('/assets/format.js').then((f) => done(counts.map((c) => f.shortCount(c, null).text)"
        ".concat([f.shortCount(undefined, 1848.0899051).text, f.shortCount(undefined, 2.9999999).text])))",
        counts,
    )
    assert shown[: len(counts)] == [short_count(c) for c in counts], json.dumps(list(zip(counts, shown)))
    assert shown[len(counts) :] == ["1.23 × 10^1848", "10^3"]
