"""The in-process environments (issue 36): PettingZoo's API and seed tests,
Gymnasium's checker, a stepped game equal to the CLI's, bad input raising
and corrupting nothing, and the batched environment's reproducibility.
Needs the installed package (``pip install ./python[env]``)."""

import json
import subprocess
import unittest
import warnings

import numpy as np
from counting_agent import Counting
from gymnasium.utils.env_checker import check_env
from mafia_lab._native import Game
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test
from support import PYROOT, REPO, binary, binary_missing, child_env

import mafia_lab.env as menv
from mafia_lab import MafiaError
from mafia_lab.batch import BatchEnv
from mafia_lab.gym import MafiaGymEnv

PRESETS = ("classic", "classic-13", "extended", "forum-16")


def quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


class PettingZooApi(unittest.TestCase):
    def test_aec_api_on_every_preset(self):
        for setup in PRESETS:
            with self.subTest(setup=setup):
                quiet(api_test, menv.env(setup=setup), num_cycles=3000)
                quiet(api_test, menv.env(setup=setup, learners=[1, 4]), num_cycles=3000)

    def test_parallel_api_on_every_preset(self):
        for setup in PRESETS:
            with self.subTest(setup=setup):
                quiet(parallel_api_test, menv.parallel_env(setup=setup), num_cycles=3000)

    def test_seeds(self):
        for setup in ("classic", "extended"):
            quiet(seed_test, lambda s=setup: menv.env(setup=s), num_cycles=500)
            quiet(parallel_seed_test, lambda s=setup: menv.parallel_env(setup=s), num_cycles=500)

    def test_a_seed_replays_the_game_and_rewards_follow_the_winner(self):
        def play(seed):
            e = menv.env(setup="classic")
            e.reset(seed=seed)
            rng = np.random.default_rng(0)
            trace, finals = [], {}
            for agent in e.agent_iter():
                obs, reward, term, trunc, info = e.last()
                if term or trunc:
                    finals[agent] = reward
                    e.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                a = int(rng.choice(legal))
                trace.append((agent, a, obs["observation"].tobytes()))
                e.step(a)
            return trace, finals, e.game.winner, [e.game.camp(s) for s in e.seats]

        t1, f1, winner, camps = play(11)
        t2, f2, _, _ = play(11)
        self.assertEqual(t1, t2)
        self.assertEqual(f1, f2)
        self.assertEqual(set(f1), {f"player_{s}" for s in range(1, 11)})
        for s, camp in zip(range(1, 11), camps, strict=True):
            want = 0.0 if winner is None else (1.0 if camp == winner else -1.0)
            self.assertEqual(f1[f"player_{s}"], want)


class GymnasiumApi(unittest.TestCase):
    def test_check_env(self):
        for setup in PRESETS:
            with self.subTest(setup=setup):
                quiet(check_env, MafiaGymEnv(setup=setup, seat=1), skip_render_check=True)

    def test_one_seat_plays_whole_games_against_any_lineup(self):
        e = MafiaGymEnv(setup="classic", seat=4, opponents="random")
        obs, info = e.reset(seed=3)
        games, rewards = 0, []
        while games < 20:
            legal = info["action_mask"].nonzero()[0]
            self.assertGreater(len(legal), 0)
            self.assertTrue(e.observation_space.contains(obs))
            obs, r, term, trunc, info = e.step(int(legal[-1]))
            if term:
                rewards.append(r)
                games += 1
                obs, info = e.reset()
        self.assertTrue(set(rewards) <= {-1.0, 0.0, 1.0})
        self.assertIn(1.0, rewards)
        self.assertIn(-1.0, rewards)


