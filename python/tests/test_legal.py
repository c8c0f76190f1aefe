"""legal_random, check and the answer builders, without the binary."""

import json
import random
import unittest
from collections import Counter

from support import SCHEMA, golden_views, synthetic_requests

import mafia_lab
from mafia_lab import answers as A
from mafia_lab import check, is_legal, legal_random
from mafia_lab.legal import DECISIONS, SeedRng

try:  # optional: validate against the project's JSON Schema when jsonschema is there
    import jsonschema
except ImportError:  # pragma: no cover
    jsonschema = None


def _validator(name):
    if jsonschema is None:
        return None
    with open(SCHEMA, encoding="utf-8") as f:
        doc = json.load(f)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": doc["$defs"]})


ANSWER = _validator("Answer")
REQUEST = _validator("Request")
VIEW = _validator("View")


def first_of_each():
    """The first synthetic request of each decision."""
    out = {}
    for r in synthetic_requests():
        out.setdefault(r["decision"], r)
    return out


def all_requests():
    return [v["request"] for v in golden_views()] + synthetic_requests()


class LegalRandom(unittest.TestCase):
    def test_every_decision_type_is_covered(self):
        self.assertEqual({r["decision"] for r in synthetic_requests()}, set(DECISIONS))

    def test_synthetic_requests_follow_the_schema(self):
        if REQUEST is None:
            self.skipTest("jsonschema is not installed")
        for r in synthetic_requests():
            REQUEST.validate(r)

    def test_golden_views_follow_the_schema(self):
        if VIEW is None:
            self.skipTest("jsonschema is not installed")
        for v in golden_views():
            VIEW.validate(v)

    def test_legal_for_every_request_and_many_seeds(self):
        for req in all_requests():
            for seed in range(200):
                for rng in (random.Random(seed), SeedRng(seed)):
                    ans = legal_random(req, rng)
                    self.assertIsNone(check(req, ans), (req, ans))
                    # what goes on the wire is plain JSON
                    self.assertEqual(json.loads(json.dumps(ans)), ans)
                    if ANSWER is not None and seed < 5:
                        ANSWER.validate(ans)

    def test_reproducible_from_the_seed(self):
        for req in all_requests():
            self.assertEqual(legal_random(req, random.Random(7)), legal_random(req, random.Random(7)))
            self.assertEqual(legal_random(req, SeedRng(7)), legal_random(req, SeedRng(7)))

    def test_uniform_over_the_options(self):
        rng = SeedRng(1)
        req = {"decision": "vote", "options": [1, 2, 4, 5]}
        n = 8000
        c = Counter(legal_random(req, rng)["vote"] for _ in range(n))
        self.assertEqual(set(c), {1, 2, 4, 5})  # the Rust reference never passes when it may name someone
        for k in c:
            self.assertAlmostEqual(c[k] / n, 0.25, delta=0.03)
        req = {"decision": "hang_both", "pair": [2, 7]}
        c = Counter(legal_random(req, rng)["hang"] for _ in range(n))
        self.assertAlmostEqual(c[True] / n, 0.5, delta=0.03)

    def test_every_part_of_a_night_is_drawn(self):
        rng = random.Random(3)
        two = synthetic_requests()[12]
        seen = Counter()
        for _ in range(500):
            m = legal_random(two, rng)["moves"]
            seen[(m["target"], m["second"])] += 1
            self.assertIn(m["search"], [4, 5, 6])
            self.assertFalse(m["defer"])
        self.assertEqual(len(seen), 6)  # every (first, second) pair
        borrow = synthetic_requests()[13]
        roles = Counter(legal_random(borrow, rng)["moves"]["borrow"] for _ in range(500))
        self.assertEqual(set(roles), {"doctor", "detective"})

    def test_mirrors_the_rust_reference(self):
        """What the Rust LegalRandom does besides drawing: silent, keeps, first vacancy, open vote."""
        rng = random.Random(0)
        by = {r["decision"]: legal_random(r, rng) for r in synthetic_requests()}
        self.assertEqual(by["start"], {"decision": "ready"})
        for d in ("post", "defence", "last_word"):
            self.assertEqual(by[d], A.silent(d))
        self.assertEqual(by["revise"], {"decision": "revise", "vote": None})
        self.assertEqual(by["secret_vote"], {"decision": "secret_vote", "target": None})
        self.assertEqual(legal_random({"decision": "appoint", "vacant": ["guard", "thief"]}, rng)["role"], "guard")
        self.assertIsNone(legal_random({"decision": "appoint", "vacant": []}, rng)["role"])
        self.assertEqual(legal_random({"decision": "vote", "options": []}, rng)["vote"], "pass")

    def test_unknown_decision_raises(self):
        with self.assertRaises(ValueError):
            legal_random({"decision": "dance"}, random.Random(0))


