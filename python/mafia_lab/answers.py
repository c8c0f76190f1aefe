"""Builders of legal answers (the schema's ``Answer``), as plain dicts.

Every function returns a fresh dict ready to be returned from
``Agent.decide``; the answer's ``decision`` is the request's, except
``start`` whose answer is :func:`ready`. Seats are forum numbers (from 1);
a vote is a seat or ``"pass"``.

>>> vote(4)
{'decision': 'vote', 'vote': 4}
>>> night(kill=3, target=5)["moves"]["target"]
5
"""

from __future__ import annotations

from collections.abc import Iterable

PASS = "pass"

__all__ = [
    "PASS",
    "ready",
    "publication",
    "post",
    "silent_post",
    "defence",
    "silent_defence",
    "last_word",
    "silent_last_word",
    "silent",
    "vote",
    "pass_vote",
    "revise",
    "keep_vote",
    "runoff",
    "hang_both",
    "moves",
    "night",
    "proxy",
    "appoint",
    "secret_vote",
]


def ready() -> dict:
    """The answer to ``start`` (never asked over the protocol: ``start`` is a message)."""
    return {"decision": "ready"}


def publication(
    claim: str | None = None,
    town: Iterable[int] = (),
    mafia: Iterable[int] = (),
    bandits: Iterable[int] = (),
    accuse: Iterable[int] = (),
) -> dict:
    """A ``Publication``: a role claim and camp statements about seats (sorted, unique)."""
    return {
        "claim": claim,
        "town": sorted(set(town)),
        "mafia": sorted(set(mafia)),
        "bandits": sorted(set(bandits)),
        "accuse": sorted(set(accuse)),
        "text": None,
    }


def _speech(decision: str, claim, town, mafia, bandits, accuse, text) -> dict:
    return {
        "decision": decision,
        "say": publication(claim, town, mafia, bandits, accuse),
        "text": text,
    }


def post(claim=None, town=(), mafia=(), bandits=(), accuse=(), text: str | None = None) -> dict:
    """A day post: ``claim`` a role, state found ``town``/``mafia``/``bandits``, ``accuse`` seats, free ``text``."""
    return _speech("post", claim, town, mafia, bandits, accuse, text)


def defence(claim=None, town=(), mafia=(), bandits=(), accuse=(), text: str | None = None) -> dict:
    """A tied player's defence (same statements as :func:`post`)."""
    return _speech("defence", claim, town, mafia, bandits, accuse, text)


def last_word(claim=None, town=(), mafia=(), bandits=(), accuse=(), text: str | None = None) -> dict:
    """An eliminated player's last word (same statements as :func:`post`)."""
    return _speech("last_word", claim, town, mafia, bandits, accuse, text)


def silent(decision: str) -> dict:
    """Say nothing in a ``post``, ``defence`` or ``last_word``."""
    return _speech(decision, None, (), (), (), (), None)


def silent_post() -> dict:
    return silent("post")


def silent_defence() -> dict:
    return silent("defence")


def silent_last_word() -> dict:
    return silent("last_word")


def vote(seat: int | str) -> dict:
    """The first vote of the day: a seat of the request's ``options``, or ``"pass"``."""
    return {"decision": "vote", "vote": seat}


def pass_vote() -> dict:
    """Vote PASS (against all)."""
    return {"decision": "vote", "vote": PASS}


def revise(seat: int | str | None) -> dict:
    """The one change of vote: a seat of ``options``, ``"pass"``, or ``None`` to keep the current vote."""
    return {"decision": "revise", "vote": seat}


def keep_vote() -> dict:
    """Do not change the vote."""
    return {"decision": "revise", "vote": None}


def runoff(seat: int) -> dict:
    """A runoff vote: one of the request's candidates (no PASS)."""
    return {"decision": "runoff", "choice": seat}


def hang_both(hang: bool) -> dict:
    """Hang both tied players (``True``) or pardon both (``False``)."""
    return {"decision": "hang_both", "hang": bool(hang)}


def moves(
    kill: int | None = None,
    target: int | None = None,
    second: int | None = None,
    borrow: str | None = None,
    search: int | None = None,
    defer: bool = False,
) -> dict:
    """A ``NightChoice``: every field ``None`` (nothing sent) unless given."""
    return {
        "kill": kill,
        "target": target,
        "second": second,
        "borrow": borrow,
        "search": search,
        "defer": bool(defer),
    }


def night(kill=None, target=None, second=None, borrow=None, search=None, defer=False) -> dict:
    """The night's moves: the camp-kill nick, the role move's target(s), a borrowed role, a search nick."""
    return {"decision": "night", "moves": moves(kill, target, second, borrow, search, defer)}


def proxy(target=None, second=None) -> dict:
    """The Boss's move on behalf of a member (``None``: none)."""
    return {"decision": "proxy", "moves": moves(None, target, second)}


def appoint(role: str | None) -> dict:
    """The Actor's appointment: one of the ``vacant`` roles, or ``None`` (not yet)."""
    return {"decision": "appoint", "role": role}


def secret_vote(target: int | None) -> dict:
    """Whom the secret votes go to (``None``: the open vote's target)."""
    return {"decision": "secret_vote", "target": target}
