"""A PettingZoo AEC environment over ``mafia host`` (the engine as a child).

    import mafia_lab.env
    env = mafia_lab.env.env(setup="classic", opponents="forum", learners=None)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    env.close()

Needs the ``env`` extra (``pip install ./python[env]``: pettingzoo,
gymnasium, numpy); the rest of :mod:`mafia_lab` does not.

**Agents.** ``player_<seat>`` for each learner seat (``learners``: seat
numbers from 1; default every seat). The other seats are played by the
engine's ``--agents opponents`` (default ``forum``). ``reset(seed=s)`` plays
game ``options["game"]`` (default 0) of master seed ``s``: the same game as
``mafia replay --seed s --game 0`` with the same agents, so a seed
reproduces a game whatever the actions were before. ``reset()`` without a
seed draws the next seed from the last seeded reset's stream. A learner
seat that dies stays among ``agents`` (it is simply never selected) until
the game ends; then every learner is terminated with its reward: +1 if its
camp won, -1 if it lost, 0 for a draw.

**Actions.** ``Discrete(K)``, ``K = N + 3`` for an ``N``-player setup;
the legal ones are in ``obs["action_mask"]`` (``np.int8``). By decision:

======================  ==========================  ================================================
decision                action 0                    actions 1..N (seat i)            N+1 / N+2
======================  ==========================  ================================================
vote                    vote PASS                   vote seat i                      —
revise                  keep the vote               change the vote to seat i        N+1: change to PASS
runoff                  —                           vote candidate i                 —
hang_both               pardon both                 —                                N+1: hang both
post/defence/last_word  say nothing                 accuse seat i                    N+1: claim own role and publish
                                                                                     own checks (found town/mafia/
                                                                                     bandits); N+2: claim Commissar
                                                                                     (Detective where no Commissar),
                                                                                     no checks
night: kill             send no nick                nick seat i for the camp kill    —
night: move             no move                     the move's target i              —
night: search           no search                   search nick seat i               —
proxy                   no move                     the member's move on seat i      —
appoint                 no appointment              —                                N+1: the first vacant role
secret_vote             with the open vote          give them to seat i              —
======================  ==========================  ================================================

A night request is split into up to three consecutive steps of the same
agent: the kill nick (if the seat shoots), the role move (if it has one
with targets), the search (a bandit's); the answer goes to the engine when
the last one is chosen. Rules for what one action cannot say: the second
target of a two-target move (Swindler, Journalist) is drawn uniformly
among the legal ones for the chosen first target; the Role Prostitute's
borrowed role is drawn uniformly among the offered ones; nobody defers to
the Boss. These draws use a ``random.Random`` seeded with the request's
``seed``, so they reproduce. A night or appointment with nothing to choose
is answered without a step.

**Observations.** ``{"observation": float32 array, "action_mask": int8
array}``; every feature is in [0, 1]. With ``N`` seats and ``R`` = 24 roles
(:data:`ROLES`), in this order (:meth:`MafiaEnv.feature_names` names each):

- own seat one-hot (N); own role one-hot (R); own camp one-hot (3: town,
  mafia, bandits);
- alive mask (N); known mates mask (N);
- night flag (1); day number / day cap (1); nights without a kill / 3,
  clipped (1);
- decision kind one-hot (13: :data:`KINDS`);
- own checks: checked, found town, found mafia, found bandits, found role
  (5 × N masks);
- public claims: each seat's latest claimed role, one-hot (N × R);
- published checks: how often each seat was named town, mafia, bandits by
  anyone (3 × N, count / 3 clipped); accusations (N, count / 3 clipped);
- today's open votes: votes on each seat / N (N), seats voting PASS (N),
  own vote one-hot (N + 1: index 0 is PASS or none);
- deaths: lynched (N), killed or otherwise dead (N);
- known roles: own, mates', roles revealed at death (N × R).

The observation of an agent other than the selected one (or after the
end) is built from the latest view it was sent, with an all-zero mask.

**The binary** is ``binary=``, else ``$MAFIA_BIN``, else
``<repo>/target/release/mafia`` when this module runs in place
(``python/mafia_lab/env.py``), else ``mafia`` on the ``PATH``.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import tempfile
from collections import deque
from pathlib import Path

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # the core package does not need them
    raise ImportError(f"mafia_lab.env needs pettingzoo, gymnasium and numpy ({e}): pip install './python[env]'") from e

from . import views as V
from .legal import check as _check
from .legal import legal_random

__all__ = ["env", "raw_env", "MafiaEnv", "ROLES", "KINDS", "find_binary"]

#: The roles, in the schema's order (the one-hots' order).
ROLES = (
    "citizen", "commissar", "mafioso", "don", "boss", "thief", "guard", "swindler", "actor",
    "detective", "deputy", "doctor", "chosen", "journalist", "witch", "prostitute", "lucky",
    "shooter", "sleepwalker", "psycho", "miner", "thug", "scout", "trickster",
)  # fmt: skip
CAMPS = ("town", "mafia", "bandits")
#: The decision kinds of the observation's one-hot (a night is split in three).
KINDS = (
    "post", "vote", "revise", "defence", "runoff", "hang_both", "night_kill", "night_move",
    "night_search", "proxy", "appoint", "secret_vote", "last_word",
)  # fmt: skip
_ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_SPEECH = ("post", "defence", "last_word")


def find_binary(binary: str | os.PathLike | None = None) -> str:
    """The ``mafia`` binary: ``binary``, ``$MAFIA_BIN``, the repo's release build, or the PATH."""
    if binary:
        return str(binary)
    if os.environ.get("MAFIA_BIN"):
        return os.environ["MAFIA_BIN"]
    in_place = Path(__file__).resolve().parents[2] / "target" / "release" / "mafia"
    if in_place.exists():
        return str(in_place)
    found = shutil.which("mafia")
    if found:
        return found
    raise FileNotFoundError(f"no mafia binary: pass binary=, set MAFIA_BIN, or build {in_place} (cargo build --release)")


