"""Resuming a run (``run --resume REPORT``): which trials of REPORT it keeps, what it runs.

A trial of REPORT is kept when its case has not changed since REPORT was
written and the trial finished: PASS, FAIL, BLOCKED, and INFRA_BLOCKED unless
``--retry-infra``. Everything else runs: the trials REPORT lacks (its run was
interrupted), its NOT_TESTED trials and, with ``--retry-infra``, its
INFRA_BLOCKED ones. A kept trial keeps its number and is marked ``reused``,
with the run it ran in.

What counts as a change: the fixture's bytes (``fixture_sha256``), the
settings every trial runs under (``trial_settings_sha256``: a change there
changes every case), a case's ``test_source_sha256`` or ``oracle_sha256``, a
skill file its command runs (changed, newly run, no longer run), a case REPORT
does not hold, a case REPORT holds that the fixture no longer has. Any change
refuses the resume, listing every one, unless ``--resume-changed-cases``: then
each changed case runs in full and the others keep their trials.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from agentic_evals.evaluation.resume_source import ResumeError, ResumeRequest
from agentic_evals.judge.provenance import sha256_bytes, trial_settings_sha256
from agentic_evals.judge.report import CaseHashes, current_hashes
from agentic_evals.reports.model import CaseReport, ResumedFrom, TrialOutcome, TrialReport

if TYPE_CHECKING:
    from agentic_evals.contract.load import LoadResult
    from agentic_evals.runner.case_run import CaseRun

_FINISHED: Final[frozenset[TrialOutcome]] = frozenset({"PASS", "FAIL", "BLOCKED"})
"""Trial outcomes a resumed run keeps (INFRA_BLOCKED too, without ``--retry-infra``)."""


class ResumeRefused(ResumeError):
    """The fixture, a case or a skill file changed since REPORT (exit 2)."""


class Change(NamedTuple):
    """One thing that differs from what REPORT was run on."""

    case_id: str | None
    """The case it concerns; None for the fixture as a whole."""
    what: str
    """What changed, in words."""
    every_case: bool = False
    """It changes every case (the settings all trials run under)."""


def plan_resume(loaded: LoadResult, runs: list[CaseRun], request: ResumeRequest) -> ResumedFrom:
    """Give each of ``runs`` the trials it keeps from REPORT and the numbers it still runs.

    Returns:
        What the new report says of REPORT.

    Raises:
        ResumeError: REPORT is a report of another fixture (another skill).
        ResumeRefused: Something changed and ``--resume-changed-cases`` was not given.
    """
    fixture, report = loaded.model, request.report
    assert fixture is not None
    if report.skill != fixture.skill:
        raise ResumeError(
            f"{request.path} is a report of skill {report.skill!r}, not of {loaded.path} "
            f"(skill {fixture.skill!r}): a run resumes only a report of its own fixture"
        )
    changes = find_changes(loaded, runs, request)
    if changes and not request.changed_cases:
        raise ResumeRefused(_refusal(loaded, request, changes))
    every = any(change.every_case for change in changes)
    changed = {change.case_id for change in changes}
    before = {case.name: case for case in report.cases}
    kept = 0
    rerun: list[str] = []
    for run in runs:
        old = before.get(run.case.name)
        if old is None or every or run.case_id(fixture) in changed:
            rerun.append(run.case_id(fixture))
            continue
        kept += _seed(run, old, fixture.trials, request)
    return ResumedFrom(
        path=str(request.path),
        run_id=report.run_id,
        report_sha256=request.sha256,
        runs=[*(report.resumed_from.runs if report.resumed_from else []), report.run_id],
        kept_trials=kept,
        changed_cases=rerun,
        retry_infra=request.retry_infra,
    )


def _seed(run: CaseRun, old: CaseReport, trials: int, request: ResumeRequest) -> int:
    """Start ``run`` with the trials it keeps of ``old``; return how many."""
    keep = set(_FINISHED) if request.retry_infra else {*_FINISHED, "INFRA_BLOCKED"}
    kept = sorted(
        (t for t in old.trials if t.outcome in keep and t.number <= trials),
        key=lambda trial: trial.number,
    )
    run.trials = [_reused(trial, request.report.run_id) for trial in kept]
    have = {trial.number for trial in kept}
    run.pending = tuple(n for n in range(1, trials + 1) if n not in have)
    return len(kept)


def _reused(trial: TrialReport, run_id: str) -> TrialReport:
    """The trial, marked as kept; one kept before keeps the run it first ran in."""
    return trial.model_copy(update={"reused": True, "reused_from": trial.reused_from or run_id})


def find_changes(loaded: LoadResult, runs: list[CaseRun], request: ResumeRequest) -> list[Change]:
    """Everything that differs between REPORT and the fixture and skill files as they are."""
    fixture, report, name = loaded.model, request.report, request.path
    assert fixture is not None and isinstance(loaded.document, dict)
    changes: list[Change] = []
    now = sha256_bytes(loaded.source)
    if now != report.fixture_sha256:
        ran = f", which ran {report.source}" if report.source != str(loaded.path) else ""
        what = (
            f"the fixture {loaded.path} changed (sha256 {report.fixture_sha256[:12]} in "
            f"{name}{ran}, {now[:12]} now)"
        )
        changes.append(Change(None, what))
    if trial_settings_sha256(loaded.document) != report.trial_settings_sha256:
        what = "its workspace, which every trial runs in, changed (every case)"
        changes.append(Change(None, what, every_case=True))
    if fixture.trials != report.trials_per_case:
        what = f"trials per case changed ({report.trials_per_case} in {name}, {fixture.trials} now)"
        changes.append(Change(None, what))
    before = {case.name: case for case in report.cases}
    hashes = current_hashes(loaded, runs)
    for run in runs:
        case_id, old = run.case_id(fixture), before.get(run.case.name)
        if old is None:
            changes.append(Change(case_id, f"not in {name}"))
            continue
        changes.extend(Change(case_id, what) for what in _case_changes(old, hashes[run.case.name]))
    selected = {run.case.name for run in runs}
    changes.extend(
        Change(case.case_id, "no longer in the fixture")
        for case in report.cases
        if case.name not in selected
    )
    return changes


def _case_changes(old: CaseReport, now: CaseHashes) -> list[str]:
    found = []
    if old.test_source_sha256 != now.test_source_sha256:
        found.append("its test source changed (the case without expected)")
    if old.oracle_sha256 != now.oracle_sha256:
        found.append("its oracle changed (expected)")
    if old.skill_files is None:
        return [*found, "the report does not name the skill files it ran"]
    for path in sorted(old.skill_files.keys() | now.skill_files.keys()):
        then, current = old.skill_files.get(path), now.skill_files.get(path)
        if then == current:
            continue
        if then is None:
            found.append(f"it now runs skill file {path}")
        elif current is None:
            found.append(f"it no longer runs skill file {path}")
        else:
            found.append(f"skill file {path} changed")
    return found


def _refusal(loaded: LoadResult, request: ResumeRequest, changes: list[Change]) -> str:
    lines = [f"cannot resume {request.path}: it no longer matches {loaded.path}:"]
    lines.extend(
        f"  case {change.case_id}: {change.what}" if change.case_id else f"  {change.what}"
        for change in changes
    )
    lines.append(
        "re-run just the changed cases with --resume-changed-cases, or run afresh without --resume"
    )
    return "\n".join(lines)
