"""What ``merge`` asks of each report before it combines them: the checks that name a file.

The pure checks are :mod:`agentic_evals.judge.consistency`; this module
applies them to report files and, with ``merge --fixture``, to the fixture
itself, raising :class:`MergeError` with the file and the JSON pointer.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals.judge.consistency import ConsistencyError, check_fixture, check_report
from agentic_evals.reports.model import ClaimDeclaration, Report


class MergeError(ValueError):
    """The reports cannot be merged; the message names the problem and the file."""


class ReportFile(NamedTuple):
    """A report and the file it was read from."""

    path: Path
    report: Report


def check_one(file: ReportFile) -> None:
    """A report merge can take: not focused, and consistent with itself."""
    if file.report.focused_cases is not None:
        raise MergeError(
            f"{file.path}: /focused_cases: a focused run (--case) cannot be merged: it ran a "
            "selection with the gates skipped; run the whole fixture, or every shard"
        )
    try:
        check_report(file.report)
    except ConsistencyError as error:
        raise MergeError(f"{file.path}: {error}: the report is inconsistent") from None


def claim_declarations(report: Report) -> object:
    """What a report's claims declare (and the exemptions as judged), not what they found."""
    block = report.capability_readiness
    if block is None:
        return None
    return [
        (
            {name: getattr(claim, name) for name in ClaimDeclaration.model_fields},
            claim.exempt_evidence,
            claim.ignored_exemptions,
        )
        for claim in block.claims
    ]


def check_against_fixture(files: Sequence[ReportFile], path: Path) -> None:
    """Every report names the fixture at ``path``: its bytes' sha256 and its cases' hashes."""
    from agentic_evals.evidence.gates import load_fixture
    from agentic_evals.judge.provenance import sha256_bytes
    from agentic_evals.judge.report import fixture_cases

    loaded = load_fixture(path, gates=False)
    if loaded.model is None:
        errors = "; ".join(error.render() for error in loaded.errors[:3])
        raise MergeError(f"{path}: the fixture does not load: {errors}")
    digest, cases = sha256_bytes(loaded.source), fixture_cases(loaded)
    for file in files:
        try:
            check_fixture(file.report, digest, cases)
        except ConsistencyError as error:
            raise MergeError(f"{file.path}: {error}: not a report of {path}") from None
