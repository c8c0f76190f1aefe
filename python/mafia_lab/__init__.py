"""Mafia Lab's external-agent protocol (version 1) for Python.

- :class:`Agent`: subclass it, implement ``decide(view, request)``;
- :func:`serve`: the stdin/stdout loop (``serve(MyAgent)`` at the bottom of
  a script that ``mafia run --agents ext:my_agent.py`` starts);
- :mod:`mafia_lab.answers`: builders of legal answers;
- :func:`legal_random`, :func:`check`, :func:`is_legal`, :class:`SeedRng`;
- :mod:`mafia_lab.views`: reading a view's record (claims, checks, votes);
- :mod:`mafia_lab.env`: a PettingZoo AEC environment over ``mafia host``
  (needs the ``env`` extra: pettingzoo, gymnasium, numpy).

The core uses the standard library only.
"""

from . import answers, views
from .agent import Agent
from .legal import DECISIONS, SeedRng, check, is_legal, legal_random
from .loop import PROTOCOL, serve

__all__ = [
    "Agent",
    "serve",
    "answers",
    "views",
    "legal_random",
    "check",
    "is_legal",
    "SeedRng",
    "DECISIONS",
    "PROTOCOL",
]

__version__ = "0.1.0"
