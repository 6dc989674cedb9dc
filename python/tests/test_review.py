"""`sapper.read_replay`, `sapper.review` and `sapper.metrics` on every replay
of tests/data/replays (see its README).

- Each file is read with the board, cell size and events ms_toollib 1.5.20
  reads (`expected.json`, written by `expected.py`), and replays to its
  outcome and time.
- `review` of each file is the object `sapper review --json` prints for it
  (same keys in the same order, same values), given as a path, as bytes or
  as the dict `read_replay` returned.
- `metrics` of each board equals ms_toollib's `Board` (3BV, openings,
  islands, the count of each number; ZiNi at most `cal_zini`'s) and
  `sapper metrics --json`'s line, whatever form the layout is given in.
- Bad bytes are an `InputError` naming the input and the byte; a missing
  file an `OSError`.
"""

import ast
import datetime
import json
import os
import pathlib
import re
import subprocess
import threading
import time

import numpy as np
import pytest

import ms_toollib as ms
import sapper
from test_docs import ROOT, sapper_binary

DATA = ROOT / "tests" / "data" / "replays"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))["files"]
FOLDERS = ["rmv", "evf", "avf", "mvf", "rawvf", "generated", "converted"]
#: ms_toollib's version 2 output with the version byte it writes (0): no
#: reader can read it as what it is.
REFUSED = "generated/wmp_int_v2_as_written.evf"
EXPERT = DATA / "rmv" / "wmp_exp.rmv"


def replay_files():
    """Every replay file of the data folders, relative to DATA, sorted."""
    return sorted(
        f"{folder}/{p.name}"
        for folder in FOLDERS
        for p in (DATA / folder).iterdir()
        if p.is_file() and not p.name.endswith(".md")
    )


FILES = [f for f in replay_files() if f != REFUSED]


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


SIGNALS = {"replay", "win", "fail", "error"}


def digest(replay):
    """`expected.py`'s digest of the events: `time_ms,code,cell;` each."""
    parts = []
    for e in replay["events"]:
        code = "signal" if e["kind"] in SIGNALS else e["kind"]
        cell = "off" if e["cell"] is None else f"{e['cell'][0]}:{e['cell'][1]}"
        parts.append(f"{e['time_ms']},{code},{cell};")
    return fnv1a64("".join(parts))


def event_as_expected(replay, e):
    """`[time_ms, code, x, y]`, off-board pixels where ms_toollib puts them."""
    if e["cell"] is None:
        px = replay["cell_px"]
        return [e["time_ms"], e["kind"], replay["cols"] * px, replay["rows"] * px]
    return [e["time_ms"], e["kind"], e["x"], e["y"]]


def layout_of(board):
    """Rows of `*`/`.` as a layout of codes: -1 a mine, else its number."""
    mine = np.array([[c == "*" for c in row] for row in board])
    rows, cols = mine.shape
    padded = np.pad(mine.astype(np.int32), 1)
    around = sum(
        padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    )
    return np.where(mine, -1, around).tolist()


@pytest.fixture(scope="module")
def replays():
    return {rel: sapper.read_replay(DATA / rel) for rel in FILES}


