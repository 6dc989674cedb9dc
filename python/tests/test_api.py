"""analyse, next_move and play answer with the CLI's JSON keys and agree
with the probabilities."""

import json
import math
import subprocess

import numpy as np
import pytest

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


def test_next_move_on_a_finished_game_says_it_is_over():
    # Every safe cell open: the closed cells left are the mines.
    over = {"open": [], "flag": [[0, 0]], "guess": False, "game_over": True}
    assert sapper.next_move(["mines 1", "?1", "11"]) == over
    assert sapper.next_move(["?1", "11"]) == over
    assert sapper.next_move(["F1", "11"], mines=1) == {**over, "flag": []}
    assert sapper.next_move([[0, 0], [0, 0]]) == {**over, "flag": []}
    # One safe cell left: not over.
    m = sapper.next_move(["mines 1", "??", "11"])
    assert "game_over" not in m and m["open"] and m["guess"]


def test_next_move_weighs_a_guess_by_the_density():
    board = ["????", "?1??", "????"]
    for density in (None, 0.1, 0.45):
        m = sapper.next_move(board, density=density)
        (r, c), = m["open"]
        p = sapper.probabilities(board, density=0.2 if density is None else density)
        assert m["guess"] and abs(m["p_mine"] - p[r][c]) <= 1e-12
    assert sapper.next_move(board, density=0.1)["p_mine"] != \
        sapper.next_move(board, density=0.45)["p_mine"]
    # With a total the density changes nothing.
    assert sapper.next_move(board, mines=2, density=0.45) == sapper.next_move(board, mines=2)
    with pytest.raises(sapper.InputError):
        sapper.next_move(board, density=1.5)


def test_answers_have_the_keys_of_their_typed_dicts():
    def check(answer, td):
        assert td.__required_keys__ <= set(answer) <= td.__required_keys__ | td.__optional_keys__
    board = expert_positions(seed=4, count=1)[0]
    a = sapper.analyse(board, mines=99)
    check(a, sapper.Analysis)
    check(a["by_source"], sapper.BySource)
    for d in a["deductions"]:
        check(d, sapper.Deduction)
    check(sapper.next_move(board, mines=99), sapper.Move)
    check(sapper.next_move(["mines 1", "?1", "11"]), sapper.Move)
    s = sapper.play("beginner", games=5, seed=1)
    check(s, sapper.PlaySummary)
    for key in ("level", "guessing", "opened_by_source", "opened_by_rule_order"):
        check(s[key], sapper.PlaySummary.__annotations__[key])


def test_help_shows_the_real_defaults():
    import inspect
    defaults = {name: p.default for name, p in inspect.signature(sapper.play).parameters.items()}
    assert defaults == {
        "level": None, "rows": None, "cols": None, "mines": None, "games": 1000, "seed": None,
        "first_click": "safe", "third_move": True, "policy": "second-safety",
        "endgame_layouts": 1000, "without": (),
    }
    # They are what the call does when they are left out.
    given = {k: v for k, v in defaults.items() if k not in ("level", "games", "seed")}
    assert {**sapper.play("beginner", games=50, seed=3, **given), "games_per_second": 0} == \
        {**sapper.play("beginner", games=50, seed=3), "games_per_second": 0}
    g = {name: p.default for name, p in inspect.signature(sapper.generate).parameters.items()}
    assert g == {"rows": inspect.Parameter.empty, "cols": inspect.Parameter.empty,
                 "mines": inspect.Parameter.empty, "count": 1, "seed": None,
                 "first_click": "opening", "method": "uniform"}
    np.testing.assert_array_equal(
        sapper.generate(9, 9, 10, seed=4),
        sapper.generate(9, 9, 10, seed=4, count=1, first_click="opening", method="uniform"))
    for f in (sapper.probabilities, sapper.probabilities_many, sapper.next_move, sapper.analyse,
              sapper.count_layouts, sapper.is_solvable):
        assert "..." not in str(inspect.signature(f)), f


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
        "dead": True,
        "off_frontier_cap": 2,
        "isolated": True,
        "third_move": True,
    }
    assert s == {**s, "games_per_second": s["games_per_second"]}
    again = sapper.play(rows=9, cols=9, mines=10, games=100, seed=3)
    assert again["wins"] == s["wins"]
    shallow = sapper.play("beginner", games=100, seed=3, third_move=False)
    assert shallow["guessing"] == {**s["guessing"], "third_move": False}
    assert shallow == {**sapper.play("beginner", games=100, seed=3, without="third-move"),
                       "games_per_second": shallow["games_per_second"]}
    op = sapper.play("expert", games=20, first_click="opening")
    assert op["start"] == [3, 3] and op["first_click"] == "opening"
    at = sapper.play("beginner", games=20, seed=2, first_click=[4, 4])
    assert at["start"] == [4, 4] and at["first_click"] == "opening"
    assert at["wins"] == sapper.play("beginner", games=20, seed=2, first_click=(4, 4))["wins"]


