"""`--help`, `-h` and `--version` print pre-rendered text without importing click (at 80
columns, as pipes and CI logs are, and on wide terminals); the text is click's own, byte
for byte, at every terminal width, and every other command line still goes through
click, which imports only the command it runs."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals.cli import main
from agentic_evals.cli.app import COMMANDS, cli

REPO = Path(__file__).resolve().parents[2]
HELP_MODULE = REPO / "agentic_evals" / "cli" / "_help_text.py"

# main's own path for any other command line: click, with main's error handling.
CLICK_ITSELF = (
    "import sys\nfrom agentic_evals.cli.app import run_cli\nsys.exit(run_cli(sys.argv[1:]))\n"
)
# Run main, then report its exit code and the modules it imported on stderr's last line.
PROBE = (
    "import json, sys\n"
    "from agentic_evals.cli import main\n"
    "code = None\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit as stop:\n"
    "    code = stop.code\n"
    "print(json.dumps({'code': code, 'modules': sorted(sys.modules)}), file=sys.stderr)\n"
)
FAST = [sys.executable, "-m", "agentic_evals"]
CLICK = [sys.executable, "-c", CLICK_ITSELF]
COMMAND_MODULES = {name: target.partition(":")[0] for name, target in COMMANDS.items()}


def load_gen_help() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_help", REPO / "scripts" / "gen_help.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def environment(columns: str | None, *, buffered: bool | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    if buffered is not None:
        env.pop("PYTHONUNBUFFERED", None)
        if not buffered:
            env["PYTHONUNBUFFERED"] = "1"
    return env


def execute(
    program: list[str], *args: str, columns: str | None = None, **options: Any
) -> subprocess.CompletedProcess[bytes]:
    options.setdefault("env", environment(columns))
    if "stdout" not in options:
        options["capture_output"] = True
    return subprocess.run([*program, *args], cwd=REPO, check=False, **options)


def probe(*args: str) -> tuple[object, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(done.stderr.splitlines()[-1])
    return report["code"], report["modules"]


def test_committed_help_text_is_regenerated_byte_for_byte() -> None:
    committed = HELP_MODULE.read_bytes()
    assert load_gen_help().render().encode() == committed, "run scripts/gen_help.py"


@pytest.mark.parametrize("columns", ["40", "50", "63", "79", "80", "99", "100", "200", None])
def test_help_is_what_click_prints_at_each_width(columns: str | None) -> None:
    expected = execute(CLICK, "--help", columns=columns)
    assert (expected.returncode, expected.stderr) == (0, b"")
    assert expected.stdout.startswith(b"Usage: agentic-evals [OPTIONS] COMMAND [ARGS]...\n")
    for flag in ("--help", "-h"):
        printed = execute(FAST, flag, columns=columns)
        assert (printed.returncode, printed.stderr) == (0, b"")
        assert printed.stdout == expected.stdout


@pytest.mark.parametrize("columns", ["63", None])
def test_version_is_what_click_prints(columns: str | None) -> None:
    expected = execute(CLICK, "--version", columns=columns)
    assert expected.stdout.startswith(b"agentic-evals, version ")
    printed = execute(FAST, "--version", columns=columns)
    assert (printed.returncode, printed.stdout, printed.stderr) == (0, expected.stdout, b"")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminal sizing")
@pytest.mark.parametrize("width", [30, 57, 73, 130])
def test_help_on_a_terminal_follows_its_width(width: int) -> None:
    import fcntl
    import struct
    import termios

    def on_terminal(command: list[str]) -> bytes:
        leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
        with subprocess.Popen(command, stdout=follower, env=environment(None), cwd=REPO) as child:
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        os.close(leader)
        assert child.returncode == 0
        return b"".join(chunks)

    printed = on_terminal([*FAST, "--help"])
    assert printed == on_terminal([*CLICK, "--help"])
    # Discriminating: the text is the one for this width, not the fallback of 80 columns.
    wanted = execute(FAST, "--help", columns=str(width)).stdout
    assert printed.replace(b"\r\n", b"\n") == wanted


@given(
    columns=st.one_of(
        st.integers(min_value=-5, max_value=300).map(str),
        st.text(alphabet="0123456789 +-_x", max_size=5),
    )
)
def test_main_prints_click_help_for_any_columns_value(columns: str) -> None:
    with mock.patch.dict(os.environ, {"COLUMNS": columns}):
        expected = io.StringIO()
        with contextlib.redirect_stdout(expected):
            cli.main(["--help"], prog_name="agentic-evals", standalone_mode=False)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as stop:
            main(["--help"])
    assert stop.value.code == 0
    assert printed.getvalue() == expected.getvalue()


@pytest.mark.parametrize(
    ("columns", "pre_rendered"),
    [("80", True), ("100", True), ("250", True), ("79", False), ("99", False), ("x", True)],
)
def test_only_pipes_and_wide_terminals_skip_click(columns: str, pre_rendered: bool) -> None:
    # COLUMNS that is not a number falls back to stdout's size, 80 when it is no terminal.
    with mock.patch.dict(os.environ, {"COLUMNS": columns}):
        code, modules = probe("--help")
    assert code == 0
    assert ("click" in {m.partition(".")[0] for m in modules}) is not pre_rendered


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"]])
def test_help_and_version_import_neither_click_nor_the_commands(args: list[str]) -> None:
    code, modules = probe(*args)
    assert code == 0
    assert not [m for m in modules if m.partition(".")[0] in ("click", "pydantic")]
    assert "agentic_evals.cli.app" not in modules
    assert not set(COMMAND_MODULES.values()) & set(modules)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_imports_its_own_module_only(command: str) -> None:
    code, modules = probe(command, "--help")
    assert code == 0
    assert set(COMMAND_MODULES.values()) & set(modules) == {COMMAND_MODULES[command]}


def test_run_imports_only_the_run_command(tmp_path: Path) -> None:
    code, modules = probe("run", str(tmp_path / "absent.json"))
    assert code == 2
    assert set(COMMAND_MODULES.values()) & set(modules) == {"agentic_evals.cli.run_cmd"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nonsense"], "Error: No such command 'nonsense'."),
        (["--bogus"], "No such option"),
        (["--help", "--bogus"], "No such option"),
        ([], "Commands:"),
    ],
)
def test_other_command_lines_are_clicks_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("Usage: agentic-evals [OPTIONS] COMMAND [ARGS]...\n")
    assert message in captured.err


def test_help_beside_other_arguments_is_clicks_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    fast_help = capsys.readouterr().out
    for args in (["--help", "run"], ["--debug", "--help"], ["-h", "-h"]):
        with pytest.raises(SystemExit) as stop:
            main(args)
        assert stop.value.code == 0
        assert capsys.readouterr().out == fast_help


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("target", ["closed-pipe", "full-device"])
@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_an_unwritable_stdout_fails_as_click_fails(flag: str, target: str, buffered: bool) -> None:
    if target == "full-device" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")

    def outcome(program: list[str]) -> tuple[int, bytes]:
        if target == "closed-pipe":
            read_end, write_end = os.pipe()
            os.close(read_end)  # every write now fails with EPIPE
        else:
            write_end = os.open("/dev/full", os.O_WRONLY)  # every write fails with ENOSPC
        try:
            done = execute(
                program,
                flag,
                env=environment(None, buffered=buffered),
                stdout=write_end,
                stderr=subprocess.PIPE,
            )
        finally:
            os.close(write_end)
        return done.returncode, done.stderr

    failed = outcome(CLICK)
    assert failed[0] != 0
    assert outcome(FAST) == failed
