"""``agentic-evals run``: gate, run and judge a fixture; exit by readiness."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from agentic_evals.cli._exit import finish
from agentic_evals.exitcodes import ExitCode

if TYPE_CHECKING:
    from agentic_evals.claims.models import Tier


@click.command(
    "run",
    epilog=(
        "Example: agentic-evals run fixtures/agentic_eval.json --output report.json\n\n"
        "Exit codes: 0 READY (or any readiness with --report-only), 1 not READY, "
        "2 fixture rejected or bad usage, 3 internal error, 130/143 interrupted."
    ),
)
@click.argument("fixture", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the JSON report here ('-': stdout).",
)
@click.option("--report-only", is_flag=True, help="Exit 0 whatever the readiness.")
@click.option("--strict", is_flag=True, help="Unknown keys are errors, not warnings.")
@click.option(
    "--case",
    "focus",
    multiple=True,
    metavar="NAME",
    help="Run only this case (repeatable). A focused run skips the anti-slop gates.",
)
@click.option(
    "--shard",
    "shard_spec",
    metavar="K/N",
    help=(
        "Run only shard K of N (K from 1): the cases at fixture positions i with i % N == K-1. "
        "Default: CI_NODE_INDEX/CI_NODE_TOTAL, or JOB_COMPLETION_INDEX (0-based) with "
        "--shard-total."
    ),
)
@click.option(
    "--shard-total",
    type=click.IntRange(min=1),
    metavar="N",
    help="Shard total for JOB_COMPLETION_INDEX (default: env AGENTIC_EVALS_SHARD_TOTAL).",
)
@click.option(
    "--timeout-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Per-trial timeout for cases that set none.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Trials run at once; the report is the same as a serial run's.",
)
@click.option(
    "--tier",
    type=click.Choice(["system_test", "full_integration", "simulated", "unit", "not_required"]),
    default="unit",
    show_default=True,
    help="Qualification tier of the environment this run happens in; a passing case reaches "
    "the lower of it and its own qualification.required_up_to.",
)
@click.option(
    "--require-system-test",
    is_flag=True,
    help="A required case whose required_up_to is system_test and that did not reach it "
    "is BLOCKED (MISSING_SYSTEM_TEST), even if it passed.",
)
@click.option(
    "--keep-workspaces",
    is_flag=True,
    help="Keep what each trial changed: its workspace copy, or its private view's upper layer "
    "(docs/isolation.md); the report's trial names the path in workspace_path.",
)
def run(
    fixture: Path,
    output: Path | None,
    report_only: bool,
    strict: bool,
    focus: tuple[str, ...],
    shard_spec: str | None,
    shard_total: int | None,
    timeout_seconds: float,
    jobs: int,
    tier: Tier,
    require_system_test: bool,
    keep_workspaces: bool,
) -> None:
    """Load and gate FIXTURE, run every case over its trials, judge readiness."""
    from agentic_evals.contract.load import load_fixture
    from agentic_evals.evaluate import RunOptions, UnknownCaseError, evaluate
    from agentic_evals.reports.json_out import check_writable, write_model_atomic
    from agentic_evals.reports.text import render_summary, use_colour
    from agentic_evals.shard import ShardError, resolve_shard

    try:
        shard = resolve_shard(shard_spec, shard_total, os.environ, focused=bool(focus))
    except ShardError as error:
        raise click.UsageError(str(error)) from None
    if output is not None:
        check_writable(output)  # before anything runs, not after a long run
    loaded = load_fixture(fixture, strict=strict, gates=not focus)
    for finding in loaded.findings:
        click.echo(finding.render(), err=True)
    if loaded.fixture is None:
        click.echo(f"{fixture}: rejected; nothing was run", err=True)
        finish(ExitCode.INVALID)
    try:
        options = RunOptions(
            timeout_seconds=timeout_seconds,
            focus=focus,
            shard=shard,
            jobs=jobs,
            tier=tier,
            require_system_test=require_system_test,
            keep_workspaces=keep_workspaces,
        )
        evaluation = evaluate(loaded, options)
    except UnknownCaseError as error:
        raise click.BadParameter(
            f"no case named {error} in {fixture}", param_hint="--case"
        ) from None
    report = evaluation.report
    if evaluation.interrupted_by is not None:
        code = ExitCode(128 + evaluation.interrupted_by)
    elif report.readiness == "READY" or report_only:
        code = ExitCode.OK
    else:
        code = ExitCode.NOT_READY
    if output is not None:
        write_model_atomic(output, report)
    # With the JSON on stdout ("-o -"), the summary moves to stderr.
    to_stderr = output is not None and str(output) == "-"
    stream = sys.stderr if to_stderr else sys.stdout
    summary = render_summary(
        report,
        colour=use_colour(stream),
        exit_code=int(code),
        report_path=str(output) if output else None,
    )
    click.echo(summary, err=to_stderr, nl=False, color=use_colour(stream))
    finish(code)
