"""Whether an inline program (``python -c``, ``node -e``) does anything but print.

An inline program that only prints and exits is as trivial as ``echo``; one
that imports modules or calls anything else may exercise the skill.
"""

from __future__ import annotations

import ast
import re

_PYTHON_CALLS = frozenset({"print", "exit", "quit", "SystemExit"})
_JS_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\$])*`")
_JS_CALL = re.compile(r"([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(")
_JS_ALLOWED = frozenset(
    {"console.log", "console.error", "console.info", "console.warn", "process.exit"}
    | {"if", "for", "while", "switch", "catch", "function", "return", "typeof"}
)


def python_code_effect(code: str) -> str | None:
    """What an inline python program does beyond printing and exiting; ``None``: nothing."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # python refuses it and runs nothing
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            return "imports modules"
        if isinstance(node, ast.Call):
            func = node.func
            if not (isinstance(func, ast.Name) and func.id in _PYTHON_CALLS):
                return f"calls {ast.unparse(func)[:40]}"
    return None


def node_code_effect(code: str) -> str | None:
    """What an inline JavaScript program does beyond printing and exiting (heuristic)."""
    stripped = _JS_STRING.sub('""', code)
    if re.search(r"\b(?:require|import)\b", stripped):
        return "loads modules"
    for match in _JS_CALL.finditer(stripped):
        name = re.sub(r"\s+", "", match[1])
        if name not in _JS_ALLOWED:
            return f"calls {name}"
    return None
