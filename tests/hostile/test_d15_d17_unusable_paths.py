"""Defects 15 and 17: a path the tool cannot use is exit 2 naming it, never exit 3.

15: permission errors in skill trees (``regressions show``/``audit``/``verify``
on an unreadable ``fixtures/``, ``scaffold-fixture`` on a folder that cannot
be searched). 17: a path component over 255 bytes (ENAMETOOLONG) given to
any command that reads or writes a path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_run_helpers import SKILL_MD, WITHOUT_DAC, can_drop_dac, case, cli, skill

from agentic_evals.limits import MAX_NAME_BYTES

LONG = "x" * (MAX_NAME_BYTES + 45)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A skill whose fixtures/ folder nobody may read or search (mode 000)."""
    fixture = skill(tmp_path / "s", [case("a", ["true"])])
    fixture.parent.chmod(0)
    yield fixture.parent.parent
    fixture.parent.chmod(0o755)


needs_dac_drop = pytest.mark.skipif(not can_drop_dac(), reason="needs root and setpriv")


@needs_dac_drop
@pytest.mark.parametrize(
    "command", [["regressions", "show"], ["regressions", "verify"]], ids=" ".join
)
def test_d15_an_unreadable_fixtures_folder_is_exit_2_naming_it(
    locked: Path, command: list[str]
) -> None:
    code, err = cli(*command, str(locked), prefix=WITHOUT_DAC)
    assert code == 2, err
    assert str(locked / "fixtures") in err and "Permission denied" in err
    assert "internal error" not in err and "Traceback" not in err


@needs_dac_drop
def test_d15_regressions_audit_of_a_tree_with_an_unreadable_skill_is_exit_2(
    locked: Path,
) -> None:
    code, err = cli("regressions", "audit", str(locked.parent), prefix=WITHOUT_DAC)
    assert code in (1, 2), err
    assert "internal error" not in err and "Traceback" not in err


@needs_dac_drop
def test_d15_scaffold_fixture_on_a_folder_that_cannot_be_searched(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text(SKILL_MD.format(name="s"))
    folder.chmod(0o600)  # readable, not searchable
    try:
        code, err = cli("scaffold-fixture", str(folder), prefix=WITHOUT_DAC)
    finally:
        folder.chmod(0o755)
    assert code == 2, err
    assert str(folder) in err and "Permission denied" in err and "internal error" not in err
    assert not (folder / "fixtures").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{long}.json"],
        ["run", "{long}/f.json"],
        ["regressions", "show", "{long}"],
        ["regressions", "verify", "{long}"],
        ["scaffold-fixture", "{long}"],
        ["audit-skills", "{long}"],
        ["apply-scaffolds", "{long}"],
        ["run", "{fixture}", "-o", "{long}.json"],
        ["scaffold-fixture", "{skill}", "-o", "{long}.json"],
    ],
    ids=lambda args: " ".join(args),
)
def test_d17_a_component_over_255_bytes_is_exit_2_naming_the_path(
    tmp_path: Path, args: list[str]
) -> None:
    fixture = skill(tmp_path / "s", [case("a", ["true"])])
    values = {"long": str(tmp_path / LONG), "fixture": str(fixture)}
    values["skill"] = str(fixture.parents[1])
    code, err = cli(*(arg.format(**values) for arg in args))
    assert code == 2, err
    assert LONG in err, err
    assert "internal error" not in err and "Traceback" not in err
