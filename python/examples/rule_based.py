#!/usr/bin/env python3
"""A small rule-based agent that reads the view (classic roles; in other
setups it plays the extended roles' moves at random).

Town:
- the Commissar checks players he has not checked yet; once he has found
  a living mafioso he claims and publishes all his checks (and always
  does in a defence or a last word);
- the town trusts the first Commissar claimant (a later counter-claimant
  is suspect) and votes the players he published as mafia; without one it
  votes the most accused player it has no reason to trust, passes on day
  1 when nobody is accused, otherwise votes at random (never a cleared
  player or the trusted Commissar); it changes its vote to a published
  mafioso, and hangs a tied pair only when one of them is published mafia.

Mafia (every mafia seat computes the same choices from public data, so
they agree without talking, as the unanimous kill needs):
- vote and shoot a claimed Commissar; else the Don's signal: the player
  the Don accuses in a post (the Don accuses the player his check found to
  be the Commissar); else a target drawn from the living non-mafia seats
  by the day's number;
- the Don checks players he has not checked; mafiosi never defend, claim
  or accuse; they pardon a tied pair with a mate in it.

    mafia run --setup classic --agents forum,town=ext:python/examples/rule_based.py
"""

import os
import sys

try:
    import mafia_lab  # noqa: F401  (is the package importable?)
except ImportError:  # run in place
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mafia_lab  # noqa: F401  (is the package importable?)

from mafia_lab import Agent, answers, is_legal, legal_random, serve
from mafia_lab import views as V

CHECKS = ("camp_check",)  # the Commissar's move (C6)
DON_CHECK = "don_check"  # the Don's move (C5)


class Knowledge:
    """What the rules read from one view."""

    def __init__(self, view):
        p = view["private"]
        self.me = view["seat"]
        self.role = p["role"]
        self.camp = p["camp"]
        self.alive = set(view["alive"])
        self.mates = V.mates(view)
        self.team = set(self.mates) | {self.me}
        self.kind, self.n = V.phase(view)
        claimants = V.claimants(view, "commissar")
        if self.role == "commissar":
            self.trusted = self.me
            self.known_mafia = set(p["found_mafia"]) | {c for c in claimants if c != self.me}
            self.cleared = set(p["found_town"])
        else:
            self.trusted = claimants[0] if claimants else None
            self.known_mafia = set(claimants[1:])
            self.cleared = set()
            for speaker, camp, target in V.published_checks(view):
                if speaker == self.trusted:
                    (self.known_mafia if camp == "mafia" else self.cleared).add(target)
            if self.trusted is not None:
                self.cleared.add(self.trusted)
        self.known_mafia -= {self.me}
        self.cleared -= self.known_mafia
        self.claimed_commissar = [c for c in claimants if c in self.alive and c not in self.team]
        self.accused = V.accusations(view)
        # Suspicion from public votes (town reading): a first vote for a
        # player while the town passes first is the mafia's bloc; a vote for
        # a cleared player or the trusted Commissar is suspect, a vote for a
        # published mafioso is not.
        self.suspicion = {}
        for e in view["record"]:
            if e["event"] != "vote" or e["vote"] == "pass":
                continue
            voter, target = e["seat"], e["vote"]
            if target in self.known_mafia:
                score = -1.0
            elif target in self.cleared:
                score = 1.5
            elif not e["change"]:
                score = 1.0
            else:
                score = 0.0
            self.suspicion[voter] = self.suspicion.get(voter, 0.0) + score
        # The Don's signal: the latest seat the Don (me or a mate) accused in a post.
        self.signal = None
        dons = {s for s, r in self.mates.items() if r == "don"} | ({self.me} if self.role == "don" else set())
        for ev, seat, says in V.publications(view):
            if ev == "post" and seat in dons:
                for t in says.get("accuse") or ():
                    if t in self.alive and t not in self.team:
                        self.signal = t

    def mafia_target(self, offset=0):
        """The mafia's common target: every mafia seat computes the same one."""
        if self.claimed_commissar:
            return self.claimed_commissar[0]
        if self.signal is not None:
            return self.signal
        others = sorted(self.alive - self.team)
        return others[(self.n * 7 + offset) % len(others)] if others else None

    def town_target(self, options):
        """The seat of ``options`` the town votes, or None: a published
        mafioso, else the most suspect by the public votes (ties: the lowest
        seat, so that every town seat running these rules picks the same)."""
        opts = [o for o in options if o != self.me and o in self.alive]
        mafia = [o for o in opts if o in self.known_mafia]
        if mafia:
            return mafia[0]
        scored = [(self.suspicion.get(o, 0.0), -o) for o in opts if o not in self.cleared]
        if scored and max(scored)[0] > 0:
            return -max(scored)[1]
        return None


