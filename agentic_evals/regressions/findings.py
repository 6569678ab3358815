"""Everything a regression audit says, as findings: load findings, row issues, open incidents.

A ``regressions show|audit`` document lists its load findings and, apart,
each record's issues (``CODE: detail``) and the open incidents no record
maps. Outputs that list findings only (SARIF for code scanning) need all of
them: each issue becomes a finding at its record (``/regressions/N``), an
error unless it only says the record is ``RETIRED`` or ``EXEMPT``, and each
unmapped incident an ``UNMAPPED_INCIDENT`` error at the incident.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, Severity, finding
from agentic_evals.documents.located import FileLocator, member_pointer
from agentic_evals.regressions.results import (
    RegressionRow,
    RegressionsAudit,
    RegressionsShow,
    UnmappedIncident,
)

_LISTED_ONLY = frozenset({codes.REG_RETIRED, codes.REG_EXEMPT})


def registry_findings(
    registry: str,
    rows: Sequence[RegressionRow],
    incidents: Sequence[UnmappedIncident],
    findings: Sequence[Finding],
) -> list[Finding]:
    """The findings of one registry: its load findings, its rows' issues, its open incidents."""
    found = list(findings)
    for index, row in enumerate(rows):
        for issue in row.issues:
            code, _, detail = (part.strip() for part in issue.partition(":"))
            severity: Severity = "warning" if code in _LISTED_ONLY else "error"
            message = detail or code
            found.append(
                finding(code, ["regressions", index], f"{row.regression_id}: {message}", severity,
                        file=registry)
            )  # fmt: skip
    document = FileLocator().parsed(Path(registry)).value if incidents else None
    for incident in incidents:
        message = f"open incident {incident.id} is mapped by no regression"
        pointer = member_pointer(document, "incidents", "id", incident.id) or "/incidents"
        found.append(finding(codes.UNMAPPED_INCIDENT, pointer, message, file=registry))
    return found


def show_findings(show: RegressionsShow) -> list[tuple[Finding, Path | None]]:
    """``regressions show``: every finding of the registry (files as the document names them)."""
    found = registry_findings(show.registry, show.rows, show.unmapped_incidents, show.findings)
    return [(item, None) for item in found]


def audit_findings(audit: RegressionsAudit) -> list[tuple[Finding, Path | None]]:
    """``regressions audit``: the same for every registry of the tree."""
    return [
        (item, None)
        for skill in audit.skills
        for item in registry_findings(
            skill.registry, skill.rows, skill.unmapped_incidents, skill.findings
        )
    ]
