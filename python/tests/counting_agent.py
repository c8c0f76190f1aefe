"""A deterministic agent for the stepped-game-equals-CLI test: its answer
to a seat's ``k``-th decision of a game is ``legal_random(request,
Random("SEAT:k"))`` — no draw from the request's seed, so the same class
gives the same answers in-process (``Game.answer``) and as an ``ext:``
process of ``mafia replay``."""

import os
import random
import sys

try:
    import mafia_lab  # noqa: F401
except ImportError:  # run in place
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mafia_lab import Agent, legal_random, serve


class Counting(Agent):
    name = "counting"

    def decide(self, view, request):
        st = self.state
        st["k"] = st.get("k", 0) + 1
        return legal_random(request, random.Random(f"{self.seat}:{st['k']}"))


if __name__ == "__main__":
    serve(Counting)
