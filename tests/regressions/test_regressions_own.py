"""agentic-evals' own registry: real regressions whose proofs fail for their reason."""

from __future__ import annotations

import subprocess
from pathlib import Path

from builders import REPO

from agentic_evals.evidence.gates import load_fixture
from agentic_evals.regressions.audit import needs_attention, show_skill
from agentic_evals.regressions.load import load_registry
from agentic_evals.regressions.verify import verify_skill

FIXTURES = REPO / "fixtures"


def test_the_own_registry_loads_cleanly_with_at_least_three_proven_guards() -> None:
    loaded = load_registry(FIXTURES / "regressions.json")
    assert loaded.model is not None and loaded.findings == []
    records = loaded.model.regressions
    assert len(records) >= 3 and all(r.status == "ACTIVE" for r in records)
    cases = load_fixture(FIXTURES / "agentic_eval.json", strict=True).model
    assert cases is not None
    names = {case.name for case in cases.cases}
    for record in records:
        assert record.retained_case in names and record.retained_fixture == "agentic_eval.json"
        assert record.failure_code and record.fail_before_fix is not None
        assert record.fail_before_fix.expected_markers and record.proof_command
        assert record.last_proven is not None
    outcome = show_skill(REPO)
    assert outcome.show is not None and not needs_attention(outcome.show.summary)


def test_every_own_proof_fails_for_its_reason() -> None:
    outcome = verify_skill(REPO)
    assert outcome.verify is not None
    assert [r.verdict for r in outcome.verify.results] == ["verified"] * len(outcome.verify.results)
    assert all(r.proof_exit_code == 1 for r in outcome.verify.results)


def break_guard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["python3", "regressions/break_guard.py", *args],
        cwd=FIXTURES,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_proof_helper_passes_when_nothing_is_broken() -> None:
    same = "samples/failing-required.json"
    ran = break_guard(
        "--case", "failing-required-case-exits-1", "--failure-code", "SENTINEL_CODE",
        "--replace", same, same, "--expect", "EXIT_CODE",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "it is vacuous" in ran.stdout and "SENTINEL_CODE" not in ran.stdout + ran.stderr


def test_the_proof_helper_never_prints_the_code_for_the_wrong_reason() -> None:
    wrong = break_guard(
        "--case", "failing-required-case-exits-1", "--failure-code", "SENTINEL_CODE",
        "--replace", "samples/failing-required.json", "samples/failing-required.json --report-only",
        "--expect", "ORPHAN_PROCESS",
    )  # fmt: skip
    assert wrong.returncode == 3 and "SENTINEL_CODE" not in wrong.stdout + wrong.stderr
    missing = break_guard(
        "--case", "no-such-case", "--failure-code", "SENTINEL_CODE", "--expect", "EXIT_CODE"
    )
    assert missing.returncode == 2 and "SENTINEL_CODE" not in missing.stdout + missing.stderr
    assert not [p for p in FIXTURES.iterdir() if p.name.endswith(".broken.json")]


def test_no_proof_leaves_its_broken_copies_behind() -> None:
    leftovers = [
        path
        for path in Path(FIXTURES).rglob(".*")
        if path.name.endswith((".broken.json", ".forged.json"))
    ]
    assert leftovers == []
