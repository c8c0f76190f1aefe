"""The serve loop against a scripted fake engine through pipes (no binary)."""

import json
import os
import random
import select
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from support import EXAMPLES, PYROOT, child_env, golden_views, synthetic_requests

import mafia_lab
import mafia_lab.loop as serve_mod
from mafia_lab import check

HELLO = {"type": "hello", "protocol": 1, "process": 0}
HELLO_KEYS = {"type", "protocol", "name", "view", "text", "quiet", "start_end"}  # the engine denies unknown fields


class FakeEngine:
    """Starts an agent process and talks the protocol to it, as `mafia` does."""

    def __init__(self, script, *args):
        self.stderr = tempfile.TemporaryFile()
        self.p = subprocess.Popen(
            [sys.executable, str(script), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=child_env(),
            cwd=tempfile.gettempdir(),  # not the package's folder: the scripts must find it themselves
        )
        self.buf = b""
        self.next_id = 1
        self.writer = None

    def send(self, *msgs):
        """Writes every message as one batch, from a thread (as the engine,
        it goes on reading answers while a big batch is being written)."""
        self.send_raw(b"".join((json.dumps(m) + "\n").encode() for m in msgs))

    def send_raw(self, data: bytes):
        if self.writer is not None:
            self.writer.join()
        if len(data) < 1 << 15:
            self.p.stdin.write(data)
            self.p.stdin.flush()
            self.writer = None
            return

        def write():
            self.p.stdin.write(data)
            self.p.stdin.flush()

        self.writer = threading.Thread(target=write, daemon=True)
        self.writer.start()

    def read(self, timeout=20.0):
        """One message, or fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no message within {timeout}s; stderr:\n{self.err()}")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise AssertionError(f"the agent closed its output; stderr:\n{self.err()}")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def hello(self):
        self.send(HELLO)
        return self.read()

    def request(self, game, seat, request, view=None, seed=None, text=None):
        m = {
            "type": "request",
            "id": self.next_id,
            "game": game,
            "seat": seat,
            "seed": self.next_id * 7919 if seed is None else seed,
            "request": request,
        }
        if view is not None:
            m["view"] = view
        if text is not None:
            m["text"] = text
        self.next_id += 1
        return m

    def err(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def finish(self, how="bye", timeout=20):
        if how == "bye":
            self.send({"type": "bye"})
        if self.writer is not None:
            self.writer.join()
        self.p.stdin.close()
        rc = self.p.wait(timeout=timeout)
        self.p.stdout.close()
        return rc

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


class ServeLoop(unittest.TestCase):
    def engine(self, script, *args):
        e = FakeEngine(script, *args)
        self.addCleanup(e.kill)
        self.addCleanup(e.stderr.close)
        return e

    def answer_all(self, e, reqs):
        """Sends ``reqs`` in one batch; returns {id: answer message}."""
        e.send(*reqs)
        got = {}
        for _ in reqs:
            a = e.read()
            self.assertEqual(a["type"], "answer")
            got[a["id"]] = a
        return got

    def test_hello_then_pipelined_requests(self):
        e = self.engine(PYROOT / "tests" / "scripted_agent.py")
        h = e.hello()
        self.assertEqual(h["type"], "hello")
        self.assertEqual(h["protocol"], 1)
        self.assertLessEqual(set(h), HELLO_KEYS)
        self.assertEqual((h["name"], h["view"], h["text"], h["quiet"]), ("scripted", True, True, False))

        views = [v for v in golden_views() if v["request"]["decision"] != "start"]
        starts = [{"type": "start", "game": g, "seat": s} for g in range(4) for s in (1, 2, 7)]
        reqs = []
        for g in range(4):
            for s in (1, 2, 7):
                for v in views:
                    reqs.append(e.request(g, s, v["request"], view=v, text="the story"))
                for r in synthetic_requests():
                    if r["decision"] != "start":
                        reqs.append(e.request(g, s, r))
        e.send(*starts)
        got = self.answer_all(e, reqs)
        self.assertEqual(set(got), {r["id"] for r in reqs})
        for r in reqs:
            a = got[r["id"]]
            self.assertEqual((a["game"], a["seat"]), (r["game"], r["seat"]))
            self.assertIsNone(check(r["request"], a["answer"]), (r, a))
        # state is per (game, seat), and start was seen
        post = next(r for r in reqs if r["request"]["decision"] == "post" and (r["game"], r["seat"]) == (3, 7))
        self.assertTrue(got[post["id"]]["answer"]["text"].startswith("n=1 started=True text='the story'"))
        self.assertEqual(e.finish("bye"), 0)

    def test_a_failing_decide_is_logged_and_answered(self):
        e = self.engine(PYROOT / "tests" / "scripted_agent.py")
        e.hello()
        reqs = [e.request(0, s, r) for s in (3, 4) for r in synthetic_requests() if r["decision"] != "start"]
        e.send({"type": "start", "game": 0, "seat": 6})  # start raises: logged, not fatal
        got = self.answer_all(e, reqs)
        for r in reqs:
            a = got[r["id"]]
            self.assertEqual((a["game"], a["seat"]), (r["game"], r["seat"]))
            self.assertIsNone(check(r["request"], a["answer"]), a)
            # the fallback is legal_random seeded from the request's seed
            self.assertEqual(a["answer"], mafia_lab.legal_random(r["request"], random.Random(r["seed"])))
        self.assertEqual(e.finish("eof"), 0)
        err = e.err()
        self.assertIn("ZeroDivisionError", err)
        self.assertIn("Traceback", err)
        self.assertIn("decide returned None", err)
        self.assertIn("start fails for seat 6", err)

    def test_illegal_answers_pass_unless_checked(self):
        vote = {"decision": "runoff", "options": [2, 7]}
        e = self.engine(PYROOT / "tests" / "scripted_agent.py")
        e.hello()
        e.send(e.request(0, 5, vote))
        self.assertEqual(e.read()["answer"], {"decision": "vote", "vote": 99})  # the engine's to count
        e.finish()
        e = self.engine(PYROOT / "tests" / "scripted_agent.py", "--check")
        e.hello()
        e.send(e.request(0, 5, vote))
        self.assertIsNone(check(vote, e.read()["answer"]))
        e.finish()
        self.assertIn("illegal answer", e.err())

    def test_lines_split_across_writes_bad_lines_end_and_eof(self):
        e = self.engine(PYROOT / "tests" / "scripted_agent.py")
        e.hello()
        r = e.request(1, 1, {"decision": "vote", "options": [2, 3]})
        line = (json.dumps(r) + "\n").encode()
        e.send_raw(b"this is not json\n" + line[:17])
        time.sleep(0.2)
        e.send_raw(line[17:] + b'{"type":"nonsense"}\n')
        a = e.read()
        self.assertEqual(a["id"], r["id"])
        e.send({"type": "end", "game": 1, "seat": 1, "ending": {"winner": "town", "won": True}})
        # after end, the (game, seat) state is gone: the count starts again
        p = e.request(1, 1, synthetic_requests()[1])
        e.send(p)
        self.assertTrue(e.read()["answer"]["text"].startswith("n=1 started=False"))
        self.assertEqual(e.finish("eof"), 0)
        err = e.err()
        self.assertIn("not a message", err)
        self.assertIn("unknown message type 'nonsense'", err)
        self.assertIn("end 1 1 town", err)

    def test_random_example(self):
        e = self.engine(EXAMPLES / "random_agent.py")
        h = e.hello()
        self.assertEqual((h["view"], h["quiet"], h["start_end"]), (False, True, False))
        reqs = [e.request(g, 2, r) for g in range(50) for r in synthetic_requests() if r["decision"] != "start"]
        got = self.answer_all(e, reqs)
        for r in reqs:
            self.assertIsNone(check(r["request"], got[r["id"]]["answer"]))
        self.assertEqual(e.finish(), 0)
        # the same seeds give the same answers in a new process
        e2 = self.engine(EXAMPLES / "random_agent.py")
        e2.hello()
        got2 = self.answer_all(e2, reqs)
        self.assertEqual({k: v["answer"] for k, v in got.items()}, {k: v["answer"] for k, v in got2.items()})
        e2.finish()
        self.assertEqual(e2.err(), "")

    def test_rule_based_example_on_the_golden_views(self):
        e = self.engine(EXAMPLES / "rule_based.py")
        h = e.hello()
        self.assertEqual((h["view"], h["quiet"]), (True, False))
        vs = golden_views()
        e.send(*[{"type": "start", "game": 0, "seat": v["seat"], "view": v} for v in vs if v["request"]["decision"] == "start"])
        reqs = [e.request(0, v["seat"], v["request"], view=v) for v in vs if v["request"]["decision"] != "start"]
        got = self.answer_all(e, reqs)
        for r in reqs:
            self.assertIsNone(check(r["request"], got[r["id"]]["answer"]))
        # the Commissar (seat 10) finds a mafioso (5) on night 1 and a townsman (7) on night 2: with a
        # living mafioso found he claims in his posts and publishes every check, and votes the mafioso
        by = {(r["seat"], json.dumps(r["view"]["phase"]), r["request"]["decision"]): got[r["id"]]["answer"] for r in reqs}
        for day, town in (('{"day": 2}', []), ('{"day": 3}', [7])):
            post = by[(10, day, "post")]
            self.assertEqual((post["say"]["claim"], post["say"]["town"], post["say"]["mafia"]), ("commissar", town, [5]))
            self.assertEqual(by[(10, day, "vote")]["vote"], 5)
        # his last word always claims and publishes his checks: asked for one in his day-3 post view
        v = next(v for v in vs if (v["seat"], v["phase"], v["request"]["decision"]) == (10, {"day": 3}, "post"))
        lw = dict(v["request"], decision="last_word")
        r = e.request(0, 10, lw, view=dict(v, request=lw))
        said = self.answer_all(e, [r])[r["id"]]["answer"]
        self.assertIsNone(check(lw, said))
        self.assertEqual((said["say"]["claim"], said["say"]["town"], said["say"]["mafia"]), ("commissar", [7], [5]))
        self.assertEqual(e.finish(), 0)
        self.assertEqual(e.err(), "")


class OneWritePerBatch(unittest.TestCase):
    def test_a_batch_read_at_once_is_answered_in_one_write(self):
        r_in, w_in = os.pipe()
        r_out, w_out = os.pipe()
        reqs = [
            {
                "type": "request",
                "id": i,
                "game": i % 3,
                "seat": 1 + i % 10,
                "seed": i,
                "request": {"decision": "vote", "options": [1, 2, 3]},
            }
            for i in range(200)
        ]
        data = b"".join((json.dumps(m) + "\n").encode() for m in [HELLO] + reqs)
        self.assertLess(len(data), 1 << 16)  # fits the pipe, so it is read in one go
        os.write(w_in, data)
        os.close(w_in)
        writes = []
        real = serve_mod._write_all

        def counting(fd, b):
            writes.append(b)
            real(fd, b)

        out = []
        reader = threading.Thread(target=lambda: out.append(b"".join(iter(lambda: os.read(r_out, 1 << 16), b""))))
        reader.start()

        class Agent(mafia_lab.Agent):
            wants_view = False

            def decide(self, view, request):
                return mafia_lab.answers.vote(request["options"][self.seed % 3])

        serve_mod._write_all = counting
        try:
            rc = mafia_lab.serve(Agent, infd=r_in, outfd=w_out)
        finally:
            serve_mod._write_all = real
            os.close(w_out)
            os.close(r_in)
        reader.join(10)
        os.close(r_out)
        self.assertEqual(rc, 0)
        self.assertEqual(len(writes), 1)
        lines = out[0].decode().splitlines()
        self.assertEqual(len(lines), 201)
        for m, line in zip(reqs, lines[1:], strict=True):
            a = json.loads(line)
            self.assertEqual(
                (a["id"], a["game"], a["seat"], a["answer"]["vote"]), (m["id"], m["game"], m["seat"], 1 + m["id"] % 3)
            )


if __name__ == "__main__":
    unittest.main()
