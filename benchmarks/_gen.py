"""Generated inputs for bench.py: fixtures, a validation corpus and a skill tree.

Everything here only writes files under a directory the caller owns (bench.py
passes a temporary directory). Inputs are deterministic so that two runs of
the benchmark measure the same work.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# runner_selftest is the honest exemption from the anti-slop gates: these
# fixtures measure the runner, not a skill, so trivial commands are allowed.
_KIND = "runner_selftest"

# (type, command, exit code) cycled through the validation corpus so that the
# loader sees every case type and a few command shapes, not one repeated case.
_MIXED_CASES: tuple[tuple[str, list[str], int], ...] = (
    ("positive", ["true"], 0),
    ("negative", ["false"], 1),
    ("adversarial", ["sh", "-c", "exit 3"], 3),
    ("positive", ["bash", "-c", "echo ok; echo warn >&2"], 0),
    ("negative", ["sh", "-c", "echo nope >&2; exit 2"], 2),
)

_SKILL_RUN_SH = '#!/usr/bin/env bash\nset -euo pipefail\necho "ran ${1:-}"\n'


def fixture_document(
    cases: list[dict[str, Any]], trials: int, skill: str = "bench"
) -> dict[str, Any]:
    """Return a version-2 runner_selftest fixture document.

    Args:
        cases: The case objects, in order.
        trials: Trials per case (the schema wants at least 1).
        skill: The fixture's skill name.

    Returns:
        The fixture as a JSON-ready dict.
    """
    return {"version": 2, "skill": skill, "eval_kind": _KIND, "trials": trials, "cases": cases}


def write_json(path: Path, document: object) -> Path:
    """Write ``document`` as JSON to ``path``, creating parent folders; return ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return path


def command_fixture(
    path: Path,
    command: list[str],
    count: int,
    trials: int,
    expected_exit: int = 0,
    evidence_class: str | None = None,
) -> Path:
    """Write a fixture of ``count`` identical positive cases running ``command``.

    Args:
        path: Where to write the fixture.
        command: The argv every case runs.
        count: Number of cases (named ``c000``, ``c001``, ...).
        trials: Trials per case.
        expected_exit: The exit code every case expects.
        evidence_class: The class every case declares; None declares none (``live_e2e``,
            whose trials are traced).

    Returns:
        ``path``.
    """
    declared = {} if evidence_class is None else {"evidence_class": evidence_class}
    cases = [
        {
            "name": f"c{index:03d}",
            "type": "positive",
            "command": command,
            "expected": {"exit_code": expected_exit},
            **declared,
        }
        for index in range(count)
    ]
    return write_json(path, fixture_document(cases, trials))


def validation_corpus(folder: Path, count: int, cases_per_fixture: int) -> list[Path]:
    """Write ``count`` valid fixtures of mixed case types into ``folder``.

    Args:
        folder: The folder to fill (created if missing).
        count: Number of fixtures, named ``f0000.json``, ``f0001.json``, ...
        cases_per_fixture: Cases in each fixture.

    Returns:
        The fixture paths, in name order.
    """
    paths = []
    for number in range(count):
        cases = []
        for index in range(cases_per_fixture):
            kind, command, code = _MIXED_CASES[(number + index) % len(_MIXED_CASES)]
            cases.append(
                {
                    "name": f"f{number}-case-{index}",
                    "type": kind,
                    "command": command,
                    "expected": {"exit_code": code},
                }
            )
        document = fixture_document(cases, trials=2, skill=f"corpus-{number}")
        paths.append(write_json(folder / f"f{number:04d}.json", document))
    return paths


def _skill_fixture(name: str) -> dict[str, Any]:
    """A plausible skill fixture: a real-world run of run.sh and a negative case."""
    return {
        "version": 2,
        "skill": name,
        "trials": 2,
        "cases": [
            {
                "name": "runs",
                "type": "positive",
                "real_world": True,
                "command": ["bash", "-c", "cd .. && bash run.sh go"],
                "expected": {"exit_code": 0, "stdout_contains": ["ran go"]},
            },
            {
                "name": "missing-script-fails",
                "type": "negative",
                "command": ["bash", "-c", "cd .. && bash run.sh go && bash absent.sh"],
                "expected": {"exit_code": 127},
            },
        ],
    }


def skill_tree(root: Path, count: int) -> Path:
    """Write ``count`` skill folders under ``root`` for ``audit-skills``.

    Every skill has a SKILL.md with YAML front matter. Every second skill has
    a run.sh and every third a ``fixtures/agentic_eval.json``, so the tree
    mixes complete skills, skills without a fixture and fixtures without a
    script, as a real skills folder does.

    Args:
        root: The tree's root folder (created if missing).
        count: Number of skills, named ``s000``, ``s001``, ...

    Returns:
        ``root``.
    """
    for number in range(count):
        name = f"s{number:03d}"
        skill = root / name
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Generated benchmark skill number {number}.\n"
            f"composes: [agentic-evals]\n---\n\n# {name}\n\nRun `bash run.sh go`.\n",
            encoding="utf-8",
        )
        if number % 2 == 0:
            (skill / "run.sh").write_text(_SKILL_RUN_SH, encoding="utf-8")
            (skill / "run.sh").chmod(0o755)
        if number % 3 == 0:
            write_json(skill / "fixtures" / "agentic_eval.json", _skill_fixture(name))
    return root
