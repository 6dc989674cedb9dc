#!/usr/bin/env python3
"""`sapper serve` under load and abuse, measured from outside.

Starts `sapper serve --addr 127.0.0.1:0` (the binary given, default
target/release/sapper) in a process of its own for each scenario, drives
it over raw HTTP/1.1 sockets and reads its memory from /proc/PID/status.

Scenarios (all by default, or those named):
  move    /api/move on an all-closed 1000 x 1000 board with "mines": 200000
  light   a light client's latency (expert position, 100 requests) while
          6 clients loop heavy requests that take their whole budget
  light_small  the same, the heavy requests on a board of 3,600 cells
  memory  60 bodies of 2 MB sent at once behind 4 heavy jobs: peak and
          resident memory, during and after
  idle    2,000 idle sockets open, then a normal request

    python3 benches/serve_load.py [--bin PATH] [SCENARIO ...]
"""

import argparse
import json
import os
import resource
import socket
import subprocess
import threading
import time

EXPERT = {
    "rows": [
        "??????????????????????????????",
        "???????21?????????????????????",
        "??????21.1????????????????????",
        "?????21..1????????????????????",
        "?????1...2????????????????????",
        "?????1..13????????????????????",
        "?????2.12?????????????????????",
        "?????2.1??????????????????????",
        "?????212??????????????????????",
    ]
    + ["??????????????????????????????"] * 7,
    "mines": 99,
}


def lattice(side, extra_cols=0):
    """The numbers of a random layout (a fifth of the cells mines) on every
    (even row, even column), every other cell closed; `extra_cols` known
    safe columns (`*`) added on the right: the same frontier, on a board
    large enough to be heavy."""
    mask = (1 << 64) - 1
    state = 7
    mine = []
    for i in range(side * side):
        r, c = divmod(i, side)
        state = (state * 6364136223846793005 + 1442695040888963407) & mask
        mine.append(not (r % 2 == 0 and c % 2 == 0) and (state >> 33) % 5 == 0)
    rows = []
    for r in range(side):
        row = []
        for c in range(side):
            if r % 2 == 0 and c % 2 == 0:
                n = sum(
                    mine[rr * side + cc]
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if (rr, cc) != (r, c) and 0 <= rr < side and 0 <= cc < side
                )
                row.append(str(n))
            else:
                row.append("?")
        rows.append("".join(row) + "*" * extra_cols)
    return {"rows": rows, "mines": sum(mine)}


def body(obj):
    return json.dumps(obj).encode()


def two_megabytes(kind, limit=(2 << 20) - 64):
    """About 2 MB that cost more than their size if kept as parsed: kind 0
    a 1000 x 1000 position with an unknown field (an array of numbers),
    kind 1 500,000 rows of one cell."""
    if kind == 0:
        head = body({"rows": ["?" * 1000] * 1000, "mines": 200000})[:-1]
        head += b',"padding":[0'
        n = (limit - len(head) - 2) // 2
        return head + b",0" * n + b"]}"
    head = b'{"mines":100000,"rows":["?"'
    n = (limit - len(head) - 2) // 4
    return head + b',"?"' * n + b"]}"


class Server:
    """`sapper serve` on a free loopback port; `nofile` lowers its soft
    limit of open files first (it raises it again itself)."""

    def __init__(self, binary, nofile=None, args=()):
        def limit():
            if nofile:
                _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))

        self.proc = subprocess.Popen(
            [binary, "serve", "--addr", "127.0.0.1:0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=limit,
        )
        for line in self.proc.stderr:
            line = line.decode()
            if line.startswith("sapper: serving http://"):
                host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
                self.addr = (host, int(port))
                break
        else:
            raise RuntimeError("the server ended before serving")
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()

    def status_mb(self, key):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        raise KeyError(key)

    def open_files(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def post(addr, path, data, timeout=60):
    """One JSON POST on a connection of its own: (status, body, seconds)."""
    t0 = time.perf_counter()
    s = socket.create_connection(addr, timeout=timeout)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    ).encode()
    s.sendall(head + data)
    chunks = []
    while True:
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    s.close()
    raw = b"".join(chunks)
    took = time.perf_counter() - t0
    status = int(raw.split(b" ", 2)[1]) if raw else 0
    return status, raw.split(b"\r\n\r\n", 1)[-1], took


def scenario_move(binary):
    server = Server(binary)
    try:
        data = body({"rows": ["?" * 1000] * 1000, "mines": 200000})
        for _ in range(3):
            status, answer, took = post(server.addr, "/api/move", data)
            print(f"move: 1000x1000 all closed, mines 200000: {status} in {took:.3f} s: "
                  f"{answer[:80].decode()}")
        print(f"move: peak RSS {server.status_mb('VmHWM'):.0f} MB")
    finally:
        server.stop()


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round((len(xs) - 1) * q))]


