"""Shared helpers of the isolation and containment tests: fixtures, runs, what is available."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import builders
import pytest
from builders import write_fixture

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import Report
from agentic_evals.runner import kernel
from agentic_evals.runner.containment import network
from agentic_evals.runner.containment.hierarchies import choose, discover
from agentic_evals.runner.isolation.support import disabled_mechanisms, probe

DISABLED = disabled_mechanisms(os.environ)
"""What ``AGENTIC_EVALS_DISABLE`` turns off for the whole test session (to test without)."""


@functools.cache
def overlay_problem() -> str | None:
    """Why this machine cannot mount trial overlays (None when it can)."""
    with tempfile.TemporaryDirectory() as tree:
        return probe(Path(tree).resolve(), DISABLED).overlay


@functools.cache
def parallel_problem() -> str | None:
    """Why ``--jobs`` runs serially here (no cgroups, no private namespaces); None when not."""
    if cgroup_problem() is None:
        return None
    with tempfile.TemporaryDirectory() as tree:
        namespaces = probe(Path(tree).resolve(), DISABLED).namespaces
    return None if namespaces is None else f"no cgroups, and {namespaces}"


def serial_note(text: str) -> bool:
    """Whether a summary note says that a parallel run ran serially."""
    return text.startswith("--jobs") and "ran serially" in text


@functools.cache
def cgroup_problem() -> str | None:
    """Why trials get no cgroup here (None when they do)."""
    if "cgroups" in DISABLED:
        return "turned off by AGENTIC_EVALS_DISABLE"
    choice = choose(discover())
    if choice is None:
        return "no writable cgroup hierarchy (needs root or a delegated cgroup)"
    return None if choice.pids is not None else "no pids controller to limit with"


@functools.cache
def netns_problem() -> str | None:
    """Why ``network: none`` is not available here (None when it is)."""
    if "netns" in DISABLED:
        return "turned off by AGENTIC_EVALS_DISABLE"
    if not kernel.capable_sys_admin() and overlay_problem() is not None:
        return "neither root nor a user namespace"
    return network.probe()


needs_overlay = pytest.mark.skipif(
    overlay_problem() is not None, reason=f"overlay mounts unavailable: {overlay_problem()}"
)
needs_cgroups = pytest.mark.skipif(
    cgroup_problem() is not None, reason=f"cgroups unavailable: {cgroup_problem()}"
)
needs_prlimit = pytest.mark.skipif(
    shutil.which("prlimit") is None, reason="prlimit (util-linux) is not installed"
)
needs_netns = pytest.mark.skipif(
    netns_problem() is not None, reason=f"network namespaces unavailable: {netns_problem()}"
)


def fixture(skill: Path, cases: list[dict[str, Any]], trials: int = 2, **top: Any) -> Path:
    """Write a runner_selftest fixture of ``cases`` into ``skill`` (created) and return it."""
    skill.mkdir(parents=True, exist_ok=True)
    document = builders.fixture(
        cases, skill="probe", eval_kind="runner_selftest", trials=trials, **top
    )
    return write_fixture(skill, document, "fixture.json")


def case(name: str, script: str, **fields: Any) -> dict[str, Any]:
    """A positive case running ``bash -c script``; ``expected`` and other fields as given."""
    expected = {"exit_code": 0, **fields.pop("expected", {})}
    return builders.case(name, command=("bash", "-c", script), expected=expected, **fields)


def run(path: Path, **options: Any) -> Report:
    """Load and run the fixture at ``path``."""
    loaded = load_fixture(path)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report
