#!/usr/bin/env python3
"""A tiny stand-in for `mafia host` (protocol/README.md, "Host mode"), for
the environment's tests without the binary: every game asks each listed
seat the requests of the golden views (with the seat's number put in),
refuses (exit 1, on stderr) any answer that is illegal or names another
request, and is won by the town on even seeds, by the mafia on odd ones.

    fake_host.py host [--setup S] [--agents A] [--rule R]...
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from mafia_lab import check  # noqa: E402

GOLDEN = os.path.join(HERE, "..", "..", "tests", "golden", "views-classic-game0.jsonl")
ROLES = ["citizen", "citizen", "commissar", "citizen", "don", "mafioso", "citizen", "mafioso", "citizen", "citizen"]
CAMP = {"citizen": "town", "commissar": "town", "don": "mafia", "mafioso": "mafia"}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def fail(why):
    sys.stderr.write(f"fake host: {why}\n")
    sys.exit(1)


def main():
    if sys.argv[1:2] != ["host"]:
        fail(f"only `host` is faked, not {sys.argv[1:]}")
    with open(GOLDEN) as f:
        views = [json.loads(line) for line in f if line.strip()]
    send({"type": "hello", "protocol": 1, "process": 0})
    hello = json.loads(sys.stdin.readline())
    if hello.get("type") != "hello":
        fail(f"expected hello, got {hello}")
    next_id = 1
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "bye":
            return
        if msg["type"] != "play":
            fail(f"expected play, got {msg}")
        seed, game, seats = msg["seed"], msg["game"], msg["seats"]
        if any(not 1 <= s <= 10 for s in seats):
            send({"type": "error", "message": f"play: a seat of {seats} is not in this 10-player game"})
            continue
        for s in seats:
            send({"type": "start", "game": game, "seat": s, "view": dict(views[0], seat=s)})
        for k, v in enumerate(views):
            if v["request"]["decision"] == "start":
                continue
            for s in seats:
                req = {
                    "type": "request",
                    "id": next_id,
                    "game": game,
                    "seat": s,
                    "seed": seed * 1000 + k * 10 + s,
                    "request": v["request"],
                    "view": dict(v, seat=s),
                }
                next_id += 1
                send(req)
                ans = json.loads(sys.stdin.readline())
                if (ans.get("type"), ans.get("id"), ans.get("game"), ans.get("seat")) != ("answer", req["id"], game, s):
                    fail(f"answer {ans} to {req['id']} {game} {s}")
                why = check(v["request"], ans["answer"])
                if why:
                    fail(f"illegal answer {ans}: {why}")
        winner = "town" if seed % 2 == 0 else "mafia"
        ending = {"winner": winner, "cause": "parity", "days": 3, "won": False, "roles": ROLES, "survivors": [1, 2]}
        for s in seats:
            send({"type": "end", "game": game, "seat": s, "ending": dict(ending, won=CAMP[ROLES[s - 1]] == winner)})
        send({"type": "done", "game": game, "ending": ending})


if __name__ == "__main__":
    main()
