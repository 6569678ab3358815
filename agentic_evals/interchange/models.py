"""The receipts of ``export eee`` and ``import eee`` (``schemas/eee_*.schema.json``)."""

from __future__ import annotations

from typing import Literal

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.schema_gen import SchemaSpec


class ExportedRun(OutputModel):
    """One run written as an envelope and its instance records."""

    run_id: str
    """The run."""
    evaluation_id: str
    """The envelope's evaluation id."""
    envelope: str
    """Path of the ``.eee.json`` file."""
    instances: str
    """Path of the ``.instances.jsonl`` file."""
    results: int
    """Results in the envelope."""
    instance_rows: int
    """Instance records written."""


class ExportReceipt(OutputModel):
    """``export eee``: what it wrote, and what it would not export."""

    organization: str
    """``source_organization_name`` of every envelope."""
    directory: str
    """Where the files were written."""
    exported: list[ExportedRun]
    """The runs written."""
    skipped_imported: list[str]
    """Evaluation ids of imported results that were asked for and not exported."""


ImportStatus = Literal["imported", "already_imported", "own_run", "conflict", "rejected"]


class EnvelopeImport(OutputModel):
    """One file given to ``import eee``."""

    path: str
    """The file."""
    evaluation_id: str | None
    """The envelope's evaluation id; null when the file could not be read."""
    status: ImportStatus
    """``imported``; ``already_imported`` (the same measurement under this id);
    ``own_run`` (exported by this tool from a run this history holds, with the same
    measurement); ``conflict`` (another measurement under this id: nothing stored);
    ``rejected`` (not a valid Every Eval Ever 0.2.2 envelope)."""
    message: str | None
    """Why, when it was not imported."""


class ImportReceipt(OutputModel):
    """``import eee``: what was stored, skipped, in conflict or rejected."""

    files: list[EnvelopeImport]
    """One entry per file, in the order read."""
    imported: int
    """Envelopes stored as imported results."""
    already_imported: int
    """Envelopes skipped: the same measurement is already imported."""
    own_runs: int
    """Envelopes skipped: exports of runs this history holds, with the same measurement."""
    conflicts: int
    """Envelopes whose evaluation id holds another measurement (nothing stored)."""
    rejected: int
    """Files that are not valid Every Eval Ever 0.2.2 envelopes."""


EEE_IMPORT_DOCUMENT = SchemaSpec(
    ImportReceipt, "eee_import.schema.json", "agentic-evals import eee receipt", "output"
)
