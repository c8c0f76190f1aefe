"""Legal answers: a uniformly random one (:func:`legal_random`, the mirror
of the Rust ``legal_random`` in ``agents/src/data.rs``), a check that an
answer is legal (:func:`check`, :func:`is_legal`), and a small fast random
generator seeded from a request's ``seed`` (:class:`SeedRng`).

``rng`` arguments need only a ``randrange(n)`` method: ``random.Random(seed)``
and :class:`SeedRng` both do.
"""

from __future__ import annotations

from . import answers as A
from .views import ROLE_CAMP

__all__ = ["legal_random", "check", "is_legal", "SeedRng", "DECISIONS"]

#: Every request decision, in the schema's order.
DECISIONS = (
    "start",
    "post",
    "vote",
    "revise",
    "defence",
    "runoff",
    "hang_both",
    "night",
    "proxy",
    "appoint",
    "secret_vote",
    "last_word",
)

_SPEECH = ("post", "defence", "last_word")

_M64 = (1 << 64) - 1


class SeedRng:
    """SplitMix64: a tiny deterministic generator, cheaper to create than
    ``random.Random(seed)`` (the speed benchmark agent makes one per
    request). ``randrange(n)`` is uniform up to a bias below ``n / 2**64``."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & _M64

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A number in ``0..n`` (``n`` > 0)."""
        return (self.next64() * n) >> 64

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq):
        return seq[self.randrange(len(seq))]


def _pick(rng, seats):
    """A uniformly random element of ``seats``, or ``None`` when empty/null."""
    if not seats:
        return None
    return seats[rng.randrange(len(seats))]


def _random_targets(move, rng):
    """Random legal targets of a ``MoveOptions``: (first, second)."""
    first = _pick(rng, move.get("targets"))
    second = None
    if first is not None:
        for o in move.get("second") or ():
            if o["first"] == first:
                second = _pick(rng, o["options"])
                break
    return first, second


def legal_random(request: dict, rng) -> dict:
    """A uniformly random legal answer to ``request`` (the schema's ``Request``).

    As the Rust reference agent: says nothing, keeps its vote, never votes
    PASS when it may name someone, gives its secret votes with its open vote,
    appoints the first vacancy, never defers; kills, checks, searches and
    runoff/hang-both votes are uniform over the legal options.
    """
    d = request["decision"]
    if d == "vote":
        opts = request["options"]
        return {"decision": "vote", "vote": opts[rng.randrange(len(opts))] if opts else "pass"}
    if d == "night":
        o = request["options"]
        kill = _pick(rng, o.get("kill"))
        borrow = None
        b = o.get("borrow")
        if b:
            chosen = b[rng.randrange(len(b))]
            borrow = chosen["role"]
            m = chosen["move"]
        else:
            m = o.get("move")
        target = second = None
        if m:
            target, second = _random_targets(m, rng)
        search = _pick(rng, o.get("search"))
        return {
            "decision": "night",
            "moves": {
                "kill": kill,
                "target": target,
                "second": second,
                "borrow": borrow,
                "search": search,
                "defer": False,
            },
        }
    if d in _SPEECH:
        return A.silent(d)
    if d == "revise":
        return {"decision": "revise", "vote": None}
    if d == "runoff":
        return {"decision": "runoff", "choice": request["options"][rng.randrange(len(request["options"]))]}
    if d == "hang_both":
        return {"decision": "hang_both", "hang": rng.randrange(2) == 1}
    if d == "proxy":
        target, second = _random_targets(request["move"], rng)
        return A.proxy(target, second)
    if d == "appoint":
        vacant = request["vacant"]
        return {"decision": "appoint", "role": vacant[0] if vacant else None}
    if d == "secret_vote":
        return {"decision": "secret_vote", "target": None}
    if d == "start":
        return {"decision": "ready"}
    raise ValueError(f"unknown decision {d!r}")


# --- legality -----------------------------------------------------------------


def _seat_ok(x, allowed, none_ok=True) -> bool:
    if x is None:
        return none_ok
    return isinstance(x, int) and not isinstance(x, bool) and x in (allowed or ())


