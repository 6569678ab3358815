"""Path safety: nothing outside the boundary is ever opened, hashed or listed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import artifacts
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.paths import UnsafePathError, expand_glob, resolve_artifact

SECRET = b'{"v": "outside secret"}'


@pytest.fixture
def outside(workspace: Path) -> Path:
    target = workspace.parent / "outside"
    (target / "secret.json").write_bytes(SECRET)
    return target


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record every path passed to os.open and os.scandir."""
    seen: list[str] = []
    real_open, real_scandir = os.open, os.scandir

    def spy_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        seen.append(os.path.realpath(path))
        return real_open(path, flags, *args, **kwargs)

    def spy_scandir(path: Any = ".") -> Any:
        seen.append(os.path.realpath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", spy_open)
    monkeypatch.setattr(os, "scandir", spy_scandir)
    yield seen


def run(make_case: Any, make_outcome: Any, ctx: OracleContext, *checks: dict[str, Any]) -> Any:
    return artifacts.check(make_case({"artifacts": list(checks)}).expected, make_outcome(), ctx)


def assert_untouched(outside: Path, opened: list[str], result: Any) -> None:
    assert not [p for p in opened if p.startswith(str(outside.resolve()))]
    assert result.artifact_hashes == {}


FULL_CHECK = {"sha256": "0" * 64, "json_pointer": "/v", "equals": "x", "content_regex": "s"}


@pytest.mark.parametrize("path_of", [lambda o: str(o / "secret.json"), lambda o: "/etc/passwd"])
def test_absolute_path_is_unsafe(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    outside: Path,
    opened: list[str],
    path_of: Any,
) -> None:
    result = run(make_case, make_outcome, ctx, {"path": path_of(outside), **FULL_CHECK})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert "is absolute" in problem.message
    assert problem.oracle == "/expected/artifacts/0"
    assert_untouched(outside, opened, result)


@pytest.mark.parametrize("relative", ["../outside/secret.json", "a/../../outside/secret.json"])
def test_dotdot_leaving_the_boundary_is_unsafe(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    outside: Path,
    opened: list[str],
    relative: str,
) -> None:
    (workspace / "a").mkdir()
    result = run(make_case, make_outcome, ctx, {"path": relative, **FULL_CHECK})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert "'..' leaves the boundary" in problem.message
    assert_untouched(outside, opened, result)


def test_absent_check_on_escaping_path_is_still_unsafe(
    make_case: Any, make_outcome: Any, ctx: OracleContext, outside: Path, opened: list[str]
) -> None:
    # Even "must not exist" cannot be used to probe outside the boundary.
    result = run(make_case, make_outcome, ctx, {"path": "../outside/nothing", "absent": True})
    assert [p.code for p in result.problems] == [codes.ARTIFACT_UNSAFE_PATH]


def test_final_symlink_escaping_is_unsafe(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    outside: Path,
    opened: list[str],
) -> None:
    (workspace / "result.json").symlink_to(outside / "secret.json")
    result = run(make_case, make_outcome, ctx, {"path": "result.json", **FULL_CHECK})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert "symlink 'result.json' points outside the boundary" in problem.message
    assert_untouched(outside, opened, result)


def test_intermediate_directory_symlink_escaping_is_unsafe(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    outside: Path,
    opened: list[str],
) -> None:
    (workspace / "out").symlink_to(outside, target_is_directory=True)
    result = run(make_case, make_outcome, ctx, {"path": "out/secret.json", **FULL_CHECK})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert "symlink 'out'" in problem.message
    assert_untouched(outside, opened, result)


def test_symlink_then_dotdot_is_judged_physically(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    outside: Path,
    opened: list[str],
) -> None:
    # link/.. is the parent of the link's *target*, outside: lexically it would look inside.
    (outside / "sub").mkdir()
    (workspace / "link").symlink_to(outside / "sub", target_is_directory=True)
    (workspace / "secret.json").write_text('{"v": "inside"}')
    result = run(make_case, make_outcome, ctx, {"path": "link/../secret.json", **FULL_CHECK})
    assert [p.code for p in result.problems] == [codes.ARTIFACT_UNSAFE_PATH]
    assert_untouched(outside, opened, result)


def test_symlink_inside_the_boundary_is_followed(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "real.json").write_text('{"v": "x"}')
    (workspace / "alias.json").symlink_to("real.json")
    result = run(
        make_case, make_outcome, ctx, {"path": "alias.json", "json_pointer": "/v", "equals": "x"}
    )
    assert result.problems == []
    assert list(result.artifact_hashes) == ["alias.json"]


def test_dotdot_inside_the_boundary_is_allowed(
    make_case: Any, make_outcome: Any, workspace: Path, outside: Path
) -> None:
    # Fixture mode: artifacts relative to the fixture directory, boundary is the whole skill tree.
    fixtures = workspace / "fixtures"
    fixtures.mkdir()
    (workspace / "data.txt").write_text("hi")
    ctx = OracleContext(artifact_root=fixtures, boundary=workspace)
    result = run(make_case, make_outcome, ctx, {"path": "../data.txt", "min_bytes": 2})
    assert result.problems == []
    assert list(result.artifact_hashes) == ["../data.txt"]
    escaped = run(
        make_case, make_outcome, ctx, {"path": "../../outside/secret.json", "exists": True}
    )
    assert [p.code for p in escaped.problems] == [codes.ARTIFACT_UNSAFE_PATH]


def test_glob_skips_reading_matches_that_escape(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    outside: Path,
    opened: list[str],
) -> None:
    (workspace / "good.json").write_text('{"v": "s"}')
    (workspace / "evil.json").symlink_to(outside / "secret.json")
    (workspace / "dir").symlink_to(outside, target_is_directory=True)
    result = run(
        make_case, make_outcome, ctx, {"glob": "**/*.json", "json_pointer": "/v", "equals": "s"}
    )
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert "evil.json" in problem.message
    assert list(result.artifact_hashes) == ["good.json"]
    assert not [p for p in opened if p.startswith(str(outside.resolve()))]


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("../outside/*.json", "contains '..'"),
        ("/tmp/*", "is absolute"),
        ("a/../../*", "contains '..'"),
    ],
)
def test_unsafe_globs(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    outside: Path,
    opened: list[str],
    pattern: str,
    reason: str,
) -> None:
    result = run(make_case, make_outcome, ctx, {"glob": pattern, "exists": True})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_UNSAFE_PATH
    assert reason in problem.message
    assert_untouched(outside, opened, result)


def test_artifact_root_outside_boundary_is_unsafe(workspace: Path, outside: Path) -> None:
    ctx = OracleContext(artifact_root=outside, boundary=workspace)
    with pytest.raises(UnsafePathError, match="artifact root"):
        resolve_artifact("secret.json", ctx)
    with pytest.raises(UnsafePathError, match="artifact root"):
        expand_glob("*", ctx)


def test_resolve_normalises_the_key(ctx: OracleContext, workspace: Path) -> None:
    resolved = resolve_artifact("a/./b/../c.txt", ctx)
    assert resolved.key == "a/c.txt"
    assert resolved.real == workspace.resolve() / "a" / "c.txt"


def test_nul_byte_is_unsafe(ctx: OracleContext) -> None:
    with pytest.raises(UnsafePathError, match="NUL"):
        resolve_artifact("a\0b", ctx)
