"""Merge shard reports of one fixture into the report of one full run.

Shards run in parallel (``run --shard K/N``, see ``agentic_evals.judge.shard``);
``merge`` puts their reports back together. The merged report's readiness,
cases and metrics equal those of a single full run of the same fixture:
everything derived is recomputed from the merged cases with the same
functions a run uses, never added up from the shards' figures.

Decisions:

- Order: a report does not store a case's fixture position; it is
  recomputed from the shard rule. The case at position ``j`` of shard
  ``K/N`` sits at fixture position ``j * N + K - 1``. To make that safe,
  every shard ``1..N`` must be present exactly once and each must hold as
  many cases as the rule gives it.
- Focused runs (``--case``) are refused: a selection of cases, run with
  the gates skipped, decides nothing for the fixture, and several of them
  do not add up to a full run. A full run's report, given alone, merges into
  itself (re-derived).
- Nothing is taken on trust (reports are not signed: merge checks
  consistency, not authorship): each report must agree with itself
  (:mod:`agentic_evals.judge.consistency`), all must name the same fixture
  bytes, cases, claims and shard total, and with ``--fixture`` that
  fixture's. Anything else is rejected naming the file and JSON pointer.
- ``run_id`` is new: the merge is a new report. The shards' run ids (the
  ``AGENTIC_EVALS_RUN_ID`` their trials saw) are not kept; keep the shard
  reports as CI artifacts to trace a trial back to its job.
- ``duration_ms`` is the longest shard's: shards run in parallel, so that
  is the wall time the evaluation took (not the CPU time it used).
- ``generated_at`` is the time of the merge. Fixture-derived fields
  (``source``, ``repo``, ``runner``, the fixture's declarations) come from
  the first shard.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from pydantic import ValidationError

from agentic_evals import clock
from agentic_evals.documents.bounded import BoundError, first_problem, parse_int, read_regular
from agentic_evals.judge.capability import merged_bases
from agentic_evals.judge.gate import Scope, derive
from agentic_evals.judge.isolation import merge_summaries
from agentic_evals.judge.merge_checks import (
    MergeError,
    ReportFile,
    check_against_fixture,
    check_one,
    claim_declarations,
)
from agentic_evals.judge.shard import Shard, fixture_position, shard_size
from agentic_evals.judge.tiers import merge_qualification
from agentic_evals.limits import MAX_REPORT_BYTES, MAX_REPORT_DEPTH
from agentic_evals.reports.model import REPORT_SCHEMA, CaseReport, Report

__all__ = ["MergeError", "ReportFile", "merge_report_files", "merge_reports", "read_report",
           "report_from_bytes"]  # fmt: skip

_REPORT_FAMILY: Final = REPORT_SCHEMA.rpartition(".")[0] + "."
"""What every version's ``schema`` starts with: ``agentic_evals.report.``."""


def read_report(path: Path) -> ReportFile:
    """Read and validate an ``agentic_evals.report.v2`` report.

    Raises:
        MergeError: The file cannot be read, is not JSON, or is not a valid
            report of this version.
    """
    try:
        data = read_regular(path, MAX_REPORT_BYTES)
    except BoundError as error:
        raise MergeError(f"{path}: cannot read: {error.rule}") from None
    except OSError as error:
        raise MergeError(f"{path}: cannot read: {error.strerror or error}") from None
    return report_from_bytes(path, data)


def report_from_bytes(path: Path, data: bytes) -> ReportFile:
    """Validate the bytes of the report file at ``path`` (see :func:`read_report`).

    Raises:
        MergeError: ``data`` is not UTF-8 JSON, or not a valid report of this version.
    """
    try:
        text = data.decode("utf-8")
        document = json.loads(text, parse_int=parse_int)
    except UnicodeDecodeError as error:
        raise MergeError(f"{path}: cannot read: {error}") from None
    except json.JSONDecodeError as error:
        # An error at the very end: the file stops before the document does.
        cut = (
            " (truncated: it ends before the document does)"
            if error.pos >= len(text.rstrip())
            else ""
        )
        raise MergeError(f"{path}: not JSON{cut}: {error}") from None
    except RecursionError:
        raise MergeError(f"{path}: nesting deeper than {MAX_REPORT_DEPTH} levels") from None
    except ValueError as error:
        raise MergeError(f"{path}: not JSON: {error}") from None
    problem = first_problem(document, MAX_REPORT_DEPTH)
    if problem is not None:
        raise MergeError(str(BoundError(str(path), *problem)))
    schema = document.get("schema") if isinstance(document, dict) else None
    if schema != REPORT_SCHEMA:
        version = isinstance(schema, str) and schema.startswith(_REPORT_FAMILY)
        raise MergeError(
            f"{path}: not an {REPORT_SCHEMA} report (schema: {schema!r})"
            + (": written by an incompatible version of agentic-evals" if version else "")
        )
    try:
        report = Report.model_validate(document)
    except ValidationError as error:
        first = error.errors()[0]
        pointer = "/" + "/".join(str(part) for part in first["loc"])
        raise MergeError(
            f"{path}: not a valid {REPORT_SCHEMA} report: {pointer}: {first['msg']} "
            f"({error.error_count()} error(s))"
        ) from None
    return ReportFile(path, report)


def merge_report_files(paths: Sequence[Path], fixture: Path | None = None) -> Report:
    """Read the reports at ``paths`` and merge them (see :func:`merge_reports`).

    With ``fixture``, every report must also name that fixture's bytes and cases.
    """
    files = [read_report(path) for path in paths]
    if fixture is not None:
        check_against_fixture(files, fixture)
    return merge_reports(files)


