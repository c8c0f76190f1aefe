"""The :class:`Agent` base class: subclass it and implement :meth:`Agent.decide`."""

from __future__ import annotations

import random

__all__ = ["Agent"]


class Agent:
    """An external Mafia Lab agent.

    **One object per process.** :func:`mafia_lab.serve` makes one instance
    and hands it every decision of every seat of every game the process
    plays (the engine interleaves many games in one process). Before each
    call it sets the decision's context on the object:

    - ``self.game``, ``self.seat``: which game and seat the call is for;
    - ``self.seed``: the request's seed (``None`` in ``start``/``end``);
    - ``self.rng``: a ``random.Random(self.seed)``, made on first use in
      each decision (draw from it, never from the global ``random``, and a
      run reproduces whatever the pool size);
    - ``self.state``: a dict private to this (game, seat), made on first use
      and dropped after :meth:`end`: keep per-seat memory there, not in
      plain attributes.

    The class attributes fill the ``hello``: ``name``; ``wants_view``
    (``False``: ``decide`` gets ``view=None``, the cheapest messages);
    ``wants_text`` (requests also carry a plain-English ``text``, in
    ``self.text``); ``quiet`` (never asked to post, revise a vote, defend or
    speak a last word); ``wants_start_end`` (``False``: no ``start``/``end``
    messages at all, for an agent that keeps nothing across decisions; the
    hello's ``start_end``, sent only when false; without ``end``,
    ``self.state`` is never dropped: do not use it then).

    The engine may drop a ``start`` or ``end`` (to a process it restarted):
    ``self.state`` is made on first use, whether ``start`` came or not.
    """

    name: str = "python-agent"
    wants_view: bool = True
    wants_text: bool = False
    quiet: bool = False
    wants_start_end: bool = True

    # Set by serve() before each call (class defaults so a bare instance works).
    game: int | None = None
    seat: int | None = None
    seed: int | None = None
    text: str | None = None
    _rng: random.Random | None = None

    def decide(self, view: dict | None, request: dict) -> dict:
        """Answer ``request`` (the schema's ``Request``) with the ``Answer``
        of the same decision; see :mod:`mafia_lab.answers`. ``view`` is the
        seat's ``View`` (``None`` when ``wants_view`` is false)."""
        raise NotImplementedError

    def start(self, game: int, seat: int, view: dict | None) -> None:
        """A game begins for ``seat`` (``view["private"]`` holds its role and mates)."""

    def end(self, game: int, seat: int, ending: dict) -> None:
        """The game is over for ``seat``: ``ending`` has ``winner``, ``won``, ``roles``, …"""

    # --- per-decision helpers -------------------------------------------------

    @property
    def rng(self) -> random.Random:
        r = self._rng
        if r is None:
            r = self._rng = random.Random(self.seed)
        return r

    @property
    def state(self) -> dict:
        states = self.__dict__.get("_states")
        if states is None:
            states = self._states = {}
        key = (self.game, self.seat)
        s = states.get(key)
        if s is None:
            s = states[key] = {}
        return s

    def _forget(self, game, seat) -> None:
        states = self.__dict__.get("_states")
        if states:
            states.pop((game, seat), None)

    def hello(self) -> dict:
        """The ``hello`` this agent answers with."""
        h = {
            "type": "hello",
            "protocol": 1,
            "name": self.name,
            "view": bool(self.wants_view),
            "text": bool(self.wants_text),
            "quiet": bool(self.quiet),
        }
        if not self.wants_start_end:
            h["start_end"] = False
        return h
