"""Shard selection: a balanced partition in fixture order, from flags or CI variables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals.contract.models import Fixture
from agentic_evals.evaluation.evaluate import select_cases
from agentic_evals.judge.shard import (
    SHARD_VARIABLES,
    Shard,
    ShardError,
    fixture_position,
    hide_shard_variables,
    make_shard,
    parse_shard,
    resolve_shard,
    select,
    shard_from_environ,
    shard_size,
)
from agentic_evals.reports.model import ShardInfo


@given(count=st.integers(min_value=0, max_value=60), total=st.integers(min_value=1, max_value=12))
def test_shards_partition_the_cases_evenly_in_fixture_order(count: int, total: int) -> None:
    items = [f"case-{i}" for i in range(count)]
    shards = [select(items, make_shard(k, total, "test")) for k in range(1, total + 1)]
    positions = [position for shard in shards for position, _ in shard]
    assert sorted(positions) == list(range(count))  # disjoint and covering
    sizes = [len(shard) for shard in shards]
    assert max(sizes) - min(sizes) <= 1
    for k, shard in enumerate(shards, start=1):
        assert [position for position, _ in shard] == sorted(position for position, _ in shard)
        assert all(position % total == k - 1 for position, _ in shard)
        assert all(items[position] == item for position, item in shard)
        assert shard_size(count, Shard(k, total)) == len(shard)


@given(count=st.integers(min_value=0, max_value=60), total=st.integers(min_value=1, max_value=12))
def test_fixture_position_is_recomputable_from_the_place_in_the_shard(
    count: int, total: int
) -> None:
    items = list(range(count))
    for k in range(1, total + 1):
        shard = Shard(k, total)
        for j, (position, item) in enumerate(select(items, shard)):
            assert fixture_position(shard, j) == position == item


def test_no_shard_selects_everything() -> None:
    assert select(["a", "b"], None) == [(0, "a"), (1, "b")]


def test_more_shards_than_cases_leaves_some_empty() -> None:
    assert select(["a", "b"], Shard(3, 4)) == []
    assert shard_size(2, Shard(3, 4)) == 0


@pytest.mark.parametrize(
    ("text", "shard"),
    [("1/1", Shard(1, 1)), ("2/4", Shard(2, 4)), (" 4/4 ", Shard(4, 4)), ("10/12", Shard(10, 12))],
)
def test_parse_shard_accepts_k_of_n(text: str, shard: Shard) -> None:
    assert parse_shard(text) == shard
    assert str(shard) == text.strip()
    assert shard.info() == ShardInfo(index=shard.index, total=shard.total)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected K/N"),
        ("2", "expected K/N"),
        ("a/b", "expected K/N"),
        ("2/", "expected K/N"),
        ("-1/4", "expected K/N"),
        ("1.5/4", "expected K/N"),
        ("1/4/2", "expected K/N"),
        ("0/4", "shards count from 1"),
        ("5/4", "shard 5/4 does not exist"),
        ("1/0", "total must be at least 1"),
        ("0/0", "total must be at least 1"),
    ],
)
def test_parse_shard_rejects_malformed_and_impossible_shards(text: str, message: str) -> None:
    with pytest.raises(ShardError, match=message) as raised:
        parse_shard(text)
    assert str(raised.value).startswith("--shard: ")


@pytest.mark.parametrize(
    ("environ", "total", "shard"),
    [
        ({}, None, None),
        ({"CI_NODE_TOTAL": "1"}, None, None),  # GitLab, job not parallel
        ({"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"}, None, Shard(2, 4)),
        ({"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "4"}, None, Shard(4, 4)),
        ({"JOB_COMPLETION_INDEX": "0"}, 3, Shard(1, 3)),
        ({"JOB_COMPLETION_INDEX": "2", "AGENTIC_EVALS_SHARD_TOTAL": "3"}, None, Shard(3, 3)),
        ({"JOB_COMPLETION_INDEX": "1", "AGENTIC_EVALS_SHARD_TOTAL": "9"}, 2, Shard(2, 2)),
        (
            {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "JOB_COMPLETION_INDEX": "3"},
            5,
            Shard(1, 2),
        ),
    ],
)
def test_shard_from_environ(environ: dict[str, str], total: int | None, shard: Shard) -> None:
    assert shard_from_environ(environ, total) == shard


@pytest.mark.parametrize(
    ("environ", "total", "message"),
    [
        ({"JOB_COMPLETION_INDEX": "0"}, None, "pass --shard-total N or set AGENTIC_EVALS_SHARD"),
        ({"CI_NODE_INDEX": "1"}, None, "CI_NODE_INDEX is set but CI_NODE_TOTAL is not"),
        ({"CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "2"}, None, "CI_NODE_INDEX: expected a whole"),
        ({"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"}, None, "shards count from 1"),
        ({"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "2"}, None, "shard 3/2 does not exist"),
        ({"JOB_COMPLETION_INDEX": "3"}, 3, "shard 4/3 does not exist"),
        ({"JOB_COMPLETION_INDEX": "-1"}, 3, "JOB_COMPLETION_INDEX: expected a whole"),
        ({"JOB_COMPLETION_INDEX": "0", "AGENTIC_EVALS_SHARD_TOTAL": "0"}, None, "at least 1"),
        ({"AGENTIC_EVALS_SHARD_TOTAL": "4"}, None, "JOB_COMPLETION_INDEX is not set"),
        ({}, 4, "completionMode Indexed"),
    ],
)
def test_shard_from_environ_rejects_incomplete_or_impossible_variables(
    environ: dict[str, str], total: int | None, message: str
) -> None:
    with pytest.raises(ShardError, match=message):
        shard_from_environ(environ, total)


def test_resolve_shard_prefers_the_flag_to_the_environment() -> None:
    environ = {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"}
    assert resolve_shard("3/3", None, environ) == Shard(3, 3)
    assert resolve_shard(None, None, environ) == Shard(1, 2)
    assert resolve_shard(None, None, {}) is None


def test_resolve_shard_focused_run_ignores_the_environment_and_refuses_the_flag() -> None:
    environ = {"JOB_COMPLETION_INDEX": "1"}  # incomplete, but not even consulted
    assert resolve_shard(None, None, environ, focused=True) is None
    with pytest.raises(ShardError, match="--shard and --case exclude each other"):
        resolve_shard("1/2", None, {}, focused=True)


def test_resolve_shard_refuses_a_second_total() -> None:
    with pytest.raises(ShardError, match="--shard K/N has its total"):
        resolve_shard("1/2", 2, {})


def test_hide_shard_variables_keeps_everything_else() -> None:
    environ = {name: "1" for name in SHARD_VARIABLES} | {"PATH": "/bin", "CI": "true"}
    assert hide_shard_variables(environ) == {"PATH": "/bin", "CI": "true"}


def _fixture(names: list[str]) -> Fixture:
    cases = [
        {"name": name, "type": "positive", "command": ["true"], "expected": {"exit_code": 0}}
        for name in names
    ]
    return Fixture.model_validate({"version": 2, "skill": "s", "cases": cases})


def test_select_cases_applies_the_shard_and_refuses_a_focused_shard() -> None:
    fixture = _fixture(["a", "b", "c", "d", "e"])
    selected = select_cases(fixture, (), Shard(2, 2))
    assert [(i, case.name) for i, case in selected] == [(1, "b"), (3, "d")]
    assert [case.name for _, case in select_cases(fixture, ())] == ["a", "b", "c", "d", "e"]
    with pytest.raises(ValueError, match="focused run cannot be sharded"):
        select_cases(fixture, ("a",), Shard(1, 2))
