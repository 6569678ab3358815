"""Defect 9: an output that is the same file as an input is refused, however it is spelled.

``run F -o F``, ``validate F -o F`` (also as ``x/../F`` or through a hard link),
``merge s1 s2 -o s1``: every writer compares device and inode, exits 2 naming
the file, and leaves the input byte for byte as it was.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hostile_helpers import WRITERS, Inputs, cli, writer_args

FILE_INPUTS = {
    name: field
    for name, parts in WRITERS.items()
    for field in [next((m[1] for p in parts for m in [re.fullmatch(r"\{(\w+)\}", p)] if m), None)]
    if field in ("fixture", "base", "head", "shard1", "shard2")
}
"""Each writer that reads a file, and the first file it reads."""


def spell(path: Path, how: str, tmp_path: Path) -> Path:
    if how == "as given":
        return path
    if how == "through ..":
        return path.parent / ".." / path.parent.name / path.name
    link = tmp_path / "hard-link.json"
    os.link(path, link)
    return link


@pytest.mark.parametrize("how", ["as given", "through ..", "hard link"])
@pytest.mark.parametrize("writer", list(FILE_INPUTS))
def test_d09_every_writer_refuses_to_overwrite_one_of_its_inputs(
    writer: str, how: str, inputs: Inputs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    field = FILE_INPUTS[writer]
    own = tmp_path / "own" / getattr(inputs, field).name
    own.parent.mkdir()
    shutil.copyfile(getattr(inputs, field), own)
    before = own.read_bytes()
    output = spell(own, how, tmp_path)
    ended = cli(capsys, *writer_args(writer, inputs._replace(**{field: own}), output))
    assert ended.code == 2, ended
    assert f"cannot write to {output}: it is an input" in ended.err
    assert own.read_bytes() == before


def test_d09_validate_refuses_a_fixture_found_in_a_folder_it_scans(
    inputs: Inputs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "fixtures"
    folder.mkdir()
    found = folder / "agentic_eval.json"
    shutil.copyfile(inputs.fixture, found)
    before = found.read_bytes()
    ended = cli(capsys, "validate", folder, "-o", found)
    assert ended.code == 2 and "it is an input" in ended.err
    assert found.read_bytes() == before


def test_d09_two_outputs_naming_one_file_are_refused(
    inputs: Inputs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "report.json"
    first.write_text("{}", encoding="utf-8")
    other = tmp_path / "other.md"
    os.link(first, other)
    ended = cli(capsys, "run", inputs.fixture, "-q", "-o", first, "--markdown", other)
    assert ended.code == 2 and "given for two outputs" in ended.err
    assert first.read_text(encoding="utf-8") == "{}"
