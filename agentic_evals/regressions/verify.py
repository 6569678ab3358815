"""``regressions verify``: prove, per ACTIVE record, that the guard catches the bug it names.

Records run one after another, in registry order; ``EXEMPT`` (until the
exemption expires) and ``RETIRED`` ones are skipped.

- A structural proof (``patch``, ``git_ref``, ``mutation``) puts the bug back
  in a private tree and runs the retained case there and on the current tree
  (:mod:`.structural`): ``verified`` only when it fails for the record's
  reason there and passes here.
- A ``proof_command`` is run and read (:mod:`.proof`, :mod:`.judge`), but its
  output is its own word (``echo FAILURE_CODE; exit 1`` would do): it is at
  most ``weak``, never verified. With ``guard``, its retained case must also
  PASS now.

With ``write``, each verified record gets ``last_proven`` (today) and the
verification record that backs it. SIGINT/SIGTERM stop the run: the process
in flight is killed, a broken tree is removed, the rest are reported not run,
nothing is written.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from agentic_evals import clock, codes
from agentic_evals.regressions.exemption import effective_status
from agentic_evals.regressions.guard import run_guard
from agentic_evals.regressions.judge import ProofRun, judge
from agentic_evals.regressions.load import RegistryLoad, load_registry
from agentic_evals.regressions.models import Regression, Status, Verification
from agentic_evals.regressions.proof import DEFAULT_PROOF_TIMEOUT, run_proof
from agentic_evals.regressions.protection import retained_fixture_path
from agentic_evals.regressions.results import RegressionsVerify, Verdict, VerifyResult
from agentic_evals.regressions.skill import registry_path
from agentic_evals.regressions.structural import GuardInterrupted, ProofSettings, verify_structural
from agentic_evals.regressions.write import record_verifications
from agentic_evals.runner.interrupt import Interrupted, interruptible


@dataclass(frozen=True)
class VerifyOptions:
    """How to verify a registry."""

    timeout_seconds: float = DEFAULT_PROOF_TIMEOUT
    """Per-proof timeout; also the per-trial timeout of a retained case that sets none."""
    guard: bool = False
    """Also run a ``proof_command`` record's retained case; it must PASS (structural proofs
    always run it)."""
    write: bool = False
    """Record ``last_proven`` and the verification record of the verified records."""
    environ: Mapping[str, str] | None = None
    """The environment to start from (default: this process's)."""
    keep: bool = False
    """Keep each broken tree for inspection (its path is in the result)."""


class VerifyOutcome(NamedTuple):
    """The registry as loaded, the verification when it loaded, and the stopping signal."""

    load: RegistryLoad
    verify: RegressionsVerify | None
    interrupted_by: int | None


class Verified(NamedTuple):
    """The results of some records, and the signal that stopped them, if any."""

    results: list[VerifyResult]
    interrupted_by: int | None


def verify_records(
    records: Sequence[Regression], skill_dir: Path, registry_dir: Path, options: VerifyOptions
) -> Verified:
    """Verify ``records`` in order; after an interrupt the rest are reported not run."""
    results: list[VerifyResult] = []
    interrupted_by: int | None = None
    try:
        with interruptible():
            for record in records:
                results.append(verify_record(record, skill_dir, registry_dir, options))
    except Interrupted as stop:
        interrupted_by = stop.signum
    except GuardInterrupted as stop:
        interrupted_by = stop.signum
    for record in records[len(results) :]:
        detail = "interrupted: not run to the end"
        results.append(_result(record, "unproven", codes.REG_NOT_RUN, detail))
    return Verified(results, interrupted_by)


def verify_record(
    record: Regression, skill_dir: Path, registry_dir: Path, options: VerifyOptions
) -> VerifyResult:
    """Verify one record (see the module docstring).

    Raises:
        GuardInterrupted: a signal stopped a guard run.
    """
    status = effective_status(record, today=clock.today(), now=clock.utc_now())
    if status.status != "ACTIVE":
        detail = f"{status.status}: only ACTIVE regressions are verified"
        return _result(record, "skipped", None, detail, status=status.status)
    form = record.proof_form
    if form is None:
        detail = "no fail_before_fix proof: nothing to run"
        return _result(record, "unproven", codes.REG_NO_PROOF, detail)
    if form != "proof_command":
        settings = ProofSettings(options.timeout_seconds, options.environ, options.keep)
        return verify_structural(record, skill_dir, registry_dir, settings)
    return _free_form(record, skill_dir, registry_dir, options)


def _free_form(
    record: Regression, skill_dir: Path, registry_dir: Path, options: VerifyOptions
) -> VerifyResult:
    run = run_proof(
        record,
        skill_dir,
        run_id=clock.new_run_id(),
        timeout=options.timeout_seconds,
        environ=options.environ,
    )
    judgement = judge(record, run)
    verdict: Verdict = "unproven" if judgement.verdict == "unproven" else "weak"
    reason = codes.REG_PROOF_FAILED if verdict == "unproven" else codes.REG_WEAK_PROOF
    detail = judgement.detail
    if verdict == "weak":
        detail += (
            "; but a proof_command's output is its own word, so it is at most weak: give a "
            "patch, git_ref or mutation proof (docs/regressions.md)"
        )
    result = _result(record, verdict, reason, detail, run=run)
    if not options.guard:
        return result
    guarded = run_guard(
        record,
        retained_fixture_path(record, registry_dir),
        skill_dir,
        timeout=options.timeout_seconds,
        environ=options.environ,
    )
    if guarded.interrupted_by is not None:
        raise GuardInterrupted(guarded.interrupted_by)
    now = guarded.result
    update: dict[str, object] = {"guard": now, "pass_after_fix_verified": now.passed}
    if not now.passed:
        update |= {
            "verdict": "unproven",
            "reason_code": codes.REG_GUARD_FAILS_NOW,
            "detail": f"{detail}; and the retained case does not PASS now: {now.detail}",
        }
    return result.model_copy(update=update)


def _result(
    record: Regression,
    verdict: Verdict,
    reason: str | None,
    detail: str,
    *,
    status: Status = "ACTIVE",
    run: ProofRun | None = None,
) -> VerifyResult:
    return VerifyResult(
        regression_id=record.regression_id,
        status=status,
        verdict=verdict,
        reason_code=reason,
        proof=record.proof_form,
        fail_before_fix_verified=False,
        detail=detail,
        proof_exit_code=run.exit_code if run else None,
        timed_out=run.timed_out if run else False,
        markers_missing=list(run.markers_missing) if run else [],
        guard=None,
    )


def verify_skill(skill_dir: Path, options: VerifyOptions | None = None) -> VerifyOutcome:
    """Verify every ACTIVE proof of ``SKILL_DIR/fixtures/regressions.json``.

    Raises:
        RegressionsInputError: the folder or its registry is missing.
        RegistryChangedError: with ``write``, the registry changed while proofs ran.
    """
    options = options or VerifyOptions()
    path = registry_path(skill_dir)
    loaded = load_registry(path)
    if loaded.model is None:
        return VerifyOutcome(loaded, None, None)
    results, interrupted_by = verify_records(
        loaded.model.regressions, skill_dir, path.parent, options
    )
    verified = {r.regression_id: r.verification for r in results if r.verdict == "verified"}
    written: list[str] = []
    if options.write and verified and interrupted_by is None:
        record_verifications(path, loaded.source, _complete(verified))
        written = list(verified)
    document = RegressionsVerify(
        skill=skill_dir.resolve().name,
        registry=str(path),
        as_of=clock.today().isoformat(),
        verified=list(verified),
        unproven=[r.regression_id for r in results if r.verdict == "unproven"],
        weak=[r.regression_id for r in results if r.verdict == "weak"],
        skipped=[r.regression_id for r in results if r.verdict == "skipped"],
        unprotected=[r.regression_id for r in results if r.unprotected],
        written=written,
        interrupted=None if interrupted_by is None else signal.Signals(interrupted_by).name,
        results=results,
        findings=loaded.findings,
    )
    return VerifyOutcome(loaded, document, interrupted_by)


def _complete(verified: Mapping[str, Verification | None]) -> dict[str, Verification]:
    return {key: value for key, value in verified.items() if value is not None}
