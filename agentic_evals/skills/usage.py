"""Usage cases of a scaffold: each program of a skill, run once with ``--help``.

When the scaffold is written, every program of the skill (its runtime
surface, ``scripts/`` first; ``run.sh`` and ``sanity.sh`` at the top have
cases of their own) runs once as ``PROGRAM --help`` inside a temporary copy
of the skill, with the user's environment (the tool's own venv taken out, as
for trials), stdin closed and a short timeout; nothing it writes reaches the
skill. What it did becomes one case:

- it exited and printed a line: the case pins that exit code and the first
  line that mentions ``usage`` (else the first non-empty line) as
  ``stdout_contains`` or ``stderr_contains``, whichever stream printed it;
- it exited and printed nothing: only the exit code is pinned;
- it did not exit in time, was killed by a signal, could not be started, or
  printed a Python traceback: the case expects the usage convention (exit 0,
  no traceback) and is not required, and its ``description`` says what was
  seen.

A program is run directly when it is executable and starts with ``#!`` (or
is a binary), else through ``python3``, ``bash`` or ``node`` by its suffix.
Symbolic links are copied as links, but a linked folder on the way to the
cwd (a ``fixtures/`` that links elsewhere) becomes an empty folder of the
copy; a program that writes through another absolute link writes where it
points (``--help`` rarely writes anything).
"""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
from pathlib import Path
from typing import Any, Final, NamedTuple

from agentic_evals import clock
from agentic_evals.runner.environment import base_environment, private_environment
from agentic_evals.runner.isolation import copy as tree_copy
from agentic_evals.skills.skilldir import programs

PROBE_TIMEOUT: Final = 5.0
"""Seconds a program gets to answer ``--help`` when the scaffold is written."""
CASE_TIMEOUT: Final = 15.0
"""The usage cases' own per-trial timeout."""
MAX_USAGE_CASES: Final = 32
"""Programs probed per skill, at most (in runtime-surface order)."""
_KEPT: Final = 1 << 16
"""Bytes of each stream kept for reading the usage line."""
_LINE: Final = 160
_OWN_CASES: Final = frozenset({"run.sh", "sanity.sh"})
_INTERPRETERS: Final = {".py": "python3", ".sh": "bash", ".js": "node", ".ts": "node"}
_TRACEBACK: Final = "Traceback (most recent call last)"
_USAGE: Final = re.compile(r"usage", re.IGNORECASE)


class Probe(NamedTuple):
    """What one ``--help`` run did."""

    exit_code: int | None
    """The exit status; None when it did not exit, was killed or could not start."""
    problem: str | None
    """Why there is no usable result, in words (None when it exited normally)."""
    stream: str | None
    """``stdout`` or ``stderr``: where ``line`` was printed."""
    line: str | None
    """The usage line (a stable part of it), or None when nothing was printed."""
    traceback: str | None
    """The last line of a Python traceback printed on stderr, if any."""


def probed_programs(skill_dir: Path) -> list[str]:
    """The skill's programs that get a usage case, relative to ``skill_dir``, in order."""
    return [path for path in programs(skill_dir) if path not in _OWN_CASES][:MAX_USAGE_CASES]


def program_command(skill_dir: Path, program: str, relative: str) -> list[str]:
    """The argv (before ``--help``) that runs ``program``, named ``relative`` from the cwd."""
    path = skill_dir / program
    word = relative if "/" in relative else f"./{relative}"
    if os.access(path, os.X_OK) and not _text_without_shebang(path):
        return [word]
    interpreter = _INTERPRETERS.get(path.suffix)
    return [interpreter, relative] if interpreter else [word]


