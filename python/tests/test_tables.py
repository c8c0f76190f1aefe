"""mafia_lab.run/compare/experiment/odds: the same tables as the CLI's
``--out`` files for the same arguments, the CLI's errors as MafiaError, and
Python agents in seats of an in-process run. Skipped, with the reason
printed, without polars, the compiled extension (``pip install ./python``)
or, for the comparisons with the CLI, the ``mafia`` binary."""

import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from support import EXAMPLES, REPO, binary

try:
    import polars as pl

    import mafia_lab
    from mafia_lab import Agent, legal_random
    from mafia_lab.tables import MafiaError

    MISSING = None
except ImportError as e:  # pragma: no cover
    MISSING = f"polars or the compiled extension is not importable ({e}): pip install polars './python'"

ODDS = REPO / "scenarios" / "odds" / "classic-day-3.toml"
EXPERIMENT = REPO / "experiments" / "three-nights.toml"


def skip_without(cls):
    if MISSING:
        print(f"\nskipped {cls.__name__}: {MISSING}")
        return unittest.skip(MISSING)(cls)
    return cls


def rows(df):
    """A frame's rows, with the CSV's conventions: an empty text is null, numbers as floats."""
    out = []
    for r in df.iter_rows():
        row = []
        for v in r:
            if v == "":
                v = None
            elif isinstance(v, str):
                try:  # a grid axis' value, which the CSV reader takes for a number
                    v = float(v)
                except ValueError:
                    pass
            elif isinstance(v, bool):
                pass
            elif isinstance(v, (int, float)):
                v = float(v)
            row.append(v)
        out.append(row)
    return out


def same(test, lib, csv, what):
    test.assertEqual(lib.columns, csv.columns, what)
    test.assertEqual(lib.height, csv.height, what)
    for i, (a, b) in enumerate(zip(rows(lib), rows(csv), strict=True)):
        for col, x, y in zip(lib.columns, a, b, strict=True):
            if isinstance(x, float) and isinstance(y, float):
                test.assertTrue(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15), f"{what} row {i} {col}: {x} != {y}")
            else:
                test.assertEqual(x, y, f"{what} row {i} {col}")


