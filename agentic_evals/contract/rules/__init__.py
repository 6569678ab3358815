"""Load-time rules of a fixture beyond its schema: uniqueness, references, claims, paths."""

from agentic_evals.contract.rules.semantic import semantic_findings

__all__ = ["semantic_findings"]
