"""``N`` games stepped per call, in-process and in parallel
(``mafia_lab._native.Batch``): NumPy arrays in and out, automatic reset,
one seed per game. The games are split among ``threads`` shards: shard 0
plays on the caller's thread, the others on threads of the batch's own,
so a batch is used from the thread that made it (another raises).

    from mafia_lab.batch import BatchEnv
    env = BatchEnv(1024, setup="classic", threads=2)
    obs, mask, seat = env.reset(seed=1)            # [n, L] f32, [n, A] i8, [n] i32
    actions = (mask * rng.random(mask.shape)).argmax(1)   # a random legal action each
    obs, mask, seat, reward, done = env.step(actions)

Each game has one decision part pending at a time, for the seat it asks
(``seat``, from 1): every learner seat of the game acts through the same
slot (``learners``: seat numbers; default every seat, self-play). When a
game ends, ``done[i]`` is set, ``reward[i]`` holds each learner seat's
+1/-1/0 (``[n, players]``; 0 for the other seats), and the slot has already
begun its next game: ``obs[i]``, ``mask[i]`` and ``seat[i]`` are the new
game's. Slot ``i`` plays games 0, 1, 2, … of its own master seed
(``reset(seed=s)`` gives it ``s + i``; or pass ``n`` seeds), so the same
seeds and actions give the same trajectories whatever ``n`` and the thread
count. Actions outside the masks, or of the wrong count, raise
:class:`mafia_lab.MafiaError` and step nothing.
"""

from __future__ import annotations

import threading

from ._native import Batch, MafiaError

__all__ = ["BatchEnv"]


class BatchEnv:
    """``n`` games of ``setup`` with ``learners`` acting and ``opponents``
    (an ``--agents`` lineup spec; default the setup's) playing the rest, on
    ``threads`` threads (0: every core)."""

    def __init__(self, n: int, setup: str = "classic", opponents: str | None = None, learners=None, rules=(), threads: int = 0):
        self._b = Batch(int(n), setup=setup, agents=opponents, learners=learners, rules=list(rules), threads=int(threads))
        self.n = self._b.n
        self.players = self._b.players
        self.observation_len = self._b.observation_len
        self.action_count = self._b.action_count
        self.threads = self._b.threads
        self._thread = threading.get_ident()

    def _here(self):
        if threading.get_ident() != self._thread:
            raise MafiaError("a BatchEnv is used from the thread that made it (its first shard of games lives there)")

    def reset(self, seed=0):
        """Begins game 0 of every slot: ``seed`` an int (slot ``i`` gets
        ``seed + i``) or ``n`` ints. Returns ``(obs, mask, seat)``."""
        self._here()
        obs, mask, seat, _, _ = self._b.reset(seed)
        return obs, mask, seat

    def step(self, actions):
        """One action per game. Returns ``(obs, mask, seat, reward, done)``."""
        import numpy as np

        self._here()
        return self._b.step(np.ascontiguousarray(actions, dtype=np.int64))
