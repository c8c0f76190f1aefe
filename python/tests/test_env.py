"""The PettingZoo environment: against a fake host (no binary) and against
the real `mafia host` (skipped, with the reason, while the binary lacks it).
Skipped as a whole, with the reason printed, if pettingzoo/numpy are missing."""

import os
import unittest
import warnings

from .support import PYROOT, binary, binary_missing

try:
    import numpy as np
    from pettingzoo.test import api_test, seed_test

    import mafia_lab.env as menv

    MISSING = None
except ImportError as e:  # pragma: no cover
    MISSING = f"pettingzoo/gymnasium/numpy are not importable ({e}): pip install './python[env]'"

FAKE = PYROOT / "tests" / "fake_host.py"


def skip_without_env(cls):
    if MISSING:
        print(f"\nskipped {cls.__name__}: {MISSING}")
        return unittest.skip(MISSING)(cls)
    return cls


def play(e, seed, pick=None, options=None):
    """Plays one game with masked actions (``pick(mask, rng)``; default uniform); returns the trace."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed, options=options)
    trace, finals = [], {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            finals[agent] = reward
            e.step(None)
            continue
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal), (agent, obs)
        a = int(pick(mask, rng) if pick else rng.choice(legal))
        trace.append((agent, obs["observation"].tobytes(), mask.tobytes(), a))
        e.step(a)
    return trace, finals


def quiet_api_test(e, cycles):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the api test's style advice (dict observations, …)
        api_test(e, num_cycles=cycles, verbose_progress=False)


@skip_without_env
class FakeHost(unittest.TestCase):
    def make(self, **kw):
        e = menv.env(binary=str(FAKE), players=10, timeout=20, **kw)
        self.addCleanup(e.close)
        return e

    def test_api(self):
        quiet_api_test(self.make(), 20)
        quiet_api_test(self.make(learners=[3, 5]), 20)

    def test_seed(self):
        seed_test(lambda: self.make(), num_cycles=20)

    def test_rewards_and_infos(self):
        e = self.make()
        _, finals = play(e, 4)  # even seed: the town wins
        self.assertEqual(finals["player_3"], 1)
        self.assertEqual(finals["player_5"], -1)
        _, finals = play(e, 5)
        self.assertEqual((finals["player_3"], finals["player_5"]), (-1, 1))
        self.assertEqual(len(finals), 10)

    def test_mask_and_observation_shape(self):
        e = self.make(learners=[3])
        e.reset(seed=0)
        obs, *_ = e.last()
        self.assertEqual(obs["observation"].shape, (e.obs_size,))
        self.assertEqual(obs["action_mask"].dtype, np.int8)
        names = e.feature_names()
        self.assertEqual(len(names), e.obs_size)
        x = dict(zip(names, obs["observation"], strict=True))
        # the first request is the golden game's first post: the Don's (put in seat 3)
        self.assertEqual((x["seat_3"], x["role_don"], x["camp_mafia"], x["decision_post"]), (1, 1, 1, 1))
        # a post: silent, accuse anyone, claim with checks, claim the Commissar
        self.assertEqual(obs["action_mask"].tolist(), [1] * 13)

    def test_bad_arguments_and_close(self):
        with self.assertRaises(ValueError):
            menv.env(binary=str(FAKE), players=10, learners=[11])
        e = self.make()
        e.reset(seed=1)
        e.step(0)
        e.reset(seed=2)  # mid-game: the game in progress is finished first
        p = e._host.proc
        e.close()
        self.assertIsNotNone(p.poll())

    def test_binary_lookup(self):
        old = os.environ.get("MAFIA_BIN")
        os.environ["MAFIA_BIN"] = "/some/where/mafia"
        try:
            self.assertEqual(menv.find_binary(), "/some/where/mafia")
            self.assertEqual(menv.find_binary("/x/mafia"), "/x/mafia")
        finally:
            if old is None:
                del os.environ["MAFIA_BIN"]
            else:
                os.environ["MAFIA_BIN"] = old


@skip_without_env
class RealHost(unittest.TestCase):
    def setUp(self):
        why = binary_missing("host")
        if why:
            print(f"\nskipped: {why}")
            self.skipTest(why)

    def make(self, **kw):
        e = menv.env(binary=str(binary()), **kw)
        self.addCleanup(e.close)
        return e

    def test_api_every_seat(self):
        quiet_api_test(self.make(), 300)

    def test_api_some_seats_against_forum(self):
        quiet_api_test(self.make(learners=[2, 7], opponents="forum"), 300)

    def test_seed(self):
        seed_test(lambda: self.make(), num_cycles=300)
        seed_test(lambda: self.make(learners=[1, 4, 9]), num_cycles=300)

    def test_same_seed_same_game(self):
        e = self.make(learners=[1, 4, 9])
        a, fa = play(e, 11)
        b, fb = play(e, 11)
        self.assertEqual((a, fa), (b, fb))
        c, _ = play(e, 12)
        self.assertNotEqual(a, c)
        # another game index of the same seed is another game
        d, _ = play(e, 11, options={"game": 3})
        self.assertNotEqual(a, d)

    def test_rewards_follow_the_camps(self):
        e = self.make()
        for seed in range(20):
            _, finals = play(e, seed)
            ending = e.ending
            self.assertEqual(len(finals), 10)
            for agent, r in finals.items():
                seat = int(agent.split("_")[1])
                camp = menv.V.ROLE_CAMP[ending["roles"][seat - 1]]
                want = 0 if ending["winner"] is None else (1 if camp == ending["winner"] else -1)
                self.assertEqual(r, want, (seed, agent, ending))

    def test_extended_setups(self):
        """Every decision kind of the extended roles is answered legally (the env checks each answer)."""
        for setup in ("extended", "forum-16"):
            e = self.make(setup=setup)
            self.assertEqual(e.n, 20 if setup == "extended" else 16)
            kinds = set()
            for seed in range(15):
                trace, finals = play(e, seed)
                self.assertEqual(len(finals), e.n)
                for _, obs, _, _ in trace:
                    x = np.frombuffer(obs, np.float32)
                    off = e.feature_names().index("decision_post")
                    kinds.add(menv.KINDS[int(np.argmax(x[off : off + len(menv.KINDS)]))])
            self.assertLessEqual({"vote", "night_move", "night_kill", "post"}, kinds, setup)

    def test_external_opponents(self):
        """Opponents may themselves be external agents (`mafia host --agents ext:…`)."""
        rnd = PYROOT / "examples" / "random_agent.py"
        e = self.make(learners=[1], opponents=f"ext:{rnd}", host_args=["--ext-procs", "1"])
        for seed in range(3):
            _, finals = play(e, seed)
            self.assertEqual(set(finals), {"player_1"})

    def test_render_ansi(self):
        e = self.make(render_mode="ansi", learners=[3])
        e.reset(seed=3)
        self.assertIn("You are P3", e.render())
        self.assertIsNone(self.make(learners=[3]).render())

    def test_a_policy_reading_the_observation(self):
        """Claims with checks go through: the Commissar's found mafioso shows in everyone's observation."""
        e = self.make()
        names = e.feature_names()
        idx = {n: i for i, n in enumerate(names)}

        def claim_then_random(mask, rng):  # in speech (where A_ALT is offered), claim with one's checks
            return e.A_YES if mask[e.A_ALT] else rng.choice(np.flatnonzero(mask))

        seen = 0
        for seed in range(10):
            trace, _ = play(e, seed, pick=claim_then_random)
            for _, obs, _, _ in trace:
                x = np.frombuffer(obs, np.float32)
                seen += int(any(x[idx[f"claim_{s}_commissar"]] for s in range(1, 11)))
        self.assertGreater(seen, 0)


if __name__ == "__main__":
    unittest.main()
