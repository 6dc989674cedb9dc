"""`analyse`, `next_move` and `play` answer, as dicts, the objects the CLI
prints for the same positions or games (all are the engine's report
types): `sapper analyse --json` without its "position" key, `sapper
engine`'s line and `sapper play --json`."""

import json
import subprocess

import sapper
from positions import CLOSED, FLAG, expert_positions
from test_docs import sapper_binary


def rows_of(board):
    """Position rows: `?` closed, `F` a flag, `.` a revealed 0, else the number."""
    text = {CLOSED: "?", FLAG: "F", 0: "."}
    return ["".join(text.get(v, str(v)) for v in row) for row in board]


def test_analyse_answers_the_clis_object(tmp_path):
    boards = expert_positions(seed=36, count=20)
    paths = []
    for k, board in enumerate(boards):
        path = tmp_path / f"p{k}.txt"
        path.write_text("mines 99\n" + "\n".join(rows_of(board)) + "\n")
        paths.append(str(path))
    run = subprocess.run(
        [str(sapper_binary()), "analyse", "--json", *paths],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(boards)
    for board, line in zip(boards, lines):
        cli = json.loads(line)
        assert cli.pop("position")
        cli.pop("micros", None)
        ours = sapper.analyse(board, mines=99)
        assert list(ours) == list(cli)
        assert ours == cli


def test_next_move_answers_the_engine_protocols_line():
    games = [(b, 99) for b in expert_positions(seed=37, count=20)]
    # Positions where nothing is forced: a guess.
    games += [([[CLOSED] * 30] * 16, 99), ([[CLOSED] * 3, [CLOSED, 1, CLOSED], [CLOSED] * 3], 1)]
    requests = "".join(
        json.dumps({"rows": rows_of(b), "mines": m}) + "\n" for b, m in games
    )
    run = subprocess.run(
        [str(sapper_binary()), "engine"],
        input=requests, capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(games)
    guesses = 0
    for (board, mines), line in zip(games, lines):
        cli = json.loads(line)
        ours = sapper.next_move(board, mines=mines)
        assert list(ours) == list(cli)
        assert ours == cli
        guesses += ours["guess"]
    assert 2 <= guesses < len(games)


def test_play_answers_the_clis_object():
    """The same keys in the same order, lists where the JSON has arrays
    (`ci95`, `start`), the same values but the speed."""
    for kwargs, flags in [
        ({"games": 300, "seed": 5}, ["--games", "300", "--seed", "5"]),
        ({"level": "intermediate", "games": 200, "seed": 6, "first_click": (4, 5),
          "third_move": False},
         ["--level", "intermediate", "--games", "200", "--seed", "6", "--first-click",
          "opening", "--start", "4,5", "--without", "third-move"]),
        ({"rows": 12, "cols": 20, "mines": 40, "games": 200, "seed": 7, "without": "blend"},
         ["--size", "12x20", "--mines", "40", "--games", "200", "--seed", "7", "--without",
          "blend"]),
    ]:
        ours = sapper.play(**kwargs)
        run = subprocess.run([str(sapper_binary()), "play", "--json", *flags],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        cli = json.loads(run.stdout)
        assert list(ours) == list(cli), kwargs
        assert type(ours["ci95"]) is list and type(ours["start"]) is list
        assert {**ours, "games_per_second": 0} == {**cli, "games_per_second": 0}, kwargs
