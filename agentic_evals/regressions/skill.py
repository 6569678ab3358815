"""Where a skill's regression registry is, and the registry-like files that are not one.

A skill folder keeps its registry at ``fixtures/regressions.json``, or, when
its evals live outside it, the evals tree does at
``<evals>/<skill>/regressions.json`` (its ``retained_fixture`` then names a
fixture of that folder). Other
``fixtures/regressions*`` files (``regressions.local.json`` in the corpus)
are other tools' documents: they are listed, never audited.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentic_evals.contract.layout import FIXTURES_DIR, evals_tree
from agentic_evals.documents.yaml_io import SUFFIXES

REGISTRY = Path(FIXTURES_DIR) / "regressions.json"
"""The registry, relative to the skill folder."""


class RegressionsInputError(Exception):
    """The folder or its registry is missing: invalid input (exit 2)."""


def find_registry(skill_dir: Path, evals: Path | None) -> Path | None:
    """The registry of ``skill_dir``: its own, else the evals tree's (``evals`` is that tree)."""
    own = skill_dir / REGISTRY
    if own.is_file() or evals is None:
        return own if own.is_file() else None
    outside = evals / Path(os.path.abspath(skill_dir)).name / REGISTRY.name
    return outside if outside.is_file() else None


def registry_path(skill_dir: Path, evals: Path | None = None) -> Path:
    """The registry of ``skill_dir`` (``evals``: the evals tree, default ``evals/`` beside).

    Raises:
        RegressionsInputError: ``skill_dir`` is not a folder, or it has no registry.
    """
    if not skill_dir.is_dir():
        raise RegressionsInputError(f"{skill_dir}: not a folder")
    path = find_registry(skill_dir, evals_tree(Path(os.path.abspath(skill_dir)).parent, evals))
    if path is None:
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
