"""The messages this package writes and reads, validated against the
binary's own JSON Schema (`mafia schema`: `FromAgent`, `ToAgent`). Skipped,
with the reason, without the binary (or its protocol messages) or jsonschema."""

import json
import random
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path

from support import EXAMPLES, REPO, binary, binary_missing, child_env, golden_views, synthetic_requests

import mafia_lab

try:
    import jsonschema
except ImportError:  # pragma: no cover
    jsonschema = None


def schema_validators():
    """(FromAgent, ToAgent) validators, or the reason there are none."""
    if jsonschema is None:
        return "jsonschema is not installed"
    why = binary_missing("ext")
    if why:
        return why
    out = subprocess.run([str(binary()), "schema"], capture_output=True, text=True, timeout=60)
    doc = json.loads(out.stdout)
    defs = doc.get("$defs", {})
    if "FromAgent" not in defs or "ToAgent" not in defs:
        return "`mafia schema` has no FromAgent/ToAgent yet"
    return tuple(jsonschema.Draft202012Validator({"$ref": f"#/$defs/{n}", "$defs": defs}) for n in ("FromAgent", "ToAgent"))


class Contract(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        v = schema_validators()
        if isinstance(v, str):
            print(f"\nskipped: {v}")
            raise unittest.SkipTest(v)
        cls.from_agent, cls.to_agent = v

    def test_hellos(self):
        class A(mafia_lab.Agent):
            pass

        class B(mafia_lab.Agent):
            wants_view, quiet, wants_start_end = False, True, False

        for agent in (A(), B()):
            h = agent.hello()
            # The schema lists every hello key as required, but protocol/README.md
            # (and the engine) let all but `type` and `protocol` be omitted: fill
            # the defaults of the omitted ones before validating.
            self.from_agent.validate({"start_end": True, **h})
            self.assertLessEqual(set(h), {"type", "protocol", "name", "view", "text", "quiet", "start_end"})

    def test_answers(self):
        import sys

        sys.path.insert(0, str(EXAMPLES))
        try:
            from rule_based import RuleBased
        finally:
            sys.path.remove(str(EXAMPLES))
        rb = RuleBased()
        reqs = [(v["request"], v) for v in golden_views()] + [(r, None) for r in synthetic_requests()]
        n = 0
        for req, view in reqs:
            if req["decision"] == "start":
                continue
            answers = [mafia_lab.legal_random(req, random.Random(s)) for s in range(20)]
            if view is not None:
                rb.seed, rb._rng, rb.game, rb.seat = 1, None, 0, view["seat"]
                answers.append(rb.decide(view, req))
            for a in answers:
                self.from_agent.validate({"type": "answer", "id": 7, "game": 12, "seat": 3, "answer": a})
                n += 1
        self.assertGreater(n, 500)

    def test_start_end_off_in_a_real_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = Path(tmp) / "no_start_end.py"
            script.write_text(
                textwrap.dedent("""
                import sys
                from mafia_lab import Agent, SeedRng, legal_random, serve
                class A(Agent):
                    wants_view, quiet, wants_start_end = False, True, False
                    def start(self, game, seat, view):
                        raise AssertionError("start sent")
                    def end(self, game, seat, ending):
                        raise AssertionError("end sent")
                    def decide(self, view, request):
                        return legal_random(request, SeedRng(self.seed))
                sys.exit(serve(A))
            """)
            )
            logs = Path(tmp) / "logs"
            logs.mkdir()
            r = subprocess.run(
                [str(binary()), "run", "-q", "--games", "300", "--agents", f"ext:{script}", "--ext-log", str(logs)],
                capture_output=True,
                text=True,
                env=child_env(),
                cwd=REPO,
                timeout=300,
            )
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("no faults", r.stdout)
            self.assertEqual("".join(p.read_text() for p in logs.iterdir()), "")

    def test_the_in_process_game_speaks_the_schema(self):
        """The compiled engine's views and the answers to them are the
        protocol's messages' (one schema): every view of every seat of a
        forum-16 game (extended roles: every night part), wrapped as a
        request, validates; so does each answer, wrapped as an answer."""
        from mafia_lab._native import Game

        g = Game(setup="forum-16", seed=0)
        g.reset(seed=0)
        rng = random.Random(0)
        n = 0
        while not g.done:
            view = json.loads(g.view_json())
            msg = {"type": "request", "id": n, "game": 0, "seat": view["seat"], "seed": 1}
            msg |= {"request": view["request"], "view": view}
            if n % 25 == 0:  # a view is slow to validate: a sample whole, every one without its record
                self.to_agent.validate(msg)
            else:
                self.to_agent.validate({**msg, "view": {**view, "record": []}})
            answer = mafia_lab.legal_random(view["request"], rng)
            self.from_agent.validate({"type": "answer", "id": n, "game": 0, "seat": view["seat"], "answer": answer})
            g.answer(json.dumps(answer))
            n += 1
        self.assertGreater(n, 100)


if __name__ == "__main__":
    unittest.main()
