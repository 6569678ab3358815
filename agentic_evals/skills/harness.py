"""Another harness's task files that evaluate skills of a tree (posture ``task_harness``).

Some skill repositories evaluate their skills with a harness of their own:
task files (``tasks/*.yaml``) beside the skills' folder, or inside it, each
naming the skill it exercises (``skill: skills/<name>``, or a list under
``skills``). Such a skill is evaluated, just not by command cases: the audit
reports it with posture ``task_harness`` and the task files, never as
``missing``. The search is bounded (folders ``tasks/`` beside and inside the
skills' folder, three levels down, at most 2000 files of at most 1 MiB).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Final

from agentic_evals.documents.yaml_io import read_document

TASKS_DIR: Final = "tasks"
TASK_SUFFIXES: Final = (".yaml", ".yml", ".json")
MAX_TASK_FILES: Final = 2000
MAX_TASK_BYTES: Final = 2**20
_MAX_DEPTH: Final = 3


def _task_files(folder: Path) -> list[Path]:
    found: list[Path] = []
    for top, dirs, files in os.walk(folder):
        depth = len(Path(top).relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < _MAX_DEPTH else []
        for name in sorted(files):
            if name.endswith(TASK_SUFFIXES) and len(found) < MAX_TASK_FILES:
                found.append(Path(top) / name)
    return found


def _named_skills(path: Path) -> list[str]:
    """The skill names a task file names (the last part of each ``skill``/``skills`` path)."""
    try:
        if path.stat().st_size > MAX_TASK_BYTES:
            return []
    except OSError:
        return []
    document = read_document(path).value
    if not isinstance(document, dict):
        return []
    named = document.get("skill")
    values = [named] if isinstance(named, str) else document.get("skills")
    if not isinstance(values, list):
        return []
    return [PurePosixPath(v.rstrip("/")).name for v in values if isinstance(v, str) and v.strip()]


def task_index(skills_root: Path) -> dict[str, list[str]]:
    """Skill name -> the task files naming it, relative to the skills' folder's parent."""
    root = Path(os.path.abspath(skills_root))
    index: dict[str, list[str]] = {}
    for folder in (root.parent / TASKS_DIR, root / TASKS_DIR):
        if not folder.is_dir():
            continue
        for path in _task_files(folder):
            for name in _named_skills(path):
                shown = os.path.relpath(path, root.parent)
                index.setdefault(name, []).append(shown)
    return {name: sorted(set(files)) for name, files in index.items()}
