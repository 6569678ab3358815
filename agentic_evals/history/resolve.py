"""Run references: a run id, a unique prefix of one, ``last`` or ``last~N``.

Runs are ordered by the time their report was written, then by the time they
were recorded: ``last`` is the newest, ``last~1`` the one before it. This is
the function ``compare`` and ``export eee`` call to turn what the user typed
into a stored report.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final, NamedTuple

from pydantic import ValidationError

from agentic_evals.history.errors import AmbiguousRunError, HistoryError, UnknownRunError
from agentic_evals.history.store import Store
from agentic_evals.history.view import first_problem
from agentic_evals.reports.model import Report

_LAST: Final = re.compile(r"last(?:~(\d+))?")


def newest_first(runs: str = "") -> str:
    """``ORDER BY`` the runs table (aliased ``runs``, when given), newest first.

    Every query that speaks of "the last runs" orders by this.
    """
    prefix = f"{runs}." if runs else ""
    return f"ORDER BY {prefix}generated_at DESC, {prefix}recorded_at DESC, {prefix}run_id DESC"


NEWEST_FIRST: Final = newest_first()
"""The order of the runs table alone, newest first."""
_SHOWN_CANDIDATES: Final = 5


def names_a_file(reference: str) -> bool:
    """Whether a REPORT | RUN argument names a report file rather than a recorded run.

    It does when it is an existing file or ends in ``.json``; anything else is a
    run reference (an id, a unique prefix of one, ``last``, ``last~N``). Every
    command that takes both (``compare``, ``export eee``) decides by this.
    """
    return reference.endswith(".json") or Path(reference).is_file()


class StoredRun(NamedTuple):
    """A recorded run and its report."""

    run_id: str
    report: Report


def resolve_run_id(store: Store, reference: str) -> str:
    """The run id ``reference`` names.

    Raises:
        UnknownRunError: No run matches (or the history holds fewer runs than ``last~N``).
        AmbiguousRunError: A prefix matches several runs; the message lists some.
    """
    reference = reference.strip()
    last = _LAST.fullmatch(reference)
    if last is not None:
        back = int(last.group(1) or 0)
        rows = store.query(
            f"SELECT run_id FROM runs {NEWEST_FIRST} LIMIT 1 OFFSET :back", {"back": back}
        )
        if not rows:
            total = store.query("SELECT COUNT(*) AS n FROM runs")[0]["n"]
            raise UnknownRunError(
                f"no run {reference}: the history holds {total} run(s)"
                + (f" (last~{total - 1} is the oldest)" if total else "")
            )
        return str(rows[0]["run_id"])
    if not reference:
        raise UnknownRunError("no run reference given")
    exact = store.query("SELECT run_id FROM runs WHERE run_id = :ref", {"ref": reference})
    if exact:
        return reference
    rows = store.query(
        f"SELECT run_id FROM runs WHERE substr(run_id, 1, :n) = :ref {NEWEST_FIRST}",
        {"ref": reference, "n": len(reference)},
    )
    if not rows:
        raise UnknownRunError(f"no run {reference!r} in the history")
    if len(rows) > 1:
        shown = ", ".join(str(row["run_id"]) for row in rows[:_SHOWN_CANDIDATES])
        more = f" and {len(rows) - _SHOWN_CANDIDATES} more" if len(rows) > _SHOWN_CANDIDATES else ""
        raise AmbiguousRunError(f"run prefix {reference!r} matches {len(rows)} runs: {shown}{more}")
    return str(rows[0]["run_id"])


def resolve_run(store: Store, reference: str) -> StoredRun:
    """The stored report of the run ``reference`` names (see :func:`resolve_run_id`).

    Raises:
        UnknownRunError: No run matches.
        AmbiguousRunError: A prefix matches several runs.
        HistoryError: The stored report is no longer a valid report of this version.
    """
    run_id = resolve_run_id(store, reference)
    return StoredRun(run_id, stored_report(store, run_id))


def stored_report(store: Store, run_id: str) -> Report:
    """The report recorded for ``run_id``.

    Raises:
        UnknownRunError: The run has no stored report.
        HistoryError: The stored report does not validate as this version's report.
    """
    rows = store.query("SELECT report FROM reports WHERE run_id = :run_id", {"run_id": run_id})
    if not rows:
        raise UnknownRunError(f"no stored report for run {run_id!r}")
    try:
        return Report.model_validate_json(rows[0]["report"])
    except ValidationError as error:
        raise HistoryError(
            f"the stored report of run {run_id} is not a report this agentic-evals reads: "
            f"{first_problem(error)}"
        ) from None
