"""The learning example (python/examples/learn.py) on tiny budgets: it
reproduces from its seed, its intervals hold their estimates, and the
learned, initial and default seats are measured on the same games."""

import importlib.util
import math
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from support import EXAMPLES, REPO

try:
    import numpy as np

    from mafia_lab.batch import BatchEnv  # noqa: F401  (is the native batch there?)
except ImportError as e:  # pragma: no cover
    np = None
    WHY = f"needs numpy and mafia_lab._native ({e})"
else:
    WHY = None


def load():
    spec = importlib.util.spec_from_file_location("learn_example", EXAMPLES / "learn.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TINY = dict(slots=32, horizon=8, hidden=16, threads=2)


@unittest.skipIf(WHY, WHY)
class Learn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.L = load()

    def test_training_reproduces_from_its_seed(self):
        a, ia = self.L.train(3, 6, **TINY)
        b, ib = self.L.train(3, 6, **TINY)
        c, _ = self.L.train(4, 6, **TINY)
        self.assertEqual(sorted(a), ["W1", "Wp", "Wv", "b1", "bp", "bv"])
        for k in a:
            np.testing.assert_array_equal(a[k], b[k], err_msg=k)
        self.assertEqual(
            (ia["games"], ia["decisions"], ia["train_win_rate"]), (ib["games"], ib["decisions"], ib["train_win_rate"])
        )
        self.assertEqual(ia["stopped_by"], "updates")
        self.assertFalse(all(np.array_equal(a[k], c[k]) for k in a), "another seed trained the same weights")
        # it did learn something: the policy head left its zero start
        self.assertGreater(float(np.abs(a["Wp"]).sum()), 0.0)

    def test_the_initial_policy_is_uniform_over_the_legal_actions(self):
        p = self.L.init_params(730, 13, 16, 0)
        x = np.random.default_rng(0).random((5, 730), dtype=np.float32)
        mask = np.zeros((5, 13), np.int8)
        mask[:, [0, 3, 7]] = 1
        logp = self.L.forward(p, x, mask)[2]
        np.testing.assert_allclose(np.exp(logp[:, [0, 3, 7]]), 1 / 3, rtol=1e-6)
        self.assertTrue(np.isneginf(logp[:, [1, 2, 4]]).all())
        a = self.L.sample(logp, np.random.default_rng(1))
        self.assertTrue(set(a.tolist()) <= {0, 3, 7})

    def test_hand_backprop_matches_finite_differences(self):
        rng = np.random.default_rng(5)
        p = self.L.init_params(12, 5, 6, 0)
        for k in ("Wp", "bp", "Wv"):
            p[k] = (rng.standard_normal(p[k].shape) * 0.5).astype(np.float32)
        p = {k: v.astype(np.float64) for k, v in p.items()}
        x = rng.random((7, 12))
        mask = (rng.random((7, 5)) < 0.6).astype(np.int8)
        mask[:, 0] = 1
        a = np.array([int(rng.choice(np.flatnonzero(m))) for m in mask])
        adv, ret = rng.standard_normal(7), rng.standard_normal(7)

        def loss(q):
            _, _, logp, v = self.L.forward(q, x, mask)
            pr = np.where(np.isfinite(logp), np.exp(logp), 0.0)
            ent = -(pr * np.where(np.isfinite(logp), logp, 0.0)).sum(1)
            return -(adv * logp[np.arange(7), a]).mean() + 0.5 * 0.5 * ((v - ret) ** 2).mean() - 0.01 * ent.mean()

        g, _ = self.L.grads(p, x, mask, a, adv, ret, 0.01, 0.5)
        for k in p:
            i = np.unravel_index(int(np.argmax(np.abs(g[k]))), g[k].shape)
            q1 = {kk: vv.copy() for kk, vv in p.items()}
            q2 = {kk: vv.copy() for kk, vv in p.items()}
            q1[k][i] += 1e-6
            q2[k][i] -= 1e-6
            self.assertAlmostEqual(float(g[k][i]), (loss(q1) - loss(q2)) / 2e-6, places=4, msg=k)

    def test_intervals_contain_their_estimates(self):
        for k, n in ((0, 10), (3, 10), (10, 10), (4567, 20000), (1, 1)):
            p, lo, hi = self.L.wilson(k, n)
            self.assertTrue(0.0 <= lo <= p <= hi <= 1.0, (k, n, lo, p, hi))
        rng = np.random.default_rng(2)
        a, b = rng.random(500) < 0.5, rng.random(500) < 0.45
        m, lo, hi = self.L.paired(a, b)
        self.assertTrue(lo <= m <= hi)
        self.assertAlmostEqual(m, a.mean() - b.mean())
        self.assertAlmostEqual(hi - m, 1.96 * np.std(a.astype(float) - b, ddof=1) / math.sqrt(500))

    def test_quick_run_is_paired_and_reproducible(self):
        with tempfile.TemporaryDirectory() as d:
            lines = []
            args = ["--quick", "--updates", "8", "--eval-games", "300", "--seed", "7"]
            r1 = self.L.run(self.L.parse([*args, "--out", str(Path(d) / "a.npz")]), out=lines.append)
            r2 = self.L.run(self.L.parse([*args, "--out", str(Path(d) / "b.npz")]), out=lambda s: None)
            a, b = np.load(Path(d) / "a.npz"), np.load(Path(d) / "b.npz")
            for k in ("W1", "b1", "Wp", "bp", "Wv", "bv"):
                np.testing.assert_array_equal(a[k], b[k], err_msg=k)
            self.assertEqual(int(a["updates"]), 8)
        for part in ("before", "after", "default"):
            for col in ("seeds", "games", "win", "camp"):
                np.testing.assert_array_equal(r1[part][col], r2[part][col], err_msg=f"{part}.{col}")
        self.assertEqual((r1["duel"], r1["gain"]), (r2["duel"], r2["gain"]))
        # paired: the same number of games, the same (seed, game) pairs, the same deal
        before, after, default = r1["before"], r1["after"], r1["default"]
        self.assertEqual(len(before["win"]), 300)
        self.assertEqual(len(after["win"]), 300)
        self.assertEqual(len(default["win"]), 300)
        pairs = list(zip(default["seeds"].tolist(), default["games"].tolist(), strict=True))
        self.assertEqual(len(set(pairs)), 300)
        for e in (before, after):
            np.testing.assert_array_equal(e["seeds"], default["seeds"])
            np.testing.assert_array_equal(e["games"], default["games"])
            np.testing.assert_array_equal(e["camp"], default["camp"])
        # held out: evaluation seeds are not training seeds
        self.assertTrue((default["seeds"] >= self.L.EVAL_BASE).all() and (default["seeds"] < self.L.TRAIN_BASE).all())
        for part in (before, after, default):
            p, lo, hi = self.L.wilson(int(part["win"].sum()), len(part["win"]))
            self.assertTrue(lo <= p <= hi)
        for m, lo, hi in (r1["duel"], r1["gain"]):
            self.assertTrue(lo <= m <= hi)
        self.assertAlmostEqual(r1["duel"][0], after["win"].mean() - default["win"].mean())
        # the default seat's games are what Game(learners=[]) says, one by one
        g = self.L.Game(setup="classic", learners=[])
        for j in (0, 1, 150, 299):
            g.reset(seed=int(default["seeds"][j]), game=int(default["games"][j]))
            self.assertEqual(int(default["win"][j]), int(g.reward(1) > 0))
        text = "\n".join(lines)
        for want in ("command:", "duel, learned - default:", "initial (random play)", "seat's camp: town", "time:"):
            self.assertIn(want, text)

    def test_loaded_weights_measure_the_same_seat_again(self):
        # --load with --updates 0: the trained seat measured again on the same
        # held-out games plays exactly as it did; a file of another shape is refused.
        with tempfile.TemporaryDirectory() as d:
            w = str(Path(d) / "w.npz")
            args = ["--quick", "--updates", "4", "--eval-games", "200", "--seed", "5", "--hidden", "16"]
            r1 = self.L.run(self.L.parse([*args, "--out", w]), out=lambda s: None)
            lines = []
            same = ["--quick", "--updates", "0", "--eval-games", "200", "--seed", "5"]
            again = [*same, "--load", w, "--out", str(Path(d) / "x.npz")]
            r2 = self.L.run(self.L.parse(again), out=lines.append)
            np.testing.assert_array_equal(r1["after"]["win"], r2["after"]["win"])
            np.testing.assert_array_equal(r2["before"]["win"], r2["after"]["win"])
            self.assertEqual(r2["gain"][0], 0.0)
            self.assertIn("loaded weights", "\n".join(lines))
            bad = Path(d) / "bad.npz"
            np.savez(bad, W1=np.zeros((3, 16), np.float32))
            with self.assertRaises(SystemExit) as e:
                self.L.run(self.L.parse([*again[:-2], "--load", str(bad), "--out", str(Path(d) / "y.npz")]))
            self.assertIn("not a learn.py weights file", str(e.exception))

    def test_quick_mode_from_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "w.npz"
            r = subprocess.run(
                [sys.executable, str(EXAMPLES / "learn.py"), "--quick", "--out", str(out)],
                capture_output=True,
                text=True,
                cwd=REPO,
                timeout=120,
            )
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("stopped by --updates", r.stdout)
            self.assertIn("2000 held-out games", r.stdout)
            self.assertEqual(np.load(out)["W1"].shape, (730, 128))


if __name__ == "__main__":
    unittest.main()
