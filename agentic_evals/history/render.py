"""Terminal tables of the ``history`` commands (pure text)."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_evals.history.models import (
    FlakyList,
    HistoryList,
    ImportedList,
    PruneReceipt,
    ReportImportReceipt,
    RunDetail,
    RunSummary,
    Trend,
)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell; the last column is not padded."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    lines = []
    for row in (headers, *rows):
        cells = [str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def when(stamp: str) -> str:
    """A sortable UTC time as ``2026-12-01 20:00:05``."""
    return stamp[:19].replace("T", " ")


def rate(passed: int, total: int, low: float | None = None, high: float | None = None) -> str:
    """``passed/total``, with the Wilson interval when given."""
    text = f"{passed}/{total}"
    if low is not None and high is not None and total:
        text += f" {passed / total:.2f} [{low:.2f}, {high:.2f}]"
    return text


def scope(run: RunSummary) -> str:
    """Full, shard, focused, interrupted and/or resumed."""
    parts = []
    if run.shard:
        parts.append(f"shard {run.shard}")
    if run.focused:
        parts.append("focused")
    if run.interrupted:
        parts.append(f"interrupted ({run.interrupted})")
    if run.resumed_from:
        parts.append(f"resumed {run.resumed_from[:12]}")
    return ", ".join(parts) or "full"


def render_list(listing: HistoryList, where: str) -> str:
    """One line per run, newest first."""
    if not listing.runs:
        return f"history {where}: no runs recorded\n"
    rows = [
        (
            run.run_id[:12],
            when(run.generated_at),
            run.skill,
            run.readiness,
            rate(run.passed_trials, run.trial_count),
            scope(run),
        )
        for run in listing.runs
    ]
    lines = [f"history {where}: {len(rows)} run(s), newest first"]
    lines += table(("RUN", "WHEN (UTC)", "SKILL", "READINESS", "TRIALS", "SCOPE"), rows)
    return "\n".join(lines) + "\n"


def render_show(detail: RunDetail) -> str:
    """The run, then its cases and claims."""
    run = detail.run
    lines = [
        f"run {run.run_id}: {run.skill} ({run.eval_kind}), {run.readiness}",
        f"  written {when(run.generated_at)} UTC from {run.source}, {scope(run)}, "
        f"trials {rate(run.passed_trials, run.trial_count)}, agentic-evals {run.runner_version}",
    ]
    if run.repo_sha:
        lines.append(f"  git {run.repo_sha}" + (f" ({run.repo_ref})" if run.repo_ref else ""))
    case_rows = [
        (case.case_id, case.outcome, rate(case.passed_trials, case.total_trials),
         "yes" if case.flaky else "", case.test_source_sha256[:12], case.oracle_sha256[:12])
        for case in detail.cases
    ]  # fmt: skip
    lines += ["", "cases:"]
    lines += table(("CASE", "OUTCOME", "TRIALS", "FLAKY", "TEST", "ORACLE"), case_rows)
    if detail.claims:
        claim_rows = [
            (claim.claim_id, claim.criticality, claim.verdict, str(len(claim.case_ids)))
            for claim in detail.claims
        ]
        lines += ["", "claims:"]
        lines += table(("CLAIM", "CRITICALITY", "VERDICT", "CASES"), claim_rows)
    return "\n".join(lines) + "\n"


def render_trend(result: Trend) -> str:
    """One line per run, oldest first, with the hashes that changed."""
    rows = [
        (
            point.run_id[:12],
            when(point.generated_at),
            point.outcome,
            rate(point.passed, point.total, point.wilson_low, point.wilson_high),
            ", ".join(point.hashes_changed),
        )
        for point in result.points
    ]
    lines = [f"trend of {result.kind} {result.target}: {len(rows)} run(s), oldest first"]
    heading = "VERDICT" if result.kind == "claim" else "OUTCOME"
    lines += table(("RUN", "WHEN (UTC)", heading, "PASS RATE [WILSON 95%]", "CHANGED"), rows)
    return "\n".join(lines) + "\n"


def render_flaky(result: FlakyList, window: int) -> str:
    """One line per flaky case."""
    if not result.flaky:
        return f"no flaky case in the last {window} decided runs of each case\n"
    rows = [
        (case.case_id, str(case.flips), f"{case.passes}/{case.runs}", case.last_outcome,
         ", ".join(run_id[:12] for run_id in case.flipped_in))
        for case in result.flaky
    ]  # fmt: skip
    lines = [
        f"{len(rows)} flaky case(s): the outcome changed while test, oracle and skill-file "
        f"hashes stayed the same (last {window} decided runs of each case)"
    ]
    lines += table(("CASE", "FLIPS", "PASSED", "LAST", "FLIPPED IN"), rows)
    return "\n".join(lines) + "\n"


def render_prune(receipt: PruneReceipt) -> str:
    """How many runs went and stayed."""
    return (
        f"pruned {len(receipt.removed)} run(s), kept {receipt.kept} (--keep {receipt.keep}); "
        "report files are untouched\n"
    )


def render_import(receipt: ReportImportReceipt) -> str:
    """One line per report that was not simply recorded, then the counts."""
    lines = [
        f"  {entry.status}: {entry.message}"
        for entry in receipt.reports
        if entry.message is not None
    ]
    lines.append(
        f"history import: {receipt.recorded} recorded, {receipt.already_recorded} already "
        f"recorded, {receipt.conflicts} conflict(s), {receipt.invalid} invalid"
        + (f", {receipt.superseded} superseded by resumed runs" if receipt.superseded else "")
    )
    return "\n".join(lines) + "\n"


def render_imported(result: ImportedList) -> str:
    """One line per imported result."""
    if not result.imported:
        return "no imported results\n"
    rows = [
        (item.evaluation_id, item.source_name or "", item.source_organization_name,
         item.model_id, when(item.imported_at))
        for item in result.imported
    ]  # fmt: skip
    lines = [f"{len(rows)} imported result(s) (never exported as this tool's own)"]
    lines += table(("EVALUATION", "SOURCE", "ORGANIZATION", "MODEL", "IMPORTED (UTC)"), rows)
    return "\n".join(lines) + "\n"
