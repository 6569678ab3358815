"""The one-line reason behind a report's readiness, and what a resumed run kept. Pure.

The terminal summary, Markdown, HTML and JUnit outputs all open with it, so
a reader learns in one line why a run is (or is not) READY.
"""

from __future__ import annotations

from agentic_evals.reports.model import CaseReport, Report

_NAMES_SHOWN = 3


def _names(cases: list[CaseReport]) -> str:
    names = [case.name for case in cases[:_NAMES_SHOWN]]
    more = len(cases) - len(names)
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _case_reasons(report: Report) -> list[str]:
    required = [case for case in report.cases if case.required]
    reasons = []
    for outcome, verb in (("FAIL", "failed"), ("BLOCKED", "blocked"), ("NOT_TESTED", "not tested")):
        hit = [case for case in required if case.outcome == outcome]
        if hit:
            reasons.append(f"{len(hit)} required case(s) {verb} ({_names(hit)})")
    return reasons


def _claim_reasons(report: Report) -> list[str]:
    block = report.capability_readiness
    if block is None:
        return []
    reasons = []
    for claim in block.claims:
        if claim.verdict == "PROVEN" or claim.criticality == "optional":
            continue
        missing = f": missing {', '.join(claim.missing_evidence)}" if claim.missing_evidence else ""
        reasons.append(f"{claim.criticality} claim {claim.id} {claim.verdict}{missing}")
    return reasons


def readiness_reason(report: Report) -> str:
    """Say in one line why the report's readiness is what it is."""
    reason = _reason(report)
    return reason if report.readiness_limit is None else f"{report.readiness_limit}; {reason}"


_SKIPPED_SHOWN = 10


def _skipped(report: Report) -> str:
    if report.fixture_cases is None:
        return ""
    ran = {case.name for case in report.cases}
    skipped = [entry.name for entry in report.fixture_cases if entry.name not in ran]
    if not skipped:
        return "; skipped no case"
    more = len(skipped) - _SKIPPED_SHOWN
    shown = ", ".join(skipped[:_SKIPPED_SHOWN]) + (f" and {more} more" if more > 0 else "")
    return f"; skipped {len(skipped)} of {len(report.fixture_cases)} case(s): {shown}"


def scope_line(report: Report) -> str | None:
    """What the report covers, when it is not a full run of a skill fixture; else None."""
    if report.shard is not None:
        shard = report.shard
        return (
            f"shard {shard.index} of {shard.total}: never READY for the fixture, "
            f"only merge of all {shard.total} shards decides" + _skipped(report)
        )
    if report.focused_cases is not None:
        return (
            f"focused run of {len(report.cases)} case(s) (--case): the gates were skipped "
            "and readiness is not established" + _skipped(report)
        )
    if report.eval_kind == "runner_selftest":
        return (
            "runner_selftest fixture: the anti-slop and compliance gates were skipped; "
            "it is no evidence for a skill"
        )
    if report.eval_kind == "scaffold":
        return "scaffold fixture: wiring only, never READY; replace it with real cases"
    return None


def _reason(report: Report) -> str:
    required = [case for case in report.cases if case.required]
    if report.interrupted:
        unfinished = sum(1 for case in report.cases if case.outcome == "NOT_TESTED")
        return f"interrupted by {report.interrupted}: {unfinished} case(s) NOT_TESTED"
    if report.readiness == "NOT_ESTABLISHED" and not any(
        case.outcome != "NOT_TESTED" for case in required
    ):
        return "no required case was executed"
    passed = sum(1 for case in required if case.outcome == "PASS")
    block = report.capability_readiness
    claims = ""
    if block is not None:
        claims = (
            f"; {block.critical_claims_proven}/{block.critical_claim_count} critical claims PROVEN"
        )
    if report.readiness == "READY":
        return f"all {passed} required case(s) passed{claims}"
    reasons = _case_reasons(report) + _claim_reasons(report)
    head = f"{passed}/{len(required)} required case(s) passed{claims}"
    return "; ".join([head, *reasons])


def resumed_line(report: Report) -> str | None:
    """What a resumed run took from the report it resumed; None for any other report."""
    resumed = report.resumed_from
    if resumed is None:
        return None
    ran = sum(1 for case in report.cases for trial in case.trials if not trial.reused)
    line = (
        f"resumed {resumed.path} (run {resumed.run_id}): {resumed.kept_trials} trial(s) kept, "
        f"{ran} run"
    )
    if resumed.changed_cases:
        line += f"; changed, so run in full: {', '.join(resumed.changed_cases)}"
    return line
