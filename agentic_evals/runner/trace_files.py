"""Tracing what a live or real-world trial ran, opened and wrote (docs/tracing.md).

Which trials: every trial of a case that is ``real_world`` or declares a live
evidence class (an absent ``evidence_class`` declares ``live_e2e``). Other
cases run untraced, at no cost.

How, in this order (``AGENTIC_EVALS_TRACER`` forces one: ``fanotify``,
``strace`` or ``none``; ``auto`` is the default):

1. ``fanotify`` (:mod:`agentic_evals.runner.fanotify`), when the trial runs
   in an overlay view (a mount of its own) and the kernel lets the runner
   make a fanotify group with permission events (root);
2. ``strace`` (:mod:`agentic_evals.runner.trace_strace_files`), for every
   other trial, when strace works here;
3. none: the trial runs and is BLOCKED with ``TRACE_UNAVAILABLE``; its record
   says why (``method: unavailable``). The summary says what a run without
   a tracer could not qualify.

What the record says (:class:`~agentic_evals.reports.model.FileTrace`) is
judged by :mod:`agentic_evals.evidence.traced`.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from agentic_evals import codes
from agentic_evals.commands.shell import simple_commands
from agentic_evals.contract.layout import stub_location
from agentic_evals.contract.models import Case
from agentic_evals.contract.vocabulary import DEFAULT_CLASS, LIVE_CLASSES
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.paths import UnsafePathError, resolve_artifact
from agentic_evals.reports.model import ArtifactWriter, FileTrace, Problem
from agentic_evals.runner.fanotify import FanotifyTrace, fanotify_problem
from agentic_evals.runner.stub_copies import StubCopies, StubCopyFinder
from agentic_evals.runner.trace_record import TraceRecorder
from agentic_evals.runner.trace_strace import FILE_EVENTS, StraceTracer
from agentic_evals.runner.trace_strace_files import absorb

TRACER_VAR = "AGENTIC_EVALS_TRACER"
"""Forces a tracer: ``auto`` (default), ``fanotify``, ``strace`` or ``none``."""
TRACER_CHOICES = ("auto", "fanotify", "strace", "none")


def traced_case(case: Case) -> bool:
    """Whether the case's trials are traced: it is real-world, or declares a live class."""
    return case.real_world or (case.evidence_class or DEFAULT_CLASS) in LIVE_CLASSES


def requested_tracer(environ: Mapping[str, str] | None = None) -> str:
    """The tracer ``AGENTIC_EVALS_TRACER`` asks for (``auto`` when unset).

    Raises:
        ValueError: It names no tracer.
    """
    value = (os.environ if environ is None else environ).get(TRACER_VAR, "auto") or "auto"
    if value not in TRACER_CHOICES:
        choices = ", ".join(TRACER_CHOICES)
        raise ValueError(f"{TRACER_VAR}={value!r} names no tracer (one of {choices})")
    return value