def cli(*args, check=True):
    p = subprocess.run([str(binary()), *map(str, args)], capture_output=True, text=True, cwd=REPO)
    if check and p.returncode not in (0, 1):
        raise AssertionError(f"mafia {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p


def needs_binary(f):
    return unittest.skipUnless(binary().exists(), f"no binary at {binary()} (cargo build --release)")(f)


@skip_without
class SameAsCli(unittest.TestCase):
    """Each call against the CLI's --out CSV files for the same arguments."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name) / "x.csv"

    def tearDown(self):
        self.tmp.cleanup()

    def csv(self, part=None):
        p = self.out if part is None else self.out.with_name(f"x.{part}.csv")
        return pl.read_csv(p)

    @needs_binary
    def test_run(self):
        t = mafia_lab.run(["classic", "classic-13"], games=3000, seed=7, threads=2, rules={"absence": 0.1})
        cli(
            "run",
            "--setup",
            "classic",
            "--setup",
            "classic-13",
            "--games",
            3000,
            "--seed",
            7,
            "--threads",
            2,
            "--rule",
            "absence=0.1",
            "--quiet",
            "--out",
            self.out,
        )
        self.assertEqual(list(t), ["summary", "roles", "days"])
        same(self, t["summary"], self.csv(), "summary")
        same(self, t["roles"], self.csv("roles"), "roles")
        same(self, t["days"], self.csv("days"), "days")
        self.assertIn("Outcomes (rates with Wilson 95% bounds)", t.text)

    @needs_binary
    def test_run_sweep_and_agents(self):
        t = mafia_lab.run(games=2000, agents="forum,mafia=random", sweep={"no_kill_limit": ["off", 2]}, threads=1)
        cli(
            "run",
            "--games",
            2000,
            "--agents",
            "forum,mafia=random",
            "--sweep",
            "no_kill_limit=off,2",
            "--threads",
            1,
            "--quiet",
            "--out",
            self.out,
        )
        same(self, t["summary"], self.csv(), "summary")
        self.assertEqual(t["summary"].height, 2)

    @needs_binary
    def test_compare(self):
        t = mafia_lab.compare("classic", a={"no_kill_limit": 3}, b=["no_kill_limit=off"], games=4000, threads=2)
        cli(
            "compare",
            "--setup",
            "classic",
            "--a",
            "no_kill_limit=3",
            "--b",
            "no_kill_limit=off",
            "--games",
            4000,
            "--threads",
            2,
            "--quiet",
            "--out",
            self.out,
        )
        self.assertEqual(list(t), ["compare"])
        same(self, t["compare"], self.csv(), "compare")
        self.assertIn("variance reduction by pairing", t.text)

    @needs_binary
    def test_experiment(self):
        t = mafia_lab.experiment(EXPERIMENT, games=1000, no_precision=True, threads=2)
        cli("experiment", EXPERIMENT, "--games", 1000, "--no-precision", "--threads", 2, "--quiet", "--out", self.out)
        self.assertEqual(list(t), ["experiment", "roles"])
        same(self, t["experiment"], self.csv(), "experiment")
        same(self, t["roles"], self.csv("roles"), "roles")

    @needs_binary
    def test_odds(self):
        t = mafia_lab.odds(ODDS, games=5000, seed=3, agents="forum", threads=2)
        cli("odds", ODDS, "--games", 5000, "--seed", 3, "--agents", "forum", "--threads", 2, "--quiet", "--out", self.out)
        same(self, t["odds"], self.csv(), "odds")

    def test_threads_do_not_change_the_tables(self):
        one = mafia_lab.run(games=3000, threads=1)
        two = mafia_lab.run(games=3000, threads=2)
        for k in one:
            self.assertTrue(one[k].equals(two[k]), k)


@skip_without
class Errors(unittest.TestCase):
    def check(self, call, code, message):
        with self.assertRaises(MafiaError) as c:
            call()
        self.assertEqual(c.exception.exit_code, code)
        self.assertEqual(str(c.exception), message)
        return c.exception

    def cli_message(self, *args):
        p = cli(*args, check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertTrue(p.stderr.startswith("error: "), p.stderr)
        return p.stderr[len("error: ") :].rstrip()

    @needs_binary
    def test_unknown_setup(self):
        msg = self.cli_message("run", "--setup", "nope", "--games", 10)
        self.check(lambda: mafia_lab.run("nope", games=10), 2, msg)
        self.assertIn("no such preset", msg)

    @needs_binary
    def test_malformed_setup_file(self):
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "bad.toml"
            bad.write_text('name = "bad"\n[roles]\nmafia = = 2\n')
            msg = self.cli_message("run", "--setup", bad, "--games", 10)
            self.check(lambda: mafia_lab.run(bad, games=10), 2, msg)
            self.assertTrue(msg.startswith(f"{bad}:3:"), msg)  # file:line:column: why

    @needs_binary
    def test_bad_flag(self):
        msg = self.cli_message("run", "--games", 10, "--bogus")
        self.check(lambda: mafia_lab.run(games=10, args=["--bogus"]), 2, msg)
        msg = self.cli_message("compare", "--a", "no_kill_limit=3", "--games", 0)
        self.check(lambda: mafia_lab.compare(a={"no_kill_limit": 3}, games=0), 2, msg)

    def test_bad_rule(self):
        e = self.check(
            lambda: mafia_lab.run(games=10, rules=["nonsense"]), 2, "--rule nonsense: expected KEY=VALUE (see `mafia rules`)"
        )
        self.assertIsInstance(e, ValueError)

    def test_missed_precision_raises_with_the_tables(self):
        with self.assertRaises(MafiaError) as c:
            mafia_lab.run(games=2000, precision=0.001, threads=2)
        e = c.exception
        self.assertEqual(e.exit_code, 1)
        self.assertIn("not reached within --games 2000", str(e))
        self.assertEqual(e.tables["summary"]["games"][0], 2000)


class Counting(Agent):
    """Random legal answers from ``self.rng``; counts its calls; votes for
    itself (illegal) when ``self_vote``."""

    name = "counting"

    def __init__(self, self_vote=False):
        self.self_vote = self_vote
        self.decisions = 0
        self.votes = 0
        self.starts = 0
        self.ends = 0
        self.seats = set()

    def start(self, game, seat, view):
        self.starts += 1
        assert view["seat"] == seat
        self.state["started"] = True

    def decide(self, view, request):
        self.decisions += 1
        self.seats.add(self.seat)
        assert self.state.get("started"), "start came first"
        if request["decision"] == "vote":
            self.votes += 1
            if self.self_vote:
                return {"decision": "vote", "vote": self.seat}
        return legal_random(request, self.rng)

    def end(self, game, seat, ending):
        self.ends += 1


class Raising(Agent):
    def decide(self, view, request):
        if request["decision"] == "night":
            raise ZeroDivisionError("the agent's own bug")
        return legal_random(request, self.rng)


@skip_without
class PythonAgents(unittest.TestCase):
    def test_plays_a_seat_and_its_decisions_are_counted(self):
        a = Counting()
        t = mafia_lab.run(games=300, threads=2, agents="forum,seat3=mine", python_agents={"mine": a})
        s = t["summary"]
        self.assertEqual(s["agents"][0], "forum,seat3=mine")
        self.assertEqual(s["games"][0], 300)
        self.assertEqual(a.seats, {3})
        self.assertEqual((a.starts, a.ends), (300, 300))
        self.assertGreater(a.decisions, 300)
        self.assertEqual(s["illegal"][0], 0)
        self.assertEqual(a.__dict__.get("_states"), {}, "every seat's state dropped at its end")

    def test_illegal_answers_are_replaced_and_counted(self):
        a = Counting(self_vote=True)
        t = mafia_lab.run(games=200, threads=2, agents="town=selfish", python_agents={"selfish": a})
        self.assertGreater(a.votes, 0)
        self.assertEqual(t["summary"]["illegal"][0], a.votes)

    def test_a_class_is_made_once_per_call(self):
        t = mafia_lab.run(games=100, threads=2, agents="mafia=c", python_agents={"c": Counting})
        self.assertEqual(t["summary"]["games"][0], 100)

    def test_the_same_games_as_an_ext_process(self):
        """One agent class, two ways: in process and as `ext:` (same seeds, same tables)."""
        if not binary().exists():
            self.skipTest(f"no binary at {binary()}")
        spec = importlib.util.spec_from_file_location("random_agent", EXAMPLES / "random_agent.py")
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "x.csv"
            env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
            p = subprocess.run(
                [
                    str(binary()),
                    "run",
                    "--games",
                    "400",
                    "--threads",
                    "2",
                    "--quiet",
                    "--out",
                    str(out),
                    "--agents",
                    f"town=ext:{sys.executable} {EXAMPLES / 'random_agent.py'}",
                ],
                capture_output=True,
                text=True,
                cwd=REPO,
                env=env,
            )
            self.assertEqual(p.returncode, 0, p.stderr)
            ext = pl.read_csv(out)
        t = mafia_lab.run(games=400, threads=2, agents="town=rnd", python_agents={"rnd": m.RandomAgent})
        cols = ["games", "town_wins", "mafia_wins", "draws", "days_mean", "lynches", "night_kills"]
        self.assertEqual(rows(t["summary"].select(cols)), rows(ext.select(cols)))

    def test_an_exception_surfaces(self):
        with self.assertRaises(ZeroDivisionError) as c:
            mafia_lab.run(games=500, threads=2, agents="mafia=bad", python_agents={"bad": Raising})
        self.assertIn("the agent's own bug", str(c.exception))

    def test_not_an_answer_raises(self):
        class Nothing(Agent):
            def decide(self, view, request):
                return None

        with self.assertRaises(MafiaError) as c:
            mafia_lab.run(games=10, agents="seat1=nothing", python_agents={"nothing": Nothing})
        self.assertIn("not an answer dict", str(c.exception))

    def test_a_builtin_name_is_refused(self):
        with self.assertRaises(MafiaError) as c:
            mafia_lab.run(games=10, agents="forum", python_agents={"forum": Counting})
        self.assertEqual(c.exception.exit_code, 2)

    def test_odds_and_compare_take_python_agents(self):
        a = Counting()
        t = mafia_lab.odds(ODDS, games=200, agents="town=mine", python_agents={"mine": a}, threads=2)
        self.assertEqual(t["odds"]["games"][0], 200)
        self.assertGreater(a.decisions, 0)
        b = Counting()
        t = mafia_lab.compare(
            a={"agents.town": "mine"}, b={"agents.town": "forum"}, games=200, threads=2, python_agents={"mine": b}
        )
        self.assertGreater(b.decisions, 0)
        self.assertEqual(t["compare"]["games"][0], 200)


if __name__ == "__main__":
    unittest.main()
