"""``agentic-evals schema``: print one of the JSON Schemas."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.exitcodes import ExitCode

# Kept literal (not read from schemas_gen) so that --help stays fast; a test
# checks that every generated schema is listed here.
KINDS = (
    "fixture",
    "report",
    "requirements",
    "interaction_inventory",
    "state_graph",
    "skills_audit",
    "scaffold_receipt",
    "journey_plan",
    "journey_scaffold",
    "coverage",
    "coverage_audit",
    "regressions",
    "history_list",
    "history_show",
    "history_trend",
    "history_flaky",
    "history_prune",
    "history_import",
    "history_imported",
    "eee_import",
)


@click.command("schema", epilog="Example: agentic-evals schema fixture -o fixture.schema.json")
@click.argument("kind", type=click.Choice(KINDS))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write here instead of stdout."
)
def schema(kind: str, output: Path | None) -> None:
    """Print the JSON Schema (draft 2020-12) of a document agentic-evals reads or writes."""
    from agentic_evals import schemas_gen
    from agentic_evals.reports.json_out import dump_value, write_text_atomic

    generators = {
        "fixture": schemas_gen.fixture_schema,
        "report": schemas_gen.report_schema,
        **{
            name.removesuffix(".schema.json"): gen
            for name, gen in schemas_gen.FLEET_SCHEMAS.items()
        },
    }
    write_text_atomic(output or Path("-"), dump_value(generators[kind]()))
    finish(ExitCode.OK)
