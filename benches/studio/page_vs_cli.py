#!/usr/bin/env python3
"""Does the studio's page add cost to a run? (issue 37)

Plays the same run — the `classic` preset, GAMES games, seed 1 — with the
command line (`mafia run --games GAMES --quiet`) and from the page's API
(`mafia studio`: POST /api/run, then its server-sent events until `done`),
in turn, ROUNDS times, and prints each side's wall seconds (median, min,
max), the ratio page/CLI pair by pair, and how long after the POST the
page's first progress event came. Standard library only.

    cargo build --release
    python3 benches/studio/page_vs_cli.py [--mafia target/release/mafia] [--games 1000000] [--rounds 3]

`--page-only` plays only the page's run once (to time it as a whole
process from outside, against `mafia run`).
"""

import argparse
import http.client
import json
import re
import statistics
import subprocess
import time


def cli_run(mafia, games):
    t = time.perf_counter()
    subprocess.run([mafia, "run", "--games", str(games), "--quiet"], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def start_studio(mafia):
    p = subprocess.Popen([mafia, "studio", "--port", "0", "--no-open"], stdout=subprocess.PIPE, text=True)
    m = re.search(r"http://([0-9.]+):(\d+)/", p.stdout.readline())
    return p, m.group(1), int(m.group(2))


def page_run(host, port, games):
    """Seconds from the POST to the `done` event, and to the first progress event."""
    c = http.client.HTTPConnection(host, port)
    c.request("GET", "/api/catalog")
    form = json.loads(c.getresponse().read())["presets"][0]["form"]
    body = json.dumps({"setup": form, "games": games, "seed": 1})
    t = time.perf_counter()
    c.request("POST", "/api/run", body, {"Content-Type": "application/json"})
    r = c.getresponse()
    assert r.status == 200, r.read()
    r.read()
    ev = http.client.HTTPConnection(host, port)
    ev.request("GET", "/api/run/events")
    stream = ev.getresponse()
    first = None
    event = None
    while True:
        line = stream.fp.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
            if event == "progress" and "camps" in data and first is None:
                first = time.perf_counter() - t
            if event == "done" and data.get("state") == "done":
                assert data["result"]["status"] == "complete", data["result"]
                return time.perf_counter() - t, first


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--mafia", default="target/release/mafia")
    a.add_argument("--games", type=int, default=1_000_000)
    a.add_argument("--rounds", type=int, default=3)
    a.add_argument("--page-only", action="store_true")
    o = a.parse_args()
    proc, host, port = start_studio(o.mafia)
    try:
        if o.page_only:
            secs, first = page_run(host, port, o.games)
            print(f"page: {secs:.2f} s, first progress after {first:.2f} s")
            return
        page_run(host, port, min(o.games, 100_000))  # warm-up
        cli, page, firsts = [], [], []
        for _ in range(o.rounds):
            cli.append(cli_run(o.mafia, o.games))
            secs, first = page_run(host, port, o.games)
            page.append(secs)
            firsts.append(first)
        fmt = lambda xs: f"median {statistics.median(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f})"  # noqa: E731
        ratios = [p / c for p, c in zip(page, cli)]
        print(f"{o.games} classic games, {o.rounds} rounds, in turn")
        print(f"  CLI  (mafia run --quiet): {fmt(cli)}")
        print(f"  page (POST /api/run → done): {fmt(page)}")
        print(f"  page / CLI: median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
        print(f"  first progress event after the POST: median {statistics.median(firsts):.2f} s (max {max(firsts):.2f})")
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
