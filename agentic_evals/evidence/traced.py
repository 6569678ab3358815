"""Live qualification by what the trace shows, and by what the case's env does (docs/tracing.md).

Two sets of reasons a case does not count as live, added to the static ones
of :mod:`.qualification` (the same :class:`Disqualifier`, the same effect):

- at load, from the case's ``env`` (:func:`env_injection`): a variable that
  makes an interpreter run something else first (``BASH_ENV``, ``ENV``,
  ``LD_PRELOAD``, ``LD_LIBRARY_PATH``, ``PYTHONSTARTUP``, ``PYTHONPATH``,
  ``PYTHONHOME``, ``NODE_OPTIONS``, ``PERL5OPT``, ``RUBYOPT``), a ``PATH`` entry
  inside a stub location, or a ``PATH`` entry whose shell (``bash``, ``sh``,
  ...) is a skill-tree file that does nothing (``LIVE_ENV_INJECTION``);
- after the run, from each trial's ``file_trace`` (:func:`trace_blockers`):
  a trial that could not be traced (``TRACE_UNAVAILABLE``), ran no
  substantive skill-tree file (``LIVE_NO_ENTRYPOINT``), opened a stub or a
  stub's copy outside the tree, or names such a copy (``LIVE_STUB_INPUT``),
  or whose artifact readbacks were not written by the entrypoint's process
  subtree during the trial (``LIVE_NO_READBACK``, when no other readback is
  left).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from agentic_evals import codes
from agentic_evals.commands.entrypoints import CommandContext
from agentic_evals.contract.layout import stub_location
from agentic_evals.contract.models import Case
from agentic_evals.evidence.qualification import Disqualifier
from agentic_evals.reports.model import TrialReport
from agentic_evals.runner.substance import READ_BYTES, substance

HIJACK_VARIABLES = frozenset(
    {
        "BASH_ENV",
        "ENV",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "NODE_OPTIONS",
        "PERL5OPT",
        "RUBYOPT",
    }
)
"""Variables that make an interpreter load or run something before the program itself."""
_SHELL_NAMES = ("bash", "sh", "dash", "zsh", "ksh", "python3", "python", "node")


def env_injection(case: Case, ctx: CommandContext) -> list[Disqualifier]:
    """Why the case's ``env`` hijacks the interpreters its command runs (at most one reason)."""
    env: Mapping[str, str] = ctx.env
    found = sorted(name for name in env if name in HIJACK_VARIABLES)
    reasons = [f"sets {', '.join(found)}"] if found else []
    tree = Path(os.path.realpath(ctx.skill_root))
    for entry in env.get("PATH", "").split(os.pathsep) if "PATH" in env else ():
        where = Path(os.path.realpath(ctx.cwd / (entry or ".")))
        inside = where.is_relative_to(tree)
        shown = str(where.relative_to(tree)) if inside else str(where)
        if inside and stub_location(f"{shown}/x") or any(s == where for s in ctx.stub_dirs):
            reasons.append(f"puts the stub location {shown!r} on PATH")
        elif inside:
            fake = [name for name in _SHELL_NAMES if _does_nothing(where / name)]
            if fake:
                reasons.append(f"puts {', '.join(fake)} from {shown!r}, which do nothing, on PATH")
    if not reasons:
        return []
    reason = f"its env hijacks the interpreter: {'; '.join(reasons)}"
    return [Disqualifier(codes.LIVE_ENV_INJECTION, reason)]


def _does_nothing(path: Path) -> bool:
    try:
        if not path.is_file():
            return False
        with path.open("rb") as handle:
            return substance(handle.read(READ_BYTES), path.name) is not None
    except OSError:
        return False


def trace_blockers(readbacks: tuple[str, ...], trials: Iterable[TrialReport]) -> list[Disqualifier]:
    """Every reason the traced ``trials`` of a case give it not to count as live.

    ``readbacks`` are its oracles that read state back (see :mod:`.checks`).
    """
    traces = [t.file_trace for t in trials if t.file_trace is not None]
    if not traces:
        return []
    found: list[Disqualifier] = []
    missing = [t.reason or "no tracer" for t in traces if t.method == "unavailable"]
    if missing:
        reason = f"was not traced ({missing[0]}): what it ran is unknown"
        found.append(Disqualifier(codes.TRACE_UNAVAILABLE, reason))
    traced = [t for t in traces if t.method != "unavailable"]
    empty = [t for t in traced if not t.entrypoints]
    if empty:
        shown = [*empty[0].trivial, *(f"{c} only checked" for c in empty[0].checked)]
        detail = f" (ran {'; '.join(shown)})" if shown else ""
        reason = f"ran no substantive skill-tree file, as its trace shows{detail}"
        found.append(Disqualifier(codes.LIVE_NO_ENTRYPOINT, reason))
    stubs = sorted({path for t in traced for path in t.stub_opens})
    # A stub's copy outside the tree counts whether the trace saw it opened or the case names it.
    copies = sorted({copy for t in traces for copy in t.stub_copies})
    parts = [f"opened stub files ({', '.join(stubs)})"] if stubs else []
    if stubs or copies:
        found.append(Disqualifier(codes.LIVE_STUB_INPUT, "; ".join([*parts, *copies])))
    if traced and readbacks and set(readbacks) <= {"artifacts"}:
        written = {
            path
            for path in traced[0].artifacts
            if all(t.artifacts.get(path) == "entrypoint" for t in traced)
        }
        if not written:
            writers = ", ".join(f"{p}: {w}" for p, w in traced[0].artifacts.items()) or "none"
            reason = (
                f"reads back no artifact that the entrypoint wrote during the trial ({writers})"
            )
            found.append(Disqualifier(codes.LIVE_NO_READBACK, reason))
    return found
