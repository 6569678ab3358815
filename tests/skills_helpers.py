"""Helpers of the skill-tree tests: a sound fixture, journey inputs on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SOUND_FIXTURE: dict[str, Any] = {
    "version": 2,
    "skill": "placeholder",
    "trials": 2,
    "cases": [
        {
            "name": "tally",
            "type": "positive",
            "real_world": True,
            "command": ["bash", "../run.sh", "tally"],
            "expected": {"exit_code": 0, "stdout_contains": ["tallied"]},
        },
        {
            "name": "rejects-garbage",
            "type": "negative",
            "real_world": True,
            "command": ["bash", "../run.sh", "tally", "--garbage"],
            "expected": {"exit_code": 2},
        },
    ],
}


def sound_fixture(skill: str) -> str:
    """A fixture that loads and passes the gates (the skill needs a run.sh)."""
    return json.dumps({**SOUND_FIXTURE, "skill": skill})


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
