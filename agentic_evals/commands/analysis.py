"""Structural reading of a command (SPEC section 2).

A case's argv is split into the *simple commands* it actually runs: the
program itself or, for ``bash``/``sh -c`` scripts, each simple command of the
script (split on ``;``, ``&&``, ``||``, ``|``, ``&`` and newlines, quoting
respected, nested ``bash -c`` and ``$(...)`` read too). Leading assignments
and wrappers (``env``, ``timeout``, ``uv run``, ...) are stripped, ``cd`` is
followed, and ``$VAR`` is resolved when the script gave it a literal value
(see :mod:`agentic_evals.commands.shell`).

Each simple command is then classified: *trivial* (``echo``, ``:``, a
constant ``python -c``...), *neutral* shell bookkeeping (``cd``, ``export``),
an *entrypoint* (a script of the skill's tree, a test runner, an HTTP
request) or *other*. Words that merely mention ``run.sh`` count for nothing.
The load-time gates and live qualification both rely on this reading.

This module is the public API of that reading; the names of its helper
modules are re-exported here.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from agentic_evals.commands.entrypoints import (
    PYTHON_RUNNERS,
    CommandContext,
    Kind,
    Verdict,
    file_verdict,
    runner_command,
)
from agentic_evals.commands.inline_code import node_code_effect, python_code_effect
from agentic_evals.commands.programs import (
    inline_option,
    program_name,
    python_invocation,
    shell_invocation,
)
from agentic_evals.commands.shell import MAX_NESTING, SHELLS, SimpleCommand, simple_commands
from agentic_evals.contract.layout import stub_part
from agentic_evals.contract.placeholders import resolve

__all__ = [
    "MAX_NESTING",
    "MENTION_PROGRAMS",
    "NEUTRAL_PROGRAMS",
    "SHELLS",
    "TRIVIAL_PROGRAMS",
    "CommandAnalysis",
    "CommandContext",
    "Kind",
    "SimpleCommand",
    "Verdict",
    "analyze",
    "classify",
    "program_name",
    "python_invocation",
    "shell_invocation",
    "simple_commands",
]

TRIVIAL_PROGRAMS = frozenset(
    {"echo", "printf", "true", "false", ":", "test", "[", "[[", "cat", "ls", "pwd", "head"}
    | {"tail", "exit", "sleep", "env", "printenv", "command", "type", "which", "dirname"}
    | {"basename"}
)
NEUTRAL_PROGRAMS = frozenset(
    {"cd", "pushd", "popd", "export", "set", "unset", "shift", "local", "readonly", "declare"}
    | {"typeset", "shopt", "trap", "umask", "alias", "unalias", "hash", "wait", "exec", "time"}
    | {"return", "ulimit"}
)
# Programs whose arguments are only printed or compared, never read as inputs.
MENTION_PROGRAMS = frozenset({"echo", "printf", ":", "true", "false", "exit", "test", "[", "[["})
_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})


def classify(cmd: SimpleCommand, ctx: CommandContext) -> Verdict:
    """Classify one simple command: trivial, neutral, entrypoint or other, with a reason."""
    if cmd.unparsed:
        return Verdict("other", "a shell script that cannot be read structurally")
    return _static_verdict(cmd.argv) or file_verdict(cmd, ctx)


def _static_verdict(argv: tuple[str, ...]) -> Verdict | None:
    """The verdicts that need no file system: trivial, neutral, test runner, HTTP."""
    name, args = program_name(argv[0]), list(argv[1:])
    shown = argv[0]
    if name in NEUTRAL_PROGRAMS or name in ("source", ".") and not args:
        return Verdict("neutral", f"{shown!r} is shell bookkeeping")
    if name == "python":
        mode, value = python_invocation(args)
        if mode == "code":
            why = python_code_effect(value or "")
            return Verdict("other", f"its inline python {why}") if why else _trivial(shown, "-c")
        if mode == "module" and value in PYTHON_RUNNERS:
            return Verdict("entrypoint", f"runs the test runner `{shown} -m {value}`")
        return None
    if name == "node":
        code = inline_option(args, ("-e", "--eval", "-p", "--print"))
        if code is not None:
            why = node_code_effect(code)
            return Verdict("other", f"its inline script {why}") if why else _trivial(shown, "-e")
        if "--test" in args:
            return Verdict("entrypoint", f"runs the test runner `{shown} --test`")
        return None
    if name in TRIVIAL_PROGRAMS:
        return _trivial(shown)
    runner = runner_command(name, args)
    if runner:
        return Verdict("entrypoint", f"runs the test runner `{runner}`")
    if name in _HTTP_CLIENTS:
        for arg in args:
            url = arg.split("=", 1)[1] if arg.startswith("--url=") else arg
            if re.match(r"https?://", url, re.IGNORECASE):
                return Verdict("entrypoint", f"makes an HTTP request to {url}")
    return None


def _trivial(shown: str, flag: str = "") -> Verdict:
    return Verdict("trivial", f"runs {_label(shown, flag)!r} which is trivial")


def _label(program: str, flag: str = "") -> str:
    return f"{program} {flag}" if flag else program


def _shown(argv: tuple[str, ...]) -> str:
    """How to name a trivial program in a message (``python -c`` for inline code)."""
    name = program_name(argv[0])
    if name == "python" and python_invocation(argv[1:])[0] == "code":
        return _label(argv[0], "-c")
    if name == "node" and inline_option(argv[1:], ("-e", "--eval", "-p", "--print")) is not None:
        return _label(argv[0], "-e")
    return argv[0]


# --- whole commands ----------------------------------------------------------------------


@dataclass(frozen=True)
class CommandAnalysis:
    """A case's command read structurally: its simple commands and their verdicts."""

    argv: tuple[str, ...]
    commands: tuple[SimpleCommand, ...]
    verdicts: tuple[Verdict, ...]
    stubs: tuple[str, ...]
    """Arguments that are paths under a ``fixtures/`` directory (or in a stub directory of
    the context)."""

    @property
    def trivial(self) -> bool:
        """Every simple command is trivial or bookkeeping: the command proves nothing."""
        return all(verdict.kind in ("trivial", "neutral") for verdict in self.verdicts)

    @property
    def entrypoints(self) -> list[tuple[SimpleCommand, Verdict]]:
        """The simple commands that reach an entrypoint."""
        pairs = zip(self.commands, self.verdicts, strict=True)
        return [(cmd, verdict) for cmd, verdict in pairs if verdict.kind == "entrypoint"]

    def describe_trivial(self) -> str:
        """Say what a trivial command runs, e.g. "`: run.sh` runs ':' which is trivial"."""
        shown = f"`{shlex.join(self.argv)}`"
        if not self.commands:
            return f"{shown} runs nothing"
        programs = list(dict.fromkeys(_shown(cmd.argv) for cmd in self.commands))
        names = ", ".join(repr(program) for program in programs)
        return f"{shown} runs {names} which {'is' if len(programs) == 1 else 'are'} trivial"

    def describe_not_live(self) -> str:
        """Say why no simple command reaches an entrypoint."""
        reasons = [
            f"`{cmd}`: {verdict.reason}"
            for cmd, verdict in zip(self.commands, self.verdicts, strict=True)
            if verdict.kind == "other"
        ]
        if not reasons:
            return self.describe_trivial()
        return "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")


