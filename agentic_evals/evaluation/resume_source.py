"""The report a run resumes (``run --resume REPORT``): read, checked, and what it selected.

REPORT must be a whole ``agentic_evals.report.v2`` report written by this
version of agentic-evals (trials judged by another version are not mixed with
this one's), and consistent: each case id is ``<skill>::<name>`` and each
trial id ``<case_id>#<n>`` with ``n`` from 1 to its ``trials_per_case``, once.
Anything else is refused before the fixture runs, naming the file, the JSON
pointer and the rule.

A resumed run continues the same selection of cases: with neither ``--case``
nor a shard given, it takes REPORT's (its focused cases, or its shard); one
given must be the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from agentic_evals import __version__
from agentic_evals.documents.bounded import BoundError, read_regular
from agentic_evals.judge.merge import MergeError, report_from_bytes
from agentic_evals.judge.provenance import sha256_bytes
from agentic_evals.judge.shard import Shard
from agentic_evals.limits import MAX_REPORT_BYTES
from agentic_evals.reports.model import Report


class ResumeError(ValueError):
    """REPORT cannot be resumed: the message names the file and why (exit 2)."""


@dataclass(frozen=True)
class ResumeRequest:
    """What ``run --resume`` was asked to continue, and how."""

    path: Path
    """REPORT as given."""
    report: Report
    """Its content."""
    sha256: str
    """sha256 of its bytes as they were read."""
    retry_infra: bool = False
    """Run its INFRA_BLOCKED trials again (``--retry-infra``)."""
    changed_cases: bool = False
    """Re-run the cases that changed since it instead of refusing (``--resume-changed-cases``)."""


class Selection(NamedTuple):
    """Which cases a run runs: the ones named with ``--case``, or a shard, or all."""

    focus: tuple[str, ...]
    shard: Shard | None


def read_resume_report(
    path: Path, *, retry_infra: bool = False, changed: bool = False
) -> ResumeRequest:
    """Read REPORT and check that it can be resumed at all (its fixture is compared later).

    Raises:
        ResumeError: It cannot be read, is not JSON (a report cut short), is not a
            valid report, was written by another version, or is inconsistent.
    """
    try:
        data = read_regular(path, MAX_REPORT_BYTES)
    except BoundError as error:
        raise ResumeError(str(error)) from None
    except OSError as error:
        raise ResumeError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        report = report_from_bytes(path, data).report
    except MergeError as error:
        raise ResumeError(str(error)) from None
    if report.runner.version != __version__:
        raise ResumeError(
            f"{path}: /runner/version: written by agentic-evals {report.runner.version}, "
            f"this is {__version__}: an incompatible version (trials judged by one version "
            "are not mixed with another's)"
        )
    _check_ids(path, report)
    return ResumeRequest(path, report, sha256_bytes(data), retry_infra, changed)


def _check_ids(path: Path, report: Report) -> None:
    """Each case id is ``<skill>::<name>``, once; each trial id ``<case_id>#<n>``, once."""
    seen: set[str] = set()
    for i, case in enumerate(report.cases):
        if case.case_id != f"{report.skill}::{case.name}" or case.case_id in seen:
            rule = (
                "appears twice" if case.case_id in seen else f"is not {report.skill}::{case.name}"
            )
            raise ResumeError(f"{path}: /cases/{i}/case_id: {case.case_id!r} {rule}")
        seen.add(case.case_id)
        wanted = {f"{case.case_id}#{n}" for n in range(1, report.trials_per_case + 1)}
        numbered: set[str] = set()
        for j, trial in enumerate(case.trials):
            if trial.trial_id not in wanted or trial.trial_id in numbered:
                raise ResumeError(
                    f"{path}: /cases/{i}/trials/{j}/trial_id: {trial.trial_id!r} is not one of "
                    f"{case.case_id}#1 to #{report.trials_per_case}, once each"
                )
            numbered.add(trial.trial_id)


def resumed_selection(request: ResumeRequest, given: Selection) -> Selection:
    """The selection of a resumed run: REPORT's, which a given one must equal.

    Raises:
        ResumeError: ``given`` names other cases or another shard than REPORT ran.
    """
    report = request.report
    shard = None if report.shard is None else Shard(report.shard.index, report.shard.total)
    theirs = Selection(tuple(report.focused_cases or ()), shard)
    if not given.focus and given.shard is None:
        return theirs
    if set(given.focus) != set(theirs.focus) or given.shard != theirs.shard:
        raise ResumeError(
            f"{request.path} ran {_describe(theirs)}, this run selects {_describe(given)}: "
            "a resumed run runs the cases of the run it resumes (leave out --case, --shard "
            "and the CI shard variables, or give the same)"
        )
    return theirs


def _describe(selection: Selection) -> str:
    if selection.focus:
        return "the cases " + ", ".join(sorted(selection.focus))
    if selection.shard is not None:
        return f"shard {selection.shard}"
    return "every case"
