"""The project's own fixtures: honest, gated, and loadable."""

from __future__ import annotations

from pathlib import Path

from agentic_evals.evidence.gates import load_fixture

REPO = Path(__file__).resolve().parents[1]


def test_own_evaluation_passes_the_anti_slop_contract_without_exemption() -> None:
    result = load_fixture(REPO / "fixtures" / "agentic_eval.json", strict=True)
    assert result.model is not None, [f.render() for f in result.findings]
    assert result.findings == []
    fixture = result.model
    assert fixture.eval_kind == "skill"
    assert fixture.trials >= 2
    types = {case.type for case in fixture.cases}
    assert {"negative", "adversarial"} <= types
    assert all(case.real_world for case in fixture.cases)


def test_runner_selftest_and_samples_load_strictly() -> None:
    for name in [
        "runner_selftest.json",
        "samples/demo-skill/agentic_eval.json",
        "samples/failing-required.json",
        "samples/timeout-orphan.json",
        "samples/slow.json",
        "samples/proof-forms/fixtures/agentic_eval.json",
    ]:
        result = load_fixture(REPO / "fixtures" / name, strict=True)
        assert result.ok and not result.findings, (name, [f.render() for f in result.findings])


def test_slop_sample_is_rejected_for_each_anti_slop_rule() -> None:
    result = load_fixture(REPO / "fixtures" / "samples" / "slop.json")
    assert result.model is None
    assert {f.code for f in result.errors} == {
        "AE-SLOP-TRIALS",
        "AE-SLOP-NO-NEGATIVE",
        "AE-SLOP-NO-REAL-WORLD",
        "AE-SLOP-TRIVIAL",
    }
