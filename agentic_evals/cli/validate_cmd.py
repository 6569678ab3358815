"""``agentic-evals validate``: every load-time check, nothing runs."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.exitcodes import ExitCode


@click.command(
    "validate",
    epilog="Example: agentic-evals validate fixtures/agentic_eval.json --output findings.json",
)
@click.argument("fixtures", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the findings as JSON.")
@click.option("--strict", is_flag=True, help="Unknown keys are errors, not warnings.")
def validate(fixtures: tuple[Path, ...], output: Path | None, strict: bool) -> None:
    """Load, schema-check and gate FIXTURES without running anything.

    Exits 0 when every fixture is valid, 2 when any is rejected.
    """
    from agentic_evals.contract.load import load_fixture
    from agentic_evals.reports.json_out import dump_value, write_text_atomic

    findings = []
    valid = True
    for path in fixtures:
        result = load_fixture(path, strict=strict)
        valid = valid and result.ok
        findings.extend(result.findings)
        for finding in result.findings:
            click.echo(finding.render(), err=True)
        click.echo(f"{path}: {'valid' if result.ok else 'rejected'}", err=True)
    if output is not None:
        document = {
            "valid": valid,
            "findings": [f.model_dump(mode="json") for f in findings],
        }
        write_text_atomic(output, dump_value(document))
    finish(ExitCode.OK if valid else ExitCode.INVALID)