def _move_ok(move, target, second) -> str | None:
    """Why (target, second) is not a legal use of ``MoveOptions`` ``move``, or None."""
    if target is None:
        return None if second is None else "a second target without a first"
    if not move:
        return "a target without a move"
    if not _seat_ok(target, move.get("targets"), none_ok=False):
        return f"target {target!r} not in {move.get('targets')}"
    seconds = move.get("second") or []
    if second is None:
        return None
    for o in seconds:
        if o["first"] == target:
            return None if _seat_ok(second, o["options"], none_ok=False) else f"second {second!r} not in {o['options']}"
    return f"second {second!r} not allowed after {target}"


_NIGHT_KEYS = {"kill", "target", "second", "borrow", "search", "defer"}
_PUB_KEYS = {"claim", "town", "mafia", "bandits", "accuse", "text"}


def check(request: dict, answer) -> str | None:
    """Why ``answer`` is not a legal answer to ``request`` (``None``: it is legal).

    The same checks as the engine's (the decision's name, every seat among
    the offered options); speech may claim any role and talk about any seat
    of ``about``.
    """
    if not isinstance(answer, dict):
        return f"not an object: {answer!r}"
    d = request["decision"]
    want = "ready" if d == "start" else d
    if answer.get("decision") != want:
        return f"decision {answer.get('decision')!r} to a {d!r} request"
    if d == "start":
        return None
    if d == "vote":
        v = answer.get("vote")
        return None if v == "pass" or _seat_ok(v, request["options"], none_ok=False) else f"vote {v!r}"
    if d == "revise":
        v = answer.get("vote", None)
        return None if v is None or v == "pass" or _seat_ok(v, request["options"]) else f"revised vote {v!r}"
    if d == "runoff":
        c = answer.get("choice")
        return None if _seat_ok(c, request["options"], none_ok=False) else f"runoff choice {c!r}"
    if d == "hang_both":
        return None if isinstance(answer.get("hang"), bool) else f"hang {answer.get('hang')!r}"
    if d in _SPEECH:
        say = answer.get("say")
        if not isinstance(say, dict) or not set(say) <= _PUB_KEYS:
            return f"say {say!r}"
        claim = say.get("claim")
        if claim is not None and claim not in ROLE_CAMP:
            return f"claim {claim!r} is not a role"
        about = request["options"]["about"]
        for k in ("town", "mafia", "bandits", "accuse"):
            for s in say.get(k) or ():
                if not _seat_ok(s, about, none_ok=False):
                    return f"{k}: seat {s!r}"
        t = answer.get("text")
        return None if t is None or isinstance(t, str) else f"text {t!r}"
    if d in ("night", "proxy"):
        m = answer.get("moves")
        if not isinstance(m, dict) or not set(m) <= _NIGHT_KEYS:
            return f"moves {m!r}"
        kill, target, second = m.get("kill"), m.get("target"), m.get("second")
        borrow, search, defer = m.get("borrow"), m.get("search"), m.get("defer", False)
        if d == "proxy":
            if kill is not None or borrow is not None or search is not None or defer:
                return "a proxy sends a role move only"
            return _move_ok(request["move"], target, second)
        o = request["options"]
        if not _seat_ok(kill, o.get("kill")):
            return f"kill {kill!r} not in {o.get('kill')}"
        if not _seat_ok(search, o.get("search")):
            return f"search {search!r} not in {o.get('search')}"
        if defer and not o.get("defer"):
            return "defer not offered"
        if borrow is not None:
            for b in o.get("borrow") or ():
                if b["role"] == borrow:
                    return _move_ok(b["move"], target, second)
            return f"borrow {borrow!r} not offered"
        return _move_ok(o.get("move"), target, second)
    if d == "appoint":
        r = answer.get("role")
        return None if r is None or r in request["vacant"] else f"appoint {r!r}"
    if d == "secret_vote":
        t = answer.get("target")
        return None if _seat_ok(t, request["options"]) else f"secret vote {t!r}"
    return f"unknown decision {d!r}"


def is_legal(request: dict, answer) -> bool:
    """Whether ``answer`` is a legal answer to ``request`` (see :func:`check`)."""
    return check(request, answer) is None
