"""The click group of ``agentic-evals`` and the error policy around it.

The group imports a command's module only when click needs that command:
``agentic-evals run`` imports :mod:`~agentic_evals.cli.run_cmd` alone, while the
group's own help imports every command to show its short help.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from agentic_evals import __version__
from agentic_evals.exitcodes import ExitCode

COMMANDS: Mapping[str, str] = {
    "run": "agentic_evals.cli.run_cmd:run",
    "validate": "agentic_evals.cli.validate_cmd:validate",
    "schema": "agentic_evals.cli.schema_cmd:schema",
    "merge": "agentic_evals.cli.merge_cmd:merge",
    "report": "agentic_evals.cli.report_cmd:report",
    "compare": "agentic_evals.cli.compare_cmd:compare",
    "audit-skills": "agentic_evals.cli.audit_skills_cmd:audit_skills",
    "scaffold-fixture": "agentic_evals.cli.scaffold_cmd:scaffold_fixture",
    "apply-scaffolds": "agentic_evals.cli.apply_scaffolds_cmd:apply_scaffolds",
    "plan-journeys": "agentic_evals.cli.plan_journeys_cmd:plan_journeys",
    "coverage": "agentic_evals.cli.coverage_cmd:coverage",
    "regressions": "agentic_evals.cli.regressions_cmd:regressions",
    "history": "agentic_evals.cli.history_cmd:history",
    "export": "agentic_evals.cli.export_cmd:export",
    "import": "agentic_evals.cli.import_cmd:import_group",
}
"""Every command of the group: its name and where it lives (``module:attribute``)."""


class LazyGroup(click.Group):
    """A group that imports each of its commands on first use.

    Args:
        *args: Passed to :class:`click.Group`.
        lazy_commands: Command name to ``module:attribute`` of the command.
        **kwargs: Passed to :class:`click.Group`.
    """

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """All command names, sorted as click sorts them, without importing any."""
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command called ``cmd_name``, importing its module the first time."""
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            self.add_command(_load(self.lazy_commands[cmd_name]), cmd_name)
        return super().get_command(ctx, cmd_name)


def _load(target: str) -> click.Command:
    """Import the command at ``target`` (``module:attribute``)."""
    module_name, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{target} is not a click command")
    return command


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Example: agentic-evals run fixtures/agentic_eval.json --output report.json",
)
@click.version_option(__version__, prog_name="agentic-evals")
# Read from the raw arguments (run_cli), since an internal error may come before click parses.
@click.option(
    "--debug", is_flag=True, expose_value=False, help="Show a traceback for internal errors."
)
def cli() -> None:
    """Decide from evidence whether an agent skill or workflow is ready.

    Exit codes: 0 success (run: READY), 1 not ready, 2 invalid input or
    usage, 3 internal error, 129/130/143 interrupted.
    """


def _debug_requested(args: Sequence[str]) -> bool:
    return "--debug" in args or bool(os.environ.get("AGENTIC_EVALS_DEBUG"))


def _output_error() -> type[OSError]:
    from agentic_evals.reports.json_out import OutputError

    return OutputError


def _escape_unencodable_output() -> None:
    r"""Print a lone surrogate (a non-UTF-8 file name, a ``"\ud800"`` read) as its escape.

    Python's stderr already does; stdout would fail on one. Text the tool
    writes to files is escaped the same way (``reports.json_out.printable``).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):
                pass  # it flushes first: a stream that fails now fails later, as before


_PATH_ERRNOS = frozenset({errno.EACCES, errno.ENAMETOOLONG, errno.ELOOP})
"""Errors of a path the user gave or a tree holds, not of agentic-evals: permission denied,
a name too long (a component over 255 bytes, or the whole path over 4,096), a symlink loop."""


def _path_refused(error: Exception) -> str | None:
    """The message of an input error that no command caught on the way: a path it cannot use.

    Commands report such paths as findings or refusals where they read them; this is the
    net under every command, so that none of them exits 3 on them.
    """
    if not isinstance(error, OSError) or error.errno not in _PATH_ERRNOS:
        return None
    if error.filename is None:
        return None
    path = os.fsdecode(error.filename)
    return f"cannot use {path!r}: {error.strerror or error}"


def run_cli(args: Sequence[str]) -> int:
    """Run the group on ``args`` and return the exit code; internal errors are 3.

    Args:
        args: The command line after the program name.

    Returns:
        The process exit code.
    """
    args = list(args)
    _escape_unencodable_output()
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
        refused = _path_refused(error)
        if refused is not None:
            click.echo(f"agentic-evals: {refused}", err=True)
            return int(ExitCode.INVALID)
        if _debug_requested(args):
            import traceback

            traceback.print_exc()
        click.echo(
            f"agentic-evals: internal error: {type(error).__name__}: {error} "
            "(run with --debug for a traceback)",
            err=True,
        )
        code = ExitCode.INTERNAL
    return int(code) if isinstance(code, int) else 0
