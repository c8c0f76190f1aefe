"""PettingZoo environments over the engine in-process (``mafia_lab._native``).

    import mafia_lab.env
    env = mafia_lab.env.env(setup="classic", opponents=None, learners=None)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

:func:`env` is the AEC environment (one seat acts at a time, as the game
asks them), :func:`parallel_env` the Parallel one (every live learner gets
an observation each step; only the seat asked has legal actions, the
others' masks are all zero and their actions are ignored). Both need the
``env`` extra (pettingzoo, gymnasium); nothing runs in a child process.

**Agents.** ``player_<seat>`` for each learner seat (``learners``: seat
numbers from 1; default every seat). The other seats are played in-process
by the built-in strategies of ``opponents`` (an ``--agents`` lineup spec;
default: the setup's own lineup). ``reset(seed=s)`` plays game
``options["game"]`` (default 0) of master seed ``s``: the same deal and
chance as ``mafia replay --seed s --game 0`` with the same lineup, so a
seed reproduces a game whatever was played before. ``reset()`` without a
seed plays the next game of the last seed. A learner seat that dies stays
among ``agents`` (it is never selected) until the game ends; then every
learner is terminated with its reward: +1 if its camp won, -1 if it lost,
0 for a draw.

**Observations and actions** are defined once, in Rust
(``engine/src/encode.rs``), and described field by field by
``mafia encoding`` (or :func:`encoding`): ``{"observation": float32 array
in [0, 1], "action_mask": int8 array}``, ``Discrete(N + 3)`` actions, one
per decision part (a night asks up to three parts in a row). An action
outside the mask raises :class:`mafia_lab.MafiaError` and changes nothing.
The observation of an agent other than the selected one is its latest,
with an all-zero mask.
"""

from __future__ import annotations

import functools
import json
import random

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as e:  # the core package does not need them
    raise ImportError(f"mafia_lab.env needs pettingzoo, gymnasium and numpy ({e}): pip install './python[env]'") from e

from ._native import Game

__all__ = ["env", "raw_env", "parallel_env", "MafiaEnv", "MafiaParallelEnv", "encoding"]


def encoding(setup: str = "classic") -> dict:
    """The encodings of ``setup`` (as ``mafia encoding --setup SETUP``): every
    block of the observation with its offset, width and meaning, every
    feature's name, each action's meaning per decision part."""
    return json.loads(Game(setup=setup).encoding_json())


class _Core:
    """What both environments share: the game, the spaces, the seeds."""

    def _setup(self, setup, opponents, learners, rules):
        self.game = Game(setup=setup, agents=opponents, learners=learners, rules=list(rules))
        self.setup = setup
        self.n = self.game.players
        self.seats = self.game.learners
        self.possible_agents = [f"player_{s}" for s in self.seats]
        self._agent_of = {s: a for a, s in zip(self.possible_agents, self.seats, strict=True)}
        self._seat_of = {a: s for s, a in self._agent_of.items()}
        self.num_actions = self.game.action_count
        self.obs_size = self.game.observation_len
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._zero_mask = np.zeros(self.num_actions, np.int8)
        self._seeder = random.Random()
        self.game_seed, self.game_index = None, 0

    @functools.cache  # noqa: B019 (the same space object every call, as the API tests ask)
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self.action_spaces[agent]

    def _begin(self, seed, options):
        if seed is not None:
            self.game_seed, self.game_index = int(seed), int((options or {}).get("game", 0))
            self._seeder = random.Random(self.game_seed)
        elif self.game_seed is None:
            self.game_seed, self.game_index = self._seeder.getrandbits(63), 0
        else:
            self.game_index += 1
        self.game.reset(seed=self.game_seed, game=self.game_index)

    def _rewards(self):
        return {a: float(self.game.reward(s)) for a, s in self._seat_of.items()}

    def events(self) -> list[dict]:
        """The game's events so far (every event, hidden ones too: the
        event lines of ``mafia replay --json``)."""
        return [json.loads(line) for line in self.game.events_json().splitlines()]

    def view(self) -> dict | None:
        """The asked seat's view (the protocol's JSON), ``None`` when over."""
        v = self.game.view_json()
        return None if v is None else json.loads(v)


