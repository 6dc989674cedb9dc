"""The shapes of the dicts sapper returns, as TypedDicts (for type checkers
and for annotations: ``sapper.Move``, ``sapper.PlaySummary``, ...)."""

from typing import List, Literal, Optional, Tuple, TypedDict, Union

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
    dead: bool
    off_frontier_cap: Optional[int]
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


# Recorded games (``read_replay``, ``review``) and board metrics.

#: An event's short name (ms_toollib's): ``mv`` a move, ``lc``/``lr`` left
#: press/release, ``rc``/``rr`` right, ``mc``/``mr`` middle, ``pf`` a flag
#: placed before the start, ``cc`` both buttons, ``l``/``r``/``m`` a button
#: changed state, ``sc`` Shift+left; ``replay``, ``win``, ``fail`` and
#: ``error`` are game signals.
EventKind = Literal[
    "mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m", "sc",
    "replay", "win", "fail", "error",
]


class ReplayEvent(TypedDict):
    """One recorded event: the time in the file's own frame (ms), the
    pointer in pixels from the board's top-left corner, and the cell under
    it (``None`` off the board and for game signals)."""

    time_ms: int
    kind: EventKind
    x: int
    y: int
    cell: Optional[Cell]


class ReplayHeader(TypedDict):
    """What the file's header says; ``None`` where it says nothing.
    ``started``/``ended``: ISO 8601 text (``...Z`` for UTC; no zone for a
    program's wall clock), or a file's own text."""

    player: Optional[str]
    nickname: Optional[str]
    race: Optional[str]
    country: Optional[str]
    program: Optional[str]
    program_version: Optional[str]
    started: Optional[str]
    ended: Optional[str]
    level: Optional[Literal["beginner", "intermediate", "expert", "custom"]]
    mode: Optional[str]
    no_flags: Optional[bool]
    question_marks: Optional[bool]
    recorded_time_ms: Optional[int]
    recorded_bbbv: Optional[int]
    completed: Optional[bool]
    official: Optional[bool]
    fair: Optional[bool]


class Replay(TypedDict):
    """``read_replay``'s answer. ``board``: a row of text per board row,
    ``*`` a mine, ``.`` a safe cell. ``outcome`` and ``time`` (seconds on
    the game's timer) are those of the game the events play."""

    format: Literal["rmv", "evf", "avf", "mvf", "rawvf"]
    version: str
    rows: int
    cols: int
    mines: int
    board: List[str]
    cell_px: int
    header: ReplayHeader
    events: List[ReplayEvent]
    outcome: Literal["won", "lost", "unfinished"]
    time: float


class Proof(TypedDict):
    """The one or two numbers whose equations force a move's cells, and the
    window they see as text (``S``/``M`` a cell proven safe/a mine: the one
    opened or flagged, or every cell a chord opens)."""

    foci: List[Cell]
    pattern: List[str]
    name: str


class ReviewedMove(TypedDict):
    """One move of a review (an entry of ``Review["clicks"]``), judged on
    ``position``, the rows the player saw before it."""

    t: float
    action: Literal["open", "chord", "flag", "unflag"]
    cell: Cell
    position: List[str]
    verdict: Literal["safe", "guess", "lost", "proven_mine", "unproven_flag"]
    p_mine: float
    best_p_mine: Optional[float]
    needless: bool
    source: Optional[str]
    proof: Optional[Proof]


class _ReviewKeys(TypedDict):
    rows: int
    cols: int
    mines: int
    won: bool
    time: float
    bbbv: int
    bbbv_solved: int
    bbbv_per_s: Optional[float]
    openings: int
    islands: int
    left: int
    right: int
    double: int
    cl: int
    ce: int
    ioe: Optional[float]
    guesses: int
    needless_guesses: int
    luck: float
    risk: float
    least_risk: float
    correctness: Optional[float]
    throughput: Optional[float]
    rqp: Optional[float]
    stnb: Optional[float]
    zini: int
    flags: int
    clicks: List[ReviewedMove]


class Review(_ReviewKeys, total=False):
    """``review``'s answer, as ``sapper review --json`` (a ratio over zero
    is ``None``). ``file`` (first) is present when a path was reviewed."""

    file: str


class Metrics(TypedDict):
    """``metrics``'s answer, as ``sapper metrics --json``: ``numbers[n]``
    counts the safe cells showing n."""

    bbbv: int
    openings: int
    islands: int
    zini: int
    numbers: List[int]
