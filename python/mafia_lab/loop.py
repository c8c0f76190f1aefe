"""The protocol loop: :func:`serve` plays an :class:`~mafia_lab.Agent` over
stdin/stdout (protocol version 1, ``protocol/README.md``).

It is pipelined: it reads whatever the engine has written (``os.read`` on
the input descriptor, in large chunks), answers every request of every
complete line in the chunk, writes all the answers with one ``os.write``,
and reads again. So a process serving many games at once answers a whole
batch per system call.

Errors never kill the loop silently:

- an exception in ``decide`` (or an answer that is not a dict with a
  ``decision``, or not JSON-encodable) is logged with its traceback on
  stderr and the request is answered with :func:`~mafia_lab.legal_random`
  seeded from the request's ``seed``;
- an exception in ``start``/``end`` is logged and the loop goes on;
- a line that is not JSON, or of an unknown ``type``, is logged and skipped.

(The engine sends an agent's stderr to a log file: ``--ext-log DIR``.)
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback

from .agent import Agent
from .legal import check as _check
from .legal import legal_random

__all__ = ["serve", "PROTOCOL"]

PROTOCOL = 1


def _not_json(o):
    raise TypeError(f"not JSON-encodable: {o!r}")


try:  # the C encoder called directly: json.dumps's Python layers cost as much as the encoding
    from json.encoder import c_make_encoder as _c_make_encoder
    from json.encoder import encode_basestring_ascii as _ascii

    if _c_make_encoder is None:
        raise ImportError("no C JSON encoder")
    _c_encode = _c_make_encoder(None, _not_json, _ascii, None, ":", ",", False, False, True)

    def _encode(o) -> str:
        return "".join(_c_encode(o, 0))

except ImportError:  # pragma: no cover (no C accelerator)
    _encode = json.JSONEncoder(separators=(",", ":"), default=_not_json).encode

_scan = json.JSONDecoder().scan_once
_full_decode = json.JSONDecoder().decode


def _decode(line: str):
    """One JSON value (the C scanner directly; the full decoder for odd spacing)."""
    try:
        obj, end = _scan(line, 0)
    except StopIteration:
        return _full_decode(line)
    if end != len(line) and line[end:].strip():
        return _full_decode(line)  # raises: extra data
    return obj


_CHUNK = 1 << 18


def _log(msg: str) -> None:
    try:
        sys.stderr.write(msg if msg.endswith("\n") else msg + "\n")
        sys.stderr.flush()
    except Exception:  # stderr closed: nothing to do
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def serve(agent, infd: int = 0, outfd: int = 1, check: bool = False) -> int:
    """Play ``agent`` (an :class:`Agent` subclass, instantiated once, or an
    instance) over the protocol on ``infd``/``outfd`` until ``bye`` or end
    of input; returns 0 then (``sys.exit(serve(MyAgent))`` in a script).

    ``check=True`` also checks every answer against the request's options
    (:func:`mafia_lab.check`) and replaces an illegal one by a random legal
    answer, with a line on stderr: a debugging aid (the engine would count
    it as an ``illegal`` fault and fall back the same way).
    """
    if isinstance(agent, type):
        agent = agent()
    if not isinstance(agent, Agent):
        raise TypeError("serve() wants an Agent subclass or instance")
    decide = agent.decide
    want_text = bool(agent.wants_text)
    hello = _encode(agent.hello()) + "\n"
    answer_fmt = '{"type":"answer","id":%d,"game":%d,"seat":%d,"answer":%s}\n'
    # An agent that overrides neither start nor end (and keeps no per-seat
    # state) need not decode those messages: they are recognised by their
    # first bytes (serde writes `type` first) and skipped.
    light_start = type(agent).start is Agent.start
    light_end = type(agent).end is Agent.end

    def fallback(msg, why):
        req = msg["request"]
        _log(
            f"mafia_lab: game {msg.get('game')} seat {msg.get('seat')} request {msg.get('id')} "
            f"({req.get('decision') if isinstance(req, dict) else req!r}): {why}; answering a random legal answer"
        )
        return _encode(legal_random(req, random.Random(msg.get("seed"))))

    rest = b""
    while True:
        try:
            chunk = os.read(infd, _CHUNK)
        except KeyboardInterrupt:
            return 0
        if not chunk:
            if rest.strip():
                _log(f"mafia_lab: unterminated last line ignored: {rest[:200]!r}")
            return 0
        if rest:
            chunk = rest + chunk
        cut = chunk.rfind(b"\n") + 1
        rest = chunk[cut:]
        if not cut:
            continue
        # A newline never falls inside a UTF-8 character: decode whole lines at once.
        lines = chunk[:cut].decode("utf-8", "replace").split("\n")
        out = []
        bye = False
        for line in lines:
            if not line:
                continue
            if light_start and line.startswith('{"type":"start"'):
                continue
            if light_end and line.startswith('{"type":"end"') and not agent.__dict__.get("_states"):
                continue
            try:
                msg = _decode(line)
                t = msg["type"]
            except Exception:
                if line.isspace():
                    continue
                _log(f"mafia_lab: not a message: {line[:200]!r}")
                continue
            if t == "request":
                try:
                    g = agent.game = msg["game"]
                    s = agent.seat = msg["seat"]
                    agent.seed = msg["seed"]
                    rid = msg["id"]
                    req = msg["request"]
                except (KeyError, TypeError):
                    _log(f"mafia_lab: request without id/game/seat/seed/request: {line[:200]!r}")
                    continue
                agent._rng = None
                if want_text:
                    agent.text = msg.get("text")
                try:
                    ans = decide(msg.get("view"), req)
                    if type(ans) is str:
                        # An answer already encoded as JSON (a fast path for
                        # agents that format their answers): sent as is.
                        out.append(answer_fmt % (rid, g, s, ans))
                        continue
                    if type(ans) is not dict or "decision" not in ans:
                        body = fallback(msg, f"decide returned {ans!r}, not an answer dict")
                    elif check and (why := _check(req, ans)) is not None:
                        body = fallback(msg, f"illegal answer {ans!r}: {why}")
                    else:
                        body = _encode(ans)
                except Exception:
                    _log(
                        f"mafia_lab: decide raised in game {msg.get('game')} seat {msg.get('seat')} "
                        f"request {msg.get('id')}:\n" + traceback.format_exc()
                    )
                    try:
                        body = fallback(msg, "decide raised (traceback above)")
                    except Exception:
                        _log(traceback.format_exc())
                        continue
                out.append(answer_fmt % (rid, g, s, body))
            elif t == "start" or t == "end":
                g = agent.game = msg.get("game")
                s = agent.seat = msg.get("seat")
                agent.seed = None
                agent._rng = None
                try:
                    if t == "start":
                        agent.start(g, s, msg.get("view"))
                    else:
                        agent.end(g, s, msg.get("ending"))
                except Exception:
                    _log(f"mafia_lab: {t}(game {g}, seat {s}) raised:\n" + traceback.format_exc())
                if t == "end":
                    agent._forget(g, s)
            elif t == "hello":
                if msg.get("protocol") != PROTOCOL:
                    _log(f"mafia_lab: the engine speaks protocol {msg.get('protocol')!r}, this library {PROTOCOL}")
                agent.process = msg.get("process")
                out.append(hello)
            elif t == "bye":
                bye = True
                break
            else:
                _log(f"mafia_lab: unknown message type {t!r} ignored")
        if out:
            try:
                _write_all(outfd, "".join(out).encode())
            except (BrokenPipeError, OSError):
                return 0
        if bye:
            return 0
