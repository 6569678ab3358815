"""Open the selected history, migrated to the current schema, for the length of a command.

:func:`run_report` fetches a run's stored report by reference in one call.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from agentic_evals.history.location import resolve_location
from agentic_evals.history.resolve import StoredRun, resolve_run
from agentic_evals.history.schema import migrate
from agentic_evals.history.store import Store, connect


@contextmanager
def open_history(url: str | None, environ: Mapping[str, str] | None = None) -> Iterator[Store]:
    """The history ``url`` selects (see :func:`~agentic_evals.history.location.resolve_location`).

    Raises:
        HistoryUsageError: The URL is not one the history understands.
        HistoryError: The history cannot be opened or migrated.
    """
    location = resolve_location(url, os.environ if environ is None else environ)
    store = connect(location)
    try:
        migrate(store)
        yield store
    finally:
        store.close()


def run_report(
    reference: str, url: str | None = None, environ: Mapping[str, str] | None = None
) -> StoredRun:
    """The stored report of the run ``reference`` names, in the history ``url`` selects.

    ``reference`` is a run id, a unique prefix of one, ``last`` or ``last~N``
    (see :func:`~agentic_evals.history.resolve.resolve_run`). This is what a
    command that takes run ids beside report files (``compare``) calls.

    Raises:
        UnknownRunError: No run matches, or a prefix matches several
            (:class:`~agentic_evals.history.errors.AmbiguousRunError`).
        HistoryError: The history cannot be opened, or the stored report is not
            a report this agentic-evals reads.
    """
    with open_history(url, environ) as store:
        return resolve_run(store, reference)
