"""SARIF 2.1.0 of findings, for code scanning. Pure.

The renderer works on the one :class:`~agentic_evals.documents.findings.Finding`
that every command reports: the load findings of ``validate``, the findings
of ``audit-skills``, ``coverage`` and ``regressions`` (each command locates
them in their files first), and a run report's failing cases
(:func:`run_findings`). Rule ids are the stable codes, with their rule text
from :mod:`agentic_evals.codes`; ``partialFingerprints`` hash the code, the
file, the pointer and the message (with what it is about), never the line,
so an alert survives edits above it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Final
from urllib.parse import quote

from agentic_evals import __version__
from agentic_evals.documents.findings import Finding, Severity, finding
from agentic_evals.reports.model import Report
from agentic_evals.rule_texts import rule_text

SARIF_VERSION: Final = "2.1.0"
SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI: Final = "https://agentic-evals.dev"
FINGERPRINT: Final = "agenticEvalsFinding/v1"

_LEVELS: Final[Mapping[Severity, str]] = {"error": "error", "warning": "warning", "info": "note"}


def _uri(path: str) -> str:
    """A relative URI reference for ``path`` (relative to the working directory if inside)."""
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(".."):
            path = relative
        else:
            return "file://" + quote(PurePosixPath(path).as_posix())
    return quote(PurePosixPath(path).as_posix())


def _fingerprint(item: Finding) -> str:
    key = "\0".join((item.code, item.file or "", item.pointer, _message(item)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _location(item: Finding) -> list[dict[str, object]]:
    if not item.file:
        return []
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(item.file)}}
    if item.line is not None:
        region: dict[str, int] = {"startLine": item.line}
        if item.column is not None:
            region["startColumn"] = item.column
        physical["region"] = region
    return [{"physicalLocation": physical}]


def _message(item: Finding) -> str:
    """The finding's message, after what it is about (skill, seam, case) when it says."""
    about = [value for value in (item.skill, item.seam_id, item.case) if value]
    return f"{' '.join(about)}: {item.message}" if about else item.message


def _rule(code: str, level: str) -> dict[str, object]:
    text = rule_text(code) or code
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "defaultConfiguration": {"level": level},
    }


def sarif_log(findings: Sequence[Finding], *, command: str) -> dict[str, object]:
    """The SARIF log (as a JSON value) of ``findings`` found by ``agentic-evals <command>``."""
    rules: dict[str, int] = {}
    rule_list: list[dict[str, object]] = []
    results: list[dict[str, object]] = []
    for item in findings:
        level = _LEVELS[item.severity]
        if item.code not in rules:
            rules[item.code] = len(rule_list)
            rule_list.append(_rule(item.code, level))
        result: dict[str, object] = {
            "ruleId": item.code,
            "ruleIndex": rules[item.code],
            "level": level,
            "message": {"text": _message(item)},
            "partialFingerprints": {FINGERPRINT: _fingerprint(item)},
        }
        locations = _location(item)
        if locations:
            result["locations"] = locations
        results.append(result)
    driver = {
        "name": "agentic-evals",
        "version": __version__,
        "informationUri": INFORMATION_URI,
        "rules": rule_list,
    }
    run = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"agentic-evals/{command}/"},
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(findings: Sequence[Finding], *, command: str) -> str:
    """The SARIF log as indented JSON text."""
    return json.dumps(sarif_log(findings, command=command), indent=2, ensure_ascii=False) + "\n"


def run_findings(report: Report, lines: Mapping[str, int]) -> list[Finding]:
    """A run report as findings: its load warnings, then each failing or blocked case's problems.

    A case's problems are errors when it is a required case that failed, else
    warnings; each distinct code once, at the case's line in the fixture.
    """
    found = list(report.warnings)
    for case in report.cases:
        if case.outcome not in ("FAIL", "BLOCKED"):
            continue
        severity: Severity = "error" if case.outcome == "FAIL" and case.required else "warning"
        for problem in {p.code: p for p in case.problems}.values():
            found.append(
                finding(
                    problem.code,
                    "",  # the report does not say where in the fixture the case is
                    problem.message,
                    severity,
                    file=report.source,
                    line=lines.get(case.name),
                    case=case.name,
                )
            )
    return found
