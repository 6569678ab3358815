"""The ``agentic-evals`` command line: a thin layer over the library.

Each command parses its options, calls one library function, renders the
result and returns an :class:`~agentic_evals.exitcodes.ExitCode`. The click
group lives in :mod:`agentic_evals.cli.app`; this module does not import click,
so that ``--help``, ``-h`` and ``--version`` alone print the text click would
print (pre-rendered in :mod:`agentic_evals.cli._help_text` by
``scripts/gen_help.py``, for 80 columns and for wide terminals: the start-up
figure of ``benchmarks/``) and start fast. Heavy imports happen inside the commands.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentic_evals.cli.app import cli as cli


def __getattr__(name: str) -> object:
    """Import the click group on first use of ``agentic_evals.cli.cli``."""
    if name == "cli":
        from agentic_evals.cli.app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI and exit with its code; internal errors exit 3.

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.
    """
    from agentic_evals import signals

    signals.guard()  # before anything else: a signal from here on ends the command cleanly
    try:
        args = list(sys.argv[1:] if argv is None else argv)
        if not sys.platform.startswith("linux") and args not in (["--help"], ["-h"], ["--version"]):
            sys.stderr.write(NOT_LINUX.format(platform=sys.platform))
            sys.exit(2)
        text = _prerendered(args)
        if text is not None and _printed(text):
            sys.exit(0)
        from agentic_evals.cli.app import run_cli

        sys.exit(signals.exit_status(run_cli(args)))
    finally:
        signals.settle()


NOT_LINUX = (
    "agentic-evals runs on Linux only: its runner needs epoll, pidfds and a child "
    "subreaper (prctl), which {platform} does not have. Run it on Linux, in a Linux "
    "container or in WSL 2.\n"
)


def _prerendered(args: list[str]) -> str | None:
    """The text click would print for ``args``, or None when click has to run."""
    if sys.stdout is None or args not in (["--help"], ["-h"], ["--version"]):
        return None
    from agentic_evals.cli import _help_text

    if args == ["--version"]:
        return _help_text.VERSION
    columns = _terminal_columns()
    if columns == _help_text.PIPE_COLUMNS:
        return _help_text.HELP_PIPE
    if columns >= _help_text.WIDE_COLUMNS:
        return _help_text.HELP_WIDE
    return None  # another width: click renders it


def _terminal_columns() -> int:
    """The width ``shutil.get_terminal_size()`` reports, which click wraps help to.

    Returns:
        ``COLUMNS`` when it is a positive integer, else the width of the terminal
        on ``sys.__stdout__``, else 80.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    if sys.__stdout__ is None:
        return 80
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80
    return columns or 80


def _printed(text: str) -> bool:
    """Write ``text`` to stdout as ``click.echo`` would; False when that failed.

    After a failure (a closed pipe, a full disk, an encoding stdout cannot
    represent) click runs instead, meets the same error and handles it as always.
    """
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError):
        return False
    return True
