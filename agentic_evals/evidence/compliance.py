"""The compliance tier (SPEC section 2): hostile majority and fresh, large samples.

How a command samples its inputs is read structurally
(:mod:`agentic_evals.commands.sampling`).
"""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.commands.analysis import CommandAnalysis
from agentic_evals.commands.sampling import Sampling, sampling
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import HOSTILE_TYPES
from agentic_evals.documents.findings import Finding, finding

MIN_SAMPLES = 50


def compliance_findings(fixture: Fixture, analyses: list[CommandAnalysis]) -> list[Finding]:
    """Every compliance-tier violation; nothing unless ``eval_tier`` is ``compliance``."""
    if fixture.eval_tier != "compliance":
        return []
    found: list[Finding] = []
    total = len(fixture.cases)
    hostile = sum(case.type in HOSTILE_TYPES for case in fixture.cases)
    if hostile * 2 <= total:
        message = (
            f"{hostile} of {total} cases are negative or adversarial: "
            "the compliance tier needs more than half"
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
