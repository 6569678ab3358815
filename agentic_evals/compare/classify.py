"""Pair two reports by case id and classify every case and claim (docs/compare.md). Pure."""

from __future__ import annotations

from typing import Final

from pydantic import ValidationError

from agentic_evals.compare.checks import Atom, declared_atoms, expected_atoms, unmatched
from agentic_evals.compare.claims import claim_deltas, direction
from agentic_evals.compare.models import (
    CaseClass,
    CaseDelta,
    Change,
    Comparison,
    ReadinessDelta,
    Side,
    SkillFileChange,
)
from agentic_evals.contract.models import Expected
from agentic_evals.judge.provenance import canonical_json, sha256_bytes
from agentic_evals.reports.model import READINESS, CaseReport, Report

_WEAKER: Final = {
    "required": "MADE_OPTIONAL",
    "trials": "TRIALS_LOWERED",
    "blocked_when_stdout_contains": "MARKER_ADDED",
    "infra_blocked_when": "MARKER_ADDED",
    "must_exercise": "MUST_EXERCISE_REMOVED",
}
_STRONGER: Final = {
    "required": "MADE_REQUIRED",
    "trials": "TRIALS_RAISED",
    "blocked_when_stdout_contains": "MARKER_REMOVED",
    "infra_blocked_when": "MARKER_REMOVED",
    "must_exercise": "MUST_EXERCISE_ADDED",
}
_ORACLE: Final = {
    "loosened": ("ORACLE_LOOSENED", "ORACLE_TIGHTENED"),
    "replaced": ("ORACLE_REPLACED", "ORACLE_REPLACED"),
    "removed": ("ORACLE_REMOVED", "ORACLE_ADDED"),
}


class NotComparableError(ValueError):
    """The two reports cannot be compared; the message names the reason."""


def _side(report: Report, source: str) -> Side:
    return Side(
        source=source,
        run_id=report.run_id,
        skill=report.skill,
        fixture_sha256=report.fixture_sha256,
        readiness=report.readiness,
    )


def _selection(report: Report) -> str:
    if report.shard is not None:
        return f"shard {report.shard.index}/{report.shard.total}"
    if report.focused_cases is not None:
        return f"a focused run of {', '.join(sorted(report.focused_cases))}"
    return "a full run"


def check_comparable(base: Report, head: Report) -> None:
    """Raise :class:`NotComparableError` unless both reports cover the same kind of selection."""
    if base.skill != head.skill:
        raise NotComparableError(f"BASE is skill {base.skill!r}, HEAD is skill {head.skill!r}")
    if _selection(base) != _selection(head):
        raise NotComparableError(f"BASE is {_selection(base)}, HEAD is {_selection(head)}")
    for name, report in (("BASE", base), ("HEAD", head)):
        for case in report.cases:
            if case.expected is None:
                continue
            if sha256_bytes(canonical_json(case.expected)) != case.oracle_sha256:
                raise NotComparableError(
                    f"{name} case {case.case_id}: its expected does not hash to its "
                    "oracle_sha256 (the report was edited)"
                )


def _atoms(case: CaseReport, trials: int) -> list[Atom] | None:
    declared = declared_atoms(
        must_exercise=case.must_exercise or [],
        blocked=case.blocked_when_stdout_contains or [],
        infra=case.infra_blocked_when or [],
        required=case.required,
        trials=trials,
    )
    if case.expected is None:
        return None
    try:
        return expected_atoms(Expected.model_validate(case.expected)) + declared
    except ValidationError as error:
        raise NotComparableError(
            f"case {case.case_id}: its expected is not valid: {error}"
        ) from None


def _changes(
    mine: list[Atom], theirs: list[Atom], named: dict[str, str], oracle_index: int
) -> list[Change]:
    changes = []
    for atom, how in unmatched(mine, theirs):
        kind = named.get(atom.kind) or _ORACLE[how][oracle_index]
        related = [o.shown() for o in theirs if o.kind == atom.kind and o.target == atom.target]
        other = f" (now {', '.join(related)})" if related and oracle_index == 0 else ""
        changes.append(Change(kind=kind, check=atom.label(), detail=f"{atom.shown()}{other}"))
    return changes


