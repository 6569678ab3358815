"""What a case proves once its trials ran: its static facts with what the trials did.

:mod:`.facts` reads a case before anything runs (the null trial judged on
the tree as it is). Each trial then records its own observations in its
report; :func:`observe` folds them into the same :class:`CaseEvidence`
through :func:`~agentic_evals.evidence.facts.case_evidence`, so the anti-slop
reading, live qualification, coverage, claim verdicts and ``merge`` all see
one set of facts and cannot disagree.

Observations of a trial (:func:`trial_observation`, read back from a
:class:`TrialReport`):

- its null trial: the problems it raised (``null_trial_failures``), hence the
  checks that passed on it (:func:`~.null_trial.vacuous_checks`). A check
  is vacuous for the case when it passed on the null trial of *every* trial
  that recorded one: on the shared tree a later trial's pre-trial tree holds
  what an earlier one wrote, which must not make the check vacuous. With no
  trial recorded (none ran), the reading before the run stands.
- whether its program could not run (exit 126 or 127, ``EXEC_FAILED``).

Other observations (the trace, sampling) are added here, as further fields
of :class:`Observation` and arguments of :func:`case_evidence`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.evidence.facts import BLIND_EXIT_CODES, CaseEvidence, case_evidence
from agentic_evals.evidence.null_trial import vacuous_checks
from agentic_evals.reports.model import TrialReport


class Observation(NamedTuple):
    """What one trial showed about its case's checks and program."""

    vacuous: frozenset[str] | None
    """The pointers of the checks that passed on its null trial; ``None`` when not judged."""
    blind: bool
    """Its program could not run (exit 126/127, ``EXEC_FAILED``)."""


def trial_observation(case: Case, trial: TrialReport) -> Observation:
    """What ``trial`` of ``case`` (as its report recorded it) showed."""
    failures = trial.null_trial_failures
    vacuous = None if failures is None else vacuous_checks(case, failures)
    blind = trial.exit_code in BLIND_EXIT_CODES or any(
        p.code == codes.EXEC_FAILED for p in trial.problems
    )
    return Observation(vacuous, blind)


def observe(facts: CaseEvidence, skill: str, trials: Iterable[TrialReport]) -> CaseEvidence:
    """The facts of a case of the skill ``skill``, with what its ``trials`` showed."""
    seen = [trial_observation(facts.case, trial) for trial in trials]
    judged = [item.vacuous for item in seen if item.vacuous is not None]
    vacuous = frozenset.intersection(*judged) if judged else facts.vacuous
    blind = any(item.blind for item in seen)
    if vacuous == facts.vacuous and blind == facts.blind_failure:
        return facts  # the facts were read from these very inputs: the trials change nothing
    return case_evidence(
        facts.case,
        facts.analysis,
        skill,
        vacuous,
        blind_failure=blind,
        games=facts.class_games,
        context=facts.context_blockers,
    )


def vacuous_pointers(facts: CaseEvidence, index: int) -> list[str]:
    """The pointers in the fixture of the vacuous checks of the case at ``/cases/<index>``."""
    return [f"/cases/{index}{pointer}" for pointer in facts.vacuous_checks]