class RuleBased(Agent):
    name = "python-rules"

    def decide(self, view, request):
        handler = getattr(self, "on_" + request["decision"], None)
        ans = handler(Knowledge(view), view, request) if handler else None
        if ans is None or not is_legal(request, ans):
            return legal_random(request, self.rng)
        return ans

    # --- speech ---------------------------------------------------------------

    def _reveal(self, k, view, decision):
        p = view["private"]
        return answers._speech(decision, "commissar", p["found_town"], p["found_mafia"], (), (), None)

    def on_post(self, k, view, request):
        if k.role == "commissar" and (k.known_mafia & k.alive):
            return self._reveal(k, view, "post")
        if k.role == "don":
            found = [s for s in view["private"]["found_role"] if s in k.alive]
            if found:
                return answers.post(accuse=found[:1])
        return answers.silent_post()

    def on_defence(self, k, view, request):
        if k.role == "commissar":
            return self._reveal(k, view, "defence")
        return answers.silent_defence()

    def on_last_word(self, k, view, request):
        if k.role == "commissar":
            return self._reveal(k, view, "last_word")
        return answers.silent_last_word()

    # --- votes ----------------------------------------------------------------

    def on_vote(self, k, view, request):
        options = request["options"]
        if k.camp == "mafia":
            t = k.mafia_target()
            return answers.vote(t) if t in options else None
        # The town votes PASS first unless it knows better, then revises onto
        # whoever the first votes (or the Commissar) expose.
        t = k.town_target(options)
        return answers.vote(t) if t is not None else answers.pass_vote()

    def on_revise(self, k, view, request):
        current, options = request["current"], request["options"]
        if k.camp == "mafia":
            t = k.claimed_commissar[0] if k.claimed_commissar else None
        else:
            t = k.town_target(options)
        return answers.revise(t if t in options and t != current else None)

    def on_runoff(self, k, view, request):
        options = request["options"]
        if k.camp == "mafia":
            t = k.mafia_target()
            if t in options:
                return answers.runoff(t)
            pool = [o for o in options if o not in k.team] or options
            return answers.runoff(self.rng.choice(pool))
        t = k.town_target(options)
        if t is not None:
            return answers.runoff(t)
        pool = [o for o in options if o not in k.cleared] or options
        return answers.runoff(self.rng.choice(pool))

    def on_hang_both(self, k, view, request):
        pair = set(request["pair"])
        if k.camp == "mafia":
            return answers.hang_both(not (pair & k.team))
        suspect = pair & k.known_mafia or {p for p in pair if k.suspicion.get(p, 0) > 0}
        return answers.hang_both(bool(suspect) and not (pair & k.cleared) and k.me not in pair)

    # --- night ----------------------------------------------------------------

    def on_night(self, k, view, request):
        o = request["options"]
        ans = legal_random(request, self.rng)  # every part the rules below leave alone
        m = ans["moves"]
        if o.get("kill"):
            t = k.mafia_target() if k.camp == "mafia" else None
            if t in o["kill"]:
                m["kill"] = t
        move = o.get("move")
        if move and not o.get("borrow") and move.get("targets"):
            ability = move["ability"]
            if ability in CHECKS or ability == DON_CHECK:
                checked = set(view["private"]["checked"])
                pool = [t for t in move["targets"] if t not in checked and t not in k.team and t not in k.cleared]
                if ability == DON_CHECK:  # look for the Commissar among the claimants first
                    pool = [t for t in pool if t in k.claimed_commissar] or pool
                if pool:
                    m["target"], m["second"] = self.rng.choice(pool), None
        return ans


if __name__ == "__main__":
    sys.exit(serve(RuleBased))
