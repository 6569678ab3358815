"""Builders shared by every test: skill trees on disk, cases and fixtures, report records.

Tests describe what differs from an ordinary value and leave the rest to
these builders, so that one change to the fixture format is one change here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_evals.oracles.regex import compile_pattern
from agentic_evals.reports.model import (
    CaseOutcome,
    CaseReport,
    Problem,
    StreamStats,
    TrialOutcome,
    TrialReport,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
AGENT_SKILLS = SHARED / "corpus" / "agent-skills"
"""The compatibility corpus: real skills and their fixtures."""
SKILLS_TREE = SHARED / "corpus" / "skills-tree-2026-01"
"""A real tree of skills, for the skill-tree audits."""
SCHEMAS = REPO / "schemas"

DESCRIBED = "description: A skill of the tests.\n"
"""The description every skill's front matter needs (the Agent Skills specification)."""
COMPOSED = DESCRIBED + "metadata:\n  composes: agentic-evals\n"
"""Front matter of a skill that says it is evaluated by agentic-evals."""
PROD_SH = (
    "#!/usr/bin/env bash\nphase=$(echo settled | tr -d '\\n')\n"
    'printf \'{"phase": "%s"}\' "$phase" > receipt.json\necho settled\n'
)
"""A production entrypoint that writes a receipt and says so."""
PROD = {"prod.sh": PROD_SH}
RECEIPT = {"path": "receipt.json", "json_pointer": "/phase", "equals": "settled"}
"""An artifact check that reads ``prod.sh``'s receipt back."""
RUN_OK = {"run.sh": "#!/bin/sh\nset -- ok\nprintf '%s\\n' \"$1\" | tr -d '\\r'\n"}


def make_skill(
    root: Path,
    name: str | None = None,
    front: str | None = COMPOSED,
    *,
    files: Mapping[str, object] | None = None,
    skill_md: str | None = None,
    fixture: object = None,
    fixture_name: str = "agentic_eval.json",
    registry: object = None,
) -> Path:
    """A skill folder (``root/name``, or ``root``) with a SKILL.md and the files given.

    Args:
        root: Where the folder goes (it is the folder itself without ``name``).
        name: The folder name under ``root``.
        front: The SKILL.md front matter body; ``None`` writes a SKILL.md without any.
        files: Relative path to content: a string is written as is, anything else
            as JSON. ``.sh`` files are made executable; a path ending in ``/`` is a folder.
        skill_md: The whole SKILL.md, verbatim (``front`` is then ignored).
        fixture: A fixture document (or text) written to ``fixtures/<fixture_name>``.
        fixture_name: The fixture's file name.
        registry: A regression registry (or text) written to ``fixtures/regressions.json``.

    Returns:
        The skill folder.
    """
    folder = root / name if name else root
    folder.mkdir(parents=True, exist_ok=True)
    label = name or folder.name
    if skill_md is None:
        skill_md = (
            f"# {label}\n" if front is None else f"---\nname: {label}\n{front}---\n# {label}\n"
        )
    (folder / "SKILL.md").write_text(skill_md, encoding="utf-8")
    written: dict[str, object] = dict(files or {})
    if fixture is not None:
        written[f"fixtures/{fixture_name}"] = fixture
    if registry is not None:
        written["fixtures/regressions.json"] = registry
    for rel, content in written.items():
        if rel.endswith("/"):
            (folder / rel).mkdir(parents=True, exist_ok=True)
        else:
            write_file(folder / rel, content)
    return folder


def write_file(path: Path, content: object) -> Path:
    """Write ``content`` (text, or a JSON value) to ``path``; ``.sh`` files are executable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else json.dumps(content, indent=2)
    path.write_text(text, encoding="utf-8")
    if path.suffix == ".sh":
        path.chmod(0o755)
    return path


def case(
    name: str = "c",
    type: str = "positive",
    command: Sequence[str] = ("true",),
    expected: Mapping[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A case document: ``expected`` defaults to ``exit_code: 0``, ``fields`` add the rest."""
    return {
        "name": name,
        "type": type,
        "command": list(command),
        "expected": dict(expected if expected is not None else {"exit_code": 0}),
        **fields,
    }


