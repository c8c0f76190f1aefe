"""The commands' tables as Polars DataFrames: :func:`run`, :func:`compare`,
:func:`experiment`, :func:`odds` (needs the ``tables`` extra: polars).

One implementation: each call builds the command line of ``mafia run``
(``compare``, ``experiment``, ``odds``) from its keyword arguments and hands
it to the engine's library entry (``mafia_sim::tables``), which parses it
with the command line's own parser and runs the command's own code. So the
same arguments give the same rows and columns as the CLI's ``--out`` files.
The games play with the GIL released, on as many threads as the CLI would
(``threads=0``: every core). Nothing is printed: the report the CLI prints
is in the result's ``text``.

The result is a :class:`Tables`: a dict of table name to
``polars.DataFrame`` (always a dict, also for one table, so every command's
result is read the same way):

- ``run``: ``summary``, ``roles``, ``days`` (and ``faults`` with ``ext:`` agents);
- ``compare``: ``compare``;
- ``experiment``: ``experiment`` (every column of ``--out``), ``roles``;
- ``odds``: ``odds``.

Errors raise :class:`MafiaError` (a ``ValueError``) with the CLI's message and
its ``exit_code``: 2 for bad input (an unknown setup, a setup file's
``file:line:column: why``, a flag the parser refuses), 1 when a precision
was not reached within the cap of games: then the tables of the games played
are on the exception, ``e.tables``.

A Python agent plays seats by name: ``python_agents={"mine": MyAgent}`` makes
the strategy ``mine`` that the ``agents`` spec names like a built-in one
(``agents="forum,town=mine"``, ``"seat3=mine"``). ``MyAgent`` is a
:class:`mafia_lab.Agent` (a subclass, instantiated once per call, or an
instance): the same class that serves as an ``ext:`` process, with the same
contract — ``decide(view, request)`` with the protocol's JSON as dicts,
``self.game``/``self.seat``/``self.seed``/``self.rng``/``self.state`` set per
call, ``start``/``end`` per game. One object plays every seat of every game
the strategy is given (the games interleave, as in one ``ext:`` process).
An illegal answer is replaced by a random legal one and counted (the
summary's ``illegal`` column), as an external agent's is; an answer that is
not an answer (not a dict with ``decision``) raises :class:`MafiaError`, and
an exception in the agent is raised by the call (after the games stop
calling Python: the run is then not the agent's).
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from .agent import Agent

__all__ = ["Tables", "MafiaError", "run", "compare", "experiment", "odds"]


from . import _native

MafiaError = _native.MafiaError


class Tables(dict):
    """A command's tables: name → ``polars.DataFrame``, in the command's
    order. ``text`` is the report the command line prints."""

    text: str = ""

    def __repr__(self) -> str:
        shapes = ", ".join(f"{k}: {v.height}x{v.width}" for k, v in self.items())
        return f"Tables({shapes})"


def _error(code: int, message: str) -> MafiaError:
    e = MafiaError(message)
    e.exit_code = code
    return e


_dumps = json.JSONEncoder(separators=(",", ":")).encode
_loads = json.loads


class _Seat:
    """The adapter the engine calls for a Python agent (see the module docs)."""

    def __init__(self, name: str, agent: Any):
        if isinstance(agent, type):
            agent = agent()
        if not callable(getattr(agent, "decide", None)):
            raise _error(2, f"python_agents[{name!r}]: {agent!r} has no decide(view, request)")
        self.name = name
        self.agent = agent
        self.wants_view = bool(getattr(agent, "wants_view", True))
        self.wants_text = bool(getattr(agent, "wants_text", False))
        self.quiet = bool(getattr(agent, "quiet", False))
        start_end = bool(getattr(agent, "wants_start_end", True))
        base_start = Agent.start
        self.call_start = start_end and getattr(type(agent), "start", base_start) is not base_start
        # `end` also drops the seat's `self.state`.
        self.call_end = start_end and (isinstance(agent, Agent) or getattr(type(agent), "end", Agent.end) is not Agent.end)

    def decide(self, game, seat, seed, text, view, request):
        a = self.agent
        a.game = game
        a.seat = seat
        a.seed = seed
        a._rng = None
        if self.wants_text:
            a.text = text
        ans = a.decide(None if view is None else _loads(view), _loads(request))
        if type(ans) is str:
            return ans
        if not isinstance(ans, dict) or "decision" not in ans:
            raise _error(
                2,
                f"the Python agent `{self.name}` in seat {seat} (game {game}) returned {ans!r}, "
                f"not an answer dict (request: {request})",
            )
        return _dumps(ans)

    def start(self, game, seat, view):
        a = self.agent
        a.game, a.seat, a.seed, a._rng = game, seat, None, None
        a.start(game, seat, None if view is None else _loads(view))

    def end(self, game, seat, ending):
        a = self.agent
        a.game, a.seat, a.seed, a._rng = game, seat, None, None
        try:
            if getattr(type(a), "end", Agent.end) is not Agent.end:
                a.end(game, seat, _loads(ending))
        finally:
            forget = getattr(a, "_forget", None)
            if forget is not None:
                forget(game, seat)


def _pairs(flag: str, values: Iterable[str] | Mapping[str, Any] | str | None) -> list[str]:
    """`--flag K=V` for each of a list of ``"K=V"`` texts or a dict."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    elif isinstance(values, Mapping):
        values = [f"{k}={_text(v)}" for k, v in values.items()]
    out = []
    for v in values:
        out += [flag, str(v)]
    return out


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, (list, tuple)):
        return ",".join(_text(x) for x in v)
    return str(v)


