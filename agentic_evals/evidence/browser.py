"""Browser-driven ``ask`` workflows: live only when executed and read back (SPEC 4). Pure.

The ``ask`` skill compiles browser and provider workflows (``tau-dag``,
``compete``, ``--handler webgpt``...) without running them unless it is given
``--execute``; a compile-only run exits 0 with a plan and proves nothing live.
A case is such a workflow when one of the simple commands it actually runs
(structurally, see :mod:`agentic_evals.commands.analysis`; ``echo`` and ``:``
only mention their arguments) executes the ask skill's ``run.sh`` (a
``run.sh`` in a directory named ``ask``, or any ``run.sh`` in a fixture of
the skill ``ask``) with a browser handler. Such a case stays live only when
that command has ``--execute`` and an artifact check reads back a
browser/provider run artifact by its file name.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Final

from agentic_evals import codes
from agentic_evals.commands.analysis import (
    MENTION_PROGRAMS,
    SHELLS,
    CommandAnalysis,
    SimpleCommand,
    program_name,
    shell_invocation,
)
from agentic_evals.contract.models import Case
from agentic_evals.evidence.checks import reads_a_file

ASK_SKILL: Final = "ask"
BROWSER_SUBCOMMANDS: Final = frozenset({"tau-dag", "compete", "browser", "roundtable"})
"""Subcommands of the ask skill that drive browser or provider sessions."""
BROWSER_HANDLER_PREFIX: Final = "web"
"""``--handler webgpt``, ``--handler webclaude``...: browser-backed handlers."""
RUN_ARTIFACTS: Final = frozenset(
    {"node-receipt.json", "response.md", "response.meta.json", "browser-tab-lifecycle.json"}
    | {"execution-status.json", "roundtable-summary.md", "compete-scorecard.json"}
)
"""File names of the artifacts a real browser/provider run leaves behind."""


def _script(cmd: SimpleCommand) -> str | None:
    """The file a simple command executes: a shell's script, or a path-like program."""
    name = program_name(cmd.argv[0])
    if name in SHELLS:
        mode, script = shell_invocation(cmd.argv[1:])
        return script if mode == "script" else None
    return cmd.argv[0] if "/" in cmd.argv[0] or cmd.argv[0] == "run.sh" else None


def _runs_ask(cmd: SimpleCommand, skill: str) -> bool:
    if cmd.unparsed or program_name(cmd.argv[0]) in MENTION_PROGRAMS:
        return False
    script = _script(cmd)
    if script is None:
        return False
    path = PurePosixPath(script)
    return path.name == "run.sh" and (skill == ASK_SKILL or path.parent.name == ASK_SKILL)


def _browser_driven(words: tuple[str, ...]) -> bool:
    for index, word in enumerate(words):
        if word in BROWSER_SUBCOMMANDS or word == "--browser":
            return True
        option, has_value, value = word.partition("=")
        if option == "--handler":
            handler = value if has_value else (words[index + 1] if index + 1 < len(words) else "")
            if handler.startswith(BROWSER_HANDLER_PREFIX):
                return True
    return False


def ask_workflows(analysis: CommandAnalysis, skill: str) -> list[SimpleCommand]:
    """The simple commands that run a browser-driven ask workflow."""
    return [
        cmd for cmd in analysis.commands if _runs_ask(cmd, skill) and _browser_driven(cmd.argv[1:])
    ]


def reads_run_artifact(case: Case) -> bool:
    """Whether an artifact check of ``case`` reads back a browser/provider run artifact."""
    return any(
        PurePosixPath(check.path or check.glob or "").name in RUN_ARTIFACTS
        for check in case.expected.artifacts
        if reads_a_file(check)  # asserting that a receipt is missing reads nothing back
    )


def ask_disqualifiers(case: Case, analysis: CommandAnalysis, skill: str) -> list[tuple[str, str]]:
    """Why a browser-driven ask workflow is not live, as (code, reason) pairs.

    Empty when the case runs no such workflow, or runs it live.
    """
    workflows = ask_workflows(analysis, skill)
    if not workflows:
        return []
    found: list[tuple[str, str]] = []
    executed = any(
        word == "--execute" or word.startswith("--execute=")
        for cmd in workflows
        for word in cmd.argv[1:]
    )
    if not executed:
        reason = "runs a browser-driven ask workflow without --execute, which only compiles it"
        found.append((codes.LIVE_ASK_NOT_EXECUTED, reason))
    if not reads_run_artifact(case):
        reason = "reads back no browser or provider run artifact of its ask workflow"
        found.append((codes.LIVE_ASK_NO_RUN_ARTIFACT, reason))
    return found
