"""Validators of the Every Eval Ever 0.2.2 reference schemas, and CLI helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from builders import SHARED
from click.testing import CliRunner, Result

from agentic_evals.cli import cli

REFERENCE = SHARED / "reference" / "every_eval_ever"
AGGREGATE_SCHEMA = REFERENCE / "0.2.2" / "eval.schema.json"
INSTANCE_SCHEMA = REFERENCE / "0.2.2" / "instance_level_eval.schema.json"


def validator(path: Path) -> jsonschema.Draft7Validator:
    if not path.is_file():
        pytest.skip(f"the Every Eval Ever reference schemas are not at {path.parent}")
    schema = json.loads(path.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def assert_valid(path: Path, document: Any) -> None:
    errors = sorted(validator(path).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def exported(folder: Path) -> tuple[list[Path], list[Path]]:
    """The envelopes and instance files in ``folder``."""
    return sorted(folder.glob("*.eee.json")), sorted(folder.glob("*.instances.jsonl"))
