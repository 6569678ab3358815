"""Defect 1: an output that names a device, a FIFO, a directory or a socket is never replaced.

Every command that writes a file refuses such an output with exit 2 naming it,
before anything is written, and the device is still a device afterwards;
``-o /dev/stdout`` and ``-o -`` keep writing to standard output.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hostile_helpers import WRITERS, Inputs, cli, writer_args


@pytest.fixture(scope="module")
def specials(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A FIFO, a directory and a listening socket, besides /dev/null and /dev/full."""
    folder = tmp_path_factory.mktemp("specials")
    fifo = folder / "out.fifo"
    os.mkfifo(fifo)
    directory = folder / "out.dir"
    directory.mkdir()
    sock_path = folder / "out.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(sock_path))
    try:
        yield {
            "/dev/null": Path("/dev/null"),
            "/dev/full": Path("/dev/full"),
            "fifo": fifo,
            "directory": directory,
            "socket": sock_path,
        }
    finally:
        listener.close()


KIND_TESTS: dict[str, Callable[[int], bool]] = {
    "/dev/null": stat.S_ISCHR,
    "/dev/full": stat.S_ISCHR,
    "fifo": stat.S_ISFIFO,
    "directory": stat.S_ISDIR,
    "socket": stat.S_ISSOCK,
}


@pytest.mark.parametrize("special", list(KIND_TESTS))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_d01_every_writer_refuses_a_special_file_and_leaves_it_as_it_was(
    writer: str,
    special: str,
    inputs: Inputs,
    specials: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = specials[special]
    ended = cli(capsys, *writer_args(writer, inputs, target))
    assert ended.code == 2, ended
    assert f"cannot write to {target}" in ended.err and "not a regular file" in ended.err
    assert KIND_TESTS[special](os.stat(target).st_mode), "the special file was replaced"
    if special == "directory":
        assert list(target.iterdir()) == []


@pytest.mark.parametrize("spelling", ["/dev/stdout", "-"])
@pytest.mark.parametrize("writer", ["validate -o", "schema -o", "merge -o", "report -o"])
def test_d01_standard_output_spellings_keep_working(
    writer: str, spelling: str, inputs: Inputs, capsys: pytest.CaptureFixture[str]
) -> None:
    ended = cli(capsys, *writer_args(writer, inputs, spelling))
    assert ended.code == 0, ended
    if writer == "report -o":
        assert ended.out.startswith("#") or "agentic-evals" in ended.out
    else:
        assert isinstance(json.loads(ended.out), dict)
    assert not Path(spelling).exists() or spelling == "/dev/stdout"


def test_d01_a_symlink_output_keeps_the_link_and_replaces_its_target(
    tmp_path: Path, inputs: Inputs, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    ended = cli(capsys, "schema", "fixture", "-o", link)
    assert ended.code == 0, ended
    assert link.is_symlink() and json.loads(real.read_text(encoding="utf-8"))["$schema"]


@pytest.mark.parametrize("special", ["/dev/null", "/dev/full", "fifo", "socket"])
def test_d01_export_refuses_a_special_file_as_its_folder(
    special: str, inputs: Inputs, specials: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    target = specials[special]
    ended = cli(capsys, "export", "eee", inputs.base, "--org", "acme", "-o", target)
    assert ended.code == 2, ended
    assert str(target) in ended.err
    assert KIND_TESTS[special](os.stat(target).st_mode), "the special file was replaced"
