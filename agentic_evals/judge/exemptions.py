"""Exemptions: owned, justified, expiring, and never a proof (SPEC section 4). Pure.

An exemption applies when it names ``evidence_class`` (one the claim
requires), ``reason_code``, ``justification``, ``owner`` and an ``expires``
that is an ISO date or datetime not yet past. Expiry is compared as a date or
a time, never as a string: a date-only ``expires`` lasts through that day
(``2026-03-01`` still applies all of March 1st, UTC); a datetime lapses at
that instant (a naive one is read as UTC). Anything else is ignored and
listed with its reason; it is never a load error.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.claims import Exemption
from agentic_evals.contract.rules.claims import REQUIRED_FIELDS, parse_expires
from agentic_evals.reports.model import ExemptEvidence, IgnoredExemption


class ExemptionStatus(NamedTuple):
    """A claim's exemptions, sorted into those that apply and those ignored."""

    valid: list[ExemptEvidence]
    ignored: list[IgnoredExemption]


def is_expired(expires: dt.date | dt.datetime, *, today: dt.date, now: dt.datetime) -> bool:
    """Whether an exemption expiring at ``expires`` has lapsed ``today``/``now`` (UTC)."""
    if isinstance(expires, dt.datetime):
        return now >= expires
    return today > expires


def missing_fields(exemption: Exemption) -> list[str]:
    """The required fields ``exemption`` leaves out or leaves blank."""
    values = {name: getattr(exemption, name) for name in REQUIRED_FIELDS}
    return [name for name, value in values.items() if value is None or not str(value).strip()]


def static_problem(exemption: Exemption, required: Collection[str]) -> tuple[str, list[str]] | None:
    """Why ``exemption`` can never apply, whatever the date; None when it may.

    Returns the reason code and, for ``INCOMPLETE``, the missing fields.
    """
    missing = missing_fields(exemption)
    if missing:
        return codes.EXEMPTION_INCOMPLETE, missing
    assert exemption.expires is not None
    if parse_expires(exemption.expires) is None:
        return codes.EXEMPTION_BAD_EXPIRES, []
    if exemption.evidence_class not in required:
        return codes.EXEMPTION_CLASS_NOT_REQUIRED, []
    return None


def judge_exemptions(
    exemptions: list[Exemption],
    required: Collection[str],
    *,
    today: dt.date,
    now: dt.datetime,
) -> ExemptionStatus:
    """Sort a claim's exemptions into valid and ignored ones, in declaration order."""
    status = ExemptionStatus([], [])
    for index, exemption in enumerate(exemptions):
        problem = static_problem(exemption, required)
        expires = parse_expires(exemption.expires) if exemption.expires else None
        if problem is None and expires is not None and is_expired(expires, today=today, now=now):
            problem = (codes.EXEMPTION_EXPIRED, [])
        if problem is not None:
            status.ignored.append(
                IgnoredExemption(
                    index=index,
                    evidence_class=exemption.evidence_class,
                    reason=problem[0],
                    missing_fields=problem[1],
                    expires=exemption.expires,
                )
            )
            continue
        status.valid.append(
            ExemptEvidence(
                evidence_class=str(exemption.evidence_class),
                reason_code=str(exemption.reason_code),
                justification=str(exemption.justification),
                owner=str(exemption.owner),
                expires=str(exemption.expires),
            )
        )
    return status
