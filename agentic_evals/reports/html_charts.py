"""Inline SVG charts of a report: pass rate per case with its Wilson interval, trial durations.

Drawn as plain SVG markup (no script, no external asset), with text labels,
so the charts read in any browser and in print.
"""

from __future__ import annotations

from html import escape
from typing import Final

from agentic_evals.judge.metrics import wilson_interval
from agentic_evals.reports.model import CaseReport

ROW: Final = 22
LABEL: Final = 260
PLOT: Final = 360
COLOURS: Final = {
    "PASS": "#2e7d32",
    "FAIL": "#c62828",
    "BLOCKED": "#ef6c00",
    "INFRA_BLOCKED": "#8d6e63",
    "NOT_TESTED": "#6a1b9a",
}


def _label(text: str, limit: int = 36) -> str:
    return escape(text if len(text) <= limit else text[: limit - 1] + "…")


def _open(width: int, height: int, ident: str, title: str) -> list[str]:
    """The opening of a labelled SVG image."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="{ident}">',
        f'<title id="{ident}">{escape(title)}</title>',
    ]


def pass_rate_chart(cases: list[CaseReport]) -> str:
    """One bar per case: its trial pass rate, with the Wilson 95% interval as a whisker."""
    height = ROW * len(cases) + 30
    width = LABEL + PLOT + 70
    parts = _open(width, height, "pass-rate-title", "Pass rate per case, Wilson 95% interval")
    for tick in (0, 0.5, 1):
        x = LABEL + tick * PLOT
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{height - 20}" stroke="#ccc"/>')
        parts.append(
            f'<text x="{x}" y="{height - 6}" font-size="11" text-anchor="middle">{tick:.0%}</text>'
        )
    for row, case in enumerate(cases):
        y = row * ROW + 4
        interval = wilson_interval(case.passed_trials, case.total_trials)
        parts.append(
            f'<text x="{LABEL - 8}" y="{y + 13}" font-size="12" text-anchor="end">'
            f"{_label(case.name)}</text>"
        )
        if interval.rate is None:
            parts.append(f'<text x="{LABEL + 4}" y="{y + 13}" font-size="11">no trial ran</text>')
            continue
        colour = COLOURS.get(case.outcome, "#555")
        bar = interval.rate * PLOT
        parts.append(
            f'<rect x="{LABEL}" y="{y}" width="{bar:.1f}" height="16" fill="{colour}" '
            'opacity="0.75"/>'
        )
        low = LABEL + (interval.wilson_low or 0) * PLOT
        high = LABEL + (interval.wilson_high or 0) * PLOT
        mid = y + 8
        parts.append(
            f'<line x1="{low:.1f}" y1="{mid}" x2="{high:.1f}" y2="{mid}" stroke="#111" '
            'stroke-width="1.5"/>'
        )
        for x in (low, high):
            parts.append(
                f'<line x1="{x:.1f}" y1="{mid - 5}" x2="{x:.1f}" y2="{mid + 5}" stroke="#111"/>'
            )
        parts.append(
            f'<text x="{LABEL + PLOT + 8}" y="{y + 13}" font-size="11">'
            f"{case.passed_trials}/{case.total_trials}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def duration_chart(cases: list[CaseReport]) -> str:
    """One bar per trial, grouped by case, its length the trial's duration."""
    trials = [(case, trial) for case in cases for trial in case.trials]
    longest = max((trial.duration_ms for _, trial in trials), default=0) or 1
    height = ROW * len(trials) + 10
    width = LABEL + PLOT + 90
    parts = _open(width, height, "duration-title", "Duration of every trial")
    for row, (case, trial) in enumerate(trials):
        y = row * ROW + 4
        number = trial.trial_id.rsplit("#", 1)[-1]
        parts.append(
            f'<text x="{LABEL - 8}" y="{y + 13}" font-size="12" text-anchor="end">'
            f"{_label(case.name, 30)} #{escape(number)}</text>"
        )
        bar = max(1.0, trial.duration_ms / longest * PLOT)
        colour = COLOURS.get(trial.outcome, "#555")
        parts.append(f'<rect x="{LABEL}" y="{y}" width="{bar:.1f}" height="16" fill="{colour}"/>')
        parts.append(
            f'<text x="{LABEL + bar + 6:.1f}" y="{y + 13}" font-size="11">'
            f"{trial.duration_ms} ms {trial.outcome}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
