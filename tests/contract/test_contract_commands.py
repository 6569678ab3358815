"""Structural reading of commands: what actually runs, not what is mentioned."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_evals.commands.analysis import (
    CommandContext,
    Verdict,
    analyze,
    classify,
    simple_commands,
)
from agentic_evals.contract.layout import layout_for


@pytest.fixture
def ctx(fixtures_dir: Path) -> CommandContext:
    skill = fixtures_dir.parent
    (skill / "scripts").mkdir()
    (skill / "scripts" / "probe.py").write_text("print('ok')\n")
    (skill / "pkg").mkdir()
    (skill / "pkg" / "cli.py").write_text("")
    (fixtures_dir / "stub.sh").write_text("echo fake\n")
    (skill / "notes.txt").write_text("not executable\n")
    return CommandContext.for_case(fixtures_dir)


def reaches_entrypoint(argv: list[str], ctx: CommandContext) -> Verdict | None:
    """The first entrypoint ``argv`` reaches, or ``None``."""
    entrypoints = analyze(argv, ctx).entrypoints
    return entrypoints[0][1] if entrypoints else None


def programs(argv: list[str]) -> list[tuple[str, ...]]:
    return [cmd.argv for cmd in simple_commands(argv)]


def test_skill_root(tmp_path: Path) -> None:
    assert layout_for(tmp_path / "s" / "fixtures", None).skill_tree == tmp_path / "s"
    assert layout_for(tmp_path / "s" / "evals", None).skill_tree == tmp_path / "s" / "evals"
    declared = layout_for(tmp_path / "evals" / "s", "../../skills/s")
    assert declared.skill_tree == declared.base == tmp_path / "skills" / "s"


@pytest.mark.parametrize(
    "argv",
    [
        [":", "run.sh"],
        ["echo", "e2e"],
        ["python", "-c", "print(1)"],
        ["python3", "-c", "import sys"],
        ["bash", "-c", "echo would run run.sh"],
        ["bash", "-c", "echo ';' ../run.sh"],
        ["sh", "-c", "true && printf 'pytest\\n' | head -1"],
        ["bash", "-c", "cd .. && ls"],
        ["bash", "-c", "for f in a b; do echo $f; done"],
        ["node", "-e", "console.log('run.sh')"],
        ["bash", "-c", ""],
        ["bash", "-c", "# bash ../run.sh"],
        ["bash", "-c", "cat <<EOF\nbash ../run.sh\nEOF"],
    ],
)
def test_trivial_commands_are_not_live(ctx: CommandContext, argv: list[str]) -> None:
    analysis = analyze(argv, ctx)
    assert analysis.entrypoints == []
    if "import" not in " ".join(argv):
        assert analysis.trivial


def test_trivial_explanation_names_the_program(ctx: CommandContext) -> None:
    assert (
        analyze([":", "run.sh"], ctx).describe_trivial() == "`: run.sh` runs ':' which is trivial"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["grep", "e2e", "x"],
        ["python", "-c", "import os; os.system('x')"],
        ["python", "-c", "open('f').read()"],
        ["node", "-e", "require('child_process')"],
        ["bash", "-c", "echo 'unclosed"],
        ["bash", "../run.sh"],
    ],
)
def test_non_trivial_commands(ctx: CommandContext, argv: list[str]) -> None:
    assert not analyze(argv, ctx).trivial


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["bash", "-c", "cd .. && bash run.sh --x"], "runs run.sh with bash"),
        (["bash", "../run.sh"], "runs ../run.sh with bash"),
        (["../run.sh", "--flag"], "executes ../run.sh"),
        (["bash", "-lc", "set -e; ../run.sh"], "executes ../run.sh"),
        (["bash", "-euc", "X=../run.sh; $X go"], "executes ../run.sh"),
        (["bash", "-c", "R=bash; ${R} ../run.sh"], "runs ../run.sh with bash"),
        (["env", "-i", "A=1", "timeout", "-s", "KILL", "30", "../run.sh"], "executes ../run.sh"),
        (["bash", "-c", "FOO=1 nice -n 5 nohup ../run.sh"], "executes ../run.sh"),
        (["uv", "run", "--with", "x", "python", "../scripts/probe.py"], "runs ../scripts/probe.py"),
        (["poetry", "run", "python3.11", "../scripts/probe.py"], "runs ../scripts/probe.py"),
        (["bash", "-c", "cd ..; python -m pkg.cli"], "runs pkg/cli.py with python -m"),
        (["bash", "-c", "bash -c 'cd .. && ./run.sh'"], "executes ./run.sh"),
        (["bash", "-c", "out=$(bash ../run.sh); echo $out"], "runs ../run.sh with bash"),
        (["bash", "-c", "if true; then ../run.sh; fi"], "executes ../run.sh"),
        (["pytest", "-q", "tests"], "runs the test runner `pytest`"),
        (["python3", "-m", "pytest"], "runs the test runner `python3 -m pytest`"),
        (["python", "-m", "unittest", "discover"], "runs the test runner `python -m unittest`"),
        (["uv", "run", "-m", "pytest"], "runs the test runner `python -m pytest`"),
        (["go", "test", "./..."], "runs the test runner `go test`"),
        (["npm", "test"], "runs the test runner `npm test`"),
        (["npm", "run", "test:unit"], "runs the test runner `npm run test:unit`"),
        (["yarn", "test"], "runs the test runner `yarn test`"),
        (["cargo", "test"], "runs the test runner `cargo test`"),
        (["make", "-C", "..", "test"], "runs the test runner `make test`"),
        (["bats", "t.bats"], "runs the test runner `bats`"),
        (["curl", "-fsS", "https://example.org/health"], "makes an HTTP request"),
        (["bash", "-c", "wget -qO- http://localhost:8080/x | jq ."], "makes an HTTP request"),
    ],
)
def test_entrypoints_are_recognised(ctx: CommandContext, argv: list[str], reason: str) -> None:
    verdict = reaches_entrypoint(argv, ctx)
    assert verdict is not None, analyze(argv, ctx).describe_not_live()
    assert verdict.kind == "entrypoint"
    assert reason in verdict.reason


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["bash", "run.sh"], "does not exist"),  # run.sh is in the skill root, not fixtures/
        (["bash", "stub.sh"], "under fixtures/"),
        (["./stub.sh"], "under fixtures/"),
        (["bash", "/etc/profile"], "not under the skill tree"),
        (["../notes.txt"], "not executable"),
        (["run.sh"], "no entrypoint"),
        (["bash", "-c", "cd $HOME && ../run.sh"], "chosen at run time"),
        (["bash", "-c", "$RUNNER ../run.sh"], "not a literal program"),
        (["FOO=1", "../run.sh"], "no entrypoint"),  # no shell: FOO=1 is the program
        (["curl", "file:///etc/passwd"], "no entrypoint"),
        (["python", "-"], "stdin"),
        (["bash", "-c", "echo 'unclosed"], "cannot be read"),
    ],
)
def test_not_entrypoints(ctx: CommandContext, argv: list[str], why: str) -> None:
    assert reaches_entrypoint(argv, ctx) is None
    assert why in analyze(argv, ctx).describe_not_live()


def test_cd_is_followed_within_a_script(ctx: CommandContext) -> None:
    (cd, run) = simple_commands(["bash", "-c", "cd .. && bash run.sh"])
    assert (cd.cwd, run.cwd) == ("..", "..")
    assert classify(run, ctx).kind == "entrypoint"
    assert reaches_entrypoint(["bash", "-c", "bash run.sh"], ctx) is None


def test_quoting_is_respected() -> None:
    assert programs(["bash", "-c", "echo 'a; b' \"c && d\" e\\|f"]) == [
        ("echo", "a; b", "c && d", "e|f")
    ]


def test_script_is_split_on_every_separator() -> None:
    script = "a; b && c || d | e & f\ng"
    assert [cmd[0] for cmd in programs(["sh", "-c", script])] == list("abcdefg")


def test_redirections_are_not_arguments() -> None:
    (cmd,) = simple_commands(["bash", "-c", "../run.sh --x 2>&1 >out.log <in.json"])
    assert cmd.argv == ("../run.sh", "--x")
    assert cmd.redirects == ((">&", "1"), (">", "out.log"), ("<", "in.json"))


def test_wrappers_and_assignments_are_stripped() -> None:
    argv = ["bash", "-c", "A=1 B=2 env -u X C=3 stdbuf -oL time -p xvfb-run -a ./run.sh"]
    assert programs(argv) == [("./run.sh",)]
    assert programs(["exec", "./run.sh"]) == [("./run.sh",)]
    assert programs(["command", "-v", "x"]) == [("command", "-v", "x")]


def test_variables_resolve_only_when_assigned_earlier() -> None:
    assert programs(["bash", "-c", "$X ../run.sh; X=bash"])[0][0] == "$X"
    assert programs(["bash", "-c", "X=bash; $X ../run.sh"]) == [("bash", "../run.sh")]


def test_case_env_values_resolve_in_scripts(fixtures_dir: Path) -> None:
    ctx = CommandContext.for_case(fixtures_dir, env={"ENTRY": "../run.sh"})
    assert reaches_entrypoint(["bash", "-c", "$ENTRY"], ctx) is not None


def test_nesting_is_bounded() -> None:
    argv = ["bash", "-c", "bash -c " * 20 + "x"]
    assert simple_commands(argv)  # no recursion error


@pytest.mark.parametrize(
    ("argv", "stubs"),
    [
        (["bash", "../run.sh", "--input", "fixtures/x.json"], ["fixtures/x.json"]),
        (["../run.sh", "--input=../fixtures/y.json"], ["--input=../fixtures/y.json"]),
        (["bash", "-c", "../run.sh < ./fixtures/in.json"], ["./fixtures/in.json"]),
        (["bash", "-c", "cat fixtures/a.json | ../run.sh"], ["fixtures/a.json"]),
        (["bash", "-c", "echo fixtures/a.json; ../run.sh"], []),
        (["../run.sh", "--mode", "fixtures"], []),
        (["../run.sh", "data/real.json"], []),
    ],
)
def test_stub_inputs(ctx: CommandContext, argv: list[str], stubs: list[str]) -> None:
    assert list(analyze(argv, ctx).stubs) == stubs
