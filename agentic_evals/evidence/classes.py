"""Class games: a declared evidence class that the case or its fixture contradicts. Pure.

Each rule is a :class:`~agentic_evals.evidence.qualification.Disqualifier`
read beside the live qualification reasons, so a case that breaks one
fills no slot of its declared class:

- a fixture that declares ``mocked: true`` or ``live: false`` has no live
  case, whatever a case declares (``LIVE_FIXTURE_MOCKED``);
- ``adversarial_live_e2e`` is filled only by an ``adversarial`` case
  (``LIVE_NOT_ADVERSARIAL``): a positive case proves no attack was resisted;
- ``human_evaluation`` needs a readback of the review record, an artifact
  check (``HUMAN_NO_REVIEW_RECORD``): a declaration alone is no review.

A live class that falls is downgraded as :mod:`.qualification` says; a
``human_evaluation`` case that falls counts as ``deterministic``.
"""

from __future__ import annotations

from typing import Final

from agentic_evals import codes
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import LIVE_CLASSES, EvidenceClass
from agentic_evals.evidence.checks import Check
from agentic_evals.evidence.qualification import Disqualifier, declared_class

FALLBACK: Final[EvidenceClass] = "deterministic"
"""The slot a non-live declaration that falls may still fill."""


def class_disqualifiers(
    case: Case, checks: tuple[Check, ...], fixture: Fixture | None
) -> list[Disqualifier]:
    """Every reason ``case`` (of ``fixture``) cannot fill the slot of the class it declares."""
    declared = declared_class(case)
    found: list[Disqualifier] = []
    if declared in LIVE_CLASSES and fixture is not None:
        said = [
            words
            for words, flag in (
                ("mocked: true", fixture.mocked is True),
                ("live: false", fixture.live is False),
            )
            if flag
        ]
        if said:
            reason = f"belongs to a fixture that declares {' and '.join(said)}"
            found.append(Disqualifier(codes.LIVE_FIXTURE_MOCKED, reason))
    if declared == "adversarial_live_e2e" and case.type != "adversarial":
        reason = f"declares adversarial_live_e2e but is a {case.type} case, not an adversarial one"
        found.append(Disqualifier(codes.LIVE_NOT_ADVERSARIAL, reason))
    if declared == "human_evaluation" and not any(c.oracle == "artifacts" for c in checks):
        reason = "declares human_evaluation but reads no review record back (an artifact check)"
        found.append(Disqualifier(codes.HUMAN_NO_REVIEW_RECORD, reason))
    return found