class SteppedGameEqualsTheCli(unittest.TestCase):
    """A game played through the environment with an agent's answers is the
    CLI's game with the same agent in the same seat (event logs compared)."""

    def test_logs_equal(self):
        why = binary_missing("ext")
        if why:
            self.skipTest(why)
        agent = PYROOT / "tests" / "counting_agent.py"
        for setup, seat, seed in (("classic", 3, 5), ("extended", 7, 2), ("forum-16", 16, 9)):
            with self.subTest(setup=setup):
                g = Game(setup=setup, learners=[seat], seed=seed)
                g.reset(seed=seed, game=1)
                bot = Counting()
                bot.game, bot.seat = 1, seat
                while not g.done:
                    view = json.loads(g.view_json())
                    g.answer(json.dumps(bot.decide(view, view["request"])))
                ours = [json.loads(line) for line in g.events_json().splitlines()]
                cmd = [str(binary()), "replay", "--setup", setup, "--seed", str(seed), "--game", "1", "--json",
                       "--agents", f"seat{seat}=ext:python3 {agent}"]  # fmt: skip
                r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=child_env(), timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                cli = [json.loads(line) for line in r.stdout.splitlines()][1:]
                self.assertEqual(ours, cli)


class BadInput(unittest.TestCase):
    def test_an_action_outside_the_mask_raises_and_changes_nothing(self):
        g = Game(setup="classic", learners=[2], seed=1)
        g.reset(seed=1)
        while (g.mask() == 1).all():  # a post allows every action: on to a vote
            g.act(0)
        mask, obs, events = g.mask(), g.observe(), g.events_json()
        bad = int(np.flatnonzero(mask == 0)[0])
        for action in (bad, -1, g.action_count, 10**12):
            with self.assertRaises(MafiaError) as cm:
                g.act(action)
            self.assertEqual(cm.exception.exit_code, 2)
            self.assertIn("not legal", str(cm.exception))
        self.assertTrue((g.mask() == mask).all())
        self.assertTrue((g.observe() == obs).all())
        self.assertEqual(g.events_json(), events)
        g.act(int(np.flatnonzero(mask)[0]))  # and a legal one goes on

    def test_a_finished_game_stepped_again_raises(self):
        g = Game(setup="classic", learners=[1], seed=1)
        g.reset(seed=1)
        while not g.done:
            g.act(int(np.flatnonzero(g.mask())[0]))
        with self.assertRaises(MafiaError) as cm:
            g.act(0)
        self.assertIn("over", str(cm.exception))
        with self.assertRaises(MafiaError):
            g.answer('{"decision": "ready"}')

    def test_a_garbled_or_illegal_answer_raises(self):
        g = Game(setup="classic", learners=[1], seed=1)
        g.reset(seed=1)
        with self.assertRaises(MafiaError):
            g.answer("{not json")
        with self.assertRaises(MafiaError):
            g.answer('{"decision": "vote", "vote": 1}')  # a post is asked

    def test_bad_setups_and_arguments_name_the_problem(self):
        cases = [
            (dict(setup="no-such-preset"), "no such preset"),
            (dict(setup="classic", agents="nonsense-strategy"), "nonsense-strategy"),
            (dict(setup="classic", learners=[0]), "seat 0"),
            (dict(setup="classic", learners=[11]), "seat 11"),
            (dict(setup="classic", rules=["no_such_rule=1"]), "no_such_rule"),
        ]
        for kwargs, needle in cases:
            with self.subTest(**kwargs), self.assertRaises(MafiaError) as cm:
                Game(**kwargs)
            self.assertIn(needle, str(cm.exception))
            self.assertEqual(cm.exception.exit_code, 2)

    def test_learners_never_asked_raise_instead_of_hanging(self):
        b = BatchEnv(2, setup="classic", learners=[1], rules=["absence=1"], threads=1)
        with self.assertRaises(MafiaError) as cm:
            b.reset(seed=1)
        self.assertIn("asked nothing", str(cm.exception))
        with self.assertRaises(MafiaError):
            MafiaGymEnv(setup="classic", seat=1, rules=["absence=1"]).reset(seed=1)

    def test_the_clis_notes_are_warnings_not_prints(self):
        with self.assertWarns(UserWarning) as cm:
            Game(setup="forum-16")
        self.assertIn("auto", str(cm.warning))

    def test_a_malformed_setup_file_names_its_line(self):
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write('name = "x"\n[roles]\ncitizen = "many"\n')
        with self.assertRaises(MafiaError) as cm:
            Game(setup=f.name)
        self.assertIn(f"{f.name}:3:", str(cm.exception))

    def test_the_batch_refuses_wrong_sizes_and_illegal_actions_and_steps_nothing(self):
        b = BatchEnv(4, setup="classic", threads=2)
        obs, mask, seat = b.reset(seed=1)
        fresh = BatchEnv(4, setup="classic", threads=1)
        fresh.reset(seed=1)
        while (mask[2] == 1).all():  # a post allows every action: on to a vote
            acts = mask.argmax(1)
            obs, mask, seat, _, _ = b.step(acts)
            fresh.step(acts)
        with self.assertRaises(MafiaError):
            b.step(np.zeros(3, np.int64))
        bad = mask.argmax(1)
        bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
        with self.assertRaises(MafiaError) as cm:
            b.step(bad)
        self.assertIn("actions[2]", str(cm.exception))
        # Nothing was stepped: the same legal actions give what a twin batch gives.
        good = mask.argmax(1)
        for x, y in zip(b.step(good), fresh.step(good), strict=True):
            self.assertTrue((x == y).all())
        with self.assertRaises(MafiaError):
            BatchEnv(0)
        with self.assertRaises(MafiaError):
            b.reset(seed=[1, 2])


