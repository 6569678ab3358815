"""``regressions show``: audit one registry without running anything (SPEC section 8).

Per record: ``protected`` (the retained case is still in a fixture that
loads), ``established_fail_before_fix`` (decided by
:func:`~agentic_evals.regressions.established.establishment`, the one rule
that coverage uses too), ``stale_live_proof`` (a live-class guard whose
``last_proven`` is more than ``freshness_days`` ago, judged against
:func:`agentic_evals.clock.today`), and the issues in words. Open incidents
that no regression maps are listed. Only records ``ACTIVE`` today (an expired
exemption is ACTIVE again) count as unprotected, never proven or stale;
``EXEMPT`` and ``RETIRED`` ones are listed.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals import clock, codes
from agentic_evals.contract.vocabulary import LIVE_CLASSES
from agentic_evals.regressions.established import Establishment, establishment
from agentic_evals.regressions.exemption import EffectiveStatus, effective_status
from agentic_evals.regressions.load import RegistryLoad, load_registry
from agentic_evals.regressions.models import Incident, Regression, RegressionRegistry
from agentic_evals.regressions.protection import FixtureCache, Protection, protection
from agentic_evals.regressions.results import (
    RegressionRow,
    RegressionsShow,
    RegressionSummary,
    UnmappedIncident,
)
from agentic_evals.regressions.rules import parse_date
from agentic_evals.regressions.skill import registry_path

DEFAULT_FRESHNESS_DAYS = 30
CLOSED_STATUSES = ("closed", "resolved", "fixed", "done", "wontfix", "won't fix", "retired")
"""An incident status starting with one of these (any case) is closed; any other is open."""


class ShowOutcome(NamedTuple):
    """The registry as loaded, and the audit when it loaded."""

    load: RegistryLoad
    show: RegressionsShow | None


def audit_row(
    record: Regression,
    guard: Protection,
    proof: Establishment,
    status: EffectiveStatus,
    *,
    as_of: _dt.date,
    freshness_days: int,
) -> RegressionRow:
    """The audit of one record, given its guard, its proof's verdict and its status. Pure."""
    proven = parse_date(record.proven_on) if record.proven_on else None
    stale = (
        record.evidence_class in LIVE_CLASSES
        and proven is not None
        and (as_of - proven).days > freshness_days
    )
    issues: list[str] = []
    if status.status == "RETIRED":
        issues.append(f"{codes.REG_RETIRED}: {_retirement(record)}")
    else:
        if status.issue is not None:
            issues.append(status.issue)
        if status.status == "EXEMPT":
            issues.append(
                f"{codes.REG_EXEMPT}: listed, not counted, never verified "
                f"(until {record.expires}, owner {record.owner}: {record.reason})"
            )
        if not guard.protected:
            issues.append(f"{codes.REG_UNPROTECTED}: {guard.detail}")
        if proof.issue is not None:
            issues.append(proof.issue)
        if stale and proven is not None:
            age = (as_of - proven).days
            issues.append(
                f"{codes.REG_STALE_LIVE_PROOF}: live guard last proven {proven.isoformat()}, "
                f"{age} days ago (more than {freshness_days})"
            )
    return RegressionRow(
        regression_id=record.regression_id,
        status=status.status,
        declared_status=record.status,
        protected=guard.protected,
        established_fail_before_fix=proof.established,
        proof=record.proof_form,
        proof_state=proof.state,
        stale_live_proof=stale,
        issues=issues,
        retained_case=record.retained_case,
        retained_fixture=record.retained_fixture,
        last_proven=record.proven_on,
    )


def _retirement(record: Regression) -> str:
    retirement = record.retirement
    if isinstance(retirement, dict):
        reason = retirement.get("reason") or retirement.get("summary")
        return str(reason) if reason else "retired"
    return retirement or "retired"


def is_open(incident: Incident) -> bool:
    """An incident is open unless its status says it is closed."""
    status = (incident.status or "").strip().lower()
    return not status or not status.startswith(CLOSED_STATUSES)


