"""Rules beyond the schema, each checked through load_fixture with code and pointer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.contract.rules.semantic import semantic_findings
from agentic_evals.evidence.gates import load_fixture

WriteFixture = Callable[..., Path]

CLAIM = {
    "id": "demo.core",
    "claim_semantics": "control_flow",
    "evidence_required": {"live_e2e": True},
}


def found(write_fixture: WriteFixture, doc: dict[str, Any]) -> set[tuple[str, str, str]]:
    result = load_fixture(write_fixture(doc))
    return {(f.code, f.pointer, f.severity) for f in result.findings}


def artifact_doc(base_doc: dict[str, Any], *checks: dict[str, Any]) -> dict[str, Any]:
    base_doc["cases"][0]["expected"]["artifacts"] = list(checks)
    return base_doc


def test_base_fixture_is_clean(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    result = load_fixture(write_fixture(base_doc))
    assert result.findings == []
    assert result.model is not None


def test_duplicate_case_names(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    base_doc["cases"][1]["name"] = "live-run"
    assert ("AE-SCHEMA-DUPLICATE", "/cases/1/name", "error") in found(write_fixture, base_doc)


def test_duplicate_claim_and_seam_ids(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["capability_claims"] = [CLAIM, CLAIM]
    base_doc["seams"] = [{"seam_id": "s"}, {"seam_id": "s"}]
    result = found(write_fixture, base_doc)
    assert ("AE-SCHEMA-DUPLICATE", "/capability_claims/1/id", "error") in result
    assert ("AE-SCHEMA-DUPLICATE", "/seams/1/seam_id", "error") in result


def test_supports_undeclared_claim_is_an_error(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["capability_claims"] = [CLAIM]
    base_doc["cases"][0]["supports_claims"] = ["demo.core", "demo.cor"]
    result = load_fixture(write_fixture(base_doc))
    (finding,) = result.errors
    assert (finding.code, finding.pointer) == ("AE-SCHEMA-REFERENCE", "/cases/0/supports_claims/1")
    assert "did you mean 'demo.core'?" in finding.message


def test_undeclared_seam_is_a_warning_when_seams_are_declared(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][0]["seams"] = ["io.parse"]
    assert found(write_fixture, base_doc) == set()  # no seams declared: nothing to check against
    base_doc["seams"] = [{"seam_id": "io.write"}]
    assert found(write_fixture, base_doc) == {
        ("AE-SCHEMA-REFERENCE", "/cases/0/seams/0", "warning")
    }


@pytest.mark.parametrize("criticality", [None, "critical"])
def test_critical_claim_needs_semantics(
    write_fixture: WriteFixture, base_doc: dict[str, Any], criticality: str | None
) -> None:
    claim: dict[str, Any] = {"id": "c", "evidence_required": {"live_e2e": True}}
    if criticality:
        claim["criticality"] = criticality
    base_doc["capability_claims"] = [claim]
    result = load_fixture(write_fixture(base_doc))
    assert [(f.code, f.pointer) for f in result.errors] == [
        ("AE-SCHEMA-CLAIM", "/capability_claims/0")
    ]
    assert "claim_semantics" in result.errors[0].message


def test_non_critical_claim_needs_no_semantics(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    claim = {"id": "c", "criticality": "optional", "evidence_required": ["deterministic"]}
    base_doc["capability_claims"] = [claim]
    assert found(write_fixture, base_doc) == set()


def test_value_bearing_claim_needs_domain_profile(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["capability_claims"] = [{**CLAIM, "claim_semantics": "value_bearing"}]
    # Without a value-representation seam it also warns (see tests/claims/test_claim_rules.py).
    seam = ("AE-CLAIM-SEAM", "/capability_claims/0", "warning")
    assert found(write_fixture, base_doc) == {
        ("AE-SCHEMA-CLAIM", "/capability_claims/0", "error"),
        seam,
    }
    base_doc["capability_claims"][0]["domain_profile"] = "json-scalar-v1"
    assert found(write_fixture, base_doc) == {seam}


@pytest.mark.parametrize("required", [{}, {"live_e2e": False, "deterministic": False}])
def test_evidence_required_must_require_something(
    write_fixture: WriteFixture, base_doc: dict[str, Any], required: dict[str, bool]
) -> None:
    base_doc["capability_claims"] = [{**CLAIM, "evidence_required": required}]
    assert found(write_fixture, base_doc) == {
        ("AE-SCHEMA-CLAIM", "/capability_claims/0/evidence_required", "error")
    }


def test_must_exercise_must_appear_in_the_command(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][0]["must_exercise"] = ["run.sh", "psql"]
    assert found(write_fixture, base_doc) == {
        ("AE-SCHEMA-MUST-EXERCISE", "/cases/0/must_exercise/1", "error")
    }


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        ({}, ("AE-SCHEMA-REQUIRED", "")),
        ({"path": "a", "glob": "*.json"}, ("AE-SCHEMA-CONFLICT", "")),
        ({"path": "a", "absent": True, "exists": True}, ("AE-SCHEMA-CONFLICT", "")),
        ({"path": "a", "equals": 1}, ("AE-SCHEMA-REQUIRED", "")),
        ({"path": "a", "equals": None}, ("AE-SCHEMA-REQUIRED", "")),
        ({"path": "a", "is_artifact": True}, ("AE-SCHEMA-REQUIRED", "")),
        ({"path": "a", "equals_artifact": {"path": "b"}}, ("AE-SCHEMA-REQUIRED", "")),
        (
            {"path": "a", "json_pointer": "/x", "equals": 1, "is_artifact": True},
            ("AE-SCHEMA-CONFLICT", ""),
        ),
        (
            {"path": "a", "json_pointer": "x", "is_artifact": True},
            ("AE-SCHEMA-VALUE", "/json_pointer"),
        ),
        (
            {
                "path": "a",
                "json_pointer": "/x",
                "equals_artifact": {"path": "b", "json_pointer": "y"},
            },
            ("AE-SCHEMA-VALUE", "/equals_artifact/json_pointer"),
        ),
        ({"path": "a", "content_regex": "(unclosed"}, ("AE-SCHEMA-VALUE", "/content_regex")),
        (
            {"path": "a", "json_pointer": "", "equals_artifact": {"path": "b", "compare": "bytes"}},
            ("AE-SCHEMA-CONFLICT", "/json_pointer"),
        ),
        (
            {"path": "a", "equals_artifact": {"path": "b", "compare": "text", "json_pointer": ""}},
            ("AE-SCHEMA-CONFLICT", "/equals_artifact/json_pointer"),
        ),
        (
            {"path": "a", "equals_artifact": {"path": "b", "compare": "json"}},
            ("AE-SCHEMA-REQUIRED", ""),
        ),
        (
            {"path": "a", "json_pointer": "", "equals_artifact": {"path": "b", "compare": "yaml"}},
            ("AE-SCHEMA-VALUE", "/equals_artifact/compare"),
        ),
        ({"path": "a", "is_artifact": False}, ("AE-SCHEMA-REQUIRED", "")),
    ],
)
def test_artifact_check_rules(
    write_fixture: WriteFixture,
    base_doc: dict[str, Any],
    check: dict[str, Any],
    expected: tuple[str, str],
) -> None:
    code, suffix = expected
    result = found(write_fixture, artifact_doc(base_doc, check))
    assert result == {(code, "/cases/0/expected/artifacts/0" + suffix, "error")}


def test_valid_artifact_checks_pass(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    checks: list[dict[str, Any]] = [
        {"path": "out.json", "json_pointer": "/a/0", "equals": None},
        {"path": "out.json", "json_pointer": "", "is_artifact": True},
        {"glob": "reports/**/*.json", "json_pointer": "/ok", "equals_artifact": {"path": "b.json"}},
        {"path": "gone.txt", "absent": True, "exists": False},
        {"path": "log.txt", "content_regex": "^ok$", "content_excludes": "Traceback"},
        {"path": "copy.bin", "equals_artifact": {"path": "orig.bin", "compare": "bytes"}},
        {"path": "out.txt", "equals_artifact": {"path": "${FIXTURE_DIR}/x", "compare": "text"}},
        {"path": "out.json", "json_pointer": "/error", "is_artifact": False},
    ]
    assert found(write_fixture, artifact_doc(base_doc, *checks)) == set()


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("artifact", "/etc/passwd"),
        ("artifact", "../../outside.json"),
        ("artifact", "a/../../../x"),
        ("glob", "**/../../../*.json"),
        ("cwd", "/tmp"),
        ("cwd", "../.."),
        ("workspace", "../../elsewhere"),
        ("reference", "/abs.json"),
    ],
)
def test_paths_that_escape_are_rejected(
    write_fixture: WriteFixture, base_doc: dict[str, Any], where: str, value: str
) -> None:
    case = base_doc["cases"][1]
    pointer = {
        "artifact": "/cases/1/expected/artifacts/0/path",
        "glob": "/cases/1/expected/artifacts/0/glob",
        "cwd": "/cases/1/cwd",
        "workspace": "/workspace/input",
        "reference": "/cases/1/expected/artifacts/0/equals_artifact/path",
    }[where]
    if where in ("artifact", "glob"):
        key = "glob" if where == "glob" else "path"
        case["expected"]["artifacts"] = [{key: value}]
    elif where == "reference":
        ref = {"path": value}
        case["expected"]["artifacts"] = [{"path": "a", "json_pointer": "", "equals_artifact": ref}]
    elif where == "cwd":
        case["cwd"] = value
    else:
        base_doc["workspace"] = {"input": value}
    assert ("AE-PATH-ESCAPE", pointer, "error") in found(write_fixture, base_doc)


def test_paths_inside_the_skill_tree_are_allowed(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    case = base_doc["cases"][1]
    case["cwd"] = ".."  # from fixtures/ to the skill root: still inside the tree
    case["command"] = ["bash", "run.sh"]
    case["expected"]["artifacts"] = [{"path": "../out/result.json"}, {"glob": "../**/*.log"}]
    assert found(write_fixture, base_doc) == set()


def test_without_a_fixtures_directory_the_root_is_the_fixture_directory(tmp_path: Path) -> None:
    doc = {"cases": [{"cwd": "..", "expected": {"artifacts": [{"path": "../x"}]}}]}
    pointers = {f.pointer for f in semantic_findings(doc, tmp_path / "skill")}
    assert pointers == {"/cases/0/cwd", "/cases/0/expected/artifacts/0/path"}
    assert semantic_findings(doc, tmp_path / "skill" / "fixtures") == []


def test_workspace_paths_resolve_inside_the_workspace(tmp_path: Path) -> None:
    doc = {
        "workspace": {"input": "ws"},
        "cases": [{"cwd": "..", "expected": {"artifacts": [{"path": "out.json"}]}}],
    }
    found_pointers = [f.pointer for f in semantic_findings(doc, tmp_path / "fixtures")]
    assert found_pointers == ["/cases/0/cwd"]


def test_threat_assumption_only_on_adversarial_cases(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    threat = {"model": "m", "subverted_by": ["x"], "adversarial_goal": "g"}
    base_doc["cases"][1]["threat_assumption"] = threat
    assert found(write_fixture, base_doc) == {
        ("AE-SCHEMA-VALUE", "/cases/1/threat_assumption", "error")
    }
    base_doc["cases"][1]["type"] = "adversarial"
    assert found(write_fixture, base_doc) == set()


def test_rules_survive_documents_of_the_wrong_shape(tmp_path: Path) -> None:
    documents: list[object] = [[], {"cases": "x"}, {"cases": [1, None, {"expected": []}]}]
    for doc in [*documents, {"seams": {}}]:
        assert semantic_findings(doc, tmp_path) == []