def env(**kwargs) -> MafiaEnv:
    """The environment (see the module's documentation for the arguments)."""
    return MafiaEnv(**kwargs)


raw_env = env


class _Host:
    """``mafia host`` as a child process, spoken to in JSON lines."""

    def __init__(self, argv: list[str], timeout: float, hello: dict):
        self.timeout = timeout
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, bufsize=0)
        self.buf = b""
        self.lines: deque[bytes] = deque()
        first = self.read()
        if first.get("type") != "hello" or first.get("protocol") != 1:
            raise RuntimeError(f"mafia host: expected hello (protocol 1), got {first}")
        self.send(hello)

    def send(self, msg: dict) -> None:
        try:
            self.proc.stdin.write((json.dumps(msg, separators=(",", ":")) + "\n").encode())
        except BrokenPipeError:
            raise RuntimeError(f"mafia host exited ({self.proc.poll()}): {self.stderr_tail()}") from None

    def read(self) -> dict:
        """The next message (blocks up to ``timeout`` seconds)."""
        while not self.lines:
            fd = self.proc.stdout.fileno()
            r, _, _ = select.select([fd], [], [], self.timeout)
            if not r:
                raise TimeoutError(f"mafia host said nothing for {self.timeout}s: {self.stderr_tail()}")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise RuntimeError(f"mafia host exited ({self.proc.wait()}): {self.stderr_tail()}")
            parts = (self.buf + chunk).split(b"\n")
            self.buf = parts.pop()
            self.lines.extend(p for p in parts if p.strip())
        return json.loads(self.lines.popleft())

    def stderr_tail(self) -> str:
        try:
            self.err.seek(0)
            return self.err.read()[-2000:].decode(errors="replace").strip() or "(no stderr)"
        except (OSError, ValueError):
            return "(no stderr)"

    def close(self) -> None:
        p = self.proc
        if p.poll() is None:
            try:
                self.send({"type": "bye"})
                p.stdin.close()
            except (RuntimeError, OSError):
                pass
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for f in (p.stdin, p.stdout, self.err):
            try:
                f.close()
            except (OSError, ValueError):
                pass


