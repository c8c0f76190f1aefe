"""Shared test helpers: paths, the golden views, synthetic requests, the binary."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

PYROOT = Path(__file__).resolve().parents[1]  # python
REPO = PYROOT.parent  # the workspace
GOLDEN = REPO / "agents" / "tests" / "golden" / "views-classic-game0.jsonl"
SCHEMA = REPO / "schema" / "mafia-lab.schema.json"
EXAMPLES = PYROOT / "examples"

# The tests import the installed package (`pip install ./python`: the
# compiled engine is in it); child processes that run an agent import the
# protocol's modules in place (see child_env).


def golden_views() -> list[dict]:
    with open(GOLDEN, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def child_env() -> dict:
    """The environment of a child Python that imports mafia_lab in place."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PYROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def binary() -> Path:
    """Where the `mafia` binary is: $MAFIA_BIN, else <repo>/target/release/mafia."""
    return Path(os.environ.get("MAFIA_BIN") or REPO / "target" / "release" / "mafia")


def binary_missing(feature: str) -> str | None:
    """Why the binary cannot be used for ``feature`` (``"ext"`` or ``"host"``), or None."""
    b = binary()
    if not b.exists():
        return f"no mafia binary at {b} (build it: cargo build --release, or set MAFIA_BIN)"
    try:
        if feature == "host":
            r = subprocess.run([str(b), "host", "--help"], capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                return f"{b} has no `host` subcommand yet"
        else:
            r = subprocess.run([str(b), "run", "--help"], capture_output=True, text=True, timeout=60)
            if "--ext-procs" not in r.stdout:
                return f"{b} has no external agents (`ext:`, --ext-procs) yet"
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{b} does not run: {e}"
    return None


def _speech(decision):
    return {
        "decision": decision,
        "options": {"claims": ["citizen", "commissar", "mafioso", "don"], "about": list(range(1, 11))},
    }


def synthetic_requests() -> list[dict]:
    """At least one request of every decision type, with the tricky shapes."""
    return [
        {"decision": "start"},
        _speech("post"),
        _speech("defence"),
        _speech("last_word"),
        {"decision": "vote", "options": [1, 2, 4, 5]},
        {"decision": "vote", "options": []},
        {"decision": "revise", "current": 4, "options": [1, 2, 4, 5]},
        {"decision": "revise", "current": "pass", "options": [1, 2, 4, 5]},
        {"decision": "runoff", "options": [2, 7]},
        {"decision": "hang_both", "pair": [2, 7]},
        {
            "decision": "night",
            "options": {
                "kill": [1, 2, 3, 4, 6],
                "move": {"ability": "don_check", "targets": [1, 2, 3, 4]},
                "search": None,
                "defer": False,
            },
        },
        {"decision": "night", "options": {"kill": None, "move": None, "search": None, "defer": False}},
        {
            "decision": "night",
            "options": {
                "kill": None,
                "move": {
                    "ability": "swindle",
                    "targets": [1, 2, 3],
                    "second": [
                        {"first": 1, "options": [2, 3]},
                        {"first": 2, "options": [1, 3]},
                        {"first": 3, "options": [1, 2]},
                    ],
                },
                "search": [4, 5, 6],
                "defer": True,
            },
        },
        {
            "decision": "night",
            "options": {
                "kill": None,
                "move": None,
                "search": None,
                "defer": False,
                "borrow": [
                    {"role": "doctor", "move": {"ability": "heal", "targets": [1, 2, 3]}},
                    {"role": "detective", "move": {"ability": "camp_check", "targets": [4, 5]}},
                ],
            },
        },
        {"decision": "proxy", "member": 3, "move": {"ability": "rob", "targets": [1, 5, 9]}},
        {
            "decision": "proxy",
            "member": 3,
            "move": {
                "ability": "compare",
                "targets": [1, 5],
                "second": [{"first": 1, "options": [5]}, {"first": 5, "options": [1]}],
            },
        },
        {"decision": "appoint", "vacant": ["guard", "thief"]},
        {"decision": "appoint", "vacant": []},
        {"decision": "secret_vote", "votes": 2, "options": [1, 2, 3]},
    ]
