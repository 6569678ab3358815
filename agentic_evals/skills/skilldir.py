"""What a skill tree holds: its skill folders, and the files of each that the audit reads.

Two directory listings per skill (the folder and its ``fixtures/``), no file
contents: reading is left to the checks that need it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.layout import FIXTURES_DIR, is_fixture_name

SKILL_MD = "SKILL.md"
ENTRYPOINTS = ("run.sh", "sanity.sh")
"""Top-level files that make a runtime surface (EVAL001)."""
LEGACY_FIXTURE = "eval.json"


class SkillFiles(NamedTuple):
    """The files of one skill folder the audit looks at."""

    name: str
    """The folder name: the skill's identity in every report."""
    path: Path
    """The folder."""
    entrypoints: tuple[str, ...]
    """``run.sh`` / ``sanity.sh`` present at the top level (any mode)."""
    fixtures: tuple[str, ...]
    """Agentic fixtures, ``fixtures/agentic_eval*`` with a JSON or YAML suffix, sorted."""
    legacy: str | None
    """``fixtures/eval.json`` when that file exists."""


def find_skills(root: Path) -> list[Path]:
    """Every immediate subfolder of ``root`` holding a ``SKILL.md`` file, by name.

    Raises:
        OSError: ``root`` cannot be listed.
    """
    with os.scandir(root) as entries:
        folders = [Path(entry.path) for entry in entries if entry.is_dir()]
    return sorted(
        (folder for folder in folders if os.path.isfile(folder / SKILL_MD)),
        key=lambda folder: folder.name,
    )


def _files(folder: Path) -> list[str]:
    try:
        with os.scandir(folder) as entries:
            return [entry.name for entry in entries if entry.is_file()]
    except OSError:
        return []


def scan_skill(folder: Path) -> SkillFiles:
    """List what the audit needs from ``folder``; unreadable parts count as absent."""
    top = set(_files(folder))
    fixture_names = _files(folder / FIXTURES_DIR) if os.path.isdir(folder / FIXTURES_DIR) else []
    fixtures = tuple(
        f"{FIXTURES_DIR}/{name}" for name in sorted(fixture_names) if is_fixture_name(name)
    )
    legacy = f"{FIXTURES_DIR}/{LEGACY_FIXTURE}" if LEGACY_FIXTURE in fixture_names else None
    entrypoints = tuple(name for name in ENTRYPOINTS if name in top)
    return SkillFiles(folder.name, folder, entrypoints, fixtures, legacy)
