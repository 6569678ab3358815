"""``agentic-evals history list|show|trend|flaky|prune|import|imported``: the run history."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from agentic_evals.cli._exit import emit, refuse, verdict_code
from agentic_evals.cli._history_options import history_url_option
from agentic_evals.exitcodes import ExitCode

if TYPE_CHECKING:
    from agentic_evals.history.store import Store

T = TypeVar("T")
_OUTPUT = click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write the JSON here ('-': stdout)."
)
_LIMIT_HELP = "At most this many runs."


def _with_history(command: str, history_url: str | None, action: Callable[[Store], T]) -> T:
    """Run ``action`` on the open history; a history that cannot be used exits 2."""
    from agentic_evals.history.access import open_history
    from agentic_evals.history.errors import HistoryError

    try:
        with open_history(history_url) as store:
            return action(store)
    except HistoryError as error:
        refuse(f"history {command}", error)


@click.group(
    "history",
    epilog="Example: agentic-evals history list --skill demo-skill --limit 5",
)
def history() -> None:
    """Query the history of recorded runs (every run and merge records its report).

    The history is an index of the reports: history import rebuilds it from them.
    Exit codes: 0 success, 1 history import met a conflicting report, 2 unknown run,
    case or claim, an unusable history, or bad usage; 3 internal error.
    """


@history.command("list", epilog="Example: agentic-evals history list --limit 10 -o runs.json")
@click.option("--skill", metavar="S", help="Only the runs of this skill.")
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True, help=_LIMIT_HELP
)
@history_url_option
@_OUTPUT
def list_runs(skill: str | None, limit: int, history_url: str | None, output: Path | None) -> None:
    """The recorded runs, newest first; -o writes {"runs": [...]}."""
    from agentic_evals.history import queries, render

    listing, where = _with_history(
        "list",
        history_url,
        lambda store: (queries.list_runs(store, skill, limit), store.location.display()),
    )
    emit(ExitCode.OK, render.render_list(listing, where), output=output, document=listing)


@history.command("show", epilog="Example: agentic-evals history show last~1")
@click.argument("run")
@history_url_option
@_OUTPUT
def show(run: str, history_url: str | None, output: Path | None) -> None:
    """One run with its cases and claims: RUN is a run id, a unique prefix, last or last~N."""
    from agentic_evals.history import queries, render

    detail = _with_history("show", history_url, lambda store: queries.show_run(store, run))
    emit(ExitCode.OK, render.render_show(detail), output=output, document=detail)


@history.command(
    "trend",
    epilog="Example: agentic-evals history trend demo-skill::happy-path --limit 30",
)
@click.argument("target", metavar="CASE_ID|CLAIM_ID")
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True, help=_LIMIT_HELP
)
@history_url_option
@_OUTPUT
def trend(target: str, limit: int, history_url: str | None, output: Path | None) -> None:
    """The pass rate of a case or claim per run, with its Wilson 95% interval, oldest first.

    Each run also names the hashes (test source, oracle, skill files) that changed
    since the run before it.
    """
    from agentic_evals.history import render
    from agentic_evals.history.trend import trend as trend_of

    result = _with_history("trend", history_url, lambda store: trend_of(store, target, limit))
    emit(ExitCode.OK, render.render_trend(result), output=output, document=result)


@history.command("flaky", epilog="Example: agentic-evals history flaky --window 20 -o flaky.json")
@click.option(
    "--window",
    type=click.IntRange(min=2),
    default=10,
    show_default=True,
    help="Look at the last N runs of each case that passed or failed it.",
)
@history_url_option
@_OUTPUT
def flaky(window: int, history_url: str | None, output: Path | None) -> None:
    """Cases whose outcome changed between runs while their hashes stayed the same.

    The hashes are the case's test source, its oracle and its skill files; a change
    of outcome that comes with a changed hash is not flakiness. -o writes
    {"flaky": [{"case_id", ...}]}.
    """
    from agentic_evals.history import render
    from agentic_evals.history.flaky import flaky_cases

    result = _with_history("flaky", history_url, lambda store: flaky_cases(store, window))
    emit(ExitCode.OK, render.render_flaky(result, window), output=output, document=result)


@history.command("prune", epilog="Example: agentic-evals history prune --keep 200")
@click.option(
    "--keep", type=click.IntRange(min=0), required=True, metavar="N", help="Runs to keep."
)
@history_url_option
@_OUTPUT
def prune(keep: int, history_url: str | None, output: Path | None) -> None:
    """Forget every run but the newest N (report files and imported results stay)."""
    from agentic_evals.history import render
    from agentic_evals.history.prune import prune as prune_runs

    receipt = _with_history("prune", history_url, lambda store: prune_runs(store, keep))
    emit(ExitCode.OK, render.render_prune(receipt), output=output, document=receipt)


@history.command("import", epilog="Example: agentic-evals history import reports/*.json")
@click.argument("reports", nargs=-1, required=True, type=click.Path(path_type=Path))
@history_url_option
@_OUTPUT
def import_reports(reports: tuple[Path, ...], history_url: str | None, output: Path | None) -> None:
    """Record report files: rebuilds the history from the reports, its source of truth.

    A report whose run is already recorded is skipped. Exit 1 when a run id is
    recorded with a different report (kept as it was), 2 when a file is not a report.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.history import render
    from agentic_evals.history.rebuild import import_reports as record_files

    if output is not None:
        check_outputs("history import", [output], reports)
    receipt = _with_history("import", history_url, lambda store: record_files(store, reports))
    code = verdict_code(not_ready=bool(receipt.conflicts), invalid=bool(receipt.invalid))
    emit(code, render.render_import(receipt), output=output, document=receipt)


@history.command("imported", epilog="Example: agentic-evals history imported -o imported.json")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many results.")
@history_url_option
@_OUTPUT
def imported(limit: int | None, history_url: str | None, output: Path | None) -> None:
    """Every Eval Ever results imported from other tools (import eee), newest first."""
    from agentic_evals.history import queries, render

    result = _with_history(
        "imported", history_url, lambda store: queries.list_imported(store, limit)
    )
    emit(ExitCode.OK, render.render_imported(result), output=output, document=result)
