"""Load rules of a record's proof and exemption, beyond what the schema can say. Pure.

- ``fail_before_fix`` takes at most one structural form (``patch``, ``git_ref``,
  ``mutation``; AE-REG-PROOF-FORM). A ``proof_command`` beside one is not run
  (a warning): the structural proof decides.
- A structural proof always expects the guard to fail (``expected_fail: false``
  is AE-REG-PROOF-FORM), and needs a ``failure_code`` that a run can show: a
  problem code of the tool or an oracle pointer (``/expected/...``;
  AE-REG-FAILURE-CODE). A mutation must change something.
- A generic ``failure_code`` (see :mod:`.generic`) is AE-REG-GENERIC-CODE,
  whatever the proof: any failure would show it.
- ``git_ref`` is a full commit id (AE-REG-PROOF-FORM); ``patch`` stays inside
  the skill tree, ``mutation.path`` inside the skill folder (AE-PATH-ESCAPE);
  ``verification.date`` is a calendar date.
- ``EXEMPT`` needs ``reason``, ``owner`` and an ``expires`` read by the
  claim exemptions' date rules (AE-REG-EXEMPTION). Expiry itself is judged
  later, against today (:mod:`.exemption`): an expired exemption is no load
  error, the record is ACTIVE again.
"""

from __future__ import annotations

import re

from agentic_evals import codes
from agentic_evals.contract.rules.claims import parse_expires
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.regressions.generic import is_generic, tool_code_hint
from agentic_evals.regressions.models import COMMIT_PATTERN, STRUCTURAL_FORMS
from agentic_evals.regressions.rules import Parts, date_findings, escape_findings, items

EXEMPTION_FIELDS = ("reason", "owner", "expires")
"""What an EXEMPT record must say."""


def proof_findings(document: object, *, in_fixtures_dir: bool) -> list[Finding]:
    """Every finding of the rules above over a raw registry document."""
    found: list[Finding] = []
    for index, record in items(document, "regressions"):
        parts: Parts = ["regressions", index]
        proof = record.get("fail_before_fix")
        forms = _forms(proof)
        found += _failure_code_findings(record, parts, structural=bool(forms))
        found += _exemption_findings(record, parts)
        verification = record.get("verification")
        if isinstance(verification, dict):
            found += date_findings(verification.get("date"), [*parts, "verification", "date"])
        if isinstance(proof, dict):
            found += _form_findings(proof, [*parts, "fail_before_fix"], forms, in_fixtures_dir)
    return found


def _forms(proof: object) -> list[str]:
    if not isinstance(proof, dict):
        return []
    return [name for name in STRUCTURAL_FORMS if proof.get(name) is not None]


def _form_findings(
    proof: dict[str, object], parts: Parts, forms: list[str], in_fixtures_dir: bool
) -> list[Finding]:
    found: list[Finding] = []
    if len(forms) > 1:
        message = f"a proof has one structural form, not {' and '.join(forms)}: keep one"
        found.append(finding(codes.REG_PROOF_FORM, parts, message))
    if forms and proof.get("proof_command") is not None:
        message = f"not run: the {forms[0]} proof decides; remove proof_command"
        found.append(finding(codes.REG_PROOF_FORM, [*parts, "proof_command"], message, "warning"))
    if forms and proof.get("expected_fail") is False:
        message = f"a {forms[0]} proof puts the bug back, so the guard must fail there"
        found.append(finding(codes.REG_PROOF_FORM, [*parts, "expected_fail"], message))
    ref = proof.get("git_ref")
    if isinstance(ref, str) and ref and not re.fullmatch(COMMIT_PATTERN, ref):
        message = (
            f"git_ref {ref!r} is not a full commit id (40 or 64 lower-case hex digits): a branch "
            "or tag can move; `regressions add --git-ref` resolves one"
        )
        found.append(finding(codes.REG_PROOF_FORM, [*parts, "git_ref"], message))
    depth = 1 if in_fixtures_dir else 0
    found += escape_findings(proof.get("patch"), [*parts, "patch"], depth, "skill tree")
    mutation = proof.get("mutation")
    if isinstance(mutation, dict):
        at: Parts = [*parts, "mutation"]
        found += escape_findings(mutation.get("path"), [*at, "path"], 0, "skill folder")
        if isinstance(mutation.get("find"), str) and mutation.get("find") == mutation.get(
            "replace"
        ):
            message = "replace equals find: the mutation changes nothing"
            found.append(finding(codes.REG_PROOF_FORM, [*at, "replace"], message))
    return found


def _failure_code_findings(
    record: dict[str, object], parts: Parts, *, structural: bool
) -> list[Finding]:
    code = record.get("failure_code")
    at: Parts = [*parts, "failure_code"]
    if structural and code is None:
        message = (
            "a structural proof needs failure_code: the problem code (EXIT_CODE, "
            "ARTIFACT_MISMATCH, ...) or oracle pointer (/expected/...) the guard fails with"
        )
        return [finding(codes.REG_FAILURE_CODE, parts, message)]
    if not isinstance(code, str) or not code:
        return []
    if is_generic(code):
        message = (
            f"failure_code {code!r} is generic: any failure shows it, so it names no reason; "
            f"give a problem code, an oracle pointer or specific text{tool_code_hint(code)}"
        )
        return [finding(codes.REG_GENERIC_CODE, at, message)]
    if structural and code not in codes.PROBLEM_CODES and not code.startswith("/expected/"):
        message = (
            f"failure_code {code!r} is no problem code of the tool and no oracle pointer "
            "(/expected/...): a structural proof is judged by the problems of the guard's run"
            f"{tool_code_hint(code)}"
        )
        return [finding(codes.REG_FAILURE_CODE, at, message)]
    return []


def _exemption_findings(record: dict[str, object], parts: Parts) -> list[Finding]:
    if record.get("status") != "EXEMPT":
        return []
    missing = [
        name
        for name in EXEMPTION_FIELDS
        if not isinstance(value := record.get(name), str) or not value.strip()
    ]
    if missing:
        message = (
            f"an EXEMPT regression needs {', '.join(missing)}: why, who owns it, and when "
            "it ends (then the record is ACTIVE again)"
        )
        return [finding(codes.REG_EXEMPTION, parts, message)]
    expires = record.get("expires")
    if isinstance(expires, str) and parse_expires(expires) is None:
        message = f"expires {expires!r} is not an ISO date or datetime"
        return [finding(codes.REG_EXEMPTION, [*parts, "expires"], message)]
    return []
