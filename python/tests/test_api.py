"""analyse, next_move and play answer with the CLI's JSON keys and agree
with the probabilities."""

import json
import math
import subprocess

import numpy as np

import sapper
from positions import expert_positions
from test_docs import sapper_binary


def test_analyse_agrees_with_probabilities():
    for board in expert_positions(seed=3, count=30):
        a = sapper.analyse(board, mines=99)
        assert list(a) == ["safe", "mines", "deductions", "by_source", "unknown_left"]
        assert list(a["by_source"]) == ["rules", "single_cell", "linked_cells_1",
                                        "linked_cells_2", "hypotheses"]
        p = sapper.probabilities(board, mines=99)
        assert sorted(a["safe"]) == sorted([r, c] for r, c in zip(*np.nonzero(p == 0.0)))
        assert sorted(a["mines"]) == sorted([r, c] for r, c in zip(*np.nonzero(p == 1.0)))
        closed = int((np.array(board) == 10).sum())
        assert a["unknown_left"] == closed - len(a["safe"]) - len(a["mines"])
        assert sum(a["by_source"].values()) == len(a["deductions"])


def test_next_move_protocol():
    for board in expert_positions(seed=4, count=30):
        m = sapper.next_move(board, mines=99)
        p = sapper.probabilities(board, mines=99)
        assert set(m) <= {"open", "flag", "guess", "p_mine"}
        assert isinstance(m["guess"], bool)
        if m["guess"]:
            (r, c), = m["open"]
            assert abs(m["p_mine"] - p[r][c]) <= 1e-12
        else:
            assert m["open"] and all(p[r][c] == 0.0 for r, c in m["open"])
        assert all(p[r][c] == 1.0 for r, c in m["flag"])
    m = sapper.next_move(["mines 1", "???", "?1?", "???"])
    assert m["guess"] and m["p_mine"] == 0.125


def test_play_summary():
    s = sapper.play("beginner", games=100, seed=3)
    assert s["games"] == 100 and 0 <= s["wins"] <= 100
    assert s["level"] == {"rows": 9, "cols": 9, "mines": 10}
    assert s["first_click"] == "safe" and s["start"] == [0, 0] and s["seed"] == 3
    lo, hi = s["ci95"]
    assert lo <= s["win_rate"] <= hi
    assert set(s["opened_by_rule_order"]) == {"1", "2", "3"}
    assert s["guessing"] == {
        "free_fifties": True,
        "influence": 0.9,
        "blend": True,
        "skip_dead": True,
        "off_frontier": 2,
        "isolated": True,
        "third_move": False,
    }
    assert s == {**s, "games_per_second": s["games_per_second"]}
    again = sapper.play(rows=9, cols=9, mines=10, games=100, seed=3)
    assert again["wins"] == s["wins"]
    deep = sapper.play("beginner", games=100, seed=3, third_move=True)
    assert deep["guessing"] == {**s["guessing"], "third_move": True}
    op = sapper.play("expert", games=20, first_click="opening")
    assert op["start"] == [3, 3] and op["first_click"] == "opening"


def test_play_options_give_the_cli_games():
    for kwargs, flags in [
        ({"policy": "least", "endgame_layouts": 0}, ["--policy", "least", "--endgame-layouts", "0"]),
        ({"without": ["blend", "off-frontier-cap"], "endgame_layouts": 40},
         ["--without", "blend,off-frontier-cap", "--endgame-layouts", "40"]),
    ]:
        py = sapper.play("beginner", games=400, seed=8, **kwargs)
        cli = json.loads(subprocess.run(
            [sapper_binary(), "play", "--level", "beginner", "--games", "400", "--seed", "8",
             "--json", *flags], check=True, capture_output=True, text=True).stdout)
        assert {**py, "games_per_second": 0} == {**cli, "games_per_second": 0}, kwargs
        if "policy" in kwargs:
            least = py
    default = sapper.play("beginner", games=400, seed=8)
    assert least["guesses_per_game"] != default["guesses_per_game"]


def test_numpy_inputs():
    board = expert_positions(seed=5, count=1)[0]
    expected = sapper.probabilities(board, mines=99)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        np.testing.assert_array_equal(sapper.probabilities(np.array(board, dtype=dtype), mines=99),
                                      expected)
    np.testing.assert_array_equal(
        sapper.probabilities(np.asfortranarray(np.array(board)), mines=99), expected)
    assert sapper.count_layouts(np.full((16, 30), 10), 99) == math.comb(480, 99)
