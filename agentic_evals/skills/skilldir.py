"""What a skill tree holds: its skill folders, and the files of each that the audit reads.

For each skill: its programs (the runtime surface), its own fixtures
(``fixtures/agentic_eval*``) and those of an evals tree kept outside it
(``<evals>/<skill>/agentic_eval*`` whose ``skill_root`` is the skill), and a
legacy ``fixtures/eval.json``. Directory listings only, bounded; reading is
left to the checks that need it.

A *program* is an executable file or a ``*.py``, ``*.sh``, ``*.js`` or ``*.ts``
file anywhere in the skill but its ``fixtures/``, hidden folders and
dependency or cache folders (``node_modules``, ``__pycache__``, ``venv``).
They are listed ``scripts/`` first, then the top level, then the rest, each
by path.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final, NamedTuple

from agentic_evals.contract.layout import FIXTURES_DIR, is_fixture_name, outside_fixtures

SKILL_MD = "SKILL.md"
PROGRAM_SUFFIXES: Final = (".py", ".sh", ".js", ".ts")
"""Files that are programs whatever their mode."""
SCRIPTS_DIR: Final = "scripts"
_SKIPPED_DIRS: Final = frozenset({FIXTURES_DIR, "node_modules", "__pycache__", "venv"})
MAX_SCANNED: Final = 5000
"""Directory entries looked at per skill, at most: a skill is not a whole repository."""
LEGACY_FIXTURE = "eval.json"


class SkillFiles(NamedTuple):
    """The files of one skill folder the audit looks at."""

    name: str
    """The folder name: the skill's identity in every report."""
    path: Path
    """The folder."""
    entrypoints: tuple[str, ...]
    """Its programs (the runtime surface), relative to the folder, ``scripts/`` first."""
    fixtures: tuple[str, ...]
    """Agentic fixtures, relative to the folder: its own ``fixtures/agentic_eval*`` (sorted),
    then those of the evals tree (``../../evals/<skill>/...``)."""
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


def _is_program(entry: os.DirEntry[str]) -> bool:
    if entry.name.endswith(PROGRAM_SUFFIXES):
        return True
    try:
        return bool(entry.stat().st_mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH))
    except OSError:
        return False


def programs(folder: Path) -> tuple[str, ...]:
    """The programs of the skill ``folder`` (see the module docstring), at most a bounded walk."""
    found: list[str] = []
    pending, seen = [""], 0
    while pending and seen < MAX_SCANNED:
        rel = pending.pop()
        try:
            with os.scandir(folder / rel) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in listed[: MAX_SCANNED - seen]:
            seen += 1
            path = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith(".") and entry.name not in _SKIPPED_DIRS:
                    pending.append(path)
            elif entry.is_file() and entry.name != SKILL_MD and _is_program(entry):
                found.append(path)
    return tuple(sorted(found, key=_program_order))


def _program_order(path: str) -> tuple[int, str]:
    if path.startswith(SCRIPTS_DIR + "/"):
        return 0, path
    return (1 if "/" not in path else 2), path


def scan_skill(folder: Path, evals: Path | None = None) -> SkillFiles:
    """What the audit needs from ``folder`` (and ``evals``); unreadable parts count as absent."""
    fixture_names = _files(folder / FIXTURES_DIR) if os.path.isdir(folder / FIXTURES_DIR) else []
    own = [f"{FIXTURES_DIR}/{name}" for name in sorted(fixture_names) if is_fixture_name(name)]
    kept = [os.path.relpath(path, folder) for path in outside_fixtures(folder, evals)]
    legacy = f"{FIXTURES_DIR}/{LEGACY_FIXTURE}" if LEGACY_FIXTURE in fixture_names else None
    return SkillFiles(folder.name, folder, programs(folder), tuple(own + kept), legacy)
