"""Splitting a case's argv into the simple commands it actually runs.

The result is the program itself or, for ``bash``/``sh -c`` scripts, each
simple command of the script (split on ``;``, ``&&``, ``||``, ``|``, ``&`` and
newlines, quoting respected, nested ``bash -c`` and ``$(...)`` read too). Leading
assignments and wrappers (``env``, ``timeout``, ``uv run``, ...) are stripped,
``cd`` is followed, and ``$VAR`` is resolved when the script gave it a literal
value.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agentic_evals.commands.programs import ASSIGNMENT, program_name, shell_invocation, unwrap
from agentic_evals.commands.shell_tokens import parse, placeholders, restore

SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "ash", "mksh"})
MAX_NESTING = 8

_VAR_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_PREFIX_WORDS = frozenset(
    {"!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"}
)
_HEADER_WORDS = frozenset({"for", "select", "case", "function", "in"})


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command a case runs, after wrappers and assignments are stripped."""

    argv: tuple[str, ...]
    """Program and arguments, known ``$VAR`` values substituted."""
    cwd: str | None = "."
    """Directory relative to the case's cwd (or absolute); ``None`` when a ``cd`` went
    somewhere only known at run time."""
    redirects: tuple[tuple[str, str], ...] = ()
    """Redirections as ``(operator, target)``."""
    in_shell: bool = False
    """Read from a shell script, where ``$`` expansions happen."""
    unparsed: bool = False
    """A shell script that could not be read; ``argv`` is the shell invocation."""

    def __str__(self) -> str:
        return shlex.join(self.argv)


def simple_commands(
    argv: Sequence[str], env: Mapping[str, str] | None = None
) -> list[SimpleCommand]:
    """Split ``argv`` into the simple commands it runs, in order."""
    return _from_argv(list(argv), ".", dict(env or {}), 0, in_shell=False)


def _from_argv(
    words: list[str],
    cwd: str | None,
    variables: dict[str, str],
    depth: int,
    *,
    in_shell: bool,
    redirects: Sequence[tuple[str, str]] = (),
) -> list[SimpleCommand]:
    words = unwrap(words, in_shell=in_shell)
    if not words:
        return []
    name = program_name(words[0])
    if name in SHELLS and depth < MAX_NESTING:
        mode, script = shell_invocation(words[1:])
        if mode == "command":
            return _from_script(script or "", cwd, dict(variables), depth + 1)
    if name == "eval" and in_shell and depth < MAX_NESTING:
        return _from_script(" ".join(words[1:]), cwd, variables, depth + 1)
    return [SimpleCommand(tuple(words), cwd, tuple(redirects), in_shell)]


class _Script:
    """State of one shell script while it is read: cwd and literal variables."""

    def __init__(self, cwd: str | None, variables: dict[str, str], depth: int) -> None:
        self.cwd = cwd
        self.variables = variables
        self.depth = depth
        self.dirs: list[str | None] = []

    def assign(self, word: str) -> None:
        # Values keep what they expand to at run time (`S=$RANDOM` stays `$RANDOM`);
        # only a literal one can name a program or a path.
        name, _, value = word.partition("=")
        self.variables[name.rstrip("+")] = self.expand(value)

    def expand(self, word: str) -> str:
        def known(match: re.Match[str]) -> str:
            name = match[1] or match[2]
            return self.variables.get(name, match[0])

        return _VAR_REF.sub(known, word)

    def change_dir(self, args: list[str]) -> None:
        targets = [arg for arg in args if not arg.startswith("-")]
        target = targets[0] if targets else None
        if target is None or target.startswith("~") or any(c in target for c in "$`\x00"):
            self.cwd = None
        elif target.startswith("/"):
            self.cwd = posixpath.normpath(target)
        elif self.cwd is not None:
            self.cwd = posixpath.normpath(posixpath.join(self.cwd, target))

    def command(self, words: list[str], redirects: list[tuple[str, str]]) -> list[SimpleCommand]:
        while words and words[0] in _PREFIX_WORDS:
            words = words[1:]
        if not words or words[0] in _HEADER_WORDS:
            return []
        count = 0
        while count < len(words) and ASSIGNMENT.match(words[count]):
            count += 1
        if count == len(words):
            for word in words:
                self.assign(word)
            return []
        words = words[count:]
        program = _VAR_REF.fullmatch(words[0])
        if program and (program[1] or program[2]) in self.variables:
            words = self.variables[program[1] or program[2]].split() + words[1:]
        words = [self.expand(word) for word in words]
        if not words:
            return []
        self._bookkeeping(words)
        return _from_argv(
            words, self.cwd, self.variables, self.depth, in_shell=True, redirects=redirects
        )

    def _bookkeeping(self, words: list[str]) -> None:
        name = words[0]
        if name == "pushd":
            self.dirs.append(self.cwd)
        if name in ("cd", "pushd"):
            self.change_dir(words[1:])
        elif name == "popd":
            self.cwd = self.dirs.pop() if self.dirs else None
        elif name in ("export", "declare", "local", "readonly", "typeset"):
            for word in words[1:]:
                if ASSIGNMENT.match(word):
                    self.assign(word)


def _from_script(
    script: str, cwd: str | None, variables: dict[str, str], depth: int
) -> list[SimpleCommand]:
    try:
        groups, substitutions = parse(script)
    except ValueError:
        return [SimpleCommand(("sh", "-c", script), cwd, (), True, unparsed=True)]
    state = _Script(cwd, variables, depth)
    found: list[SimpleCommand] = []
    for words, redirects in groups:
        restored = [restore(word, substitutions) for word in words]
        for word in words:
            for index in placeholders(word):
                inner = substitutions[index][1]
                if inner is not None and depth < MAX_NESTING:
                    found += _from_script(inner, state.cwd, dict(state.variables), depth + 1)
        targets = [(op, restore(target, substitutions)) for op, target in redirects]
        found += state.command(restored, targets)
    return found
