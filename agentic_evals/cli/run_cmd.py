"""``agentic-evals run``: gate, run and judge a fixture; exit by readiness."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agentic_evals.cli._exit import echo_findings, finish, verdict_code
from agentic_evals.cli._history_options import record_options, record_report
from agentic_evals.cli._report_out import (
    ReportOutputs,
    annotate_findings,
    check_outputs,
    finish_report,
    report_options,
    verbosity,
)
from agentic_evals.cli._settings import no_config_option, resolve
from agentic_evals.contract.vocabulary import DEFAULT_RUN_TIER, QUALIFICATION_TIERS
from agentic_evals.exitcodes import ExitCode
from agentic_evals.reports.terminal import PROGRESS_MODES

if TYPE_CHECKING:
    from agentic_evals.contract.load import LoadResult
    from agentic_evals.evaluation.evaluate import RunOptions
    from agentic_evals.judge.shard import Shard
    from agentic_evals.reports.progress import Progress


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
    type=click.Choice(QUALIFICATION_TIERS),
    default=DEFAULT_RUN_TIER,
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
    help="Keep each trial's workspace copy instead of deleting it; the report's "
    "trial names its path in workspace_path.",
)
@click.option(
    "--progress",
    type=click.Choice(PROGRESS_MODES),
    default="auto",
    show_default=True,
    help="A line per case on stderr as it finishes; auto adds a live status line on a terminal.",
)
@report_options
@no_config_option
@record_options
@click.pass_context
def run(ctx: click.Context, /, fixture: Path, **flags: Any) -> None:
    """Load and gate FIXTURE, run every case over its trials, judge readiness."""
    from agentic_evals.evaluation.evaluate import UnknownCaseError, evaluate
    from agentic_evals.evidence.gates import load_fixture
    from agentic_evals.judge.shard import ShardError, resolve_shard

    options, configuration = resolve(
        ctx, {k: flags[k] for k in _CONFIGURABLE}, no_config=flags["no_config"]
    )
    focus = flags["focus"]
    try:
        shard = resolve_shard(
            flags["shard_spec"], flags["shard_total"], os.environ, focused=bool(focus)
        )
    except ShardError as error:
        raise click.UsageError(str(error)) from None
    outputs = ReportOutputs.of(options)
    # Before anything runs, not after a long run; the fixture is never overwritten.
    check_outputs("run", [path for _, path in outputs.files()], [fixture])
    loaded = load_fixture(fixture, strict=options["strict"], gates=not focus)
    echo_findings(loaded.findings)
    if loaded.model is None:
        annotate_findings(loaded.findings)
        click.echo(f"{fixture}: rejected; nothing was run", err=True)
        finish(ExitCode.INVALID)
    with _progress(options, _selection(loaded, focus, shard)) as progress:
        try:
            evaluation = evaluate(loaded, _run_options(flags, options, shard, progress))
        except UnknownCaseError as error:
            raise click.BadParameter(
                f"no case named {error} in {fixture}", param_hint="--case"
            ) from None
    report = evaluation.report.model_copy(update={"configuration": configuration})
    if evaluation.interrupted_by is not None:
        code = ExitCode(128 + evaluation.interrupted_by)
    else:
        code = verdict_code(not_ready=report.readiness != "READY", report_only=flags["report_only"])
    record_report(report, flags["history_url"], flags["no_history"])
    level = verbosity(flags["quiet"], flags["verbose"])
    finish_report(report, code, outputs, verbosity=level, colour_choice=options["color"])


_CONFIGURABLE = (
    "jobs", "timeout_seconds", "color", "progress", "output", "junit_xml", "html", "markdown",
    "strict",
)  # fmt: skip


def _selection(loaded: LoadResult, focus: tuple[str, ...], shard: Shard | None) -> list[str]:
    """The names of the cases the run will run (none when ``--case`` names an unknown one)."""
    from agentic_evals.evaluation.evaluate import UnknownCaseError, select_cases

    assert loaded.model is not None
    try:
        return [case.name for _, case in select_cases(loaded.model, focus, shard)]
    except UnknownCaseError:
        return []


def _progress(options: dict[str, Any], selected: list[str]) -> Progress:
    from agentic_evals.reports.progress import Progress
    from agentic_evals.reports.terminal import colour_enabled

    colour = colour_enabled(options["color"], sys.stderr)
    width = min(48, max((len(name) for name in selected), default=10))
    mode = options["progress"]
    return Progress(sys.stderr, cases=len(selected), mode=mode, colour=colour, width=width)


def _run_options(
    flags: dict[str, Any], options: dict[str, Any], shard: Shard | None, progress: Progress
) -> RunOptions:
    from agentic_evals.evaluation.evaluate import RunOptions

    return RunOptions(
        timeout_seconds=options["timeout_seconds"],
        focus=flags["focus"],
        shard=shard,
        jobs=options["jobs"],
        tier=flags["tier"],
        require_system_test=flags["require_system_test"],
        keep_workspaces=flags["keep_workspaces"],
        observer=progress,
    )
