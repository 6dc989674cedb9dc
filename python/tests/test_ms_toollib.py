"""sapper against ms_toollib 1.5.20 on expert mid-game positions.

ms_toollib 1.5.20's `cal_probability_onboard` counts exactly (its
JSMinesweeper-style engine, whatever the size of a frontier block), except
where it refuses: it raises when the interior is larger than its binomial
table. Such positions are skipped (counted and reported); in practice none
of these positions is. Its older `cal_probability_enum` averages blocks over
55 cells; it is not compared here.
"""

import numpy as np
import pytest

import ms_toollib as ms
import sapper
import sapper.compat as compat
from positions import expert_positions

COUNT = 240


@pytest.fixture(scope="module")
def boards():
    return expert_positions(seed=2024, count=COUNT)


def ms_exact(board, mines):
    """ms_toollib's probabilities, or None where it refuses (skipped)."""
    try:
        return ms.cal_probability_onboard(board, mines)
    except RuntimeError:
        return None


def test_probabilities_agree_with_ms_toollib(boards):
    compared, worst = 0, 0.0
    for board in boards:
        theirs = ms_exact(board, 99)
        if theirs is None:
            continue
        ours = sapper.probabilities(board, mines=99)
        closed = np.array(board) == 10
        diff = np.abs(ours[closed] - np.array(theirs[0])[closed])
        worst = max(worst, float(diff.max()))
        assert np.all(np.isnan(ours[~closed]))
        compared += 1
    assert compared >= 200, f"only {compared} positions compared"
    assert worst <= 1e-12, worst


def test_batch_equals_single_calls(boards):
    many = sapper.probabilities_many(boards, mines=99)
    assert len(many) == len(boards)
    for board, p in zip(boards, many):
        np.testing.assert_array_equal(p, sapper.probabilities(board, mines=99))


def test_text_boards_equal_code_boards(boards):
    for board in boards[:20]:
        rows = ["".join("?" if v == 10 else "." if v == 0 else str(v) for v in row)
                for row in board]
        np.testing.assert_array_equal(
            sapper.probabilities(["mines 99"] + rows), sapper.probabilities(board, mines=99))


def test_compat_onboard_matches_ms_toollib(boards):
    for board in boards[:60]:
        theirs = ms_exact(board, 99)
        if theirs is None:
            continue
        ours = compat.cal_probability_onboard(board, 99)
        assert ours[1] == theirs[1]
        assert np.abs(np.array(ours[0]) - np.array(theirs[0])).max() <= 1e-12


def test_compat_density_matches_ms_toollib(boards):
    for board in boards[:30]:
        for density in (0.1, 0.2063):
            theirs = ms_exact(board, density)
            if theirs is None:
                continue
            ours = compat.cal_probability_onboard(board, density)
            assert ours[1] == theirs[1]
            assert np.abs(np.array(ours[0]) - np.array(theirs[0])).max() <= 1e-12
