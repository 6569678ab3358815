"""What a run's trials proved, from its case records alone (run and merge alike). Pure.

- Every vacuous check of a case (``CaseReport.vacuous_checks``, judged by
  :mod:`agentic_evals.evidence.observed`) is a ``VACUOUS_ORACLE`` finding at
  its pointer in the fixture.
- No free READY (``AE-EVID-NONE``): a ``skill`` fixture that declares no
  capability claims has nothing but its cases to stand on. It is READY only
  when at least one required real-world positive case and one required
  negative or adversarial case prove something: the first has a check that
  fails on the null trial, the second also shows its reason (a specific
  check on output or an artifact, on a program that ran). Else the run is at
  best ``USABLE_WITH_GAPS``, and the finding says what is missing.
- The anti-slop gate's real-world rule, judged again on what the trials did
  (``AE-SLOP-NO-REAL-WORLD``): a gated fixture needs a required
  ``real_world`` case whose record has no ``live_path_problem`` (a traced
  trial ran a substantive skill-tree file, opened no stub, and a check fails
  on the null trial). Else the run is ``NOT_READY``: it is the rule that
  rejects a fixture at load, which the static reading could not apply. Not
  judged for a focused or shard run, which holds a selection of the cases
  (``merge`` of every shard judges it), nor for an exempt eval kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.vocabulary import HOSTILE_TYPES
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.evidence.anti_slop import WEAK
from agentic_evals.reports.model import CaseReport

EVIDENCE_KIND = "skill"
"""The eval kind whose fixtures without claims must show evidence to be READY."""


class EvidenceVerdict(NamedTuple):
    """What the cases proved: findings, and whether READY is out of reach for want of evidence."""

    findings: list[Finding]
    lacking: bool
    """No claim, and the cases lack the evidence READY needs (``AE-EVID-NONE``)."""
    hollow: bool = False
    """No required real-world case exercised a live path (``AE-SLOP-NO-REAL-WORLD``)."""


def vacuity_findings(cases: Sequence[CaseReport]) -> list[Finding]:
    """A ``VACUOUS_ORACLE`` finding per vacuous check of every case."""
    return [
        finding(
            codes.VACUOUS_ORACLE,
            pointer,
            f"case {case.name!r}: {pointer} passes on the null trial (the expected exit code, "
            "empty output, the tree as it was before the command ran): it proves nothing",
            "warning",
            case=case.name,
        )
        for case in cases
        for pointer in case.vacuous_checks
    ]


def real_world_finding(cases: Sequence[CaseReport]) -> Finding | None:
    """``AE-SLOP-NO-REAL-WORLD`` when no required real-world case's trials exercised a live path."""
    real = [case for case in cases if case.required and case.real_world]
    if any(case.live_path_problem is None and not case.weak for case in real):
        return None
    detail = "; ".join(f"{case.name!r} {case.live_path_problem or WEAK}" for case in real)
    message = "no real-world case exercised a live path without stubs in its trials: " + (
        detail or "no required case declares real_world: true"
    )
    return finding(codes.SLOP_NO_REAL_WORLD, "/cases", message)


def _missing(cases: Sequence[CaseReport]) -> list[str]:
    """What READY lacks for want of evidence, in words (empty: nothing)."""
    required = [case for case in cases if case.required]
    missing: list[str] = []
    real = [c for c in required if c.real_world and c.type == "positive"]
    if not any(not c.weak for c in real):
        found = ", ".join(repr(c.name) for c in real) or "none"
        missing.append(
            "a required real_world positive case with a check that fails on the null trial "
            f"(real-world positive cases: {found}, all weak)"
            if real
            else "a required real_world positive case with a check that fails on the null trial "
            "(there is none)"
        )
    hostile = [c for c in required if c.type in HOSTILE_TYPES]
    if not any(not c.weak and c.reason_problem is None for c in hostile):
        why = "; ".join(f"{c.name!r} {c.reason_problem or 'is weak'}" for c in hostile)
        missing.append(
            "a required negative or adversarial case that shows its reason "
            f"({why or 'there is none'})"
        )
    return missing


def evidence_verdict(
    cases: Sequence[CaseReport],
    *,
    eval_kind: str | None,
    has_claims: bool,
    real_world: bool = False,
) -> EvidenceVerdict:
    """Judge what ``cases`` proved for a fixture of ``eval_kind`` (with or without claims).

    ``real_world``: judge the anti-slop gate's real-world rule on the case records.
    """
    found = vacuity_findings(cases)
    hollow = real_world_finding(cases) if real_world else None
    if hollow is not None:
        found.insert(0, hollow)
    if eval_kind != EVIDENCE_KIND or has_claims:
        return EvidenceVerdict(found, False, hollow is not None)
    missing = _missing(cases)
    if not missing:
        return EvidenceVerdict(found, False, hollow is not None)
    message = (
        "no capability claims, so READY rests on the cases alone, and they lack "
        + " and ".join(missing)
    )
    lacking = finding(codes.EVID_NONE, "/cases", message)
    return EvidenceVerdict([lacking, *found], True, hollow is not None)


def ready_needs(cases: Sequence[CaseReport], verdict: EvidenceVerdict) -> list[str]:
    """What would make a run READY as far as evidence goes, in words (empty: nothing)."""
    return _missing(cases) if verdict.lacking else []
