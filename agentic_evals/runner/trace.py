"""Proving that ``must_exercise`` entries really ran: exec tracing (SPEC 3.5).

A case that declares ``must_exercise`` runs under an exec tracer (strace,
:mod:`agentic_evals.runner.trace_strace`); other cases run exactly as before,
at no cost. After the trial every exec *after the case's own top-level one*
counts: later execs of the same process (``bash -c`` execs its last command)
and every exec of a descendant. An entry is exercised when one of them runs
it (:mod:`agentic_evals.runner.trace_match`); each entry that none runs is a
``NOT_EXERCISED`` problem (the trial FAILs). The command's top-level exec
counts for nothing, although it names the entry: the load-time check already
saw the command's text, and the contract is something the command runs.

When no tracer works here the command still runs (its other evidence is
kept), but the trial gets a ``TRACE_UNAVAILABLE`` problem, which makes it
BLOCKED, never PASS on the command's text alone. Every message names the
tracing method; :attr:`TraceOutcome.method` carries it for the report.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

from agentic_evals import codes
from agentic_evals.reports.model import Problem
from agentic_evals.runner.exercise import identity, ran_target, resolve_entry
from agentic_evals.runner.process_record import ProcessResult
from agentic_evals.runner.trace_match import runs
from agentic_evals.runner.trace_strace import TRACE_FILE, StraceTracer
from agentic_evals.runner.trace_types import Exec, Tracer

UNAVAILABLE = "unavailable"
"""The method reported when the case needed tracing and nothing could trace."""

_TRACERS: tuple[Tracer, ...] = (StraceTracer(),)


def default_tracers() -> tuple[Tracer, ...]:
    """The tracers tried in order: strace (the only one shipped)."""
    return _TRACERS


@dataclass(frozen=True)
class TraceOutcome:
    """What tracing found in one trial."""

    method: str | None = None
    """``strace``; ``unavailable`` when nothing could trace; None when not needed."""
    execs: int | None = None
    """Successful execs after the top-level one; None when nothing was traced."""
    problems: tuple[Problem, ...] = ()
    """``NOT_EXERCISED`` per missing entry, or one ``TRACE_UNAVAILABLE``."""


class ExecTrace:
    """The tracing of one trial; use :meth:`start`, then as a context manager."""

    def __init__(
        self,
        entries: Sequence[str],
        argv: Sequence[str],
        env: Mapping[str, str],
        executable: str | None,
    ) -> None:
        self.entries = tuple(entries)
        self.argv: tuple[str, ...] = tuple(argv)
        """What to spawn (the tracer's command line when traced)."""
        self.env: Mapping[str, str] = env
        """The environment to spawn it with."""
        self.marker_env: Mapping[str, str] = env
        """The trial's own environment: its markers identify the trial's processes."""
        self.executable = executable
        """The resolved program for ``argv[0]`` (None when traced: the tracer is argv[0])."""
        self._command = tuple(argv)
        self._cwd = Path(".")
        self._root: Path | None = None
        self._killed: frozenset[int] = frozenset()
        self._tracer: Tracer | None = None
        self._workdir: Path | None = None
        self._unavailable: str | None = None
        self._finished = False

    @classmethod
    def start(
        cls,
        entries: Sequence[str],
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
        cwd: Path,
        executable: str | None = None,
        tracers: Iterable[Tracer] | None = None,
        always: bool = False,
        root: Path | None = None,
    ) -> ExecTrace:
        """Prepare the trial's command: traced when ``entries`` is not empty, or ``always``.

        ``always`` traces with ``tracers`` for the file trace's sake
        (:mod:`agentic_evals.runner.trace_strace_files`), which then reads
        :attr:`record` before the trace is closed.
        """
        trace = cls(entries, argv, env, executable)
        trace._cwd, trace._root = cwd, root
        # A program that cannot start runs untraced: the spawn reports it as usual.
        if not (entries or always) or not startable(trace._command[0], env, cwd):
            return trace
        reasons = []
        for tracer in default_tracers() if tracers is None else tracers:
            problem = tracer.problem()
            if problem is not None:
                reasons.append(f"{tracer.name}: {problem}")
                continue
            trace._workdir = Path(tempfile.mkdtemp(prefix="agentic-evals-trace-"))
            trace._tracer = tracer
            trace.argv, trace.env = tracer.wrap(argv, env, trace._workdir)
            trace.executable = None
            return trace
        trace._unavailable = "; ".join(reasons) or "no tracer is configured"
        return trace

    @property
    def record(self) -> Path | None:
        """The tracer's record of the trial (strace's output), while the trace is open."""
        if self._tracer is None or self._workdir is None:
            return None
        return self._workdir / TRACE_FILE

    @property
    def process_name(self) -> str | None:
        """The name (``comm``) of the detached tracer process, when the trial is traced."""
        if self._tracer is None:
            return None
        return Path(self.argv[0]).name[:15]

    def __enter__(self) -> ExecTrace:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop and reap the tracer if that has not happened, and delete its record."""
        if self._tracer is not None and self._workdir is not None:
            if not self._finished:
                self._finished = True
                self._tracer.finish(self._workdir)
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    @property
    def idle(self) -> bool:
        """Nothing is traced or judged: :meth:`observe` would return the result as it is."""
        return not self.entries and (self._tracer is None or self._workdir is None)

    def observe(self, result: ProcessResult) -> tuple[ProcessResult, TraceOutcome]:
        """Judge the entries against the trace of the finished trial.

        Returns the result (with ``start_error`` set when the traced program
        could not start, as the untraced spawn would have reported it) and
        what tracing found.
        """
        tracer, workdir = self._tracer, self._workdir
        if self.idle:
            return result, TraceOutcome()
        if tracer is None or workdir is None:
            if result.start_error is not None:
                # Nothing ran: nothing to judge.
                return result, TraceOutcome(method=UNAVAILABLE if self._unavailable else None)
            reason = self._unavailable or "the program was not found before the run, yet it ran"
            message = (
                f"must_exercise cannot be checked: no exec tracer could trace this trial "
                f"({reason}); the case is blocked, not passed on the command's text"
            )
            return result, _outcome(UNAVAILABLE, None, codes.TRACE_UNAVAILABLE, [message])
        self._finished = True
        complete = tracer.finish(workdir, result.pid)
        if result.start_error is not None:
            return result, TraceOutcome(method=tracer.name)
        # A process the runner killed at the timeout did not run its file to its end.
        self._killed = tracer.killed(workdir) if result.timed_out else frozenset()
        judged, outcome = self._judge(result, tracer.name, tracer.execs(workdir), complete)
        # Traced for the file trace only: nothing to report about must_exercise.
        return (judged, outcome) if self.entries else (judged, TraceOutcome())

    def _judge(
        self, result: ProcessResult, method: str, execs: Iterable[Exec], complete: bool
    ) -> tuple[ProcessResult, TraceOutcome]:
        top: Exec | None = None
        failed: Exec | None = None
        later = 0
        missing = list(self.entries)
        root = self._root or self._cwd
        targets = {
            entry: identity(found)
            if (found := resolve_entry(entry, self._cwd, root, self.marker_env))
            else None
            for entry in missing
        }
        for execution in execs:
            if execution.error is not None:
                failed = failed or execution
            elif top is None:
                top = execution  # the case's own exec: it counts for nothing
            else:
                later += 1
                if missing:
                    missing = [
                        entry
                        for entry in missing
                        if not (
                            runs(execution, entry)
                            and execution.pid not in self._killed
                            and ran_target(execution, targets[entry], self._cwd)
                        )
                    ]
        if top is None and failed is not None and failed.error is not None:
            reason = failed.error.partition("(")[2].rstrip(")") or failed.error
            error = f"cannot start {self._command[0]!r}: {reason}"
            return replace(result, start_error=error, exit_code=None, term_signal=None), (
                TraceOutcome(method=method)
            )
        if top is None:
            message = (
                f"must_exercise cannot be checked: {method} recorded no exec of the command "
                "(its diagnostics are on the trial's stderr)"
            )
            return result, _outcome(method, None, codes.TRACE_UNAVAILABLE, [message])
        caveat = "" if complete else "; the tracer had to be stopped, its record may be short"
        messages = [
            f"must_exercise entry {entry!r} was never executed: no exec after the command's own "
            f"ran that very file as a program or script, to its end "
            f"(traced with {method}, {later} later execs{caveat})"
            for entry in missing
        ]
        return result, _outcome(method, later, codes.NOT_EXERCISED, messages)


def _outcome(method: str, execs: int | None, code: str, messages: list[str]) -> TraceOutcome:
    problems = tuple(Problem(code=code, message=message) for message in messages)
    return TraceOutcome(method=method, execs=execs, problems=problems)


def startable(program: str, env: Mapping[str, str], cwd: Path) -> bool:
    """Whether the spawn would find ``program`` (tracers look it up themselves)."""
    if not cwd.is_dir():
        return False
    if "/" in program:
        return _executable(cwd / program)
    for entry in env.get("PATH", os.defpath).split(os.pathsep):
        if _executable(cwd / (entry or ".") / program):
            return True
    return False


def _executable(path: Path) -> bool:
    try:
        return path.is_file() and os.access(path, os.X_OK)
    except OSError:  # a PATH entry this user may not search
        return False
