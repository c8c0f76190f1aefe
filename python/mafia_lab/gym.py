"""A Gymnasium environment: one learning seat against the built-in
strategies, in-process (``mafia_lab._native``).

    from mafia_lab.gym import MafiaGymEnv
    env = MafiaGymEnv(setup="classic", seat=1)
    obs, info = env.reset(seed=7)
    while True:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated:
            break

``seat`` is the learner's seat (a number from 1; the deal is random, so
one seat is as good as another); ``opponents`` the ``--agents`` lineup spec
of the other seats (default: the setup's lineup); any preset or setup
file. ``reset(seed=s)`` plays game ``options["game"]`` (default 0) of
master seed ``s``; ``reset()`` without a seed the next game of the last
seed. The observation is the ``float32`` tensor of ``mafia encoding``; the
legal actions are ``info["action_mask"]`` (``int8``) and
:meth:`MafiaGymEnv.action_masks` (the name MaskablePPO reads). The reward
is 0 until the game ends, then +1 if the seat's camp won, -1 if it lost,
0 for a draw. An action outside the mask raises
:class:`mafia_lab.MafiaError` and changes nothing.
"""

from __future__ import annotations

import random

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as e:  # the core package does not need them
    raise ImportError(f"mafia_lab.gym needs gymnasium and numpy ({e}): pip install './python[env]'") from e

from ._native import Game, MafiaError

__all__ = ["MafiaGymEnv"]


class MafiaGymEnv(gym.Env):
    """One learning seat against the built-in strategies."""

    metadata = {"render_modes": []}

    def __init__(self, setup: str = "classic", seat: int = 1, opponents: str | None = None, rules=(), render_mode=None):
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: this environment does not render")
        self.game = Game(setup=setup, agents=opponents, learners=[int(seat)], rules=list(rules))
        self.seat = int(seat)
        self.observation_space = spaces.Box(0.0, 1.0, (self.game.observation_len,), np.float32)
        self.action_space = spaces.Discrete(self.game.action_count)
        self._seeder = random.Random()
        self.game_seed, self.game_index = None, 0
        self._mask = np.zeros(self.game.action_count, np.int8)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.game_seed, self.game_index = int(seed), int((options or {}).get("game", 0))
        elif self.game_seed is None:
            self.game_seed, self.game_index = self._seeder.getrandbits(63), 0
        else:
            self.game_index += 1
        g = self.game
        g.reset(seed=self.game_seed, game=self.game_index)
        # A game that never asks the seat (absent all game, say) ends at
        # reset: play on, within reason.
        skipped = 0
        while g.done:
            skipped += 1
            if skipped >= 1000:
                raise MafiaError(
                    f"seat {self.seat} was asked nothing in 1000 games in a row (seed {self.game_seed}): "
                    "these rules never ask it, nothing to step"
                )
            self.game_index += 1
            g.reset(seed=self.game_seed, game=self.game_index)
        self._mask = g.mask()
        return g.observe(), {"action_mask": self._mask, "part": g.part}

    def step(self, action):
        g = self.game
        g.act(int(action))
        self._mask = g.mask()
        if g.done:
            return g.observe(), float(g.reward(self.seat)), True, False, {"action_mask": self._mask, "winner": g.winner}
        return g.observe(), 0.0, False, False, {"action_mask": self._mask, "part": g.part}

    def action_masks(self):
        """The legal actions now, as booleans."""
        return self._mask.astype(bool)
