"""Where a skill's regression registry is, and the registry-like files that are not one.

A skill folder keeps its registry at ``fixtures/regressions.json``. Other
``fixtures/regressions*`` files (``regressions.local.json`` in the corpus)
are other tools' documents: they are listed, never audited.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentic_evals.contract.layout import FIXTURES_DIR
from agentic_evals.documents.yaml_io import SUFFIXES

REGISTRY = Path(FIXTURES_DIR) / "regressions.json"
"""The registry, relative to the skill folder."""


class RegressionsInputError(Exception):
    """The folder or its registry is missing: invalid input (exit 2)."""


def registry_path(skill_dir: Path) -> Path:
    """The registry of ``skill_dir``.

    Raises:
        RegressionsInputError: ``skill_dir`` is not a folder, or it has no registry.
    """
    if not skill_dir.is_dir():
        raise RegressionsInputError(f"{skill_dir}: not a folder")
    path = skill_dir / REGISTRY
    if not path.is_file():
        seen = "".join(f"; {other}: {why_skipped(other)}" for other in other_registries(skill_dir))
        raise RegressionsInputError(f"{skill_dir}: no {REGISTRY}{seen}")
    return path


def other_registries(skill_dir: Path) -> list[Path]:
    """``fixtures/regressions*`` JSON/YAML files other than the registry, by name."""
    fixtures = skill_dir / REGISTRY.parent
    try:
        names = sorted(os.listdir(fixtures))
    except OSError:
        return []
    return [
        fixtures / name
        for name in names
        if name.startswith("regressions")
        and name != REGISTRY.name
        and name.endswith(SUFFIXES)
        and (fixtures / name).is_file()
    ]


def why_skipped(path: Path) -> str:
    """Why a registry-like file other than the registry is not audited."""
    from agentic_evals.documents.yaml_io import read_document
    from agentic_evals.regressions.load import foreign_format

    declared = foreign_format(read_document(path).value)
    if declared is not None:
        return f"not an agentic-evals regression registry: it declares {declared!r}"
    return f"not audited: only {REGISTRY} is"


def skill_folders(root: Path) -> list[Path]:
    """Immediate subfolders of ``root``, by name.

    Raises:
        RegressionsInputError: ``root`` is not a folder that can be listed.
    """
    if not root.is_dir():
        raise RegressionsInputError(f"{root}: not a folder")
    try:
        with os.scandir(root) as entries:
            folders = [Path(entry.path) for entry in entries if entry.is_dir()]
    except OSError as exc:
        raise RegressionsInputError(f"{root}: cannot list: {exc.strerror or exc}") from None
    return sorted(folders, key=lambda folder: folder.name)
