"""The example agents in real games through the `mafia` binary (skipped,
with the reason, while the binary has no external agents)."""

import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import EXAMPLES, REPO, binary, binary_missing, child_env


def outcome_rows(text: str) -> list[dict]:
    """The rows of the run's first table ("Outcomes"), as {column: cell}."""
    rows, header = [], None
    for line in text.splitlines():
        if not line.startswith("│"):
            if header is not None and rows and line.startswith("└"):
                break
            continue
        cells = [c.strip() for c in re.split(r"[│┆]", line)[1:-1]]
        if header is None:
            header = cells
        else:
            rows.append(dict(zip(header, cells, strict=False)))
    return rows


def fault_lines(text: str) -> list[str]:
    """Lines reporting faults (the report says "no faults" when there is none)."""

    def clean(line):
        return (
            re.search(r"\bno faults\b", line)
            and not re.search(r"\b[1-9]\d* restarts?\b", line)
            and not re.search(r"\b[1-9]\d* games? forfeit", line)
        )

    return [
        line for line in text.splitlines() if re.search(r"\b(faults?|restarts?|forfeit\w*)\b", line, re.I) and not clean(line)
    ]


SAMPLE = """Outcomes (rates with Wilson 95% bounds)
┌─────────┬───────┬────────┬─────────┬───────┬───────────┐
│ setup   ┆ rules ┆ agents ┆ players ┆ games ┆ town_rate │
╞═════════╪═══════╪════════╪═════════╪═══════╪═══════════╡
│ classic ┆       ┆ forum  ┆      10 ┆   200 ┆      0.02 │
└─────────┴───────┴────────┴─────────┴───────┴───────────┘

Game length in days
┌─────────┬───────┐
│ setup   ┆ rules │
╞═════════╪═══════╡
│ classic ┆       │
└─────────┴───────┘
  classic | default rules | forum:  d2 60.5%  d3 21.0%
"""


class OutputParsing(unittest.TestCase):
    def test_outcome_rows(self):
        self.assertEqual(
            outcome_rows(SAMPLE),
            [{"setup": "classic", "rules": "", "agents": "forum", "players": "10", "games": "200", "town_rate": "0.02"}],
        )

    def test_fault_lines(self):
        self.assertEqual(fault_lines(SAMPLE + "external agents (ext:a.py): no faults, 0 restarts\n"), [])
        ok = "external agents (ext:a.py): 247989 decisions asked, no faults, 0 restarts"
        self.assertEqual(fault_lines(SAMPLE + ok), [])
        restarted = "external agents (ext:a.py): no faults, 2 restarts"
        self.assertEqual(fault_lines(SAMPLE + restarted), [restarted])
        bad = "external agents (ext:a.py): 522 faults, 10 restarts, 0 games forfeited (not in the win rates)"
        self.assertEqual(fault_lines(SAMPLE + bad), [bad])


class ExamplesInRealGames(unittest.TestCase):
    def setUp(self):
        why = binary_missing("ext")
        if why:
            print(f"\nskipped: {why}")
            self.skipTest(why)

    def run_games(self, agents: str, games=200, setup="classic", extra=()):
        with tempfile.TemporaryDirectory() as logs:
            cmd = [
                str(binary()),
                "run",
                "-q",
                "--setup",
                setup,
                "--games",
                str(games),
                "--seed",
                "1",
                "--agents",
                agents,
                "--ext-log",
                logs,
                *extra,
            ]
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=child_env(), timeout=600)
            logged = "".join(p.read_text(errors="replace") for p in Path(logs).iterdir())
        out = r.stdout + r.stderr
        self.assertEqual(r.returncode, 0, f"{' '.join(cmd)} failed:\n{out}")
        rows = outcome_rows(r.stdout)
        self.assertTrue(rows, f"no outcome table in:\n{out}")
        self.assertEqual(sum(int(row["games"]) for row in rows), games, out)
        self.assertEqual(fault_lines(out), [], out)
        self.assertIn("no faults", out)
        self.assertEqual(logged, "", "the agent wrote on its stderr (tracebacks?)")
        return rows

    def test_rule_based_town(self):
        spec = f"forum,town=ext:{(EXAMPLES / 'rule_based.py').relative_to(REPO)}"
        row = self.run_games(spec)[0]
        # it reads the view: a random town wins 0.001 of these games, the forum
        # town about 0.38, this one about 0.7 (a loose bound: the forum mafia may change)
        self.assertGreater(float(row["town_rate"]), 0.2, row)

    def test_rule_based_mafia_and_every_seat(self):
        self.run_games(f"forum,mafia=ext:{EXAMPLES / 'rule_based.py'}")
        self.run_games(f"ext:{EXAMPLES / 'rule_based.py'}", games=100)

    def test_rule_based_extended_roles(self):
        self.run_games(f"forum,town=ext:{EXAMPLES / 'rule_based.py'}", games=100, setup="extended")

    def test_random_agent_every_seat_every_setup(self):
        for setup in ("classic", "extended", "forum-16"):
            self.run_games(f"ext:{EXAMPLES / 'random_agent.py'}", games=500, setup=setup, extra=("--ext-procs", "2"))

    def test_a_run_reproduces_whatever_the_pool_size(self):
        spec = f"forum,town=ext:{EXAMPLES / 'rule_based.py'}"
        a = self.run_games(spec, games=100, extra=("--ext-procs", "1"))
        b = self.run_games(spec, games=100, extra=("--ext-procs", "2", "--threads", "2"))
        self.assertEqual(a, b)


if __name__ == "__main__":
    unittest.main()
