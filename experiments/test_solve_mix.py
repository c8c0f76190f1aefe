"""Unit tests of solve_mix.py's game solvers (no binary needed):
`python3 -m unittest discover -s experiments`."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import solve_mix as sm  # noqa: E402


class GeneralSum(unittest.TestCase):
    def test_matching_pennies_has_the_even_mix(self):
        x, y, v = sm.solve_general([[1, 0], [0, 1]], [[0, 1], [1, 0]])
        self.assertAlmostEqual(x[0], 0.5)
        self.assertAlmostEqual(y[0], 0.5)
        self.assertAlmostEqual(v, 0.5)

    def test_a_dominant_row_and_column_are_played_pure(self):
        # The prisoners' dilemma: both defect (row 1, column 1).
        x, y, v = sm.solve_general([[3, 0], [5, 1]], [[3, 5], [0, 1]])
        self.assertEqual((x, y, v), ([0.0, 1.0], [0.0, 1.0], 1.0))

    def test_of_several_equilibria_the_smallest_support_then_the_towns_best(self):
        # Battle of the sexes: two pure equilibria and a mixed one.
        x, y, v = sm.solve_general([[2, 0], [0, 1]], [[1, 0], [0, 2]])
        self.assertEqual((x, y, v), ([1.0, 0.0], [1.0, 0.0], 2.0))

    def test_a_third_camp_makes_the_mafia_play_for_their_own_rate(self):
        # The town's rate is the same whatever the mafia do; the mafia's own
        # rate (what they take from the bandits) decides their play, where
        # a zero-sum solve on the town's rate would be indifferent.
        town = [[0.4, 0.4], [0.3, 0.3]]
        mafia = [[0.3, 0.5], [0.4, 0.6]]
        x, y, v = sm.solve_general(town, mafia)
        self.assertEqual(x, [1.0, 0.0])
        self.assertEqual(y, [0.0, 1.0])
        self.assertAlmostEqual(v, 0.4)

    def test_rock_paper_scissors_agrees_with_the_zero_sum_solver(self):
        a = [[0.5, 0, 1], [1, 0.5, 0], [0, 1, 0.5]]
        x, y, v = sm.solve_general(a, [[1 - c for c in r] for r in a])
        zx, zy, zv = sm.solve(a)
        for p, q in zip(x + y, zx + zy):
            self.assertAlmostEqual(p, 1 / 3, places=6)
            self.assertAlmostEqual(q, 1 / 3, places=2)
        self.assertAlmostEqual(v, zv, places=3)

    def test_a_large_game_is_solved_to_an_equilibrium(self):
        # 17 x 14 cells of noisy rates: where support enumeration stalled.
        import random
        rng = random.Random(7)
        a = [[rng.random() for _ in range(14)] for _ in range(17)]
        b = [[rng.random() for _ in range(14)] for _ in range(17)]
        x, y, v = sm.solve_general(a, b)
        town = [sum(a[i][j] * y[j] for j in range(14)) for i in range(17)]
        maf = [sum(b[i][j] * x[i] for i in range(17)) for j in range(14)]
        self.assertAlmostEqual(sum(x), 1.0)
        self.assertAlmostEqual(sum(y), 1.0)
        self.assertLessEqual(max(town), v + 1e-9)
        self.assertLessEqual(max(maf), sum(y[j] * maf[j] for j in range(14)) + 1e-9)
        self.assertAlmostEqual(v, sum(x[i] * town[i] for i in range(17)))

    def test_a_degenerate_game_with_equal_rows_does_not_cycle(self):
        # Two settings that play alike give equal rows and columns.
        a = [[0.5, 0.5, 1], [0.5, 0.5, 1], [0, 0, 0.5]]
        b = [[1 - c for c in r] for r in a]
        x, y, v = sm.solve_general(a, b)
        self.assertAlmostEqual(v, 0.5)
        self.assertAlmostEqual(x[2], 0.0)
        self.assertAlmostEqual(y[2], 0.0)


class Specs(unittest.TestCase):
    def test_a_mix_spec_gives_each_camp_shares_that_sum_to_one(self):
        spec = sm.mix_spec("forum", [(0.25, {}), (0.75, {"pass_first": "1"})], [(1.0, {"blend": "1"})])
        self.assertEqual(spec, "forum,town@0.25=forum,town@0.75=forum:pass_first=1,mafia@1=forum:blend=1")

    def test_an_adaptive_setting_carries_its_reply_into_the_mix_and_the_pure_spec(self):
        row = {"setting": "x", "base_setting": "fake=0 blend=1", "signal": "claims>0", "then": "preempt=1 trust=0"}
        p = sm.parse_reply(row)
        self.assertEqual(p, {"fake": "0", "blend": "1", "?signal": "claims>0", "?then": "preempt=1:trust=0"})
        spec = sm.mix_spec("forum", [(1.0, {})], [(0.5, {"blend": "1"}), (0.5, p)])
        self.assertEqual(spec, "forum,town@1=forum,mafia@0.5=forum:blend=1,"
                               "mafia@0.5=forum:blend=1:fake=0,mafia@?claims>0=forum:preempt=1:trust=0")
        self.assertEqual(sm.pure_spec("forum", {}, p),
                         "forum,town=forum,mafia=forum:blend=1:fake=0,mafia?claims>0=forum:preempt=1:trust=0")
        # A fixed reply (no signal) and one over the usual layers.
        self.assertEqual(sm.parse_reply({"setting": "fake=1", "signal": ""}), {"fake": "1"})
        row = {"setting": "x", "base_setting": "(usual layers)", "signal": "passes>2", "then": "kill=order"}
        self.assertEqual(sm.parse_reply(row), {"?signal": "passes>2", "?then": "kill=order"})

    def test_a_mix_spec_is_read_back_as_settings_with_their_replies(self):
        spec = ("forum,town@0.25=forum,town@0.75=forum:pass_first=1,town@?passes>0=forum:on=day2:mix=0,"
                "mafia@1=forum:blend=1,bandits@1=forum:trust=0")
        town, mafia = sm.parse_mix(spec)
        self.assertEqual(town, [{}, {"pass_first": "1", "?signal": "passes>0", "?then": "on=day2:mix=0"}])
        self.assertEqual(mafia, [{"blend": "1"}])
        # What it reads back, mixed again, is the spec's own mix (the bandits left to the base).
        again = sm.mix_spec("forum", [(0.25, town[0]), (0.75, town[1])], [(1.0, mafia[0])])
        self.assertEqual(again, spec.rsplit(",", 1)[0])

    def test_a_reply_over_the_mix_joins_over_each_large_setting(self):
        p = {"?signal": "claims>0", "?then": "kill=hunt:fake=0"}
        mix = [(0.02, {"blend": "1"}), (0.6, {"mimic": "true", "?signal": "passes>0", "?then": "preempt=1"}),
               (0.38, {})]
        self.assertEqual(sm.over_the_mix(p, mix), [
            {"mimic": "true", "?signal": "claims>0", "?then": "kill=hunt:fake=0"},
            {"?signal": "claims>0", "?then": "kill=hunt:fake=0"},
        ])


class Cells(unittest.TestCase):
    def test_a_kept_cell_is_read_back_without_playing(self):
        import tempfile
        import types
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cells.jsonl")
            key = "classic|1000|7|forum,town=forum,mafia=forum"
            with open(path, "w") as f:
                f.write('{"key": "%s", "rates": [0.25, 0.75]}\n' % key)
            cache = sm.load_cells(path)
            # No binary: a missed cell would fail to run it.
            args = types.SimpleNamespace(setup="classic", games=1000, seed=7, cells=path,
                                         mafia=os.path.join(tmp, "missing"), threads=1)
            self.assertEqual(sm.rates(args, "forum,town=forum,mafia=forum", tmp, cache), (0.25, 0.75))
            self.assertEqual(sm.load_cells(os.path.join(tmp, "none.jsonl")), {})


if __name__ == "__main__":
    unittest.main()
