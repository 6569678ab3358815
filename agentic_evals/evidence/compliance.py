"""The compliance tier (SPEC section 2): hostile majority and fresh, large samples.

How a command samples its inputs is read structurally
(:mod:`agentic_evals.commands.sampling`). That is what a case *claims*; what
its trials did decides whether the claim holds. A case that claims fresh
inputs per run (:func:`claims_fresh_inputs`: it samples in a compliance-tier
fixture, or declares ``property_or_fuzz``) must show it: when two or more
trials ran and every one wrote byte-identical stdout and artifacts, it saw no
fresh input, and the case FAILs with ``SAMPLING_NOT_OBSERVED``
(:func:`sampling_problem`, applied where a case is reduced from its trials,
so ``merge`` re-derives it from the trial records).

The hostile majority counts required negative or adversarial cases with
distinct commands only: copies of one command, or optional cases, make no
majority.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_evals import codes
from agentic_evals.commands.analysis import CommandAnalysis
from agentic_evals.commands.sampling import Sampling, sampling
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import HOSTILE_TYPES
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.reports.model import Problem, TrialReport

MIN_SAMPLES = 50


def compliance_findings(fixture: Fixture, analyses: list[CommandAnalysis]) -> list[Finding]:
    """Every compliance-tier violation; nothing unless ``eval_tier`` is ``compliance``."""
    if fixture.eval_tier != "compliance":
        return []
    found: list[Finding] = []
    total = len(fixture.cases)
    commands = {
        tuple(case.command)
        for case in fixture.cases
        if case.type in HOSTILE_TYPES and case.required
    }
    hostile = len(commands)
    if hostile * 2 <= total:
        message = (
            f"{hostile} of {total} cases are required negative or adversarial cases with "
            "distinct commands: the compliance tier needs more than half"
        )
        found.append(finding(codes.COMP_MAJORITY, "/cases", message))
    readings = [sampling(analysis) for analysis in analyses]
    if not any(reading.nondeterministic for reading in readings):
        notes = _notes(fixture, readings)
        message = (
            "no case samples fresh inputs per run "
            "(--samples N, --seed with a per-run value, or $RANDOM in a shell script)" + notes
        )
        found.append(finding(codes.COMP_NONDETERMINISTIC, "/cases", message))
    for index, (case, reading) in enumerate(zip(fixture.cases, readings, strict=True)):
        largest = reading.largest_samples
        if reading.nondeterministic and (largest is None or largest < MIN_SAMPLES):
            named = f"--samples {largest}" if largest is not None else "no literal --samples"
            message = (
                f"case {case.name!r} samples fresh inputs but names {named}: "
                f"at least {MIN_SAMPLES} are needed"
            )
            found.append(finding(codes.COMP_SAMPLES, f"/cases/{index}/command", message))
    return found


def _notes(fixture: Fixture, readings: list[Sampling]) -> str:
    notes: list[str] = []
    for case, reading in zip(fixture.cases, readings, strict=True):
        if reading.fixed_seeds:
            notes.append(f"{case.name!r} uses a fixed {reading.fixed_seeds[0]}")
        if reading.unexpanded:
            word = reading.unexpanded[0]
            notes.append(f"{case.name!r} passes {word!r} without a shell, which never expands it")
    return ("; " + "; ".join(notes[:3])) if notes else ""


def claims_fresh_inputs(fixture: Fixture, case: Case, analysis: CommandAnalysis) -> bool:
    """Whether ``case`` claims fresh inputs per run: it must show them (see the module)."""
    if case.evidence_class == "property_or_fuzz":
        return True
    return fixture.eval_tier == "compliance" and sampling(analysis).nondeterministic


def sampling_problem(trials: Sequence[TrialReport]) -> Problem | None:
    """``SAMPLING_NOT_OBSERVED`` when every executed trial wrote the same stdout and artifacts.

    Needs two executed trials whose stdout digest was recorded; else None.
    """
    ran = [t for t in trials if t.outcome != "NOT_TESTED" and t.stdout_sha256 is not None]
    if len(ran) < 2:
        return None
    seen = {(t.stdout_sha256, tuple(sorted(t.artifact_hashes.items()))) for t in ran}
    if len(seen) > 1:
        return None
    message = (
        f"the case claims fresh inputs per run, but all {len(ran)} trials wrote byte-identical "
        "stdout and artifacts: no sampling was observed"
    )
    return Problem(code=codes.SAMPLING_NOT_OBSERVED, message=message)
