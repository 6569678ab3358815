"""The null trial: which checks pass had the command done nothing, and what the case proves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, make_skill, trial_report
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals.contract.models import Fixture
from agentic_evals.coverage.guards import case_facts
from agentic_evals.evidence.facts import case_evidence, evidence_table
from agentic_evals.evidence.observed import observe, vacuous_pointers
from agentic_evals.evidence.qualification import declared_class
from agentic_evals.oracles.null_trial import _under

COMMITTED = {"run.sh": "#!/bin/sh\necho done > out.txt\necho done\n", "notes.md": "hello\n"}


def _facts(tmp_path: Path, expected: dict[str, Any], **fields: Any) -> Any:
    skill = make_skill(tmp_path / "skill", files=COMMITTED)
    document = fixture([case("c", command=["bash", "run.sh"], expected=expected, **fields)])
    document["skill_root"] = "."
    model = Fixture.model_validate(document)
    (facts,) = evidence_table(model, skill).values()
    return facts


@pytest.mark.parametrize(
    ("expected", "fields", "pointer"),
    [
        ({"exit_code": 0, "workspace_changes": {}}, {}, "/expected/workspace_changes"),
        ({"exit_code": 0, "artifacts": [{"path": "SKILL.md", "exists": True}]}, {}, None),
        ({"exit_code": 0, "artifacts": [{"path": ".", "exists": True}]}, {}, None),
        ({"exit_code": 0, "artifacts": [{"path": "SKILL.md", "min_bytes": 1}]}, {}, None),
        ({"exit_code": 0, "artifacts": [{"path": "never.txt", "absent": True}]}, {}, None),
        ({"exit_code": 0, "stdout_excludes": ["status: degraded"]}, {}, None),
        ({"exit_code": 0, "stdout_contains": [""]}, {}, None),
        ({"exit_code": 0, "stdout_regex": ["x*"]}, {}, None),
        ({"exit_code": 0}, {"readback": True}, "/readback"),
        ({"exit_code": 0, "workspace_changes": {"only": True}}, {}, "/expected/workspace_changes"),
    ],
)
def test_a_check_that_passes_before_the_command_runs_is_vacuous(
    tmp_path: Path, expected: dict[str, Any], fields: dict[str, Any], pointer: str | None
) -> None:
    facts = _facts(tmp_path, expected, **fields)
    name = next(key for key in expected if key != "exit_code") if pointer is None else None
    want = pointer or f"/expected/{name}/0"
    assert facts.vacuous_checks == (want,)
    assert facts.weak and facts.failing_oracles == () and facts.readback_oracles == ()


@pytest.mark.parametrize(
    "expected",
    [
        {"exit_code": 0, "stdout_contains": ["done"]},
        {"exit_code": 0, "stdout_regex": ["(?m)^done$"]},
        {"exit_code": 0, "artifacts": [{"path": "out.txt", "exists": True}]},
        {"exit_code": 0, "artifacts": [{"path": "notes.md", "absent": True}]},
        {"exit_code": 0, "artifacts": [{"path": "notes.md", "content_regex": "bye"}]},
        {"exit_code": 0, "workspace_changes": {"added": ["out.txt"]}},
    ],
)
def test_a_check_that_fails_on_the_null_trial_is_evidence(
    tmp_path: Path, expected: dict[str, Any]
) -> None:
    facts = _facts(tmp_path, expected)
    assert facts.vacuous_checks == () and not facts.weak


def test_readback_true_counts_only_beside_an_output_check_the_null_trial_fails(
    tmp_path: Path,
) -> None:
    shown = _facts(tmp_path / "a", {"exit_code": 0, "stdout_contains": ["done"]}, readback=True)
    assert shown.vacuous_checks == () and shown.readback_oracles == ("readback",)
    hidden = _facts(tmp_path / "b", {"exit_code": 0, "stdout_excludes": ["x"]}, readback=True)
    assert set(hidden.vacuous_checks) == {"/expected/stdout_excludes/0", "/readback"}


def test_the_exit_code_is_the_premise_never_named_and_never_evidence(tmp_path: Path) -> None:
    facts = _facts(tmp_path, {"exit_code": 3})
    assert facts.vacuous_checks == () and facts.weak and facts.failing_oracles == ()


def test_a_vacuous_check_beside_a_real_one_is_named_but_the_case_is_not_weak(
    tmp_path: Path,
) -> None:
    expected = {
        "exit_code": 0,
        "stdout_contains": ["done"],
        "artifacts": [{"path": "SKILL.md", "exists": True}],
    }
    facts = _facts(tmp_path, expected)
    assert facts.vacuous_checks == ("/expected/artifacts/0",) and not facts.weak
    assert vacuous_pointers(facts, 3) == ["/cases/3/expected/artifacts/0"]


def test_coverage_and_qualification_agree_on_a_vacuous_check(tmp_path: Path) -> None:
    # A committed file read back proves nothing: neither coverage nor live qualification count it.
    skill = make_skill(tmp_path / "skill", files=COMMITTED)
    hollow = case(
        "hollow",
        command=["bash", "run.sh"],
        expected={"exit_code": 0, "artifacts": [{"path": "notes.md", "content_regex": "hello"}]},
        seams=["s"],
        real_world=True,
    )
    document = fixture([hollow], skill="skill", skill_root=".")
    model = Fixture.model_validate(document)
    (facts,) = evidence_table(model, skill).values()
    (covered,) = case_facts(model, skill, "agentic_eval.json", "", [0])
    assert declared_class(facts.case) == "live_e2e"
    assert facts.readback_oracles == () == covered.oracles
    assert facts.disqualifiers == ["LIVE_NO_READBACK"]
    assert covered.weak_reasons == ("NO_FAILING_ORACLE",)


def test_a_check_is_vacuous_only_when_every_trial_null_trial_passed_it(tmp_path: Path) -> None:
    facts = _facts(tmp_path, {"exit_code": 0, "artifacts": [{"path": "out.txt", "exists": True}]})
    pointer = "/expected/artifacts/0"
    first = trial_report("s::c#1", null_trial_failures=[pointer])
    later = trial_report("s::c#2", null_trial_failures=[])  # saw the first trial's file
    assert observe(facts, "demo", [first, later]).vacuous_checks == ()
    both = observe(facts, "demo", [later, later])
    assert both.vacuous_checks == (pointer,) and both.weak
    assert both.disqualifiers == ["LIVE_NO_READBACK"]
    # Trials that recorded nothing leave the reading before the run.
    assert observe(facts, "demo", [trial_report()]).vacuous_checks == ()


def test_a_negative_case_shows_its_reason_only_with_a_specific_failing_check(
    tmp_path: Path,
) -> None:
    reason = _facts(tmp_path / "a", {"exit_code": 2, "stderr_contains": ["unknown flag --x"]})
    assert reason.case.type == "positive" and reason.reason_problem is None
    cases: dict[str, dict[str, Any]] = {
        "exit only": {"exit_code": 2},
        "missing program": {"exit_code": 127, "stderr_contains": ["nosuch"]},
        "generic marker": {"exit_code": 1, "stderr_contains": ["No such file or directory"]},
        "excludes only": {"exit_code": 0, "stdout_excludes": ["accepted"]},
    }
    for index, (label, expected) in enumerate(cases.items()):
        document = fixture([case("n", "negative", ["bash", "run.sh"], expected)], skill_root=".")
        skill = make_skill(tmp_path / f"s{index}", files=COMMITTED)
        (facts,) = evidence_table(Fixture.model_validate(document), skill).values()
        assert facts.reason_problem is not None, label
    shown = {"exit_code": 2, "stderr_contains": ["bad flag"]}
    document = fixture([case("n", "negative", ["bash", "run.sh"], shown)], skill_root=".")
    skill = make_skill(tmp_path / "ok", files=COMMITTED)
    (facts,) = evidence_table(Fixture.model_validate(document), skill).values()
    assert facts.reason_problem is None
    blind = trial_report(
        "s::n#1", exit_code=127, null_trial_failures=["/expected/stderr_contains/0"]
    )
    assert observe(facts, "demo", [blind]).reason_problem is not None


_SEGMENTS = st.lists(st.sampled_from(["a", "b", "ab", "a.b", "b-"]), max_size=4)


@given(path=_SEGMENTS, old=_SEGMENTS)
def test_a_path_moves_to_the_pre_trial_tree_exactly_when_pathlib_says_it_lies_under_the_view(
    path: list[str], old: list[str]
) -> None:
    """The string shortcut agrees with ``relative_to``: ``/a/ab`` is not under ``/a/a``."""
    source, view, pre = Path("/", *path), Path("/", *old), Path("/pre")
    expected = pre / source.relative_to(view) if source.is_relative_to(view) else source
    assert _under(source, view, pre) == expected


@pytest.mark.parametrize(
    ("failures", "exit_code"),
    [([], 0), (["/expected/artifacts/0"], 0), ([], 127), (None, 0)],
    ids=["vacuous", "evidence", "blind", "unjudged"],
)
def test_observing_trials_gives_the_facts_read_anew_from_what_they_showed(
    tmp_path: Path, failures: list[str] | None, exit_code: int
) -> None:
    facts = _facts(tmp_path, {"exit_code": 0, "artifacts": [{"path": "out.txt", "exists": True}]})
    trials = [trial_report(f"s::c#{n}", null_trial_failures=failures, exit_code=exit_code)
              for n in (1, 2)]  # fmt: skip
    seen = observe(facts, "demo", trials)
    vacuous = (
        facts.vacuous if failures is None else frozenset({"/expected/artifacts/0"}) - {*failures}
    )
    anew = case_evidence(
        facts.case, facts.analysis, "demo", vacuous, blind_failure=exit_code == 127,
        games=facts.class_games, context=facts.context_blockers,
    )  # fmt: skip
    assert seen == anew
