"""``agentic-evals run``: gate, run and judge a fixture; exit by readiness."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agentic_evals.cli._exit import echo_findings, finish, refuse, verdict_code
from agentic_evals.cli._history_options import record_options, record_report
from agentic_evals.cli._report_out import (
    ReportOutputs,
    annotate_findings,
    check_outputs,
    finish_report,
    report_options,
    verbosity,
    write_outputs,
)
from agentic_evals.cli._resume_options import resume_options, resume_request
from agentic_evals.cli._settings import no_config_option, resolve
from agentic_evals.cli._timeout import SECONDS
from agentic_evals.contract.vocabulary import DEFAULT_RUN_TIER, QUALIFICATION_TIERS
from agentic_evals.exitcodes import ExitCode
from agentic_evals.reports.terminal import PROGRESS_MODES

if TYPE_CHECKING:
    from agentic_evals.contract.load import LoadResult
    from agentic_evals.evaluation.evaluate import Evaluation
    from agentic_evals.evaluation.resume_source import ResumeRequest, Selection
    from agentic_evals.reports.progress import Progress


@click.command(
    "run",
    epilog=(
        "Example: agentic-evals run fixtures/agentic_eval.json --output report.json\n\n"
        "Exit codes: 0 READY (a focused run: every selected case passed; a shard: its required "
        "cases passed; any readiness with --report-only), 1 not READY, "
        "2 fixture rejected or bad usage, 3 internal error, 129/130/143 interrupted."
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
    help="Run only this case (repeatable). A focused run skips the anti-slop gates and is "
    "never READY (NOT_ESTABLISHED); it exits 0 when every selected case passed.",
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
    type=SECONDS,
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
    help="Keep what each trial changed: its workspace copy, or its private view's upper layer "
    "(docs/isolation.md); the report's trial names the path in workspace_path.",
)
@click.option(
    "--progress",
    type=click.Choice(PROGRESS_MODES),
    default="auto",
    show_default=True,
    help="A line per case on stderr as it finishes; auto adds a live status line on a terminal.",
)
@resume_options
@report_options
@no_config_option
@record_options
@click.pass_context
def run(ctx: click.Context, /, fixture: Path, **flags: Any) -> None:
    """Load and gate FIXTURE, run every case over its trials, judge readiness."""
    from agentic_evals.evaluation.resume_source import Selection
    from agentic_evals.evidence.gates import load_fixture
    from agentic_evals.judge.gate import run_succeeded
    from agentic_evals.judge.shard import ShardError, resolve_shard
    from agentic_evals.runner.interrupt import held

    options, configuration = resolve(
        ctx, {k: flags[k] for k in _CONFIGURABLE}, no_config=flags["no_config"]
    )
    try:
        shard = resolve_shard(
            flags["shard_spec"], flags["shard_total"], os.environ, focused=bool(flags["focus"])
        )
    except ShardError as error:
        raise click.UsageError(str(error)) from None
    request, selection = resume_request(flags, Selection(flags["focus"], shard))
    outputs = ReportOutputs.of(options)
    # Before anything runs, not after a long run; the fixture is never overwritten, and the
    # report resumed only by the JSON report (written whole, once the run is over).
    check_outputs("run", [path for _, path in outputs.files()], [fixture])
    if request is not None:
        check_outputs("run", [path for fmt, path in outputs.files() if fmt], [request.path])
    loaded = load_fixture(fixture, strict=options["strict"], gates=not selection.focus)
    echo_findings(loaded.findings)
    if loaded.model is None:
        annotate_findings(loaded.findings)
        click.echo(f"{fixture}: rejected; nothing was run", err=True)
        finish(ExitCode.INVALID)
    # A signal once the trials are over waits until the report is written.
    with held() as hold:
        evaluation = _evaluate(loaded, flags, options, selection, request)
        report = evaluation.report.model_copy(update={"configuration": configuration})
        write_outputs(report, outputs)
    signum = evaluation.interrupted_by or hold.signum
    if signum is not None:
        code = ExitCode(128 + signum)
    else:
        code = verdict_code(not_ready=not run_succeeded(report), report_only=flags["report_only"])
    record_report(report, flags["history_url"], flags["no_history"])
    level = verbosity(flags["quiet"], flags["verbose"])
    finish_report(report, code, outputs, verbosity=level, colour_choice=options["color"])


def _evaluate(
    loaded: LoadResult,
    flags: dict[str, Any],
    options: dict[str, Any],
    selection: Selection,
    request: ResumeRequest | None,
) -> Evaluation:
    """Run the fixture with its progress shown; a case or a resume it cannot have ends it."""
    from agentic_evals.evaluation.evaluate import RunOptions, UnknownCaseError, evaluate
    from agentic_evals.evaluation.resume_source import ResumeError

    with _progress(options, _selection(loaded, selection)) as progress:
        run_options = RunOptions(
            timeout_seconds=options["timeout_seconds"],
            focus=selection.focus,
            shard=selection.shard,
            jobs=options["jobs"],
            tier=flags["tier"],
            require_system_test=flags["require_system_test"],
            keep_workspaces=flags["keep_workspaces"],
            observer=progress,
            resume=request,
        )
        # What exists by now (modules, models, the loaded fixture) lives as long as the
        # process: frozen, it is not walked again by every full collection during the run.
        gc.freeze()
        try:
            return evaluate(loaded, run_options)
        except UnknownCaseError as error:
            if request is not None:
                refuse(
                    "run",
                    f"{request.path} ran the case(s) {error}, which {loaded.path} no longer "
                    "has: run afresh without --resume; nothing was run",
                )
            raise click.BadParameter(
                f"no case named {error} in {loaded.path}", param_hint="--case"
            ) from None
        except ResumeError as error:
            refuse("run", f"{error}; nothing was run")


_CONFIGURABLE = (
    "jobs", "timeout_seconds", "color", "progress", "output", "junit_xml", "html", "markdown",
    "strict",
)  # fmt: skip


def _selection(loaded: LoadResult, selection: Selection) -> list[str]:
    """The names of the cases the run will run (none when ``--case`` names an unknown one)."""
    from agentic_evals.evaluation.evaluate import UnknownCaseError, select_cases

    assert loaded.model is not None
    try:
        return [case.name for _, case in select_cases(loaded.model, *selection)]
    except UnknownCaseError:
        return []


def _progress(options: dict[str, Any], selected: list[str]) -> Progress:
    from agentic_evals.reports.progress import Progress
    from agentic_evals.reports.terminal import colour_enabled

    colour = colour_enabled(options["color"], sys.stderr)
    width = min(48, max((len(name) for name in selected), default=10))
    mode = options["progress"]
    return Progress(sys.stderr, cases=len(selected), mode=mode, colour=colour, width=width)
