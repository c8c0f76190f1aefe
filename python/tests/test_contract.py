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

import mafia_lab

from .support import EXAMPLES, REPO, binary, binary_missing, child_env, golden_views, synthetic_requests

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

    def test_host_messages_both_ways(self):
        why = binary_missing("host")
        if why:
            self.skipTest(why)
        try:
            import numpy as np

            import mafia_lab.env as menv
        except ImportError as e:
            self.skipTest(f"pettingzoo/numpy are not importable: {e}")
        e = menv.env(binary=str(binary()), setup="forum-16", learners=range(1, 17))  # extended roles: every night part
        self.addCleanup(e.close)
        e.reset(seed=0)
        host = e._host
        sent, got = [], []
        real_send, real_read = host.send, host.read
        host.send = lambda m: (sent.append(m), real_send(m))[1]
        host.read = lambda: got.append(real_read()) or got[-1]
        rng = np.random.default_rng(0)
        for seed in range(1):
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        self.assertGreater(len(sent), 50)
        for m in sent:
            self.from_agent.validate(m)
        # (a view is slow to validate: every message without its view, and a sample with it)
        for i, m in enumerate(got):
            if i % 70 and "view" in m:
                m = {k: v for k, v in m.items() if k != "view"}
            self.to_agent.validate(m)
        self.assertEqual({m["type"] for m in got}, {"start", "request", "end", "done"})


if __name__ == "__main__":
    unittest.main()
