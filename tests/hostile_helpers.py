"""Helpers of the hostile-input tests: one in-process call of the CLI, and sample inputs.

:func:`cli` runs a command line exactly as ``agentic-evals`` does (the same
last line of defence, the same exit codes) and returns the exit code with
what was printed; every call also checks the two promises that hold for any
input: no exit 3 and no traceback.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest

from agentic_evals.cli.app import run_cli

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "fixtures" / "samples"

__all__ = [
    "OUT",
    "REPO",
    "SAMPLES",
    "WRITERS",
    "Ended",
    "Inputs",
    "cli",
    "make_inputs",
    "sample_report",
    "small_fixture",
    "writer_args",
]


class Ended(NamedTuple):
    code: int
    out: str
    err: str


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> Ended:
    """Run ``agentic-evals ARGS`` in this process; never an internal error, never a traceback."""
    capsys.readouterr()
    code = run_cli([str(arg) for arg in args])
    out, err = capsys.readouterr()
    assert code != 3, err
    assert "Traceback" not in err and "internal error" not in err, err
    return Ended(code, out, err)


def small_fixture(directory: Path, name: str = "agentic_eval.json") -> Path:
    """A valid runner self-test fixture of two quick cases."""
    document = {
        "version": 2,
        "skill": "s",
        "eval_kind": "runner_selftest",
        "trials": 1,
        "cases": [
            {
                "name": name,
                "type": "positive",
                "command": ["echo", name],
                "expected": {"exit_code": 0, "stdout_contains": [name]},
            }
            for name in ("hello", "goodbye")
        ],
    }
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def sample_report(directory: Path, name: str, *options: str) -> Path:
    """A real report of :func:`small_fixture`, written by ``run`` with ``options``."""
    report = directory / name
    fixture = small_fixture(directory / f"{name}.skill")
    assert run_cli(["run", str(fixture), "-o", str(report), "-q", *options]) == 0
    return report


class Inputs(NamedTuple):
    """What the writing commands read: a fixture, reports, a skill folder, a tree of one skill."""

    fixture: Path
    base: Path
    head: Path
    shard1: Path
    shard2: Path
    skill: Path
    tree: Path


def make_inputs(directory: Path) -> Inputs:
    skill = directory / "skill"
    shutil.copytree(SAMPLES / "demo-skill", skill)
    tree = directory / "tree"
    (tree / "demo").mkdir(parents=True)
    (tree / "demo" / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Prints a greeting.\n---\n# Demo\n", encoding="utf-8"
    )
    return Inputs(
        small_fixture(directory / "fixture"),
        sample_report(directory, "base.json"),
        sample_report(directory, "head.json"),
        sample_report(directory, "shard1.json", "--shard", "1/2"),
        sample_report(directory, "shard2.json", "--shard", "2/2"),
        skill,
        tree,
    )


OUT = "{OUT}"
"""Stands for the output under test in :data:`WRITERS`."""

WRITERS: dict[str, tuple[str, ...]] = {
    "run -o": ("run", "{fixture}", "-q", "-o", OUT),
    "run --junit-xml": ("run", "{fixture}", "-q", "--junit-xml", OUT),
    "run --html": ("run", "{fixture}", "-q", "--html", OUT),
    "run --markdown": ("run", "{fixture}", "-q", "--markdown", OUT),
    "validate -o": ("validate", "{fixture}", "-o", OUT),
    "merge -o": ("merge", "{shard1}", "{shard2}", "-o", OUT),
    "report -o": ("report", "{base}", "--format", "markdown", "-o", OUT),
    "compare -o": ("compare", "{base}", "{head}", "-o", OUT),
    "schema -o": ("schema", "fixture", "-o", OUT),
    "audit-skills -o": ("audit-skills", "{tree}", "-o", OUT),
    "apply-scaffolds -o": ("apply-scaffolds", "{tree}", "-o", OUT),
    "regressions verify -o": ("regressions", "verify", "{skill}", "-o", OUT),
    "plan-journeys -o": (
        "plan-journeys",
        "--fixture",
        "{fixture}",
        "--requirements",
        "{base}",
        "--interaction-inventory",
        "{base}",
        "--state-graph",
        "{base}",
        "-o",
        OUT,
    ),
}
"""Every command that writes a file it is given, with the inputs it reads."""


def writer_args(name: str, inputs: Inputs, output: Path | str) -> list[str]:
    """The command line of writer ``name`` with its inputs and ``output`` filled in."""
    fields = {key: str(value) for key, value in inputs._asdict().items()}
    return [str(output) if part == OUT else part.format(**fields) for part in WRITERS[name]]
