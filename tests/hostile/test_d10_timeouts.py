"""Defect 10: timeouts are bounded: above 0, at most one day, finite, wherever they are set.

``timeout_seconds`` in a fixture (a case or ``defaults``) and in a configuration
file, and ``--timeout-seconds`` of ``run``, ``regressions verify`` and
``regressions add``: nan, inf, 1e308, 5,000 digits or a day and a second are
refused with exit 2 naming where; one day exactly is accepted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_run_helpers import case, cli, skill

from agentic_evals.limits import MAX_TIMEOUT_SECONDS

HOSTILE = ["1e308", "inf", "-inf", "nan", "9" * 5000, str(MAX_TIMEOUT_SECONDS + 1), "0", "-1"]
IDS = ["1e308", "inf", "-inf", "nan", "5000-digits", "a-day-and-a-second", "0", "-1"]


@pytest.mark.parametrize("value", HOSTILE, ids=IDS)
@pytest.mark.parametrize(
    "command", [["run"], ["regressions", "verify"], ["regressions", "add"]], ids=" ".join
)
def test_d10_a_hostile_timeout_option_is_a_usage_error(
    tmp_path: Path, value: str, command: list[str]
) -> None:
    fixture = skill(tmp_path / "s", [case("a", ["true"])])
    target = str(fixture) if command == ["run"] else str(fixture.parents[1])
    code, err = cli(*command, target, "--timeout-seconds", value)
    assert code == 2, err
    assert "--timeout-seconds" in err and "Traceback" not in err
    if len(value) < 64:
        assert "at most one day" in err


def test_d10_one_day_exactly_is_accepted(tmp_path: Path) -> None:
    fixture = skill(tmp_path / "s", [case("a", ["true"], timeout_seconds=MAX_TIMEOUT_SECONDS)])
    output = tmp_path / "report.json"
    code, err = cli("run", str(fixture), "--timeout-seconds", "86400", "-o", str(output))
    assert code == 0, err
    assert json.loads(output.read_text())["readiness"] == "READY"


@pytest.mark.parametrize("where", ["case", "defaults"])
@pytest.mark.parametrize("value", [1e10, 2_147_483.649, MAX_TIMEOUT_SECONDS + 0.5])
def test_d10_a_fixture_timeout_beyond_a_day_is_rejected_with_its_pointer(
    tmp_path: Path, where: str, value: float
) -> None:
    top = {"defaults": {"timeout_seconds": value}} if where == "defaults" else {}
    fields = {"timeout_seconds": value} if where == "case" else {}
    fixture = skill(tmp_path / "s", [case("a", ["true"], **fields)], **top)
    pointer = "/cases/0/timeout_seconds" if where == "case" else "/defaults/timeout_seconds"
    for command in ("run", "validate"):
        code, err = cli(command, str(fixture))
        assert code == 2, err
        assert pointer in err and "at most 86400" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["inf", "nan", "1e10"])
def test_d10_a_configured_timeout_beyond_a_day_names_the_file(tmp_path: Path, value: str) -> None:
    fixture = skill(tmp_path / "s", [case("a", ["true"])])
    config = tmp_path / "s" / "agentic-evals.toml"
    config.write_text(f"timeout-seconds = {value}\n")
    code, err = cli("run", str(fixture), cwd=config.parent)
    assert code == 2, err
    assert "agentic-evals.toml" in err and "timeout-seconds" in err and "Traceback" not in err
