"""Shortcuts: negative cases that prove nothing, and READY without evidence (no claims)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, make_skill
from click.testing import CliRunner

from agentic_evals.cli import cli

RUN_SH = (
    "#!/usr/bin/env bash\n"
    'if [ "${1:-}" = --bad ]; then echo "refused: unknown flag --bad" >&2; exit 2; fi\n'
    "mkdir -p out\necho '{\"ok\": true}' > out/result.json\necho done\n"
)
POSITIVE = case(
    "writes",
    command=["bash", "run.sh"],
    expected={"exit_code": 0, "artifacts": [{"path": "out/result.json", "exists": True}]},
    real_world=True,
    evidence_class="deterministic",
)
HONEST_NEGATIVE = case(
    "refuses",
    "negative",
    ["bash", "run.sh", "--bad"],
    {"exit_code": 2, "stderr_contains": ["refused: unknown flag --bad"]},
)


def run(tmp_path: Path, cases: list[dict[str, Any]]) -> Any:
    skill = make_skill(
        tmp_path / "skill",
        files={"run.sh": RUN_SH},
        fixture=fixture(cases, skill="skill", skill_root=".."),
    )
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli, ["run", str(skill / "fixtures" / "agentic_eval.json"), "-o", str(out)]
    )
    assert out.exists(), result.output
    return result, json.loads(out.read_text())


def test_a_skill_without_claims_is_ready_with_a_real_positive_and_a_reasoned_negative(
    tmp_path: Path,
) -> None:
    result, report = run(tmp_path, [POSITIVE, HONEST_NEGATIVE])
    assert report["evidence_findings"] == []
    assert report["readiness"] == "READY" and result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("negative", "said"),
    [
        # Exit codes only.
        (
            case("n", "negative", ["bash", "run.sh", "--bad"], {"exit_code": 2}),
            "no check on its output",
        ),
        # A missing program: exit 127, whatever the message says.
        (
            case("n", "negative", ["bash", "-c", "nosuchprog"], {"exit_code": 127}),
            "expects exit 127",
        ),
        (
            case(
                "n",
                "negative",
                ["bash", "-c", "nosuchprog --x"],
                {"exit_code": 127, "stderr_contains": ["nosuchprog: command not found"]},
            ),
            "expects exit 127",
        ),
        # A missing input file: the generic message proves nothing about the skill.
        (
            case(
                "n",
                "negative",
                ["bash", "-c", "bash run.sh < missing.csv"],
                {"exit_code": 1, "stderr_contains": ["No such file or directory"]},
            ),
            "no check on its output",
        ),
        # `|| true` hides the failure; an exclude passes on the null trial.
        (
            case(
                "n",
                "negative",
                ["bash", "-c", "bash run.sh --bad || true"],
                {"exit_code": 0, "stdout_excludes": ["done"]},
            ),
            "no check on its output",
        ),
    ],
)
def test_a_negative_case_that_shows_no_reason_leaves_the_run_usable_with_gaps(
    tmp_path: Path, negative: dict[str, Any], said: str
) -> None:
    result, report = run(tmp_path, [POSITIVE, negative])
    assert report["case_readiness"] == "READY"  # every case passed...
    assert report["readiness"] == "USABLE_WITH_GAPS" and result.exit_code == 1  # ...no proof
    (none,) = [f for f in report["evidence_findings"] if f["code"] == "AE-EVID-NONE"]
    assert "a required negative or adversarial case that shows its reason" in none["message"]
    assert said in none["message"]
    assert "to be READY: add a required negative or adversarial case" in result.output


def test_a_skill_without_claims_whose_cases_check_exit_codes_only_is_not_ready(
    tmp_path: Path,
) -> None:
    # The gate lets it run: its required real-world case, adversarial, reaches run.sh and
    # checks its output. But the only real-world positive is optional, the negative checks its
    # exit code only and the adversarial case a generic marker ("bad"): no reason shown.
    optional = {**POSITIVE, "required": False}
    exits = case("n", "negative", ["bash", "run.sh", "--bad"], {"exit_code": 2})
    marker = case(
        "a",
        "adversarial",
        ["bash", "run.sh", "--bad"],
        {"exit_code": 2, "stderr_contains": ["bad"]},
        real_world=True,
        evidence_class="deterministic",
    )
    result, report = run(tmp_path, [optional, exits, marker])
    (none,) = [f for f in report["evidence_findings"] if f["code"] == "AE-EVID-NONE"]
    assert "a required real_world positive case" in none["message"]
    assert "(there is none)" in none["message"]  # the optional one does not count
    assert "shows its reason" in none["message"]
    assert "('n' no check on its output" in none["message"]
    assert "; 'a' no check on its output" in none["message"]
    assert report["readiness"] == "USABLE_WITH_GAPS" and result.exit_code == 1
    line = next(x for x in result.output.splitlines() if x.startswith("  evidence: n:"))
    assert "NO_FAILING_ORACLE" in line


def test_a_negative_case_whose_program_could_not_run_shows_no_reason(tmp_path: Path) -> None:
    # It expects exit 2 and a message, but the trials' program is missing (exit 127).
    lost = case(
        "n",
        "negative",
        ["bash", "-c", "nosuchprog 2>/dev/null; echo 'refused: gone' >&2; exit 2"],
        {"exit_code": 2, "stderr_contains": ["refused: gone"]},
    )
    result, report = run(tmp_path, [POSITIVE, lost])
    assert report["cases"][1]["reason_problem"] is None  # a program ran: bash itself
    assert report["readiness"] == "READY", result.output
    blind = case(
        "n",
        "negative",
        ["nosuch-program-anywhere"],
        {"exit_code": 2, "stderr_contains": ["refused: gone"]},
    )
    result, report = run(tmp_path / "blind", [POSITIVE, blind])
    assert "could not run" in report["cases"][1]["reason_problem"]
    assert report["readiness"] != "READY"
