"""Why a failing trial could not find what it needed: the interpreter and PATH it had.

A trial that fails because a Python module or a command is missing
(``ModuleNotFoundError``, ``command not found``, a program that cannot start)
usually ran in another environment than its author's. Its trial then gets a
``MISSING_DEPENDENCY`` problem, listed second (after the one that decided
the trial), naming the line that said so,
the Python interpreter the trial had (the one its command names, or
``python3`` on its ``PATH``), its ``VIRTUAL_ENV`` and its ``PATH``. It explains
a failure; it never makes one.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping, Sequence
from typing import Final

from agentic_evals import codes
from agentic_evals.commands.programs import program_name
from agentic_evals.reports.model import Problem

SEARCHED_BYTES: Final = 64 * 1024
"""How much of the end of stderr is read for the message (it is printed last)."""
_MISSING: Final = (
    re.compile(r"(?:ModuleNotFoundError|ImportError): No module named [^\n]+"),
    re.compile(r"[^\n]*: command not found"),  # bash
    re.compile(r"[^\n]*: \d+: [^\n]*: not found"),  # dash: "sh: 1: tool: not found"
    re.compile(r"[^\n]*: No such file or directory"),  # env, exec of a missing program
)


def missing_dependency(
    argv: Sequence[str], stderr_tail: bytes, start_error: str | None, env: Mapping[str, str]
) -> Problem | None:
    """The ``MISSING_DEPENDENCY`` problem of a failed trial, when its output shows one."""
    said = start_error if start_error and "No such file" in start_error else None
    if said is None:
        text = stderr_tail[-SEARCHED_BYTES:].decode("utf-8", errors="replace")
        said = _last_match(text)
    if said is None:
        return None
    path = env.get("PATH", "")
    if argv and program_name(argv[0]) == "python":
        found = shutil.which(argv[0], path=path) or "not found"
        interpreter = f"{argv[0]} = {found} (its command's interpreter)"
    else:
        interpreter = f"python3 = {shutil.which('python3', path=path) or 'none'} (on its PATH)"
    venv = env.get("VIRTUAL_ENV")
    active = f"VIRTUAL_ENV={venv}" if venv else "no VIRTUAL_ENV"
    message = f"{said.strip()}: the trial had {interpreter}, {active}, PATH={path or '(empty)'}"
    return Problem(code=codes.MISSING_DEPENDENCY, message=message)


def _last_match(text: str) -> str | None:
    found: tuple[int, str] | None = None
    for pattern in _MISSING:
        for match in pattern.finditer(text):
            if found is None or match.start() > found[0]:
                found = (match.start(), match.group(0))
    return found[1] if found else None
