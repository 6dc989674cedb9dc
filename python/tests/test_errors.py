"""Bad inputs raise sapper.InputError (a ValueError) or TypeError with a
message, never crash; contradictions and budget refusals have their own
sapper.Error subclasses."""

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
        with pytest.raises(sapper.Error) as e:
            call()
        assert isinstance(e.value, ValueError)
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
    with pytest.raises(sapper.ContradictionError, match="no mine layout fits"):
        sapper.probabilities([[1, 10], [0, 0]], mines=1)
    with pytest.raises(sapper.ContradictionError):
        sapper.next_move([[1, 10], [0, 0]])
    with pytest.raises(sapper.ContradictionError):
        sapper.probabilities_many([[[1, 10, 10]], [[1, 10], [0, 0]]], mines=1)
    with pytest.raises(sapper.Error, match="no mine layout fits|flag"):
        sapper.probabilities([[11, 11, 10]], mines=1)
    with pytest.raises(sapper.Error):
        sapper.probabilities([[1, 10, 10]], mines=5)
    with pytest.raises(sapper.InputError, match="total|density"):
        sapper.probabilities([[1, 10, 10]])
    # A number no neighbourhood can satisfy describes no board: input.
    with pytest.raises(sapper.InputError, match="row 0, column 0"):
        sapper.probabilities([[3, 10], [10, 0]], mines=1)


def test_the_error_classes_are_value_errors_told_apart():
    assert issubclass(sapper.Error, ValueError)
    for cls in (sapper.InputError, sapper.ContradictionError, sapper.BudgetError):
        assert issubclass(cls, sapper.Error)
    assert not issubclass(sapper.ContradictionError, sapper.InputError)
    assert not issubclass(sapper.BudgetError, sapper.InputError)
    assert sapper.Error.__module__ == "sapper" and sapper.Error.__name__ == "Error"


def lattice(h, w, seed):
    """Numbers on every (even row, even column), every other cell closed:
    a frontier as wide as the board (tests/suite/hard_positions.rs)."""
    import random
    rng = random.Random(seed)
    mines = [[(r % 2 or c % 2) and rng.random() < 0.37 for c in range(w)] for r in range(h)]
    return [[sum(mines[a][b] for a in range(max(r - 1, 0), min(r + 2, h))
                 for b in range(max(c - 1, 0), min(c + 2, w)))
             if r % 2 == 0 and c % 2 == 0 else 10 for c in range(w)] for r in range(h)]


def test_a_count_over_budget_is_a_budget_error():
    board = lattice(120, 120, 1)
    with pytest.raises(sapper.BudgetError, match="too hard for exact"):
        sapper.probabilities(board, density=0.3)
    with pytest.raises(sapper.BudgetError):
        sapper.probabilities_many([board], density=0.3)


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
    with pytest.raises(sapper.InputError, match="3 items"):
        sapper.generate(9, 9, 10, first_click=[1, 2, 3])
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, first_click=(9, 0))
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, method="magic")
    with pytest.raises(ValueError):
        sapper.generate(9, 9, 10, count=-1)
    with pytest.raises(ValueError):
        sapper.generate(1000, 1000, 10, count=10 ** 6)
    with pytest.raises(sapper.Error, match="give up|no no-guess|attempts") as e:
        sapper.generate(2, 2, 1, first_click="safe")
    assert type(e.value) is sapper.Error
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
    with pytest.raises(ValueError, match="blend.*third-move"):
        sapper.play(games=1, without=["third-mover"])
    with pytest.raises(ValueError, match="bland"):
        sapper.play(games=1, without=["blend", "bland"])
    with pytest.raises(sapper.InputError, match="bland"):
        sapper.play(games=1, without="bland")
    with pytest.raises(TypeError):
        sapper.play(games=1, without=3)
    with pytest.raises(TypeError):
        sapper.play(games=1, without=["blend", 3])


def test_out_of_range_integers_are_input_errors_not_overflow():
    board = [[1, 10, 10]]
    for call, name in [
        (lambda: sapper.probabilities(board, mines=2 ** 70), "mines"),
        (lambda: sapper.probabilities(board, mines=-1), "mines"),
        (lambda: sapper.generate(9, 9, 10, seed=-1), "seed"),
        (lambda: sapper.generate(9, 9, 10, seed=2 ** 64), "seed"),
        (lambda: sapper.play("beginner", games=1, seed=-1), "seed"),
        (lambda: sapper.play("beginner", games=2 ** 80), "games"),
        (lambda: sapper.generate(-1, 9, 10), "rows"),
        (lambda: sapper.generate(9, 9, 10, count=2 ** 70), "count"),
        (lambda: sapper.generate(9, 9, 10, first_click=(2 ** 70, 0)), "row"),
        (lambda: sapper.is_solvable([[0, 0]], -1, 0), "row"),
        (lambda: sapper.probabilities([[2 ** 70, 10]], mines=1), "unknown cell code"),
        (lambda: sapper.probabilities_many([board], mines=[2 ** 70]), "mines"),
    ]:
        with pytest.raises(sapper.InputError, match=name):
            call()
    assert sapper.generate(9, 9, 10, seed=2 ** 64 - 1).shape == (1, 9, 9)
    with pytest.raises(TypeError):
        sapper.generate(9, 9, 10, seed="7")
    with pytest.raises(TypeError):
        sapper.generate(9, 9, 10, seed=1.5)


def test_rows_where_boards_are_expected_are_refused():
    with pytest.raises(sapper.InputError, match="one line of text"):
        sapper.probabilities_many(["???", "???"])
    with pytest.raises(sapper.InputError, match="list of ints"):
        sapper.probabilities_many([[10, 10, 1], [10, 10, 1]], mines=1)
    with pytest.raises(TypeError, match="str"):
        sapper.probabilities_many("???")
    with pytest.raises(sapper.InputError, match="2 dimensions"):
        sapper.probabilities_many(np.full((3, 3), 10), mines=1)
    # Boards as rows of text, and a board as one text, are boards.
    a, b = sapper.probabilities_many([["???", "?1?"], "???\n?1?"], mines=1)
    np.testing.assert_array_equal(a, b)


def test_mines_per_board_are_checked():
    boards = [[[10, 1, 10]], [[10, 1, 10]]]
    with pytest.raises(sapper.InputError, match="2 boards"):
        sapper.probabilities_many(boards, mines=[1])
    with pytest.raises(sapper.InputError, match=r"mines\[1\]"):
        sapper.probabilities_many(boards, mines=[1, -2])
    with pytest.raises(TypeError):
        sapper.probabilities_many(boards, mines="12")
    with pytest.raises(TypeError):
        sapper.probabilities_many(boards, mines=[1, "x"])
    with pytest.raises(sapper.ContradictionError, match="board 1"):
        sapper.probabilities_many(boards, mines=[1, 2])


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


class _Shrinks:
    """A cell code whose `__index__` empties the row it sits in."""

    def __init__(self, row, value):
        self.row, self.value = row, value

    def __index__(self):
        self.row.clear()
        return self.value


def test_a_row_emptied_while_it_is_read_is_read_as_it_stood_then_and_called_ragged():
    row = [10, 1, 10, 10]
    row[1] = _Shrinks(row, 1)
    with pytest.raises(sapper.InputError, match="ragged"):
        sapper.probabilities([[10, 10, 10, 10], row], mines=1)
    # Alone, the row reads as the two codes read before it emptied.
    row = [10, 1, 10, 10]
    row[1] = _Shrinks(row, 1)
    p = sapper.probabilities([row], mines=1)
    assert p.shape == (1, 2)