def analyze(argv: Sequence[str], ctx: CommandContext) -> CommandAnalysis:
    """Read ``argv`` structurally in ``ctx`` (its placeholders resolved as a trial sees them)."""
    words = tuple(resolve(word, ctx.placeholders) for word in argv)
    commands = simple_commands(words, ctx.env)
    verdicts = tuple(classify(cmd, ctx) for cmd in commands)
    stubs = tuple(_stub_words(commands, ctx))
    return CommandAnalysis(words, tuple(commands), verdicts, stubs)


def _stub_words(commands: Sequence[SimpleCommand], ctx: CommandContext) -> list[str]:
    found: list[str] = []
    for cmd in commands:
        if program_name(cmd.argv[0]) in MENTION_PROGRAMS:
            continue
        words = [*cmd.argv[1:], *(target for op, target in cmd.redirects if op in ("<", "<>"))]
        for word in words:
            value = word.split("=", 1)[1] if "=" in word else word
            if "/" in value and any(stub_part(part) for part in PurePosixPath(value).parts):
                found.append(word)
            elif "/" in value and _in_stub_dir(value, cmd, ctx):
                found.append(word)
    return list(dict.fromkeys(found))


def _in_stub_dir(value: str, cmd: SimpleCommand, ctx: CommandContext) -> bool:
    """Whether the path ``value`` lies in one of the context's stub directories."""
    if not ctx.stub_dirs or any(mark in value for mark in ("$", "`")):
        return False
    if cmd.cwd is None and not value.startswith("/"):
        return False  # relative to a directory chosen at run time
    where = Path(os.path.normpath(ctx.cwd / (cmd.cwd or ".") / value))
    return any(where == stub or stub in where.parents for stub in ctx.stub_dirs)
