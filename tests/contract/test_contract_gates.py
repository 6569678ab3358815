"""The load-time gates: anti-slop and compliance, judged structurally."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.contract.load import LoadResult
from agentic_evals.evidence.gates import load_fixture

WriteFixture = Callable[..., Path]


def load(write_fixture: WriteFixture, doc: dict[str, Any], **kwargs: bool) -> LoadResult:
    return load_fixture(write_fixture(doc), **kwargs)


def codes(result: LoadResult) -> list[tuple[str, str]]:
    return [(f.code, f.pointer) for f in result.errors]


def message(result: LoadResult, code: str) -> str:
    return next(f.message for f in result.errors if f.code == code)


def test_base_fixture_passes_the_gates(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    result = load(write_fixture, base_doc)
    assert result.ok and result.model is not None


@pytest.mark.parametrize("trials", [1])
def test_a_single_trial_is_not_evidence(
    write_fixture: WriteFixture, base_doc: dict[str, Any], trials: int
) -> None:
    base_doc["trials"] = trials
    assert codes(load(write_fixture, base_doc)) == [("AE-SLOP-TRIALS", "/trials")]
    base_doc["trials"] = 2
    assert codes(load(write_fixture, base_doc)) == []


def test_all_positive_is_self_serving(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][1]["type"] = "positive"
    assert codes(load(write_fixture, base_doc)) == [("AE-SLOP-NO-NEGATIVE", "/cases")]
    base_doc["cases"][1]["type"] = "adversarial"
    assert codes(load(write_fixture, base_doc)) == []


def test_optional_cases_do_not_satisfy_the_gate(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    # Optional only to escape the gate: it may fail while the run is READY, so it proves nothing.
    base_doc["cases"][1]["required"] = False
    result = load(write_fixture, base_doc)
    assert codes(result) == [("AE-SLOP-NO-NEGATIVE", "/cases")]
    assert "(1 optional one(s) prove nothing)" in message(result, "AE-SLOP-NO-NEGATIVE")
    base_doc["cases"][1]["required"] = True
    base_doc["cases"][0]["required"] = False
    result = load(write_fixture, base_doc)
    assert codes(result) == [("AE-SLOP-NO-REAL-WORLD", "/cases")]
    assert "no required case declares real_world: true" in message(result, "AE-SLOP-NO-REAL-WORLD")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"real_world": False}, "no required case declares real_world: true"),
        ({"mocked": True}, "is mocked"),
        ({"uses_stub": True}, "uses stubs"),
        ({"command": ["bash", "../run.sh", "fixtures/sample.json"]}, "stub inputs"),
        ({"command": ["bash", "-c", "../run.sh < fixtures/in.json"]}, "stub inputs"),
        ({"command": ["bash", "../missing.sh"]}, "does not exist"),
        ({"command": ["bash", "-c", "echo would run ../run.sh"]}, "trivial"),
        ({"command": ["grep", "e2e", "../run.sh"]}, "runs 'grep'"),
    ],
)
def test_a_real_world_case_must_reach_a_live_path_without_stubs(
    write_fixture: WriteFixture, base_doc: dict[str, Any], change: dict[str, Any], why: str
) -> None:
    base_doc["cases"][0].update(change)
    result = load(write_fixture, base_doc)
    assert ("AE-SLOP-NO-REAL-WORLD", "/cases") in codes(result)
    assert why in message(result, "AE-SLOP-NO-REAL-WORLD")


@pytest.mark.parametrize(
    "command",
    [
        ["bash", "-c", "cd .. && bash run.sh --x"],
        ["python", "-m", "pytest", "-q"],
        ["curl", "-fsS", "http://127.0.0.1:9/health"],
        ["env", "MODE=live", "timeout", "60", "../run.sh"],
    ],
)
def test_live_paths_satisfy_the_real_world_gate(
    write_fixture: WriteFixture, base_doc: dict[str, Any], command: list[str]
) -> None:
    base_doc["cases"][0]["command"] = command
    assert codes(load(write_fixture, base_doc)) == []


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ([":", "run.sh"], "':'"),
        (["echo", "e2e"], "'echo'"),
        (["python", "-c", "print(1)"], "'python -c'"),
        (["bash", "-c", "echo would run run.sh"], "'echo'"),
        (["true"], "'true'"),
        (["bash", "-c", "test -f ../run.sh && cat ../run.sh"], "'test', 'cat'"),
    ],
)
def test_trivial_cases_are_rejected_one_finding_each(
    write_fixture: WriteFixture, base_doc: dict[str, Any], command: list[str], program: str
) -> None:
    base_doc["cases"][1]["command"] = command
    extra = {
        "name": "also-trivial",
        "type": "negative",
        "command": ["false"],
        "expected": {"exit_code": 1},
    }
    base_doc["cases"].append(extra)
    result = load(write_fixture, base_doc)
    assert codes(result) == [
        ("AE-SLOP-TRIVIAL", "/cases/1/command"),
        ("AE-SLOP-TRIVIAL", "/cases/2/command"),
    ]
    first = result.errors[0].message
    assert f"runs {program} which" in first and "'rejects-bad-input'" in first


def test_mentioning_run_sh_explains_what_runs(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][1]["command"] = [":", "run.sh"]
    result = load(write_fixture, base_doc)
    assert "`: run.sh` runs ':' which is trivial" in message(result, "AE-SLOP-TRIVIAL")


def test_every_violation_is_listed(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    base_doc["trials"] = 1
    for case in base_doc["cases"]:
        case.update(type="positive", command=["echo", "ok"])
    result = load(write_fixture, base_doc)
    assert sorted(codes(result)) == [
        ("AE-SLOP-NO-NEGATIVE", "/cases"),
        ("AE-SLOP-NO-REAL-WORLD", "/cases"),
        ("AE-SLOP-TRIALS", "/trials"),
        ("AE-SLOP-TRIVIAL", "/cases/0/command"),
        ("AE-SLOP-TRIVIAL", "/cases/1/command"),
    ]
    assert result.model is None


@pytest.mark.parametrize("kind", ["runner_selftest", "scaffold"])
def test_exempt_eval_kinds_skip_the_gates(
    write_fixture: WriteFixture, base_doc: dict[str, Any], kind: str
) -> None:
    base_doc.update(trials=1, eval_kind=kind, eval_tier="compliance")
    base_doc["cases"] = [base_doc["cases"][0] | {"command": [":"], "real_world": False}]
    result = load(write_fixture, base_doc)
    assert result.ok
    base_doc["eval_kind"] = "skill"
    assert len(load(write_fixture, base_doc).errors) >= 4


def test_gates_false_skips_the_gates_but_not_the_rules(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["trials"] = 1
    assert codes(load(write_fixture, base_doc, gates=False)) == []
    base_doc["cases"][0]["name"] = base_doc["cases"][1]["name"]
    assert codes(load(write_fixture, base_doc, gates=False)) == [
        ("AE-SCHEMA-DUPLICATE", "/cases/1/name")
    ]


def test_gates_do_not_run_on_schema_errors(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["trials"] = 1
    base_doc["cases"][0]["expected"]["exit_code"] = "0"
    assert codes(load(write_fixture, base_doc)) == [
        ("AE-SCHEMA-TYPE", "/cases/0/expected/exit_code")
    ]


# --- compliance tier -----------------------------------------------------------------------


def compliance_doc(base_doc: dict[str, Any], sampler: list[str]) -> dict[str, Any]:
    base_doc["eval_tier"] = "compliance"
    base_doc["cases"].append(
        {"name": "fuzz", "type": "adversarial", "command": sampler, "expected": {"exit_code": 0}}
    )
    return base_doc


@pytest.mark.parametrize(
    "sampler",
    [
        ["../run.sh", "--samples", "50"],
        ["../run.sh", "--samples=64"],
        ["bash", "-c", "../run.sh --samples 50 --seed $RANDOM"],
        ["bash", "-c", "../run.sh --seed=$(date +%s) --samples=128"],
        ["bash", "-c", "S=$AGENTIC_EVALS_RUN_ID; ../run.sh --seed $S --samples 99"],
    ],
)
def test_compliant_fixture_passes(
    write_fixture: WriteFixture, base_doc: dict[str, Any], sampler: list[str]
) -> None:
    assert codes(load(write_fixture, compliance_doc(base_doc, sampler))) == []


def test_compliance_needs_a_strict_hostile_majority(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    doc = compliance_doc(base_doc, ["../run.sh", "--samples", "50"])
    doc["cases"][2]["type"] = "positive"  # 1 of 3 hostile
    assert codes(load(write_fixture, doc)) == [("AE-COMP-MAJORITY", "/cases")]
    doc["cases"].append(doc["cases"][1] | {"name": "another", "type": "adversarial"})
    assert codes(load(write_fixture, doc)) == [("AE-COMP-MAJORITY", "/cases")]  # 2 of 4: half
    doc["cases"][2]["type"] = "negative"
    # Cases 1 and 3 run one command: copies count once, so 2 distinct of 4 are no majority.
    assert codes(load(write_fixture, doc)) == [("AE-COMP-MAJORITY", "/cases")]
    doc["cases"][3]["command"] = [*doc["cases"][1]["command"], "--other"]
    assert codes(load(write_fixture, doc)) == []
    doc["cases"][3]["required"] = False  # an optional case makes no majority either
    assert codes(load(write_fixture, doc)) == [("AE-COMP-MAJORITY", "/cases")]


@pytest.mark.parametrize(
    ("sampler", "note"),
    [
        (["../run.sh", "--seed", "7"], "fixed --seed 7"),
        (["../run.sh", "--samples", "64", "--seed=7"], "fixed --seed 7"),
        (["bash", "-c", "S=7; ../run.sh --seed $S --samples 64"], "fixed --seed 7"),
        (["../run.sh", "--seed", "$RANDOM", "--samples", "64"], "without a shell"),
        (["bash", "-c", "echo --samples 64 $RANDOM; ../run.sh"], ""),
        (["../run.sh"], ""),
    ],
)
def test_fixed_or_mentioned_sampling_is_deterministic(
    write_fixture: WriteFixture, base_doc: dict[str, Any], sampler: list[str], note: str
) -> None:
    result = load(write_fixture, compliance_doc(base_doc, sampler))
    assert codes(result) == [("AE-COMP-NONDETERMINISTIC", "/cases")]
    assert note in message(result, "AE-COMP-NONDETERMINISTIC")


@pytest.mark.parametrize(
    ("sampler", "ok"),
    [
        (["../run.sh", "--samples", "49"], False),
        (["../run.sh", "--samples", "50"], True),
        (["../run.sh", "--samples=49"], False),
        (["../run.sh", "--samples=64"], True),
        (["bash", "-c", "../run.sh --seed $RANDOM"], False),
        (["bash", "-c", "../run.sh --samples $N --seed $RANDOM"], False),
        (["bash", "-c", "../run.sh --samples 50 --seed $RANDOM"], True),
    ],
)
def test_every_nondeterministic_case_names_at_least_50_samples(
    write_fixture: WriteFixture, base_doc: dict[str, Any], sampler: list[str], ok: bool
) -> None:
    result = load(write_fixture, compliance_doc(base_doc, sampler))
    assert codes(result) == ([] if ok else [("AE-COMP-SAMPLES", "/cases/2/command")])


def test_compliance_rules_apply_only_to_the_compliance_tier(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    doc = compliance_doc(base_doc, ["../run.sh", "--samples", "3"])
    del doc["eval_tier"]
    doc["cases"][2]["type"] = "positive"
    assert codes(load(write_fixture, doc)) == []
