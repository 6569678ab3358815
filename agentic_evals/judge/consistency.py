"""Is a shard report consistent with itself and with the fixture it names? Pure.

Reports are not signed: ``merge`` cannot tell who wrote one. What it can
check is that every figure a report carries is what its trial records give,
by the same functions a run uses, so that a hand-edited or fabricated report
has to be consistent everywhere to get through, and a changed outcome, count
or claim entry is caught. Each check raises :class:`ConsistencyError` with the
JSON pointer of the first value that disagrees.

- Every case record: its id, its trials' ids, and the figures derived from
  the trials (outcome, flakiness, counts, pass rate: :func:`.cases.tally`);
  a passing trial has no problem, ended in time with the expected exit code
  and left nothing behind; a failing one names a problem; ``oracle_sha256``
  is the hash of the ``expected`` the record carries.
- The fixture's cases (``fixture_cases``): every case record is one of them,
  with the same hashes, and a shard holds exactly the cases the shard rule
  gives it.
- Every claim's evidence entry matches the case record it names (type,
  classes, required), and names every case of the report that supports it.
- The gate, counts and metrics are those :func:`.gate.derive` gives for the
  report's cases.
"""

from __future__ import annotations

from typing import Any

from agentic_evals import codes
from agentic_evals.evidence.anti_slop import WEAK, traced_problem
from agentic_evals.judge.capability import merged_bases
from agentic_evals.judge.cases import tally
from agentic_evals.judge.gate import derive, report_scope
from agentic_evals.judge.provenance import canonical_json, sha256_bytes
from agentic_evals.judge.shard import Shard, select
from agentic_evals.reports.model import CaseReport, FixtureCase, Report, TrialReport


class ConsistencyError(ValueError):
    """A report disagrees with itself; ``pointer`` names the value that does."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f"{pointer}: {message}")
        self.pointer = pointer


def _differs(pointer: str, recorded: object, derived: object, source: str) -> ConsistencyError:
    return ConsistencyError(pointer, f"{recorded!r}, but {source} give(s) {derived!r}")


def check_report(report: Report) -> None:
    """Raise :class:`ConsistencyError` at the first value of ``report`` its records contradict."""
    for index, case in enumerate(report.cases):
        check_case(report, case, f"/cases/{index}")
    check_fixture_cases(report)
    check_claim_evidence(report)
    check_derived(report)


def _expected_exit(case: CaseReport) -> int | None:
    code = (case.expected or {}).get("exit_code")
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def check_trial(case: CaseReport, trial: TrialReport, pointer: str) -> None:
    """A trial's outcome must agree with what its record says happened."""
    if trial.outcome == "PASS":
        if trial.problems:
            raise ConsistencyError(
                f"{pointer}/outcome", f"PASS, but the trial records {trial.problems[0].code}"
            )
        expected = _expected_exit(case)
        if trial.timed_out or trial.orphan_pids_after_teardown:
            raise ConsistencyError(
                f"{pointer}/outcome", "PASS, but the trial timed out or left processes behind"
            )
        if expected is not None and trial.exit_code != expected:
            raise ConsistencyError(
                f"{pointer}/outcome",
                f"PASS, but the trial exited {trial.exit_code} where expected/exit_code "
                f"is {expected}",
            )
    elif trial.outcome in ("FAIL", "INFRA_BLOCKED", "BLOCKED") and not trial.problems:
        raise ConsistencyError(f"{pointer}/outcome", f"{trial.outcome}, but no problem recorded")


def check_case(report: Report, case: CaseReport, pointer: str) -> None:
    """A case record must be what its trials and declarations give."""
    case_id = f"{report.skill}::{case.name}"
    if case.case_id != case_id:
        raise _differs(f"{pointer}/case_id", case.case_id, case_id, "the skill and case name")
    for number, trial in enumerate(case.trials, start=1):
        if trial.trial_id != f"{case_id}#{number}":
            raise _differs(
                f"{pointer}/trials/{number - 1}/trial_id",
                trial.trial_id,
                f"{case_id}#{number}",
                "the case id and trial position",
            )
        check_trial(case, trial, f"{pointer}/trials/{number - 1}")
    derived = tally(case.trials, report.trials_per_case, claims_sampling=bool(case.claims_sampling))
    outcome = derived.outcome
    if outcome == "PASS" and any(p.code == codes.MISSING_SYSTEM_TEST for p in case.problems):
        outcome = "BLOCKED"  # --require-system-test: passing lower is not passing
    recorded: dict[str, Any] = {
        "outcome": (case.outcome, outcome),
        "flaky": (case.flaky, derived.flaky),
        "passed_trials": (case.passed_trials, derived.passed_trials),
        "total_trials": (case.total_trials, derived.total_trials),
        "pass_rate": (case.pass_rate, derived.pass_rate),
    }
    for key, (mine, theirs) in recorded.items():
        if mine != theirs:
            raise _differs(f"{pointer}/{key}", mine, theirs, "its trials")
    if case.expected is not None:
        digest = sha256_bytes(canonical_json(case.expected))
        if case.oracle_sha256 != digest:
            raise _differs(f"{pointer}/oracle_sha256", case.oracle_sha256, digest, "its expected")
    if case.real_world and case.live_path_problem is None:
        problem = traced_problem(case.trials) or (WEAK if case.weak else None)
        if problem is not None:
            raise ConsistencyError(
                f"{pointer}/live_path_problem", f"null, but its trials give {problem!r}"
            )


