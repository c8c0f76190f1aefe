#!/usr/bin/env python3
"""A uniformly random legal agent: the speed benchmark of the protocol.

Asks for no view (``view: false``), no speech (``quiet: true``) and no
``start``/``end`` (``start_end: false``), so the engine sends only the
decisions that matter, as small messages; draws from
each request's ``seed`` (``seed % n`` for a vote, a runoff vote and a
hang-both vote, whose answers it writes as JSON text directly; a SplitMix64
seeded with it otherwise), so runs reproduce whatever the pool size.

    mafia run --setup classic --agents ext:python/examples/random_agent.py
"""

import os
import sys

try:
    import mafia_lab  # noqa: F401  (is the package importable?)
except ImportError:  # run in place: python is this file's parent's parent
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mafia_lab  # noqa: F401  (is the package importable?)

from mafia_lab import Agent, SeedRng, legal_random, serve


class RandomAgent(Agent):
    name = "python-random"
    wants_view = False
    quiet = True
    wants_start_end = False

    def decide(self, view, request):
        # The three commonest decisions, answered as JSON text (serve sends
        # a str answer as is); the rest by the library's legal_random.
        d = request["decision"]
        seed = self.seed
        if d == "vote":
            o = request["options"]
            return '{"decision":"vote","vote":%s}' % (o[seed % len(o)] if o else '"pass"')
        if d == "runoff":
            o = request["options"]
            return '{"decision":"runoff","choice":%d}' % o[seed % len(o)]
        if d == "hang_both":
            return '{"decision":"hang_both","hang":%s}' % ("true" if seed & 1 else "false")
        return legal_random(request, SeedRng(seed))


if __name__ == "__main__":
    sys.exit(serve(RandomAgent))
