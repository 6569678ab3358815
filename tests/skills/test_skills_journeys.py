"""plan-journeys: QID-only binding, each binding state, weak oracles, traceability, exits."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from builders import REPO
from click.testing import CliRunner
from skills_helpers import write_json

from agentic_evals.cli import cli
from agentic_evals.contract.models import Case
from agentic_evals.skills.journeys.inputs import RequirementsDocument
from agentic_evals.skills.journeys.plan import JourneyInputs, plan_journeys
from agentic_evals.skills.journeys.plan_models import JourneyPlan

FIXTURE: dict[str, Any] = {
    "version": 2,
    "skill": "shop",
    "eval_kind": "scaffold",
    "capability_claims": [
        {
            "id": "C-checkout",
            "evidence_required": ["live_e2e"],
            "claim_semantics": "control_flow",
        },
        {"id": "C-search", "criticality": "optional", "evidence_required": ["deterministic"]},
        {"id": "C-refund", "evidence_required": ["live_e2e"], "claim_semantics": "control_flow"},
    ],
    "seams": [{"seam_id": "S-pay", "required_evidence": ["live_e2e"]}],
    "cases": [
        {"name": "a", "type": "positive", "command": ["bash", "x.sh"], "expected": {"exit_code": 0}}
    ],
}
TEXT_ORACLE = {"kind": "text", "qid": "order.number", "expect": "Order #"}
REQUIREMENTS: dict[str, Any] = {
    "schema": "agentic_evals.requirements.v1",
    "requirements": [
        {
            "id": "R-bound",
            "claim_ids": ["C-checkout"],
            "seam_ids": ["S-pay"],
            "controls": [{"qid": "cart.open"}, {"qid": "checkout.submit", "to_state": "done"}],
            "oracles": [TEXT_ORACLE],
        },
        {
            "id": "R-partial",
            "criticality": "important",
            "claim_ids": ["C-search", "C-unknown"],
            "controls": [{"qid": "search.box", "action": "fill"}, {"qid": "search.go"}],
            "oracles": [{"kind": "visible", "qid": "results"}],
        },
        {
            "id": "R-unbound",
            "criticality": "optional",
            "controls": [{"qid": "refund.start"}],
            "oracles": [TEXT_ORACLE],
        },
        {"id": "R-na", "applicable": False, "not_applicable_reason": "CLI only"},
    ],
}
INVENTORY: dict[str, Any] = {
    "schema": "agentic_evals.interaction_inventory.v1",
    "controls": [
        {"qid": "cart.open", "selector": "#cart", "tag": "button"},
        {"qid": "checkout.submit"},
        {"qid": "search.box"},
        {"qid": "footer.link"},
    ],
}
GRAPH: dict[str, Any] = {
    "schema": "agentic_evals.state_graph.v1",
    "initial": "home",
    "states": [{"id": "home"}, {"id": "cart"}, {"id": "done"}],
    "transitions": [
        {"from": "home", "to": "cart", "qid": "cart.open"},
        {"from": "cart", "to": "done", "qid": "checkout.submit"},
    ],
}


def inputs(
    tmp_path: Path,
    requirements: dict[str, Any] | None = None,
    inventory: dict[str, Any] | None = None,
    graph: dict[str, Any] | None = None,
) -> JourneyInputs:
    return JourneyInputs(
        write_json(tmp_path / "fixture.json", FIXTURE),
        write_json(tmp_path / "requirements.json", requirements or REQUIREMENTS),
        write_json(tmp_path / "inventory.json", inventory or INVENTORY),
        write_json(tmp_path / "graph.json", graph or GRAPH),
    )


def plan_of(paths: JourneyInputs) -> JourneyPlan:
    result = plan_journeys(paths)
    assert result.errors == [] and result.plan is not None
    return result.plan


def cli_args(paths: JourneyInputs, output: Path) -> list[str]:
    return [
        "plan-journeys",
        "--fixture",
        str(paths.fixture),
        "--requirements",
        str(paths.requirements),
        "--interaction-inventory",
        str(paths.inventory),
        "--state-graph",
        str(paths.state_graph),
        "--output",
        str(output),
    ]


def test_each_binding_state(tmp_path: Path) -> None:
    plan = plan_of(inputs(tmp_path))
    status = {j.requirement_id: j.status for j in plan.journeys}
    assert status == {
        "R-bound": "BOUND",
        "R-partial": "PARTIALLY_BOUND",
        "R-unbound": "UNBOUND",
        "R-na": "NOT_APPLICABLE",
    }
    bound = plan.journeys[0]
    assert [s.transitions for s in bound.steps] == [["home -> cart"], ["cart -> done"]]
    partial = plan.journeys[1]
    assert partial.missing_qids == ["search.go"]
    assert partial.steps[1].reason == "the interaction inventory did not observe this QID"
    summary = plan.summary
    assert (summary.bound, summary.partially_bound, summary.unbound, summary.not_applicable) == (
        1,
        1,
        1,
        1,
    )


def test_a_requirement_with_no_control_is_unbound(tmp_path: Path) -> None:
    requirements = copy.deepcopy(REQUIREMENTS)
    requirements["requirements"] = [{"id": "R", "oracles": [TEXT_ORACLE]}]
    (journey,) = plan_of(inputs(tmp_path, requirements)).journeys
    assert journey.status == "UNBOUND" and journey.steps == []


def test_to_state_must_be_reached_through_the_state_graph(tmp_path: Path) -> None:
    requirements = copy.deepcopy(REQUIREMENTS)
    requirements["requirements"] = [
        {"id": "R1", "controls": [{"qid": "cart.open", "to_state": "done"}]},
        {"id": "R2", "controls": [{"qid": "cart.open", "to_state": "nowhere"}]},
        {"id": "R3", "controls": [{"qid": "cart.open", "to_state": "cart"}]},
    ]
    journeys = plan_of(inputs(tmp_path, requirements)).journeys
    assert [j.status for j in journeys] == ["UNBOUND", "UNBOUND", "BOUND"]
    assert journeys[0].steps[0].reason == (
        "the state graph has no transition on this QID into 'done'"
    )
    assert journeys[1].steps[0].reason == "state 'nowhere' is not in the state graph"


def test_selectors_recorded_by_the_crawler_are_never_used_for_binding(tmp_path: Path) -> None:
    requirements = copy.deepcopy(REQUIREMENTS)
    requirements["requirements"] = [{"id": "R", "controls": [{"qid": "cart"}]}]
    (journey,) = plan_of(inputs(tmp_path, requirements)).journeys  # inventory has "#cart"
    assert journey.status == "UNBOUND"


def test_weak_oracles(tmp_path: Path) -> None:
    requirements = copy.deepcopy(REQUIREMENTS)
    requirements["requirements"] = [
        {"id": "none", "controls": [{"qid": "cart.open"}]},
        {"id": "exit", "controls": [{"qid": "cart.open"}], "oracles": [{"kind": "exit_code"}]},
        {
            "id": "seen",
            "controls": [{"qid": "cart.open"}],
            "oracles": [{"kind": "visible", "qid": "cart.open"}, {"kind": "exit_code"}],
        },
        {"id": "strong", "controls": [{"qid": "cart.open"}], "oracles": [TEXT_ORACLE]},
        {"id": "na", "applicable": False, "not_applicable_reason": "later"},
    ]
    plan = plan_of(inputs(tmp_path, requirements))
    assert plan.weak_oracles == ["none", "exit", "seen"]
    assert plan.summary.weak_oracles == 3


def test_claim_traceability_and_unknown_claims(tmp_path: Path) -> None:
    plan = plan_of(inputs(tmp_path))
    traces = {
        t.claim_id: (t.requirement_ids, t.bound_requirement_ids) for t in plan.claim_traceability
    }
    assert traces == {
        "C-checkout": (["R-bound"], ["R-bound"]),
        "C-search": (["R-partial"], []),
        "C-refund": ([], []),
    }
    assert plan.untraced_critical_claims == ["C-refund"]
    partial = plan.journeys[1]
    assert (partial.claim_ids, partial.unknown_claim_ids) == (["C-search"], ["C-unknown"])
    (finding,) = [f for f in plan.findings if f.code == "AE-JOURNEY-UNKNOWN-CLAIM"]
    assert finding.severity == "warning"
    assert finding.pointer == "/requirements/1/claim_ids/1" and finding.line is not None
    assert plan.journeys[0].seam_ids == ["S-pay"]


def test_missing_critical_journeys_and_exit_codes(tmp_path: Path) -> None:
    requirements = copy.deepcopy(REQUIREMENTS)
    requirements["requirements"][1]["criticality"] = "critical"  # PARTIALLY_BOUND
    requirements["requirements"][2]["criticality"] = "critical"  # UNBOUND
    paths = inputs(tmp_path, requirements)
    plan = plan_of(paths)
    assert [
        (m.requirement_id, m.status, m.missing_qids) for m in plan.missing_critical_journeys
    ] == [
        ("R-partial", "PARTIALLY_BOUND", ["search.go"]),
        ("R-unbound", "UNBOUND", ["refund.start"]),
    ]
    assert not plan.summary.critical_bound
    output = tmp_path / "plan.json"
    assert CliRunner().invoke(cli, cli_args(paths, output)).exit_code == 1
    assert CliRunner().invoke(cli, [*cli_args(paths, output), "--report-only"]).exit_code == 0
    ok = inputs(tmp_path)  # only R-bound is critical (R-na is not applicable)
    result = CliRunner().invoke(cli, cli_args(ok, output))
    assert result.exit_code == 0, result.output
    assert "critical requirements bound: yes (exit 0)" in result.stdout


def test_plan_document_hashes_and_unlinked_controls(tmp_path: Path) -> None:
    paths = inputs(tmp_path)
    output = tmp_path / "plan.json"
    scaffold = tmp_path / "scaffold.json"
    result = CliRunner().invoke(cli, [*cli_args(paths, output), "--scaffold-output", str(scaffold)])
    assert result.exit_code == 0, result.output
    document = json.loads(output.read_text())
    schema = json.loads((REPO / "schemas" / "journey_plan.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["schema"] == "agentic_evals.journey_plan.v1"
    assert {i["role"]: i["sha256"] for i in document["inputs"]} == {
        role: hashlib.sha256(path.read_bytes()).hexdigest()
        for role, path in zip(
            ("fixture", "requirements", "interaction_inventory", "state_graph"), paths, strict=True
        )
    }
    assert document["unlinked_controls"] == ["footer.link"]
    fragment = json.loads(scaffold.read_text())
    schema = json.loads((REPO / "schemas" / "journey_scaffold.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(fragment)
    (case,) = fragment["cases"]  # BOUND journeys only
    assert case["name"] == "journey-R-bound" and case["required"] is True
    assert case["env"]["AGENTIC_EVALS_JOURNEY_QIDS"] == "cart.open checkout.submit"
    assert (case["supports_claims"], case["seams"]) == (["C-checkout"], ["S-pay"])
    Case.model_validate(case, strict=True)


@pytest.mark.parametrize(
    ("control", "pointer", "value"),
    [
        ({"selector": "#buy"}, "/requirements/0/controls/0/selector", "'#buy'"),
        (
            {"qid": "ok.qid", "xpath": "//button[2]"},
            "/requirements/0/controls/0/xpath",
            "'//button[2]'",
        ),
        ({"qid": "button:nth-child(2)"}, "/requirements/0/controls/0/qid", "'button:nth-child(2)'"),
        ({"qid": ".btn-primary"}, "/requirements/0/controls/0/qid", "'.btn-primary'"),
        ("#raw", "/requirements/0/controls/0", "'#raw'"),
    ],
)
def test_selector_fallbacks_are_rejected_with_the_value_named(
    tmp_path: Path, control: object, pointer: str, value: str
) -> None:
    requirements = {
        "schema": "agentic_evals.requirements.v1",
        "requirements": [{"id": "R", "controls": [control]}],
    }
    paths = inputs(tmp_path, requirements)
    output = tmp_path / "plan.json"
    output.write_text("previous")
    result = CliRunner().invoke(cli, cli_args(paths, output))
    assert result.exit_code == 2
    assert output.read_text() == "previous"
    (line,) = [ln for ln in result.stderr.splitlines() if "AE-JOURNEY-SELECTOR" in ln]
    assert f" {pointer} AE-JOURNEY-SELECTOR error: " in line and value in line
    assert line.startswith(f"{paths.requirements}:")


def test_selectors_in_the_state_graph_are_rejected_too(tmp_path: Path) -> None:
    graph = copy.deepcopy(GRAPH)
    graph["transitions"][0]["qid"] = "div > button"
    result = plan_journeys(inputs(tmp_path, graph=graph))
    assert result.plan is None
    assert [(f.code, f.pointer) for f in result.errors] == [
        ("AE-JOURNEY-SELECTOR", "/transitions/0/qid")
    ]


@pytest.mark.parametrize(
    ("which", "mutate", "code", "pointer"),
    [
        ("requirements", lambda d: d.update(schema="v0"), "AE-SCHEMA-VALUE", "/schema"),
        (
            "requirements",
            lambda d: d["requirements"].append({"id": "R-bound"}),
            "AE-SCHEMA-DUPLICATE",
            "/requirements/4/id",
        ),
        (
            "requirements",
            lambda d: d["requirements"][3].pop("not_applicable_reason"),
            "AE-SCHEMA-REQUIRED",
            "/requirements/3",
        ),
        (
            "requirements",
            lambda d: d["requirements"][0].update(claims=["C"]),
            "AE-SCHEMA-UNKNOWN",
            "/requirements/0/claims",
        ),
        (
            "graph",
            lambda d: d["transitions"][0].update(to="gone"),
            "AE-JOURNEY-REFERENCE",
            "/transitions/0/to",
        ),
        ("graph", lambda d: d.update(initial="gone"), "AE-JOURNEY-REFERENCE", "/initial"),
        ("inventory", lambda d: d.pop("controls"), "AE-SCHEMA-REQUIRED", ""),
    ],
)
def test_invalid_inputs_are_rejected(
    tmp_path: Path, which: str, mutate: Any, code: str, pointer: str
) -> None:
    documents = {
        "requirements": copy.deepcopy(REQUIREMENTS),
        "inventory": copy.deepcopy(INVENTORY),
        "graph": copy.deepcopy(GRAPH),
    }
    mutate(documents[which])
    result = plan_journeys(inputs(tmp_path, **documents))
    assert result.plan is None
    assert (code, pointer) in [(f.code, f.pointer) for f in result.errors], result.errors


def test_unreadable_input_and_rejected_fixture(tmp_path: Path) -> None:
    paths = inputs(tmp_path)
    result = plan_journeys(paths._replace(inventory=tmp_path / "absent.json"))
    assert [f.code for f in result.errors] == ["AE-FILE-UNREADABLE"]
    write_json(paths.fixture, {"version": 2})
    result = plan_journeys(paths)
    assert result.plan is None and {f.code for f in result.errors} == {"AE-SCHEMA-REQUIRED"}


def test_unobserved_transitions_are_warnings(tmp_path: Path) -> None:
    graph = copy.deepcopy(GRAPH)
    graph["transitions"].append({"from": "home", "to": "home", "qid": "ghost"})
    plan = plan_of(inputs(tmp_path, graph=graph))
    assert [
        (f.code, f.pointer, f.severity) for f in plan.findings if f.code.endswith("UNOBSERVED")
    ] == [("AE-JOURNEY-UNOBSERVED", "/transitions/2/qid", "warning")]


def test_requirements_schema_and_model_agree() -> None:
    schema = json.loads((REPO / "schemas" / "requirements.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate(REQUIREMENTS)
    RequirementsDocument.model_validate(REQUIREMENTS, strict=True)
    bad = copy.deepcopy(REQUIREMENTS)
    bad["requirements"][0]["controls"][0]["qid"] = "#cart"
    assert list(validator.iter_errors(bad))
