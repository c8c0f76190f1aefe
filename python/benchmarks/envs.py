"""The environments' speed, random legal actions (issue 36's figures).

    python python/benchmarks/envs.py aec            # PettingZoo AEC, one env: steps/s
    python python/benchmarks/envs.py gym            # Gymnasium, one seat vs the defaults: games/s
    python python/benchmarks/envs.py batch          # BatchEnv, every seat learning, 2 threads: decisions/s
    python python/benchmarks/envs.py all --seconds 10

Each prints one line: what, the figure, the count and the time. A
benchmark, not a test: nothing asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def aec(setup: str, seconds: float) -> str:
    import mafia_lab.env as menv

    e = menv.env(setup=setup)
    rng = random.Random(1)
    steps = games = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
            else:
                legal = obs["action_mask"].nonzero()[0]
                e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
    dt = time.perf_counter() - t0
    return f"aec {setup} every seat: {steps / dt:,.0f} steps/s ({steps} steps, {games} games, {dt:.1f} s)"


def gym(setup: str, seconds: float) -> str:
    from mafia_lab.gym import MafiaGymEnv

    e = MafiaGymEnv(setup=setup, seat=1)
    rng = random.Random(1)
    games = steps = 0
    t0 = time.perf_counter()
    obs, info = e.reset(seed=1)
    while time.perf_counter() - t0 < seconds:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, term, trunc, info = e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if term:
            games += 1
            obs, info = e.reset()
    dt = time.perf_counter() - t0
    return (
        f"gym {setup} one seat vs the defaults: {games / dt:,.0f} games/s "
        f"({steps / dt:,.0f} steps/s, {games} games, {dt:.1f} s)"
    )


def batch(setup: str, seconds: float, n: int, threads: int) -> str:
    from mafia_lab.batch import BatchEnv

    e = BatchEnv(n, setup=setup, threads=threads)
    rng = np.random.default_rng(1)
    obs, mask, seat = e.reset(seed=1)
    steps = ended = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actions = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(1)
        obs, mask, seat, reward, done = e.step(actions)
        steps += 1
        ended += int(done.sum())
    dt = time.perf_counter() - t0
    return (
        f"batch {setup} n={n} threads={e.threads} every seat: {steps * n / dt:,.0f} decisions/s "
        f"({steps} steps, {ended} games ended, {dt:.1f} s)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("which", choices=["aec", "gym", "batch", "all"])
    p.add_argument("--setup", default="classic")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--n", type=int, default=512, help="batch: games per step")
    p.add_argument("--threads", type=int, default=2, help="batch: threads")
    a = p.parse_args()
    if a.which in ("aec", "all"):
        print(aec(a.setup, a.seconds), flush=True)
    if a.which in ("gym", "all"):
        print(gym(a.setup, a.seconds), flush=True)
    if a.which in ("batch", "all"):
        print(batch(a.setup, a.seconds, a.n, a.threads), flush=True)


if __name__ == "__main__":
    main()
