"""Placeholders in a fixture: the built-in ``${SKILL_ROOT}``, ``${FIXTURE_DIR}``, ``${WORKSPACE}``.

A placeholder is ``${NAME}``, NAME an identifier; ``$${`` writes a literal
``${``. Any other ``${`` (a shell's own expansion with an operator, such as
``${TMPDIR:-/tmp}``, ``${#list}`` or ``${PIPESTATUS[0]}``) is no placeholder
and reaches the command as written, so fixtures written before placeholders
existed load unchanged; a shell's plain ``${HOME}`` is written ``$${HOME}``
(or ``$HOME``), since ``${NAME}`` is reserved for placeholders. The three
built-ins name directories: the skill's tree, the fixture file's folder and
the trial's workspace copy. A parametrized case's variables (``parametrize``)
are placeholders too, replaced when the case is expanded at load time; the
built-ins stay in the fixture as written (so that a case's hashes do not
depend on where the checkout lies) and are resolved where a trial needs
them: in command words, ``cwd``, ``env`` values, ``workspace.input`` and
artifact paths. In a path, a built-in may only start it (``${FIXTURE_DIR}``
or ``${FIXTURE_DIR}/golden/out.json``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Final, Literal, NamedTuple

SKILL_ROOT: Final = "SKILL_ROOT"
FIXTURE_DIR: Final = "FIXTURE_DIR"
WORKSPACE: Final = "WORKSPACE"
BUILTINS: Final = (SKILL_ROOT, FIXTURE_DIR, WORKSPACE)
"""The built-in placeholders, in the order messages list them."""

PARAMETER_PATTERN: Final = r"^[A-Za-z_][A-Za-z0-9_]*$"
"""A parameter's name: an identifier (the expansion refuses a built-in's name)."""

_TOKEN = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class Token(NamedTuple):
    """One ``$${`` or ``${NAME}`` in a string."""

    kind: Literal["escape", "name"]
    start: int
    end: int
    name: str | None


def tokens(text: str) -> Iterator[Token]:
    """Every escape and placeholder of ``text``, left to right."""
    for match in _TOKEN.finditer(text):
        if match.group(1) is None:
            yield Token("escape", match.start(), match.end(), None)
        else:
            yield Token("name", match.start(), match.end(), match.group(1))


def _replace(text: str, values: Mapping[str, str], *, unescape: bool) -> str:
    out: list[str] = []
    at = 0
    for token in tokens(text):
        out.append(text[at : token.start])
        if token.kind == "escape":
            out.append("${" if unescape else "$${")
        elif token.name is not None and token.name in values:
            out.append(values[token.name])
        else:
            out.append(text[token.start : token.end])
        at = token.end
    out.append(text[at:])
    return "".join(out)


def substitute(text: str, values: Mapping[str, str]) -> str:
    """``text`` with ``${NAME}`` replaced for each NAME of ``values``; all else kept as written."""
    if "${" not in text:
        return text
    return _replace(text, values, unescape=False)


def resolve(text: str, values: Mapping[str, str]) -> str:
    """``text`` as a trial sees it: placeholders of ``values`` replaced, ``$${`` made ``${``."""
    if "${" not in text:
        return text
    return _replace(text, values, unescape=True)


def names(text: str) -> list[str]:
    """The placeholder names ``text`` uses, in order (escapes left out)."""
    return [token.name for token in tokens(text) if token.name is not None]


def path_root(path: str) -> tuple[str | None, str]:
    """The built-in a path starts from and the rest: ``("FIXTURE_DIR", "golden/x.json")``.

    ``(None, path)`` when the path starts with no built-in.
    """
    for name in BUILTINS:
        head = "${" + name + "}"
        if path == head:
            return name, "."
        if path.startswith(head + "/"):
            return name, path[len(head) + 1 :] or "."
    return None, path
