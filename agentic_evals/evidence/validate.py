"""Validate many fixtures at once: files and folders, in one process."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.layout import is_fixture_name
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.yaml_io import SUFFIXES
from agentic_evals.evidence.gates import load_fixture


class FileVerdict(NamedTuple):
    """One fixture file and what its load-time checks found."""

    path: Path
    valid: bool
    findings: list[Finding]


class Validation(NamedTuple):
    """The verdicts over every fixture given or found."""

    files: list[FileVerdict]
    skipped: list[Path]
    """Files in a folder that are not fixtures (other JSON or YAML documents)."""

    @property
    def valid(self) -> bool:
        """Every fixture is valid (and there was at least one)."""
        return bool(self.files) and all(verdict.valid for verdict in self.files)


def _documents_below(folder: Path) -> list[Path]:
    found: list[Path] = []
    for directory, subdirs, names in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        found.extend(Path(directory, name) for name in sorted(names) if name.endswith(SUFFIXES))
    return found


def validate_paths(paths: list[Path], *, strict: bool = False) -> Validation:
    """Load and check every fixture among ``paths``; nothing runs.

    A file is always checked. A folder is searched recursively for JSON and
    YAML files: those named ``agentic_eval*`` are checked whatever they hold;
    any other is checked when it is an object with ``cases`` and no ``schema``
    (a fixture), and listed as skipped otherwise (a report, a registry, a
    category map...).
    """
    files: list[FileVerdict] = []
    skipped: list[Path] = []
    for given in paths:
        candidates = _documents_below(given) if given.is_dir() else [given]
        for path in candidates:
            result = load_fixture(path, strict=strict)
            document = result.document
            # Reports and registries name their type in "schema"; fixtures do not.
            is_fixture = (
                isinstance(document, dict) and "cases" in document and "schema" not in document
            )
            if given.is_dir() and not is_fixture and not is_fixture_name(path.name):
                skipped.append(path)
                continue
            files.append(FileVerdict(path, result.ok, result.findings))
    return Validation(files, skipped)
