"""GitHub Actions: workflow annotations and the job step summary.

Under ``GITHUB_ACTIONS=true``, ``run`` and ``merge`` print annotations for
failing cases (at the case's line in the fixture) and for load findings, and
append the Markdown summary to ``$GITHUB_STEP_SUMMARY``. Ranked: errors (load
errors, then failing required cases, those supporting a critical claim
first), then warnings (blocked or untested required cases, failing optional
cases, flaky cases, load warnings); at most 10 of each are printed, as GitHub
shows no more per step, followed by a notice that counts the rest.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, Literal, NamedTuple

from agentic_evals.documents.findings import Finding
from agentic_evals.reports.json_out import write_text_atomic
from agentic_evals.reports.model import CaseReport, Report

MAX_PER_LEVEL: Final = 10
"""Annotations of each level GitHub shows for a step."""
STEP_SUMMARY_LIMIT: Final = 1024 * 1024
"""GitHub refuses a step summary larger than 1 MiB."""
TRUNCATED_NOTE: Final = (
    "\n\n> **Note:** the agentic-evals summary was cut here to keep the step summary "
    "under GitHub's 1 MiB limit; the full report is in the JSON report.\n"
)

Level = Literal["error", "warning", "notice"]


class Annotation(NamedTuple):
    """One workflow annotation, before it is written as a command."""

    level: Level
    rank: int
    """Lower ranks first within a level."""
    title: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(annotation: Annotation) -> str:
    """The ``::error file=...,line=...,title=...::message`` line of ``annotation``."""
    properties = []
    if annotation.file:
        properties.append(f"file={_escape_property(annotation.file)}")
    if annotation.line is not None:
        properties.append(f"line={annotation.line}")
    if annotation.column is not None:
        properties.append(f"col={annotation.column}")
    properties.append(f"title={_escape_property(annotation.title)}")
    return f"::{annotation.level} {','.join(properties)}::{_escape_data(annotation.message)}"


def workspace_path(path: str | None) -> str | None:
    """``path`` relative to the working directory (the checkout) when it lies inside it."""
    if path is None or not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def finding_annotations(findings: Sequence[Finding]) -> list[Annotation]:
    """Load findings, located at their file:line:column."""
    return [
        Annotation(
            "error" if finding.severity == "error" else "warning",
            0 if finding.severity == "error" else 4,
            finding.code,
            f"{finding.pointer or '/'}: {finding.message}",
            workspace_path(finding.file),
            finding.line,
            finding.column,
        )
        for finding in findings
    ]


def _critical_claims(report: Report) -> set[str]:
    block = report.capability_readiness
    return {c.id for c in block.claims if c.criticality == "critical"} if block else set()


def _case_annotation(case: CaseReport, critical: set[str]) -> tuple[Level, int] | None:
    if case.outcome == "FAIL" and case.required:
        return "error", 1 if critical.intersection(case.supports_claims) else 2
    if case.outcome in ("BLOCKED", "NOT_TESTED") and case.required:
        return "warning", 1
    if case.outcome == "FAIL":
        return "warning", 2
    if case.flaky:
        return "warning", 3
    return None


def case_annotations(report: Report, lines: Mapping[str, int]) -> list[Annotation]:
    """One annotation per case that did not plainly pass, at its line in the fixture."""
    critical = _critical_claims(report)
    found = []
    for case in report.cases:
        placed = _case_annotation(case, critical)
        if placed is None:
            continue
        problems = "; ".join(f"{p.code}: {p.message}" for p in case.problems[:3])
        flaky = " (flaky)" if case.flaky else ""
        message = f"{case.outcome}{flaky} {case.passed_trials}/{case.total_trials}: {problems}"
        title = f"agentic-evals {case.outcome}: {case.name}"
        where = workspace_path(report.source)
        found.append(Annotation(*placed, title, message, where, lines.get(case.name)))
    return found


def render_annotations(annotations: Sequence[Annotation]) -> str:
    """The ranked commands, at most :data:`MAX_PER_LEVEL` per level, then a count of the rest."""
    out: list[str] = []
    left: dict[str, int] = {}
    for level in ("error", "warning"):
        ranked = sorted(
            (a for a in annotations if a.level == level), key=lambda a: a.rank
        )  # stable: report order within a rank
        out.extend(command(a) for a in ranked[:MAX_PER_LEVEL])
        left[level] = max(0, len(ranked) - MAX_PER_LEVEL)
    if left["error"] or left["warning"]:
        rest = Annotation(
            "notice",
            0,
            "agentic-evals",
            f"{left['error']} more error(s) and {left['warning']} more warning(s) "
            "not annotated: see the summary and the report",
        )
        out.append(command(rest))
    return "".join(line + "\n" for line in out)


def render_github(report: Report, lines: Mapping[str, int] | None = None) -> str:
    """The workflow commands for a report: its load warnings and its cases."""
    annotations = finding_annotations(report.warnings) + case_annotations(report, lines or {})
    return render_annotations(annotations)


def cap_summary(existing: int, markdown: str, limit: int = STEP_SUMMARY_LIMIT) -> str:
    """``markdown`` cut (with a note) so that the step summary stays within ``limit`` bytes."""
    room = limit - existing
    data = markdown.encode("utf-8")
    if len(data) <= room:
        return markdown
    note = TRUNCATED_NOTE.encode("utf-8")
    keep = max(0, room - len(note))
    return (
        (data[:keep].decode("utf-8", errors="ignore") + TRUNCATED_NOTE) if room > len(note) else ""
    )


def append_step_summary(path: Path, markdown: str) -> None:
    """Append ``markdown`` to the step summary file, atomically and within GitHub's limit."""
    try:
        existing = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    addition = cap_summary(len(existing.encode("utf-8")), markdown)
    if existing and not existing.endswith("\n"):
        existing += "\n"
    write_text_atomic(path, existing + addition)
