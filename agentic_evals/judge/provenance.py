"""Provenance: content hashes, evidence identity and git metadata.

Evidence identity (SPEC section 4): a case is identified by two hashes of its
*raw* fixture form (as parsed, before defaults are filled in, so a new model
default does not silently change every hash): ``test_source_sha256``
(:func:`source_sha256`) over the case without ``expected``, and ``oracle_sha256`` over ``expected``.
A report's ``test_source_sha256`` also covers the content of every skill-tree
file the case runs (:func:`case_source_sha256`): a script swapped under an
unchanged case changes it, and so needs re-admission wherever it is pinned.

Git metadata is read from the files under ``.git`` without spawning ``git``.
Refs stored in the ``reftable`` format are not read (the sha is then None).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from agentic_evals.reports.model import RepoInfo

_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_REF_NAME = re.compile(r"refs/(?:[^/\0.][^/\0]*/)*[^/\0.][^/\0]*")
_MAX_SYMREF_DEPTH: Final = 5


def sha256_bytes(data: bytes) -> str:
    """Return the hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def canonical_json(value: Any) -> bytes:
    """Return ``value`` as canonical JSON: sorted keys, no spaces, UTF-8, no NaN.

    Raises:
        ValueError: ``value`` holds NaN or an infinity.
        TypeError: ``value`` holds something JSON cannot represent.
    """
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


def source_sha256(raw_case: Mapping[str, Any]) -> str:
    """Return the hex sha256 of the canonical JSON of a raw case without ``expected``."""
    return sha256_bytes(canonical_json({k: v for k, v in raw_case.items() if k != "expected"}))


def case_source_sha256(raw_case: Mapping[str, Any], skill_files: Mapping[str, str]) -> str:
    """The ``test_source_sha256`` of a case record: the case and the files it runs.

    ``skill_files`` maps each skill-tree file the command runs (its static
    entrypoints) to the sha256 of its bytes. A case that runs none hashes as
    :func:`source_sha256` does.
    """
    if not skill_files:
        return source_sha256(raw_case)
    case = {k: v for k, v in raw_case.items() if k != "expected"}
    return sha256_bytes(canonical_json({"case": case, "skill_files": dict(skill_files)}))


def oracle_sha256(raw_case: Mapping[str, Any]) -> str:
    """Return the hex sha256 of the canonical JSON of a raw case's ``expected``.

    A case without ``expected`` hashes ``null``.
    """
    return sha256_bytes(canonical_json(raw_case.get("expected")))


def trial_settings_sha256(raw_fixture: Mapping[str, Any]) -> str:
    """Return the hex sha256 of the fixture-level settings every trial runs under, raw.

    That is the fixture's ``workspace`` (``null`` when it has none): the cases'
    own hashes do not cover it, yet it decides where every trial runs.
    """
    return sha256_bytes(canonical_json({"workspace": raw_fixture.get("workspace")}))


def repo_info(path: Path) -> RepoInfo | None:
    """Return HEAD's commit and ref for the git checkout holding ``path``.

    Walks up from ``path`` to the first ``.git`` (a directory, or a
    ``gitdir:`` file as in worktrees and submodules). A symbolic HEAD gives
    its ref (``refs/heads/main``) and the commit from the loose ref or
    ``packed-refs``; a detached HEAD gives ref None. A branch with no commits
    yet gives sha None. Returns None outside git or when ``.git`` is unreadable.
    """
    git_dir = _find_git_dir(path)
    if git_dir is None:
        return None
    common_dir = _common_dir(git_dir)
    head = _read_text(git_dir / "HEAD")
    if head is None:
        return None
    if not head.startswith("ref:"):
        return RepoInfo(sha=head if _SHA.fullmatch(head) else None, ref=None)
    ref = head.removeprefix("ref:").strip()
    return RepoInfo(sha=_resolve_ref(ref, git_dir, common_dir), ref=ref)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _find_git_dir(path: Path) -> Path | None:
    start = path.resolve()
    if not start.is_dir():
        start = start.parent
    for directory in (start, *start.parents):
        dot_git = directory / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():
            content = _read_text(dot_git)
            if content is None or not content.startswith("gitdir:"):
                return None
            return (directory / content.removeprefix("gitdir:").strip()).resolve()
    return None


def _common_dir(git_dir: Path) -> Path:
    """Return where shared refs live: ``commondir`` for linked worktrees, else ``git_dir``."""
    pointer = _read_text(git_dir / "commondir")
    if not pointer:
        return git_dir
    return (git_dir / pointer).resolve()


def _resolve_ref(ref: str, git_dir: Path, common_dir: Path) -> str | None:
    """Return the commit ``ref`` names, following symbolic refs a few levels deep."""
    for _ in range(_MAX_SYMREF_DEPTH):
        if not _REF_NAME.fullmatch(ref):
            return None  # never let a crafted HEAD make us read files outside .git
        # Per-worktree refs (refs/bisect, refs/worktree) live in git_dir; branches in common_dir.
        value = _read_text(git_dir / ref) if git_dir != common_dir else None
        if value is None:
            value = _read_text(common_dir / ref)
        if value is None:
            return _packed_ref(ref, common_dir)
        if not value.startswith("ref:"):
            return value if _SHA.fullmatch(value) else None
        ref = value.removeprefix("ref:").strip()
    return None


def _packed_ref(ref: str, common_dir: Path) -> str | None:
    packed = _read_text(common_dir / "packed-refs")
    if packed is None:
        return None
    for line in packed.splitlines():
        if line.startswith(("#", "^")):
            continue  # header, or the peeled target of the tag above
        sha, _, name = line.partition(" ")
        if name.strip() == ref and _SHA.fullmatch(sha):
            return sha
    return None
