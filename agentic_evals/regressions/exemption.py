"""Is an EXEMPT record still exempt today? Pure, given the day and the time.

An exemption lasts until its ``expires``, read and compared by the claim
exemptions' own rules (:func:`~agentic_evals.contract.rules.claims.parse_expires`,
:func:`~agentic_evals.judge.exemptions.is_expired`): a date-only ``expires``
lasts through that day (UTC), a datetime lapses at that instant. Once it has
lapsed the record is ACTIVE again: audited, counted and verified like any
other. The load rules already require ``reason``, ``owner`` and a readable
``expires``; a record that slipped past them is not exempt either.
"""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.rules.claims import parse_expires
from agentic_evals.judge.exemptions import is_expired
from agentic_evals.regressions.models import Regression, Status


class EffectiveStatus(NamedTuple):
    """The status the audit and verify use, and why it differs from the declared one."""

    status: Status
    """``ACTIVE``, ``EXEMPT`` or ``RETIRED``."""
    issue: str | None
    """``EXEMPTION_EXPIRED: ...`` when an exemption no longer holds."""


def effective_status(record: Regression, *, today: _dt.date, now: _dt.datetime) -> EffectiveStatus:
    """``record``'s status today: an exemption that has lapsed (or cannot be read) is ACTIVE."""
    if record.status != "EXEMPT":
        return EffectiveStatus(record.status, None)
    expires = parse_expires(record.expires) if record.expires else None
    if expires is None:
        detail = "the exemption has no readable expires: the record is ACTIVE"
        return EffectiveStatus("ACTIVE", f"{codes.REG_EXEMPTION_EXPIRED}: {detail}")
    if is_expired(expires, today=today, now=now):
        owner = f" (owner {record.owner})" if record.owner else ""
        detail = f"the exemption expired {record.expires}{owner}: the record is ACTIVE again"
        return EffectiveStatus("ACTIVE", f"{codes.REG_EXEMPTION_EXPIRED}: {detail}")
    return EffectiveStatus("EXEMPT", None)
