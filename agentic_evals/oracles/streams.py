"""The stdout/stderr ``*_contains``, ``*_excludes`` and ``*_regex`` oracles.

Needles are encoded as UTF-8 and matched on the raw bytes, so an oracle never
depends on how undecodable output is rendered in the report. The runner
watches every needle and pattern of a case as the stream flows
(:mod:`agentic_evals.runner.matching`): they are judged on the whole stream,
the bytes past the capture cap included, so an ``*_excludes`` no longer has
to fail closed on a truncated stream. Only a needle that was not watched on a
truncated stream (a stream captured without its case) still does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal

from agentic_evals import codes
from agentic_evals.contract.models import Expected
from agentic_evals.oracles.base import (
    OracleContext,
    OracleResult,
    ProcessOutcomeLike,
    StreamLike,
    oracle_pointer,
    shorten,
)
from agentic_evals.reports.model import Problem

StreamName = Literal["stdout", "stderr"]
Oracle = Callable[[Expected, ProcessOutcomeLike, OracleContext], OracleResult]

_MISSING = {"stdout": codes.STDOUT_MISSING, "stderr": codes.STDERR_MISSING}
_NEEDLES: dict[str, Callable[[Expected], list[str]]] = {
    "stdout_contains": lambda expected: expected.stdout_contains,
    "stderr_contains": lambda expected: expected.stderr_contains,
    "stdout_excludes": lambda expected: expected.stdout_excludes,
    "stderr_excludes": lambda expected: expected.stderr_excludes,
}
_FORBIDDEN = {"stdout": codes.STDOUT_FORBIDDEN, "stderr": codes.STDERR_FORBIDDEN}


def contains_oracle(stream: StreamName) -> Oracle:
    """Return the ``<stream>_contains`` oracle.

    Each needle must occur in the kept bytes (``STDOUT_MISSING`` /
    ``STDERR_MISSING`` otherwise). On a truncated stream a missing needle
    still fails: only what was kept can be shown to contain it.
    """
    key = f"{stream}_contains"

    def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
        del ctx  # uniform oracle signature
        captured = _stream(outcome, stream)
        result = OracleResult()
        for index, needle in enumerate(_NEEDLES[key](expected)):
            if captured.contains(needle.encode("utf-8")):
                continue
            message = f"{stream} does not contain {_quote(needle)}{_truncation_note(captured)}"
            result.problems.append(
                Problem(code=_MISSING[stream], message=message, oracle=oracle_pointer(key, index))
            )
        return result

    return check


def excludes_oracle(stream: StreamName) -> Oracle:
    """Return the ``<stream>_excludes`` oracle.

    A needle found in the kept bytes fails with ``STDOUT_FORBIDDEN`` /
    ``STDERR_FORBIDDEN``. On a truncated stream a needle not found fails
    closed with ``STREAM_TRUNCATED``: the dropped bytes could hold it.
    """
    key = f"{stream}_excludes"

    def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
        del ctx  # uniform oracle signature
        captured = _stream(outcome, stream)
        result = OracleResult()
        for index, needle in enumerate(_NEEDLES[key](expected)):
            pointer = oracle_pointer(key, index)
            if captured.contains(needle.encode("utf-8")):
                message = f"{stream} contains forbidden {_quote(needle)}"
                code = _FORBIDDEN[stream]
            elif not captured.saw_all(needle.encode("utf-8")):
                message = (
                    f"{stream} was truncated ({captured.kept_bytes} of {captured.total_bytes}"
                    f" bytes kept): cannot show it excludes {_quote(needle)}"
                )
                code = codes.STREAM_TRUNCATED
            else:
                continue
            result.problems.append(Problem(code=code, message=message, oracle=pointer))
        return result

    return check


def regex_oracle(stream: StreamName) -> Oracle:
    """Return the ``<stream>_regex`` oracle: each pattern must match (``STDOUT_REGEX``...)."""
    key = f"{stream}_regex"

    def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
        del ctx  # uniform oracle signature
        captured = _stream(outcome, stream)
        result = OracleResult()
        patterns = expected.stdout_regex if stream == "stdout" else expected.stderr_regex
        for index, pattern in enumerate(patterns):
            if captured.matches(pattern):
                continue
            message = f"{stream} does not match /{shorten(pattern)}/"
            code = codes.STDOUT_REGEX if stream == "stdout" else codes.STDERR_REGEX
            result.problems.append(
                Problem(code=code, message=message, oracle=oracle_pointer(key, index))
            )
        return result

    return check


def _stream(outcome: ProcessOutcomeLike, stream: StreamName) -> StreamLike:
    return outcome.stdout if stream == "stdout" else outcome.stderr


def _quote(needle: str) -> str:
    return shorten(json.dumps(needle, ensure_ascii=False))


def _truncation_note(captured: StreamLike) -> str:
    if not captured.truncated:
        return ""
    return f" (truncated: {captured.kept_bytes} of {captured.total_bytes} bytes kept)"
