"""Polling for a short trial's exit instead of sleeping, in a serial run.

A runner that sleeps while its trial runs is woken when the trial exits. On
a virtual machine whose idle cores halt (the guest's ``haltpoll`` driver with
``guest_halt_poll_ns=0``), waking a halted core takes the host tens of
microseconds. On such a 2-core machine, 600 trials of ``true`` in one process
took 1,303 us each with the runner sleeping and 1,172 us with it polling
(medians of 18 alternating runs; ``benchmarks/README.md``, figure (a)). That
wake is a tenth of a short trial, so for short trials the runner polls its
epoll set, on a core the trial does not use, for a bounded time after the
spawn, and then sleeps as usual.

The rule, in one place (:class:`ExitPolling`):

- only serial runs poll: with ``--jobs`` the cores are the trials';
- only where the runner may use more than one CPU, so that the trial never
  waits for the polling runner;
- only for trials with nothing traced (no exec tracer, no file trace): their
  tracers' threads would wait for the interpreter while the runner polls;
- only after a trial that ended within :data:`POLL_LIMIT` of its spawn,
  and for at most :data:`POLL_LIMIT` after the next spawn: a run of long
  trials never polls, and a trial costs at most that much of a core's time;
- ``AGENTIC_EVALS_DISABLE=poll`` turns it off (to measure what it saves).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from agentic_evals.runner.isolation.support import disabled_mechanisms

POLL_LIMIT = 0.002
"""A trial that ended within this many seconds of its spawn is short; after a short
trial, the next one's exit is polled for until this long after its spawn."""

DISABLE_WORD = "poll"
"""The ``AGENTIC_EVALS_DISABLE`` word that turns polling off."""


class ExitPolling:
    """How long the next trial of a serial run polls for its exit (see the module docstring).

    Args:
        environ: Where ``AGENTIC_EVALS_DISABLE`` is read.
        cpus: The CPUs the runner may use (``os.sched_getaffinity``).
    """

    def __init__(self, environ: Mapping[str, str], cpus: int) -> None:
        self._allowed = cpus > 1 and DISABLE_WORD not in disabled_mechanisms(environ)
        self._short = False

    @classmethod
    def here(cls) -> ExitPolling:
        """The polling of a serial run in this process."""
        return cls(os.environ, len(os.sched_getaffinity(0)))

    def budget(self) -> float:
        """Seconds after its spawn that the next untraced trial polls for its exit."""
        return POLL_LIMIT if self._allowed and self._short else 0.0

    def ended(self, lasted: float | None) -> None:
        """A trial ended ``lasted`` seconds after its spawn (None: it never started)."""
        if lasted is not None:
            self._short = lasted <= POLL_LIMIT
