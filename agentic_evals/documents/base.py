"""The two pydantic bases every model derives from: documents read, documents written.

Both are frozen: a loaded document or a written result is a value, changed
only by copying it (``model_copy(update=...)``).
"""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from agentic_evals.limits import MAX_TIMEOUT_SECONDS

TimeoutSeconds = Annotated[float, Field(gt=0, le=MAX_TIMEOUT_SECONDS, allow_inf_nan=False)]
"""A timeout in seconds, in every document that sets one: above 0, at most one day
(``MAX_TIMEOUT_SECONDS``), finite; the same bound as ``--timeout-seconds``."""


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
