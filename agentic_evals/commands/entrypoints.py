"""What counts as an entrypoint of the skill, and the verdicts that say so.

A simple command reaches an entrypoint when it runs a file of the skill's tree
(outside ``fixtures/``), resolved from where the case runs (a
:class:`CommandContext`), or a test runner. Everything else that needs the file
system to judge is *other*, with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from agentic_evals.commands.programs import program_name, python_invocation, shell_invocation
from agentic_evals.commands.shell import SHELLS, SimpleCommand
from agentic_evals.contract.layout import layout_for, stub_location
from agentic_evals.contract.placeholders import resolve

Kind = Literal["trivial", "neutral", "entrypoint", "other"]

PYTHON_RUNNERS = frozenset({"pytest", "py.test", "unittest", "nose2", "tox", "nox"})
"""Modules that ``python -m`` runs as a test runner."""
_RUNNER_PROGRAMS = frozenset(
    {"pytest", "py.test", "tox", "nox", "nose2", "bats", "jest", "vitest", "mocha", "rspec"}
    | {"phpunit", "ctest"}
)
_RUNNER_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "go": frozenset({"test"}),
    "cargo": frozenset({"test", "nextest"}),
    "npm": frozenset({"test", "t", "tst"}),
    "yarn": frozenset({"test"}),
    "pnpm": frozenset({"test", "t"}),
    "bun": frozenset({"test"}),
    "deno": frozenset({"test"}),
    "make": frozenset({"test", "check"}),
    "mvn": frozenset({"test", "verify"}),
    "gradle": frozenset({"test", "check"}),
    "gradlew": frozenset({"test", "check"}),
    "dotnet": frozenset({"test"}),
    "swift": frozenset({"test"}),
    "mix": frozenset({"test"}),
    "playwright": frozenset({"test"}),
}
_RUN_SCRIPT = frozenset({"run", "run-script"})
_OPERAND_VALUE_OPTIONS = frozenset(
    {"-C", "-f", "--directory", "--file", "--prefix", "--cwd", "--dir", "--filter", "-F", "-w"}
    | {"--workspace", "-pl", "-P"}
)
_INTERPRETERS = frozenset({"node", "perl", "ruby", "php", "Rscript", "lua", "tclsh"})


class Verdict(NamedTuple):
    """What a simple command is, and why."""

    kind: Kind
    reason: str
    target: Path | None = None
    """The skill-tree file an ``entrypoint`` verdict runs (resolved), when it runs one."""


@dataclass(frozen=True)
class CommandContext:
    """Where a case's command runs: its cwd and the skill tree it may reach into."""

    cwd: Path
    """The case's working directory (absolute)."""
    skill_root: Path
    """Root of the skill's tree (see :mod:`agentic_evals.contract.layout`)."""
    env: Mapping[str, str] = field(default_factory=dict)
    """The case's ``env``: literal values a shell script may expand."""
    placeholders: Mapping[str, str] = field(default_factory=dict)
    """Values of the fixture's built-in placeholders, resolved in the command's words."""
    stub_dirs: tuple[Path, ...] = ()
    """Directories outside the skill tree whose files are stub inputs (the folder of a
    fixture kept outside the skill)."""

    @classmethod
    def for_case(
        cls,
        fixture_dir: Path,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
        skill_root: str | None = None,
    ) -> CommandContext:
        """Context of a case declared in a fixture living in ``fixture_dir``.

        Placeholders are resolved as a trial would see them, the workspace
        standing for its copy (whose content it is).
        """
        layout = layout_for(fixture_dir, skill_root)
        copy = layout.path(workspace) if workspace else None
        values = layout.bindings(copy)
        base = copy or layout.base
        where = Path(os.path.normpath(base / resolve(cwd, values))) if cwd else base
        resolved = {key: resolve(value, values) for key, value in (env or {}).items()}
        stubs = (layout.fixture_dir,) if layout.outside else ()
        return cls(where, layout.skill_tree, resolved, values, stubs)


