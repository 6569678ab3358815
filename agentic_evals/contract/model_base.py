"""The configuration every fixture model shares (strict types, unknown keys kept)."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

NonEmptyStr = Annotated[str, Field(min_length=1)]


class FixtureModel(BaseModel):
    """Common configuration: strict types, unknown keys kept for warnings."""

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        frozen=True,
    )
