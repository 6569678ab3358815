"""Oracles: grade what a finished trial left behind (SPEC section 3.3).

Use :func:`evaluate` with a case, a process outcome and an
:class:`OracleContext`; read problems and artifact hashes from the
:class:`OracleResult`.
"""

from __future__ import annotations

from agentic_evals.oracles.base import (
    OracleContext,
    OracleGroup,
    OracleResult,
    ProcessOutcomeLike,
    StreamLike,
    oracle_group,
    problems_in_group,
)
from agentic_evals.oracles.registry import ORACLE_KINDS, ORACLES, Oracle, evaluate

__all__ = [
    "ORACLES",
    "ORACLE_KINDS",
    "Oracle",
    "OracleContext",
    "OracleGroup",
    "OracleResult",
    "ProcessOutcomeLike",
    "StreamLike",
    "evaluate",
    "oracle_group",
    "problems_in_group",
]
