"""``regressions verify``: re-run every ACTIVE proof; it must fail for the guard's reason.

Records run one after another, in registry order. Each ACTIVE record's proof
is run (:mod:`~agentic_evals.regressions.proof`) and judged
(:mod:`~agentic_evals.regressions.judge`); with ``guard`` its retained case
also runs and must PASS now. With ``write``, the verified records' ``last_proven``
becomes today. SIGINT/SIGTERM stop the run: the proof in flight is killed,
the rest are reported not run, nothing is written.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from agentic_evals import clock
from agentic_evals.regressions.guard import run_guard
from agentic_evals.regressions.judge import Judgement, judge
from agentic_evals.regressions.load import RegistryLoad, load_registry
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.proof import DEFAULT_PROOF_TIMEOUT, run_proof
from agentic_evals.regressions.results import GuardResult, RegressionsVerify, VerifyResult
from agentic_evals.regressions.skill import registry_path
from agentic_evals.regressions.write import record_last_proven
from agentic_evals.runner.interrupt import Interrupted, interruptible


@dataclass(frozen=True)
class VerifyOptions:
    """How to verify a registry."""

    timeout_seconds: float = DEFAULT_PROOF_TIMEOUT
    """Per-proof timeout (also the guard's default per-trial timeout)."""
    guard: bool = False
    """Also run each ACTIVE record's retained case; it must PASS."""
    write: bool = False
    """Record today as ``last_proven`` of the verified records."""
    environ: Mapping[str, str] | None = None
    """The environment to start from (default: this process's)."""
    evals: Path | None = None
    """The evals tree (default: ``evals/`` beside the skills' folder, when present)."""


class VerifyOutcome(NamedTuple):
    """The registry as loaded, the verification when it loaded, and the stopping signal."""

    load: RegistryLoad
    verify: RegressionsVerify | None
    interrupted_by: int | None


class _Stop(Exception):
    """A guard run was interrupted (``evaluate`` reports the signal instead of raising)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def verify_skill(skill_dir: Path, options: VerifyOptions | None = None) -> VerifyOutcome:
    """Verify every ACTIVE proof of ``SKILL_DIR/fixtures/regressions.json``.

    Raises:
        RegressionsInputError: the folder or its registry is missing.
        RegistryChangedError: with ``write``, the registry changed while proofs ran.
    """
    options = options or VerifyOptions()
    path = registry_path(skill_dir, options.evals)
    loaded = load_registry(path)
    if loaded.model is None:
        return VerifyOutcome(loaded, None, None)
    run_id = clock.new_run_id()
    results: list[VerifyResult] = []
    interrupted_by: int | None = None
    records = loaded.model.regressions
    try:
        with interruptible():
            for record in records:
                results.append(_verify_one(record, skill_dir, path.parent, run_id, options))
    except Interrupted as stop:
        interrupted_by = stop.signum
    except _Stop as stop:
        interrupted_by = stop.signum
    for record in records[len(results) :]:
        results.append(
            _result(record, Judgement("unproven", False, "interrupted: not run to the end"))
        )
    today = clock.today().isoformat()
    verified = [r.regression_id for r in results if r.verdict == "verified"]
    written: list[str] = []
    if options.write and verified and interrupted_by is None:
        record_last_proven(path, loaded.source, verified, today)
        written = verified
    document = RegressionsVerify(
        skill=skill_dir.resolve().name,
        registry=str(path),
        as_of=today,
        verified=verified,
        unproven=[r.regression_id for r in results if r.verdict == "unproven"],
        weak=[r.regression_id for r in results if r.verdict == "weak"],
        skipped=[r.regression_id for r in results if r.verdict == "skipped"],
        written=written,
        interrupted=_signal_name(interrupted_by),
        results=results,
        findings=loaded.findings,
    )
    return VerifyOutcome(loaded, document, interrupted_by)


def _verify_one(
    record: Regression, skill_dir: Path, registry_dir: Path, run_id: str, options: VerifyOptions
) -> VerifyResult:
    if record.status != "ACTIVE":
        detail = f"{record.status}: only ACTIVE regressions are verified"
        return _result(record, Judgement("skipped", False, detail))
    if not record.proof_command:
        detail = "no fail_before_fix.proof_command: nothing to run"
        return _result(record, Judgement("unproven", False, detail))
    run = run_proof(
        record,
        skill_dir,
        run_id=run_id,
        timeout=options.timeout_seconds,
        environ=options.environ,
    )
    judgement = judge(record, run)
    guard = None
    if options.guard:
        guarded = run_guard(
            record, registry_dir, timeout=options.timeout_seconds, environ=options.environ
        )
        if guarded.interrupted_by is not None:
            raise _Stop(guarded.interrupted_by)
        guard = guarded.result
        if judgement.verified and not guard.passed:
            detail = f"{judgement.detail}; but the retained case does not PASS now: {guard.detail}"
            judgement = Judgement("unproven", True, detail)
    return _result(record, judgement, run.exit_code, run.timed_out, run.markers_missing, guard)


def _result(
    record: Regression,
    judgement: Judgement,
    exit_code: int | None = None,
    timed_out: bool = False,
    markers_missing: tuple[str, ...] = (),
    guard: GuardResult | None = None,
) -> VerifyResult:
    return VerifyResult(
        regression_id=record.regression_id,
        status=record.status,
        verdict=judgement.verdict,
        fail_before_fix_verified=judgement.verified,
        detail=judgement.detail,
        proof_exit_code=exit_code,
        timed_out=timed_out,
        markers_missing=list(markers_missing),
        guard=guard,
    )


def _signal_name(signum: int | None) -> str | None:
    return None if signum is None else signal.Signals(signum).name
