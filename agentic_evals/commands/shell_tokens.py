"""Tokenising a shell script into the word groups of its simple commands.

:func:`parse` splits a script on ``;``, ``&&``, ``||``, ``|``, ``&`` and
newlines, quoting respected, and collects each command's redirections.
Comments, line continuations and here-document bodies are dropped; ``$(...)``,
backticks and ``<(...)`` become placeholders whose scripts are read separately
(see :func:`placeholders` and :func:`restore`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

Group = tuple[list[str], list[tuple[str, str]]]
"""The words of one simple command and its redirections as ``(operator, target)``."""
Substitution = tuple[str, str | None]
"""A substitution's original text and its inner script (``None`` for arithmetic)."""

_PUNCTUATION = ";&|()<>\n"
_OPERATORS = sorted(
    {"&>>", ";;&", "<<<", "&&", "||", ";;", ";&", "|&", ">>", "<<", ">&", "<&", "&>", ">|"}
    | {"<>", ";", "&", "|", "(", ")", "<", ">", "\n"},
    key=len,
    reverse=True,
)
_REDIRECTS = frozenset({"&>>", "<<<", ">>", "<<", ">&", "<&", "&>", ">|", "<>", "<", ">"})


def parse(script: str) -> tuple[list[Group], list[Substitution]]:
    """Split ``script`` into the word groups of its simple commands, in order.

    Returns:
        The groups, whose words still hold placeholders, and the substitutions
        the placeholders stand for.

    Raises:
        ValueError: a quote or substitution is not closed.
    """
    text, substitutions = _prescan(script)
    return list(_groups(_tokens(text))), substitutions


def placeholders(word: str) -> list[int]:
    """Indexes of the substitutions whose placeholders occur in ``word``."""
    return [int(index) for index in re.findall(r"\x00(\d+)\x00", word)]


def restore(word: str, substitutions: list[Substitution]) -> str:
    """Put shielded characters and the original text of substitutions back into ``word``."""
    word = re.sub(r"\x01([0-9a-f]+)\x01", lambda m: chr(int(m[1], 16)), word)
    return re.sub(r"\x00(\d+)\x00", lambda m: substitutions[int(m[1])][0], word)


def _shield(char: str) -> str:
    """Hide a quoted or escaped operator character from the tokenizer."""
    return f"\x01{ord(char):x}\x01" if char in _PUNCTUATION else char


def _prescan(script: str) -> tuple[str, list[Substitution]]:
    """Prepare a script for the tokenizer, quoting respected.

    Comments, line continuations and here-document bodies are dropped; quoted
    operator characters are shielded; ``$(...)``, backticks and ``<(...)`` are
    replaced with placeholders (their scripts are read separately).

    Raises:
        ValueError: a quote or substitution is not closed.
    """
    out: list[str] = []
    subs: list[Substitution] = []
    heredocs: list[str] = []
    index, quote = 0, ""
    while index < len(script):
        char = script[index]
        if quote == "'":
            quote = "" if char == "'" else quote
            out.append(char if char == "'" else _shield(char))
            index += 1
        elif char == "\\":
            if not script.startswith("\\\n", index):
                escaped = script[index + 1 : index + 2]
                out.append(_shield(escaped) if escaped in _PUNCTUATION else "\\" + escaped)
            index += 2
        elif (
            script.startswith("$(", index)
            or char == "`"
            or (not quote and char in "<>" and script.startswith("(", index + 1))
        ):
            end = _closing(script, index)
            original = script[index : end + 1]
            arithmetic = original.startswith("$((") and original.endswith("))")
            inner = None if arithmetic else original[1:-1] if char == "`" else original[2:-1]
            out.append(f"\x00{len(subs)}\x00")
            subs.append((original, inner))
            index = end + 1
        elif char == "#" and not quote and (index == 0 or script[index - 1] in " \t\n;&|()"):
            newline = script.find("\n", index)
            index = len(script) if newline < 0 else newline
        elif char == "\n" and not quote and heredocs:
            index = _skip_heredocs(script, index + 1, heredocs)
            out.append("\n")
        else:
            if char in "'\"" and quote in ("", char):
                quote = "" if quote else char
            elif not quote and _opens_heredoc(script, index):
                heredocs.append(_heredoc_word(script, index + 2))
            out.append(_shield(char) if quote else char)
            index += 1
    if quote:
        raise ValueError("unclosed quote")
    return "".join(out), subs


def _opens_heredoc(script: str, index: int) -> bool:
    """``<<`` (not ``<<<``) starts at ``index``."""
    return script.startswith("<<", index) and "<" not in (
        script[index - 1 : index] if index else "",
        script[index + 2 : index + 3],
    )


def _heredoc_word(script: str, index: int) -> str:
    match = re.match(r"-?\s*(['\"]?)([^\s;&|<>()'\"]+)\1", script[index:])
    return match[2] if match else ""


def _skip_heredocs(script: str, index: int, heredocs: list[str]) -> int:
    """Skip the bodies of pending here-documents, which start at ``index``."""
    while heredocs:
        delimiter = heredocs.pop(0)
        while index < len(script):
            newline = script.find("\n", index)
            line_end = len(script) if newline < 0 else newline
            line, index = script[index:line_end], line_end + 1
            if line.lstrip("\t") == delimiter:
                break
    return min(index, len(script))


def _closing(script: str, start: int) -> int:
    """Index of the character that closes the substitution opening at ``start``."""
    if script[start] == "`":
        end = script.find("`", start + 1)
        if end < 0:
            raise ValueError("unclosed backquote")
        return end
    depth, index, quote = 0, script.index("(", start), ""
    while index < len(script):
        char = script[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "\\":
            index += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise ValueError("unclosed substitution")


def _tokens(text: str) -> Iterator[tuple[bool, str]]:
    """Shell tokens as ``(is_operator, text)``; quoted text is never an operator."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    for token in lexer:
        if token and all(char in _PUNCTUATION for char in token):
            while token:
                operator = next(op for op in _OPERATORS if token.startswith(op))
                yield True, operator
                token = token[len(operator) :]
        else:
            yield False, token


def _groups(tokens: Iterator[tuple[bool, str]]) -> Iterator[Group]:
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    pending: str | None = None
    for is_operator, token in tokens:
        if pending is not None and not is_operator:
            redirects.append((pending, token))
            pending = None
            continue
        pending = None
        if is_operator and token in _REDIRECTS:
            if words and words[-1] in ("0", "1", "2"):
                words.pop()  # the file descriptor of `2>&1`, not an argument
            pending = token
        elif is_operator:
            yield words, redirects
            words, redirects = [], []
        else:
            words.append(token)
    yield words, redirects
