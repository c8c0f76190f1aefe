#!/usr/bin/env python3
"""Learns to play one seat of a setup (``classic`` by default) against its default lineup, with
NumPy only, and measures the result against the default strategy in that
seat on the same games.

    python python/examples/learn.py                 # the full run (about 6 minutes on 2 idle cores)
    python python/examples/learn.py --quick         # a smoke run (under a minute)
    python python/examples/learn.py --setup forum-16 --agents preset:forum-16   # another preset, or lineup

The learner plays seat ``--seat`` (default 1) of ``--setup`` (default
``classic``); the other seats are ``--agents`` (default: the setup's default
lineup), in-process.
The seat is dealt a random
role every game (town or mafia), so one policy learns both camps: its
observation says which role it holds. The policy is a small actor-critic
network (one hidden ReLU layer, a masked-softmax policy head and a value
head), trained by advantage actor-critic (A2C: GAE(λ) advantages, an entropy
bonus, Adam, hand-written backprop) on :class:`mafia_lab.batch.BatchEnv`
games stepped two threads at a time. The policy head starts at zero, so the
initial policy is uniform over the legal actions: random play.

The budget is a number of updates (``--updates``), so a run is a function
of ``--seed`` alone; ``--minutes`` is only a guard (training stops there and
says the run is then not reproducible). Evaluation plays ``--eval-games``
games on fixed held-out master seeds (never trained on, the same for every
``--seed``): the initial policy, the learned policy and -- through
``Game(learners=[])``, the lineup playing the whole game -- the default
strategy in the same seat of the same games (paired). It prints win rates
with 95% Wilson intervals, split by camp, the paired difference learned -
default (the duel against the default) and learned - initial, with 95%
normal intervals, the command line and the time taken; the weights go to
``--out`` (an ``.npz``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time

# One BLAS thread: the environment's two threads do the stepping, and a
# fixed thread count keeps the float sums (hence the weights) reproducible.
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import numpy as np  # noqa: E402

try:
    from mafia_lab._native import Game

    from mafia_lab.batch import BatchEnv
except ImportError:  # run in place: python is this file's parent's parent
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from mafia_lab._native import Game

    from mafia_lab.batch import BatchEnv

SETUP = "classic"  # the default of --setup
# Held-out evaluation games: master seeds EVAL_BASE + i (games 0, 1, ... of
# each). Training uses master seeds TRAIN_BASE + seed * 2**20 + i: never these.
EVAL_BASE = 1_000_000_000
TRAIN_BASE = 1 << 40
CAMPS = ("town", "mafia", "bandits")  # the observation's "camp" block, in order


# ---------------------------------------------------------------- the network


def init_params(obs_len: int, actions: int, hidden: int, seed: int) -> dict:
    """He-initialised hidden layer; zero policy and value heads (the initial
    policy is uniform over the legal actions)."""
    rng = np.random.default_rng([seed, 1])
    return {
        "W1": (rng.standard_normal((obs_len, hidden)) * math.sqrt(2.0 / obs_len)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "Wp": np.zeros((hidden, actions), np.float32),
        "bp": np.zeros(actions, np.float32),
        "Wv": np.zeros((hidden, 1), np.float32),
        "bv": np.zeros(1, np.float32),
    }


def load_params(path: str, obs_len: int, actions: int) -> dict:
    """The weights of an earlier run's ``--out``, checked against this
    game's observation and action sizes."""
    try:
        z = np.load(path)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--load {path}: {e}") from None
    keys = ("W1", "b1", "Wp", "bp", "Wv", "bv")
    missing = [k for k in keys if k not in z]
    if missing:
        raise SystemExit(f"--load {path}: not a learn.py weights file (no {', '.join(missing)})")
    p = {k: np.asarray(z[k], np.float32) for k in keys}
    if p["W1"].shape[0] != obs_len or p["Wp"].shape[1] != actions:
        raise SystemExit(
            f"--load {path}: made for {p['W1'].shape[0]} observation features and {p['Wp'].shape[1]} actions; "
            f"this game has {obs_len} and {actions} (another setup?)"
        )
    return p