def merge_reports(files: Sequence[ReportFile]) -> Report:
    """Merge the reports of the shards of one fixture into one report.

    Raises:
        MergeError: No report; reports of different fixtures, skills or shard
            totals; a shard given twice or missing; a case in two reports; a
            shard holding other cases than the shard rule gives it.
    """
    if not files:
        raise MergeError("no reports to merge")
    for file in files:
        check_one(file)
    _check_compatible(files)
    if _shard(files[0]) is not None:
        files = sorted(files, key=lambda file: _index(file))
        _check_shards(files)
    _check_duplicates(files)
    return _combine(files, _ordered_cases(files))


def _shard(file: ReportFile) -> Shard | None:
    info = file.report.shard
    return None if info is None else Shard(info.index, info.total)


def _index(file: ReportFile) -> int:
    shard = _shard(file)
    return 0 if shard is None else shard.index


def _total(file: ReportFile) -> str:
    shard = _shard(file)
    return "none (not a shard report)" if shard is None else str(shard.total)


def _check_compatible(files: Sequence[ReportFile]) -> None:
    """All reports come from one fixture (bytes, cases, claims), skill and shard total."""
    first = files[0]
    for file in files[1:]:
        for what, theirs, mine in (
            ("/fixture_sha256", first.report.fixture_sha256, file.report.fixture_sha256),
            ("/skill", first.report.skill, file.report.skill),
            ("/eval_kind", first.report.eval_kind, file.report.eval_kind),
            ("/trials_per_case", first.report.trials_per_case, file.report.trials_per_case),
            ("/shard/total", _total(first), _total(file)),
        ):
            if mine != theirs:
                raise MergeError(
                    f"{file.path}: {what}: {mine} differs from {theirs} in {first.path}: "
                    "only shards of one fixture can be merged"
                )
        for what, theirs_, mine_ in (
            ("/fixture_cases", first.report.fixture_cases, file.report.fixture_cases),
            (
                "/capability_readiness/claims",
                claim_declarations(first.report),
                claim_declarations(file.report),
            ),
        ):
            if mine_ != theirs_:
                raise MergeError(
                    f"{file.path}: {what}: differs from {first.path}: "
                    "only shards of one fixture can be merged"
                )


def _check_shards(files: Sequence[ReportFile]) -> None:
    """Every shard ``1..N`` exactly once (``files`` sorted by shard index)."""
    seen: dict[int, Path] = {}
    total = 0
    for file in files:
        shard = _shard(file)
        assert shard is not None
        total = shard.total
        if shard.index > shard.total:
            raise MergeError(f"{file.path}: shard {shard} does not exist")
        if shard.index in seen:
            raise MergeError(f"{file.path}: shard {shard} was already given in {seen[shard.index]}")
        seen[shard.index] = file.path
    missing = [f"{k}/{total}" for k in range(1, total + 1) if k not in seen]
    if missing:
        raise MergeError(
            f"shard(s) {', '.join(missing)} missing: {len(files)} report(s) given, "
            f"{total} shards expected"
        )


def _check_duplicates(files: Sequence[ReportFile]) -> None:
    """No case may appear in two reports (or twice in one)."""
    seen: dict[str, Path] = {}
    for file in files:
        for case in file.report.cases:
            if case.case_id in seen:
                raise MergeError(
                    f"{file.path}: case {case.case_id!r} already appears in {seen[case.case_id]}"
                )
            seen[case.case_id] = file.path


def _ordered_cases(files: Sequence[ReportFile]) -> list[CaseReport]:
    """Return the cases in fixture order, recomputed from the shard rule."""
    if _shard(files[0]) is None:
        return [case for file in files for case in file.report.cases]
    count = sum(len(file.report.cases) for file in files)
    placed: list[tuple[int, CaseReport]] = []
    for file in files:
        shard = _shard(file)
        assert shard is not None
        expected = shard_size(count, shard)
        if len(file.report.cases) != expected:
            raise MergeError(
                f"{file.path}: shard {shard} holds {len(file.report.cases)} case(s), but "
                f"{count} cases in {shard.total} shards give it {expected}: "
                "was it run on another selection of cases?"
            )
        placed.extend(
            (fixture_position(shard, j), case) for j, case in enumerate(file.report.cases)
        )
    return [case for _, case in sorted(placed, key=lambda item: item[0])]


def _combine(files: Sequence[ReportFile], cases: list[CaseReport]) -> Report:
    """Build the merged report; everything derived is recomputed from ``cases``.

    Capability readiness (SPEC section 4) is judged again from the merged cases,
    with the claims' evidence the shards reported, by the derivation a run uses.
    """
    reports = [file.report for file in files]
    first = reports[0]
    bases = merged_bases([report.capability_readiness for report in reports], cases)
    derived = derive(
        cases, bases, trials_per_case=first.trials_per_case, scope=Scope(first.eval_kind)
    )
    update = {
        "run_id": clock.new_run_id(),
        "focused_cases": None,
        "interrupted": next((r.interrupted for r in reports if r.interrupted), None),
        "qualification": merge_qualification([r.qualification for r in reports], cases),
        "shard": None,
        # A merge resumed nothing; the trials a shard kept stay marked as reused.
        "resumed_from": None,
        "generated_at": clock.utc_now().isoformat(timespec="seconds"),
        "duration_ms": max(report.duration_ms for report in reports),
        "warnings": list(dict.fromkeys(w for report in reports for w in report.warnings)),
        "cases": cases,
        "isolation": merge_summaries(
            (report.isolation for report in reports),
            (trial.isolation for case in cases for trial in case.trials),
        ),
        **derived._asdict(),
    }
    return first.model_copy(update=update)