class FileTracing:
    """The file tracing of one trial: :meth:`start` before the spawn, :meth:`stop` after."""

    def __init__(self, tree: Path, mode: str, method: str, reason: str | None = None) -> None:
        self.tree = tree
        self.cwd: Path | None = None
        """The trial's working directory (set before it is spawned)."""
        self.mode = mode
        self.recorder = TraceRecorder(method)
        self.reason = reason
        self._fanotify: FanotifyTrace | None = None
        self.strace: StraceTracer | None = None
        """The tracer to run the trial under, when strace traces it."""
        self.copies = StubCopies({}, {})
        """The stubs' copies outside the tree before the trial (watched, and named by the case)."""

    @property
    def method(self) -> str:
        """``fanotify``, ``strace`` or ``unavailable``."""
        return self.recorder.method

    @classmethod
    def for_trial(
        cls,
        case: Case,
        tree: Path,
        mode: str,
        artifact_root: Path,
        cwd: Path,
        finder: StubCopyFinder | None = None,
    ) -> FileTracing | None:
        """Start tracing a trial of ``case`` when it is traced (:func:`traced_case`), else None.

        ``tree`` is the skill tree (its view's path), ``artifact_root`` where
        its artifacts resolve (a workspace's view is a mount of its own too);
        ``finder`` finds the stubs' copies outside the tree, to watch too.
        """
        if not traced_case(case):
            return None
        mounts = dict.fromkeys((tree, Path(os.path.realpath(artifact_root))))
        copies = finder.before_trial(case) if finder is not None else StubCopies({}, {})
        tracing = cls.start(tree, mode, tuple(mounts), copies)
        tracing.copies = copies
        tracing.cwd = Path(os.path.realpath(cwd))
        return tracing

    @classmethod
    def start(
        cls, tree: Path, mode: str, mounts: Sequence[Path], copies: StubCopies
    ) -> FileTracing:
        """Trace a trial whose view of the skill tree is ``tree`` (isolation ``mode``).

        ``mounts`` are the view's mounts to mark (the tree's, a workspace's),
        ``copies`` the stubs' copies outside it, each marked by its inode.
        Called in the trial's thread, before its process is spawned.
        """
        try:
            wanted = requested_tracer()
        except ValueError as error:
            return cls(tree, mode, "unavailable", str(error))
        reasons = []
        if wanted in ("auto", "fanotify"):
            problem = None if mode == "overlay" else f"the trial's view is {mode!r}, not an overlay"
            problem = problem or fanotify_problem()
            if problem is None:
                tracing = cls(tree, mode, "fanotify")
                files = tuple(Path(path) for path in copies.watched)
                tracing._fanotify = FanotifyTrace(tuple(mounts), files, tracing.recorder)
                try:
                    tracing._fanotify.start()
                    return tracing
                except OSError as error:
                    problem = str(error)
            reasons.append(f"fanotify: {problem}")
        if wanted in ("auto", "strace"):
            tracer = StraceTracer(FILE_EVENTS)
            problem = tracer.problem()
            if problem is None:
                tracing = cls(tree, mode, "strace")
                tracing.strace = tracer
                return tracing
            reasons.append(f"strace: {problem}")
        if wanted == "none":
            reasons.append(f"{TRACER_VAR}=none")
        return cls(tree, mode, "unavailable", "; ".join(reasons))

    def stop(self) -> None:
        """Stop tracing (the trial's processes are gone); called once."""
        if self._fanotify is not None:
            self._fanotify.stop()
            self._fanotify = None

    def absorb(self, record: Path | None, cwd: Path) -> None:
        """Read strace's ``record`` of the trial (run in ``cwd``), before it is deleted."""
        if self.strace is None:
            return
        if record is None or not record.exists():
            self.recorder.failed("strace left no record of the trial")
            return
        # strace escapes every byte outside printable ASCII, so latin-1 never fails.
        with record.open("r", encoding="latin-1", newline="\n") as lines:
            absorb(lines, self.recorder, cwd, self.tree, frozenset(self.copies.watched))

    def report(self, case: Case, context: OracleContext) -> FileTrace:
        """The trial's record, its paths shown relative to the skill tree."""
        recorder = self.recorder
        if recorder.method == "unavailable":
            seen = self.copies.seen((), self.tree)
            return FileTrace(method="unavailable", reason=self.reason, stub_copies=seen)
        entrypoints: dict[str, None] = {}
        trivial: dict[str, None] = {}
        checked: dict[str, None] = {}
        roots: dict[int, int] = {}
        for run in recorder.runs:
            shown = self._shown(run.path)
            if shown in self.copies.watched:
                trivial[f"{shown}: a copy of {self.copies.watched[shown]}"] = None
            elif run.how == "check":
                checked[f"{shown} ({run.option})"] = None
            elif run.trivial is not None or stub_location(shown):
                trivial[f"{shown}: {run.trivial or 'a file in a stub location'}"] = None
            else:
                entrypoints[shown] = None
                roots.setdefault(run.pid, run.seq)
        named = _named_inputs(case, self.cwd)
        stubs = [
            self._shown(path)
            for path, openers in recorder.opened.items()
            if stub_location(self._shown(path))
            and path not in recorder.writers
            and _existed(path, context)
            and not (
                _is_named(path, named)
                and all(recorder.by_entrypoint(seq, pid, roots) for seq, pid in openers)
            )
        ]
        return FileTrace(
            method="fanotify" if recorder.method == "fanotify" else "strace",
            entrypoints=list(entrypoints),
            trivial=list(trivial),
            checked=list(checked),
            stub_opens=sorted(set(stubs)),
            stub_copies=self.copies.seen(recorder.opened, self.tree),
            artifacts=self._artifacts(case, context, roots),
            incomplete=list(recorder.errors),
        )

    def _shown(self, path: str) -> str:
        real = Path(path)
        return str(real.relative_to(self.tree)) if real.is_relative_to(self.tree) else path

    def _artifacts(
        self, case: Case, context: OracleContext, roots: dict[int, int]
    ) -> dict[str, ArtifactWriter]:
        found: dict[str, ArtifactWriter] = {}
        for check in case.expected.artifacts:
            if check.path is None or check.absent or check.exists is False:
                continue
            try:
                resolved = resolve_artifact(check.path, context)
            except UnsafePathError:
                continue
            writes = self.recorder.writes_of(str(resolved.real))
            writer: ArtifactWriter = "untouched"
            if writes:
                # Every write must be the entrypoint's: a wrapper may overwrite its output.
                inside = all(self.recorder.by_entrypoint(seq, pid, roots) for seq, pid in writes)
                writer = "entrypoint" if inside else "wrapper"
            found[check.path] = writer
        return found


