"""A test agent: a legal answer to every request, drawn from its `seed`
(deterministic, so runs must reproduce whatever the pool size). Its first
argument picks a misbehaviour for the fault tests:

  ok         behaves
  garbage    answers every request with a line that is not JSON
  wrong-game answers for another game
  illegal    votes for itself (never offered)
  exit       exits at once, before its hello
  silent     says hello, then never answers
  flood      writes 20 MB to standard error, then behaves
  crash-3    behaves, but exits after three answers (every process start)
"""
import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"


def pick(options, seed):
    return options[seed % len(options)]


def answer(req, seed):
    d = req["decision"]
    if d == "vote":
        o = req["options"]
        return {"decision": "vote", "vote": pick(o, seed) if o else "pass"}
    if d == "runoff":
        return {"decision": "runoff", "choice": pick(req["options"], seed)}
    if d == "hang_both":
        return {"decision": "hang_both", "hang": seed % 2 == 1}
    if d in ("night", "proxy"):
        o = req["options"] if d == "night" else {"move": req["move"]}
        m = {"kill": None, "target": None, "second": None, "borrow": None, "search": None, "defer": False}
        if o.get("kill"):
            m["kill"] = pick(o["kill"], seed)
        a = o.get("move")
        if a and a["targets"]:
            seconds = {s["first"]: s["options"] for s in a.get("second", [])}
            if a.get("second"):
                firsts = sorted(seconds)
                if firsts:
                    t = pick(firsts, seed // 7)
                    m["target"], m["second"] = t, pick(seconds[t], seed // 49)
            else:
                m["target"] = pick(a["targets"], seed // 7)
        if o.get("search"):
            m["search"] = pick(o["search"], seed // 343)
        return {"decision": d, "moves": m}
    if d == "revise":
        return {"decision": "revise", "vote": None}
    if d == "secret_vote":
        return {"decision": "secret_vote", "target": None}
    if d == "appoint":
        return {"decision": "appoint", "role": None}
    return {"decision": d, "say": {"claim": None, "town": [], "mafia": [], "bandits": [], "accuse": [], "text": None}}


def main():
    if MODE == "exit":
        sys.exit(3)
    answered = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        m = json.loads(line)
        t = m["type"]
        out = None
        if t == "hello":
            out = {"type": "hello", "protocol": 1, "name": "seeded-" + MODE, "view": False, "quiet": True}
            if MODE == "flood":
                chunk = "x" * 1023 + "\n"
                for _ in range(20 * 1024):
                    sys.stderr.write(chunk)
                sys.stderr.flush()
        elif t == "request":
            if MODE == "silent":
                continue
            if MODE == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            a = answer(m["request"], m["seed"])
            if MODE == "illegal" and a["decision"] == "vote":
                a["vote"] = m["seat"]  # never among the options
            game = m["game"] + 1 if MODE == "wrong-game" else m["game"]
            out = {"type": "answer", "id": m["id"], "game": game, "seat": m["seat"], "answer": a}
            answered += 1
        elif t == "bye":
            return
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
        if MODE == "crash-3" and answered >= 3:
            os._exit(4)


main()
