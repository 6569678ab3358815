"""What ``run`` and ``merge`` do with a finished report: every output, GitHub, the summary.

Outputs are checked before anything runs (writable, regular files, none of
them an input, no two the same), then written through the one atomic writer
(:func:`write_outputs`) before the history is touched; :func:`finish_report`
ends the command. Under
``GITHUB_ACTIONS=true`` the annotations go to stdout (stderr when a document
takes stdout) and the Markdown summary is appended to ``$GITHUB_STEP_SUMMARY``;
a failure to write the step summary is reported and never changes the exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeVar

import click

from agentic_evals.cli._exit import check_outputs, emit, summary_stream
from agentic_evals.reports.terminal import COLOUR_CHOICES

if TYPE_CHECKING:
    from agentic_evals.documents.findings import Finding
    from agentic_evals.exitcodes import ExitCode
    from agentic_evals.reports.model import Report
    from agentic_evals.reports.render import ReportFormat
    from agentic_evals.reports.terminal import ColourChoice

__all__ = [
    "ReportOutputs",
    "annotate_findings",
    "check_outputs",
    "finish_report",
    "report_options",
    "verbosity",
    "write_outputs",
]

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
                type=click.Choice(COLOUR_CHOICES),
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

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> ReportOutputs:
        """The outputs named by resolved options (``output``, ``junit_xml``, ...)."""
        paths = [options.get(name) for name in cls._fields]
        return cls(*(None if path is None else Path(path) for path in paths))

    def files(self) -> list[tuple[ReportFormat | None, Path]]:
        """``(format, path)`` of each output asked for; None is the JSON report."""
        pairs: list[tuple[ReportFormat | None, Path | None]] = [
            (None, self.output),
            ("junit", self.junit_xml),
            ("html", self.html),
            ("markdown", self.markdown),
        ]
        return [(fmt, path) for fmt, path in pairs if path is not None]


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


def write_outputs(report: Report, outputs: ReportOutputs) -> None:
    """Write the JSON report and each other format asked for, each through the atomic writer.

    ``run`` and ``merge`` write them before the history is touched: the report
    file is the source of truth, and a slow history must not delay it.
    """
    from agentic_evals.reports.json_out import write_model_atomic, write_text_atomic
    from agentic_evals.reports.render import render

    for fmt, path in outputs.files():
        if fmt is None:
            write_model_atomic(path, report)
        else:
            write_text_atomic(path, render(report, fmt))


def finish_report(
    report: Report,
    code: ExitCode,
    outputs: ReportOutputs,
    *,
    verbosity: int,
    colour_choice: ColourChoice,
) -> NoReturn:
    """Once the outputs are written (:func:`write_outputs`): tell GitHub, show the summary, exit."""
    from agentic_evals.reports.render import fixture_lines
    from agentic_evals.reports.terminal import colour_enabled
    from agentic_evals.reports.text import render_summary

    stream = summary_stream(*(path for _, path in outputs.files()))
    if os.environ.get("GITHUB_ACTIONS") == "true" or os.environ.get("GITHUB_STEP_SUMMARY"):
        _github(report, fixture_lines(report), stream is sys.stderr)
    colour = stream is not None and colour_enabled(colour_choice, stream)
    summary = render_summary(
        report,
        colour=colour,
        exit_code=int(code),
        report_path=str(outputs.output) if outputs.output else None,
        verbosity=verbosity,
    )
    emit(code, summary, colour=colour, written=[path for _, path in outputs.files()])


def verbosity(quiet: bool, verbose: bool) -> int:
    """-1 with ``-q``, 1 with ``-v``, else 0 (``-q`` wins)."""
    return -1 if quiet else (1 if verbose else 0)
