"""Mafia Lab's external-agent protocol (version 1) for Python.

- :class:`Agent`: subclass it, implement ``decide(view, request)``;
- :func:`serve`: the stdin/stdout loop (``serve(MyAgent)`` at the bottom of
  a script that ``mafia run --agents ext:my_agent.py`` starts);
- :mod:`mafia_lab.answers`: builders of legal answers;
- :func:`legal_random`, :func:`check`, :func:`is_legal`, :class:`SeedRng`;
- :mod:`mafia_lab.views`: reading a view's record (claims, checks, votes);
- the engine in-process (the compiled ``mafia_lab._native``):
  :mod:`mafia_lab.env` (PettingZoo AEC and Parallel environments),
  :mod:`mafia_lab.gym` (a Gymnasium environment for one seat),
  :mod:`mafia_lab.batch` (``N`` games stepped per call, NumPy in and out);
  :func:`run`, :func:`compare`, :func:`experiment`, :func:`odds`
  (:mod:`mafia_lab.tables`): the commands' tables as Polars DataFrames
  (needs the ``tables`` extra: polars; imported on first use);
  :class:`MafiaError`, what every call raises for bad input.

The protocol's modules use the standard library only; the environments
need the ``env`` extra (pettingzoo, gymnasium), the tables ``tables`` (polars).
"""

from . import answers, views
from .agent import Agent
from .legal import DECISIONS, SeedRng, check, is_legal, legal_random
from .loop import PROTOCOL, serve

try:
    from ._native import MafiaError
except ImportError:  # run in place, not built: the protocol's modules alone

    class MafiaError(ValueError):
        """Raised by the compiled engine (absent here: ``pip install ./python``)."""

        exit_code = 2

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
    "MafiaError",
]

__version__ = "0.1.0"

_TABLES = ("run", "compare", "experiment", "odds", "Tables")


def __getattr__(name):
    # The tables' functions load the compiled extension and polars: on first use only.
    if name in _TABLES:
        from . import tables

        return getattr(tables, name)
    raise AttributeError(f"module 'mafia_lab' has no attribute {name!r}")
