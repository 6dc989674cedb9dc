"""Records what ms_toollib 1.5.20 reads from every replay here, into
`expected.json`, for `tests/suite/replay.rs` (which needs no Python).

For each `.rmv`, `.evf`, `.avf` and `.mvf` file under `rmv/`, `evf/`,
`avf/`, `mvf/` and `generated/`: the board (rows of `*` mine, `.` safe),
the cell size, the events — their count, the first and the last as
`[time_ms, code, x, y]`, and a digest of all of them (FNV-1a 64 of
`time_ms,code,cell;` for each event, `cell` being `row:col` or `off`) —
and, after `analyse()` at the end of the game: left, right, double, cl,
ce, flag, rtime in ms, whether the game was won, and the metrics: 3BV,
openings, islands, 3BV solved, 3BV/s, IOE, correctness, throughput, RQP
and STNB. Each file is read in a
child process: ms_toollib aborts the whole process on some files (the
`*_utf8_invalid.rmv` ones), which are recorded as `"ms_toollib": "aborts"`.
Minesweeper Clone releases other than 0.97 are recorded as
`"ms_toollib": "reads nothing"` (ms_toollib returns no board for them).

    target/venv/bin/python tests/data/replays/expected.py

(from the repository root, with ms_toollib 1.5.20 in the venv).
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDERS = ["rmv", "evf", "avf", "mvf", "generated"]


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def finite(x):
    """`x`, or None (JSON null) for a NaN or an infinity."""
    return x if x == x and abs(x) != float("inf") else None


def read_one(rel):
    """What ms_toollib reads from one file (run in a child process)."""
    import ms_toollib as ms

    kind = rel.rsplit(".", 1)[1]
    video = {"rmv": ms.RmvVideo, "evf": ms.EvfVideo, "avf": ms.AvfVideo, "mvf": ms.MvfVideo}[
        kind
    ](os.path.join(HERE, rel))
    video.parse()
    rows, cols, px = video.row, video.column, video.pix_size
    if rows == 0:
        return {"ms_toollib": "reads nothing"}
    video.analyse()
    board = ["".join("*" if v == -1 else "." for v in row) for row in video.board]

    def ms_of(t):
        return int(round(t * 1000))

    events = []
    digest = []
    for e in video.events:
        t = ms_of(e.time)
        if e.event.is_mouse():
            m = e.event.unwrap_mouse()
            code, x, y = m.mouse, m.x, m.y
            if 0 <= x < cols * px and 0 <= y < rows * px:
                cell = f"{y // px}:{x // px}"
            else:
                cell = "off"
        else:
            code, x, y, cell = "signal", 0, 0, "off"
        events.append([t, code, x, y])
        digest.append(f"{t},{code},{cell};")
    video.current_time = 1e9  # the end of the game
    return {
        "rows": rows,
        "cols": cols,
        "cell_px": px,
        "board": board,
        "events": len(events),
        "first": events[0] if events else None,
        "last": events[-1] if events else None,
        "digest": fnv1a64("".join(digest)),
        "left": video.left,
        "right": video.right,
        "double": video.double,
        "cl": video.cl,
        "ce": video.ce,
        "flag": video.flag,
        "rtime_ms": ms_of(video.rtime),
        "won": bool(video.is_completed),
        "bbbv": video.bbbv,
        "openings": video.op,
        "islands": video.isl,
        "bbbv_solved": video.bbbv_solved,
        "bbbv_per_s": finite(video.bbbv_s),
        "ioe": finite(video.ioe),
        "correctness": finite(video.corr),
        "throughput": finite(video.thrp),
        "rqp": finite(video.rqp),
        "stnb": finite(video.stnb),
    }


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(read_one(sys.argv[2])))
        return
    import ms_toollib  # noqa: F401  (fail early without it)

    out = {"ms_toollib": "1.5.20", "files": {}}
    for folder in FOLDERS:
        for name in sorted(os.listdir(os.path.join(HERE, folder))):
            rel = f"{folder}/{name}"
            run = subprocess.run(
                [sys.executable, __file__, "--one", rel], capture_output=True, text=True
            )
            if run.returncode == 0:
                out["files"][rel] = json.loads(run.stdout)
            elif run.returncode < 0 or run.returncode == 134:
                out["files"][rel] = {"ms_toollib": "aborts"}
            else:
                raise SystemExit(f"{rel}: {run.stderr}")
            print(rel, "done", file=sys.stderr)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
