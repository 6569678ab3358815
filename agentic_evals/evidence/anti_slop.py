"""The anti-slop gate (SPEC section 2): fixtures that would prove nothing are rejected.

What a case proves is read from the fact table (:mod:`.facts`): commands are
judged structurally (``: run.sh`` runs ``:``, and an argument that mentions
``e2e`` is no live path), and what is live is decided by :mod:`.qualification`.
A real-world case whose checks all pass on the null trial (:mod:`.null_trial`)
is weak and does not count either.
Only required cases satisfy the gate: a negative or real-world case marked
``required: false`` can fail while the run is READY, so it proves nothing
(and making it optional is no way around the gate).

The real-world rule is judged twice, by one function (:func:`real_world_problem`):
at load, on the static reading, and after the run, on what the trials did
(the case's facts with their null trials and traces, see
:mod:`.observed` and :mod:`.traced`). After the run a real-world case counts
only when a trial was traced, the trace shows a substantive skill-tree file
run and no stub opened, and its checks are not all vacuous; its record
carries the reason it does not (``CaseReport.live_path_problem``), which
the gate reads back alike in ``run`` and ``merge`` (:mod:`agentic_evals.judge.evidence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentic_evals import codes
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import HOSTILE_TYPES
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.evidence.facts import CaseEvidence
from agentic_evals.evidence.qualification import LIVE_PATH_CODES
from agentic_evals.evidence.traced import trace_blockers
from agentic_evals.reports.model import TrialReport

REAL_WORLD_CODES = LIVE_PATH_CODES | {codes.TRACE_UNAVAILABLE}
"""The reasons that say a real-world case exercised no live path without stubs."""
WEAK = "proves nothing: every check passes on the null trial (before the command runs)"
"""Why a weak real-world case does not count, in words."""


def real_world_problem(
    facts: CaseEvidence, trials: Sequence[TrialReport] | None = None
) -> str | None:
    """Why a real-world case does not count for the gate, in words; ``None`` when it does.

    Args:
        facts: The case's facts: read at load, or with what its trials showed.
        trials: Its trials once they ran (``None`` at load): at least one of
            them must have been traced, else what it ran is unknown.
    """
    if reason := next((b.reason for b in facts.blockers if b.code in REAL_WORLD_CODES), None):
        return reason
    if trials is not None and (reason := traced_problem(trials)):
        return reason
    return WEAK if facts.weak else None


def traced_problem(trials: Sequence[TrialReport]) -> str | None:
    """What the traces of a real-world case's ``trials`` alone say against it; ``None``: nothing.

    No traced trial, a trial that could not be traced, no substantive
    skill-tree file run, a stub opened. ``merge`` checks a case record's
    ``live_path_problem`` against it (:mod:`agentic_evals.judge.consistency`).
    """
    if not any(trial.file_trace is not None for trial in trials):
        return "ran no trial under the tracer: what it ran is unknown"
    found = trace_blockers((), trials)
    return next((b.reason for b in found if b.code in REAL_WORLD_CODES), None)


def anti_slop_findings(fixture: Fixture, table: Mapping[str, CaseEvidence]) -> list[Finding]:
    """Every anti-slop violation of ``fixture``, whose cases' facts are ``table``."""
    found: list[Finding] = []
    if fixture.trials < 2:
        pointer = "/trials" if "trials" in fixture.model_fields_set else ""
        message = f"trials is {fixture.trials}: a single trial is not evidence, use at least 2"
        found.append(finding(codes.SLOP_TRIALS, pointer, message))
    if not any(case.type in HOSTILE_TYPES and case.required for case in fixture.cases):
        optional = sum(case.type in HOSTILE_TYPES for case in fixture.cases)
        message = (
            f"no required case of {len(fixture.cases)} is negative or adversarial, which is "
            "self-serving: add a required negative or adversarial case"
            + (f" ({optional} optional one(s) prove nothing)" if optional else "")
        )
        found.append(finding(codes.SLOP_NO_NEGATIVE, "/cases", message))
    real = [table[case.name] for case in fixture.cases if case.real_world and case.required]
    why_not = [f"{f.case.name!r} {reason}" for f in real if (reason := real_world_problem(f))]
    if len(why_not) == len(real):
        detail = "; ".join(why_not) if why_not else "no required case declares real_world: true"
        message = f"no real-world case exercises a live path without stubs: {detail}"
        found.append(finding(codes.SLOP_NO_REAL_WORLD, "/cases", message))
    for index, case in enumerate(fixture.cases):
        analysis = table[case.name].analysis
        if analysis.trivial:
            message = f"case {case.name!r} proves nothing: {analysis.describe_trivial()}"
            found.append(finding(codes.SLOP_TRIVIAL, f"/cases/{index}/command", message))
    return found
