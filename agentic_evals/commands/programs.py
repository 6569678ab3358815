"""Which program a command's words run, and how it is given its own program.

:func:`program_name` normalises a program word, :func:`unwrap` strips leading
assignments and wrappers (``env``, ``timeout``, ``uv run``, ...), and the
``*_invocation`` readers tell how a shell or python takes its script: inline,
as a module, from a file or from stdin.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Literal

ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=")
"""A shell word that assigns a variable (``NAME=value``, ``NAME+=value``)."""

# Wrappers: options that take a separate value, and operands before the program.
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "env": (frozenset({"-u", "--unset", "-C", "--chdir"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "nohup": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "xvfb-run": (
        frozenset({"-e", "--error-file", "-f", "--auth-file", "-n", "--server-num", "-p"})
        | frozenset({"--xauth-protocol", "-s", "--server-args", "-w", "--wait"}),
        0,
    ),
    "command": (frozenset(), 0),
    "npx": (frozenset({"-p", "--package"}), 0),
    "uvx": (frozenset({"--from", "--with", "--python", "-p", "--with-requirements"}), 0),
}
# Project runners: ``TOOL [global options] run [run options] PROGRAM ...``.
_RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset(
        {"--with", "--with-editable", "--with-requirements", "--python", "-p", "--project"}
        | {"--directory", "--extra", "--group", "--only-group", "--no-group", "--package"}
        | {"--env-file", "--index", "--default-index", "--index-url", "--extra-index-url"}
        | {"--cache-dir", "--config-file", "--color", "-f", "--find-links"}
    ),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "pipenv": frozenset(),
    "pdm": frozenset({"-p", "--project"}),
}


def program_name(word: str) -> str:
    """Normalise a program word: basename, ``python3.11`` -> ``python``, ``nodejs`` -> ``node``."""
    name = word.rsplit("/", 1)[-1]
    if re.fullmatch(r"(?:python|pypy)(?:\d+(?:\.\d+)*)?", name):
        return "python"
    return "node" if name == "nodejs" else name


def unwrap(words: list[str], *, in_shell: bool) -> list[str]:
    """Strip leading assignments (in a shell) and wrapper programs."""
    while words:
        if in_shell:
            while words and ASSIGNMENT.match(words[0]):
                words = words[1:]
            if not words:
                return words
        name = program_name(words[0])
        rest: list[str] | None = None
        if name in _RUNNERS:
            rest = _strip_runner(words[1:], _RUNNERS[name])
        elif name == "command" and words[1:2] and words[1].startswith(("-v", "-V")):
            rest = None  # `command -v` only asks where a program is
        elif name in _WRAPPERS:
            value_options, operands = _WRAPPERS[name]
            rest = _skip_options(words[1:], value_options)[operands:]
            if name == "env":
                rest = _env_program(words[1:], value_options)
        if not rest:
            return words
        words = rest
    return words


def _skip_options(args: list[str], with_value: frozenset[str]) -> list[str]:
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return args[index + 1 :]
        if not arg.startswith("-") or arg == "-":
            break
        index += 2 if arg in with_value else 1
    return args[index:]


def _env_program(args: list[str], with_value: frozenset[str]) -> list[str]:
    for index, arg in enumerate(args):
        if arg in ("-S", "--split-string") and index + 1 < len(args):
            # `env -S "prog args"` splits one string into the argv.
            return _safe_split(args[index + 1]) + args[index + 2 :]
    rest = _skip_options(args, with_value)
    while rest and ASSIGNMENT.match(rest[0]):
        rest = rest[1:]
    return rest


def _strip_runner(args: list[str], with_value: frozenset[str]) -> list[str] | None:
    rest = _skip_options(args, with_value)
    if not rest or rest[0] != "run":
        return None
    rest = rest[1:]
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        if rest[index] == "--":
            return rest[index + 1 :]
        if rest[index] in ("-m", "--module") and index + 1 < len(rest):
            return ["python", "-m", *rest[index + 1 :]]
        index += 2 if rest[index] in with_value else 1
    return rest[index:]


def _safe_split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def shell_invocation(
    args: Sequence[str],
) -> tuple[Literal["command", "script", "stdin"], str | None]:
    """Read a shell's arguments: ``-c SCRIPT`` (also ``-lc``, ``-euc``), a script file, or stdin."""
    index, command_mode = 0, False
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg in ("--rcfile", "--init-file"):
            index += 2
            continue
        if arg.startswith("--") or len(arg) < 2 or arg[0] not in "-+":
            if arg.startswith("--"):
                index += 1
                continue
            break
        letters = arg[1:]
        command_mode = command_mode or "c" in letters
        if "s" in letters and not command_mode:
            return "stdin", None
        index += 2 if "o" in letters or "O" in letters else 1
    if command_mode:
        return "command", args[index] if index < len(args) else ""
    if index < len(args):
        return "script", args[index]
    return "stdin", None


def python_invocation(
    args: Sequence[str],
) -> tuple[Literal["code", "module", "script", "stdin"], str | None]:
    """Read python's arguments: ``-c CODE``, ``-m MODULE``, a script, or stdin."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg.startswith("--") or arg == "-" or not arg.startswith("-"):
            if arg.startswith("--"):
                index += 1
                continue
            break
        for position, letter in enumerate(arg[1:], start=2):
            if letter in "cmWX":
                value = arg[position:] or (args[index + 1] if index + 1 < len(args) else "")
                if letter in "cm":
                    return ("code" if letter == "c" else "module"), value
                index += 0 if arg[position:] else 1
                break
        index += 1
    if index < len(args) and args[index] != "-":
        return "script", args[index]
    return "stdin", None


def inline_option(args: Sequence[str], options: tuple[str, ...]) -> str | None:
    """The value of the first of ``options`` in ``args`` (``--opt=value`` too), or ``None``."""
    for index, arg in enumerate(args):
        if arg in options:
            return args[index + 1] if index + 1 < len(args) else ""
        for option in options:
            if option.startswith("--") and arg.startswith(option + "="):
                return arg[len(option) + 1 :]
    return None
