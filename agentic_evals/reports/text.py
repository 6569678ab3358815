"""The human summary of a run, for the terminal."""

from __future__ import annotations

import click

from agentic_evals.reports.evidence_text import evidence_lines
from agentic_evals.reports.failure import failure_detail, trial_line
from agentic_evals.reports.isolation_text import isolation_lines
from agentic_evals.reports.model import CaseReport, Report
from agentic_evals.reports.reason import readiness_reason, resumed_line, scope_line
from agentic_evals.reports.trace_text import tracing_lines

LIST_EVERY_CASE_UP_TO = 40
"""Longer runs list only the cases that did not pass every trial."""

_COLOURS = {
    "PASS": "green",
    "READY": "green",
    "FAIL": "red",
    "NOT_READY": "red",
    "BLOCKED": "yellow",
    "USABLE_WITH_GAPS": "yellow",
    "NOT_TESTED": "magenta",
    "NOT_ESTABLISHED": "magenta",
}


def _paint(word: str, colour: bool) -> str:
    if not colour or word not in _COLOURS:
        return word
    return click.style(word, fg=_COLOURS[word], bold=True)


def _case_line(case: CaseReport, colour: bool, width: int, verbosity: int) -> list[str]:
    mark = _paint(case.outcome.ljust(10), colour)
    name = case.name if len(case.name) <= width else case.name[: width - 1] + "…"
    optional = "" if case.required else "  (optional)"
    flaky = "  flaky" if case.flaky else ""
    lines = [
        f"  {mark} {name.ljust(width)} {case.passed_trials}/{case.total_trials}{flaky}{optional}"
    ]
    for problem in case.problems[:3]:
        lines.append(f"      {problem.code}: {problem.message}")
    if len(case.problems) > 3:
        lines.append(f"      … and {len(case.problems) - 3} more problems")
    if verbosity > 0:
        lines.extend(_trial_lines(case))
    elif verbosity == 0:
        lines.extend(_detail_lines(case))
    return lines


def _detail_lines(case: CaseReport) -> list[str]:
    """The tails of the first failing trial's streams (FAIL and BLOCKED cases)."""
    detail = failure_detail(case)
    if detail is None:
        return []
    lines = [f"      first failing trial: {trial_line(detail.trial)}"]
    for tail in detail.tails:
        lines.append(f"      {tail.heading(detail.trial.trial_id)}")
        lines.extend(f"        | {line}" for line in tail.lines)
    return lines


def _trial_lines(case: CaseReport) -> list[str]:
    """``-v``: every trial, its problems and its output tails."""
    lines: list[str] = []
    for trial in case.trials:
        lines.append(f"      trial {trial_line(trial)}")
        lines.extend(f"        {p.code}: {p.message}" for p in trial.problems)
        if trial.outcome == "PASS":
            continue
        for stream, text in (("stderr", trial.stderr), ("stdout", trial.stdout)):
            tail = text.splitlines()[-20:]
            if tail:
                lines.append(f"        {stream}:")
                lines.extend(f"          | {line}" for line in tail)
    return lines


def _claim_lines(report: Report, colour: bool) -> list[str]:
    """The capability claims: the aggregate, then every claim not PROVEN and why."""
    block = report.capability_readiness
    if block is None:
        return []
    lines = [
        f"claims: {block.critical_claims_proven}/{block.critical_claim_count} critical PROVEN; "
        f"capability readiness {_paint(block.aggregate_readiness, colour)}"
    ]
    for claim in block.claims:
        if claim.verdict == "PROVEN":
            continue
        why = []
        if claim.missing_evidence:
            why.append("missing " + ", ".join(claim.missing_evidence))
        if claim.missing_representations:
            why.append("no adversarial case for " + ", ".join(claim.missing_representations))
        if claim.unqualified_live_cases:
            why.append("downgraded live: " + ", ".join(claim.unqualified_live_cases))
        reason = f" ({'; '.join(why)})" if why else ""
        lines.append(f"  {claim.verdict} {claim.id} [{claim.criticality}]{reason}")
    return lines


def render_summary(
    report: Report,
    *,
    colour: bool = False,
    exit_code: int | None = None,
    report_path: str | None = None,
    verbosity: int = 0,
) -> str:
    """Return the summary: one line per case, then the totals and the verdict.

    ``verbosity`` -1 (``-q``) leaves out the output of failing trials, 0 shows the
    tails of each failing or blocked case's first failing trial, 1 (``-v``) shows
    every trial.
    """
    width = min(48, max((len(c.name) for c in report.cases), default=10))
    lines = [f"agentic-evals {report.runner.version}: {report.skill} ({report.source})"]
    # A long run lists what needs attention; the report has every case.
    quiet = len(report.cases) > LIST_EVERY_CASE_UP_TO
    shown = [c for c in report.cases if not quiet or c.outcome != "PASS" or c.flaky]
    for case in shown:
        lines.extend(_case_line(case, colour, width, verbosity))
    if len(shown) < len(report.cases):
        lines.append(f"  ... and {len(report.cases) - len(shown)} more cases passed every trial")
    counts = ", ".join(f"{n} {k}" for k, n in sorted(report.outcome_counts.items()) if n)
    rate = report.metrics.trial_pass_rate
    lines.append("")
    lines.append(f"cases: {report.case_count} ({counts or 'none'})")
    if rate.rate is not None and rate.wilson_low is not None and rate.wilson_high is not None:
        lines.append(
            f"trials: {rate.passed}/{rate.total} passed ({rate.rate:.1%}; "
            f"Wilson 95% {rate.wilson_low:.1%}-{rate.wilson_high:.1%})"
        )
    else:
        lines.append("trials: none ran")
    lines.extend(_claim_lines(report, colour))
    if report.metrics.flaky_cases:
        lines.append("flaky: " + ", ".join(report.metrics.flaky_cases))
    hallucinated = report.metrics.hallucinated_success
    if hallucinated.count:
        lines.append(
            f"hallucinated success: {hallucinated.count} trial(s) whose own checks passed "
            f"while an independent check failed: {', '.join(hallucinated.trial_ids[:5])}"
            + (" ..." if hallucinated.count > 5 else "")
        )
    lines.extend(isolation_lines(report))
    lines.extend(evidence_lines(report))
    lines.extend(tracing_lines(report))
    if report.interrupted:
        lines.append(f"interrupted by {report.interrupted}: unfinished cases are NOT_TESTED")
    resumed = resumed_line(report)
    if resumed is not None:
        lines.append(resumed)
    if report_path and report_path != "-":
        lines.append(f"report: {report_path}")
    scope = scope_line(report)
    if scope is not None:
        lines.append(scope)
    lines.append(f"why: {readiness_reason(report)}")
    verdict = _paint(report.readiness, colour)
    suffix = f" (exit {exit_code})" if exit_code is not None else ""
    lines.append(f"readiness: {verdict}{suffix}")
    return "\n".join(lines) + "\n"
