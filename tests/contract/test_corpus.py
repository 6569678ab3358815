"""Every real fixture of the compatibility corpus loads without an exception, and its
verdict is pinned: valid, or the exact set of error codes it is rejected with.

The corpus (shared/corpus/agent-skills, see its SOURCE.md) holds fixture JSON only: the
skills' code is not there and commands embed the original author's absolute paths, so
no entrypoint exists and real-world cases that rely on a script cannot qualify. Cases
that run a test runner (pytest, npm test, node --test) do qualify structurally.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_evals.evidence.gates import load_fixture

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "agent-skills"

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"compatibility corpus not found at {CORPUS}"
)

CLAIM = "AE-SCHEMA-CLAIM"
ESCAPE = "AE-PATH-ESCAPE"  # absolute artifact paths such as /tmp/... and /mnt/...
NEGATIVE = "AE-SLOP-NO-NEGATIVE"
UNKNOWN = "AE-SCHEMA-UNKNOWN"  # a key inside expected that names no oracle
REAL_WORLD = "AE-SLOP-NO-REAL-WORLD"
LEGACY = frozenset({"AE-SCHEMA-VERSION", "AE-SCHEMA-REQUIRED"})  # version-1 eval.json
SCAFFOLD = frozenset({NEGATIVE, REAL_WORLD})  # the mass-generated "wiring smoke" template

VERDICTS: dict[str, str | frozenset[str]] = {
    "a-detection/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
    "acceptance-contract/fixtures/agentic_eval.json": frozenset({ESCAPE, REAL_WORLD}),
    "agent-ecosystem/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "agent-inbox/fixtures/agentic_eval.json": SCAFFOLD,
    "agentic-evals/fixtures/agentic_eval.json": frozenset({ESCAPE, REAL_WORLD}),
    "agentic-evals/fixtures/runner_selftest.json": "valid",
    "agentic-evals/fixtures/selftest/blocked_live.json": frozenset({CLAIM}),
    "agentic-evals/fixtures/selftest/det_only_missing_live.json": "valid",
    "agentic-evals/fixtures/selftest/exemption.json": "valid",
    "agentic-evals/fixtures/selftest/live_proven.json": frozenset({CLAIM}),
    "agentic-evals/fixtures/selftest/pseudo_live.json": "valid",
    "agents-registry/fixtures/eval.json": LEGACY,
    "analyze-chatterbox-emotions/fixtures/agentic_eval.json": frozenset(
        {ESCAPE, CLAIM, REAL_WORLD}
    ),
    "anonymize-data/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval.handler_binding.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval_1531.json": frozenset({CLAIM}),
    "ask/fixtures/agentic_eval_adversarial.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval_browser_zip_preflight.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval_command_spec_resume.json": frozenset({CLAIM, REAL_WORLD}),
    "ask/fixtures/agentic_eval_live_subset.json": frozenset({CLAIM, REAL_WORLD}),
    "ask/fixtures/agentic_eval_native_plan_cli.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval_pi_subagents.json": frozenset({ESCAPE, CLAIM, REAL_WORLD}),
    "ask/fixtures/agentic_eval_tau_dag.json": frozenset({REAL_WORLD}),
    "ask/fixtures/agentic_eval_webgpt_image.json": frozenset({REAL_WORLD, "AE-SLOP-TRIALS"}),
    "battle/fixtures/agentic_eval.json": frozenset({ESCAPE, CLAIM, REAL_WORLD}),
    "battle/fixtures/eval.json": LEGACY,
    "best-practices-python/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "best-practices-react/fixtures/agentic_eval.json": frozenset({CLAIM}),
    "best-practices-skills/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "best-practices-streamdeck/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
    "brave-search/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "cleanup/fixtures/agentic_eval.json": frozenset({CLAIM}),
    "create-icon/fixtures/agentic_eval.json": SCAFFOLD,
    "create-movie/fixtures/agentic_eval.json": SCAFFOLD,
    "create-story/fixtures/agentic_eval.json": SCAFFOLD,
    "dogpile/fixtures/eval.json": LEGACY,
    # eval_kind "skill_behavior" is not a kind; the gates do not run on a schema error.
    "hack/fixtures/agentic_eval.json": frozenset({CLAIM, "AE-SCHEMA-VALUE"}),
    # expected/required_assertions names no oracle: prose that checks nothing is a load error;
    # and every real-world case checks its exit code alone: it passes on the null trial.
    "ingest-code/fixtures/agentic_eval.json": frozenset({UNKNOWN, REAL_WORLD}),
    "memory/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "mine-transcripts/fixtures/agentic_eval.json": "valid",
    "monitor-sparta/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
    "ops-arango/fixtures/agentic_eval.json": SCAFFOLD,
    "ops-docker/fixtures/agentic_eval.json": frozenset({CLAIM, REAL_WORLD}),
    "ops-streamdeck/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
    # Artifact checks with "type" and "contains", which are no artifact oracles.
    "ops-workstation/fixtures/agentic_eval.json": frozenset({ESCAPE, CLAIM, REAL_WORLD, UNKNOWN}),
    "project-watchdog/fixtures/agentic_eval.architecture.json": frozenset({ESCAPE, REAL_WORLD}),
    "project-watchdog/fixtures/agentic_eval.json": "valid",
    "project-watchdog/fixtures/agentic_eval.primary_main_revision.json": frozenset({REAL_WORLD}),
    "project-watchdog/fixtures/agentic_eval.semantic_refusal.json": frozenset({REAL_WORLD}),
    "project-watchdog/fixtures/agentic_eval.stopped_failure.json": frozenset({REAL_WORLD}),
    "project-watchdog/fixtures/agentic_eval.workflow_phases.json": "valid",
    "project-watchdog/fixtures/agentic_eval_resume_generation.json": frozenset(
        {ESCAPE, REAL_WORLD}
    ),
    "surf/fixtures/agentic_eval.json": frozenset({ESCAPE, CLAIM}),
    "surf/fixtures/agentic_eval_browser_loading.json": frozenset({ESCAPE, CLAIM, REAL_WORLD}),
    "surf/fixtures/agentic_eval_lock_recovery.json": frozenset({REAL_WORLD}),
    "surf/fixtures/agentic_eval_preflight_doctor.json": frozenset({CLAIM}),
    "surf/fixtures/agentic_eval_reviewer_windows.json": SCAFFOLD,
    "ticket/fixtures/agentic_eval.json": frozenset({REAL_WORLD}),
}


def corpus_fixtures() -> list[str]:
    if not CORPUS.is_dir():
        return []
    found = []
    for path in sorted(CORPUS.glob("*/fixtures/**/*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and "cases" in document:
            found.append(path.relative_to(CORPUS).as_posix())
    return found


def test_every_corpus_fixture_has_a_pinned_verdict() -> None:
    assert corpus_fixtures() == sorted(VERDICTS)


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_corpus_fixture_verdict(name: str) -> None:
    result = load_fixture(CORPUS / name)
    codes = frozenset(f.code for f in result.errors)
    assert ("valid" if result.ok else codes) == VERDICTS[name], [f.render() for f in result.errors][
        :5
    ]


def test_scaffold_is_rejected_for_no_negative_and_no_real_world() -> None:
    result = load_fixture(CORPUS / "agent-inbox/fixtures/agentic_eval.json")
    assert [(f.code, f.pointer) for f in result.errors] == [
        ("AE-SLOP-NO-NEGATIVE", "/cases"),
        ("AE-SLOP-NO-REAL-WORLD", "/cases"),
    ]
    assert "no required case declares real_world: true" in result.errors[1].message


@pytest.mark.parametrize("name", ["blocked_live.json", "live_proven.json"])
def test_selftests_lack_claim_semantics(name: str) -> None:
    result = load_fixture(CORPUS / "agentic-evals/fixtures/selftest" / name)
    assert [(f.code, f.pointer) for f in result.errors] == [
        ("AE-SCHEMA-CLAIM", "/capability_claims/0")
    ]
    assert "claim_semantics" in result.errors[0].message


@pytest.mark.parametrize(
    "name",
    [
        "dogpile/fixtures/eval.json",
        "battle/fixtures/eval.json",
        "agents-registry/fixtures/eval.json",
    ],
)
def test_legacy_version_1_is_rejected_for_its_version(name: str) -> None:
    result = load_fixture(CORPUS / name)
    assert ("AE-SCHEMA-VERSION", "/version") in [(f.code, f.pointer) for f in result.errors]


def test_real_world_rejections_say_why() -> None:
    result = load_fixture(CORPUS / "anonymize-data/fixtures/agentic_eval.json")
    (finding,) = [f for f in result.errors if f.code == REAL_WORLD]
    assert "../run.sh does not exist under the skill tree" in finding.message


def test_escapes_are_absolute_artifact_paths_only() -> None:
    for name, verdict in VERDICTS.items():
        if verdict != "valid" and ESCAPE in verdict:
            for finding in load_fixture(CORPUS / name).errors:
                if finding.code == ESCAPE:
                    assert "/expected/artifacts/" in finding.pointer
                    assert "is absolute" in finding.message