def case_changes(
    base: CaseReport, head: CaseReport, base_trials: int, head_trials: int
) -> tuple[list[Change], list[Change]]:
    """How HEAD's case checks less, and more, than BASE's."""
    old, new = _atoms(base, base_trials), _atoms(head, head_trials)
    if old is None or new is None:
        if base.oracle_sha256 == head.oracle_sha256 and old is None and new is None:
            return [], []
        # Without the declared oracles a changed hash cannot be shown to check as much.
        unknown = Change(
            kind="ORACLES_UNKNOWN",
            check="expected",
            detail="a report does not carry the declared oracles, and the oracle hash changed",
        )
        return ([unknown] if base.oracle_sha256 != head.oracle_sha256 else []), []
    return _changes(old, new, _WEAKER, 0), _changes(new, old, _STRONGER, 1)


def _case_delta(
    base: Report, head: Report, old: CaseReport | None, new: CaseReport | None
) -> CaseDelta:
    classes: list[CaseClass] = []
    weaker: list[Change] = []
    stronger: list[Change] = []
    if old is None or new is None:
        classes.append("added" if old is None else "removed")
    else:
        if old.outcome == "PASS" and new.outcome != "PASS":
            classes.append("regressed")
        if old.outcome != "PASS" and new.outcome == "PASS":
            classes.append("fixed")
        if new.flaky and not old.flaky:
            classes.append("new_flaky")
        weaker, stronger = case_changes(old, new, base.trials_per_case, head.trials_per_case)
        if weaker:
            classes.append("weakened")
        if stronger:
            classes.append("strengthened")
    case_id = (old or new).case_id  # type: ignore[union-attr]
    return CaseDelta(
        case_id=case_id,
        classes=classes or ["unchanged"],
        base_outcome=old.outcome if old else None,
        head_outcome=new.outcome if new else None,
        weakened=weaker,
        strengthened=stronger,
    )


def _skill_files(base: Report, head: Report) -> list[SkillFileChange]:
    def table(report: Report) -> dict[str, tuple[str, list[str]]]:
        found: dict[str, tuple[str, list[str]]] = {}
        for case in report.cases:
            for path, digest in (case.skill_files or {}).items():
                found.setdefault(path, (digest, []))[1].append(case.case_id)
        return found

    old, new = table(base), table(head)
    changed = []
    for path in sorted({*old, *new}):
        if path not in old or path not in new or old[path][0] == new[path][0]:
            continue  # a file only one side runs is an added or removed entrypoint, not a change
        cases = list(dict.fromkeys([*old[path][1], *new[path][1]]))
        changed.append(
            SkillFileChange(path=path, base=old[path][0], head=new[path][0], cases=cases)
        )
    return changed


def compare_reports(
    base: Report, head: Report, *, base_source: str, head_source: str
) -> Comparison:
    """Compare ``head`` with ``base`` (see ``docs/compare.md``).

    Raises:
        NotComparableError: Other skills, other kinds of case selection, or a
            report whose declared oracles do not match their hash.
    """
    check_comparable(base, head)
    old = {c.case_id: c for c in base.cases}
    new = {c.case_id: c for c in head.cases}
    deltas = [_case_delta(base, head, old.get(i), new.get(i)) for i in dict.fromkeys([*old, *new])]
    claims = claim_deltas(base, head)
    # READINESS runs from the best: a higher index is worse.
    readiness = ReadinessDelta(
        base=base.readiness,
        head=head.readiness,
        change=direction(-READINESS.index(base.readiness), -READINESS.index(head.readiness)),
    )

    def of(name: CaseClass) -> list[str]:
        return [d.case_id for d in deltas if name in d.classes]

    weakened_claims = [c.id for c in claims if c.weakened]
    regressed_claims = [c.id for c in claims if c.change == "worse"]
    gate_failed = bool(
        of("regressed")
        or of("weakened")
        or weakened_claims
        or regressed_claims
        or readiness.change == "worse"
    )
    return Comparison(
        base=_side(base, base_source),
        head=_side(head, head_source),
        regressed=of("regressed"),
        fixed=of("fixed"),
        new_flaky=of("new_flaky"),
        weakened=of("weakened"),
        strengthened=of("strengthened"),
        added=of("added"),
        removed=of("removed"),
        unchanged=of("unchanged"),
        readiness=readiness,
        claims=claims,
        weakened_claims=weakened_claims,
        strengthened_claims=[c.id for c in claims if c.strengthened],
        regressed_claims=regressed_claims,
        skill_files_changed=_skill_files(base, head),
        cases=deltas,
        gate_failed=gate_failed,
    )
