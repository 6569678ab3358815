"""Is a regression's fail-before-fix established? The one rule, for show, audit and coverage.

Nothing runs here: the verdict is read from the record, its proof as it is
now and its retained case as it is now.

- no proof: ``never_proven`` (possibly vacuous);
- a ``proof_command``: ``weak``, never established: its output is its own
  word, and a proof that echoes the failure code "verifies" as well as one
  that runs the guard;
- a structural proof (``patch``, ``git_ref``, ``mutation``) is established
  only by a ``verification`` record that ``regressions verify --write``
  wrote: its date is ``last_proven`` (a date written by hand, without one, is
  ``unverified``) and its hashes are those of the proof and of the retained
  case now (else ``stale``: the guard or the proof changed since it was
  proven). No ``last_proven`` at all is ``never_proven``; a patch file that
  cannot be read is ``not_applicable``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.regressions.identity import case_identity, proof_sha256
from agentic_evals.regressions.models import ProofForm, Regression
from agentic_evals.regressions.protection import FixtureCache
from agentic_evals.regressions.results import ProofState
from agentic_evals.regressions.rules import parse_date

DOCS = "docs/regressions.md"


class Establishment(NamedTuple):
    """Whether the record's fail-before-fix is established, and why not."""

    state: ProofState
    """``established``, ``never_proven``, ``weak``, ``unverified``, ``stale``,
    ``not_applicable`` or ``unguarded`` (the retained case is not there to hash)."""
    issue: str | None
    """``CODE: detail`` when it is not established (``None`` for ``unguarded``: the
    protection issue says why)."""

    @property
    def established(self) -> bool:
        """The proof verified for the guard as it is now."""
        return self.state == "established"


def establishment(record: Regression, registry_dir: Path, cache: FixtureCache) -> Establishment:
    """The verdict on ``record``'s fail-before-fix proof (see the module docstring)."""
    form = record.proof_form
    if form is None:
        detail = "no fail_before_fix proof: nothing shows the guard can fail (possibly vacuous)"
        return Establishment("never_proven", f"{codes.REG_NEVER_PROVEN}: {detail}")
    if form == "proof_command":
        detail = (
            "a proof_command is free-form, so its output is only its own word: at most weak, "
            f"never established; give a patch, git_ref or mutation proof ({DOCS})"
        )
        return Establishment("weak", f"{codes.REG_WEAK_PROOF}: {detail}")
    if record.proven_on is None:
        detail = "no last_proven: `regressions verify --write` records it when the proof verifies"
        return Establishment("never_proven", f"{codes.REG_NEVER_PROVEN}: {detail}")
    return _verified(record, form, registry_dir, cache)


def _verified(
    record: Regression, form: ProofForm, registry_dir: Path, cache: FixtureCache
) -> Establishment:
    proven = record.proven_on or ""
    verification = record.verification
    if verification is None or parse_date(verification.date) != parse_date(proven):
        detail = (
            f"last_proven {proven} has no matching verification record: a date written by "
            "hand proves nothing (`regressions verify --write` writes both)"
        )
        return Establishment("unverified", f"{codes.REG_UNVERIFIED_LAST_PROVEN}: {detail}")
    try:
        proof_hash = proof_sha256(record, registry_dir)
    except OSError as error:
        detail = f"the patch cannot be read: {error.strerror or error}"
        return Establishment("not_applicable", f"{codes.REG_PROOF_NOT_APPLICABLE}: {detail}")
    since = f"since it verified on {verification.date}"
    if verification.proof != form or verification.proof_sha256 != proof_hash:
        detail = f"the {form} proof changed {since}: verify it again"
        return Establishment("stale", f"{codes.REG_PROOF_STALE}: {detail}")
    identity = case_identity(record, registry_dir, cache)
    if identity is None:
        return Establishment("unguarded", None)
    changed = [
        name for name, now in identity._asdict().items() if getattr(verification, name) != now
    ]
    if changed:
        detail = (
            f"the retained case {record.retained_case!r} changed {since} "
            f"({', '.join(changed)} differ): the proof is of another guard; verify it again"
        )
        return Establishment("stale", f"{codes.REG_PROOF_STALE}: {detail}")
    return Establishment("established", None)
