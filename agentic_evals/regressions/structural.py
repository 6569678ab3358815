"""Verify one structural proof: the guard fails on the broken tree and passes on the current one.

1. The retained case must be in a retained fixture that loads (else
   ``GUARD_MISSING``: the regression is unprotected).
2. The proof's hash and the retained case's hashes are taken; they are what
   a verification record (``--write``) pins, and they must be the same after
   the runs (a proof edited meanwhile verifies nothing).
3. The broken tree is made (:mod:`.broken`; ``PROOF_NOT_APPLICABLE`` when it
   cannot be) and the retained case runs there, then on the current tree
   (:mod:`.guard`); :mod:`.fail_to_pass` judges the two case reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agentic_evals import clock, codes
from agentic_evals.regressions.broken import NotApplicable, broken_tree, fixture_in_tree
from agentic_evals.regressions.fail_to_pass import FailToPass, judge_fail_to_pass
from agentic_evals.regressions.guard import GuardRun, run_guard
from agentic_evals.regressions.identity import CaseIdentity, case_identity, proof_sha256
from agentic_evals.regressions.models import ProofForm, Regression, Verification
from agentic_evals.regressions.protection import FixtureCache, protection, retained_fixture_path
from agentic_evals.regressions.results import ProofTrees, VerifyResult


class GuardInterrupted(Exception):
    """A guard run was stopped by a signal (``evaluate`` reports it instead of raising)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass(frozen=True)
class ProofSettings:
    """How to run a proof's guard."""

    timeout_seconds: float
    """Per-trial timeout of a retained case that sets none."""
    environ: Mapping[str, str] | None = None
    """The environment to start from (default: this process's)."""
    keep: bool = False
    """Keep the broken tree for inspection."""


def verify_structural(
    record: Regression, skill_dir: Path, registry_dir: Path, settings: ProofSettings
) -> VerifyResult:
    """Verify ``record``'s patch, git_ref or mutation proof.

    Raises:
        GuardInterrupted: SIGINT or SIGTERM stopped a guard run.
    """
    form = record.proof_form
    assert form is not None and form != "proof_command"
    guard = protection(record, registry_dir, FixtureCache())
    identity = _identity(record, registry_dir)
    if not guard.protected or identity is None:
        detail = f"the retained case cannot run: {guard.detail}"
        return _unproven(record, form, codes.REG_GUARD_MISSING, detail, unprotected=True)
    trees = ProofTrees(broken=None, current=str(skill_dir), kept=settings.keep)
    fixture = fixture_in_tree(record, skill_dir, registry_dir)
    try:
        with broken_tree(record, skill_dir, registry_dir, keep=settings.keep) as tree:
            trees = trees.model_copy(update={"broken": str(tree)})
            broken = _run(record, tree / fixture, tree, settings)
    except NotApplicable as error:
        kept = trees.model_copy(update={"broken": str(error.tree) if error.tree else None})
        return _unproven(record, form, codes.REG_PROOF_NOT_APPLICABLE, str(error), trees=kept)
    current = _run(record, retained_fixture_path(record, registry_dir), skill_dir, settings)
    if broken.case is None or current.case is None:
        # Both fixtures loaded a moment ago: one changed or vanished meanwhile.
        failed = current if broken.case is not None else broken
        detail = f"the retained case cannot run: {failed.result.detail}"
        return _unproven(record, form, codes.REG_GUARD_MISSING, detail, trees=trees)
    verdict = judge_fail_to_pass(record, broken.case, current.case)
    verification = None
    if verdict.verdict == "verified":
        if _identity(record, registry_dir) != identity:
            detail = "the proof or the retained case changed while the proof ran: verify again"
            return _unproven(record, form, codes.REG_PROOF_STALE, detail, trees=trees)
        verification = Verification(
            date=clock.today().isoformat(),
            proof=form,
            proof_sha256=identity[0],
            test_source_sha256=identity[1].test_source_sha256,
            oracle_sha256=identity[1].oracle_sha256,
        )
    return _judged(record, form, verdict, (broken, current), trees, verification)


def _judged(
    record: Regression,
    form: ProofForm,
    verdict: FailToPass,
    runs: tuple[GuardRun, GuardRun],
    trees: ProofTrees,
    verification: Verification | None,
) -> VerifyResult:
    broken, current = runs
    return VerifyResult(
        regression_id=record.regression_id,
        status="ACTIVE",
        verdict=verdict.verdict,
        reason_code=verdict.reason_code,
        proof=form,
        fail_before_fix_verified=verdict.fail_before_fix_verified,
        pass_after_fix_verified=verdict.pass_after_fix_verified,
        unprotected=verdict.unprotected,
        detail=verdict.detail,
        problems=broken.case.problems if broken.case else [],
        trees=trees,
        broken_guard=broken.result,
        guard=current.result,
        verification=verification,
        proof_exit_code=None,
        timed_out=False,
        markers_missing=[],
    )


def _identity(record: Regression, registry_dir: Path) -> tuple[str, CaseIdentity] | None:
    try:
        proof = proof_sha256(record, registry_dir)
    except OSError:
        proof = ""  # an unreadable patch is reported when the tree is made
    case = case_identity(record, registry_dir, FixtureCache())
    return None if proof is None or case is None else (proof, case)


def _run(record: Regression, fixture: Path, tree: Path, settings: ProofSettings) -> GuardRun:
    ran = run_guard(
        record, fixture, tree, timeout=settings.timeout_seconds, environ=settings.environ
    )
    if ran.interrupted_by is not None:
        raise GuardInterrupted(ran.interrupted_by)
    return ran


def _unproven(
    record: Regression,
    form: ProofForm,
    reason: str,
    detail: str,
    *,
    trees: ProofTrees | None = None,
    unprotected: bool = False,
) -> VerifyResult:
    return VerifyResult(
        regression_id=record.regression_id,
        status="ACTIVE",
        verdict="unproven",
        reason_code=reason,
        proof=form,
        fail_before_fix_verified=False,
        unprotected=unprotected,
        detail=detail,
        trees=trees,
        guard=None,
        proof_exit_code=None,
        timed_out=False,
        markers_missing=[],
    )
