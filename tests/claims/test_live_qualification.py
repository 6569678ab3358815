"""Live qualification: each way a case can fake a live proof downgrades it (SPEC 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest
from builders import PROD, RECEIPT, make_skill
from claims_helpers import claim, document, live_case, run_doc

from agentic_evals.contract.models import Fixture
from agentic_evals.evidence.checks import is_generic_marker
from agentic_evals.evidence.facts import evidence_table


class Qualified(NamedTuple):
    declared: str
    effective: str
    live_qualified: bool
    disqualifiers: list[str]


def qualify(tmp_path: Path, case: dict[str, Any], skill: str = "claims-test") -> Qualified:
    root = make_skill(tmp_path / "skill", files=PROD)
    ask = root / "ask" / "run.sh"
    ask.parent.mkdir(exist_ok=True)
    ask.write_text("#!/bin/sh\n")
    ask.chmod(0o755)
    doc = document([claim()], [case], skill=skill)
    facts = evidence_table(Fixture.model_validate(doc), root)[case["name"]]
    return Qualified(
        facts.declared_class, facts.effective_class, facts.live_qualified, facts.disqualifiers
    )


def test_a_real_entrypoint_with_readback_qualifies(tmp_path: Path) -> None:
    assert qualify(tmp_path, live_case()) == ("live_e2e", "live_e2e", True, [])


def test_an_absent_evidence_class_declares_live_e2e_and_is_qualified(tmp_path: Path) -> None:
    case = live_case()
    del case["evidence_class"]
    assert qualify(tmp_path, case) == ("live_e2e", "live_e2e", True, [])
    case["expected"] = {"exit_code": 0}
    assert qualify(tmp_path, case) == ("live_e2e", "deterministic", False, ["LIVE_NO_READBACK"])


@pytest.mark.parametrize(
    "command",
    [
        ["bash", "-c", ": prod.sh"],
        ["bash", "-c", "echo bash prod.sh && true"],
        ["echo", "run.sh", "--e2e"],
        ["true", "tests/e2e/prod.sh"],
        ["python3", "-c", "print('prod.sh e2e')"],
        ["bash", "-c", "exit 0 # bash prod.sh"],
    ],
)
def test_commands_that_only_mention_an_entrypoint_do_not_reach_one(
    tmp_path: Path, command: list[str]
) -> None:
    result = qualify(tmp_path, live_case(command=command))
    assert result.live_qualified is False
    assert result.disqualifiers == ["LIVE_NO_ENTRYPOINT"]
    assert result.effective == "deterministic"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"mocked": True}, "LIVE_MOCKED"),
        ({"uses_stub": True}, "LIVE_USES_STUB"),
        ({"command": ["bash", "prod.sh", "fixtures/canned.json"]}, "LIVE_STUB_INPUT"),
        ({"command": ["bash", "-c", "bash prod.sh < fixtures/canned.json"]}, "LIVE_STUB_INPUT"),
    ],
)
def test_a_case_feeding_itself_stubs_is_downgraded(
    tmp_path: Path, fields: dict[str, Any], code: str
) -> None:
    result = qualify(tmp_path, live_case(**fields))
    assert (result.live_qualified, result.disqualifiers) == (False, [code])


@pytest.mark.parametrize(
    "expected",
    [
        {"exit_code": 0},
        {"exit_code": 0, "stdout_contains": ["settled", "ok"]},
        {"exit_code": 0, "stdout_excludes": ["Traceback"]},
        {"exit_code": 0, "stdout_excludes": ["Traceback", "ERROR:", "[fail]", "panic", "x"]},
        {"exit_code": 0, "stderr_contains": ["done"], "stdout_excludes": ["Exception"]},
        # It passes on the null trial: an idle program prints nothing.
        {"exit_code": 0, "stdout_excludes": ["Traceback", "phase: pending"]},
    ],
)
def test_exit_code_and_own_prose_are_no_readback(tmp_path: Path, expected: dict[str, Any]) -> None:
    result = qualify(tmp_path, live_case(expected=expected))
    assert (result.live_qualified, result.disqualifiers) == (False, ["LIVE_NO_READBACK"])


def test_readback_true_with_only_the_exit_code_behind_it_is_no_readback(tmp_path: Path) -> None:
    result = qualify(tmp_path, live_case(expected={"exit_code": 0}, readback=True))
    assert (result.live_qualified, result.disqualifiers) == (False, ["LIVE_NO_READBACK"])


@pytest.mark.parametrize(
    "fields",
    [
        {"expected": {"exit_code": 0, "artifacts": [RECEIPT]}},
        {"expected": {"exit_code": 0, "stdout_contains": ["READBACK_OK"]}, "readback": True},
        {"expected": {"exit_code": 0, "workspace_changes": {"added": ["receipt.json"]}}},
    ],
)
def test_independent_readback_oracles_qualify(tmp_path: Path, fields: dict[str, Any]) -> None:
    assert qualify(tmp_path, live_case(**fields)).live_qualified is True


@pytest.mark.parametrize(
    ("entry", "generic"),
    [("Traceback", True), ("  error: ", True), ("FAILED", True), ("nan", True), ("ab", True)]
    + [("phase: pending", False), ("workflow-resume", False), ("fallback used", False)],
)
def test_generic_markers(entry: str, generic: bool) -> None:
    assert is_generic_marker(entry) is generic


@pytest.mark.parametrize(
    ("case_type", "command", "effective"),
    [
        ("negative", ["bash", "prod.sh"], "fault_injected_deterministic"),
        ("adversarial", ["bash", "prod.sh"], "fault_injected_deterministic"),
        ("positive", ["bash", "prod.sh"], "deterministic"),
        ("adversarial", ["bash", "-c", ": prod.sh"], "deterministic"),
    ],
)
def test_a_downgrade_is_a_fault_injection_only_on_a_real_path(
    tmp_path: Path, case_type: str, command: list[str], effective: str
) -> None:
    case = live_case(type=case_type, command=command, expected={"exit_code": 0})
    assert qualify(tmp_path, case).effective == effective


def test_adversarial_live_is_qualified_like_live(tmp_path: Path) -> None:
    case = live_case(type="adversarial", evidence_class="adversarial_live_e2e")
    assert qualify(tmp_path, case) == ("adversarial_live_e2e", "adversarial_live_e2e", True, [])
    case["mocked"] = True
    assert qualify(tmp_path, case).effective == "fault_injected_deterministic"


@pytest.mark.parametrize("declared", ["deterministic", "property_or_fuzz"])
def test_other_classes_are_reported_as_declared(tmp_path: Path, declared: str) -> None:
    case = live_case(evidence_class=declared, mocked=True, expected={"exit_code": 0})
    assert qualify(tmp_path, case) == (declared, declared, False, [])


def test_human_evaluation_without_a_review_record_is_deterministic(tmp_path: Path) -> None:
    case = live_case(evidence_class="human_evaluation", mocked=True, expected={"exit_code": 0})
    assert qualify(tmp_path, case) == (
        "human_evaluation",
        "deterministic",
        False,
        ["HUMAN_NO_REVIEW_RECORD"],
    )


ASK_ARTIFACT = {"path": "out/node-receipt.json", "json_pointer": "/status", "equals": "done"}
PLAN_ARTIFACT = {"path": "out/plan.json", "json_pointer": "/ok", "equals": True}


@pytest.mark.parametrize(
    ("args", "artifact", "codes"),
    [
        (
            ["tau-dag", "q", "--handler", "webgpt"],
            PLAN_ARTIFACT,
            ["NOT_EXECUTED", "NO_RUN_ARTIFACT"],
        ),
        (["tau-dag", "q", "--execute"], PLAN_ARTIFACT, ["NO_RUN_ARTIFACT"]),
        (["compete", "q", "--handler=webkimi"], ASK_ARTIFACT, ["NOT_EXECUTED"]),
        (["tau-dag", "q", "--handler", "webgpt", "--execute"], ASK_ARTIFACT, []),
        (["ask", "q", "--handler", "gpt-5"], PLAN_ARTIFACT, []),
    ],
)
def test_browser_driven_ask_workflows_must_execute_and_read_run_artifacts_back(
    tmp_path: Path, args: list[str], artifact: dict[str, Any], codes: list[str]
) -> None:
    case = live_case(
        command=["bash", "ask/run.sh", *args], expected={"exit_code": 0, "artifacts": [artifact]}
    )
    result = qualify(tmp_path, case)
    assert result.disqualifiers == [f"LIVE_ASK_{code}" for code in codes]
    assert result.live_qualified == (not codes)


def test_ask_rule_applies_to_the_ask_skills_own_run_sh(tmp_path: Path) -> None:
    run = make_skill(tmp_path / "skill", files=PROD) / "run.sh"
    run.write_text("#!/bin/sh\n")
    case = live_case(command=["bash", "-c", "./run.sh compete q --handler webclaude"])
    run.chmod(0o755)
    assert qualify(tmp_path, case, skill="other").disqualifiers == []
    assert qualify(tmp_path, case, skill="ask").disqualifiers == [
        "LIVE_ASK_NOT_EXECUTED",
        "LIVE_ASK_NO_RUN_ARTIFACT",
    ]


def test_a_mentioned_ask_workflow_is_no_workflow_and_no_entrypoint(tmp_path: Path) -> None:
    command = ["bash", "-c", ": skills/ask/run.sh tau-dag --handler webgpt --json"]
    assert qualify(tmp_path, live_case(command=command)).disqualifiers == ["LIVE_NO_ENTRYPOINT"]


def test_every_case_report_carries_its_evidence_fields(tmp_path: Path) -> None:
    cases = [
        live_case("live"),
        live_case("pseudo", expected={"exit_code": 0}),
        {**live_case("det"), "evidence_class": "deterministic"},
    ]
    report = run_doc(tmp_path, document([claim()], cases))
    fields = [
        (
            c.declared_evidence_class,
            c.effective_evidence_class,
            c.live_qualified,
            c.evidence_disqualifiers,
        )
        for c in report.cases
    ]
    assert fields == [
        ("live_e2e", "live_e2e", True, []),
        ("live_e2e", "deterministic", False, ["LIVE_NO_READBACK"]),
        ("deterministic", "deterministic", False, []),
    ]
