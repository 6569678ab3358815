"""The signals that stop agentic-evals, and the first one of them, which decides how it ends.

SIGINT, SIGTERM and SIGHUP stop a command; it ends with 128 + the number of
the FIRST of them (130, 143, 129), whatever comes after: a SIGINT after a
SIGTERM still ends 143. While trials run or a report is written, the runner's
own handlers (:mod:`agentic_evals.runner.interrupt`) turn the first signal
into a teardown and a report, and note it here. Everywhere else, once the
command line's entry point called :func:`guard` (its first instruction), the
first signal ends the command at once, quietly, and later ones are ignored;
without the guard (agentic-evals used as a library) nothing changes.

This module imports nothing but :mod:`sys`: it runs before the command line
has imported anything (the interpreter's own ``_signal`` module is loaded
before any code runs; :mod:`signal` would cost a few milliseconds of import).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from types import FrameType

_signal = sys.modules["_signal"]  # loaded by the interpreter before any code runs

STOPPING: tuple[int, ...] = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
"""The signals that stop a command: SIGINT, SIGTERM and SIGHUP (a closed terminal)."""

_first: list[int] = []
"""The first stopping signal noted since :func:`guard`, if any (a list: no global statement)."""


def note(signum: int) -> None:
    """Remember ``signum`` when it is the first stopping signal since :func:`guard`."""
    if not _first:
        _first.append(signum)


def first() -> int | None:
    """The first stopping signal noted since :func:`guard`, or None."""
    return _first[0] if _first else None


def guard() -> None:
    """Make the first stopping signal end the command with 128 + its number, and ignore the rest.

    Installed by the entry point before anything else, so that a signal at
    any moment ends the command cleanly (no traceback); the runner's handlers
    take over while trials run and reports are written, and give the handler
    back afterwards.
    """
    _first.clear()
    for signum in STOPPING:
        _signal.signal(signum, _stop)


def settle() -> None:
    """Ignore the stopping signals from here to the process's end (the command has ended).

    The interpreter gives its default disposition back to every handler set
    from Python while it finalises, after the exit handlers ran: a signal then
    would kill the process and replace the exit status the command chose.
    """
    for signum in STOPPING:
        _signal.signal(signum, _signal.SIG_IGN)


def exit_status(code: int) -> int:
    """The exit status of a command that returned ``code``: 128 + the first signal, if any."""
    signum = first()
    return code if signum is None else 128 + signum


def _stop(signum: int, frame: FrameType | None) -> None:
    """End the command on the first stopping signal; ignore later ones."""
    if _first:
        return
    _first.append(signum)
    raise SystemExit(128 + signum)
