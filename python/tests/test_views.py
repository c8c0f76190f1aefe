"""mafia_lab.views on the golden views."""

import unittest

from support import golden_views

from mafia_lab import views as V


class Views(unittest.TestCase):
    def setUp(self):
        self.vs = golden_views()

    def test_phase_alive_mates(self):
        v = self.vs[18]  # the Don, day 3
        self.assertEqual(V.phase(v), ("day", 3))
        self.assertFalse(V.is_night(v))
        self.assertEqual(V.players(v), 10)
        self.assertEqual(V.alive(v), {1, 2, 3, 4, 5, 7, 8, 10})
        self.assertEqual(V.mates(v), {2: "mafioso", 5: "mafioso"})
        self.assertEqual(V.phase(self.vs[8]), ("night", 1))

    def test_record_readers(self):
        v = self.vs[18]
        self.assertEqual(V.deaths(v), {6: "lynched", 9: "lynched"})
        self.assertEqual(V.accusations(v), {9: 1, 1: 1})  # 6's last word accused 9, 9's accused 1
        self.assertEqual(V.claims(v), {})
        self.assertEqual(V.published_checks(v), [])
        self.assertEqual([p[:2] for p in V.publications(v)], [("last_word", 6), ("last_word", 9)])
        v = self.vs[22]  # the Don's revise on day 3: today's first votes only
        votes = V.today_votes(v)
        self.assertEqual(votes[3], 4)
        self.assertTrue(all(s in V.alive(v) for s in votes))

    def test_every_role_has_a_camp(self):
        self.assertEqual(set(V.ROLE_CAMP.values()), {"town", "mafia", "bandits"})
        self.assertEqual(len(V.ROLE_CAMP), 24)


if __name__ == "__main__":
    unittest.main()