def test_play_without_a_seed_draws_one_and_reports_it():
    a, b = sapper.play("beginner", games=30), sapper.play("beginner", games=30)
    assert a["seed"] != b["seed"]
    again = sapper.play("beginner", games=30, seed=a["seed"])
    assert {**again, "games_per_second": 0} == {**a, "games_per_second": 0}


def test_without_takes_one_name_or_several():
    one = sapper.play("beginner", games=50, seed=4, without="influence")
    assert one["guessing"]["influence"] == 0.0
    assert {**one, "games_per_second": 0} == \
        {**sapper.play("beginner", games=50, seed=4, without=["influence"]), "games_per_second": 0}
    two = sapper.play("beginner", games=50, seed=4, without="blend,dead")
    assert two["guessing"]["blend"] is False and two["guessing"]["dead"] is False
    assert two["guessing"] == sapper.play("beginner", games=1, seed=4,
                                          without=("blend", "dead"))["guessing"]


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


def test_probabilities_many_reads_every_kind_of_board_and_a_total_each():
    boards = expert_positions(seed=6, count=12)
    totals = [99 - k for k in range(12)]  # each its own total
    singles = [sapper.probabilities(b, mines=m) for b, m in zip(boards, totals)]
    readonly = np.array(boards[3])
    readonly.flags.writeable = False
    kinds = [
        boards[0],                                               # lists
        np.array(boards[1], dtype=np.int8),                      # int8
        np.asfortranarray(np.array(boards[2], dtype=np.int16)),  # Fortran order
        readonly,                                                # read-only
        np.array(boards[4], dtype=">i4"),                        # big-endian
        np.array(boards[5], dtype=np.uint8),
        np.array(boards[6])[:, ::-1][:, ::-1],                   # strided view
        tuple(tuple(row) for row in boards[7]),
        ["".join("?" if v == 10 else "." if v == 0 else str(v) for v in row)
         for row in boards[8]],                                  # text rows
        np.array(boards[9], dtype=np.uint64),
        np.array(boards[10], dtype=np.int32),
        np.array(boards[11], dtype=np.uint16),
    ]
    many = sapper.probabilities_many(kinds, mines=totals)
    for p, q in zip(many, singles):
        np.testing.assert_array_equal(p, q)
    # A 3-D array is a stack of boards.
    stack = np.array(boards, dtype=np.int8)
    for p, q in zip(sapper.probabilities_many(stack, mines=totals), singles):
        np.testing.assert_array_equal(p, q)
    # One total for all, and None where a text board gives its own.
    text = "mines 7\n" + "\n".join(["?????", "?1???", "?????"])
    a, b = sapper.probabilities_many([boards[0], text], mines=[99, None])
    np.testing.assert_array_equal(a, sapper.probabilities(boards[0], mines=99))
    np.testing.assert_array_equal(b, sapper.probabilities(text))
    assert sapper.probabilities_many([], mines=[]) == []
    assert sapper.probabilities_many(iter([boards[0]]), mines=99)[0].shape == (16, 30)
