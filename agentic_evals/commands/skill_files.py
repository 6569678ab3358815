"""Hashes of the skill-tree files a case's command runs (its entrypoints).

A case's ``test_source_sha256`` and ``oracle_sha256`` cover what the fixture
says; the files the command runs can change while both stay equal. Each case
report therefore names, in ``skill_files``, every skill-tree file its command
runs, as the structural reading of the command resolves it
(:mod:`agentic_evals.commands.analysis`: a script given to an interpreter, an
executable path), with the sha256 of its bytes. ``compare`` lists the ones
that changed between two runs; the history tells a flaky case from one whose
files changed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from agentic_evals.commands.analysis import CommandAnalysis


class SkillFiles:
    """Hashes the entrypoint files of one run once, however many cases run them."""

    def __init__(self, skill_tree: Path) -> None:
        self._root = skill_tree.resolve()
        self._hashes: dict[Path, str | None] = {}

    def of(self, analysis: CommandAnalysis) -> dict[str, str]:
        """Skill-relative POSIX path to ``sha256:<hex>`` of each file ``analysis`` runs, sorted.

        A file that cannot be read (removed meanwhile, no permission) is left out:
        there is no content to name.
        """
        found: dict[str, str] = {}
        for _, verdict in analysis.entrypoints:
            target = verdict.target
            if target is None or not target.is_relative_to(self._root):
                continue
            if target not in self._hashes:
                self._hashes[target] = file_sha256(target)
            digest = self._hashes[target]
            if digest is not None:
                found[target.relative_to(self._root).as_posix()] = digest
        return dict(sorted(found.items()))


def file_sha256(path: Path) -> str | None:
    """``sha256:<hex>`` of the file's bytes, or None when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return f"sha256:{hashlib.file_digest(handle, 'sha256').hexdigest()}"
    except OSError:
        return None
