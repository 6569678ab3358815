"""What ``run`` and ``merge`` do with a finished report: every output, GitHub, the summary.

Outputs are checked before anything runs (writable, regular files, none of
them an input, no two the same), then written through the one atomic writer.
Under ``GITHUB_ACTIONS=true`` the annotations go to stdout (stderr with
``-o -``) and the Markdown summary is appended to ``$GITHUB_STEP_SUMMARY``;
a failure to write the step summary is reported and never changes the exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import click

from agentic_evals.cli._exit import InvalidInputError

if TYPE_CHECKING:
    from agentic_evals.contract.findings import Finding
    from agentic_evals.reports.model import Report
    from agentic_evals.reports.render import ReportFormat

F = TypeVar("F", bound=Callable[..., Any])
_PATH = click.Path(path_type=Path)


def report_options(func: F) -> F:
    """``--junit-xml``, ``--html``, ``--markdown``, ``-q``, ``-v`` and ``--color``."""
    for option in reversed(
        [
            click.option("--junit-xml", type=_PATH, help="Also write the report as JUnit XML."),
            click.option("--html", type=_PATH, help="Also write a self-contained HTML report."),
            click.option("--markdown", type=_PATH, help="Also write the Markdown summary."),
            click.option("-q", "--quiet", is_flag=True, help="No output of failing trials."),
            click.option("-v", "--verbose", is_flag=True, help="Show every trial."),
            click.option(
                "--color",
                type=click.Choice(["auto", "always", "never"]),
                default="auto",
                show_default=True,
                help="Colour the terminal output (auto honours NO_COLOR and FORCE_COLOR).",
            ),
        ]
    ):
        func = option(func)
    return func


class ReportOutputs(NamedTuple):
    """Where a report goes: the JSON and the other formats (None: not written)."""

    output: Path | None
    junit_xml: Path | None = None
    html: Path | None = None
    markdown: Path | None = None

    def files(self) -> list[tuple[ReportFormat | None, Path]]:
        """``(format, path)`` of each output asked for; None is the JSON report."""
        pairs: list[tuple[ReportFormat | None, Path | None]] = [
            (None, self.output),
            ("junit", self.junit_xml),
            ("html", self.html),
            ("markdown", self.markdown),
        ]
        return [(fmt, path) for fmt, path in pairs if path is not None]


def _same(one: Path, other: Path) -> bool:
    try:
        return one.exists() and other.exists() and os.path.samefile(one, other)
    except OSError:
        return False


def check_outputs(outputs: Sequence[Path], inputs: Sequence[Path]) -> None:
    """Fail before any work when an output cannot be written or would replace an input.

    Raises:
        InvalidInputError: An output is a directory or not a regular file, cannot
            be created, is one of ``inputs``, or is given twice.
    """
    from agentic_evals.reports.json_out import OutputError

    try:
        _check_outputs(outputs, inputs)
    except OutputError as error:
        raise InvalidInputError(str(error)) from None


def _check_outputs(outputs: Sequence[Path], inputs: Sequence[Path]) -> None:
    from agentic_evals.reports.json_out import OutputError, check_writable

    seen: list[Path] = []
    for path in outputs:
        if str(path) == "-":
            if any(str(p) == "-" for p in seen):
                raise OutputError("only one output can go to stdout ('-')")
            seen.append(path)
            continue
        check_writable(path)
        for source in inputs:
            if _same(path, source) or path.resolve() == source.resolve():
                raise OutputError(f"cannot write to {path}: it is an input ({source})")
        if any(str(p) != "-" and p.resolve() == path.resolve() for p in seen):
            raise OutputError(f"cannot write to {path}: it is given for two outputs")
        seen.append(path)


def _github(report: Report, lines: Mapping[str, int], to_stderr: bool) -> None:
    from agentic_evals.reports.github import append_step_summary, render_github
    from agentic_evals.reports.markdown import render_markdown

    if os.environ.get("GITHUB_ACTIONS") == "true":
        click.echo(render_github(report, lines), nl=False, err=to_stderr)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            append_step_summary(Path(summary), render_markdown(report))
        except OSError as error:
            click.echo(f"agentic-evals: step summary not written: {error}", err=True)


def annotate_findings(findings: Sequence[Finding]) -> None:
    """Under GitHub Actions, annotate load findings (a rejected fixture)."""
    if os.environ.get("GITHUB_ACTIONS") != "true" or not findings:
        return
    from agentic_evals.reports.github import finding_annotations, render_annotations

    click.echo(render_annotations(finding_annotations(findings)), nl=False)


def emit(
    report: Report,
    code: int,
    outputs: ReportOutputs,
    *,
    verbosity: int,
    colour_choice: str,
    lines: Mapping[str, int] | None = None,
) -> None:
    """Write every output of ``report``, tell GitHub, and print the summary."""
    from agentic_evals.reports.json_out import write_model_atomic, write_text_atomic
    from agentic_evals.reports.render import fixture_lines, render
    from agentic_evals.reports.terminal import colour_enabled
    from agentic_evals.reports.text import render_summary

    for fmt, path in outputs.files():
        if fmt is None:
            write_model_atomic(path, report)
        else:
            write_text_atomic(path, render(report, fmt, lines))
    # With the JSON on stdout ("-o -"), the summary moves to stderr.
    to_stderr = any(str(path) == "-" for _, path in outputs.files())
    if os.environ.get("GITHUB_ACTIONS") == "true" or os.environ.get("GITHUB_STEP_SUMMARY"):
        _github(report, fixture_lines(report) if lines is None else lines, to_stderr)
    stream = sys.stderr if to_stderr else sys.stdout
    colour = colour_enabled(colour_choice, stream)  # type: ignore[arg-type]
    summary = render_summary(
        report,
        colour=colour,
        exit_code=code,
        report_path=str(outputs.output) if outputs.output else None,
        verbosity=verbosity,
    )
    click.echo(summary, err=to_stderr, nl=False, color=colour)


def verbosity(quiet: bool, verbose: bool) -> int:
    """-1 with ``-q``, 1 with ``-v``, else 0 (``-q`` wins)."""
    return -1 if quiet else (1 if verbose else 0)
