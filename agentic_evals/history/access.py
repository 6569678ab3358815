"""Open the selected history, migrated to the current schema, for the length of a command."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from agentic_evals.history.location import resolve_location
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
