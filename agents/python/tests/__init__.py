"""Tests of mafia_lab: python3 -m unittest discover -s agents/python/tests -t agents/python (from the repo root)."""