def _text_without_shebang(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError:
        return False
    return not head.startswith(b"#!") and not head.startswith(b"\x7fELF")


def probe_all(skill_dir: Path, base: Path, commands: list[list[str]]) -> list[Probe]:
    """Run every ``commands[i] + ['--help']`` from ``base`` inside one copy of ``skill_dir``."""
    copied = tree_copy.create(skill_dir)
    try:
        skill = Path(os.path.abspath(skill_dir))
        inside = base == skill or skill in base.parents
        cwd = _private_folder(copied.root, os.path.relpath(base, skill) if inside else ".")
        env = base_environment(private=private_environment())
        results = []
        for words in commands:
            argv = (
                words if inside else [_absolute(word, base, skill, copied.root) for word in words]
            )
            results.append(_probe([*argv, "--help"], cwd, env, str(copied.root)))
        return results
    finally:
        tree_copy.remove(copied.root)


def _private_folder(root: Path, relative: str) -> Path:
    """``root / relative`` as a real folder of the copy, never through a link.

    A linked part (a ``fixtures/`` that links elsewhere) is replaced by an empty folder.
    """
    folder = root
    for part in Path(relative).parts:
        if part == ".":
            continue
        folder = folder / part
        if folder.is_symlink():
            folder.unlink()
        folder.mkdir(exist_ok=True)
    return folder


def _absolute(word: str, base: Path, skill: Path, root: Path) -> str:
    target = Path(os.path.normpath(base / word))
    if target == skill or skill in target.parents:
        return str(root / os.path.relpath(target, skill))
    return word


def _probe(argv: list[str], cwd: Path, env: dict[str, str], root: str) -> Probe:
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        return Probe(None, f"could not be started ({error.strerror or error})", None, None, None)
    out, err, finished = _collect(process)
    if not finished:
        return Probe(
            None, f"did not exit within {PROBE_TIMEOUT:g} s (it was killed)", None, None, None
        )
    code = process.returncode
    stdout, stderr = out.decode(errors="replace"), err.decode(errors="replace")
    traceback = _traceback(stderr)
    if code < 0:
        problem = f"was killed by signal {signal.Signals(-code).name}"
        return Probe(None, problem, None, None, traceback)
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        line = _usage_line(text, root, usage=True)
        if line is not None:
            return Probe(code, None, stream, line, traceback)
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        line = _usage_line(text, root, usage=False)
        if line is not None:
            return Probe(code, None, stream, line, traceback)
    return Probe(code, None, None, None, traceback)


def _collect(process: subprocess.Popen[bytes]) -> tuple[bytes, bytes, bool]:
    """Both streams (the first ``_KEPT`` bytes of each) and whether it exited in time."""
    assert process.stdout is not None and process.stderr is not None
    out_fd, err_fd = process.stdout.fileno(), process.stderr.fileno()
    kept = {out_fd: bytearray(), err_fd: bytearray()}
    deadline = clock.monotonic() + PROBE_TIMEOUT
    with selectors.DefaultSelector() as selector:
        for fd in kept:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map() and (left := deadline - clock.monotonic()) > 0:
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fd)
                elif len(kept[key.fd]) < _KEPT:
                    kept[key.fd] += chunk[: _KEPT - len(kept[key.fd])]
        done = not selector.get_map()
    try:
        process.wait(timeout=max(deadline - clock.monotonic(), 0) if done else 0)
        finished = True
    except subprocess.TimeoutExpired:
        finished = False
    _kill_group(process.pid)
    process.wait()
    process.stdout.close()
    process.stderr.close()
    return bytes(kept[out_fd]), bytes(kept[err_fd]), finished


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass  # the group is already gone


def _usage_line(text: str, root: str, *, usage: bool) -> str | None:
    for raw in text.splitlines():
        line = raw.strip()
        if not line or (usage and not _USAGE.search(line)):
            continue
        if root in line:
            # A program that prints its own absolute path: keep what follows the copy's
            # root, which the trial prints after the skill's own path.
            line = line[line.rindex(root) + len(root) :].lstrip("/")
        return line[:_LINE].strip() or None
    return None


def _traceback(stderr: str) -> str | None:
    if _TRACEBACK not in stderr:
        return None
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1][:_LINE] if lines else None


def _case_name(program: str, taken: set[str]) -> str:
    name = "usage-" + re.sub(r"[^A-Za-z0-9._-]+", "-", program)
    unique, counter = name, 2
    while unique in taken:
        unique, counter = f"{name}-{counter}", counter + 1
    taken.add(unique)
    return unique


def usage_case(name: str, command: list[str], probe: Probe) -> dict[str, Any]:
    """The case a probe of ``command`` (without ``--help``) gives."""
    shown = " ".join([*command, "--help"])
    expected: dict[str, Any] = {"exit_code": 0, "stderr_excludes": [_TRACEBACK]}
    case: dict[str, Any] = {
        "name": name,
        "type": "positive",
        "command": [*command, "--help"],
        "expected": expected,
        "evidence_class": "deterministic",
        "timeout_seconds": CASE_TIMEOUT,
    }
    unusable = probe.problem or (
        f"exited {probe.exit_code} with a Python traceback ({probe.traceback})"
        if probe.traceback
        else None
    )
    if unusable is not None:
        case["required"] = False
        case["description"] = (
            f"When the scaffold was written, `{shown}` {unusable}. This case expects the "
            "usage convention (exit 0, no traceback) and is not required."
        )
        return case
    expected["exit_code"] = probe.exit_code
    if probe.line is None:
        case["description"] = (
            f"When the scaffold was written, `{shown}` exited {probe.exit_code} and printed "
            "nothing, so only its exit code is pinned."
        )
        return case
    expected[f"{probe.stream}_contains"] = [probe.line]
    case["description"] = (
        f"When the scaffold was written, `{shown}` exited {probe.exit_code} and printed "
        f"{probe.line!r} on {probe.stream}; this case pins both."
    )
    return case


def usage_cases(skill_dir: Path, base: Path, taken: set[str]) -> list[dict[str, Any]]:
    """One usage case per probed program of ``skill_dir``, commands relative to ``base``."""
    found = probed_programs(skill_dir)
    if not found:
        return []
    commands = [
        program_command(skill_dir, program, os.path.relpath(skill_dir / program, base))
        for program in found
    ]
    probes = probe_all(skill_dir, base, commands)
    return [
        usage_case(_case_name(program, taken), command, probe)
        for program, command, probe in zip(found, commands, probes, strict=True)
    ]
