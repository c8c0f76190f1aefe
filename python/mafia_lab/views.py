"""Reading a ``View`` (the schema's ``View``): small helpers over its record.

Every function takes the view dict as decoded from JSON. Seats are numbers
from 1. A *publication* is what a player said in a post, a defence or a
last word (a ``Publication``: ``claim``, ``town``, ``mafia``, ``bandits``,
``accuse``).
"""

from __future__ import annotations

__all__ = [
    "phase",
    "day",
    "is_night",
    "players",
    "alive",
    "mates",
    "camp_of_role",
    "publications",
    "claims",
    "claimants",
    "published_checks",
    "accusations",
    "today_votes",
    "deaths",
]

SPEECH_EVENTS = ("post", "defence", "last_word")

#: Every role's camp (the setups' camps: `mafia setups`).
ROLE_CAMP = {
    "citizen": "town",
    "commissar": "town",
    "detective": "town",
    "deputy": "town",
    "doctor": "town",
    "chosen": "town",
    "journalist": "town",
    "witch": "town",
    "prostitute": "town",
    "lucky": "town",
    "shooter": "town",
    "sleepwalker": "town",
    "mafioso": "mafia",
    "don": "mafia",
    "boss": "mafia",
    "thief": "mafia",
    "guard": "mafia",
    "swindler": "mafia",
    "actor": "mafia",
    "psycho": "bandits",
    "miner": "bandits",
    "thug": "bandits",
    "scout": "bandits",
    "trickster": "bandits",
}


def camp_of_role(role: str) -> str:
    return ROLE_CAMP[role]


def phase(view: dict) -> tuple[str, int]:
    """``("day", n)`` or ``("night", n)``."""
    p = view["phase"]
    if "day" in p:
        return "day", p["day"]
    return "night", p["night"]


def day(view: dict) -> int:
    """The phase's number (day n or night n)."""
    return phase(view)[1]


def is_night(view: dict) -> bool:
    return "night" in view["phase"]


def players(view: dict) -> int:
    return view["setup"]["players"]


def alive(view: dict) -> set[int]:
    return set(view["alive"])


def mates(view: dict) -> dict[int, str]:
    """Known camp mates: seat → role (the seat itself excluded)."""
    return {m["seat"]: m["role"] for m in view["private"]["mates"]}


def publications(view: dict):
    """Every publication seen, in order: ``(event name, seat, says)``."""
    for e in view["record"]:
        if e["event"] in SPEECH_EVENTS:
            yield e["event"], e["seat"], e["says"]


def claims(view: dict) -> dict[int, str]:
    """Each seat's latest public role claim: seat → role."""
    out = {}
    for _, seat, says in publications(view):
        if says.get("claim"):
            out[seat] = says["claim"]
    return out


def claimants(view: dict, role: str) -> list[int]:
    """The seats that claimed ``role``, in the order of their first claim."""
    out = []
    for _, seat, says in publications(view):
        if says.get("claim") == role and seat not in out:
            out.append(seat)
    return out


def published_checks(view: dict) -> list[tuple[int, str, int]]:
    """Every published check: ``(speaker, camp, target)`` with camp
    ``town``, ``mafia`` or ``bandits``, in order."""
    out = []
    for _, seat, says in publications(view):
        for camp in ("town", "mafia", "bandits"):
            for t in says.get(camp) or ():
                out.append((seat, camp, t))
    return out


def accusations(view: dict) -> dict[int, int]:
    """How many publications accused each seat."""
    out: dict[int, int] = {}
    for _, _, says in publications(view):
        for t in says.get("accuse") or ():
            out[t] = out.get(t, 0) + 1
    return out


def today_votes(view: dict) -> dict[int, object]:
    """The current open votes of the latest day: voter → seat or ``"pass"``."""
    votes: dict[int, object] = {}
    for e in view["record"]:
        ev = e["event"]
        if ev == "day":
            votes = {}
        elif ev == "vote":
            votes[e["seat"]] = e["vote"]
    return votes


def deaths(view: dict) -> dict[int, str]:
    """Every death seen: seat → cause (``lynched``, ``killed``, …)."""
    return {e["seat"]: e["cause"] for e in view["record"] if e["event"] == "died"}
