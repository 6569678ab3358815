"""What a case checks, as atoms, and when one atom is at least as strict as another. Pure.

A case's checks (``docs/compare.md``) are split into atoms: its exit code,
each ``*_contains``/``*_excludes`` string, each condition of each artifact
check (keyed by its path or glob), each ``workspace_changes`` pattern and its
``only``, each ``must_exercise`` entry, its blocking markers, ``required`` and
the trial count. HEAD *checks less* than BASE when some BASE atom is implied
by no HEAD atom: it was removed, or replaced by a looser one on the same
target. HEAD *checks more* when some HEAD atom is implied by no BASE atom.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from agentic_evals.contract.models import ArtifactCheck, Expected
from agentic_evals.judge.provenance import canonical_json

_STREAMS = ("stdout_contains", "stderr_contains", "stdout_excludes", "stderr_excludes")
# Artifact conditions that only hold on an existing artifact.
_NEEDS_FILE = frozenset(
    {"exists", "min_bytes", "sha256", "json_equals", "json_equals_artifact", "json_resolves"}
    | {"content_regex", "content_excludes"}
)
_JSON = frozenset({"json_equals", "json_equals_artifact", "json_resolves"})


class Atom(NamedTuple):
    """One thing a case checks."""

    kind: str
    """``exit_code``, ``stdout_contains``..., ``min_bytes``, ``json_equals``, ``trials``..."""
    target: str
    """``path:<p>`` / ``glob:<g>`` for artifact conditions, else ``""``."""
    value: Any
    """What it checks for (a string, a number, a pointer, a frozenset...)."""

    def label(self) -> str:
        """``artifacts[path:out/r.json].json_equals`` or ``stdout_contains``."""
        return f"artifacts[{self.target}].{self.kind}" if self.target else self.kind

    def shown(self) -> str:
        """The atom's value for people."""
        value = self.value
        if isinstance(value, frozenset):
            return "{" + ", ".join(sorted(map(str, value))) + "}"
        return repr(value)


def _artifact_atoms(check: ArtifactCheck) -> list[Atom]:
    target = f"path:{check.path}" if check.path is not None else f"glob:{check.glob}"
    atoms: list[Atom] = []
    if check.absent is True or check.exists is False:
        atoms.append(Atom("absent", target, True))
    if check.exists is True:
        atoms.append(Atom("exists", target, True))
    if check.min_bytes is not None:
        atoms.append(Atom("min_bytes", target, check.min_bytes))
    if check.sha256 is not None:
        atoms.append(Atom("sha256", target, check.sha256.lower().removeprefix("sha256:")))
    pointer = check.json_pointer or ""
    if "equals" in check.model_fields_set:
        atoms.append(Atom("json_equals", target, (pointer, canonical_json(check.equals))))
    if check.equals_artifact is not None:
        ref = check.equals_artifact
        atoms.append(Atom("json_equals_artifact", target, (pointer, ref.path, ref.json_pointer)))
    compared = "equals" in check.model_fields_set or check.equals_artifact is not None
    if check.is_artifact is True or (check.json_pointer is not None and not compared):
        atoms.append(Atom("json_resolves", target, pointer))
    if check.content_regex is not None:
        atoms.append(Atom("content_regex", target, check.content_regex))
    if check.content_excludes is not None:
        atoms.append(Atom("content_excludes", target, check.content_excludes))
    if not atoms:  # a bare path claims the artifact exists
        atoms.append(Atom("exists", target, True))
    return atoms


def expected_atoms(expected: Expected) -> list[Atom]:
    """The atoms of a case's ``expected``."""
    atoms = [Atom("exit_code", "", expected.exit_code)]
    for kind in _STREAMS:
        atoms += [Atom(kind, "", text) for text in getattr(expected, kind)]
    for check in expected.artifacts:
        atoms += _artifact_atoms(check)
    changes = expected.workspace_changes
    if changes is not None:
        patterns = []
        for category in ("added", "changed", "removed"):
            for pattern in getattr(changes, category):
                atoms.append(Atom(f"workspace_{category}", "", pattern))
                patterns.append(f"{category}:{pattern}")
        if changes.only:
            atoms.append(Atom("workspace_only", "", frozenset(patterns)))
    return atoms


def declared_atoms(
    *,
    must_exercise: Iterable[str],
    blocked: Iterable[str],
    infra: Iterable[str],
    required: bool,
    trials: int,
) -> list[Atom]:
    """The atoms of what a case declares besides ``expected``."""
    atoms = [Atom("must_exercise", "", entry) for entry in must_exercise]
    atoms.append(Atom("blocked_when_stdout_contains", "", frozenset(blocked)))
    atoms.append(Atom("infra_blocked_when", "", frozenset(infra)))
    if required:
        atoms.append(Atom("required", "", True))
    atoms.append(Atom("trials", "", trials))
    return atoms


def _pointer_within(outer: str, inner: str) -> bool:
    """``inner`` resolving implies ``outer`` resolves (``/a/b`` implies ``/a``)."""
    return inner == outer or outer == "" or inner.startswith(outer + "/")


def implies(strong: Atom, weak: Atom) -> bool:
    """Whether passing ``strong`` guarantees passing ``weak``."""
    if strong == weak:
        return True
    if strong.target != weak.target:
        return False
    kind, value = weak.kind, weak.value
    if kind in ("stdout_contains", "stderr_contains") and strong.kind == kind:
        return value in strong.value
    if kind in ("stdout_excludes", "stderr_excludes", "content_excludes") and strong.kind == kind:
        return strong.value in value
    if kind == "exists":
        return strong.kind in _NEEDS_FILE
    if kind == "min_bytes" and strong.kind == kind:
        return bool(strong.value >= value)
    if kind == "json_resolves" and strong.kind in _JSON:
        inner = strong.value if strong.kind == "json_resolves" else strong.value[0]
        return _pointer_within(value, inner)
    if kind in ("workspace_only", "blocked_when_stdout_contains", "infra_blocked_when"):
        # Fewer allowed changes, or fewer markers that excuse a failure, is stricter.
        return strong.kind == kind and strong.value <= value
    if kind == "trials" and strong.kind == kind:
        return bool(strong.value >= value)
    return False


def unmatched(atoms: Iterable[Atom], others: list[Atom]) -> list[tuple[Atom, str]]:
    """Atoms implied by none of ``others``, each with how it went.

    ``loosened``: an atom of ``others`` on the same target is weaker than it;
    ``replaced``: ``others`` check that kind or target another way; ``removed``.
    """
    found = []
    for atom in atoms:
        if any(implies(other, atom) for other in others):
            continue
        if any(implies(atom, other) for other in others):
            how = "loosened"
        elif any(o.kind == atom.kind or (atom.target and o.target == atom.target) for o in others):
            how = "replaced"
        else:
            how = "removed"
        found.append((atom, how))
    return found
