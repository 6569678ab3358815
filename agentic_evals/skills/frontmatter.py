"""The front matter of a ``SKILL.md``: a YAML mapping between two ``---`` lines at the top.

Parsed in-process with the strict YAML loader fixtures use (safe loading,
YAML 1.2 core types, dates stay strings, duplicate keys are errors). Nothing
here raises for bad input: every problem is a :class:`~agentic_evals.documents.findings.Finding`.

Tolerated on purpose: a ``SKILL.md`` wrapped in a Markdown code fence
(first line ```` ````markdown ````, ``` ```md ``` or a bare fence, then ``---``), as
real trees have. The front matter inside is read, with an ``EVAL004``
warning, because the author's intent is unambiguous and the skill's
metadata is otherwise lost.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.documents.bounded import BoundError, read_regular
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.yaml_io import parse_yaml
from agentic_evals.limits import MAX_DOCUMENT_BYTES

_FENCE = re.compile(r"^(?:`{3,}|~{3,})[ \t]*(?:markdown|md)?[ \t]*$", re.IGNORECASE)
_DELIMITER = "---"


class FrontMatter(NamedTuple):
    """What the top of a ``SKILL.md`` holds."""

    data: dict[str, object] | None
    """The mapping; ``None`` when missing or unparseable (duplicates still give data)."""
    issues: list[Finding]
    """EVAL003 (missing or broken) and EVAL004 (fenced) issues."""
    key_lines: dict[str, int]
    """1-based ``SKILL.md`` line of each top-level key."""


def read_front_matter(skill_md: Path) -> FrontMatter:
    """Read and parse the front matter of ``skill_md``; never raises for bad input."""
    try:
        text = read_regular(skill_md, MAX_DOCUMENT_BYTES).decode("utf-8-sig")
    except BoundError as exc:
        return _broken(f"cannot read SKILL.md: {exc.rule}")
    except OSError as exc:
        return _broken(f"cannot read SKILL.md: {exc.strerror or type(exc).__name__}")
    except UnicodeDecodeError as exc:
        return _broken(f"SKILL.md is not UTF-8 (invalid byte at offset {exc.start})")
    return parse_front_matter(text)


def parse_front_matter(text: str) -> FrontMatter:
    """Parse the front matter at the top of a ``SKILL.md`` text."""
    lines = [line.rstrip() for line in text.removeprefix("\ufeff").split("\n")]
    issues: list[Finding] = []
    start = 0
    if len(lines) > 1 and _FENCE.match(lines[0]) and lines[1] == _DELIMITER:
        start = 1
        message = (
            f"front matter inside a code fence ({lines[0]!r} on line 1): it is read, "
            "but most tools expect '---' on the first line"
        )
        issues.append(
            finding(codes.EVAL_FENCED_FRONT_MATTER, "", message, "warning", file="SKILL.md", line=1)
        )
    if not lines or lines[start] != _DELIMITER:
        return _broken("no front matter: SKILL.md must start with a '---' line", 1)
    end = next((i for i in range(start + 1, len(lines)) if lines[i] == _DELIMITER), None)
    if end is None:
        return _broken(f"the front matter opened on line {start + 1} is never closed by '---'")
    parsed = parse_yaml("\n".join(lines[start + 1 : end]))
    offset = start + 1  # front-matter line 1 is SKILL.md line start + 2
    for problem in parsed.findings:
        line = problem.line + offset if problem.line is not None else None
        where = f" at {problem.pointer}" if problem.pointer else ""
        message = f"broken front matter{where}: {problem.message}"
        issues.append(
            finding(codes.EVAL_FRONT_MATTER, "", message, "error", file="SKILL.md", line=line)
        )
    if not parsed.parsed:
        return FrontMatter(None, issues, {})
    if not isinstance(parsed.value, dict) or not parsed.value:
        kind = "empty" if parsed.value is None else f"a {type(parsed.value).__name__}"
        message = f"the front matter must be a mapping of keys, not {kind}"
        issues.append(
            finding(codes.EVAL_FRONT_MATTER, "", message, "error", file="SKILL.md", line=start + 1)
        )
        return FrontMatter(None, issues, {})
    key_lines = {
        pointer[1:].replace("~1", "/").replace("~0", "~"): line + offset
        for pointer, (line, _) in parsed.positions.items()
        if pointer.count("/") == 1
    }
    return FrontMatter(parsed.value, issues, key_lines)


def _broken(message: str, line: int | None = None) -> FrontMatter:
    issue = finding(codes.EVAL_FRONT_MATTER, "", message, "error", file="SKILL.md", line=line)
    return FrontMatter(None, [issue], {})
