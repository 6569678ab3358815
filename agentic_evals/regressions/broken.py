"""Make the broken tree of a structural proof: the skill folder with the bug put back.

The tree is made in a new temporary directory and the user's checkout is
never modified:

- ``patch``: a copy of the skill folder (:mod:`.tree_copy`), and the diff
  applied to it by ``git apply`` (all hunks or none);
- ``mutation``: a copy, and one literal edit of one regular file inside it:
  ``find`` must occur exactly ``count`` times (once when absent);
- ``git_ref``: the skill folder as it was at the commit (``git archive``),
  with the original's virtual environments linked in.

The guard is the one of the current tree: for a ``git_ref`` the current
retained fixture is written into the old tree, and a patch or mutation that
edits the retained fixture is refused (it would change the guard, not put the
bug back). Anything that keeps the tree from being made is
:class:`NotApplicable`. The tree is removed when the ``with`` block ends, on
failure and on interrupt too, unless ``keep`` asks to leave it for inspection.
"""

from __future__ import annotations

import os
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from agentic_evals.regressions import git
from agentic_evals.regressions.identity import patch_path
from agentic_evals.regressions.models import Mutation, Regression
from agentic_evals.regressions.protection import retained_fixture_path
from agentic_evals.regressions.tree_copy import copy_tree, link_venvs, remove_tree

PREFIX: Final = "agentic-evals-broken-"
"""Prefix of every broken tree's directory, under the system temporary directory."""


class NotApplicable(Exception):
    """The proof cannot put the bug back (``PROOF_NOT_APPLICABLE``)."""

    tree: Path | None = None
    """With ``keep``: the half-made tree, left for inspection."""


@contextmanager
def broken_tree(
    record: Regression, skill_dir: Path, registry_dir: Path, *, keep: bool = False
) -> Iterator[Path]:
    """Yield the broken skill folder of ``record``'s structural proof.

    Raises:
        NotApplicable: the proof does not apply to the skill folder as it is.
    """
    container = Path(os.path.realpath(tempfile.mkdtemp(prefix=PREFIX)))
    tree = container / skill_dir.resolve().name
    try:
        try:
            _build(record, skill_dir, registry_dir, tree)
        except NotApplicable as error:
            error.tree = tree if keep else None
            raise
        yield tree
    finally:
        if not keep:
            remove_tree(container)


def fixture_in_tree(record: Regression, skill_dir: Path, registry_dir: Path) -> Path:
    """The retained fixture's path relative to the skill folder."""
    fixture = os.path.abspath(retained_fixture_path(record, registry_dir))
    return Path(os.path.relpath(fixture, os.path.abspath(skill_dir)))


def _build(record: Regression, skill_dir: Path, registry_dir: Path, tree: Path) -> None:
    proof = record.fail_before_fix
    assert proof is not None, "only a structural proof has a broken tree"
    fixture = fixture_in_tree(record, skill_dir, registry_dir)
    try:
        guard = (skill_dir / fixture).read_bytes()
    except OSError as error:
        raise NotApplicable(f"the retained fixture cannot be read: {error}") from error
    if proof.git_ref is not None:
        _checkout(proof.git_ref, skill_dir, tree)
        (tree / fixture).parent.mkdir(parents=True, exist_ok=True)
        (tree / fixture).write_bytes(guard)
        return
    try:
        copy_tree(skill_dir, tree)
    except OSError as error:
        raise NotApplicable(f"the skill folder cannot be copied: {error}") from error
    if proof.mutation is not None:
        _mutate(proof.mutation, tree)
    else:
        patch = patch_path(record, registry_dir)
        assert patch is not None
        _apply(patch, tree)
    edited = tree / fixture
    if not edited.is_file() or edited.read_bytes() != guard:
        raise NotApplicable(
            f"the proof edits the retained fixture {fixture}: it must put the bug back in the "
            "skill, not change the guard"
        )


def _apply(patch: Path, tree: Path) -> None:
    try:
        content = patch.read_bytes()
    except OSError as error:
        raise NotApplicable(f"the patch cannot be read: {error.strerror or error}") from error
    # The bytes applied are the bytes hashed: a copy, outside the tree.
    private = tree.parent / "proof.patch"
    private.write_bytes(content)
    applied = git.apply_patch(private, tree)
    if not applied.ok:
        raise NotApplicable(f"the patch does not apply: {applied.error}")


def _mutate(mutation: Mutation, tree: Path) -> None:
    target = tree / mutation.path
    real = Path(os.path.realpath(target))
    if target.is_symlink() or not real.is_relative_to(tree) or not real.is_file():
        raise NotApplicable(f"{mutation.path} is not a regular file of the skill folder")
    data = real.read_bytes()
    find, replace = mutation.find.encode("utf-8"), mutation.replace.encode("utf-8")
    found, wanted = data.count(find), mutation.count or 1
    if found != wanted:
        raise NotApplicable(
            f"find occurs {found} times in {mutation.path}; the mutation expects {wanted}"
        )
    real.write_bytes(data.replace(find, replace))


def _checkout(commit: str, skill_dir: Path, tree: Path) -> None:
    if not hasattr(tarfile, "data_filter"):
        # The filter that refuses links and paths leaving the tree came with Python 3.11.4.
        raise NotApplicable("a git_ref proof needs Python 3.11.4 or later to unpack safely")
    tarball = tree.parent / "tree.tar"
    archived = git.archive(commit, skill_dir.resolve(), tarball)
    if not archived.ok:
        raise NotApplicable(f"the skill folder at {commit} cannot be read: {archived.error}")
    tree.mkdir()
    try:
        with tarfile.open(tarball) as archive:
            if not archive.getmembers():
                raise NotApplicable(f"the skill folder did not exist at {commit}")
            archive.extractall(tree, filter="data")
        link_venvs(skill_dir, tree)
    except (OSError, tarfile.TarError) as error:
        raise NotApplicable(f"the skill folder at {commit} cannot be written: {error}") from error
    finally:
        tarball.unlink(missing_ok=True)
