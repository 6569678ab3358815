"""The process exit codes every command uses (SPEC section 11)."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Exit codes are part of the contract: scripts and CI gate on them."""

    OK = 0
    """Success; for ``run``: READY, or any readiness with ``--report-only``."""
    NOT_READY = 1
    """The gate or audit found the subject not ready."""
    INVALID = 2
    """Invalid input or usage: fixture rejected, bad flag, unreadable file."""
    INTERNAL = 3
    """A bug in agentic-evals itself."""
    INTERRUPTED_HUP = 129
    """Stopped by SIGHUP (its terminal closed); a partial report was written."""
    INTERRUPTED_INT = 130
    """Stopped by SIGINT; a partial report was written."""
    INTERRUPTED_TERM = 143
    """Stopped by SIGTERM; a partial report was written."""
