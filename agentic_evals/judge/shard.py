"""Split a fixture's cases across parallel CI jobs: which cases a shard runs. Pure.

Shard ``K/N`` (``K`` counted from 1) runs the cases whose position ``i`` in
the fixture satisfies ``i % N == K - 1``. Round-robin keeps the shards
within one case of each other in size, keeps fixture order inside a shard,
and puts every case in exactly one shard. It also makes a case's fixture
position recomputable from where it sits in its shard's report
(:func:`fixture_position`), which is how ``merge`` restores fixture order.

The shard comes from ``--shard K/N`` or, failing that, from the environment
of the CI system: GitLab's ``CI_NODE_INDEX`` (1-based) and ``CI_NODE_TOTAL``,
or a Kubernetes Indexed Job's ``JOB_COMPLETION_INDEX`` (0-based) with the
total from ``--shard-total`` or ``AGENTIC_EVALS_SHARD_TOTAL``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from agentic_evals.limits import MAX_NUMBER_TEXT, MAX_SHARD_TOTAL
from agentic_evals.reports.model import ShardInfo

T = TypeVar("T")

CI_NODE_INDEX: Final = "CI_NODE_INDEX"
CI_NODE_TOTAL: Final = "CI_NODE_TOTAL"
JOB_COMPLETION_INDEX: Final = "JOB_COMPLETION_INDEX"
SHARD_TOTAL: Final = "AGENTIC_EVALS_SHARD_TOTAL"
SHARD_VARIABLES: Final = frozenset(
    {CI_NODE_INDEX, CI_NODE_TOTAL, JOB_COMPLETION_INDEX, SHARD_TOTAL}
)
"""The variables a shard is read from; trials never see them."""

_SPEC = re.compile(r"([0-9]+)/([0-9]+)")


class ShardError(ValueError):
    """A shard given on the command line or in the environment is unusable."""


@dataclass(frozen=True)
class Shard:
    """One of ``total`` slices of a fixture's cases; ``index`` counts from 1.

    Build it with :func:`make_shard` or :func:`parse_shard`, which check it.
    """

    index: int
    """Which slice, from 1 to ``total``."""
    total: int
    """How many slices."""

    def __str__(self) -> str:
        """Return the ``K/N`` form."""
        return f"{self.index}/{self.total}"

    def info(self) -> ShardInfo:
        """Return the shard as recorded in the report."""
        return ShardInfo(index=self.index, total=self.total)


def make_shard(index: int, total: int, source: str) -> Shard:
    """Return ``Shard(index, total)`` after checking ``1 <= index <= total``.

    Args:
        index: The 1-based shard index.
        total: How many shards.
        source: Where the numbers came from, for the error message.

    Raises:
        ShardError: The total is below 1 or the index outside ``1..total``.
    """
    if total < 1:
        raise ShardError(f"{source}: the shard total must be at least 1, got {total}")
    if total > MAX_SHARD_TOTAL:
        raise ShardError(f"{source}: at most {MAX_SHARD_TOTAL} shards, got {total}")
    if index < 1:
        raise ShardError(f"{source}: shards count from 1, got shard {index}/{total}")
    if index > total:
        raise ShardError(f"{source}: shard {index}/{total} does not exist (only {total} shards)")
    return Shard(index, total)


def parse_shard(text: str, source: str = "--shard") -> Shard:
    """Parse ``K/N`` (e.g. ``2/4``) into a shard.

    Raises:
        ShardError: The text is not two whole numbers around a slash, or
            they do not name an existing shard.
    """
    match = _SPEC.fullmatch(text.strip())
    if match is None:
        raise ShardError(f"{source}: expected K/N with whole numbers, such as 2/4; got {text!r}")
    return make_shard(_number(match[1], source), _number(match[2], source), source)


def _number(digits: str, source: str) -> int:
    """``digits`` as a number, refused beyond ``MAX_NUMBER_TEXT`` characters."""
    if len(digits) > MAX_NUMBER_TEXT:
        raise ShardError(f"{source}: a number longer than {MAX_NUMBER_TEXT} digits")
    return int(digits)


def _whole(environ: Mapping[str, str], name: str) -> int:
    value = environ[name].strip()
    if not value.isascii() or not value.isdigit():
        raise ShardError(f"{name}: expected a whole number, got {environ[name][:40]!r}")
    return _number(value, name)


def shard_from_environ(environ: Mapping[str, str], total: int | None = None) -> Shard | None:
    """Return the shard the CI environment assigns, or None when it assigns none.

    ``CI_NODE_INDEX`` and ``CI_NODE_TOTAL`` (1-based, GitLab ``parallel``) come
    first. ``CI_NODE_TOTAL`` alone is ignored: GitLab sets it to 1 for jobs
    that are not parallel. Then ``JOB_COMPLETION_INDEX`` (0-based, Kubernetes
    Indexed Job), whose total is ``total`` or else ``AGENTIC_EVALS_SHARD_TOTAL``.

    Args:
        environ: The environment to read.
        total: The shard total given on the command line (``--shard-total``).

    Raises:
        ShardError: A variable is not a whole number, an index comes without
            a total (or a total without an index), or the shard does not exist.
    """
    if CI_NODE_INDEX in environ:
        if CI_NODE_TOTAL not in environ:
            raise ShardError(f"{CI_NODE_INDEX} is set but {CI_NODE_TOTAL} is not")
        source = f"{CI_NODE_INDEX}/{CI_NODE_TOTAL}"
        return make_shard(_whole(environ, CI_NODE_INDEX), _whole(environ, CI_NODE_TOTAL), source)
    if total is None and SHARD_TOTAL in environ:
        total = _whole(environ, SHARD_TOTAL)
    if JOB_COMPLETION_INDEX not in environ:
        if total is not None:
            raise ShardError(
                f"a shard total was given (--shard-total or {SHARD_TOTAL}) "
                f"but {JOB_COMPLETION_INDEX} is not set: is the Job's completionMode Indexed?"
            )
        return None
    if total is None:
        raise ShardError(
            f"{JOB_COMPLETION_INDEX} is set but the shard total is not: "
            f"pass --shard-total N or set {SHARD_TOTAL}"
        )
    source = f"{JOB_COMPLETION_INDEX} (0-based) with a total of {total}"
    return make_shard(_whole(environ, JOB_COMPLETION_INDEX) + 1, total, source)


def resolve_shard(
    spec: str | None, total: int | None, environ: Mapping[str, str], *, focused: bool = False
) -> Shard | None:
    """Return the shard of a run: ``--shard`` first, then the environment.

    A focused run (``--case``) names its cases itself: it cannot be sharded,
    and the environment's shard variables are not consulted.

    Args:
        spec: ``--shard K/N`` as given, or None.
        total: ``--shard-total N`` as given, or None.
        environ: The environment to fall back on.
        focused: The run names its cases with ``--case``.

    Raises:
        ShardError: The shard is malformed, or the options contradict each other.
    """
    if spec is not None and focused:
        raise ShardError("--shard and --case exclude each other: a focused run is not sharded")
    if spec is not None and total is not None:
        raise ShardError("--shard-total goes with JOB_COMPLETION_INDEX; --shard K/N has its total")
    if spec is not None:
        return parse_shard(spec)
    if focused:
        return None
    return shard_from_environ(environ, total)


def select(items: Sequence[T], shard: Shard | None) -> list[tuple[int, T]]:
    """Return ``(fixture position, item)`` for the items of ``shard``, in order.

    With no shard every item is selected.
    """
    if shard is None:
        return list(enumerate(items))
    return [(i, items[i]) for i in range(shard.index - 1, len(items), shard.total)]


def shard_size(count: int, shard: Shard) -> int:
    """Return how many of ``count`` cases ``shard`` holds."""
    return len(range(shard.index - 1, count, shard.total))


def fixture_position(shard: Shard, position: int) -> int:
    """Return the fixture position of the case at ``position`` within ``shard``."""
    return position * shard.total + shard.index - 1


def hide_shard_variables(environ: Mapping[str, str]) -> dict[str, str]:
    """Return ``environ`` without the shard variables.

    They describe the job agentic-evals runs in, and agentic-evals consumes
    them: a trial that runs a nested ``agentic-evals run`` (or any tool that
    splits its work by ``CI_NODE_INDEX``) must not shard itself a second time.
    """
    return {k: v for k, v in environ.items() if k not in SHARD_VARIABLES}
