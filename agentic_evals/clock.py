"""The only reader of wall time, monotonic time and randomness.

Tests replace these functions to freeze time; nothing else in the package
reads the clock directly.
"""

from __future__ import annotations

import datetime as _dt
import time as _time
import uuid as _uuid


def utc_now() -> _dt.datetime:
    """Return the current time as an aware UTC datetime."""
    return _dt.datetime.now(tz=_dt.UTC)


def today() -> _dt.date:
    """Return today's date in UTC."""
    return utc_now().date()


def monotonic() -> float:
    """Return a monotonic clock reading in seconds."""
    return _time.monotonic()


def new_run_id() -> str:
    """Return a fresh, unique run identifier."""
    return _uuid.uuid4().hex