class Check(unittest.TestCase):
    def test_refuses_what_the_engine_refuses(self):
        reqs = first_of_each()
        bad = [
            (reqs["vote"], A.vote(3)),  # not offered (oneself)
            (reqs["vote"], A.revise(1)),  # another decision
            (reqs["vote"], {"decision": "vote", "vote": "1"}),
            (reqs["vote"], {"decision": "vote", "vote": True}),
            (reqs["runoff"], A.runoff(1)),
            (reqs["hang_both"], {"decision": "hang_both", "hang": 1}),
            (reqs["post"], A.post(accuse=[11])),
            (reqs["post"], A.post(claim="sheriff")),
            (reqs["night"], A.night(kill=5)),
            (reqs["night"], A.night(target=6)),
            (reqs["night"], A.night(target=1, second=2)),
            (reqs["night"], A.night(defer=True)),
            (synthetic_requests()[12], A.night(target=1, second=1)),
            (synthetic_requests()[13], A.night(borrow="witch")),
            (synthetic_requests()[13], A.night(borrow="doctor", target=4)),
            (reqs["proxy"], A.proxy(target=2)),
            (reqs["appoint"], A.appoint("actor")),
            (reqs["secret_vote"], A.secret_vote(9)),
            (reqs["start"], {"decision": "start"}),
            (reqs["vote"], None),
        ]
        for req, ans in bad:
            self.assertFalse(is_legal(req, ans), (req, ans))

    def test_accepts_the_builders(self):
        reqs = first_of_each()
        good = [
            (reqs["start"], A.ready()),
            (reqs["post"], A.post(claim="commissar", mafia=[5], town=[1, 2])),
            (reqs["post"], A.silent_post()),
            (reqs["defence"], A.defence(claim="citizen")),
            (reqs["defence"], A.silent_defence()),
            (reqs["last_word"], A.last_word(accuse=[4], text="I was town.")),
            (reqs["last_word"], A.silent_last_word()),
            (reqs["vote"], A.vote(5)),
            (reqs["vote"], A.pass_vote()),
            (reqs["revise"], A.keep_vote()),
            (reqs["revise"], A.revise(1)),
            (reqs["revise"], A.revise("pass")),
            (reqs["runoff"], A.runoff(7)),
            (reqs["hang_both"], A.hang_both(True)),
            (reqs["night"], A.night(kill=6, target=4)),
            (reqs["night"], A.night()),
            (synthetic_requests()[12], A.night(target=2, second=3, search=5, defer=True)),
            (synthetic_requests()[13], A.night(borrow="detective", target=5)),
            (reqs["proxy"], A.proxy(target=9)),
            (reqs["proxy"], A.proxy()),
            (reqs["appoint"], A.appoint("thief")),
            (reqs["appoint"], A.appoint(None)),
            (reqs["secret_vote"], A.secret_vote(3)),
            (reqs["secret_vote"], A.secret_vote(None)),
        ]
        for req, ans in good:
            self.assertIsNone(check(req, ans), (req, ans))
            if ANSWER is not None:
                ANSWER.validate(ans)


class SeedRngTest(unittest.TestCase):
    def test_range_and_determinism(self):
        a, b = SeedRng(2**53 - 1), SeedRng(2**53 - 1)
        xs = [a.randrange(10) for _ in range(1000)]
        self.assertEqual(xs, [b.randrange(10) for _ in range(1000)])
        self.assertEqual(set(xs), set(range(10)))
        self.assertTrue(all(0.0 <= SeedRng(s).random() < 1.0 for s in range(100)))
        # the published SplitMix64 sequence for seed 0
        self.assertEqual(SeedRng(0).next64(), 0xE220A8397B1DCDAF)

    def test_package_exports(self):
        for name in ("Agent", "serve", "answers", "legal_random", "check", "is_legal", "SeedRng", "views"):
            self.assertTrue(hasattr(mafia_lab, name), name)


if __name__ == "__main__":
    unittest.main()
