"""``agentic-evals validate``: every load-time check, nothing runs."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.cli._sarif import format_option, sarif_text
from agentic_evals.exitcodes import ExitCode


@click.command(
    "validate",
    epilog="Example: agentic-evals validate fixtures/agentic_eval.json --output findings.json",
)
@click.argument("fixtures", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the findings as JSON.")
@click.option("--strict", is_flag=True, help="Unknown keys are errors, not warnings.")
@format_option
def validate(fixtures: tuple[Path, ...], output: Path | None, strict: bool, fmt: str) -> None:
    """Load, schema-check and gate FIXTURES (files or folders) without running anything.

    A folder is searched recursively: files named agentic_eval*.json/.yaml/.yml
    and any other JSON or YAML object with "cases" are checked; other documents
    are skipped and named. Exits 0 when every fixture is valid, 2 when any is
    rejected or none was found.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.evidence.validate import validate_paths
    from agentic_evals.reports.json_out import dump_value, write_text_atomic

    check_outputs("validate", [output])
    result = validate_paths(list(fixtures), strict=strict)
    # A folder's fixtures are inputs too: found only now, checked before anything is written.
    check_outputs("validate", [output], [verdict.path for verdict in result.files])
    lines: list[str] = []
    for verdict in result.files:
        lines.extend(finding.render() for finding in verdict.findings)
        lines.append(f"{verdict.path}: {'valid' if verdict.valid else 'rejected'}")
    lines.extend(f"{path}: skipped (not a fixture)" for path in result.skipped)
    rejected = sum(1 for verdict in result.files if not verdict.valid)
    lines.append(f"{len(result.files)} fixture(s) checked, {rejected} rejected")
    click.echo("\n".join(lines), err=True)
    if fmt == "sarif":
        findings = [(finding, None) for verdict in result.files for finding in verdict.findings]
        write_text_atomic(output or Path("-"), sarif_text(findings, "validate"))
    elif output is not None:
        document = {
            "valid": result.valid,
            "findings": [f.model_dump(mode="json") for v in result.files for f in v.findings],
            "files": [{"path": str(v.path), "valid": v.valid} for v in result.files],
            "skipped": [str(path) for path in result.skipped],
        }
        write_text_atomic(output, dump_value(document))
    finish(ExitCode.OK if result.valid else ExitCode.INVALID)