def forward(p: dict, x: np.ndarray, mask: np.ndarray):
    """Hidden pre-activations, masked log-probabilities, values."""
    z1 = x @ p["W1"] + p["b1"]
    h = np.maximum(z1, 0.0)
    logits = h @ p["Wp"] + p["bp"]
    legal = mask.astype(bool)
    logits = np.where(legal, logits, -np.inf)
    m = logits.max(1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(1, keepdims=True))
    v = (h @ p["Wv"] + p["bv"])[:, 0]
    return z1, h, logp, v


def sample(logp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row from the masked distribution (inverse CDF)."""
    c = np.cumsum(np.exp(logp), 1)
    u = rng.random(len(logp))[:, None] * c[:, -1:]
    a = (c <= u).sum(1)
    # Float edge: never step onto an illegal action.
    return np.minimum(a, logp.shape[1] - 1 - np.argmax(np.isfinite(logp[:, ::-1]), 1))


def grads(p: dict, x, mask, a, adv, ret, ent_coef: float, vf_coef: float):
    """The gradient of  -mean(adv log pi(a)) + vf_coef mean((v - ret)^2)/2
    - ent_coef mean(entropy), by hand; and the mean entropy."""
    n = len(x)
    z1, h, logp, v = forward(p, x, mask)
    legal = np.isfinite(logp)
    pr = np.where(legal, np.exp(logp), 0.0)
    lp0 = np.where(legal, logp, 0.0)
    ent = -(pr * lp0).sum(1)
    dlog = pr.copy()
    dlog[np.arange(n), a] -= 1.0
    dlog *= adv[:, None]
    dlog += ent_coef * pr * (lp0 + ent[:, None])  # d(-entropy)/dlogits
    dlog = (dlog / n).astype(np.float32)
    dv = (vf_coef * (v - ret) / n).astype(np.float32)[:, None]
    dh = dlog @ p["Wp"].T + dv @ p["Wv"].T
    dz1 = dh * (z1 > 0)
    g = {
        "W1": x.T @ dz1,
        "b1": dz1.sum(0),
        "Wp": h.T @ dlog,
        "bp": dlog.sum(0),
        "Wv": h.T @ dv,
        "bv": dv.sum(0),
    }
    return g, float(ent.mean())


class Adam:
    def __init__(self, params: dict, lr: float, b1=0.9, b2=0.999, eps=1e-8, clip=1.0):
        self.lr, self.b1, self.b2, self.eps, self.clip, self.t = lr, b1, b2, eps, clip, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict, g: dict):
        norm = math.sqrt(sum(float((x.astype(np.float64) ** 2).sum()) for x in g.values()))
        scale = min(1.0, self.clip / (norm + 1e-12))
        self.t += 1
        for k in params:
            gk = g[k] * scale
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * gk
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * gk * gk
            mh = self.m[k] / (1 - self.b1**self.t)
            vh = self.v[k] / (1 - self.b2**self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + self.eps)).astype(np.float32)
        return norm


# ------------------------------------------------------------------ training


def train(
    seed: int,
    updates: int,
    seat: int = 1,
    slots: int = 256,
    horizon: int = 16,
    hidden: int = 128,
    lr: float = 3e-3,
    lam: float = 0.95,
    ent_coef: float = 0.01,
    vf_coef: float = 0.5,
    threads: int = 2,
    minutes: float | None = None,
    log=None,
    log_every: int = 50,
    setup: str = SETUP,
    agents: str | None = None,
    start_from: dict | None = None,
):
    """A2C on ``slots`` games of seat ``seat`` for ``updates`` updates of
    ``slots * horizon`` decisions each, from ``start_from``'s weights if
    given. Returns ``(params, info)``."""
    env = BatchEnv(slots, setup=setup, opponents=agents, learners=[seat], threads=threads)
    if start_from is None:
        params = init_params(env.observation_len, env.action_count, hidden, seed)
    else:
        params = {k: v.copy() for k, v in start_from.items()}
    opt = Adam(params, lr)
    rng = np.random.default_rng([seed, 2])
    obs, mask, _ = env.reset(seed=TRAIN_BASE + seed * (1 << 20))
    L, A = env.observation_len, env.action_count
    Obs = np.empty((horizon, slots, L), np.float32)
    M = np.empty((horizon, slots, A), np.int8)
    Act = np.empty((horizon, slots), np.int64)
    V = np.empty((horizon + 1, slots), np.float32)
    R = np.empty((horizon, slots), np.float32)
    D = np.empty((horizon, slots), bool)
    start = time.monotonic()
    games = wins = 0
    window = [0, 0]
    done_updates, stopped_by = 0, "updates"
    for u in range(updates):
        if minutes is not None and time.monotonic() - start > minutes * 60:
            stopped_by = "minutes"
            break
        for t in range(horizon):
            _, _, logp, v = forward(params, obs, mask)
            a = sample(logp, rng)
            Obs[t], M[t], Act[t], V[t] = obs, mask, a, v
            obs, mask, _, reward, done = env.step(a)
            R[t] = reward[:, seat - 1]
            D[t] = done
            k, w = int(done.sum()), int((reward[done, seat - 1] > 0).sum())
            games, wins = games + k, wins + w
            window[0], window[1] = window[0] + k, window[1] + w
        V[horizon] = forward(params, obs, mask)[3]
        # GAE(λ), γ = 1: the reward comes at a game's end only.
        adv = np.empty((horizon, slots), np.float32)
        last = np.zeros(slots, np.float32)
        for t in reversed(range(horizon)):
            nxt = np.where(D[t], 0.0, V[t + 1])
            delta = R[t] + nxt - V[t]
            last = delta + lam * np.where(D[t], 0.0, last)
            adv[t] = last
        ret = (adv + V[:horizon]).reshape(-1)
        adv = adv.reshape(-1)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        g, ent = grads(params, Obs.reshape(-1, L), M.reshape(-1, A), Act.reshape(-1), adv, ret, ent_coef, vf_coef)
        opt.lr = lr * (1 - u / updates)  # linear decay to 0 over the budget
        opt.step(params, g)
        done_updates = u + 1
        if log is not None and (done_updates % log_every == 0 or done_updates == updates):
            rate = window[1] / max(window[0], 1)
            log(
                f"  update {done_updates:5d}/{updates}  games {games:9d}  "
                f"train win rate (last {window[0]} games) {rate:.4f}  entropy {ent:.3f}  "
                f"{time.monotonic() - start:6.1f}s"
            )
            window = [0, 0]
    info = {
        "updates": done_updates,
        "games": games,
        "decisions": done_updates * slots * horizon,
        "train_win_rate": wins / max(games, 1),
        "stopped_by": stopped_by,
        "seconds": time.monotonic() - start,
    }
    return params, info


# ---------------------------------------------------------------- evaluation


def evaluate(
    params: dict,
    games: int,
    seat: int = 1,
    slots: int = 1000,
    threads: int = 2,
    seed: int = 0,
    setup: str = SETUP,
    agents: str | None = None,
):
    """Plays the policy (sampled, from a fixed generator) in ``seat`` of the
    held-out games: slot ``i`` plays games ``0 .. games/slots - 1`` of master
    seed ``EVAL_BASE + i``. Returns ``{"seeds", "games", "win", "camp"}``,
    one row per game, ordered by (slot, game)."""
    slots = min(slots, games)
    per = -(-games // slots)
    env = BatchEnv(slots, setup=setup, opponents=agents, learners=[seat], threads=threads)
    rng = np.random.default_rng([seed, 3])
    obs, mask, _ = env.reset(seed=EVAL_BASE)
    count = np.zeros(slots, np.int64)
    win = np.zeros((slots, per), np.int8)
    camp = np.full((slots, per), -1, np.int8)
    camp_at = camp_offset(setup)  # the observation's "camp" block
    camp[:, 0] = obs[:, camp_at : camp_at + 3].argmax(1)
    while (count < per).any():
        a = sample(forward(params, obs, mask)[2], rng)
        obs, mask, _, reward, done = env.step(a)
        for i in np.flatnonzero(done):
            k = count[i]
            if k < per:
                win[i, k] = reward[i, seat - 1] > 0
                if k + 1 < per:
                    camp[i, k + 1] = obs[i, camp_at : camp_at + 3].argmax()
            count[i] += 1
    seeds = np.repeat(EVAL_BASE + np.arange(slots), per)
    idx = np.tile(np.arange(per), slots)
    return {"seeds": seeds[:games], "games": idx[:games], "win": win.reshape(-1)[:games], "camp": camp.reshape(-1)[:games]}


def camp_offset(setup: str) -> int:
    """Where the observation's "camp" block (town, mafia, bandits) starts."""
    blocks = {b["name"]: b for b in json.loads(Game(setup=setup, learners=[]).encoding_json())["blocks"]}
    assert blocks["camp"]["width"] == len(CAMPS), blocks["camp"]
    return blocks["camp"]["offset"]


def evaluate_default(seeds, games, seat: int = 1, setup: str = SETUP, agents: str | None = None):
    """The default strategy in ``seat`` of the same games: the lineup plays
    each whole game at reset (``Game(learners=[])``)."""
    g = Game(setup=setup, agents=agents, learners=[])
    win = np.zeros(len(seeds), np.int8)
    camp = np.zeros(len(seeds), np.int8)
    for j, (s, k) in enumerate(zip(seeds.tolist(), games.tolist(), strict=True)):
        g.reset(seed=s, game=k)
        win[j] = g.reward(seat) > 0
        camp[j] = CAMPS.index(g.camp(seat))
    return {"seeds": np.asarray(seeds), "games": np.asarray(games), "win": win, "camp": camp}


def wilson(k: int, n: int, z: float = 1.96):
    """Rate and its Wilson score interval."""
    if n == 0:
        return (float("nan"),) * 3
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)  # clamped: float rounding at k = 0 or n