def file_verdict(cmd: SimpleCommand, ctx: CommandContext) -> Verdict:
    """Whether ``cmd`` runs a file of the skill tree: an entrypoint, or other with the reason."""
    argv = cmd.argv
    name, args = program_name(argv[0]), list(argv[1:])
    if name in SHELLS:
        shell_mode, script = shell_invocation(args)
        if shell_mode != "script" or script is None:
            return Verdict("other", f"{argv[0]!r} reads its script from stdin")
        return _check_file(script, cmd, ctx, runner=argv[0])
    if name in ("source", "."):
        return _check_file(args[0], cmd, ctx, runner=argv[0])
    if name == "python":
        mode, value = python_invocation(args)
        if mode == "script" and value:
            return _check_file(value, cmd, ctx, runner=argv[0])
        if mode == "module" and value:
            return _check_module(value, cmd, ctx, argv[0])
        return Verdict("other", f"{argv[0]!r} reads its program from stdin")
    if name in _INTERPRETERS:
        operands = [arg for arg in args if not arg.startswith("-")]
        if operands:
            return _check_file(operands[0], cmd, ctx, runner=argv[0])
        return Verdict("other", f"{argv[0]!r} is given no script")
    if "/" in argv[0]:
        return _check_file(argv[0], cmd, ctx, runner=None)
    if any(mark in argv[0] for mark in ("$", "`")):
        return Verdict("other", f"{argv[0]} is not a literal program")
    return Verdict("other", f"runs {argv[0]!r}, which is no entrypoint of the skill")


def _check_file(path: str, cmd: SimpleCommand, ctx: CommandContext, runner: str | None) -> Verdict:
    """An entrypoint when ``path`` is a file of the skill tree, outside ``fixtures/``."""
    if any(mark in path for mark in ("$", "`", "\x00")):
        return Verdict("other", f"{path} is not a literal path")
    if cmd.cwd is None and not path.startswith("/"):
        return Verdict("other", f"{path} is relative to a directory chosen at run time")
    try:
        target = (ctx.cwd / (cmd.cwd or ".") / path).resolve()
        root = ctx.skill_root.resolve()
        is_file = target.is_file()
        executable = os.access(target, os.X_OK)
    except (OSError, RuntimeError, ValueError):
        return Verdict("other", f"{path} cannot be resolved")
    if not target.is_relative_to(root):
        return Verdict("other", f"{path} is not under the skill tree")
    if not is_file:
        return Verdict("other", f"{path} does not exist under the skill tree")
    if stub_location(target.relative_to(root).as_posix()):
        return Verdict("other", f"{path} is in a stub location (under fixtures/ or a look-alike)")
    if runner is None and not executable:
        return Verdict("other", f"{path} is not executable")
    how = f"runs {path} with {runner}" if runner else f"executes {path}"
    return Verdict("entrypoint", how, target)


def _check_module(module: str, cmd: SimpleCommand, ctx: CommandContext, shown: str) -> Verdict:
    base = module.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__main__.py"):
        verdict = _check_file(candidate, cmd, ctx, runner=f"{shown} -m")
        if verdict.kind == "entrypoint":
            return verdict
    return Verdict("other", f"module {module!r} is not a module of the skill tree")


def runner_command(name: str, args: list[str]) -> str | None:
    """The test runner that program ``name`` runs with ``args`` (e.g. ``npm test``), or ``None``."""
    if name in _RUNNER_PROGRAMS:
        return name
    subcommands = _RUNNER_SUBCOMMANDS.get(name)
    if subcommands is None:
        return None
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg.startswith("-"):
            index += 2 if arg in _OPERAND_VALUE_OPTIONS else 1
            continue
        operands.append(arg)
        index += 1
    if name in ("make", "mvn", "gradle", "gradlew"):
        targets = [op for op in operands if op in subcommands or op.startswith("test")]
        return f"{name} {targets[0]}" if targets else None
    if operands and operands[0] in subcommands:
        return f"{name} {operands[0]}"
    if len(operands) > 1 and operands[0] in _RUN_SCRIPT and operands[1].startswith("test"):
        return f"{name} {operands[0]} {operands[1]}"
    return None