def _flag(flag: str, value: Any) -> list[str]:
    if value is None or value is False:
        return []
    if value is True:
        return [flag]
    return [flag, _text(value)]


def _call(argv: list[str], python_agents: Mapping[str, Any] | None, args: Iterable[str] | None) -> Tables:
    import polars as pl

    if isinstance(args, str):
        raise _error(2, "args: a list of command-line words (['--ext-procs', '2']), not one string")
    argv = argv + [str(a) for a in (args or [])]
    seats = None
    if python_agents:
        seats = {}
        for name, agent in python_agents.items():
            if not isinstance(name, str) or not name or any(c in name for c in ",=:@ "):
                raise _error(2, f"python_agents: {name!r} is no strategy name (letters, digits, - and _)")
            seats[name] = _Seat(name, agent)
    frames, text, error = _native.tables(argv, seats)
    out = Tables((name, pl.read_parquet(io.BytesIO(b))) for name, b in frames)
    out.text = text
    if error is not None:
        code, message = error
        e = _error(code, message)
        e.tables = out
        raise e
    return out


def _setups(setup: str | os.PathLike | Iterable[str | os.PathLike] | None) -> list[str]:
    if setup is None:
        return []
    if isinstance(setup, (str, os.PathLike)):
        setup = [setup]
    out = []
    for s in setup:
        out += ["--setup", os.fspath(s)]
    return out


def run(
    setup: str | os.PathLike | Iterable[str] | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    agents: str | None = None,
    rules: Mapping[str, Any] | Iterable[str] | None = None,
    sweep: Mapping[str, Any] | Iterable[str] | None = None,
    threads: int | None = None,
    precision: float | None = None,
    first_game: int | None = None,
    check: bool = False,
    python_agents: Mapping[str, Any] | None = None,
    args: Iterable[str] | None = None,
) -> Tables:
    """``mafia run``: every variant plays the same seeded games. Returns
    ``summary``, ``roles`` and ``days``. ``None`` leaves a flag at the
    CLI's default (``games`` 1,000,000, ``seed`` 1, ``threads`` 0 = every
    core). ``setup``: a preset or a setup file, or a list of them;
    ``rules``: ``{"no_kill_limit": 3}`` or ``["no_kill_limit=3"]``;
    ``sweep``: ``{"no_kill_limit": ["off", 2, 3]}``; ``args``: any other
    flags, as on the command line."""
    argv = ["run", *_setups(setup), *_pairs("--rule", rules), *_pairs("--sweep", sweep)]
    argv += _flag("--agents", agents) + _flag("--games", games) + _flag("--seed", seed)
    argv += _flag("--threads", threads) + _flag("--precision", precision) + _flag("--first-game", first_game)
    argv += _flag("--check", check)
    return _call(argv, python_agents, args)


def compare(
    setup: str | os.PathLike | None = None,
    *,
    a: Mapping[str, Any] | Iterable[str] | None = None,
    b: Mapping[str, Any] | Iterable[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    agents: str | None = None,
    rules: Mapping[str, Any] | Iterable[str] | None = None,
    threads: int | None = None,
    precision: float | None = None,
    sprt: float | None = None,
    sprt_h0: float | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    camp: str | None = None,
    first_game: int | None = None,
    python_agents: Mapping[str, Any] | None = None,
    args: Iterable[str] | None = None,
) -> Tables:
    """``mafia compare``: variants A and B (``{"no_kill_limit": 3}`` or
    ``["no_kill_limit=3"]``) on the same games. Returns ``compare``: one row
    per camp, both rates and the paired difference. The SPRT's verdict is in
    the result's ``text``."""
    argv = ["compare", *_setups(setup), *_pairs("--rule", rules), *_pairs("--a", a), *_pairs("--b", b)]
    argv += _flag("--agents", agents) + _flag("--games", games) + _flag("--seed", seed)
    argv += _flag("--threads", threads) + _flag("--precision", precision) + _flag("--first-game", first_game)
    argv += _flag("--sprt", sprt) + _flag("--sprt-h0", sprt_h0) + _flag("--alpha", alpha) + _flag("--beta", beta)
    argv += _flag("--camp", camp)
    return _call(argv, python_agents, args)


def experiment(
    file: str | os.PathLike,
    *,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    precision: float | None = None,
    no_precision: bool = False,
    first_game: int | None = None,
    python_agents: Mapping[str, Any] | None = None,
    args: Iterable[str] | None = None,
) -> Tables:
    """``mafia experiment FILE``: every point of the file's grid on the same
    games. Returns ``experiment`` (one row per point: the axes, the run
    summary's columns, the paired differences) and ``roles``."""
    argv = ["experiment", os.fspath(file)]
    argv += _flag("--games", games) + _flag("--seed", seed) + _flag("--threads", threads)
    argv += _flag("--precision", precision) + _flag("--no-precision", no_precision) + _flag("--first-game", first_game)
    return _call(argv, python_agents, args)


def odds(
    state: str | os.PathLike,
    *,
    games: int | None = None,
    seed: int | None = None,
    agents: str | None = None,
    rules: Mapping[str, Any] | Iterable[str] | None = None,
    threads: int | None = None,
    precision: float | None = None,
    python_agents: Mapping[str, Any] | None = None,
    args: Iterable[str] | None = None,
) -> Tables:
    """``mafia odds STATE``: win odds per camp from a mid-game state file.
    Returns ``odds``: one row per camp and the draws."""
    argv = ["odds", os.fspath(state), *_pairs("--rule", rules)]
    argv += _flag("--agents", agents) + _flag("--games", games) + _flag("--seed", seed)
    argv += _flag("--threads", threads) + _flag("--precision", precision)
    return _call(argv, python_agents, args)
