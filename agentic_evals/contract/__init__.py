"""The fixture contract: models, strict loading, schema checks and load-time gates.

``load_fixture`` and ``LoadResult`` are imported lazily: the report models
import ``contract.findings``, and loading pulls in the schema generator, which
imports the report models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentic_evals.contract.load import FixtureDriftError, LoadResult, load_fixture
    from agentic_evals.documents.findings import Finding

__all__ = ["Finding", "FixtureDriftError", "LoadResult", "load_fixture"]


def __getattr__(name: str) -> Any:
    if name == "Finding":
        from agentic_evals.documents.findings import Finding

        return Finding
    if name in ("FixtureDriftError", "LoadResult", "load_fixture"):
        from agentic_evals.contract import load

        return getattr(load, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
