"""agentic-evals: decide from evidence whether an agent skill is ready.

The public API is small: load and gate a fixture, evaluate it, and read the
report model.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
