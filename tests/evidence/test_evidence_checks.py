"""What each check can prove: one table, read alike by the gate, qualification and coverage."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals.contract.models import Case
from agentic_evals.evidence.checks import (
    case_checks,
    claims_with_own_artifacts,
    oracles_that_can_fail,
    readback_oracles,
)


def make(expected: dict[str, Any], **fields: Any) -> Case:
    body = {"name": "c", "type": "positive", "command": ["prog"], "expected": expected, **fields}
    return Case.model_validate(body, strict=True)


@pytest.mark.parametrize(
    ("expected", "fields", "oracles"),
    [
        ({"exit_code": 0}, {}, []),
        ({"exit_code": 0}, {"type": "negative"}, []),
        ({"exit_code": 0, "stdout_contains": [""]}, {}, []),
        ({"exit_code": 0, "stdout_excludes": []}, {}, []),
        ({"exit_code": 0, "workspace_changes": {}}, {}, []),
        ({"exit_code": 2}, {"type": "negative"}, ["exit_code"]),
        ({"exit_code": 0, "stdout_contains": ["ok"]}, {}, ["stdout_contains"]),
        ({"exit_code": 0, "stderr_contains": ["warned"]}, {}, ["stderr_contains"]),
        ({"exit_code": 0, "stdout_excludes": ["stale"]}, {}, ["stdout_excludes"]),
        ({"exit_code": 0, "stderr_excludes": ["Traceback"]}, {}, ["stderr_excludes"]),
        ({"exit_code": 0, "artifacts": [{"path": "out.json"}]}, {}, ["artifacts"]),
        ({"exit_code": 0, "workspace_changes": {"only": True}}, {}, ["workspace_changes"]),
        ({"exit_code": 0}, {"must_exercise": ["prog"]}, ["must_exercise"]),
        ({"exit_code": 0}, {"readback": True}, ["readback"]),
        (
            {"exit_code": 1, "stdout_contains": ["denied"]},
            {"type": "adversarial"},
            ["exit_code", "stdout_contains"],
        ),
    ],
)
def test_an_oracle_that_can_fail(
    expected: dict[str, Any], fields: dict[str, Any], oracles: list[str]
) -> None:
    assert oracles_that_can_fail(case_checks(make(expected, **fields))) == tuple(oracles)


@pytest.mark.parametrize(
    ("expected", "fields", "readbacks"),
    [
        ({"exit_code": 0, "stdout_contains": ["done"]}, {}, ()),
        ({"exit_code": 0, "stdout_excludes": ["Traceback", "ERROR:"]}, {}, ()),
        ({"exit_code": 0, "stdout_excludes": ["status: degraded"]}, {}, ("stdout_excludes",)),
        ({"exit_code": 0, "stderr_excludes": ["status: degraded"]}, {}, ()),
        ({"exit_code": 0, "artifacts": [{"path": "out.json", "absent": True}]}, {}, ("artifacts",)),
        ({"exit_code": 0, "workspace_changes": {}}, {}, ()),
        ({"exit_code": 0, "workspace_changes": {"added": ["out/*"]}}, {}, ("workspace_changes",)),
        ({"exit_code": 0}, {"readback": True}, ("readback",)),
        ({"exit_code": 0}, {"must_exercise": ["prog"]}, ()),
    ],
)
def test_what_reads_state_back(
    expected: dict[str, Any], fields: dict[str, Any], readbacks: tuple[str, ...]
) -> None:
    assert readback_oracles(case_checks(make(expected, **fields))) == readbacks


def test_an_empty_workspace_changes_assertion_is_neither_a_readback_nor_a_check() -> None:
    # It asserts nothing: a program that does nothing satisfies it.
    checks = case_checks(make({"exit_code": 0, "workspace_changes": {}}))
    assert [(c.oracle, c.can_fail, c.reads_back) for c in checks] == [
        ("exit_code", False, False),
        ("workspace_changes", False, False),
    ]


def test_every_check_is_located_by_its_pointer() -> None:
    case = make(
        {"exit_code": 1, "stdout_contains": ["a", "b"], "artifacts": [{"path": "x"}]},
        must_exercise=["prog"],
        readback=True,
    )
    assert [c.pointer for c in case_checks(case)] == [
        "/expected/exit_code",
        "/expected/stdout_contains/0",
        "/expected/stdout_contains/1",
        "/expected/artifacts/0",
        "/must_exercise/0",
        "/readback",
    ]


EXPECTED = st.fixed_dictionaries(
    {"exit_code": st.integers(0, 3)},
    optional={
        "stdout_contains": st.lists(st.sampled_from(["", "ok", "done"]), max_size=2),
        "stdout_excludes": st.lists(st.sampled_from(["", "Traceback", "stale state"]), max_size=2),
        "stderr_excludes": st.lists(st.sampled_from(["", "warn"]), max_size=2),
        "artifacts": st.lists(st.just({"path": "out.json"}), max_size=1),
        "workspace_changes": st.fixed_dictionaries(
            {}, optional={"added": st.lists(st.just("*"), max_size=1), "only": st.booleans()}
        ),
    },
)


@given(expected=EXPECTED, readback=st.booleans())
def test_a_readback_is_always_a_check_that_can_fail(
    expected: dict[str, Any], readback: bool
) -> None:
    checks = case_checks(make(expected, readback=readback))
    assert all(check.can_fail for check in checks if check.reads_back)
    assert set(readback_oracles(checks)) <= set(oracles_that_can_fail(checks))


@pytest.mark.parametrize(
    ("paths", "own"),
    [
        (["out/a.json", "out/b.json"], {"a", "b"}),
        (["out/a/report.json", "out/b.json"], {"a", "b"}),
        (["out/a/b.json"], set()),  # it names both claims: it counts for neither
        (["out/a.json", "out/a/b.json"], {"a"}),
        (["out/a.b.json"], set()),  # no component equals a claim id
    ],
)
def test_an_artifact_counts_for_a_claim_only_when_it_names_that_claim_alone(
    paths: list[str], own: set[str]
) -> None:
    case = make({"exit_code": 0, "artifacts": [{"path": path} for path in paths]})
    assert claims_with_own_artifacts(case, {"a", "b"}) == own


def test_an_absent_artifact_names_no_claim() -> None:
    case = make({"exit_code": 0, "artifacts": [{"path": "a.json", "absent": True}]})
    assert claims_with_own_artifacts(case, {"a"}) == frozenset()
