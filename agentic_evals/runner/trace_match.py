"""When an exec counts as running a ``must_exercise`` entry (SPEC 3.5).

SPEC 3.5 counts an exec that "names [the entry] in its program path or
arguments". Read literally, ``/bin/echo would run sub/tool.sh`` would count:
an exec whose argument names the script. The runner reads it strictly: an
exec names an entry only where the entry is what the exec *runs*:

- the program path itself (``sub/tool.sh`` executed directly, or
  ``/usr/bin/psql`` for the entry ``psql``); or
- the script an interpreter runs: the first operand of ``sh``/``bash``/...,
  ``python`` (or its ``-m`` module), ``node``, ``perl``, ``ruby``, ``php``,
  once their options (and option values) are skipped. Inline programs
  (``-c``, ``-e``, ...) and standard input run no file.

A path names an entry when it equals it or ends with ``/`` + the entry (whole
path components, after ``./`` and ``..`` are normalised): ``sub/tool.sh``
matches ``/skill/sub/tool.sh`` and ``./sub/tool.sh``, not ``mysub/tool.sh``.
An entry of several words (``npm test``) also needs the words after its
first to follow the program or script in ``argv``. A script that is only
sourced, or a module imported without an exec, is invisible to exec tracing
and does not count.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from agentic_evals.runner.trace_types import Exec


class _Options(NamedTuple):
    inline: frozenset[str]
    """Options whose value is program text: no script file runs."""
    valued: frozenset[str]
    """Options that take a value (attached, after ``=``, or the next argument)."""
    script: frozenset[str] = frozenset()
    """Options whose value is what runs (``python -m``, ``php -f``)."""
    plus: bool = False
    """``+o`` style options exist (shells)."""


_SHELL = _Options(
    inline=frozenset({"-c", "-s"}),
    valued=frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}),
    plus=True,
)
_PYTHON = _Options(
    inline=frozenset({"-c"}),
    valued=frozenset({"-W", "-X", "--check-hash-based-pycs"}),
    script=frozenset({"-m"}),
)
_NODE = _Options(
    inline=frozenset({"-e", "--eval", "-p", "--print"}),
    valued=frozenset(
        {"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"}
        | {"--input-type", "--env-file"}
    ),
)
_PERL = _Options(inline=frozenset({"-e", "-E"}), valued=frozenset({"-I", "-M", "-m"}))
_RUBY = _Options(inline=frozenset({"-e"}), valued=frozenset({"-I", "-r", "-C"}))
_PHP = _Options(
    inline=frozenset({"-r"}), valued=frozenset({"-c", "-d", "-z"}), script=frozenset({"-f"})
)
_INTERPRETERS: tuple[tuple[re.Pattern[str], _Options], ...] = (
    (re.compile(r"(?:ba|da|z|k|mk|a|ya)?sh"), _SHELL),
    (re.compile(r"(?:python|pypy)(?:\d+(?:\.\d+)*)?[dmu]?"), _PYTHON),
    (re.compile(r"node(?:js)?"), _NODE),
    (re.compile(r"perl(?:\d+(?:\.\d+)*)?"), _PERL),
    (re.compile(r"ruby(?:\d+(?:\.\d+)*)?"), _RUBY),
    (re.compile(r"php(?:\d+(?:\.\d+)*)?"), _PHP),
)


def runs(execution: Exec, entry: str) -> bool:
    """Whether ``execution`` runs ``entry`` as its program or as its interpreter's script."""
    program = execution.path or (execution.argv[0] if execution.argv else "")
    argv = execution.argv
    if _names(program, entry, argv[1:]):
        return True
    script = script_of(program, argv)
    return script is not None and _names(script[0], entry, argv[script[1] :])


def script_of(program: str, argv: tuple[str, ...]) -> tuple[str, int] | None:
    """The file (or ``-m`` module) an interpreter runs, and where its arguments start.

    None when ``program`` is no known interpreter, or it runs inline text or
    standard input.
    """
    name = posixpath.basename(program)
    options = next((o for pattern, o in _INTERPRETERS if pattern.fullmatch(name)), None)
    if options is None:
        return None
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return (argv[i + 1], i + 2) if i + 1 < len(argv) else None
        if arg == "-" or not _is_option(arg, options):
            return None if arg == "-" else (arg, i + 1)
        step = _option(arg, argv, i, options)
        if not isinstance(step, int):
            return step
        i = step
    return None


def _is_option(arg: str, options: _Options) -> bool:
    return len(arg) > 1 and (arg[0] == "-" or (options.plus and arg[0] == "+"))


_Step = int | tuple[str, int] | None


def _option(arg: str, argv: tuple[str, ...], i: int, options: _Options) -> _Step:
    """Consume the option at ``argv[i]``: the next index, the script found, or None (inline)."""
    following = (argv[i + 1], i + 2) if i + 1 < len(argv) else None
    if arg.startswith("--"):
        name, eq, value = arg.partition("=")
        if name in options.inline:
            return None
        if name in options.script:
            return (value, i + 1) if eq else following
        return i + 2 if name in options.valued and not eq else i + 1
    # A cluster of short options ("-ec", "-uBm mod"); a valued one takes the rest.
    for k in range(1, len(arg)):
        flag, rest = arg[0] + arg[k], arg[k + 1 :]
        if flag in options.inline:
            return None
        if flag in options.script:
            return (rest, i + 1) if rest else following
        if flag in options.valued:
            return i + 1 if rest else i + 2
    return i + 1


def _names(path: str, entry: str, after: tuple[str, ...]) -> bool:
    """Whether ``path`` (followed by the arguments ``after``) names ``entry``."""
    if _path_names(path, entry):
        return True
    words = entry.split()
    if len(words) < 2 or not _path_names(path, words[0]):
        return False
    return list(after[: len(words) - 1]) == words[1:]


def _path_names(path: str, entry: str) -> bool:
    if not path or not entry.strip():
        return False
    wanted = posixpath.normpath(entry)
    if wanted in (".", "/", ".."):
        return False
    actual = posixpath.normpath(path)
    return actual == wanted or actual.endswith("/" + wanted)


# Options that make an interpreter check, describe or compile a file without running it.
_NO_RUN: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (_INTERPRETERS[0][0], frozenset({"-n", "--version", "--help", "--noexec"})),
    (_INTERPRETERS[1][0], frozenset({"-V", "--version", "-h", "--help", "-?"})),
    (_INTERPRETERS[2][0], frozenset({"-c", "--check", "-v", "--version", "-h", "--help"})),
    (_INTERPRETERS[3][0], frozenset({"-c", "-v", "-V", "--version", "-h", "--help"})),
    (_INTERPRETERS[4][0], frozenset({"-c", "-y", "--yydebug", "--version", "-h", "--help"})),
    (_INTERPRETERS[5][0], frozenset({"-l", "--syntax-check", "-v", "--version", "-h", "--help"})),
)


def no_run_option(program: str, argv: tuple[str, ...], upto: int) -> str | None:
    """The option among ``argv[1:upto]`` that keeps the interpreter from running its script."""
    name = posixpath.basename(program)
    flags = next((f for pattern, f in _NO_RUN if pattern.fullmatch(name)), None)
    if flags is None:
        return None
    for arg in argv[1:upto]:
        if arg in flags:
            return arg
        if arg.startswith("-") and not arg.startswith("--"):
            hit = next((f"-{c}" for c in arg[1:] if f"-{c}" in flags), None)
            if hit is not None:
                return arg
    return None
