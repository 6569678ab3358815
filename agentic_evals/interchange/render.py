"""Terminal summaries of ``export eee`` and ``import eee`` (pure text)."""

from __future__ import annotations

from agentic_evals.interchange.models import ExportReceipt, ImportReceipt


def render_export(receipt: ExportReceipt) -> str:
    """The files written, then what was skipped."""
    lines = [
        f"wrote {run.envelope} ({run.results} results) and {run.instances} "
        f"({run.instance_rows} trials)"
        for run in receipt.exported
    ]
    lines.append(
        f"export eee: {len(receipt.exported)} run(s) exported for {receipt.organization}; "
        f"skipped {len(receipt.skipped_imported)} imported result(s) "
        "(never exported as this tool's own)"
    )
    return "\n".join(lines) + "\n"


def render_import(receipt: ImportReceipt) -> str:
    """One line per envelope that was not simply imported, then the counts."""
    lines = [
        f"  {entry.status}: {entry.message}" for entry in receipt.files if entry.message is not None
    ]
    lines.append(
        f"import eee: {receipt.imported} imported, {receipt.already_imported} already imported, "
        f"{receipt.own_runs} own run(s), {receipt.conflicts} conflict(s), "
        f"{receipt.rejected} rejected"
    )
    return "\n".join(lines) + "\n"
