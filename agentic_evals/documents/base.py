"""The two pydantic bases every model derives from: documents read, documents written.

Both are frozen: a loaded document or a written result is a value, changed
only by copying it (``model_copy(update=...)``).
"""

from pydantic import BaseModel, ConfigDict


class InputModel(BaseModel):
    """A document people or tools write and agentic-evals reads.

    Types are strict (``"3"`` is no integer). Unknown keys are kept, so that
    the loader reports them (a warning, or an error where the document kind
    says so) instead of pydantic failing on the first one.
    """

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class OutputModel(BaseModel):
    """A document agentic-evals writes: every field is its own, none is added."""

    model_config = ConfigDict(extra="forbid", frozen=True)
