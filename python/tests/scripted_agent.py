"""An agent for the serve-loop tests: misbehaves on purpose on some seats.

- seat 3: ``decide`` raises ZeroDivisionError;
- seat 4: ``decide`` returns None (not an answer);
- seat 5: answers a vote to every request (illegal for most);
- otherwise: a random legal answer from ``self.rng``; speech carries, as
  its free text, how many decisions this (game, seat) has had
  (``self.state``) and whether ``start`` was seen for it.
"""

import sys

from mafia_lab import Agent, legal_random, serve


class Scripted(Agent):
    name = "scripted"
    wants_text = True

    def start(self, game, seat, view):
        self.state["started"] = True
        if seat == 6:
            raise RuntimeError("start fails for seat 6")

    def decide(self, view, request):
        if self.seat == 3:
            return 1 / 0
        if self.seat == 4:
            return None
        if self.seat == 5:
            return {"decision": "vote", "vote": 99}
        st = self.state
        st["n"] = st.get("n", 0) + 1
        ans = legal_random(request, self.rng)
        if request["decision"] in ("post", "defence", "last_word"):
            ans["text"] = f"n={st['n']} started={st.get('started', False)} text={self.text!r}"
        return ans

    def end(self, game, seat, ending):
        sys.stderr.write(f"end {game} {seat} {ending.get('winner')}\n")


if __name__ == "__main__":
    sys.exit(serve(Scripted, check="--check" in sys.argv))