def scenario_light(binary, heavy_clients=6, light_requests=100, hard=None, name="light"):
    """`hard`: the heavy clients' position (default: 60 x 200 cells whose
    analysis takes the whole budget)."""
    server = Server(binary)
    stop = threading.Event()
    heavy_statuses = []
    hard = body(hard or lattice(60, extra_cols=140))

    def heavy():
        while not stop.is_set():
            status, _, _ = post(server.addr, "/api/analyse", hard)
            heavy_statuses.append(status)
            if status == 503:
                time.sleep(0.05)

    try:
        threads = [threading.Thread(target=heavy) for _ in range(heavy_clients)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        light = body(EXPERT)
        paths = ["/api/move", "/api/analyse", "/api/probabilities"]
        latencies, statuses = [], []
        for k in range(light_requests):
            status, _, took = post(server.addr, paths[k % 3], light)
            latencies.append(took)
            statuses.append(status)
            time.sleep(0.03)
        stop.set()
        for t in threads:
            t.join()
        count = {s: statuses.count(s) for s in sorted(set(statuses))}
        heavy_count = {s: heavy_statuses.count(s) for s in sorted(set(heavy_statuses))}
        print(f"{name}: {light_requests} light requests while {heavy_clients} clients loop "
              f"heavy ones: statuses {count}; p50 {percentile(latencies, .5) * 1e3:.1f} ms, "
              f"p99 {percentile(latencies, .99) * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms; "
              f"heavy statuses {heavy_count}")
    finally:
        stop.set()
        server.stop()


def scenario_light_small(binary):
    """The same with heavy clients that send a small position (60 x 60,
    in the light lane by size) whose analysis takes the whole budget."""
    scenario_light(binary, hard=lattice(60), name="light_small")


def scenario_memory(binary):
    server = Server(binary)
    try:
        print(f"memory: RSS at the start {server.status_mb('VmRSS'):.0f} MB")
        hard = body(lattice(60, extra_cols=140))
        bodies = [two_megabytes(0), two_megabytes(1)]
        results = []
        threads = [threading.Thread(target=lambda: results.append(
            post(server.addr, "/api/analyse", hard)[0])) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        t0 = time.perf_counter()
        for k in range(60):
            path = ["/api/move", "/api/analyse"][k % 2]
            data = bodies[k % 2]
            t = threading.Thread(target=lambda p=path, d=data: results.append(
                post(server.addr, p, d)[0]))
            t.start()
            threads.append(t)
        peak = 0.0
        while any(t.is_alive() for t in threads):
            peak = max(peak, server.status_mb("VmRSS"))
            time.sleep(0.005)
        took = time.perf_counter() - t0
        count = {s: results.count(s) for s in sorted(set(results))}
        print(f"memory: 60 bodies of 2 MB behind 4 heavy jobs answered in {took:.2f} s: "
              f"{count}; peak RSS {server.status_mb('VmHWM'):.0f} MB (sampled {peak:.0f} MB)")
        slept = 0.0
        for wait in (0.1, 1, 5):
            time.sleep(wait - slept)
            slept = wait
            print(f"memory: RSS {wait} s after the last answer: "
                  f"{server.status_mb('VmRSS'):.0f} MB")
    finally:
        server.stop()


def scenario_idle(binary, sockets=2000):
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    server = Server(binary, nofile=1024)
    idle = []
    try:
        t0 = time.perf_counter()
        for _ in range(sockets):
            idle.append(socket.create_connection(server.addr))
        opened = time.perf_counter() - t0
        time.sleep(0.2)
        held = server.open_files()
        for path in ["/api/move", "/api/analyse"]:
            status, _, took = post(server.addr, path, body(EXPERT), timeout=10)
            print(f"idle: {sockets} idle sockets opened in {opened:.2f} s, the server holds "
                  f"{held} files; {path}: {status} in {took * 1e3:.1f} ms")
    finally:
        for s in idle:
            s.close()
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/sapper")
    parser.add_argument("scenarios", nargs="*", default=["move", "light", "light_small", "memory", "idle"])
    args = parser.parse_args()
    for name in args.scenarios:
        globals()[f"scenario_{name}"](args.bin)


if __name__ == "__main__":
    main()
