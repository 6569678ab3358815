"""Hashes of the skill-tree files a case's command runs (its entrypoints).

A case's ``test_source_sha256`` and ``oracle_sha256`` cover what the fixture
says; the files the command runs can change while both stay equal. Each case
report therefore names, in ``skill_files``, every skill-tree file its command
runs, as the structural reading of the command resolves it today
(:mod:`agentic_evals.contract.commands`: a script given to an interpreter, an
executable path, a ``python -m`` module of the tree), with the sha256 of its
bytes. ``compare`` lists the ones that changed between two runs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from agentic_evals.contract.commands import analyze, skill_root
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.rules.anti_slop import case_context

_CHUNK = 1 << 20


class SkillFiles:
    """Hashes entrypoint files once per run, however many cases run them."""

    def __init__(self, fixture: Fixture, fixture_dir: Path) -> None:
        self._fixture = fixture
        self._fixture_dir = fixture_dir
        self._root = skill_root(fixture_dir).resolve()
        self._hashes: dict[Path, str | None] = {}

    def of(self, case: Case) -> dict[str, str]:
        """Skill-relative POSIX path to ``sha256:<hex>`` of each file ``case`` runs, sorted.

        A file that cannot be read (removed meanwhile, no permission) is left out:
        there is no content to name.
        """
        analysis = analyze(case.command, case_context(self._fixture, case, self._fixture_dir))
        found: dict[str, str] = {}
        for _, verdict in analysis.entrypoints:
            target = verdict.target
            if target is None or not target.is_relative_to(self._root):
                continue
            digest = self._digest(target)
            if digest is not None:
                found[target.relative_to(self._root).as_posix()] = digest
        return dict(sorted(found.items()))

    def _digest(self, path: Path) -> str | None:
        if path not in self._hashes:
            self._hashes[path] = file_sha256(path)
        return self._hashes[path]


def file_sha256(path: Path) -> str | None:
    """``sha256:<hex>`` of the file's bytes, or None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return None
    return f"sha256:{digest.hexdigest()}"