def paired(a, b, z: float = 1.96):
    """Mean of the per-game differences a - b and its normal interval."""
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    m = float(d.mean())
    h = z * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return m, m - h, m + h


def rate_line(name: str, win, camp):
    win, camp = np.asarray(win), np.asarray(camp)
    parts = []
    p, lo, hi = wilson(int(win.sum()), len(win))
    parts.append(f"{name:<22} all   {p:.4f} [{lo:.4f}, {hi:.4f}]")
    for c in sorted(set(camp.tolist())):
        sel = camp == c
        p, lo, hi = wilson(int(win[sel].sum()), int(sel.sum()))
        parts.append(f"{CAMPS[c]} {p:.4f} [{lo:.4f}, {hi:.4f}]")
    return "   ".join(parts)


def pts(t):
    return f"{100 * t[0]:+.2f} points [{100 * t[1]:+.2f}, {100 * t[2]:+.2f}]"


# ---------------------------------------------------------------------- main


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (weights, training games, sampling); 0..1000")
    ap.add_argument("--setup", default=SETUP, help="a preset or a setup file (default classic)")
    ap.add_argument("--agents", default=None, help="the lineup of the other seats (default: the setup's)")
    ap.add_argument("--seat", type=int, default=1, help="the learning seat (from 1)")
    ap.add_argument("--updates", type=int, default=None, help="training updates (default 3400; --quick 300)")
    ap.add_argument("--minutes", type=float, default=9.0, help="wall-time guard on training (default 9)")
    ap.add_argument("--slots", type=int, default=None, help="games stepped together (default 256; --quick 128)")
    ap.add_argument("--horizon", type=int, default=16, help="decisions per slot per update")
    ap.add_argument("--hidden", type=int, default=128, help="hidden units")
    ap.add_argument("--lr", type=float, default=3e-3, help="Adam's step size, decayed linearly to 0")
    ap.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    ap.add_argument("--eval-games", type=int, default=None, help="evaluation games (default 20000; --quick 2000)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="learned-seat.npz", help="where the weights go (.npz)")
    ap.add_argument(
        "--load",
        default=None,
        help="start from these weights (an --out of an earlier run) instead of random ones: with --updates 0, "
        "measures a trained seat against another lineup",
    )
    ap.add_argument("--quick", action="store_true", help="a smoke run (under a minute)")
    a = ap.parse_args(argv)
    if not 0 <= a.seed <= 1000:
        ap.error("--seed: 0..1000 (the training seeds must stay clear of the evaluation seeds)")
    a.updates = a.updates if a.updates is not None else (300 if a.quick else 3400)
    if a.updates < 0:
        ap.error("--updates: 0 or more")
    a.slots = a.slots if a.slots is not None else (128 if a.quick else 256)
    a.eval_games = a.eval_games if a.eval_games is not None else (2000 if a.quick else 20000)
    return a


def run(a, out=print):
    """The whole example; returns a dict of every figure."""
    t0 = time.monotonic()
    g = Game(setup=a.setup, agents=a.agents, learners=[a.seat])
    out(f"command: {shlex.join(['python', *sys.argv])}")
    out(
        f"setup {a.setup}, seat {a.seat} against {a.agents or 'the default lineup'}; seed {a.seed}; "
        f"{a.updates} updates x {a.slots} games x {a.horizon} decisions; hidden {a.hidden}; lr {a.lr}; "
        f"entropy {a.entropy}; {a.threads} threads"
    )
    if a.load is None:
        params0 = init_params(g.observation_len, g.action_count, a.hidden, a.seed)
        start = "initial (random play)"
    else:
        params0 = load_params(a.load, g.observation_len, g.action_count)
        a.hidden = params0["W1"].shape[1]
        start = "loaded weights"
        out(f"loaded: {a.load} (hidden {a.hidden})")
    out("training ...")
    params, info = train(
        a.seed,
        a.updates,
        seat=a.seat,
        slots=a.slots,
        horizon=a.horizon,
        hidden=a.hidden,
        lr=a.lr,
        ent_coef=a.entropy,
        threads=a.threads,
        minutes=a.minutes,
        log=out,
        log_every=max(1, a.updates // 12),
        setup=a.setup,
        agents=a.agents,
        start_from=params0 if a.load is not None else None,
    )
    out(
        f"trained: {info['updates']} updates, {info['games']} games, {info['decisions']} decisions "
        f"in {info['seconds']:.1f}s (stopped by --{info['stopped_by']}"
        + ("; NOT reproducible: the budget was cut by the clock)" if info["stopped_by"] == "minutes" else ")")
    )
    t1 = time.monotonic()
    job = dict(seat=a.seat, threads=a.threads, seed=a.seed, setup=a.setup, agents=a.agents)
    before = evaluate(params0, a.eval_games, **job)
    after = evaluate(params, a.eval_games, **job)
    default = evaluate_default(after["seeds"], after["games"], seat=a.seat, setup=a.setup, agents=a.agents)
    for e in (before, after):
        assert (e["seeds"] == default["seeds"]).all() and (e["games"] == default["games"]).all()
        assert (e["camp"] == default["camp"]).all(), "the evaluation games are not the default's games"
    n = len(default["win"])
    slots = len(set(default["seeds"].tolist()))
    out(
        f"evaluation: {n} held-out games (master seeds {EVAL_BASE}..{EVAL_BASE + slots - 1}, "
        f"games 0..{n // slots - 1} of each), the same games for all three (paired; the deal of seat "
        f"{a.seat} checked equal); in {time.monotonic() - t1:.1f}s"
    )
    shares = np.bincount(default["camp"], minlength=3) / n
    out("seat's camp: " + ", ".join(f"{CAMPS[c]} {shares[c]:.4f}" for c in range(3) if shares[c] > 0))
    out("win rates, 95% Wilson intervals:")
    out("  " + rate_line(start, before["win"], before["camp"]))
    out("  " + rate_line("learned", after["win"], after["camp"]))
    out("  " + rate_line("default strategy", default["win"], default["camp"]))
    duel = paired(after["win"], default["win"])
    gain = paired(after["win"], before["win"])
    out("paired differences, per game, mean and 95% interval:")
    out(f"  duel, learned - default: {pts(duel)}")
    for c in sorted(set(default["camp"].tolist())):
        sel = default["camp"] == c
        out(f"    as {CAMPS[c]}: {pts(paired(after['win'][sel], default['win'][sel]))}  ({int(sel.sum())} games)")
    out(f"  learned - {'initial' if a.load is None else 'loaded'}:{' ' * (7 if a.load is None else 8)}{pts(gain)}")
    np.savez(
        a.out,
        **params,
        seed=a.seed,
        seat=a.seat,
        setup=a.setup,
        agents=a.agents or "",
        updates=info["updates"],
        hidden=a.hidden,
    )
    total = time.monotonic() - t0
    out(f"weights: {a.out}")
    out(f"time: {total:.1f}s in all ({info['seconds']:.1f}s training)")
    return {
        "params": params,
        "info": info,
        "before": before,
        "after": after,
        "default": default,
        "duel": duel,
        "gain": gain,
        "seconds": total,
    }


def main(argv=None):
    a = parse(argv)
    run(a, out=lambda s: print(s, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
