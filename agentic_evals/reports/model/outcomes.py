"""The result vocabularies, each written once: a ``Literal`` and its values in order."""

from typing import Final, Literal, get_args

TrialOutcome = Literal["PASS", "FAIL", "BLOCKED", "INFRA_BLOCKED", "NOT_TESTED"]
CaseOutcome = Literal["PASS", "FAIL", "BLOCKED", "NOT_TESTED"]
CASE_OUTCOMES: Final[tuple[CaseOutcome, ...]] = get_args(CaseOutcome)
Readiness = Literal["READY", "USABLE_WITH_GAPS", "NOT_ESTABLISHED", "NOT_READY"]
READINESS: Final[tuple[Readiness, ...]] = get_args(Readiness)
"""Readiness from the best to the worst: not knowing is worse than knowing of gaps, but
better than knowing the subject is broken."""
ClassVerdict = Literal["PROVEN", "FAILED", "BLOCKED", "MISSING", "EXEMPT"]
ClaimVerdict = Literal[
    "PROVEN", "PARTIALLY_PROVEN", "BLOCKED_EXTERNAL", "FAILED", "NOT_ESTABLISHED"
]
