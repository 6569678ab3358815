"""Keeping the cores awake for short trials, in a serial run.

A runner that sleeps while its trial runs is woken when the trial exits. On
a virtual machine whose idle cores halt (the guest's ``haltpoll`` driver with
``guest_halt_poll_ns=0``), waking a halted core takes the host tens of
microseconds, and a serial run of short trials pays it several times a
trial: when the trial is spawned on the idle core, when the runner waits for
the spawn, and when the trial exits. On such a 2-core machine, 600 trials
of ``true`` in one process took 0.68 s with the runner sleeping, 0.60 s
with it polling, and 0.54 s polling with the cores kept out of their halt
(medians of 6 alternating runs; ``benchmarks/README.md``, figure (a)). So,
for short trials only:

- the runner polls its epoll set for the trial's exit, on a core the trial
  does not use, for a bounded time after the spawn, and then sleeps as usual
  (:meth:`ExitPolling.budget`);
- the runner asks the kernel that idle CPUs wake at once, through the CPU
  latency request of the kernel's PM QoS interface (:class:`WakeLatency`,
  ``/dev/cpu_dma_latency``): while it is held, idle CPUs poll instead of
  halting. The kernel drops the request when its descriptor is closed, so
  it never outlives the runner, even one killed by SIGKILL. Only root may
  make it; elsewhere runs go without.

The rule, in one place (:class:`ExitPolling`):

- only serial runs: with ``--jobs`` the cores are the trials';
- only where the runner may use more than one CPU, so that the trial never
  waits for the polling runner;
- only after a trial that ended within :data:`POLL_LIMIT` of its spawn, and
  polling for at most :data:`POLL_LIMIT` after the next spawn: a run of long
  trials never polls nor holds the request, a long trial drops it, and a
  trial costs at most that much of a core's time in polling;
- the poll only for trials with nothing traced (no exec tracer, no file
  trace): their tracers' threads would wait for the interpreter while the
  runner polls;
- ``AGENTIC_EVALS_DISABLE=poll`` turns polling off and
  ``AGENTIC_EVALS_DISABLE=latency`` the request (to measure what each saves).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Mapping
from pathlib import Path

from agentic_evals.runner.isolation.support import disabled_mechanisms

POLL_LIMIT = 0.002
"""A trial that ended within this many seconds of its spawn is short; after a short
trial, the next one's exit is polled for until this long after its spawn."""

DISABLE_WORD = "poll"
"""The ``AGENTIC_EVALS_DISABLE`` word that turns polling off."""

LATENCY_DISABLE_WORD = "latency"
"""The ``AGENTIC_EVALS_DISABLE`` word that turns the wake latency request off."""

LATENCY_DEVICE = Path("/dev/cpu_dma_latency")
"""The kernel's CPU latency request (PM QoS): a 32-bit microsecond bound, held while open."""


class WakeLatency:
    """A request that idle CPUs wake within 0 us, held while :attr:`held`.

    Args:
        device: The kernel's CPU latency device.

    Where the device cannot be opened or written (not root, no such device),
    the request is never made, and not tried again.
    """

    def __init__(self, device: Path = LATENCY_DEVICE) -> None:
        self._device = device
        self._fd: int | None = None
        self._refused = False

    @property
    def held(self) -> bool:
        """The request is in force."""
        return self._fd is not None

    def hold(self) -> None:
        """Make the request, unless it is held or was refused."""
        if self._fd is not None or self._refused:
            return
        try:
            # Close-on-exec: a trial holding it would keep the cores awake after the run.
            fd = os.open(self._device, os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            self._refused = True
            return
        try:
            os.write(fd, struct.pack("=i", 0))
        except OSError:
            os.close(fd)
            self._refused = True
            return
        self._fd = fd

    def release(self) -> None:
        """Drop the request, if it is held (closing its descriptor ends it)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


class ExitPolling:
    """How the next trial of a serial run waits for its exit (see the module docstring).

    Args:
        environ: Where ``AGENTIC_EVALS_DISABLE`` is read.
        cpus: The CPUs the runner may use (``os.sched_getaffinity``).
        latency: The wake latency request it holds after short trials.
    """

    def __init__(
        self, environ: Mapping[str, str], cpus: int, latency: WakeLatency | None = None
    ) -> None:
        disabled = disabled_mechanisms(environ)
        self._allowed = cpus > 1 and DISABLE_WORD not in disabled
        self._latency = latency if cpus > 1 and LATENCY_DISABLE_WORD not in disabled else None
        self._short = False

    @classmethod
    def here(cls) -> ExitPolling:
        """The polling of a serial run in this process."""
        return cls(os.environ, len(os.sched_getaffinity(0)), WakeLatency(LATENCY_DEVICE))

    def budget(self) -> float:
        """Seconds after its spawn that the next untraced trial polls for its exit."""
        return POLL_LIMIT if self._allowed and self._short else 0.0

    def ended(self, lasted: float | None) -> None:
        """A trial ended ``lasted`` seconds after its spawn (None: it never started)."""
        if lasted is None:
            return
        self._short = lasted <= POLL_LIMIT
        if self._latency is not None:
            if self._short:
                self._latency.hold()
            else:
                self._latency.release()

    def close(self) -> None:
        """The run is over: drop the wake latency request."""
        if self._latency is not None:
            self._latency.release()
