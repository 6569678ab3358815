"""``import eee FILE|DIR``: store Every Eval Ever envelopes from other tools as imported results.

Envelopes are deduplicated by ``evaluation_id``: the same measurement again is
skipped, another measurement under a stored id is a conflict and nothing is
written. An envelope this tool exported from a run the history holds is that
run, not an imported result: it is skipped when its measurement matches the
run's, a conflict when it does not. Every file is one transaction, so
concurrent imports neither lose nor duplicate an envelope.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from pydantic import ValidationError

from agentic_evals import clock
from agentic_evals.history.errors import DocumentError
from agentic_evals.history.resolve import stored_report
from agentic_evals.history.store import Store
from agentic_evals.history.view import (
    first_problem,
    read_json_file,
    require_kind,
    sortable_time,
)
from agentic_evals.interchange.eee_models import EEE_VERSION, Envelope
from agentic_evals.interchange.identity import evaluation_id, run_id_of
from agentic_evals.interchange.measurement import MeasurementError, measurement_sha256
from agentic_evals.interchange.models import EnvelopeImport, ImportReceipt
from agentic_evals.interchange.results import results
from agentic_evals.judge.provenance import canonical_json

_INSERT: Final = """
INSERT INTO imported_evaluations (
    evaluation_id, source_name, source_organization_name, evaluator_relationship, model_id,
    evaluation_timestamp, retrieved_timestamp, result_count, measurement_sha256, envelope,
    imported_from, imported_at
) VALUES (
    :evaluation_id, :source_name, :source_organization_name, :evaluator_relationship, :model_id,
    :evaluation_timestamp, :retrieved_timestamp, :result_count, :measurement_sha256, :envelope,
    :imported_from, :imported_at
) ON CONFLICT (evaluation_id) DO NOTHING
"""


class EnvelopeError(DocumentError):
    """A file that is not an Every Eval Ever 0.2.2 envelope; the message says where and why."""


def envelope_files(paths: Sequence[Path]) -> list[Path]:
    """The files to read: each file given, and every ``*.json`` file directly in each folder."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(child for child in path.iterdir() if child.suffix == ".json")
        else:
            files.append(path)
    return files


def read_envelope(path: Path) -> tuple[Envelope, str, str]:
    """The envelope in ``path``, its canonical JSON and its measurement hash.

    Raises:
        DocumentError: The file cannot be read or is not JSON.
        EnvelopeError: It is not an Every Eval Ever 0.2.2 envelope.
    """
    document = read_json_file(path)
    require_kind(document, "schema_version", EEE_VERSION, str(path), EnvelopeError)
    try:
        envelope = Envelope.model_validate(document)
        measurement = measurement_sha256(envelope.evaluation_results)
    except ValidationError as error:
        raise EnvelopeError(f"{path}: {first_problem(error)}") from None
    except MeasurementError as error:
        raise EnvelopeError(f"{path}: /evaluation_results: {error}") from None
    return envelope, canonical_json(document).decode("utf-8"), measurement


def import_envelopes(store: Store, paths: Sequence[Path]) -> ImportReceipt:
    """Import every envelope in ``paths`` (see the module docstring for the rules)."""
    entries = []
    for path in envelope_files(paths):
        try:
            envelope, text, measurement = read_envelope(path)
        except DocumentError as error:
            entries.append(
                EnvelopeImport(path=str(path), evaluation_id=None, status="rejected",
                               message=str(error))
            )  # fmt: skip
            continue
        entries.append(_import_one(store, path, envelope, text, measurement))
    statuses = [entry.status for entry in entries]
    return ImportReceipt(
        files=entries,
        imported=statuses.count("imported"),
        already_imported=statuses.count("already_imported"),
        own_runs=statuses.count("own_run"),
        conflicts=statuses.count("conflict"),
        rejected=statuses.count("rejected"),
    )


def _import_one(
    store: Store, path: Path, envelope: Envelope, text: str, measurement: str
) -> EnvelopeImport:
    identifier = envelope.evaluation_id
    with store.transaction():
        own = _own_run_measurement(store, identifier)
        if own is not None:
            run_id, own_measurement = own
            if own_measurement == measurement:
                return _entry(
                    path, identifier, "own_run", f"already in the history as run {run_id}"
                )
            return _entry(
                path, identifier, "conflict",
                f"evaluation {identifier} is run {run_id} of this history, measured otherwise; "
                "nothing was stored",
            )  # fmt: skip
        if store.execute(_INSERT, _row(path, envelope, text, measurement)):
            return _entry(path, identifier, "imported", None)
        stored = store.query(
            "SELECT measurement_sha256 FROM imported_evaluations WHERE evaluation_id = :id",
            {"id": identifier},
        )
    if stored and stored[0]["measurement_sha256"] == measurement:
        return _entry(path, identifier, "already_imported", "the same measurement is imported")
    return _entry(
        path, identifier, "conflict",
        f"evaluation {identifier} is already imported with another measurement; "
        "nothing was stored",
    )  # fmt: skip


def _entry(path: Path, identifier: str, status: str, message: str | None) -> EnvelopeImport:
    if message is not None:
        message = f"{path}: {message}"
    return EnvelopeImport.model_validate(
        {"path": str(path), "evaluation_id": identifier, "status": status, "message": message}
    )


def _own_run_measurement(store: Store, identifier: str) -> tuple[str, str] | None:
    """The run an envelope of this tool was exported from, and its measurement, if recorded."""
    run_id = run_id_of(identifier)
    if not store.query("SELECT 1 AS found FROM runs WHERE run_id = :id", {"id": run_id}):
        return None
    report = stored_report(store, run_id)
    if evaluation_id(report) != identifier:
        return None
    return run_id, measurement_sha256(results(report))


def _row(path: Path, envelope: Envelope, text: str, measurement: str) -> dict[str, object]:
    source = envelope.source_metadata
    return {
        "evaluation_id": envelope.evaluation_id,
        "source_name": source.source_name,
        "source_organization_name": source.source_organization_name,
        "evaluator_relationship": source.evaluator_relationship,
        "model_id": envelope.model_info.id,
        "evaluation_timestamp": envelope.evaluation_timestamp,
        "retrieved_timestamp": envelope.retrieved_timestamp,
        "result_count": len(envelope.evaluation_results),
        "measurement_sha256": measurement,
        "envelope": text,
        "imported_from": str(path),
        "imported_at": sortable_time(clock.utc_now()),
    }
