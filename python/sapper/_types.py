"""The shapes of the dicts sapper returns, as TypedDicts (for type checkers
and for annotations: ``sapper.Move``, ``sapper.PlaySummary``, ...)."""

from typing import List, Literal, Tuple, TypedDict, Union

#: A cell, ``[row, col]`` from 0.
Cell = List[int]
#: A first click: ``"opening"``, ``"safe"`` or an opening at ``(row, col)``.
FirstClick = Union[Literal["opening", "safe"], Tuple[int, int], List[int]]

# Keys that are present only in some answers are declared in a subclass
# with ``total=False`` (``NotRequired`` needs Python 3.11).


class _MoveKeys(TypedDict):
    open: List[Cell]
    flag: List[Cell]
    guess: bool


class Move(_MoveKeys, total=False):
    """``next_move``'s answer. ``p_mine`` is present on a guess;
    ``game_over`` (True) on a finished game, where ``open`` is empty."""

    p_mine: float
    game_over: bool


class BySource(TypedDict):
    """Cells by what proved them: the rulebase, or one of the four methods."""

    rules: int
    single_cell: int
    linked_cells_1: int
    linked_cells_2: int
    hypotheses: int


class _DeductionKeys(TypedDict):
    cell: Cell
    value: Literal["safe", "mine"]
    source: str


class Deduction(_DeductionKeys, total=False):
    """One forced cell of ``analyse``: ``order`` is present for a rule."""

    order: int


class Analysis(TypedDict):
    """``analyse``'s answer, as ``sapper analyse --json``."""

    safe: List[Cell]
    mines: List[Cell]
    deductions: List[Deduction]
    by_source: BySource
    unknown_left: int


class Level(TypedDict):
    rows: int
    cols: int
    mines: int


class Guessing(TypedDict):
    """The refinements of the second-safety policy a ``play`` run used."""

    free_fifties: bool
    influence: float
    blend: bool
    skip_dead: bool
    off_frontier: int
    isolated: bool
    third_move: bool


#: Cells opened by rules of each order, keyed ``"1"``, ``"2"``, ``"3"``.
RulesByOrder = TypedDict("RulesByOrder", {"1": int, "2": int, "3": int})


class PlaySummary(TypedDict):
    """``play``'s answer, as ``sapper play --json``."""

    games: int
    wins: int
    win_rate: float
    ci95: List[float]
    guesses_per_game: float
    guesses_per_won_game: float
    games_per_second: float
    level: Level
    first_click: Literal["opening", "safe"]
    start: List[int]
    seed: int
    policy: Literal["least", "informed", "second-safety"]
    endgame_layouts: int
    guessing: Guessing
    opened_by_source: BySource
    opened_by_rule_order: RulesByOrder
