"""What the history reads from a report: the fields it indexes, and nothing else.

The report file is the source of truth and the history stores it whole; these
models pick out what the queries need. They ignore fields they do not know, so
that a report carrying a later addition (each case's ``skill_files`` map, say)
is indexed all the same, and a case without ``skill_files`` has an empty map.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Literal, NamedTuple

from jsonpointer import JsonPointer
from pydantic import ConfigDict, Field, ValidationError

from agentic_evals.documents.base import InputModel
from agentic_evals.documents.bounded import BoundError, loads_json, read_regular
from agentic_evals.history.errors import DocumentError, ReportIndexError
from agentic_evals.history.models import CaseRow
from agentic_evals.judge.provenance import canonical_json, sha256_bytes
from agentic_evals.limits import MAX_REPORT_BYTES, MAX_REPORT_DEPTH
from agentic_evals.reports.model import REPORT_SCHEMA


class _View(InputModel):
    """Reads what the history indexes; every other field is left to the stored report."""

    model_config = ConfigDict(extra="ignore")


class CaseView(CaseRow):
    """One case of a report, as the history indexes it (and ``history show`` lists it)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class ClaimView(_View):
    """One capability claim of a report."""

    id: str
    criticality: str
    verdict: str
    supporting_cases: list[str]


class CapabilityView(_View):
    """The report's ``capability_readiness``."""

    claims: list[ClaimView]


class IntervalView(_View):
    """A proportion of the report's metrics."""

    passed: int
    total: int


class MetricsView(_View):
    """The report's metrics the history keeps."""

    trial_pass_rate: IntervalView


class ShardView(_View):
    """The shard a report covered."""

    index: int
    total: int


class RepoView(_View):
    """The report's git provenance."""

    sha: str | None
    ref: str | None


class RunnerView(_View):
    """The tool that wrote the report."""

    version: str


class ResumedView(_View):
    """The report's ``resumed_from``: the run it resumed and every run it continues."""

    run_id: str
    runs: list[str]


class ReportView(_View):
    """An ``agentic_evals.report.v2`` report, as the history indexes it."""

    schema_: Literal["agentic_evals.report.v2"] = Field(alias="schema")
    run_id: str = Field(min_length=1)
    skill: str
    eval_kind: str
    source: str
    fixture_sha256: str
    repo: RepoView | None
    runner: RunnerView
    readiness: str
    case_readiness: str
    capability_readiness: CapabilityView | None
    focused_cases: list[str] | None
    interrupted: str | None = None
    shard: ShardView | None = None
    resumed_from: ResumedView | None = None
    generated_at: str
    duration_ms: int
    case_count: int
    trial_count: int
    metrics: MetricsView
    cases: list[CaseView]


class IndexedReport(NamedTuple):
    """A report ready to be recorded."""

    view: ReportView
    """The indexed fields."""
    text: str
    """The whole report as compact JSON: what the history stores."""
    sha256: str
    """sha256 of the report's canonical JSON: equal reports, equal hashes."""
    generated_at: str
    """``generated_at`` in UTC, fixed width, so that text order is time order."""


def require_kind(
    document: Any, key: str, expected: str, where: str, error: type[DocumentError]
) -> None:
    """Check the member that says what a document is (``schema``, ``schema_version``).

    Raises:
        DocumentError: (of type ``error``) ``document`` is not an object whose ``key``
            is ``expected``.
    """
    found = document.get(key) if isinstance(document, dict) else None
    if found != expected:
        raise error(f"{where}: /{key}: {found!r} is not {expected}")


def first_problem(error: ValidationError) -> str:
    """The first error of a validation as ``/json/pointer: message``."""
    first = error.errors()[0]
    pointer = JsonPointer.from_parts([str(part) for part in first["loc"]]).path
    return f"{pointer or '/'}: {first['msg']}"


def sortable_time(value: dt.datetime) -> str:
    """A UTC time as fixed-width text (``2026-12-01T20:00:05.000000Z``)."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def index_document(document: Any, where: str = "report", text: str | None = None) -> IndexedReport:
    """Index a parsed report.

    Args:
        document: The parsed JSON.
        where: The file it came from, for messages.
        text: ``document`` as compact JSON, when the caller has it already (a report it
            serialised itself); stored as it is.

    Raises:
        ReportIndexError: Not an ``agentic_evals.report.v2`` report the history can index.
    """
    require_kind(document, "schema", REPORT_SCHEMA, where, ReportIndexError)
    try:
        view = ReportView.model_validate(document)
    except ValidationError as error:
        raise ReportIndexError(f"{where}: {first_problem(error)}") from None
    try:
        generated = dt.datetime.fromisoformat(view.generated_at)
    except ValueError:
        raise ReportIndexError(
            f"{where}: /generated_at: not an ISO 8601 time: {view.generated_at!r}"
        ) from None
    if generated.tzinfo is None:
        raise ReportIndexError(f"{where}: /generated_at: has no UTC offset")
    _check_unique_ids(view, where)
    if text is None:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return IndexedReport(
        view, text, sha256_bytes(canonical_json(document)), sortable_time(generated)
    )


def _check_unique_ids(view: ReportView, where: str) -> None:
    """Case ids and claim ids key the history's rows: each must appear once."""
    claims = view.capability_readiness.claims if view.capability_readiness else []
    for pointer, ids in (
        ("/cases/{}/case_id", [case.case_id for case in view.cases]),
        ("/capability_readiness/claims/{}/id", [claim.id for claim in claims]),
    ):
        seen: set[str] = set()
        for index, identifier in enumerate(ids):
            if identifier in seen:
                raise ReportIndexError(
                    f"{where}: {pointer.format(index)}: {identifier!r} appears twice"
                )
            seen.add(identifier)


def read_json_file(path: Path) -> Any:
    """The JSON document in ``path``, read and parsed within the bounds of a report.

    Raises:
        DocumentError: The file cannot be read, is not a regular file, is too
            large, is not UTF-8, is not JSON or is out of bounds (depth, digits,
            a lone surrogate).
    """
    try:
        text = read_regular(path, MAX_REPORT_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError, BoundError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        reason = error.rule if isinstance(error, BoundError) else reason
        raise DocumentError(f"{path}: cannot read: {reason}") from None
    try:
        return loads_json(text, str(path), MAX_REPORT_DEPTH)
    except BoundError as error:
        raise DocumentError(str(error)) from None


def read_report_file(path: Path) -> IndexedReport:
    """Read and index the report at ``path``.

    Raises:
        DocumentError: The file cannot be read, or is not JSON.
        ReportIndexError: The file is not a report the history can index.
    """
    return index_document(read_json_file(path), str(path))


def skill_files_sha256(skill_files: dict[str, str]) -> str:
    """One hash over a case's skill-file map (an empty map has a hash too)."""
    return sha256_bytes(canonical_json(skill_files))
