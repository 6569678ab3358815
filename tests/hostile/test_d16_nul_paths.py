"""Defect 16: a NUL byte in a path of a fixture is a load error at its pointer, not exit 3.

``workspace.input`` (of a case or of the fixture), ``cwd``, an artifact's
path and ``skill_root``: each is refused by ``validate`` and ``run`` (focused
or not) with exit 2, the file, the JSON pointer and the rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_run_helpers import case, cli, skill

NUL = "wo\0rk"

PLACES: dict[str, tuple[dict[str, Any], dict[str, Any], str, str]] = {
    "case workspace.input": (
        {"workspace": {"input": NUL}},
        {},
        "/cases/0/workspace/input",
        "AE-SCHEMA-VALUE",
    ),
    "fixture workspace.input": (
        {},
        {"workspace": {"input": NUL}},
        "/workspace/input",
        "AE-SCHEMA-VALUE",
    ),
    "cwd": ({"cwd": NUL}, {}, "/cases/0/cwd", "AE-SCHEMA-VALUE"),
    "artifact path": (
        {"expected": {"exit_code": 0, "artifacts": [{"path": NUL, "exists": True}]}},
        {},
        "/cases/0/expected/artifacts/0/path",
        "AE-SCHEMA-VALUE",
    ),
    "skill_root": ({}, {"skill_root": NUL}, "skill_root", "AE-PATH-SKILL-ROOT"),
}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("command", [["validate"], ["run"], ["run", "--case", "a"]], ids=" ".join)
def test_d16_a_nul_byte_in_a_path_is_a_load_error_with_its_pointer(
    tmp_path: Path, place: str, command: list[str]
) -> None:
    fields, top, pointer, code_name = PLACES[place]
    (tmp_path / "s" / "fixtures" / "work").mkdir(parents=True)
    fixture = skill(tmp_path / "s", [case("a", ["true"], **fields)], **top)
    code, err = cli(*command, str(fixture))
    assert code == 2, err
    assert str(fixture) in err and pointer in err and code_name in err, err
    assert "NUL" in err and "Traceback" not in err and "internal error" not in err
