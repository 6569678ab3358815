"""Did a free-form proof fail for the guard's reason? Pure: a proof's run in, a verdict out.

The reference accepted any non-zero exit, so a proof that failed because a
file was missing or a fixture did not load "verified" (SPEC section 8, **Fix**).
Here, with ``expected_fail`` (the default), a ``proof_command`` *shows its
reason* only when it exits non-zero **and** its output (stdout or stderr) shows
the record's ``failure_code`` or every ``expected_markers`` entry; a record with
neither cannot show its reason (``weak``). A proof that exits 0, times out or
cannot start is ``unproven``. With ``expected_fail: false`` the proof must exit
0 and show the same evidence. Even a proof that shows its reason only says so
itself: :mod:`.verify` reports it ``weak``, never verified.
"""

from __future__ import annotations

from typing import NamedTuple

from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.results import Verdict


class ProofRun(NamedTuple):
    """What a proof did, as far as the verdict needs it."""

    exit_code: int | None
    """Exit code; ``None`` when it timed out or could not start."""
    timed_out: bool
    """It hit the timeout and was killed."""
    start_error: str | None
    """Why it could not start, if it could not."""
    timeout_seconds: float
    """The timeout it ran under."""
    failure_code_seen: bool
    """The record's ``failure_code`` appears in stdout or stderr."""
    markers_missing: tuple[str, ...]
    """Expected markers that appear in neither stream."""
    last_output: str
    """The last non-empty line of output (stderr first), redacted; for the detail."""


class Judgement(NamedTuple):
    """The verdict on one proof."""

    verdict: Verdict
    """``verified``, ``weak`` or ``unproven``."""
    verified: bool
    """The proof failed (or, with ``expected_fail: false``, passed) for the guard's reason."""
    detail: str
    """Why, in words."""


def judge(record: Regression, run: ProofRun) -> Judgement:
    """Judge one ACTIVE record's proof run."""
    if run.start_error is not None:
        return _unproven(f"the proof could not start: {run.start_error}")
    if run.timed_out:
        return _unproven(f"the proof timed out after {run.timeout_seconds:g}s and was killed")
    proof = record.fail_before_fix
    expected_fail = proof.expected_fail if proof else True
    markers = list(proof.expected_markers) if proof else []
    code = run.exit_code
    failed = code != 0
    if failed != expected_fail:
        if expected_fail:
            return _unproven(
                "the proof exited 0: the guard does not fail against the broken behaviour"
            )
        return _unproven(f"expected_fail is false but the proof exited {code}{_tail(run)}")
    outcome = f"exited {code}" if failed else "passed"
    if not record.failure_code and not markers:
        return Judgement(
            "weak",
            False,
            f"the proof {outcome}, but the record declares neither failure_code nor "
            "expected_markers: nothing ties its result to the guard's reason",
        )
    if record.failure_code and run.failure_code_seen:
        return Judgement(
            "verified", True, f"the proof {outcome} showing failure_code {record.failure_code!r}"
        )
    if markers and not run.markers_missing:
        return Judgement("verified", True, f"the proof {outcome} showing every expected marker")
    return _unproven(f"the proof {outcome} for another reason: {_missing(record, run)}{_tail(run)}")


def _missing(record: Regression, run: ProofRun) -> str:
    wanted = []
    if record.failure_code:
        wanted.append(f"failure_code {record.failure_code!r}")
    if run.markers_missing:
        wanted.append("markers " + ", ".join(repr(marker) for marker in run.markers_missing))
    return "its output lacks " + " and ".join(wanted)


def _tail(run: ProofRun) -> str:
    return f" (last output: {run.last_output!r})" if run.last_output else ""


def _unproven(detail: str) -> Judgement:
    return Judgement("unproven", False, detail)
