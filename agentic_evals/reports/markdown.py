"""The summary as Markdown, for pull-request comments and GitHub step summaries. Pure.

The same content as the terminal summary: the verdict and its reason, one
row per case, the totals, the claims, and for each failing or blocked case its
problems and the tails of its first failing trial's output.
"""

from __future__ import annotations

import html
import re

from agentic_evals.reports.failure import failure_details, trial_line
from agentic_evals.reports.model import CaseReport, Report
from agentic_evals.reports.reason import readiness_reason, resumed_line

_MARKS = {"PASS": "✅", "FAIL": "❌", "BLOCKED": "⛔", "NOT_TESTED": "⏸️"}


def cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell (one line, pipes escaped)."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any backtick run it holds."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


def _case_row(case: CaseReport) -> str:
    seconds = sum(trial.duration_ms for trial in case.trials) / 1000
    notes = [word for word, on in (("flaky", case.flaky), ("optional", not case.required)) if on]
    outcome = f"{_MARKS.get(case.outcome, '')} {case.outcome}".strip()
    return (
        f"| {outcome} | {cell(case.name)} | {case.passed_trials}/{case.total_trials} "
        f"| {seconds:.2f} s | {cell(', '.join(notes))} |"
    )


def _totals(report: Report) -> list[str]:
    rate = report.metrics.trial_pass_rate
    counts = ", ".join(f"{n} {k}" for k, n in sorted(report.outcome_counts.items()) if n)
    lines = [f"- cases: {report.case_count} ({counts or 'none'})"]
    if rate.rate is not None and rate.wilson_low is not None and rate.wilson_high is not None:
        lines.append(
            f"- trials: {rate.passed}/{rate.total} passed ({rate.rate:.1%}; "
            f"Wilson 95% {rate.wilson_low:.1%}–{rate.wilson_high:.1%})"
        )
    hallucinated = report.metrics.hallucinated_success
    if hallucinated.count:
        lines.append(
            f"- hallucinated success: {hallucinated.count} trial(s) whose own checks passed "
            "while an independent check failed"
        )
    if report.metrics.flaky_cases:
        lines.append(f"- flaky: {', '.join(report.metrics.flaky_cases)}")
    if report.interrupted:
        lines.append(f"- interrupted by {report.interrupted}: unfinished cases are NOT_TESTED")
    resumed = resumed_line(report)
    if resumed is not None:
        lines.append(f"- {resumed}")
    return lines


def _claims(report: Report) -> list[str]:
    block = report.capability_readiness
    if block is None:
        return []
    lines = [
        "",
        f"**Claims:** {block.critical_claims_proven}/{block.critical_claim_count} critical "
        f"PROVEN; capability readiness `{block.aggregate_readiness}`",
        "",
        "| claim | criticality | verdict | missing evidence |",
        "| --- | --- | --- | --- |",
    ]
    for claim in block.claims:
        missing = ", ".join(claim.missing_evidence) or "—"
        lines.append(
            f"| {cell(claim.id)} | {claim.criticality} | {claim.verdict} | {cell(missing)} |"
        )
    return lines


def _failures(report: Report) -> list[str]:
    lines: list[str] = []
    for detail in failure_details(report):
        case = detail.case
        first = case.problems[0].code if case.problems else case.outcome
        title = html.escape(f"{case.outcome} {case.name}: {first}")
        lines += ["", f"<details><summary>{title}</summary>", ""]
        lines += [f"- `{p.code}`: {cell(p.message)}" for p in case.problems]
        lines += ["", f"First failing trial: `{trial_line(detail.trial)}`", ""]
        for tail in detail.tails:
            lines.append(f"{tail.heading(detail.trial.trial_id)}")
            if tail.lines:
                lines += ["", fenced("\n".join(tail.lines)), ""]
        lines.append("</details>")
    return lines


def render_markdown(report: Report) -> str:
    """Return the run summary as GitHub-flavoured Markdown."""
    lines = [
        f"### agentic-evals: {cell(report.skill)} is `{report.readiness}`",
        "",
        f"{cell(readiness_reason(report))}",
        "",
        "| outcome | case | trials | time | notes |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [_case_row(case) for case in report.cases]
    lines += ["", *_totals(report), *_claims(report), *_failures(report)]
    lines += ["", f"<sub>agentic-evals {report.runner.version}, run {report.run_id}</sub>"]
    return "\n".join(lines) + "\n"
