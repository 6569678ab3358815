"""Is a regression protected: does its retained fixture load and still hold the guard case?

A retained case that is missing, renamed, or sits in a fixture that no
longer exists or loads guards nothing: the regression is unprotected. The
fixture is loaded as a focused run would load it (gates off: the anti-slop
gates judge a whole evaluation, not whether one case can run).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.load import LoadResult, read_fixture
from agentic_evals.regressions.models import Regression


class Protection(NamedTuple):
    """Whether the guard is still in place, and why not."""

    protected: bool
    """The retained fixture loads and holds the retained case by name."""
    detail: str
    """What was found."""


class FixtureCache:
    """Retained fixtures, each loaded once however many regressions name it."""

    def __init__(self) -> None:
        self._loaded: dict[Path, LoadResult | None] = {}

    def get(self, path: Path) -> LoadResult | None:
        """The fixture at ``path`` loaded with gates off; ``None`` when no such file exists."""
        key = path.resolve()
        if key not in self._loaded:
            self._loaded[key] = read_fixture(path) if path.is_file() else None
        return self._loaded[key]


def retained_fixture_path(record: Regression, registry_dir: Path) -> Path:
    """Where the record's retained fixture is: relative to the registry's folder."""
    return registry_dir / record.retained_fixture


def protection(record: Regression, registry_dir: Path, cache: FixtureCache) -> Protection:
    """Judge whether ``record``'s retained case still exists in a fixture that loads."""
    name, fixture = record.retained_case, record.retained_fixture
    loaded = cache.get(retained_fixture_path(record, registry_dir))
    if loaded is None:
        return Protection(False, f"retained fixture {fixture} does not exist")
    if loaded.model is None:
        errors = loaded.errors
        first = f" (first: {errors[0].code} at {errors[0].pointer or '/'})" if errors else ""
        held = " although it holds the case" if name in _raw_case_names(loaded.document) else ""
        return Protection(
            False, f"retained fixture {fixture} does not load: {len(errors)} errors{first}{held}"
        )
    names = [case.name for case in loaded.model.cases]
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; renamed to {close[0]!r}?" if close else ""
        return Protection(False, f"retained case {name!r} is not in {fixture}{hint}")
    return Protection(True, f"{fixture} holds {name!r}")


def _raw_case_names(document: object) -> set[str]:
    cases = document.get("cases") if isinstance(document, dict) else None
    return {
        case["name"]
        for case in (cases if isinstance(cases, list) else [])
        if isinstance(case, dict) and isinstance(case.get("name"), str)
    }
