r"""File tracing by strace, where fanotify cannot trace (docs/tracing.md).

The trial runs under ``strace -f -y`` tracing execs, opens and forks
(:data:`~agentic_evals.runner.trace_strace.FILE_EVENTS`, stopped only at
those calls with ``--seccomp-bpf``), and its record fills the same
:class:`~agentic_evals.runner.trace_record.TraceRecorder` as fanotify does:

- ``PID openat(AT_FDCWD<...>, "p", O_RDONLY) = 3</abs/p>``: ``-y`` prints the
  path the returned fd resolved to, whatever spelling led there (a glob, a
  symlink, ``$VAR``); an open with ``O_WRONLY``/``O_RDWR``/``O_CREAT``/
  ``O_TRUNC`` makes the process a writer of that file;
- ``PID clone(...) = CHILD`` (and ``fork``, ``vfork``, ``clone3``) gives each
  process its parent;
- ``PID execve("p", [...]) = 0``: the process now runs that program; a path
  in the skill tree is a file *executed* (a relative one is resolved against
  the trial's working directory, the only one known), and its later open of
  the script its interpreter was given is a file *run* (``check`` under a
  no-run option).

Calls split by another process's (``<unfinished ...>`` then ``<... openat
resumed>``) are joined first. What each file run does is judged from its
content read after the trial, in the trial's view.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from agentic_evals.runner.substance import READ_BYTES, substance
from agentic_evals.runner.trace_match import no_run_option, script_of
from agentic_evals.runner.trace_parse import exec_call, strace_calls
from agentic_evals.runner.trace_record import FileRun, TraceRecorder

_FD_PATH = re.compile(r"\)\s+=\s+\d+<(.*)>\s*\Z", re.S)
_CHILD = re.compile(r"\)\s+=\s+(\d+)\s*\Z")
_WRITE_FLAGS = re.compile(r"\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b")
_OPENS = frozenset({"open", "openat", "openat2", "creat"})
_FORKS = frozenset({"clone", "clone3", "fork", "vfork"})
_RENAMES = frozenset({"rename", "renameat", "renameat2"})
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unescape(text: str) -> str:
    return re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m[1], 16)), text)


def absorb(
    lines: Iterable[str],
    recorder: TraceRecorder,
    cwd: Path,
    tree: Path,
    watched: frozenset[str] = frozenset(),
) -> None:
    """Fill ``recorder`` from strace's record ``lines`` of a trial run in ``cwd``.

    Opens inside ``tree`` are recorded, and opens of the ``watched`` files
    outside it (the stubs' copies), by the path the kernel resolved.
    """
    programs: dict[int, tuple[str, tuple[str, ...]]] = {}
    verdicts: dict[str, str | None] = {}
    for pid, name, rest in strace_calls(lines, "[a-z0-9_]+"):
        recorder.seq += 1
        if name in _FORKS:
            child = _CHILD.search(rest)
            if child is not None:
                recorder.parents[int(child[1])] = (pid, *recorder.parents.get(pid, ()))
                recorder.first_seen[int(child[1])] = recorder.seq
        elif name in _RENAMES:
            if re.search(r"\)\s+=\s+0\s*\Z", rest):
                _renamed(recorder, _QUOTED.findall(rest))
        elif name in ("execve", "execveat"):
            found = exec_call(pid, name, rest)
            if found is None or found.error is not None:
                continue
            programs[pid] = (found.path, found.argv)
            path = os.path.realpath(os.path.join(cwd, found.path)) if found.path else ""
            if path and Path(path).is_relative_to(tree):
                _ran(recorder, verdicts, pid, path, "exec", None)
        elif name in _OPENS:
            opened = _FD_PATH.search(rest)
            if opened is None:
                continue
            path = _unescape(opened[1])
            if not Path(path).is_relative_to(tree) and path not in watched:
                continue
            recorder.open(path, pid)
            if _WRITE_FLAGS.search(rest):
                recorder.wrote(path, pid)
            program = programs.get(pid)
            if program is not None:
                _interpreted(recorder, verdicts, pid, path, program)


def _renamed(recorder: TraceRecorder, names: list[str]) -> None:
    """Move the writes of a file renamed into place to its new name."""
    if len(names) != 2:
        return
    old, new = (posixpath.normpath(_unescape(name)) for name in names)
    for path in list(recorder.writers):
        if path == old or path.endswith("/" + old):
            base = path[: len(path) - len(old)]
            target = new if new.startswith("/") else posixpath.normpath(base + new)
            recorder.writers.setdefault(target, []).extend(recorder.writers.pop(path))
            return


def _interpreted(
    recorder: TraceRecorder,
    verdicts: dict[str, str | None],
    pid: int,
    path: str,
    program: tuple[str, tuple[str, ...]],
) -> None:
    argv = program[1]
    found = script_of(program[0] or (argv[0] if argv else ""), argv)
    if found is None:
        return
    script, after = found
    wanted = posixpath.normpath(script)
    if not (path == wanted or path.endswith("/" + wanted.lstrip("./"))):
        return
    option = no_run_option(program[0], argv, after - 1)
    _ran(recorder, verdicts, pid, path, "check" if option else "script", option)


def _ran(
    recorder: TraceRecorder,
    verdicts: dict[str, str | None],
    pid: int,
    path: str,
    how: str,
    option: str | None,
) -> None:
    try:
        info = os.stat(path)
        if path not in verdicts:
            with open(path, "rb") as handle:
                verdicts[path] = substance(handle.read(READ_BYTES), path)
    except OSError as error:
        recorder.failed(f"{path}: {error.strerror or error}")
        return
    verdict = verdicts[path]
    run = FileRun(pid, path, info.st_dev, info.st_ino, how, verdict, option, recorder.seq)
    recorder.runs.append(run)
