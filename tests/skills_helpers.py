"""Helpers of the skill-tree tests: a sound fixture, journey inputs on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builders import case, fixture

SOUND_FIXTURE: dict[str, Any] = fixture(
    [
        case(
            "tally",
            command=["bash", "../run.sh", "tally"],
            expected={"exit_code": 0, "stdout_contains": ["tallied"]},
            real_world=True,
        ),
        case(
            "rejects-garbage",
            "negative",
            ["bash", "../run.sh", "tally", "--garbage"],
            {"exit_code": 2},
            real_world=True,
        ),
    ],
    skill="placeholder",
)


def sound_fixture(skill: str) -> str:
    """A fixture that loads and passes the gates (the skill needs a run.sh)."""
    return json.dumps({**SOUND_FIXTURE, "skill": skill})


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
