"""The run's isolation summary, summed from its trials' records (run and merge alike).

A merged report sums its shards' trials the same way a run sums its own, and
keeps the shards' notes and leftovers (``docs/isolation.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from agentic_evals.reports.model import IsolationSummary, Leftover, TrialIsolation


def merge_summaries(
    summaries: Iterable[IsolationSummary | None], trials: Iterable[TrialIsolation | None]
) -> IsolationSummary | None:
    """The summary of merged shards: their trials summed again, their notes and leftovers kept."""
    kept = [s for s in summaries if s is not None]
    notes = [note for s in kept for note in s.notes]
    return summarize(trials, notes, [item for s in kept for item in s.leftovers])


def summarize(
    trials: Iterable[TrialIsolation | None],
    notes: Iterable[str] = (),
    leftovers: Iterable[Leftover] = (),
) -> IsolationSummary | None:
    """Sum the trials' isolation records; None when no trial has one."""
    records = [t for t in trials if t is not None]
    notes = list(notes)
    if not records and not notes:
        return None
    modes = Counter(t.mode for t in records)
    warnings = list(dict.fromkeys(notes))
    shortfalls = Counter(item for t in records for item in t.unavailable)
    warnings += [f"{count} trial(s): {item}" for item, count in sorted(shortfalls.items())]
    return IsolationSummary(
        modes=dict(sorted(modes.items())),
        networks=dict(sorted(Counter(t.network for t in records).items())),
        mechanisms=dict(sorted(Counter(m for t in records for m in t.mechanisms).items())),
        shared_tree_trials=modes.get("none", 0),
        notes=list(dict.fromkeys(notes)),
        warnings=warnings,
        leftovers=list(leftovers),
    )