def check_fixture_cases(report: Report) -> None:
    """Every case record is a case of the fixture, with its hashes, where the shard rule puts it."""
    listed = report.fixture_cases
    if listed is None:
        return
    by_name = {entry.name: entry for entry in listed}
    for index, case in enumerate(report.cases):
        entry = by_name.get(case.name)
        pointer = f"/cases/{index}"
        if entry is None:
            raise ConsistencyError(
                f"{pointer}/name", f"{case.name!r} is not a case of the fixture (fixture_cases)"
            )
        for key in ("test_source_sha256", "oracle_sha256"):
            if getattr(case, key) != getattr(entry, key):
                raise _differs(
                    f"{pointer}/{key}", getattr(case, key), getattr(entry, key), "fixture_cases"
                )
    if report.shard is not None:
        shard = Shard(report.shard.index, report.shard.total)
        wanted = [entry.name for _, entry in select(listed, shard)]
        names = [case.name for case in report.cases]
        if names != wanted:
            raise ConsistencyError(
                "/cases",
                f"shard {shard} holds {names}, but the shard rule gives it {wanted} "
                "of the fixture's cases",
            )


def check_claim_evidence(report: Report) -> None:
    """Every claim's evidence entries agree with the case records they name."""
    block = report.capability_readiness
    if block is None:
        return
    by_name = {case.name: case for case in report.cases}
    for c, claim in enumerate(block.claims):
        named = set()
        for e, entry in enumerate(claim.evidence):
            pointer = f"/capability_readiness/claims/{c}/evidence/{e}"
            case = by_name.get(entry.case)
            if case is None or claim.id not in case.supports_claims:
                raise ConsistencyError(
                    f"{pointer}/case",
                    f"{entry.case!r} is no case of this report that supports {claim.id}",
                )
            named.add(entry.case)
            for key, theirs in (
                ("type", case.type),
                ("declared_evidence_class", case.declared_evidence_class),
                ("effective_evidence_class", case.effective_evidence_class),
                ("live_qualified", case.live_qualified),
            ):
                if getattr(entry, key) != theirs:
                    raise _differs(f"{pointer}/{key}", getattr(entry, key), theirs, "its case")
            if (codes.NOT_REQUIRED_CASE in entry.ineligible) == case.required:
                raise ConsistencyError(
                    f"{pointer}/ineligible",
                    f"says {'not ' if case.required else ''}{codes.NOT_REQUIRED_CASE} of a case "
                    f"whose required is {str(case.required).lower()}",
                )
        missing = [
            case.name
            for case in report.cases
            if claim.id in case.supports_claims and case.name not in named
        ]
        if missing:
            raise ConsistencyError(
                f"/capability_readiness/claims/{c}/evidence",
                f"leaves out {missing}, which support {claim.id}",
            )


def check_derived(report: Report) -> None:
    """The gate, counts and metrics are what :func:`derive` gives for the report's cases."""
    bases = merged_bases([report.capability_readiness], report.cases)
    derived = derive(
        report.cases, bases, trials_per_case=report.trials_per_case, scope=report_scope(report)
    )
    for key, value in derived._asdict().items():
        recorded = getattr(report, key)
        if recorded != value:
            raise ConsistencyError(
                f"/{key}", "differs from what the report's own case records give"
            )


def check_fixture(report: Report, fixture_sha256: str, cases: list[FixtureCase]) -> None:
    """``report`` names the fixture of ``fixture_sha256`` whose cases are ``cases``.

    ``merge --fixture``: a report made up for another fixture is caught.
    """
    if report.fixture_sha256 != fixture_sha256:
        raise _differs(
            "/fixture_sha256", report.fixture_sha256, fixture_sha256, "the fixture's bytes"
        )
    listed = report.fixture_cases
    if listed is None:
        raise ConsistencyError("/fixture_cases", "missing: the report predates fixture_cases")
    for index, (mine, theirs) in enumerate(zip(listed, cases, strict=False)):
        if mine != theirs:
            raise _differs(f"/fixture_cases/{index}", mine.name, theirs.name, "the fixture")
    if len(listed) != len(cases):
        raise _differs("/fixture_cases", len(listed), len(cases), "the fixture's cases")
