"""The example corpora: every valid/ file loads; every invalid/ file reports what it declares.

Each invalid file is listed in invalid/expect.json with the findings (code and
pointer, severity ``error`` unless stated) it must produce.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_evals.evidence.gates import load_fixture

HERE = Path(__file__).resolve().parent
SUFFIXES = (".json", ".yaml", ".yml")
VALID = sorted(p for p in (HERE / "valid").iterdir() if p.suffix in SUFFIXES)
INVALID = sorted(
    p for p in (HERE / "invalid").iterdir() if p.suffix in SUFFIXES and p.name != "expect.json"
)
EXPECT: dict[str, list[dict[str, str]]] = json.loads((HERE / "invalid" / "expect.json").read_text())


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_examples_load(path: Path) -> None:
    result = load_fixture(path)
    assert result.errors == [], [f.render() for f in result.errors]
    assert result.ok and result.model is not None


def test_valid_examples_warn_only_about_unknown_keys() -> None:
    warned = {path.name: sorted(f.pointer for f in load_fixture(path).warnings) for path in VALID}
    assert {name: pointers for name, pointers in warned.items() if pointers} == {
        "extra_keys.json": ["/cases/0/category", "/notes"]
    }


def test_every_invalid_example_declares_its_findings() -> None:
    assert sorted(EXPECT) == [path.name for path in INVALID]


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_examples_report_what_they_declare(path: Path) -> None:
    result = load_fixture(path)
    assert result.model is None and not result.ok
    found = {(f.code, f.pointer, f.severity) for f in result.findings}
    for item in EXPECT[path.name]:
        wanted = (item["code"], item["pointer"], item.get("severity", "error"))
        assert wanted in found, (wanted, [f.render() for f in result.findings])
