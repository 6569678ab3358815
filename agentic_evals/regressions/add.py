"""``regressions add``: record a regression whose structural proof verifies, or nothing.

The new record is built from the request (a ``git_ref`` is resolved to the
full commit id it names; a ``patch`` must be a file inside the skill folder,
kept by its path relative to the registry), checked by the registry's own
load pipeline together with the records already there, and verified once as
``regressions verify`` verifies it. Only a verified record is written, with
its ``last_proven`` and verification record, through the one atomic writer
(the registry keeps its mode, key order and other records byte for byte in
value). Without ``failure_code``, the first problem code every trial of the
guard shows on the broken tree is taken.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from agentic_evals import clock, codes
from agentic_evals.documents.bounded import BoundError, read_regular
from agentic_evals.documents.findings import Finding
from agentic_evals.limits import MAX_DOCUMENT_BYTES
from agentic_evals.regressions import git
from agentic_evals.regressions.broken import NotApplicable, broken_tree, fixture_in_tree
from agentic_evals.regressions.guard import run_guard
from agentic_evals.regressions.load import RegistryLoad, load_registry
from agentic_evals.regressions.models import DEFAULT_RETAINED_FIXTURE, REGISTRY_SCHEMA, Regression
from agentic_evals.regressions.results import RegressionsVerify, VerifyResult
from agentic_evals.regressions.skill import REGISTRY, RegressionsInputError
from agentic_evals.regressions.verify import VerifyOptions, verify_records
from agentic_evals.regressions.write import (
    dump_registry,
    parse_registry,
    stamped,
    write_registry,
)
from agentic_evals.reports.json_out import write_text_atomic


@dataclass(frozen=True)
class AddRequest:
    """The record to add, as ``regressions add`` was asked."""

    regression_id: str
    retained_case: str
    patch: Path | None = None
    git_ref: str | None = None
    mutation: tuple[str, str, str] | None = None
    """``(path, find, replace)``."""
    count: int | None = None
    failure_code: str | None = None
    retained_fixture: str = DEFAULT_RETAINED_FIXTURE
    claim_ids: tuple[str, ...] = ()
    seam_ids: tuple[str, ...] = ()
    incident: str | None = None
    options: VerifyOptions = field(default_factory=VerifyOptions)


class AddOutcome(NamedTuple):
    """The verification of the new record (``written`` names it when it was written)."""

    document: RegressionsVerify | None
    """``None`` when the record or the registry is invalid (see ``findings``)."""
    findings: list[Finding]
    interrupted_by: int | None


def add_regression(skill_dir: Path, request: AddRequest) -> AddOutcome:
    """Verify the requested record and append it to ``SKILL_DIR/fixtures/regressions.json``.

    Raises:
        RegressionsInputError: the folder is missing, the registry exists and is
            invalid or has the id already, or the proof cannot be resolved.
        RegistryChangedError: the registry changed while the proof ran.
    """
    if not skill_dir.is_dir():
        raise RegressionsInputError(f"{skill_dir}: not a folder")
    path = skill_dir / REGISTRY
    try:
        source = read_regular(path, MAX_DOCUMENT_BYTES) if path.exists() else None
    except (OSError, BoundError) as error:
        raise RegressionsInputError(f"{path}: cannot read: {error}") from None
    document = _existing(path, request) if source is not None else _new(skill_dir)
    records = document["regressions"]
    assert isinstance(records, list)
    raw = _record(skill_dir, path.parent, request)
    records.append(raw)
    candidate = _check(document, path)
    if candidate.model is None:
        return AddOutcome(None, candidate.findings, None)
    record = candidate.model.regressions[-1]
    if request.failure_code is None:
        # The record was checked with a stand-in code; the guard's own run names the real one.
        found = _found_code(record, skill_dir, path.parent, request.options)
        record = record.model_copy(update={"failure_code": found})
        raw["failure_code"] = found
        if found is None:
            del raw["failure_code"]
    [result], interrupted_by = verify_records([record], skill_dir, path.parent, request.options)
    written = result.verification is not None and interrupted_by is None
    if written and result.verification is not None:
        records[-1] = stamped(raw, result.verification)
        text = dump_registry(document, source or b"")
        if source is None:
            if path.exists():
                raise RegressionsInputError(f"{path} appeared while the proof ran; not written")
            write_text_atomic(path, text)
        else:
            write_registry(path, source, text)
    document_out = _document(skill_dir, path, result, written, interrupted_by)
    return AddOutcome(document_out, candidate.findings, interrupted_by)


def _existing(path: Path, request: AddRequest) -> dict[str, object]:
    loaded = load_registry(path)
    if loaded.model is None:
        first = loaded.errors[0].render() if loaded.errors else "it does not load"
        raise RegressionsInputError(f"{path} is invalid ({first}); nothing was added")
    if any(r.regression_id == request.regression_id for r in loaded.model.regressions):
        raise RegressionsInputError(f"{path} already has regression {request.regression_id!r}")
    return parse_registry(loaded.source)


def _new(skill_dir: Path) -> dict[str, object]:
    return {"schema": REGISTRY_SCHEMA, "skill": skill_dir.resolve().name, "regressions": []}


def _record(skill_dir: Path, registry_dir: Path, request: AddRequest) -> dict[str, object]:
    proof: dict[str, object] = {}
    if request.patch is not None:
        proof["patch"] = _patch_path(skill_dir, registry_dir, request.patch)
    if request.git_ref is not None:
        resolved = git.resolve_commit(request.git_ref, skill_dir.resolve())
        if not resolved.ok or not resolved.output:
            raise RegressionsInputError(f"--git-ref {request.git_ref!r} names no commit here")
        proof["git_ref"] = resolved.output
    if request.mutation is not None:
        where, find, replace = request.mutation
        mutation: dict[str, object] = {"path": where, "find": find, "replace": replace}
        proof["mutation"] = mutation | ({"count": request.count} if request.count else {})
    record: dict[str, object] = {
        "regression_id": request.regression_id,
        "retained_case": request.retained_case,
    }
    if request.retained_fixture != DEFAULT_RETAINED_FIXTURE:
        record["retained_fixture"] = request.retained_fixture
    optional = {
        "failure_code": request.failure_code or codes.EXIT_CODE,
        "claim_ids": list(request.claim_ids) or None,
        "seam_ids": list(request.seam_ids) or None,
        "incident": request.incident,
        "first_added": clock.today().isoformat(),
    }
    record |= {key: value for key, value in optional.items() if value is not None}
    record["fail_before_fix"] = proof
    return record


def _patch_path(skill_dir: Path, registry_dir: Path, patch: Path) -> str:
    real, root = os.path.realpath(patch), os.path.realpath(skill_dir)
    if not os.path.isfile(real):
        raise RegressionsInputError(f"--patch {patch}: no such file")
    if os.path.commonpath([real, root]) != root:
        raise RegressionsInputError(
            f"--patch {patch} is outside {skill_dir}: keep it in the skill folder (for example "
            "under fixtures/regressions/) so that the registry can name it"
        )
    return os.path.relpath(real, os.path.realpath(registry_dir))


def _check(document: dict[str, object], path: Path) -> RegistryLoad:
    """The candidate registry through the load pipeline, from a private copy.

    Its findings name ``path``, where the candidate would be written.
    """
    with tempfile.TemporaryDirectory(prefix="agentic-evals-add-") as scratch:
        candidate = Path(scratch) / REGISTRY
        candidate.parent.mkdir(parents=True)
        candidate.write_text(dump_registry(document, b""), encoding="utf-8")
        loaded = load_registry(candidate)
    findings = [item.model_copy(update={"file": str(path)}) for item in loaded.findings]
    return dataclasses.replace(loaded, path=path, findings=findings)


def _found_code(
    record: Regression, skill_dir: Path, registry_dir: Path, options: VerifyOptions
) -> str | None:
    """The first problem code every trial of the guard shows on the broken tree."""
    fixture = fixture_in_tree(record, skill_dir, registry_dir)
    try:
        with broken_tree(record, skill_dir, registry_dir) as tree:
            ran = run_guard(
                record,
                tree / fixture,
                tree,
                timeout=options.timeout_seconds,
                environ=options.environ,
            )
    except NotApplicable:
        return None  # verifying the record reports why
    if ran.interrupted_by is not None or ran.case is None or not ran.case.trials:
        return None
    trials = ran.case.trials
    return next(
        (
            problem.code
            for problem in trials[0].problems
            if problem.code != codes.INTERRUPTED
            and all(any(p.code == problem.code for p in trial.problems) for trial in trials)
        ),
        None,
    )


def _document(
    skill_dir: Path, path: Path, result: VerifyResult, written: bool, signum: int | None
) -> RegressionsVerify:
    ids = [result.regression_id]
    return RegressionsVerify(
        skill=skill_dir.resolve().name,
        registry=str(path),
        as_of=clock.today().isoformat(),
        verified=ids if result.verdict == "verified" else [],
        unproven=ids if result.verdict == "unproven" else [],
        weak=ids if result.verdict == "weak" else [],
        skipped=[],
        unprotected=ids if result.unprotected else [],
        written=ids if written else [],
        interrupted=None if signum is None else signal.Signals(signum).name,
        results=[result],
        findings=[],
    )