def _named_inputs(case: Case, cwd: Path | None) -> tuple[set[str], set[str]]:
    """The files a case's command names by a plain path below its cwd, and their folders.

    What the case names as the program's input (``run samples/app.json``)
    is its input, not a stub reached by another road: a path written with a
    stub location in it is not counted here (the load-time reading judges
    it), nor a path that leaves the cwd, nor one only known at run time.
    """
    files: set[str] = set()
    folders: set[str] = set()
    if cwd is None:
        return files, folders
    for command in simple_commands(case.command, case.env):
        for word in command.argv[1:]:
            if not word or word.startswith("-") or any(mark in word for mark in "$`*?["):
                continue
            relative = posixpath.normpath(word)
            if relative.startswith(("/", "..")) or stub_location(f"{relative}/x"):
                continue
            files.add(str(cwd / relative))
            if posixpath.dirname(relative):
                folders.add(str(cwd / posixpath.dirname(relative)))
    return files, folders


def _is_named(path: str, named: tuple[set[str], set[str]]) -> bool:
    files, folders = named
    return path in files or any(path.startswith(folder + "/") for folder in folders)


def _existed(path: str, context: OracleContext) -> bool:
    """Whether ``path`` (in the trial's view) was there before the trial, as far as known."""
    pre = context.pre_trial
    boundary = Path(os.path.realpath(context.boundary))
    real = Path(path)
    if pre is None or not real.is_relative_to(boundary):
        return True
    return (pre.root / real.relative_to(boundary)).exists()


@contextlib.contextmanager
def stopping(tracing: FileTracing | None) -> Iterator[None]:
    """Stop the file tracing once the trial's processes are gone, whatever happened."""
    try:
        yield
    finally:
        if tracing is not None:
            tracing.stop()


def untraced_problem(record: FileTrace | None) -> tuple[Problem, ...]:
    """A live or real-world trial that nothing could trace is BLOCKED (``TRACE_UNAVAILABLE``)."""
    if record is None or record.method != "unavailable":
        return ()
    message = (
        f"no file tracer could trace this live or real-world trial ({record.reason}); "
        "what it ran, opened and wrote is unknown, so it is blocked, not qualified on "
        "the command's text"
    )
    return (Problem(code=codes.TRACE_UNAVAILABLE, message=message),)
