"""The ``agentic-evals`` command line: a thin layer over the library.

Each command parses its options, calls one library function, renders the
result and returns an :class:`~agentic_evals.exitcodes.ExitCode`. Heavy
imports happen inside the commands so that ``--help`` starts fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from agentic_evals import __version__
from agentic_evals.exitcodes import ExitCode


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Example: agentic-evals run fixtures/agentic_eval.json --output report.json",
)
@click.version_option(__version__, prog_name="agentic-evals")
@click.option("--debug", is_flag=True, help="Show a traceback for internal errors.")
def cli(debug: bool) -> None:
    """Decide from evidence whether an agent skill or workflow is ready.

    Exit codes: 0 success (run: READY), 1 not ready, 2 invalid input or
    usage, 3 internal error, 130/143 interrupted.
    """


def _register() -> None:
    from agentic_evals.cli import merge_cmd, run_cmd, schema_cmd, validate_cmd

    cli.add_command(run_cmd.run)
    cli.add_command(validate_cmd.validate)
    cli.add_command(schema_cmd.schema)
    cli.add_command(merge_cmd.merge)

    from agentic_evals.cli import (
        apply_scaffolds_cmd,
        audit_skills_cmd,
        plan_journeys_cmd,
        scaffold_cmd,
    )

    cli.add_command(audit_skills_cmd.audit_skills)
    cli.add_command(scaffold_cmd.scaffold_fixture)
    cli.add_command(apply_scaffolds_cmd.apply_scaffolds)
    cli.add_command(plan_journeys_cmd.plan_journeys)

    from agentic_evals.cli import coverage_cmd

    cli.add_command(coverage_cmd.coverage)

    from agentic_evals.cli import regressions_cmd

    cli.add_command(regressions_cmd.regressions)


_register()


def _debug_requested(args: Sequence[str]) -> bool:
    return "--debug" in args or bool(os.environ.get("AGENTIC_EVALS_DEBUG"))


def _output_error() -> type[OSError]:
    from agentic_evals.reports.json_out import OutputError

    return OutputError


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI and exit with its code; internal errors exit 3."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = cli.main(args=args, prog_name="agentic-evals", standalone_mode=False)
    except click.exceptions.Exit as stop:
        code = stop.exit_code
    except click.UsageError as error:
        error.show()
        code = ExitCode.INVALID
    except click.ClickException as error:
        error.show()
        code = ExitCode.INVALID
    except _output_error() as error:
        click.echo(f"agentic-evals: {error}", err=True)
        code = ExitCode.INVALID
    except click.Abort:
        click.echo("aborted", err=True)
        code = ExitCode.INTERRUPTED_INT
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if _debug_requested(args):
            import traceback

            traceback.print_exc()
        click.echo(
            f"agentic-evals: internal error: {type(error).__name__}: {error} "
            "(run with --debug for a traceback)",
            err=True,
        )
        code = ExitCode.INTERNAL
    sys.exit(int(code) if isinstance(code, int) else 0)
