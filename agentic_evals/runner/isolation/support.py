"""What this kernel and this process allow, found once per run, before any trial.

Private views need a mount namespace per trial thread and overlay mounts in
it. As root (CAP_SYS_ADMIN) both are there directly. Otherwise the runner
moves itself into a user namespace of its own, which only a single-threaded
process can do (so this happens before any trial thread exists); the kernel
then allows overlays from 5.11 on. Every answer is tried for real: a thread
enters a private namespace and mounts an overlay of the skill tree on a
scratch directory, and whatever fails is the reason given in the report.

``AGENTIC_EVALS_DISABLE`` (comma-separated: ``overlay``, ``namespaces``,
``userns``, ``cgroups``, ``watchdog``, ``netns``, ``rlimits``, ``pdeathsig``)
turns mechanisms off, to see or test what a run does without them.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agentic_evals.runner import kernel
from agentic_evals.runner.isolation.mounts import ThreadMounts
from agentic_evals.runner.isolation.overlay import Overlay

DISABLE_VAR = "AGENTIC_EVALS_DISABLE"


def disabled_mechanisms(environ: Mapping[str, str]) -> frozenset[str]:
    """The mechanisms ``AGENTIC_EVALS_DISABLE`` turns off."""
    words = environ.get(DISABLE_VAR, "").replace(" ", ",").split(",")
    return frozenset(word for word in words if word)


@dataclass(frozen=True)
class Support:
    """What private views can use in this run."""

    namespaces: str | None
    """Why trial threads cannot have private mount namespaces; None when they can."""
    overlay: str | None
    """Why overlays cannot be mounted; None when they can."""
    user_namespace: bool
    """The runner moved into a user namespace of its own to mount without root."""


_probed: dict[tuple[Path, frozenset[str]], Support] = {}


def probe(tree: Path, disabled: frozenset[str]) -> Support:
    """Find out whether trial threads can have private namespaces and overlays of ``tree``.

    The answer is kept for the process: what the kernel allows does not change.
    """
    key = (tree, disabled)
    if key not in _probed:
        _probed[key] = _probe(tree, disabled)
    return _probed[key]


def _probe(tree: Path, disabled: frozenset[str]) -> Support:
    if "namespaces" in disabled:
        return Support("turned off by AGENTIC_EVALS_DISABLE", "no private namespaces", False)
    user_ns, problem = _privilege(disabled)
    if problem is not None:
        return Support(problem, f"no private namespaces: {problem}", False)
    outcome: list[tuple[str | None, str | None]] = []
    worker = threading.Thread(
        target=lambda: outcome.append(_try_mounts(tree, disabled, user_ns)),
        name="agentic-evals-probe",
    )
    worker.start()
    worker.join()
    namespaces, overlay = outcome[0] if outcome else ("the probe failed", "the probe failed")
    return Support(namespaces, overlay, user_ns)


def _privilege(disabled: frozenset[str]) -> tuple[bool, str | None]:
    """Whether the runner is in its own user namespace, and why it cannot mount if it cannot."""
    if kernel.capable_sys_admin():
        return False, None
    if "userns" in disabled:
        return False, "not root, and user namespaces are turned off by AGENTIC_EVALS_DISABLE"
    if not kernel.single_threaded():
        return False, "not root, and a user namespace needs a single-threaded runner"
    try:
        kernel.enter_user_namespace()
    except OSError as error:
        return False, f"not root, and no user namespace: {error.strerror or error}"
    return True, None


def _try_mounts(
    tree: Path, disabled: frozenset[str], user_ns: bool
) -> tuple[str | None, str | None]:
    """Enter a private namespace and mount an overlay of ``tree`` (in a throwaway thread)."""
    try:
        mounts = ThreadMounts.enter("probe", user_namespace=user_ns, restore=False)
    except OSError as error:
        reason = f"no private mount namespace: {error.strerror or error}"
        return reason, reason
    try:
        return None, _overlay_problem(mounts, tree, disabled)
    finally:
        mounts.release()


def _overlay_problem(mounts: ThreadMounts, tree: Path, disabled: frozenset[str]) -> str | None:
    if "overlay" in disabled:
        return "turned off by AGENTIC_EVALS_DISABLE"
    temporary = Path(os.path.realpath(tempfile.gettempdir()))
    if temporary == tree or temporary.is_relative_to(tree):
        return f"the skill tree {str(tree)!r} holds the temporary directory"
    try:
        overlay = Overlay(mounts, mounts.lower(tree), mounts.scratch("probe"))
    except OSError as error:
        return f"the kernel refused an overlay of the skill tree: {error.strerror or error}"
    overlay.unmount()
    return None
