"""``export eee``: write reports and recorded runs as Every Eval Ever envelopes.

Each run becomes two files in the output folder, named
``<skill>-<start time>-<run id>``: ``.eee.json`` (the aggregate envelope) and
``.instances.jsonl`` (one record per executed trial). Both are written through
the atomic writer and depend on the report alone, so a second export of the
same run gives the same bytes. Results imported from other tools are never
exported as this tool's own: they are skipped and counted.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Final, NamedTuple

from pydantic import ValidationError

from agentic_evals.history.errors import DocumentError, UnknownRunError
from agentic_evals.history.resolve import (
    names_a_file,
    newest_first,
    resolve_run,
    stored_report,
)
from agentic_evals.history.store import Store
from agentic_evals.history.view import first_problem, index_document, read_json_file
from agentic_evals.interchange.envelope import build_envelope
from agentic_evals.interchange.identity import started_at
from agentic_evals.interchange.instances import instances, jsonl
from agentic_evals.interchange.models import ExportedRun, ExportReceipt
from agentic_evals.reports.json_out import write_text_atomic
from agentic_evals.reports.model import Report

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")


class ExportError(ValueError):
    """A report or run that cannot be exported; the message names it and why."""


class Source(NamedTuple):
    """A run to export, and where it was found (for messages)."""

    report: Report
    where: str


def file_stem(report: Report) -> str:
    """``<skill>-<start time, UTC>-<run id>``, with anything unsafe in a file name replaced."""
    stamp = started_at(report).strftime("%Y%m%dT%H%M%SZ")
    return "-".join(_UNSAFE.sub("_", part) for part in (report.skill, stamp, report.run_id))


def write_export(report: Report, org: str, directory: Path) -> ExportedRun:
    """Write the envelope and instance records of ``report`` into ``directory``."""
    stem = file_stem(report)
    records = jsonl(instances(report))
    instances_path = directory / f"{stem}.instances.jsonl"
    envelope = build_envelope(
        report, org, instances_path.name, hashlib.sha256(records.encode()).hexdigest()
    )
    envelope_path = directory / f"{stem}.eee.json"
    write_text_atomic(instances_path, records)
    write_text_atomic(envelope_path, envelope.model_dump_json(exclude_none=True, indent=2) + "\n")
    return ExportedRun(
        run_id=report.run_id,
        evaluation_id=envelope.evaluation_id,
        envelope=str(envelope_path),
        instances=str(instances_path),
        results=len(envelope.evaluation_results),
        instance_rows=records.count("\n"),
    )


def file_source(path: Path) -> Source | str:
    """The report in ``path``; or, for an Every Eval Ever envelope, its evaluation id.

    An envelope is a result already exported (by this tool or another): it is
    never exported again as this tool's own, so the caller skips it.

    Raises:
        ExportError: The file cannot be read, or is neither a valid report nor an envelope.
    """
    try:
        document = read_json_file(path)
        if isinstance(document, dict) and {"schema_version", "evaluation_id"} <= document.keys():
            return str(document["evaluation_id"])
        indexed = index_document(document, str(path))
        return Source(Report.model_validate_json(indexed.text), str(path))
    except DocumentError as error:
        raise ExportError(str(error)) from None
    except ValidationError as error:
        raise ExportError(f"{path}: {first_problem(error)}") from None


def imported_ids(store: Store, evaluation_id: str | None = None) -> list[str]:
    """Evaluation ids of imported results: all of them, or ``evaluation_id`` if imported."""
    where = "" if evaluation_id is None else "WHERE evaluation_id = :id"
    rows = store.query(
        f"SELECT evaluation_id FROM imported_evaluations {where} ORDER BY evaluation_id",
        {"id": evaluation_id},
    )
    return [row["evaluation_id"] for row in rows]


def recorded_sources(store: Store, skill: str | None) -> list[Source]:
    """Every recorded run (of one skill, or all), newest first."""
    where = "" if skill is None else "WHERE skill = :skill"
    rows = store.query(f"SELECT run_id FROM runs {where} {newest_first()}", {"skill": skill})
    return [Source(stored_report(store, row["run_id"]), f"run {row['run_id']}") for row in rows]


def reference_source(store: Store, reference: str) -> Source | str:
    """The run ``reference`` names, or the evaluation id when it names an imported result.

    Raises:
        ExportError: Neither a recorded run nor an imported result.
    """
    try:
        stored = resolve_run(store, reference)
    except UnknownRunError as error:
        if imported_ids(store, reference):
            return reference
        raise ExportError(f"{reference}: {error}") from None
    return Source(stored.report, f"run {stored.run_id}")


class ExportRequest(NamedTuple):
    """What ``export eee`` was asked to write."""

    references: Sequence[str]
    """Report files (an existing file, or a name ending in ``.json``) and run references."""
    org: str
    """The measuring organisation."""
    directory: Path
    """The output folder."""
    every_run: bool = False
    """Also every recorded run (``--all``)."""
    skill: str | None = None
    """With ``every_run``: only this skill's runs."""
    history_url: str | None = None
    """The history, for run references and ``--all``."""


def export_eee(request: ExportRequest) -> ExportReceipt:
    """Find every run asked for, then write them all (nothing is written if one is wrong).

    Raises:
        ExportError: A report file or run reference that cannot be exported.
        HistoryError: The history is needed and cannot be opened.
    """
    from agentic_evals.history.access import open_history

    sources: list[Source] = []
    skipped: list[str] = []
    needs_history = request.every_run or not all(map(names_a_file, request.references))
    history: AbstractContextManager[Store | None] = (
        open_history(request.history_url) if needs_history else nullcontext()
    )
    with history as store:
        for reference in request.references:
            found = (
                file_source(Path(reference))
                if store is None or names_a_file(reference)
                else reference_source(store, reference)
            )
            if isinstance(found, str):
                skipped.append(found)
            else:
                sources.append(found)
        if request.every_run and store is not None:
            sources += recorded_sources(store, request.skill)
            skipped += [id_ for id_ in imported_ids(store) if id_ not in skipped]
    unique = list({source.report.run_id: source for source in sources}.values())
    exported = [write_export(source.report, request.org, request.directory) for source in unique]
    return ExportReceipt(
        organization=request.org,
        directory=str(request.directory),
        exported=exported,
        skipped_imported=skipped,
    )
