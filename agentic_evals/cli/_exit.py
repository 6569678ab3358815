"""How a command ends: its document written, its summary shown, its exit code returned."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn

import click

from agentic_evals.exitcodes import ExitCode

if TYPE_CHECKING:
    from pydantic import BaseModel

    from agentic_evals.documents.findings import Finding


def finish(code: ExitCode) -> NoReturn:
    """Leave the current command with ``code``."""
    click.get_current_context().exit(int(code))
    raise AssertionError("unreachable")  # pragma: no cover - exit() raises


def verdict_code(*, not_ready: bool, report_only: bool = False, invalid: bool = False) -> ExitCode:
    """2 for invalid input; else 1 when not ready (unless ``--report-only``); else 0."""
    if invalid:
        return ExitCode.INVALID
    return ExitCode.NOT_READY if not_ready and not report_only else ExitCode.OK


def command_name() -> str:
    """The running command as typed after the program name (``regressions verify``)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return ""
    return ctx.command_path.removeprefix(f"{ctx.find_root().info_name} ")


def refuse(command: str, error: Exception | str) -> NoReturn:
    """Say why ``command`` cannot work on its input, and exit 2 (invalid input or usage)."""
    click.echo(f"agentic-evals {command}: {error}", err=True)
    finish(ExitCode.INVALID)


NOT_INPUTS = frozenset(
    {"output", "junit_xml", "html", "markdown", "scaffold_output", "directory", "resume"}
)
"""The parameters of every command that name where it writes, and ``--resume`` (whose report
``run`` replaces; it checks its other outputs itself): any other path a command is given is
an input, which no output may be."""


def context_inputs() -> list[Path]:
    """Every path the current command was given that is no output (arguments and options)."""
    ctx = click.get_current_context(silent=True)
    found: list[Path] = []
    while ctx is not None:
        for name, value in ctx.params.items():
            if name in NOT_INPUTS:
                continue
            values = value if isinstance(value, (tuple, list)) else (value,)
            found.extend(item for item in values if isinstance(item, Path))
        ctx = ctx.parent
    return found


def _same(one: Path, other: Path) -> bool:
    """Whether two paths name one file: same device and inode (``x/../F``, a hard link)."""
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):
        return False


def check_outputs(
    command: str, outputs: Sequence[Path | None], inputs: Sequence[Path] = ()
) -> None:
    """End ``command`` (exit 2) before any work when an output cannot be written.

    That is: an output is a directory or not a regular file, cannot be created,
    is the same file as one of ``inputs`` or of the paths the command was given
    (:func:`context_inputs`), is given twice, or a second one goes to stdout.
    """
    from agentic_evals.reports.json_out import OutputError, check_writable, stream_of

    sources = [*inputs, *context_inputs()]
    seen: list[Path] = []
    try:
        for path in (p for p in outputs if p is not None):
            stream = stream_of(path)
            if stream is not None:
                if any(stream_of(p) is stream for p in seen):
                    raise OutputError(f"only one output can go to {path} (standard stream)")
                seen.append(path)
                continue
            check_writable(path)
            for source in sources:
                if _same(path, source) or path.resolve() == source.resolve():
                    raise OutputError(f"cannot write to {path}: it is an input ({source})")
            if any(stream_of(p) is None and _same_target(p, path) for p in seen):
                raise OutputError(f"cannot write to {path}: it is given for two outputs")
            seen.append(path)
    except OutputError as error:
        refuse(command, error)


def _same_target(one: Path, other: Path) -> bool:
    return one.resolve() == other.resolve() or _same(one, other)


def echo_findings(findings: list[Finding]) -> None:
    """Print findings on stderr, one line each."""
    for finding in findings:
        click.echo(finding.render(), err=True)


def summary_stream(*outputs: Path | None) -> IO[str] | None:
    """Where the summary goes: stderr when a document takes stdout (``-o -``, ``--html -``).

    ``None`` when that stream is closed (:func:`show` then says so).
    """
    from agentic_evals.reports.json_out import stream_of

    taken = any(o is not None and stream_of(o) is sys.stdout for o in outputs)
    return sys.stderr if taken else sys.stdout


def show(text: str, stream: IO[str] | None, *, colour: bool = False) -> None:
    """Print ``text`` (no newline added) on ``stream``, stdout or stderr.

    Raises:
        OutputError: the stream is closed, full or a broken pipe (exit 2, as
            for any output that cannot be written).
    """
    from agentic_evals.reports.json_out import write_stream

    write_stream(stream, text if colour else click.unstyle(text))


def emit(
    code: ExitCode,
    summary: str,
    *,
    output: Path | None = None,
    document: BaseModel | None = None,
    colour: bool = False,
    texts: Sequence[tuple[Path, str]] = (),
    written: Sequence[Path] = (),
) -> NoReturn:
    """Write ``document`` to ``output`` (when both are given), show ``summary``, exit ``code``.

    ``texts`` are the document in other formats, each ``(path, rendered text)``,
    written after it through the same atomic writer. ``written`` are outputs the
    command wrote before; like the others, they decide where the summary goes.
    """
    from agentic_evals.reports.json_out import write_model_atomic, write_text_atomic

    planned = [output if document is not None else None, *(path for path, _ in texts)]
    check_outputs(command_name(), planned)
    if output is not None and document is not None:
        write_model_atomic(output, document)
    for path, text in texts:
        write_text_atomic(path, text)
    stream = summary_stream(output, *(path for path, _ in texts), *written)
    show(summary, stream, colour=colour)
    finish(code)
