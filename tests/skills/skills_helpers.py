"""Helpers for the fleet tests: small skill trees and journey inputs on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "skills-tree-2026-01"

COMPOSED = "composes: [agentic-evals]\n"

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


def make_skill(
    root: Path,
    name: str,
    front: str | None = COMPOSED,
    *,
    files: dict[str, str] | None = None,
    skill_md: str | None = None,
) -> Path:
    """A skill folder ``root/name`` whose SKILL.md carries ``front`` as front matter.

    ``front=None`` writes a SKILL.md without front matter; ``skill_md`` writes it verbatim.
    ``files`` maps relative paths to contents (``run.sh`` and ``sanity.sh`` are made
    executable).
    """
    folder = root / name
    folder.mkdir(parents=True)
    if skill_md is None:
        skill_md = f"# {name}\n" if front is None else f"---\nname: {name}\n{front}---\n# {name}\n"
    (folder / "SKILL.md").write_text(skill_md, encoding="utf-8")
    for rel, text in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.endswith(".sh"):
            path.chmod(0o755)
    return folder


def sound_fixture(skill: str) -> str:
    """A fixture that loads and passes the gates (the skill needs a run.sh)."""
    return json.dumps({**SOUND_FIXTURE, "skill": skill})


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