@pytest.fixture(scope="module")
def cli_reviews():
    """`sapper review --json` of every readable file, by file."""
    paths = [str(DATA / rel) for rel in FILES]
    run = subprocess.run(
        [str(sapper_binary()), "review", "--json", *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(paths)
    return {rel: json.loads(line) for rel, line in zip(FILES, lines)}


def test_every_replay_is_read_with_ms_toollibs_board_and_events(replays):
    read_by_ms = [rel for rel, v in EXPECTED.items() if "ms_toollib" not in v]
    assert len(read_by_ms) >= 45
    for rel in read_by_ms:
        want, r = EXPECTED[rel], replays[rel]
        assert (r["rows"], r["cols"], r["cell_px"]) == (want["rows"], want["cols"], want["cell_px"]), rel
        assert r["board"] == want["board"], rel
        assert r["mines"] == sum(row.count("*") for row in want["board"]), rel
        assert len(r["events"]) == want["events"], rel
        assert event_as_expected(r, r["events"][0]) == want["first"], rel
        assert event_as_expected(r, r["events"][-1]) == want["last"], rel
        assert digest(r) == want["digest"], rel
        assert (r["outcome"] == "won") == want["won"], rel
        assert round(r["time"] * 1000) == want["rtime_ms"], rel


def test_every_replay_has_the_documented_keys_and_types(replays):
    from sapper._types import Replay, ReplayEvent, ReplayHeader

    formats = set()
    for rel, r in replays.items():
        assert list(r) == list(Replay.__annotations__), rel
        assert list(r["header"]) == list(ReplayHeader.__annotations__), rel
        for e in r["events"][:50]:
            assert list(e) == list(ReplayEvent.__annotations__), rel
            assert e["cell"] is None or (isinstance(e["cell"], list) and len(e["cell"]) == 2)
        assert r["outcome"] in ("won", "lost", "unfinished")
        assert r["format"] == {"converted": "rawvf", "generated": "evf"}.get(
            rel.split("/")[0], rel.split("/")[0]
        ), rel
        formats.add(r["format"])
    assert formats == {"rmv", "evf", "avf", "mvf", "rawvf"}
    exp = replays["rmv/wmp_exp.rmv"]
    assert exp["header"]["level"] == "expert"
    assert (exp["rows"], exp["cols"], exp["mines"]) == (16, 30, 99)
    assert replays["rmv/test_rmv1_utf8_basic.rmv"]["header"]["player"] == "Thomas Kolar"


def test_timestamps_are_iso_text_of_the_recorded_instant(replays):
    unix = 0
    for rel, r in replays.items():
        for key in ("started", "ended"):
            t = r["header"][key]
            if t is not None and t.endswith("Z"):
                parsed = datetime.datetime.fromisoformat(t[:-1] + "+00:00")
                assert parsed.strftime("%Y-%m-%dT%H:%M:%S.%fZ") == t, rel
                unix += 1
    assert unix >= 5
    # A Metasweeper 3.1.9 game records its start as 1725048701386418 µs.
    starts = {r["header"]["started"] for r in replays.values()}
    instant = datetime.datetime.fromtimestamp(1725048701.386418, datetime.timezone.utc)
    want = instant.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert want == "2024-08-30T20:11:41.386418Z"
    assert want in starts


def test_every_replay_is_reviewed_as_the_cli_reviews_it(cli_reviews, replays):
    for rel in FILES:
        path = DATA / rel
        cli = cli_reviews[rel]
        ours = sapper.review(str(path))
        assert list(ours) == list(cli), rel
        assert ours == cli, rel
        for move, want in zip(ours["clicks"], cli["clicks"]):
            assert list(move) == list(want), rel
        without_file = {k: v for k, v in cli.items() if k != "file"}
        as_bytes = sapper.review(path.read_bytes(), name=path.name)
        assert list(as_bytes) == list(without_file), rel
        assert as_bytes == without_file, rel
        assert sapper.review(replays[rel]) == without_file, rel
    assert sapper.review(pathlib.Path(EXPERT)) == sapper.review(str(EXPERT))


def test_reviews_have_the_documented_keys(cli_reviews):
    from sapper._types import Proof, Review, ReviewedMove

    keys = ["file"] + [k for k in Review.__annotations__ if k != "file"]
    verdicts = set()
    for rel in FILES:
        r = sapper.review(str(DATA / rel))
        assert list(r) == keys, rel
        for m in r["clicks"]:
            assert list(m) == list(ReviewedMove.__annotations__), rel
            assert m["proof"] is None or list(m["proof"]) == list(Proof.__annotations__)
            verdicts.add(m["verdict"])
    assert verdicts == {"safe", "guess", "lost", "proven_mine", "unproven_flag"}


def test_metrics_equal_ms_toollibs_and_the_clis_on_every_replay_board(replays, cli_reviews):
    boards = {}
    for r in replays.values():
        boards.setdefault("\n".join(r["board"]), r["board"])
    boards = list(boards.values())
    assert len(boards) >= 30
    layouts = [layout_of(b) for b in boards]
    text = "".join(json.dumps({"layout": lay}) + "\n" for lay in layouts)
    run = subprocess.run(
        [str(sapper_binary()), "metrics", "-", "--json"],
        input=text, capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    cli = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(cli) == len(boards)
    lower = 0
    for board, layout, want in zip(boards, layouts, cli):
        ours = sapper.metrics(board)
        assert list(ours) == ["bbbv", "openings", "islands", "zini", "numbers"]
        assert ours == want
        assert sapper.metrics("\n".join(board)) == ours
        assert sapper.metrics(layout) == ours
        assert sapper.metrics(np.array(layout, dtype=np.int8)) == ours
        mines = np.array([[c == "*" for c in row] for row in board])
        assert sapper.metrics(mines) == ours
        assert sapper.metrics(mines.tolist()) == ours
        theirs = ms.Board(layout)
        assert ours["bbbv"] == theirs.bbbv == ms.cal_bbbv(layout)
        assert ours["openings"] == theirs.op == ms.cal_op(layout)
        assert ours["islands"] == theirs.isl
        assert ours["numbers"] == [getattr(theirs, f"cell{n}") for n in range(9)]
        assert ours["zini"] <= theirs.zini
        lower += ours["zini"] < theirs.zini
    print(f"ZiNi lower than cal_zini on {lower} of {len(boards)} boards")
    for rel in FILES:
        r, m = cli_reviews[rel], sapper.metrics(replays[rel]["board"])
        assert (r["bbbv"], r["openings"], r["islands"], r["zini"]) == (
            m["bbbv"], m["openings"], m["islands"], m["zini"]
        ), rel


def test_a_bad_layout_is_an_input_error_naming_the_cell():
    with pytest.raises(sapper.InputError, match=r"row 1, column 2: 'x'"):
        sapper.metrics(["*..", "..x"])
    with pytest.raises(sapper.InputError, match="ragged"):
        sapper.metrics(["*..", ".."])
    with pytest.raises(sapper.InputError, match="empty"):
        sapper.metrics([""])
    with pytest.raises(sapper.InputError, match="row 0, column 1"):
        sapper.metrics([[-1, 0], [1, 1]])  # the 0 has a mine beside it
    with pytest.raises(TypeError):
        sapper.metrics([[True, 1]])
    with pytest.raises(sapper.InputError):
        sapper.metrics(np.zeros((0, 3), dtype=bool))


def test_truncated_and_corrupt_bytes_are_input_errors_naming_the_byte():
    data = EXPERT.read_bytes()
    with pytest.raises(sapper.InputError, match=r"^cut\.rmv: .*byte \d+"):
        sapper.read_replay(data[:200], name="cut.rmv")
    with pytest.raises(sapper.InputError, match=r"^<bytes>: .*byte \d+"):
        sapper.review(data[:200])
    for cut in range(0, len(data), 997):
        try:
            r = sapper.read_replay(data[:cut], name="cut.rmv")
        except sapper.InputError as e:
            assert str(e).startswith("cut.rmv"), e
        else:
            assert r["rows"] == 16
    rng = np.random.default_rng(37)
    for ext in ("rmv", "evf", "avf", "mvf", "rawvf"):
        for _ in range(20):
            noise = rng.integers(0, 256, int(rng.integers(0, 400)), dtype=np.uint8).tobytes()
            try:
                sapper.review(noise, name=f"noise.{ext}")
            except sapper.InputError as e:
                assert str(e).startswith(f"noise.{ext}"), e
    with pytest.raises(sapper.InputError, match=r"extension \(none\)"):
        sapper.read_replay(b"hello")
    with pytest.raises(sapper.InputError, match=r"^game\.bin: not a replay"):
        sapper.read_replay(bytearray(b"hello"), name="game.bin")
    refused = DATA / REFUSED
    with pytest.raises(sapper.InputError, match=": byte ") as e:
        sapper.read_replay(refused)
    assert str(e.value).startswith(str(refused))
    with pytest.raises(sapper.InputError, match=": byte "):
        sapper.review(memoryview(refused.read_bytes()), name="v2.evf")


def test_a_missing_file_or_a_folder_is_an_os_error_naming_it(tmp_path):
    missing = tmp_path / "nope.rmv"
    with pytest.raises(FileNotFoundError) as e:
        sapper.read_replay(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        sapper.review(str(missing))
    with pytest.raises(IsADirectoryError):
        sapper.review(tmp_path)
    with pytest.raises(TypeError, match="name= is for"):
        sapper.review(EXPERT, name="x.rmv")
    with pytest.raises(TypeError):
        sapper.review(42)


def starting(text):
    """A `match` pattern for messages that start with `text`."""
    return "^" + re.escape(text)


def test_a_replay_dict_is_checked_before_it_is_reviewed(replays):
    good = replays["rmv/wmp_beg.rmv"]
    assert (good["rows"], good["cols"], good["mines"]) == (8, 8, 10)
    cases = [
        (
            dict(good, board=good["board"][:-1]),
            'replay["board"] has 7 rows, but rows says 8',
        ),
        (
            dict(good, events=[dict(good["events"][0], kind="zz")]),
            'replay["events"][0]["kind"] = "zz": not an event kind (expected one of mv, lc, lr, '
            "rc, rr, mc, mr, pf, cc, l, r, m, sc, replay, win, fail, error)",
        ),
        (dict(good, mines=good["mines"] + 1), 'replay["mines"] = 11, but the board has 10 mines'),
        ({k: v for k, v in good.items() if k != "cell_px"}, "replay: missing field `cell_px`"),
        (dict(good, rows=300), 'replay["rows"] = 300: expected a whole number from 1 to 256'),
    ]
    for bad, message in cases:
        with pytest.raises(sapper.InputError, match=starting(message) + "$"):
            sapper.review(bad)
    # Without its events the game never starts: nothing to judge.
    empty = sapper.review(dict(good, events=[]))
    assert empty["clicks"] == [] and not empty["won"]


def test_a_replay_dict_takes_python_whole_numbers_and_ignores_what_is_not_read(replays):
    good = replays["rmv/wmp_beg.rmv"]
    expected = sapper.review(good)
    events = [
        dict(e, time_ms=np.int64(e["time_ms"]), x=np.int32(e["x"]), cell="?")
        for e in good["events"]
    ]
    odd = {k: v for k, v in good.items() if k not in ("format", "version", "mines")}
    odd.update(rows=np.int64(8), cell_px=np.uint16(16), events=events, header=None, extra=[1])
    assert sapper.review(odd) == expected
    # Keys are names: pythonize refuses a key that is not a string.
    not_str = starting("replay[?]: dict keys must have type str")
    with pytest.raises(sapper.InputError, match=not_str):
        sapper.review({**odd, 3: "a key that is not a string"})
    assert sapper.review(dict(good, events=tuple(good["events"]))) == expected


def test_each_part_of_a_replay_dict_is_named_when_it_is_wrong(replays):
    good = replays["rmv/wmp_beg.rmv"]
    board = list(good["board"])
    board[2] = board[2][:4] + "x" + board[2][5:]
    first = good["events"][0]
    cases = [
        (dict(good, board=board), """replay["board"][2]: column 4: 'x' is not `*`"""),
        # pythonize reads a str given for a list as the list of its characters.
        (dict(good, board="".join(good["board"])), 'replay["board"] has 64 rows, but rows says 8'),
        (dict(good, rows=8.0), 'replay["rows"]: '),
        (dict(good, format="wav"), 'replay["format"] = "wav": expected "rmv", "evf", "avf"'),
        (dict(good, version=2), 'replay["version"]: '),
        (dict(good, events={"a": 1}), """replay["events"]: unexpected type: 'dict'"""),
        (dict(good, events=[first, 7]), """replay["events"][1]: unexpected type: 'int'"""),
        (
            dict(good, events=[{k: v for k, v in first.items() if k != "y"}]),
            'replay["events"][0]: missing field `y`',
        ),
        (
            dict(good, events=[dict(first, time_ms=2**70)]),
            'replay["events"][0]["time_ms"]: ',
        ),
        (
            dict(good, events=[dict(first, x=2**31)]),
            'replay["events"][0]["x"] = 2147483648: expected a whole number from -2147483648',
        ),
    ]
    for bad, message in cases:
        with pytest.raises(sapper.InputError, match=starting(message)):
            sapper.review(bad)


def test_other_threads_run_while_a_game_is_reviewed():
    data = EXPERT.read_bytes()
    sapper.review(data, name="x.rmv")
    span, ticks = {}, []

    def worker():
        span["start"] = time.perf_counter()
        for _ in range(3):
            sapper.review(data, name="x.rmv")
        span["end"] = time.perf_counter()

    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
    t.join()
    inside = [x for x in ticks if span["start"] < x < span["end"]]
    seconds = span["end"] - span["start"]
    gaps = np.diff([span["start"], *inside, span["end"]])
    # With the GIL held through a review, this thread would wait a whole
    # review (a third of the span) at least once.
    assert gaps.max() < seconds / 6, (gaps.max(), seconds)


def test_the_review_functions_are_in_the_stubs():
    stub = ast.parse((pathlib.Path(sapper.__file__).parent / "__init__.pyi").read_text())
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    for name in ("read_replay", "review", "metrics"):
        assert name in functions, name
        assert name in sapper.__all__
        assert callable(getattr(sapper, name))
    assert [a.arg for a in functions["review"].args.args] == ["source", "name"]
    assert ast.unparse(functions["review"].returns) == "Review"
    assert ast.unparse(functions["read_replay"].returns) == "Replay"
    assert ast.unparse(functions["metrics"].returns) == "Metrics"
    for name in ("Replay", "ReplayEvent", "ReplayHeader", "Review", "ReviewedMove", "Proof", "Metrics"):
        assert name in sapper.__all__
        assert getattr(sapper, name).__annotations__


def test_reviewing_the_expert_game_takes_milliseconds():
    path = str(EXPERT)
    sapper.review(path)
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        sapper.review(path)
        times.append(time.perf_counter() - t0)
    median = sorted(times)[10]
    print(f"review of {EXPERT.name}: median of 20 {median * 1000:.1f} ms")
    assert median < 0.5