def incident_keys(record: Regression) -> set[str]:
    """The incident references a record carries: the string, or the object's id and issue."""
    incident = record.incident
    if isinstance(incident, str):
        return {incident}
    if isinstance(incident, dict):
        return {v for k in ("id", "issue") if isinstance(v := incident.get(k), str)}
    return set()


def unmapped_incidents(registry: RegressionRegistry) -> list[UnmappedIncident]:
    """Open incidents whose id or issue no record (other than a retired one) names."""
    mapped: set[str] = set()
    for record in registry.regressions:
        if record.status != "RETIRED":
            mapped |= incident_keys(record)
    return [
        UnmappedIncident(
            id=incident.id, issue=incident.issue, status=incident.status, summary=incident.summary
        )
        for incident in registry.incidents
        if is_open(incident) and not ({incident.id, incident.issue} & mapped)
    ]


def summarize(rows: Sequence[RegressionRow], unmapped: int) -> RegressionSummary:
    """The counts of one registry's rows. Pure."""
    active = [row for row in rows if row.status == "ACTIVE"]
    states = Counter(row.proof_state for row in active)
    return RegressionSummary(
        total=len(rows),
        active=len(active),
        unprotected=sum(not row.protected for row in active),
        never_proven_fail_before_fix=sum(not row.established_fail_before_fix for row in active),
        weak_proof=states["weak"],
        unverified_last_proven=states["unverified"],
        proof_stale=states["stale"],
        exemption_expired=sum(
            row.declared_status == "EXEMPT" and row.status != "EXEMPT" for row in rows
        ),
        stale_live_proof=sum(row.stale_live_proof for row in active),
        retired=sum(row.status == "RETIRED" for row in rows),
        exempt=sum(row.status == "EXEMPT" for row in rows),
        unmapped_incidents=unmapped,
    )


def audit_registry(
    registry: RegressionRegistry,
    registry_dir: Path,
    *,
    as_of: _dt.date,
    freshness_days: int = DEFAULT_FRESHNESS_DAYS,
) -> tuple[list[RegressionRow], list[UnmappedIncident], RegressionSummary]:
    """Rows, unmapped incidents and counts of a loaded registry."""
    cache = FixtureCache()
    now = clock.utc_now()
    rows = [
        audit_row(
            record,
            protection(record, registry_dir, cache),
            establishment(record, registry_dir, cache),
            effective_status(record, today=as_of, now=now),
            as_of=as_of,
            freshness_days=freshness_days,
        )
        for record in registry.regressions
    ]
    unmapped = unmapped_incidents(registry)
    return rows, unmapped, summarize(rows, len(unmapped))


def show_skill(skill_dir: Path, freshness_days: int = DEFAULT_FRESHNESS_DAYS) -> ShowOutcome:
    """Load ``SKILL_DIR/fixtures/regressions.json`` and audit it.

    Raises:
        RegressionsInputError: the folder or its registry is missing.
    """
    path = registry_path(skill_dir)
    loaded = load_registry(path)
    if loaded.model is None:
        return ShowOutcome(loaded, None)
    as_of = clock.today()
    rows, unmapped, summary = audit_registry(
        loaded.model, path.parent, as_of=as_of, freshness_days=freshness_days
    )
    show = RegressionsShow(
        skill=skill_dir.resolve().name,
        registry=str(path),
        as_of=as_of.isoformat(),
        freshness_days=freshness_days,
        rows=rows,
        unmapped_incidents=unmapped,
        summary=summary,
        findings=loaded.findings,
    )
    return ShowOutcome(loaded, show)


def needs_attention(summary: RegressionSummary) -> bool:
    """Exit 1: an ACTIVE regression is unprotected or never proven, or an incident is unmapped."""
    return bool(
        summary.unprotected or summary.never_proven_fail_before_fix or summary.unmapped_incidents
    )