def fixture(cases: Sequence[Mapping[str, Any]], **top: Any) -> dict[str, Any]:
    """A fixture document (format version 2) of the skill ``demo``, 2 trials per case."""
    return {"version": 2, "skill": "demo", "trials": 2, **top, "cases": [dict(c) for c in cases]}


def write_fixture(directory: Path, document: object, name: str = "agentic_eval.json") -> Path:
    """Write a fixture document into ``directory``; returns its path."""
    return write_file(directory / name, document)


EMPTY_STREAM = StreamStats(total_bytes=0, kept_bytes=0, truncated=False)


def trial_report(
    trial_id: str = "s::c#1",
    outcome: TrialOutcome = "PASS",
    problems: Sequence[Problem] = (),
    **fields: Any,
) -> TrialReport:
    """A trial record that exited 0 in no time, printing nothing; ``fields`` override."""
    values: dict[str, Any] = {
        "trial_id": trial_id,
        "outcome": outcome,
        "problems": list(problems),
        "exit_code": 0,
        "timed_out": False,
        "duration_ms": 1,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "stdout_stats": EMPTY_STREAM,
        "stderr_stats": EMPTY_STREAM,
        "orphan_pids_after_teardown": [],
        "artifact_hashes": {},
        **fields,
    }
    return TrialReport(**values)


def case_report(
    name: str = "c",
    outcome: CaseOutcome = "PASS",
    *,
    required: bool = True,
    passed: int | None = None,
    total: int = 2,
    trials: Sequence[TrialReport] | None = None,
    **fields: Any,
) -> CaseReport:
    """A case record of skill ``s``; its trials follow ``outcome`` unless given.

    ``passed`` defaults to every trial for a PASS and none otherwise.
    """
    if passed is None:
        passed = total if outcome == "PASS" else 0
    if trials is None:
        trials = [
            trial_report(f"s::{name}#{n}", "PASS" if n <= passed else _failed(outcome))
            for n in range(1, total + 1)
        ]
    values: dict[str, Any] = {
        "case_id": f"s::{name}",
        "name": name,
        "type": "positive",
        "required": required,
        "outcome": outcome,
        "flaky": 0 < passed < total,
        "problems": [],
        "argv": ["true"],
        "declared_evidence_class": "deterministic",
        "effective_evidence_class": "deterministic",
        "live_qualified": False,
        "evidence_disqualifiers": [],
        "supports_claims": [],
        "seams": [],
        "test_source_sha256": "0" * 64,
        "oracle_sha256": "1" * 64,
        "passed_trials": passed,
        "total_trials": len(trials),
        "pass_rate": passed / len(trials) if trials else None,
        "trials": list(trials),
        **fields,
    }
    return CaseReport(**values)


def _failed(outcome: CaseOutcome) -> TrialOutcome:
    return (
        "BLOCKED" if outcome == "BLOCKED" else "NOT_TESTED" if outcome == "NOT_TESTED" else "FAIL"
    )


@dataclass(frozen=True)
class FakeStream:
    """A captured stream: kept bytes, plus how many were written in all (more: truncated)."""

    data: bytes = b""
    written: int | None = None

    @property
    def total_bytes(self) -> int:
        return len(self.data) if self.written is None else self.written

    @property
    def kept_bytes(self) -> int:
        return len(self.data)

    @property
    def truncated(self) -> bool:
        return self.total_bytes > self.kept_bytes

    def contains(self, needle: bytes) -> bool:
        return needle in self.data

    def saw_all(self, needle: bytes) -> bool:
        return not self.truncated

    def matches(self, pattern: str) -> bool:
        return compile_pattern(pattern).search(self.data)

    def excerpt(self, limit_chars: int = 10_000) -> str:
        return self.data.decode("utf-8", errors="replace")[:limit_chars]


@dataclass(frozen=True)
class FakeProcess:
    """What the process layer observed of a trial, without running one."""

    exit_code: int | None = 0
    term_signal: int | None = None
    timed_out: bool = False
    start_error: str | None = None
    duration_ms: int = 5
    stdout: FakeStream = field(default_factory=FakeStream)
    stderr: FakeStream = field(default_factory=FakeStream)
    orphan_pids: tuple[int, ...] = ()
