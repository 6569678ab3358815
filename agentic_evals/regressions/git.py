"""The git commands a structural proof needs, run through the runner like any process.

``git apply`` applies a patch (a real implementation of unified diffs:
context, offsets, renames, modes; all hunks or none) in a broken tree that is
no repository: ``GIT_CEILING_DIRECTORIES`` stops git from finding one above
it, so paths stay relative to the tree. ``git archive`` writes the skill
folder as it was at a commit, without touching the user's checkout, index or
worktree list. ``git rev-parse`` turns a ref into the full commit id a record
keeps. Variables such as ``GIT_DIR`` from the caller's environment are left
out, so that git works on the repository the skill folder is in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, NamedTuple

from agentic_evals import clock
from agentic_evals.runner.environment import base_environment, trial_environment
from agentic_evals.runner.process import run_process

GIT_TIMEOUT: Final = 300.0
"""Seconds a git command may take (an archive of a large tree is the slow one)."""
_TAIL: Final = 4000


class GitRun(NamedTuple):
    """What a git command did."""

    ok: bool
    """It exited 0."""
    output: str
    """Its stdout, stripped."""
    error: str
    """Why it failed: its stderr's last lines, or why it could not start."""


def run_git(args: list[str], cwd: Path, *, ceiling: Path | None = None) -> GitRun:
    """Run ``git ARGS`` in ``cwd``; with ``ceiling``, git looks for no repository above it."""
    env = {k: v for k, v in base_environment().items() if not k.startswith("GIT_")}
    env["LC_ALL"] = "C"
    if ceiling is not None:
        env["GIT_CEILING_DIRECTORIES"] = str(ceiling)
    env = trial_environment(
        env, {}, run_id=clock.new_run_id(), case_name="regression-proof:git", trial=1
    )
    result = run_process(["git", *args], cwd=cwd, env=env, timeout=GIT_TIMEOUT)
    try:
        if result.start_error is not None:
            return GitRun(False, "", f"git could not start: {result.start_error}")
        if result.timed_out:
            return GitRun(False, "", f"git {args[0]} timed out after {GIT_TIMEOUT:g}s")
        stdout = result.stdout.tail(_TAIL).decode("utf-8", errors="replace").strip()
        stderr = result.stderr.tail(_TAIL).decode("utf-8", errors="replace").strip()
        lines = [line for line in stderr.splitlines() if line.strip()]
        error = "; ".join(lines[-3:]) or f"git {args[0]} exited {result.exit_code}"
        return GitRun(result.exit_code == 0, stdout, "" if result.exit_code == 0 else error)
    finally:
        result.close()


def apply_patch(patch: Path, tree: Path) -> GitRun:
    """Apply the unified diff ``patch`` to the files of ``tree`` (all hunks or none)."""
    return run_git(["apply", "--whitespace=nowarn", str(patch)], tree, ceiling=tree.parent)


def archive(commit: str, skill_dir: Path, tarball: Path) -> GitRun:
    """Write ``skill_dir`` as it was at ``commit`` (paths relative to it) to ``tarball``."""
    return run_git(["archive", "--format=tar", f"--output={tarball}", commit], skill_dir)


def resolve_commit(ref: str, skill_dir: Path) -> GitRun:
    """The full commit id ``ref`` names in the repository holding ``skill_dir``."""
    return run_git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], skill_dir)
