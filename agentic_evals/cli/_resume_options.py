"""``run --resume REPORT`` and its two options: the flags, and REPORT read before the run.

Nothing here imports the run pipeline until ``run`` runs, so that ``--help``
stays as fast as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from agentic_evals.cli._exit import refuse

if TYPE_CHECKING:
    from agentic_evals.evaluation.resume_source import ResumeRequest, Selection

F = TypeVar("F", bound=Callable[..., object])


def resume_options(command: F) -> F:
    """``--resume REPORT``, ``--retry-infra`` and ``--resume-changed-cases``."""
    for option in reversed(
        [
            click.option(
                "--resume",
                type=click.Path(path_type=Path),
                metavar="REPORT",
                help="Keep the finished trials of this earlier report of FIXTURE (interrupted "
                "or failed) and run only what it lacks; refused when the fixture, a case or "
                "a skill file changed since. -o may name REPORT itself.",
            ),
            click.option(
                "--retry-infra",
                is_flag=True,
                help="With --resume: run REPORT's INFRA_BLOCKED trials again.",
            ),
            click.option(
                "--resume-changed-cases",
                is_flag=True,
                help="With --resume: run the cases that changed since REPORT again, in full, "
                "instead of refusing.",
            ),
        ]
    ):
        command = option(command)
    return command


def resume_request(
    flags: Mapping[str, Any], given: Selection
) -> tuple[ResumeRequest | None, Selection]:
    """REPORT read and checked, and the selection of cases the run then has.

    Ends the command (exit 2) when REPORT cannot be resumed, or when the two
    options come without ``--resume``.
    """
    path = flags["resume"]
    if path is None:
        if flags["retry_infra"] or flags["resume_changed_cases"]:
            raise click.UsageError("--retry-infra and --resume-changed-cases go with --resume")
        return None, given
    from agentic_evals.evaluation.resume_source import (
        ResumeError,
        read_resume_report,
        resumed_selection,
    )

    try:
        request = read_resume_report(
            path, retry_infra=flags["retry_infra"], changed=flags["resume_changed_cases"]
        )
        return request, resumed_selection(request, given)
    except ResumeError as error:
        refuse("run", f"{error}; nothing was run")
