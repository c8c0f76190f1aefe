"""Mafia Lab's external-agent protocol (version 1) for Python.

- :class:`Agent`: subclass it, implement ``decide(view, request)``;
- :func:`serve`: the stdin/stdout loop (``serve(MyAgent)`` at the bottom of
  a script that ``mafia run --agents ext:my_agent.py`` starts);
- :mod:`mafia_lab.answers`: builders of legal answers;
- :func:`legal_random`, :func:`check`, :func:`is_legal`, :class:`SeedRng`;
- :mod:`mafia_lab.views`: reading a view's record (claims, checks, votes);
- :mod:`mafia_lab.env`: a PettingZoo AEC environment over ``mafia host``
  (needs the ``env`` extra: pettingzoo, gymnasium, numpy);
- :func:`run`, :func:`compare`, :func:`experiment`, :func:`odds`
  (:mod:`mafia_lab.tables`): the commands' tables as Polars DataFrames, in
  process (needs the ``tables`` extra: polars; imported on first use).

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

_TABLES = ("run", "compare", "experiment", "odds", "Tables", "MafiaError")


def __getattr__(name):
    # The tables' functions load the compiled extension and polars: on first use only.
    if name in _TABLES:
        from . import tables

        return getattr(tables, name)
    raise AttributeError(f"module 'mafia_lab' has no attribute {name!r}")
