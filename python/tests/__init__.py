"""Tests of mafia_lab: python3 -m unittest discover -s python/tests -t python (from the repo root)."""
