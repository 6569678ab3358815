"""Terminal summaries of ``regressions show``, ``audit`` and ``verify`` (pure text)."""

from __future__ import annotations

from agentic_evals.regressions.results import (
    RegressionRow,
    RegressionsAudit,
    RegressionsShow,
    RegressionSummary,
    RegressionsVerify,
    UnmappedIncident,
    VerifyResult,
)


def _row_lines(rows: list[RegressionRow], indent: str) -> list[str]:
    width = max((len(row.regression_id) for row in rows), default=0)
    lines = []
    for row in rows:
        state = "ok " if row.status != "ACTIVE" or not _attention(row) else "NOT"
        flags = [
            "protected" if row.protected else "UNPROTECTED",
            f"{row.proof} proof proven {(row.last_proven or '')[:10]}"
            if row.established_fail_before_fix
            else _NOT_ESTABLISHED[row.proof_state],
        ]
        if row.stale_live_proof:
            flags.append("STALE")
        lines.append(
            f"{indent}{state} {row.regression_id.ljust(width)}  {row.status.ljust(7)} "
            + ", ".join(flags)
        )
        lines += [f"{indent}      {issue}" for issue in row.issues]
    return lines


_NOT_ESTABLISHED = {
    "established": "proven",
    "never_proven": "NEVER PROVEN",
    "weak": "WEAK PROOF",
    "unverified": "UNVERIFIED last_proven",
    "stale": "STALE PROOF",
    "not_applicable": "PROOF NOT APPLICABLE",
    "unguarded": "NOT ESTABLISHED",
}


def _attention(row: RegressionRow) -> bool:
    return not row.protected or not row.established_fail_before_fix


def _incident_lines(incidents: list[UnmappedIncident], indent: str) -> list[str]:
    return [
        f"{indent}UNMAPPED incident {incident.id}"
        + (f" ({incident.issue})" if incident.issue else "")
        + (f": {incident.summary}" if incident.summary else "")
        for incident in incidents
    ]


def _summary_line(summary: RegressionSummary) -> str:
    return (
        f"regressions: {summary.total} ({summary.active} active, {summary.retired} retired, "
        f"{summary.exempt} exempt); unprotected {summary.unprotected}, not established "
        f"{summary.never_proven_fail_before_fix} (weak {summary.weak_proof}, unverified "
        f"{summary.unverified_last_proven}, stale {summary.proof_stale}), stale live proof "
        f"{summary.stale_live_proof}, unmapped incidents {summary.unmapped_incidents}"
    )


def render_show(show: RegressionsShow, exit_code: int) -> str:
    """One line per regression with its issues, unmapped incidents, the counts and the exit."""
    lines = [f"agentic-evals regressions: {show.registry} (as of {show.as_of})"]
    lines += _row_lines(show.rows, "  ")
    lines += _incident_lines(show.unmapped_incidents, "  ")
    lines += ["", _summary_line(show.summary), f"exit {exit_code}"]
    return "\n".join(lines) + "\n"


def render_audit(audit: RegressionsAudit, exit_code: int) -> str:
    """Each skill's regressions, the skipped files, the tree's counts and the exit."""
    summary = audit.summary
    lines = [f"agentic-evals regressions audit: {summary.skills} registries under {audit.root}"]
    for skill in audit.skills:
        if not skill.valid:
            errors = sum(finding.severity == "error" for finding in skill.findings)
            lines.append(f"  {skill.skill}: INVALID registry ({errors} errors)")
            continue
        lines.append(f"  {skill.skill}:")
        lines += _row_lines(skill.rows, "    ")
        lines += _incident_lines(skill.unmapped_incidents, "    ")
    for skipped in audit.skipped:
        lines.append(f"  skipped {skipped.path}: {skipped.reason}")
    lines += [
        "",
        f"registries: {summary.skills} ({summary.invalid} invalid), skipped {summary.skipped}",
        _summary_line(summary.regressions),
        f"exit {exit_code}",
    ]
    return "\n".join(lines) + "\n"


def render_verify(verify: RegressionsVerify, exit_code: int) -> str:
    """One line per record with its verdict and why, its runs, then the counts and the exit."""
    width = max((len(result.regression_id) for result in verify.results), default=0)
    lines = [f"agentic-evals regressions verify: {verify.registry}"]
    for result in verify.results:
        lines.append(
            f"  {result.verdict.upper().ljust(8)} {result.regression_id.ljust(width)}  "
            f"{_proof_text(result)}: {result.detail}"
        )
        lines += _run_lines(result)
    if verify.written:
        lines.append(f"last_proven {verify.as_of} written for: {', '.join(verify.written)}")
    if verify.interrupted:
        lines.append(f"interrupted by {verify.interrupted}: the rest was not run")
    lines += [
        "",
        f"verified {len(verify.verified)}, unproven {len(verify.unproven)} "
        f"(unprotected {len(verify.unprotected)}), weak {len(verify.weak)}, "
        f"skipped {len(verify.skipped)}",
        f"exit {exit_code}",
    ]
    return "\n".join(lines) + "\n"


def _proof_text(result: VerifyResult) -> str:
    reason = f" {result.reason_code}" if result.reason_code else ""
    if result.proof == "proof_command":
        exit_text = "-" if result.proof_exit_code is None else str(result.proof_exit_code)
        return f"proof_command exit {exit_text}{reason}"
    return f"{result.proof or 'no proof'}{reason}"


def _run_lines(result: VerifyResult) -> list[str]:
    indent = "           "
    lines = []
    for label, guard in (("broken tree", result.broken_guard), ("current tree", result.guard)):
        if guard is not None:
            verdict = "PASS" if guard.passed else guard.outcome or "NOT RUN"
            lines.append(f"{indent}{label}: {verdict}: {guard.detail}")
    trees = result.trees
    if trees is not None and trees.kept and trees.broken:
        lines.append(f"{indent}broken tree kept at {trees.broken}")
    return lines
