"""Shortcut family "No-op entrypoints": a skill program that does nothing is no live path."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from shortcut_helpers import live, live_case, load_skill, run_skill

from agentic_evals import codes

PROSE = {"stdout_contains": ["deployed to production"]}
TRUE = shutil.which("true") or "/bin/true"
SAYS = "echo 'deployed to production'"
"""The case prints the prose itself after the program: its check fails on the null trial, so the
load-time gate lets it run and only the trace can tell that the program did nothing."""


@pytest.mark.parametrize(
    ("content", "command"),
    [
        ("exit 0\n", ["bash", "-c", f"bash ../run.sh && {SAYS}"]),
        (
            "#!/bin/sh\n# the real work is elsewhere\necho 'deployed to production'\n",
            ["bash", "../run.sh"],
        ),
        ("", ["bash", "-c", f"bash ../run.sh && {SAYS}"]),
        ("#!/bin/true\npython3 deploy.py\n", ["bash", "-c", f"../run.sh && {SAYS}"]),
        ("print('deployed to production')\n", ["python3", "../run.py"]),
        ("cat <<'EOF'\ndeployed to production\nEOF\n", ["bash", "../run.sh"]),
        ("say() { echo 'deployed to production'; }\nsay\n", ["bash", "../run.sh"]),
        ("set -e\nsleep 0\necho 'deployed to production' | cat\n", ["bash", "../run.sh"]),
        ("import sys\nsys.stdout.write('deployed to production\\n')\n", ["python3", "../run.py"]),
    ],
    ids=[
        "exit-0",
        "echoes-the-prose",
        "empty-file",
        "true-shebang",
        "python-print",
        "here-document",
        "function-that-echoes",
        "bookkeeping-and-a-pipe",
        "python-stdout-write",
    ],
)
def test_a_program_that_does_nothing_is_not_live(
    tmp_path: Path, content: str, command: list[str]
) -> None:
    name = "run.py" if command[0] == "python3" else "run.sh"
    report = run_skill(tmp_path, {name: content}, live_case(command, PROSE, readback=True))
    case = live(report)
    assert case.outcome == "PASS"
    assert codes.LIVE_NO_ENTRYPOINT in case.evidence_disqualifiers
    assert (case.live_qualified, case.effective_evidence_class) == (False, "deterministic")
    trace = case.trials[0].file_trace
    assert trace is not None and trace.entrypoints == [] and trace.trivial


def test_a_symlink_to_true_in_the_tree_runs_a_file_outside_it(tmp_path: Path) -> None:
    skill = tmp_path / "demo"
    skill.mkdir()
    os.symlink(TRUE, skill / "run")
    # Read at load already: the command resolves outside the tree.
    loaded = load_skill(tmp_path, {}, live_case(["../run"], {}, readback=True))
    assert loaded.model is None
    assert "AE-SLOP-NO-REAL-WORLD" in [f.code for f in loaded.findings]


def test_a_copy_of_true_in_the_tree_is_a_no_op(tmp_path: Path) -> None:
    skill = tmp_path / "demo"
    skill.mkdir()
    shutil.copy(TRUE, skill / "run")
    command = ["bash", "-c", f"../run && {SAYS}"]
    report = run_skill(tmp_path, {}, live_case(command, PROSE, readback=True))
    case = live(report)
    assert codes.LIVE_NO_ENTRYPOINT in case.evidence_disqualifiers
    trace = case.trials[0].file_trace
    assert trace is not None
    assert trace.trivial == ["run: a byte copy of a system no-op program"]


def test_the_honest_program_is_live(tmp_path: Path) -> None:
    report = run_skill(tmp_path, {}, live_case(["bash", "../honest.sh"]))
    case = live(report)
    assert (case.outcome, case.live_qualified, case.evidence_disqualifiers) == ("PASS", True, [])
    trace = case.trials[0].file_trace
    assert trace is not None and trace.entrypoints == ["honest.sh"]
    assert trace.artifacts == {"out/r.json": "entrypoint"}