class MafiaEnv(_Core, AECEnv):
    """The AEC environment; build it with :func:`env`.

    Arguments: ``setup`` (a built-in setup name or a setup file),
    ``opponents`` (the ``--agents`` spec of the seats the learners do not
    play; ``None``: the setup's lineup), ``learners`` (seat numbers from 1;
    ``None``: every seat), ``rules`` (``key=value`` rule settings).
    """

    metadata = {"name": "mafia_lab_v1", "render_modes": [], "is_parallelizable": False}

    def __init__(self, setup: str = "classic", opponents: str | None = None, learners=None, rules=(), render_mode=None):
        super().__init__()
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: this environment does not render (read env.events())")
        self.render_mode = None
        self._setup(setup, opponents, learners, rules)
        self.agents = []
        self.rewards, self._cumulative_rewards = {}, {}
        self.terminations, self.truncations, self.infos = {}, {}, {}
        self.agent_selection = None
        self._obs = {}

    def reset(self, seed=None, options=None):
        self._begin(seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        zero = np.zeros(self.obs_size, np.float32)
        self._obs = {a: {"observation": zero, "action_mask": self._zero_mask} for a in self.agents}
        self._advance()

    def _advance(self):
        g = self.game
        seat = g.seat
        if seat is None:
            for a, r in self._rewards().items():
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            # Every learner is terminated: each gets its last step (None).
            self.agent_selection = self.agents[0] if self.agents else None
            for a in self.agents:
                self._obs[a] = {"observation": self._obs[a]["observation"], "action_mask": self._zero_mask}
            return
        a = self._agent_of[seat]
        self.agent_selection = a
        self._obs[a] = {"observation": g.observe(), "action_mask": g.mask()}
        self.infos[a] = {"part": g.part}

    def observe(self, agent):
        return self._obs[agent]

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[a] = 0.0
        self.game.act(int(action))
        # The previous selection's mask is spent.
        self._obs[a] = {"observation": self._obs[a]["observation"], "action_mask": self._zero_mask}
        self._advance()

    def render(self):
        return None

    def close(self):
        pass


class MafiaParallelEnv(_Core, ParallelEnv):
    """The Parallel environment; build it with :func:`parallel_env`. The
    same arguments as :class:`MafiaEnv`. Each step, the seat the game asks
    (``infos[agent]["asked"]``) has the legal actions of its part; every
    other live learner's mask is all zero and its action is ignored."""

    metadata = {"name": "mafia_lab_parallel_v1", "render_modes": []}

    def __init__(self, setup: str = "classic", opponents: str | None = None, learners=None, rules=(), render_mode=None):
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: this environment does not render (read env.events())")
        self.render_mode = None
        self._setup(setup, opponents, learners, rules)
        self.agents = []
        self._obs = {}

    def _observations(self):
        g = self.game
        asked = self._agent_of.get(g.seat) if g.seat is not None else None
        if asked is not None:
            self._obs[asked] = {"observation": g.observe(), "action_mask": g.mask()}
        out = {}
        for a in self.agents:
            if a == asked:
                out[a] = self._obs[a]
            else:
                out[a] = {"observation": self._obs[a]["observation"], "action_mask": self._zero_mask}
        infos = {a: {"asked": a == asked, "part": g.part if a == asked else None} for a in self.agents}
        return out, infos

    def reset(self, seed=None, options=None):
        self._begin(seed, options)
        self.agents = self.possible_agents[:]
        zero = np.zeros(self.obs_size, np.float32)
        self._obs = {a: {"observation": zero, "action_mask": self._zero_mask} for a in self.agents}
        return self._observations()

    def step(self, actions):
        g = self.game
        if g.done or not self.agents:
            raise ValueError("the game is over: call reset() before stepping again")
        asked = self._agent_of[g.seat]
        if asked not in actions:
            raise ValueError(f"{asked} is asked ({g.part}) and has no action in {sorted(actions)}")
        g.act(int(actions[asked]))
        obs, infos = self._observations()
        done = g.done
        rewards = self._rewards() if done else dict.fromkeys(self.agents, 0.0)
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self):
        return None

    def close(self):
        pass


def raw_env(**kwargs) -> MafiaEnv:
    """The AEC environment (no wrappers)."""
    return MafiaEnv(**kwargs)


def env(**kwargs) -> MafiaEnv:
    """The AEC environment. PettingZoo's order-enforcing wrapper is left
    out on purpose: it costs a third of a step, and the environment checks
    what it would (an action outside the mask, a step after the end)."""
    return MafiaEnv(**kwargs)


def parallel_env(**kwargs) -> MafiaParallelEnv:
    """The Parallel environment."""
    return MafiaParallelEnv(**kwargs)
