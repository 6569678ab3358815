"""The report as one self-contained HTML page. Pure.

No network and no external asset: styles are inline, charts are inline SVG
(:mod:`.html_charts`), and a Content-Security-Policy forbids loading
anything. The page has no script: everything reads without JavaScript.
Sections: readiness and its one-line reason, the totals, the claims matrix
(claim x evidence class, each cell the verdict and the cases behind it),
charts, every case with its trials, failure output, seams and claim
coverage when the report has them.
"""

from __future__ import annotations

from html import escape

from agentic_evals.reports.failure import failure_details, trial_line
from agentic_evals.reports.html_charts import duration_chart, pass_rate_chart
from agentic_evals.reports.model import CaseReport, Report
from agentic_evals.reports.reason import readiness_reason

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;
color:#111}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;
vertical-align:top;text-align:left}th{background:#f5f5f5}
.v{font-weight:700;padding:.1rem .4rem;border-radius:3px;color:#fff;background:#555}
.PASS,.READY,.PROVEN{background:#2e7d32}.FAIL,.NOT_READY,.FAILED{background:#c62828}
.BLOCKED,.USABLE_WITH_GAPS,.PARTIALLY_PROVEN,.BLOCKED_EXTERNAL,.INFRA_BLOCKED{background:#ef6c00}
.NOT_TESTED,.NOT_ESTABLISHED,.MISSING,.EXEMPT{background:#6a1b9a}
#readiness{font-size:1.3rem}pre{background:#f7f7f7;padding:.5rem;overflow:auto;max-height:30rem}
.muted{color:#666}
"""
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _badge(word: str) -> str:
    return f'<span class="v {escape(word)}">{escape(word)}</span>'


def _header(report: Report) -> list[str]:
    rate = report.metrics.trial_pass_rate
    trials = "none ran"
    if rate.rate is not None and rate.wilson_low is not None and rate.wilson_high is not None:
        trials = (
            f"{rate.passed}/{rate.total} passed ({rate.rate:.1%}; Wilson 95% "
            f"{rate.wilson_low:.1%}–{rate.wilson_high:.1%})"
        )
    counts = ", ".join(f"{n} {k}" for k, n in sorted(report.outcome_counts.items()) if n)
    return [
        f"<h1>agentic-evals: {escape(report.skill)}</h1>",
        f'<p id="readiness">Readiness: <strong class="v {escape(report.readiness)}">'
        f"{escape(report.readiness)}</strong></p>",
        f'<p id="reason">{escape(readiness_reason(report))}</p>',
        "<table><tbody>",
        f"<tr><th>fixture</th><td>{escape(report.source)}</td></tr>",
        f"<tr><th>cases</th><td>{report.case_count} ({escape(counts or 'none')})</td></tr>",
        f"<tr><th>trials</th><td>{escape(trials)}</td></tr>",
        f"<tr><th>hallucinated success</th><td>{report.metrics.hallucinated_success.count} "
        "trial(s) whose own checks passed while an independent check failed</td></tr>",
        f"<tr><th>run</th><td>{escape(report.run_id)}, {escape(report.generated_at)}, "
        f"{report.duration_ms} ms, agentic-evals {escape(report.runner.version)}</td></tr>",
        "</tbody></table>",
    ]


def _claims(report: Report) -> list[str]:
    block = report.capability_readiness
    if block is None:
        return []
    classes = list(dict.fromkeys(c for claim in block.claims for c in claim.per_class))
    head = "".join(f"<th>{escape(c)}</th>" for c in classes)
    rows = []
    for claim in block.claims:
        cells = []
        for cls in classes:
            verdict = claim.per_class.get(cls)
            if verdict is None:
                cells.append('<td class="muted">not required</td>')
                continue
            cases = ", ".join(claim.class_cases.get(cls, [])) or "no case"
            cells.append(f"<td>{_badge(verdict)}<br><small>{escape(cases)}</small></td>")
        rows.append(
            f"<tr><th>{escape(claim.id)}<br><small>{escape(claim.criticality)}</small></th>"
            f"<td>{_badge(claim.verdict)}</td>{''.join(cells)}</tr>"
        )
    return [
        "<h2>Claims</h2>",
        f"<p>{block.critical_claims_proven}/{block.critical_claim_count} critical claims "
        f"PROVEN; capability readiness {_badge(block.aggregate_readiness)}</p>",
        f"<table><thead><tr><th>claim</th><th>verdict</th>{head}</tr></thead>",
        f"<tbody>{''.join(rows)}</tbody></table>",
    ]


def _trial_cells(case: CaseReport) -> str:
    return (
        " ".join(f"{_badge(t.outcome)} <small>{t.duration_ms} ms</small>" for t in case.trials)
        or '<span class="muted">none</span>'
    )


def _cases(report: Report) -> list[str]:
    rows = []
    for case in report.cases:
        notes = [w for w, on in (("flaky", case.flaky), ("optional", not case.required)) if on]
        problems = "<br>".join(escape(f"{p.code}: {p.message}") for p in case.problems)
        rows.append(
            f'<tr><td>{escape(case.name)}<br><small class="muted">{escape(case.type)}, '
            f"{escape(case.effective_evidence_class)}</small></td><td>{_badge(case.outcome)} "
            f"{escape(' '.join(notes))}</td><td>{case.passed_trials}/{case.total_trials}</td>"
            f"<td>{_trial_cells(case)}</td><td>{problems}</td></tr>"
        )
    return [
        "<h2>Cases</h2>",
        "<table><thead><tr><th>case</th><th>outcome</th><th>passed</th><th>trials</th>"
        "<th>problems</th></tr></thead>",
        f"<tbody>{''.join(rows)}</tbody></table>",
    ]


def _failures(report: Report) -> list[str]:
    details = failure_details(report)
    if not details:
        return []
    out = ["<h2>Failure output</h2>"]
    for detail in details:
        out.append(
            f"<details open><summary>{_badge(detail.case.outcome)} "
            f"{escape(detail.case.name)}: {escape(trial_line(detail.trial))}</summary>"
        )
        for tail in detail.tails:
            out.append(f"<p>{escape(tail.heading(detail.trial.trial_id))}</p>")
            if tail.lines:
                out.append(f"<pre>{escape(chr(10).join(tail.lines))}</pre>")
        out.append("</details>")
    return out


def _seams(report: Report) -> list[str]:
    seams: dict[str, list[CaseReport]] = {}
    for case in report.cases:
        for seam in case.seams:
            seams.setdefault(seam, []).append(case)
    out: list[str] = []
    if seams:
        rows = "".join(
            f"<tr><td>{escape(seam)}</td><td>"
            + ", ".join(f"{escape(c.name)} {_badge(c.outcome)}" for c in cases)
            + "</td></tr>"
            for seam, cases in seams.items()
        )
        out += ["<h2>Seams</h2>", "<table><thead><tr><th>seam</th><th>cases guarding it</th>"]
        out += [f"</tr></thead><tbody>{rows}</tbody></table>"]
    if report.claims_coverage:
        rows = "".join(
            f"<tr><td>{escape(claim)}</td><td>{escape(', '.join(names) or 'no case')}</td></tr>"
            for claim, names in report.claims_coverage.items()
        )
        out += ["<h2>Claim coverage</h2>", "<table><thead><tr><th>claim</th><th>cases</th>"]
        out += [f"</tr></thead><tbody>{rows}</tbody></table>"]
    return out


def render_html(report: Report) -> str:
    """Return the report as one HTML document."""
    body = [
        *_header(report),
        *_claims(report),
        "<h2>Charts</h2>",
        "<h3>Pass rate per case (Wilson 95% interval)</h3>",
        pass_rate_chart(report.cases),
        "<h3>Trial durations</h3>",
        duration_chart(report.cases),
        *_cases(report),
        *_failures(report),
        *_seams(report),
        f'<p class="muted">agentic-evals {escape(report.runner.version)}</p>',
    ]
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en"><head><meta charset="utf-8">',
                f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                '<link rel="icon" href="data:,">',
                f"<title>agentic-evals: {escape(report.skill)} {escape(report.readiness)}</title>",
                f"<style>{_STYLE}</style></head><body>",
                *body,
                "</body></html>",
            ]
        )
        + "\n"
    )
