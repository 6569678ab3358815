"""Whether a file a trial ran does anything: its own content, read structurally.

A skill-tree file that a trial executes (or an interpreter runs) reaches an
entrypoint only when it is *substantive*. It is not when it is:

- empty, or only blank lines and comments (a shebang included);
- a script whose shebang runs a no-op (``#!/bin/true``, ``#!/bin/false``);
- a shell script whose every simple command, ``$(...)`` and function bodies
  included, is one the case-command reading calls trivial or bookkeeping
  (:data:`~agentic_evals.commands.analysis.TRIVIAL_PROGRAMS`: ``echo``,
  ``printf``, ``cat``, ``sleep``, ``true``, ``exit``...;
  :data:`~agentic_evals.commands.analysis.NEUTRAL_PROGRAMS`: ``set``, ``cd``,
  ``export``...), or a call of a function the script defines (whose body is
  read with the rest): assignments, here-documents and redirections change
  nothing (``cat > out/r.json <<EOF`` only writes what it was told);
- a Python module doing only ``print``, ``sys.stdout.write``, ``pass``,
  ``sys.exit``/``exit``/``quit``/``raise SystemExit``, docstrings and
  imports, with literal arguments (an ``if __name__ == "__main__":`` around
  them changes nothing);
- a byte copy of a system no-op program (``true``, ``false``).

Anything else is substantive, including a binary and a script in a language
not read here (node, perl, ...) that has code.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import posixpath
import re
import shutil

from agentic_evals.commands.analysis import NEUTRAL_PROGRAMS, TRIVIAL_PROGRAMS
from agentic_evals.commands.shell import simple_commands

_TRIVIAL_COMMANDS = TRIVIAL_PROGRAMS | NEUTRAL_PROGRAMS
"""One reading for the case's command and the files it runs (``commands/analysis.py``)."""
_NO_OP_PROGRAMS = ("true", "false")
_PYTHON_CALLS = frozenset(
    {"print", "exit", "quit", "sys.exit", "os._exit", "sys.stdout.write", "sys.stderr.write"}
)
# ``name() { ...; }`` and ``name() ( ... )``: the shell reading lists their bodies' commands too.
# The ``function name { ...; }`` form is not read here, so its calls stay substantive.
_FUNCTION = re.compile(r"(?m)^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\)")
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"})
READ_BYTES = 256 * 1024
"""How much of a file is read; a longer file is substantive."""


def substance(data: bytes, name: str) -> str | None:
    """Why the file ``name`` with content ``data`` does nothing, or None when it does something."""
    if len(data) >= READ_BYTES:
        return None
    if hashlib.sha256(data).hexdigest() in _no_op_digests():
        return "a byte copy of a system no-op program"
    if data.startswith(b"\x7fELF"):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    body = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    if not body:
        return "empty, or only comments"
    first = text.splitlines()[0] if text.startswith("#!") else ""
    interpreter = _shebang(first)
    if interpreter in _NO_OP_PROGRAMS:
        return f"its shebang runs {interpreter!r}, a no-op"
    if interpreter in _SHELLS or (not first and name.endswith(".sh")):
        return _shell(text)
    if (interpreter or "").startswith("python") or (not first and name.endswith(".py")):
        return _python(text)
    return None


def _shebang(line: str) -> str | None:
    words = line[2:].split() if line.startswith("#!") else []
    if not words:
        return None
    program = posixpath.basename(words[0])
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        return posixpath.basename(rest[0]) if rest else None
    return program


def _shell(text: str) -> str | None:
    commands = simple_commands(["sh", "-c", text])
    if any(cmd.unparsed for cmd in commands):
        return None
    names = {posixpath.basename(cmd.argv[0]) for cmd in commands if cmd.argv}
    if names <= _TRIVIAL_COMMANDS | set(_FUNCTION.findall(text)):
        shown = ", ".join(sorted(names)) or "nothing"
        return f"a shell script that runs only {shown}"
    return None


def _python(text: str) -> str | None:
    try:
        module = ast.parse(text)
    except SyntaxError:
        return None
    if all(_trivial_statement(node) for node in module.body):
        return "a Python module that only prints, passes or exits"
    return None


def _trivial_statement(node: ast.stmt) -> bool:
    if isinstance(node, ast.Pass | ast.Import | ast.ImportFrom):
        return True
    if isinstance(node, ast.Expr):
        value = node.value
        if isinstance(value, ast.Constant):
            return True
        return isinstance(value, ast.Call) and _trivial_call(value)
    if isinstance(node, ast.Raise):
        exc = node.exc
        if isinstance(exc, ast.Call):
            return ast.unparse(exc.func) == "SystemExit" and _literal(exc)
        return exc is not None and ast.unparse(exc) == "SystemExit"
    if isinstance(node, ast.If) and ast.unparse(node.test) in (
        "__name__ == '__main__'",
        "'__main__' == __name__",
    ):
        return all(_trivial_statement(inner) for inner in (*node.body, *node.orelse))
    return False


def _trivial_call(call: ast.Call) -> bool:
    return ast.unparse(call.func) in _PYTHON_CALLS and _literal(call)


def _literal(call: ast.Call) -> bool:
    """The call's arguments compute nothing: no call, attribute, name lookup or subscript."""
    for arg in (*call.args, *(keyword.value for keyword in call.keywords)):
        for inner in ast.walk(arg):
            if isinstance(inner, ast.Call | ast.Attribute | ast.Subscript | ast.Name):
                return False
    return True


@functools.cache
def _no_op_digests() -> frozenset[str]:
    found = set()
    for name in _NO_OP_PROGRAMS:
        for where in (shutil.which(name), f"/bin/{name}", f"/usr/bin/{name}"):
            if where and os.path.isfile(where):
                try:
                    with open(os.path.realpath(where), "rb") as handle:
                        found.add(hashlib.sha256(handle.read()).hexdigest())
                except OSError:
                    continue
    return frozenset(found)
