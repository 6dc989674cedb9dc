"""Writes the `.evf` files of `generated/` with ms_toollib 1.5.20.

Each game is played into ms_toollib's `BaseVideo` event by event, in real
time (ms_toollib stamps every event with the wall clock, so the script
sleeps between events as the player did), then saved as `.evf` of each
version ms_toollib writes (0, 2, 3, 4). Two games are real games replayed
from `.rmv` files of `rmv/`; one is a short lost game scripted here. The
times differ from run to run by the clock's jitter, so the files are made
once and committed; `expected.py` records what ms_toollib reads from them.

ms_toollib 1.5.20 writes its version 2 output with version byte 0 (its
`generate_evf_v2_raw_data` starts the data with `[0, 0]`), so neither it
nor any reader can read that file as what it is: it is kept as
`*_v2_as_written.evf` (a reader must refuse it cleanly), and `*_v2.evf` is
the same bytes with byte 0 set to 2.

    python3 -m venv target/venv
    target/venv/bin/pip install ms_toollib==1.5.20
    target/venv/bin/python tests/data/replays/make_evf.py

(from the repository root; about a minute).
"""

import os
import time

import ms_toollib as ms

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "generated")


def play(board, px, events):
    """Steps `events` — (seconds, code, x, y) — into a new BaseVideo."""
    video = ms.BaseVideo(board, px)
    rows, cols = len(board), len(board[0])
    start = time.perf_counter()
    for t, code, x, y in events:
        wait = start + t - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        if not (0 <= x < cols * px and 0 <= y < rows * px):
            # ms_toollib takes a pixel off the board only as (rows, cols) cells.
            x, y = cols * px, rows * px
        video.step(code, (y, x))
        if video.game_board_state in (3, 4):  # won, lost
            break
    return video


def from_rmv(name):
    """A real game's board, cell size and events, as ms_toollib reads them."""
    v = ms.RmvVideo(os.path.join(HERE, "rmv", name))
    v.parse()
    v.analyse()
    events = []
    for e in v.events:
        if e.event.is_mouse():
            m = e.event.unwrap_mouse()
            events.append((e.time, m.mouse, m.x, m.y))
    return v.board, v.pix_size, events


def scripted_loss():
    """A short lost game on the board of `rmv/wmp_beg.rmv`: a pre-flag, the
    opening click, an unflag and a re-flag, a chord, a click off the board,
    a click on an open number, then a mine."""
    board, px, _ = from_rmv("wmp_beg.rmv")
    c = lambda r, k: (k * px + px // 2, r * px + px // 2)  # noqa: E731
    t = 0.0
    events = []

    def at(dt, code, cell):
        nonlocal t
        t += dt
        events.append((t, code) + cell)

    at(0.10, "mv", c(0, 0))
    at(0.05, "rc", c(0, 0))  # pre-flag a mine
    at(0.08, "rr", c(0, 0))
    at(0.10, "mv", c(7, 7))
    at(0.05, "lc", c(7, 7))  # opens the zeros: the game starts
    at(0.08, "lr", c(7, 7))
    at(0.20, "rc", c(0, 0))  # unflag
    at(0.06, "rr", c(0, 0))
    at(0.10, "rc", c(0, 0))  # flag the same mine again
    at(0.06, "rr", c(0, 0))
    at(0.15, "rc", c(1, 3))  # flag a mine
    at(0.06, "rr", c(1, 3))
    at(0.15, "lc", c(1, 4))  # chord on the 2 at (1, 4)
    at(0.04, "rc", c(1, 4))
    at(0.06, "lr", c(1, 4))
    at(0.03, "rr", c(1, 4))
    at(0.15, "lc", (200, 40))  # off the board
    at(0.05, "lr", (200, 40))
    at(0.15, "lc", c(2, 2))  # an open number
    at(0.05, "lr", c(2, 2))
    at(0.20, "mv", c(0, 1))
    at(0.05, "lc", c(0, 1))  # a mine
    at(0.05, "lr", c(0, 1))
    return board, px, events


def save(video, name, versions):
    video.player_identifier = "sapper test"
    video.race_identifier = ""
    video.unique_identifier = "ms_toollib 1.5.20"
    video.software = "ms_toollib 1.5.20 (sapper test data)"
    video.country = "XX"
    for version in versions:
        getattr(video, f"generate_evf_v{version}_raw_data")()
        expected = bytes(video.raw_data)
        base = os.path.join(OUT, f"{name}_v{version}")
        if os.path.exists(base + ".evf"):
            os.remove(base + ".evf")
        written = video.save_to_evf_file(base)
        # save_to_evf_file writes from a background thread.
        for _ in range(100):
            if os.path.exists(written) and os.path.getsize(written) == len(expected):
                break
            time.sleep(0.05)
        with open(written, "rb") as f:
            assert f.read() == expected, written
        if version == 2:
            assert expected[0] == 0, "ms_toollib's v2 writer was fixed"
            os.replace(written, base + "_as_written.evf")
            with open(base + ".evf", "wb") as f:
                f.write(bytes([2]) + expected[1:])
        print(written, len(expected), "bytes, rtime", video.rtime)


def main():
    os.makedirs(OUT, exist_ok=True)
    save(play(*from_rmv("wmp_int.rmv")), "wmp_int", [0, 2, 3, 4])
    save(play(*from_rmv("test_rmv2_24px_preflags.rmv")), "rmv2_24px_preflags", [3, 4])
    save(play(*scripted_loss()), "scripted_loss", [0, 4])


if __name__ == "__main__":
    main()
