"""Bad inputs raise ValueError or TypeError with a message, never crash."""

import numpy as np
import pytest

import sapper
import sapper.compat as compat

BAD_VALUES = [
    ([[1, 10], [10]], "ragged"),
    ([[13, 10], [10, 10]], "unknown cell code 13"),
    ([[-1, 10]], "unknown cell code -1"),
    ([[2 ** 40, 10]], "unknown cell code"),
    ([], "empty"),
    ([[]], "empty"),
    (np.zeros((0, 3), dtype=int), "empty"),
    (np.zeros((2, 2, 2), dtype=int), "2-D"),
    ([[10] * 1_000_001], "1000000"),
    ([[10]] * 1_000_001, "1000000"),
    ([[10] * 1001] * 1000, "1000000"),
    (np.full((1001, 1000), 10), "1000000"),
    ([[3, 10], [10, 0]], ""),  # a 3 with two closed neighbours
    (["??x"], ""),
    (["??", "???"], ""),
    (["mines -3", "??"], ""),
]


@pytest.mark.parametrize("board,message", BAD_VALUES)
def test_bad_boards_raise_value_error(board, message):
    for call in (lambda: sapper.probabilities(board, mines=1),
                 lambda: sapper.analyse(board, mines=1),
                 lambda: sapper.next_move(board, mines=1),
                 lambda: sapper.count_layouts(board, 1),
                 lambda: sapper.probabilities_many([board], mines=1)):
        with pytest.raises(ValueError) as e:
            call()
        assert message in str(e.value) and str(e.value)


BAD_TYPES = [
    None, 3, 2.5, {"a": 1}, {"??"}, [{"a": 1}], [[1.5, 10]], [[None]], [10, 10], ["??", [10, 10]],
    [[10, 10], "??"], np.array([[0.0, 10.0]]), np.array([["a"]]),
]


@pytest.mark.parametrize("board", BAD_TYPES)
def test_bad_types_raise_type_error(board):
    with pytest.raises(TypeError) as e:
        sapper.probabilities(board, mines=1)
    assert str(e.value)


def test_contradictions_name_the_problem():
    with pytest.raises(ValueError, match="no mine layout fits"):
        sapper.probabilities([[1, 10], [0, 0]], mines=1)
    with pytest.raises(ValueError, match="no mine layout fits|flag"):
        sapper.probabilities([[11, 11, 10]], mines=1)
    with pytest.raises(ValueError):
        sapper.probabilities([[1, 10, 10]], mines=5)
    with pytest.raises(ValueError, match="total|density"):
        sapper.probabilities([[1, 10, 10]])
    with pytest.raises(ValueError):
        compat.cal_probability_onboard([[3, 10], [10, 0]], 5)
    with pytest.raises(RuntimeError):
        compat.cal_probability_onboard([[3, 10], [10, 0]], 5)


def test_bad_arguments():
    board = [[1, 10, 10]]
    for kwargs in ({"mines": -1}, {"density": 0.0}, {"density": 1.0}, {"density": float("nan")}):
        with pytest.raises(ValueError):
            sapper.probabilities(board, **kwargs)
    with pytest.raises(TypeError):
        sapper.probabilities(board, mines="3")
    with pytest.raises(TypeError):
        sapper.probabilities_many(5)
    with pytest.raises(ValueError, match="board 1"):
        sapper.probabilities_many([board, [[13]]], mines=1)
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 80)
    with pytest.raises(ValueError):
        sapper.generate(0, 9, 1)
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, first_click="middle")
    with pytest.raises(TypeError):
        sapper.generate(9, 9, 10, first_click=3.5)
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, first_click=(9, 0))
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, method="magic")
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, count=-1)
    with pytest.raises(ValueError):
        sapper.generate(1000, 1000, 10, count=10 ** 6)
    with pytest.raises(ValueError, match="give up|no no-guess|attempts"):
        sapper.generate(2, 2, 1, first_click="safe")
    with pytest.raises(ValueError):
        sapper.play(level="master")
    with pytest.raises(ValueError):
        sapper.play(level="expert", rows=3)
    with pytest.raises(ValueError):
        sapper.play(games=0)
    with pytest.raises(ValueError, match="policy.*least"):
        sapper.play(games=1, policy="greedy")
    with pytest.raises(ValueError, match="endgame_layouts"):
        sapper.play(games=1, endgame_layouts=70000)
    with pytest.raises(ValueError, match="endgame_layouts"):
        sapper.play(games=1, endgame_layouts=-1)
    with pytest.raises(ValueError, match="third-move.*blend"):
        sapper.play(games=1, without=["third-move"])
    with pytest.raises(ValueError, match="bland"):
        sapper.play(games=1, without=["blend", "bland"])
    with pytest.raises(TypeError):
        sapper.play(games=1, without="blend")


def test_bad_layouts():
    good = [[-1, 1], [1, 1]]
    assert sapper.is_solvable(good, 1, 1) in (True, False)
    with pytest.raises(ValueError, match="mine"):
        sapper.is_solvable(good, 0, 0)
    with pytest.raises(ValueError):
        sapper.is_solvable(good, 5, 5)
    with pytest.raises(ValueError):
        sapper.is_solvable([[-1, 2], [1, 1]], 1, 1)
    with pytest.raises(ValueError):
        sapper.is_solvable([[10, 1]], 0, 1)
    with pytest.raises(TypeError):
        sapper.is_solvable(["??"], 0, 0)
    with pytest.raises(ValueError):
        sapper.is_solvable(good, -1, 0)
