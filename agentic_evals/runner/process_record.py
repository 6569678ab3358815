"""What a trial process did: its record, made at once or when the trial is judged.

:class:`ProcessResult` is the record; :class:`EndedProcess` is a process whose
whole tree is gone and whose record is made on demand
(:func:`agentic_evals.runner.process.end_process`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agentic_evals.runner.capture import CapturedStream


@dataclass(frozen=True)
class ProcessResult:
    """What one trial process did.

    Attributes:
        argv: The command that was run.
        exit_code: The leader's exit status; 128+signum after a signal death;
            None when it timed out or could not start.
        term_signal: The signal that ended the leader, if any.
        timed_out: Whether the timeout expired and the tree was killed.
        start_error: A one-line reason when the program could not start.
        duration_ms: Time from spawning until the whole tree was gone and drained.
        stdout: Captured standard output.
        stderr: Captured standard error.
        orphan_pids: Descendants still alive after the leader ended (then killed).
        pid: The leader's pid; None when it could not start.
    """

    argv: tuple[str, ...]
    exit_code: int | None
    term_signal: int | None
    timed_out: bool
    start_error: str | None
    duration_ms: int
    stdout: CapturedStream
    stderr: CapturedStream
    orphan_pids: tuple[int, ...]
    pid: int | None = None

    def close(self) -> None:
        """Release both captured streams."""
        self.stdout.close()
        self.stderr.close()


class EndedProcess:
    """A trial process whose whole tree is gone, before its record is made.

    Everything that decides the trial happened (the tree ended, escapees were
    found and killed, the leader was reaped, the output drained); what is left
    is bookkeeping: closing the pipes and pidfds, and making the
    :class:`ProcessResult`. A serial run does that while the next trial's
    program starts (:func:`end_process`); :func:`run_process` does it at once.
    """

    def __init__(
        self,
        made: ProcessResult | None = None,
        *,
        make: Callable[[], ProcessResult] | None = None,
        returncode: int | None = None,
        timed_out: bool = False,
        release: Callable[[], None] | None = None,
        lasted: float = 0.0,
    ) -> None:
        self._made, self._make, self._release = made, make, release
        self.lasted = lasted
        """Seconds from the spawn until the whole tree was gone (0 when it could not start)."""
        self.exit_code, self.term_signal = exit_status(returncode, timed_out)
        if made is not None:
            self.exit_code, self.term_signal = made.exit_code, made.term_signal
        self.started = made is None or made.start_error is None
        """Whether the program ran (it could not start when a result came made with a reason)."""

    def result(self) -> ProcessResult:
        """The process's record, made once (the supervisor's pipes and pidfds closed then)."""
        if self._made is None:
            assert self._make is not None
            self._made, self._make, self._release = self._make(), None, None
        return self._made

    def close(self) -> None:
        """Release the captured output, and the supervisor if no record was made."""
        if self._made is not None:
            self._made.close()
        elif self._release is not None:
            self._release()
            self._make = self._release = None


def exit_status(returncode: int | None, timed_out: bool) -> tuple[int | None, int | None]:
    """The exit code and the signal that ended the leader, from its return code."""
    signum = -returncode if returncode is not None and returncode < 0 else None
    exit_code = None if timed_out else returncode
    if exit_code is not None and signum is not None:
        exit_code = 128 + signum  # the shell's convention for a signal death
    return exit_code, signum