class Batched(unittest.TestCase):
    def test_a_batch_is_used_from_the_thread_that_made_it(self):
        import threading

        b = BatchEnv(2, setup="classic", threads=2)
        caught = []

        def elsewhere():
            try:
                b.reset(seed=1)
            except MafiaError as e:
                caught.append(str(e))

        t = threading.Thread(target=elsewhere)
        t.start()
        t.join()
        self.assertEqual(len(caught), 1)
        self.assertIn("thread that made it", caught[0])
        obs, mask, seat = b.reset(seed=1)  # and from its own thread it plays
        self.assertEqual(len(seat), 2)

    def trajectories(self, n, threads, slots, steps=400):
        b = BatchEnv(n, setup="classic", threads=threads)
        obs, mask, seat = b.reset(seed=[100 + i for i in range(n)])
        out = {i: [] for i in slots}
        for t in range(steps):
            # A fixed policy of the observation: the same per slot whatever n.
            score = (obs[:, :13] * 7 + np.arange(mask.shape[1]) * 3 + t) % 11
            actions = np.where(mask == 1, score + 1, 0).argmax(1)
            obs, mask, seat, reward, done = b.step(actions)
            for i in slots:
                out[i].append((obs[i].tobytes(), mask[i].tobytes(), int(seat[i]), reward[i].tobytes(), bool(done[i])))
        return out

    def test_the_same_seeds_give_the_same_trajectories_whatever_n_and_threads(self):
        a = self.trajectories(3, 1, [0, 1, 2])
        b = self.trajectories(8, 2, [0, 1, 2])
        c = self.trajectories(5, 3, [0, 1, 2])
        self.assertEqual(a, b)
        self.assertEqual(a, c)
        ended = sum(step[4] for step in a[0])
        self.assertGreater(ended, 1, "games ended and slots reset on their own")

    def test_rewards_are_the_learners_and_games_reset(self):
        b = BatchEnv(16, setup="extended", learners=[2, 5], threads=2)
        obs, mask, seat = b.reset(seed=7)
        self.assertTrue(set(seat.tolist()) <= {2, 5})
        finished = 0
        rng = np.random.default_rng(0)
        while finished < 30:
            obs, mask, seat, reward, done = b.step((mask * rng.random(mask.shape)).argmax(1))
            self.assertTrue((mask.sum(1) > 0).all(), "every slot has a pending part")
            for i in np.flatnonzero(done):
                nz = set(np.flatnonzero(reward[i]).tolist())
                self.assertTrue(nz <= {1, 4})
                finished += 1
            self.assertFalse(reward[~done].any())


if __name__ == "__main__":
    unittest.main()
