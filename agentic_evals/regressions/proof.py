"""Run one fail-before-fix proof with the runner's process handling.

The proof's argv runs without a shell (unless the argv itself starts one) in
its own session, from ``fail_before_fix.cwd`` under the skill folder (default:
the skill folder), with the runner's environment (no virtual-environment
variables, nothing injected but the ``AGENTIC_EVALS_*`` markers that let the
supervisor find escaped descendants). A timeout terminates the whole tree;
whatever is left afterwards is killed. The output is searched on the raw
bytes for the failure code and the markers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from agentic_evals.redact import Redactor
from agentic_evals.regressions.judge import ProofRun
from agentic_evals.regressions.models import Regression
from agentic_evals.runner.capture import CapturedStream
from agentic_evals.runner.environment import (
    base_environment,
    private_environment,
    trial_environment,
)
from agentic_evals.runner.process import run_process

DEFAULT_PROOF_TIMEOUT = 120.0
"""Seconds a proof may run before its process tree is killed."""
_TAIL_BYTES = 2000


def proof_cwd(record: Regression, skill_dir: Path) -> Path:
    """Where the proof runs: ``fail_before_fix.cwd`` under the skill folder, or the folder."""
    cwd = record.fail_before_fix.cwd if record.fail_before_fix else None
    return skill_dir / cwd if cwd else skill_dir


def run_proof(
    record: Regression,
    skill_dir: Path,
    *,
    run_id: str,
    timeout: float = DEFAULT_PROOF_TIMEOUT,
    environ: Mapping[str, str] | None = None,
) -> ProofRun:
    """Run ``record``'s proof command once and return what the verdict needs.

    Raises:
        ValueError: the record has no proof command.
    """
    argv = record.proof_command
    if not argv:
        raise ValueError(f"{record.regression_id}: no proof command")
    env = trial_environment(
        base_environment(environ, private_environment()),
        {},
        run_id=run_id,
        case_name=f"regression:{record.regression_id}",
        trial=1,
    )
    result = run_process(
        argv, cwd=proof_cwd(record, skill_dir), env=env, timeout=timeout, exclusive=True
    )
    try:
        streams = (result.stdout, result.stderr)
        markers = record.fail_before_fix.expected_markers if record.fail_before_fix else []
        code = record.failure_code
        return ProofRun(
            exit_code=result.exit_code,
            timed_out=result.timed_out,
            start_error=result.start_error,
            timeout_seconds=timeout,
            failure_code_seen=bool(code) and _shows(streams, code or ""),
            markers_missing=tuple(marker for marker in markers if not _shows(streams, marker)),
            last_output=Redactor(env).redact(_last_line(result.stderr) or _last_line(streams[0])),
        )
    finally:
        result.close()


def _shows(streams: tuple[CapturedStream, CapturedStream], text: str) -> bool:
    needle = text.encode("utf-8")
    return any(stream.contains(needle) for stream in streams)


def _last_line(stream: CapturedStream) -> str:
    tail = stream.tail(_TAIL_BYTES).decode("utf-8", errors="replace")
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""