class MafiaEnv(AECEnv):
    """The AEC environment; build it with :func:`env`.

    Arguments: ``setup`` (a built-in setup name or a setup file),
    ``opponents`` (the ``--agents`` spec of the seats the learners do not
    play), ``learners`` (seat numbers; ``None``: every seat), ``binary``
    (the ``mafia`` executable), ``rules`` (``key=value`` rule settings),
    ``players`` (the setup's size; ``None``: asked of ``mafia replay``),
    ``timeout`` (seconds to wait for the engine), ``render_mode``
    (``"ansi"``: :meth:`render` returns the selected seat's plain-English
    story, which the engine then sends with every request), ``host_args``
    (more ``mafia host`` arguments, e.g. ``["--ext-procs", "1"]`` for
    ``ext:`` opponents).
    """

    metadata = {"name": "mafia_lab_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        setup: str = "classic",
        opponents: str = "forum",
        learners=None,
        binary=None,
        rules=(),
        players: int | None = None,
        timeout: float = 60.0,
        render_mode: str | None = None,
        host_args=(),
    ):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' or None")
        self.render_mode = render_mode
        self.setup = setup
        self.opponents = opponents
        self.rules = list(rules)
        self.host_args = list(host_args)
        self.timeout = timeout
        self.binary = find_binary(binary)
        self.n = int(players) if players else self._probe_players()
        seats = list(range(1, self.n + 1)) if learners is None else sorted({int(s) for s in learners})
        if not seats or seats[0] < 1 or seats[-1] > self.n:
            raise ValueError(f"learners {learners!r}: seats of a {self.n}-player game, from 1")
        self.seats = seats
        self.possible_agents = [f"player_{s}" for s in seats]
        self._seat_of = {a: s for a, s in zip(self.possible_agents, seats, strict=True)}
        self._agent_of = {s: a for a, s in self._seat_of.items()}
        self.num_actions = self.n + 3
        self.A_YES = self.n + 1  # hang both / claim own role with checks / revise to PASS / appoint
        self.A_ALT = self.n + 2  # claim the checker role
        self.obs_size = len(self.feature_names())
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._host: _Host | None = None
        self._seeder = random.Random()
        self._in_game = False
        self._current = None
        self._views, self._texts, self._endings = {}, {}, {}
        self._queue = deque()
        self.ending = None
        self.game_seed, self.game = None, 0
        self.agents = []
        self.rewards, self._cumulative_rewards = {}, {}
        self.terminations, self.truncations, self.infos = {}, {}, {}
        self.agent_selection = None

    # --- spaces -------------------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def feature_names(self) -> list[str]:
        """The name of each observation feature, in order."""
        seats = range(1, self.n + 1)
        f = [f"seat_{s}" for s in seats] + [f"role_{r}" for r in ROLES] + [f"camp_{c}" for c in CAMPS]
        f += [f"alive_{s}" for s in seats] + [f"mate_{s}" for s in seats]
        f += ["night", "day_fraction", "nights_without_kill"] + [f"decision_{k}" for k in KINDS]
        for what in ("checked", "found_town", "found_mafia", "found_bandits", "found_role"):
            f += [f"{what}_{s}" for s in seats]
        f += [f"claim_{s}_{r}" for s in seats for r in ROLES]
        for what in ("named_town", "named_mafia", "named_bandits", "accused"):
            f += [f"{what}_{s}" for s in seats]
        f += [f"votes_on_{s}" for s in seats] + [f"votes_pass_{s}" for s in seats]
        f += ["my_vote_pass"] + [f"my_vote_{s}" for s in seats]
        f += [f"lynched_{s}" for s in seats] + [f"dead_{s}" for s in seats]
        f += [f"known_{s}_{r}" for s in seats for r in ROLES]
        return f

    # --- the engine ---------------------------------------------------------------

    def _probe_players(self) -> int:
        argv = [self.binary, "replay", "--json", "--setup", self.setup]
        for r in self.rules:
            argv += ["--rule", r]
        out = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout)
        if out.returncode != 0 or not out.stdout:
            raise RuntimeError(f"{' '.join(argv)} failed: {out.stderr.strip()}")
        return int(json.loads(out.stdout.splitlines()[0])["players"])

    def _start_host(self) -> _Host:
        argv = [self.binary, "host", "--setup", self.setup, "--agents", self.opponents]
        for r in self.rules:
            argv += ["--rule", r]
        argv += self.host_args
        hello = {"type": "hello", "protocol": 1, "name": "mafia_lab.env", "view": True,
                 "text": self.render_mode == "ansi", "quiet": False}  # fmt: skip
        return _Host(argv, self.timeout, hello)

    # --- AEC ----------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        if self._host is None:
            self._host = self._start_host()
        if self._in_game:
            self._abandon()
        if seed is not None:
            self._seeder = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeder.getrandbits(53)
        game = int((options or {}).get("game", 0))
        self.game_seed, self.game = game_seed, game
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._views: dict[int, dict] = {}
        self._texts: dict[int, str] = {}
        self._endings: dict[int, dict] = {}
        self._queue: deque[dict] = deque()
        self._current = None  # the request being decided: {"msg", "parts", "i", "moves", "rng"}
        self.ending = None
        self._host.send({"type": "play", "seed": game_seed, "game": game, "seats": self.seats})
        self._in_game = True
        self._advance()
        if self.ending is None:
            self.agent_selection = self._agent_of[self._current["msg"]["seat"]]
        else:  # over before any learner was asked (possible only in odd setups)
            self.agent_selection = self.agents[0]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is alive: its action may not be None")
        action = int(action)
        cur = self._current
        mask = self._mask(cur)
        if not (0 <= action < self.num_actions) or not mask[action]:
            legal = [i for i, m in enumerate(mask) if m]
            raise ValueError(f"{agent}: action {action} is not legal for {cur['parts'][cur['i']]} (legal: {legal})")
        self._cumulative_rewards[agent] = 0
        self._apply(cur, action)
        self._clear_rewards()
        if cur["i"] >= len(cur["parts"]):
            self._answer(cur)
            self._current = None
            self._advance()
        if self.ending is not None:
            self._finish()
        else:
            self.agent_selection = self._agent_of[self._current["msg"]["seat"]]
        self._accumulate_rewards()

    def observe(self, agent):
        seat = self._seat_of[agent]
        cur = self._current
        asked = cur is not None and cur["msg"]["seat"] == seat and self.ending is None
        mask = self._mask(cur) if asked else np.zeros(self.num_actions, np.int8)
        kind = self._kind(cur) if asked else None
        return {"observation": self._features(self._views.get(seat), kind), "action_mask": mask}

    def render(self):
        if self.render_mode != "ansi":
            return None
        seat = self._seat_of.get(self.agent_selection)
        return self._texts.get(seat, "")

    def close(self):
        if self._host is not None:
            self._host.close()
            self._host = None
        self._in_game = False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # --- the game's messages ------------------------------------------------------

    def _advance(self):
        """Reads the engine until a learner decision is pending or the game is done."""
        while self.ending is None and self._current is None:
            if self._queue:
                self._current = self._prepare(self._queue.popleft())
                continue
            msg = self._host.read()
            t = msg.get("type")
            if msg.get("game", self.game) != self.game and t in ("start", "request", "end", "done"):
                raise RuntimeError(f"mafia host: a message of game {msg.get('game')} during game {self.game}: {msg}")
            if t == "request":
                self._remember(msg)
                self._queue.append(msg)
            elif t == "start":
                self._remember(msg)
            elif t == "end":
                self._endings[msg["seat"]] = msg["ending"]
            elif t == "done":
                self.ending = msg["ending"]
                self._in_game = False
            elif t == "error":
                self._in_game = False
                raise RuntimeError(f"mafia host: {msg.get('message')}")
            else:
                raise RuntimeError(f"mafia host: unexpected message {msg}")

    def _remember(self, msg):
        if msg.get("view") is not None:
            self._views[msg["seat"]] = msg["view"]
        if msg.get("text") is not None:
            self._texts[msg["seat"]] = msg["text"]

    def _abandon(self):
        """Finishes the game in progress with random legal answers (a reset mid-game)."""
        while self._in_game:
            if self._current is not None:
                msg = self._current["msg"]
                self._send_answer(msg, legal_random(msg["request"], random.Random(msg["seed"])))
                self._current = None
            self._advance()

    def _finish(self):
        winner = self.ending.get("winner")
        roles = self.ending.get("roles") or []
        for agent in self.agents:
            seat = self._seat_of[agent]
            if winner is None:
                r = 0
            else:
                e = self._endings.get(seat)
                won = e["won"] if e is not None else (seat <= len(roles) and V.ROLE_CAMP.get(roles[seat - 1]) == winner)
                r = 1 if won else -1
            self.rewards[agent] = r
            self.terminations[agent] = True
            self.infos[agent] = {"ending": self._endings.get(seat, self.ending)}
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    # --- decisions ----------------------------------------------------------------

    def _prepare(self, msg):
        """The steps of one request; answers at once what leaves nothing to choose."""
        req = msg["request"]
        d = req["decision"]
        cur = {"msg": msg, "i": 0, "rng": random.Random(msg["seed"]), "moves": None}
        if d == "night":
            o = req["options"]
            moves = {"kill": None, "target": None, "second": None, "borrow": None, "search": None, "defer": False}
            parts, move = [], o.get("move")
            if o.get("kill"):
                parts.append("night_kill")
            if o.get("borrow"):
                b = o["borrow"][cur["rng"].randrange(len(o["borrow"]))]
                moves["borrow"], move = b["role"], b["move"]
            if move and move.get("targets"):
                parts.append("night_move")
            if o.get("search"):
                parts.append("night_search")
            cur["moves"], cur["move"] = moves, move
        elif d == "proxy":
            cur["moves"] = {"kill": None, "target": None, "second": None, "borrow": None, "search": None, "defer": False}
            cur["move"] = req["move"]
            parts = ["proxy"] if req["move"].get("targets") else []
        elif d == "appoint":
            parts = ["appoint"] if req["vacant"] else []
        elif d == "start":
            parts = []
        else:
            parts = [d]
        cur["parts"] = parts
        if not parts:
            self._answer(cur)
            return None
        return cur

    def _kind(self, cur):
        return cur["parts"][cur["i"]]

    def _mask(self, cur) -> np.ndarray:
        n, mask = self.n, np.zeros(self.num_actions, np.int8)
        req, kind = cur["msg"]["request"], self._kind(cur)

        def seats(xs):
            for s in xs or ():
                if 1 <= s <= n:
                    mask[s] = 1

        if kind == "vote":
            mask[0] = 1
            seats(req["options"])
        elif kind == "revise":
            mask[0] = 1
            seats(req["options"])
            if req.get("current") != "pass":
                mask[self.A_YES] = 1
        elif kind == "runoff":
            seats(req["options"])
        elif kind == "hang_both":
            mask[0] = mask[self.A_YES] = 1
        elif kind in _SPEECH:
            mask[0] = mask[self.A_YES] = 1
            seats(req["options"]["about"])
            if self._checker_role(req) is not None:
                mask[self.A_ALT] = 1
        elif kind == "night_kill":
            mask[0] = 1
            seats(req["options"]["kill"])
        elif kind in ("night_move", "proxy"):
            mask[0] = 1
            seats(cur["move"]["targets"])
        elif kind == "night_search":
            mask[0] = 1
            seats(req["options"]["search"])
        elif kind == "appoint":
            mask[0] = mask[self.A_YES] = 1
        elif kind == "secret_vote":
            mask[0] = 1
            seats(req["options"])
        return mask

    @staticmethod
    def _checker_role(req):
        claims = req["options"].get("claims") or ()
        for r in ("commissar", "detective"):
            if r in claims:
                return r
        return None

    def _apply(self, cur, a):
        """Records action ``a`` for the current part and moves to the next part."""
        kind, req = self._kind(cur), cur["msg"]["request"]
        seat = a if 1 <= a <= self.n else None
        if kind == "vote":
            cur["answer"] = {"decision": "vote", "vote": seat if seat else "pass"}
        elif kind == "revise":
            cur["answer"] = {"decision": "revise", "vote": "pass" if a == self.A_YES else seat}
        elif kind == "runoff":
            cur["answer"] = {"decision": "runoff", "choice": seat}
        elif kind == "hang_both":
            cur["answer"] = {"decision": "hang_both", "hang": a == self.A_YES}
        elif kind in _SPEECH:
            say = {"claim": None, "town": [], "mafia": [], "bandits": [], "accuse": [], "text": None}
            if seat:
                say["accuse"] = [seat]
            elif a == self.A_YES:
                view = self._views.get(cur["msg"]["seat"])
                if view is not None:
                    p = view["private"]
                    say.update(claim=p["role"], town=p["found_town"], mafia=p["found_mafia"], bandits=p["found_bandits"])
            elif a == self.A_ALT:
                say["claim"] = self._checker_role(req)
            cur["answer"] = {"decision": kind, "say": say, "text": None}
        elif kind == "night_kill":
            cur["moves"]["kill"] = seat
        elif kind == "night_search":
            cur["moves"]["search"] = seat
        elif kind in ("night_move", "proxy"):
            cur["moves"]["target"] = seat
            if seat is not None:
                for o in cur["move"].get("second") or ():
                    if o["first"] == seat and o["options"]:
                        cur["moves"]["second"] = o["options"][cur["rng"].randrange(len(o["options"]))]
        elif kind == "appoint":
            cur["answer"] = {"decision": "appoint", "role": req["vacant"][0] if a == self.A_YES else None}
        elif kind == "secret_vote":
            cur["answer"] = {"decision": "secret_vote", "target": seat}
        cur["i"] += 1

    def _answer(self, cur):
        msg = cur["msg"]
        d = msg["request"]["decision"]
        if d in ("night", "proxy"):
            ans = {"decision": d, "moves": cur["moves"]}
        elif d == "appoint" and "answer" not in cur:
            ans = {"decision": "appoint", "role": None}
        elif d == "start":
            return
        else:
            ans = cur["answer"]
        why = _check(msg["request"], ans)
        if why is not None:  # a bug of this module: never send what the engine would refuse
            raise AssertionError(f"mafia_lab.env built an illegal answer {ans} to {msg['request']}: {why}")
        self._send_answer(msg, ans)

    def _send_answer(self, msg, ans):
        self._host.send({"type": "answer", "id": msg["id"], "game": msg["game"], "seat": msg["seat"], "answer": ans})

    # --- features -----------------------------------------------------------------

    def _features(self, view, kind) -> np.ndarray:
        n, R = self.n, len(ROLES)
        x = np.zeros(self.obs_size, np.float32)
        if view is None:
            return x
        o = 0

        def mask_at(off, seats):
            for s in seats:
                if 1 <= s <= n:
                    x[off + s - 1] = 1.0

        p = view["private"]
        me = view["seat"]
        x[o + me - 1] = 1.0
        o += n
        x[o + _ROLE_INDEX[p["role"]]] = 1.0
        o += R
        x[o + CAMPS.index(p["camp"])] = 1.0
        o += 3
        mask_at(o, view["alive"])
        o += n
        mates = V.mates(view)
        mask_at(o, mates)
        o += n
        kind_, num = V.phase(view)
        x[o] = 1.0 if kind_ == "night" else 0.0
        cap = view["setup"]["rules"].get("day_cap")
        cap = cap if isinstance(cap, int) and cap > 0 else 50
        x[o + 1] = min(num / cap, 1.0)
        x[o + 2] = min(view.get("nights_without_kill", 0) / 3.0, 1.0)
        o += 3
        if kind is not None:
            x[o + _KIND_INDEX[kind]] = 1.0
        o += len(KINDS)
        for what in ("checked", "found_town", "found_mafia", "found_bandits", "found_role"):
            mask_at(o, p[what])
            o += n
        for s, r in V.claims(view).items():
            if 1 <= s <= n and r in _ROLE_INDEX:
                x[o + (s - 1) * R + _ROLE_INDEX[r]] = 1.0
        o += n * R
        named = {c: np.zeros(n, np.float32) for c in CAMPS}
        for _, camp, t in V.published_checks(view):
            if 1 <= t <= n:
                named[camp][t - 1] += 1
        for c in CAMPS:
            x[o : o + n] = np.minimum(named[c] / 3.0, 1.0)
            o += n
        for s, k in V.accusations(view).items():
            if 1 <= s <= n:
                x[o + s - 1] = min(k / 3.0, 1.0)
        o += n
        votes = V.today_votes(view)
        for voter, v in votes.items():
            if v == "pass":
                if 1 <= voter <= n:
                    x[o + n + voter - 1] = 1.0
            elif 1 <= v <= n:
                x[o + v - 1] += 1.0 / n
        o += 2 * n
        mine = votes.get(me)
        x[o + (mine if isinstance(mine, int) and 1 <= mine <= n else 0)] = 1.0
        o += n + 1
        known = {me: p["role"], **mates}
        for e in view["record"]:
            if e["event"] == "died":
                s = e["seat"]
                if 1 <= s <= n:
                    x[o + (s - 1 if e["cause"] == "lynched" else n + s - 1)] = 1.0
                if e.get("revealed"):
                    known[s] = e["revealed"]
        o += 2 * n
        for s, r in known.items():
            if 1 <= s <= n and r in _ROLE_INDEX:
                x[o + (s - 1) * R + _ROLE_INDEX[r]] = 1.0
        o += n * R
        assert o == self.obs_size
        return x
