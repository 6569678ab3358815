"""Structural reading of a command (SPEC section 2).

A case's argv is split into the *simple commands* it actually runs: the
program itself or, for ``bash``/``sh -c`` scripts, each simple command of the
script (split on ``;``, ``&&``, ``||``, ``|``, ``&`` and newlines, quoting
respected, nested ``bash -c`` and ``$(...)`` read too). Leading assignments
and wrappers (``env``, ``timeout``, ``uv run``, ...) are stripped, ``cd`` is
followed, and ``$VAR`` is resolved when the script gave it a literal value.

Each simple command is then classified: *trivial* (``echo``, ``:``, a
constant ``python -c``...), *neutral* shell bookkeeping (``cd``, ``export``),
an *entrypoint* (a script of the skill's tree, a test runner, an HTTP
request) or *other*. Words that merely mention ``run.sh`` count for nothing.
The load-time gates and live qualification both rely on this reading.
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal, NamedTuple

SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "ash", "mksh"})
TRIVIAL_PROGRAMS = frozenset(
    {"echo", "printf", "true", "false", ":", "test", "[", "[[", "cat", "ls", "pwd", "head"}
    | {"tail", "exit", "sleep", "env", "printenv", "command", "type", "which"}
)
NEUTRAL_PROGRAMS = frozenset(
    {"cd", "pushd", "popd", "export", "set", "unset", "shift", "local", "readonly", "declare"}
    | {"typeset", "shopt", "trap", "umask", "alias", "unalias", "hash", "wait", "exec", "time"}
    | {"return", "ulimit"}
)
# Programs whose arguments are only printed or compared, never read as inputs.
MENTION_PROGRAMS = frozenset({"echo", "printf", ":", "true", "false", "exit", "test", "[", "[["})
MAX_NESTING = 8

Kind = Literal["trivial", "neutral", "entrypoint", "other"]


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command a case runs, after wrappers and assignments are stripped."""

    argv: tuple[str, ...]
    """Program and arguments, known ``$VAR`` values substituted."""
    cwd: str | None = "."
    """Directory relative to the case's cwd (or absolute); ``None`` when a ``cd`` went
    somewhere only known at run time."""
    redirects: tuple[tuple[str, str], ...] = ()
    """Redirections as ``(operator, target)``."""
    in_shell: bool = False
    """Read from a shell script, where ``$`` expansions happen."""
    unparsed: bool = False
    """A shell script that could not be read; ``argv`` is the shell invocation."""

    def __str__(self) -> str:
        return shlex.join(self.argv)


class Verdict(NamedTuple):
    """What a simple command is, and why."""

    kind: Kind
    reason: str


@dataclass(frozen=True)
class CommandContext:
    """Where a case's command runs: its cwd and the skill tree it may reach into."""

    cwd: Path
    """The case's working directory (absolute)."""
    skill_root: Path
    """Root of the skill's tree (see :func:`skill_root`)."""
    env: Mapping[str, str] = field(default_factory=dict)
    """The case's ``env``: literal values a shell script may expand."""

    @classmethod
    def for_case(
        cls,
        fixture_dir: Path,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CommandContext:
        """Context of a case declared in a fixture living in ``fixture_dir``."""
        base = fixture_dir / workspace if workspace else fixture_dir
        return cls(base / cwd if cwd else base, skill_root(fixture_dir), dict(env or {}))


def skill_root(fixture_dir: Path) -> Path:
    """The skill tree: the parent of a ``fixtures`` directory, else the directory itself."""
    return fixture_dir.parent if fixture_dir.name == "fixtures" else fixture_dir


def program_name(word: str) -> str:
    """Normalise a program word: basename, ``python3.11`` -> ``python``, ``nodejs`` -> ``node``."""
    name = word.rsplit("/", 1)[-1]
    if re.fullmatch(r"(?:python|pypy)(?:\d+(?:\.\d+)*)?", name):
        return "python"
    return "node" if name == "nodejs" else name


def simple_commands(
    argv: Sequence[str], env: Mapping[str, str] | None = None
) -> list[SimpleCommand]:
    """Split ``argv`` into the simple commands it runs, in order."""
    return _from_argv(list(argv), ".", dict(env or {}), 0, in_shell=False)


# --- splitting ---------------------------------------------------------------------------

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=")
_VAR_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_PUNCTUATION = ";&|()<>\n"
_OPERATORS = sorted(
    {"&>>", ";;&", "<<<", "&&", "||", ";;", ";&", "|&", ">>", "<<", ">&", "<&", "&>", ">|"}
    | {"<>", ";", "&", "|", "(", ")", "<", ">", "\n"},
    key=len,
    reverse=True,
)
_REDIRECTS = frozenset({"&>>", "<<<", ">>", "<<", ">&", "<&", "&>", ">|", "<>", "<", ">"})
_PREFIX_WORDS = frozenset(
    {"!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"}
)
_HEADER_WORDS = frozenset({"for", "select", "case", "function", "in"})
# Wrappers: options that take a separate value, and operands before the program.
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "env": (frozenset({"-u", "--unset", "-C", "--chdir"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "nohup": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "xvfb-run": (
        frozenset({"-e", "--error-file", "-f", "--auth-file", "-n", "--server-num", "-p"})
        | frozenset({"--xauth-protocol", "-s", "--server-args", "-w", "--wait"}),
        0,
    ),
    "command": (frozenset(), 0),
    "npx": (frozenset({"-p", "--package"}), 0),
    "uvx": (frozenset({"--from", "--with", "--python", "-p", "--with-requirements"}), 0),
}
# Project runners: ``TOOL [global options] run [run options] PROGRAM ...``.
_RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset(
        {"--with", "--with-editable", "--with-requirements", "--python", "-p", "--project"}
        | {"--directory", "--extra", "--group", "--only-group", "--no-group", "--package"}
        | {"--env-file", "--index", "--default-index", "--index-url", "--extra-index-url"}
        | {"--cache-dir", "--config-file", "--color", "-f", "--find-links"}
    ),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "pipenv": frozenset(),
    "pdm": frozenset({"-p", "--project"}),
}


def _from_argv(
    words: list[str],
    cwd: str | None,
    variables: dict[str, str],
    depth: int,
    *,
    in_shell: bool,
    redirects: Sequence[tuple[str, str]] = (),
) -> list[SimpleCommand]:
    words = _unwrap(words, in_shell=in_shell)
    if not words:
        return []
    name = program_name(words[0])
    if name in SHELLS and depth < MAX_NESTING:
        mode, script = shell_invocation(words[1:])
        if mode == "command":
            return _from_script(script or "", cwd, dict(variables), depth + 1)
    if name == "eval" and in_shell and depth < MAX_NESTING:
        return _from_script(" ".join(words[1:]), cwd, variables, depth + 1)
    return [SimpleCommand(tuple(words), cwd, tuple(redirects), in_shell)]


def shell_invocation(
    args: Sequence[str],
) -> tuple[Literal["command", "script", "stdin"], str | None]:
    """Read a shell's arguments: ``-c SCRIPT`` (also ``-lc``, ``-euc``), a script file, or stdin."""
    index, command_mode = 0, False
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg in ("--rcfile", "--init-file"):
            index += 2
            continue
        if arg.startswith("--") or len(arg) < 2 or arg[0] not in "-+":
            if arg.startswith("--"):
                index += 1
                continue
            break
        letters = arg[1:]
        command_mode = command_mode or "c" in letters
        if "s" in letters and not command_mode:
            return "stdin", None
        index += 2 if "o" in letters or "O" in letters else 1
    if command_mode:
        return "command", args[index] if index < len(args) else ""
    if index < len(args):
        return "script", args[index]
    return "stdin", None


def _unwrap(words: list[str], *, in_shell: bool) -> list[str]:
    """Strip leading assignments (in a shell) and wrapper programs."""
    while words:
        if in_shell:
            while words and _ASSIGNMENT.match(words[0]):
                words = words[1:]
            if not words:
                return words
        name = program_name(words[0])
        rest: list[str] | None = None
        if name in _RUNNERS:
            rest = _strip_runner(words[1:], _RUNNERS[name])
        elif name == "command" and words[1:2] and words[1].startswith(("-v", "-V")):
            rest = None  # `command -v` only asks where a program is
        elif name in _WRAPPERS:
            value_options, operands = _WRAPPERS[name]
            rest = _skip_options(words[1:], value_options)[operands:]
            if name == "env":
                rest = _env_program(words[1:], value_options)
        if not rest:
            return words
        words = rest
    return words


def _skip_options(args: list[str], with_value: frozenset[str]) -> list[str]:
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return args[index + 1 :]
        if not arg.startswith("-") or arg == "-":
            break
        index += 2 if arg in with_value else 1
    return args[index:]


def _env_program(args: list[str], with_value: frozenset[str]) -> list[str]:
    for index, arg in enumerate(args):
        if arg in ("-S", "--split-string") and index + 1 < len(args):
            # `env -S "prog args"` splits one string into the argv.
            return _safe_split(args[index + 1]) + args[index + 2 :]
    rest = _skip_options(args, with_value)
    while rest and _ASSIGNMENT.match(rest[0]):
        rest = rest[1:]
    return rest


def _strip_runner(args: list[str], with_value: frozenset[str]) -> list[str] | None:
    rest = _skip_options(args, with_value)
    if not rest or rest[0] != "run":
        return None
    rest = rest[1:]
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        if rest[index] == "--":
            return rest[index + 1 :]
        if rest[index] in ("-m", "--module") and index + 1 < len(rest):
            return ["python", "-m", *rest[index + 1 :]]
        index += 2 if rest[index] in with_value else 1
    return rest[index:]


def _safe_split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


class _Script:
    """State of one shell script while it is read: cwd and literal variables."""

    def __init__(self, cwd: str | None, variables: dict[str, str], depth: int) -> None:
        self.cwd = cwd
        self.variables = variables
        self.depth = depth
        self.dirs: list[str | None] = []

    def assign(self, word: str) -> None:
        # Values keep what they expand to at run time (`S=$RANDOM` stays `$RANDOM`);
        # only a literal one can name a program or a path.
        name, _, value = word.partition("=")
        self.variables[name.rstrip("+")] = self.expand(value)

    def expand(self, word: str) -> str:
        def known(match: re.Match[str]) -> str:
            name = match[1] or match[2]
            return self.variables.get(name, match[0])

        return _VAR_REF.sub(known, word)

    def change_dir(self, args: list[str]) -> None:
        targets = [arg for arg in args if not arg.startswith("-")]
        target = targets[0] if targets else None
        if target is None or target.startswith("~") or any(c in target for c in "$`\x00"):
            self.cwd = None
        elif target.startswith("/"):
            self.cwd = posixpath.normpath(target)
        elif self.cwd is not None:
            self.cwd = posixpath.normpath(posixpath.join(self.cwd, target))

    def command(self, words: list[str], redirects: list[tuple[str, str]]) -> list[SimpleCommand]:
        while words and words[0] in _PREFIX_WORDS:
            words = words[1:]
        if not words or words[0] in _HEADER_WORDS:
            return []
        count = 0
        while count < len(words) and _ASSIGNMENT.match(words[count]):
            count += 1
        if count == len(words):
            for word in words:
                self.assign(word)
            return []
        words = words[count:]
        program = _VAR_REF.fullmatch(words[0])
        if program and (program[1] or program[2]) in self.variables:
            words = self.variables[program[1] or program[2]].split() + words[1:]
        words = [self.expand(word) for word in words]
        if not words:
            return []
        self._bookkeeping(words)
        return _from_argv(
            words, self.cwd, self.variables, self.depth, in_shell=True, redirects=redirects
        )

    def _bookkeeping(self, words: list[str]) -> None:
        name = words[0]
        if name == "pushd":
            self.dirs.append(self.cwd)
        if name in ("cd", "pushd"):
            self.change_dir(words[1:])
        elif name == "popd":
            self.cwd = self.dirs.pop() if self.dirs else None
        elif name in ("export", "declare", "local", "readonly", "typeset"):
            for word in words[1:]:
                if _ASSIGNMENT.match(word):
                    self.assign(word)


def _from_script(
    script: str, cwd: str | None, variables: dict[str, str], depth: int
) -> list[SimpleCommand]:
    try:
        text, substitutions = _prescan(script)
        groups = list(_groups(_tokens(text)))
    except ValueError:
        return [SimpleCommand(("sh", "-c", script), cwd, (), True, unparsed=True)]
    state = _Script(cwd, variables, depth)
    found: list[SimpleCommand] = []
    for words, redirects in groups:
        restored = [_restore(word, substitutions) for word in words]
        for word in words:
            for index in re.findall(r"\x00(\d+)\x00", word):
                inner = substitutions[int(index)][1]
                if inner is not None and depth < MAX_NESTING:
                    found += _from_script(inner, state.cwd, dict(state.variables), depth + 1)
        targets = [(op, _restore(target, substitutions)) for op, target in redirects]
        found += state.command(restored, targets)
    return found


def _restore(word: str, substitutions: list[tuple[str, str | None]]) -> str:
    word = re.sub(r"\x01([0-9a-f]+)\x01", lambda m: chr(int(m[1], 16)), word)
    return re.sub(r"\x00(\d+)\x00", lambda m: substitutions[int(m[1])][0], word)


def _shield(char: str) -> str:
    """Hide a quoted or escaped operator character from the tokenizer."""
    return f"\x01{ord(char):x}\x01" if char in _PUNCTUATION else char


def _prescan(script: str) -> tuple[str, list[tuple[str, str | None]]]:
    """Prepare a script for the tokenizer, quoting respected.

    Comments, line continuations and here-document bodies are dropped; quoted
    operator characters are shielded; ``$(...)``, backticks and ``<(...)`` are
    replaced with placeholders (their scripts are read separately).

    Raises:
        ValueError: a quote or substitution is not closed.
    """
    out: list[str] = []
    subs: list[tuple[str, str | None]] = []
    heredocs: list[str] = []
    index, quote = 0, ""
    while index < len(script):
        char = script[index]
        if quote == "'":
            quote = "" if char == "'" else quote
            out.append(char if char == "'" else _shield(char))
            index += 1
        elif char == "\\":
            if not script.startswith("\\\n", index):
                escaped = script[index + 1 : index + 2]
                out.append(_shield(escaped) if escaped in _PUNCTUATION else "\\" + escaped)
            index += 2
        elif (
            script.startswith("$(", index)
            or char == "`"
            or (not quote and char in "<>" and script.startswith("(", index + 1))
        ):
            end = _closing(script, index)
            original = script[index : end + 1]
            arithmetic = original.startswith("$((") and original.endswith("))")
            inner = None if arithmetic else original[1:-1] if char == "`" else original[2:-1]
            out.append(f"\x00{len(subs)}\x00")
            subs.append((original, inner))
            index = end + 1
        elif char == "#" and not quote and (index == 0 or script[index - 1] in " \t\n;&|()"):
            newline = script.find("\n", index)
            index = len(script) if newline < 0 else newline
        elif char == "\n" and not quote and heredocs:
            index = _skip_heredocs(script, index + 1, heredocs)
            out.append("\n")
        else:
            if char in "'\"" and quote in ("", char):
                quote = "" if quote else char
            elif not quote and _opens_heredoc(script, index):
                heredocs.append(_heredoc_word(script, index + 2))
            out.append(_shield(char) if quote else char)
            index += 1
    if quote:
        raise ValueError("unclosed quote")
    return "".join(out), subs


def _opens_heredoc(script: str, index: int) -> bool:
    """``<<`` (not ``<<<``) starts at ``index``."""
    return script.startswith("<<", index) and "<" not in (
        script[index - 1 : index] if index else "",
        script[index + 2 : index + 3],
    )


def _heredoc_word(script: str, index: int) -> str:
    match = re.match(r"-?\s*(['\"]?)([^\s;&|<>()'\"]+)\1", script[index:])
    return match[2] if match else ""


def _skip_heredocs(script: str, index: int, heredocs: list[str]) -> int:
    """Skip the bodies of pending here-documents, which start at ``index``."""
    while heredocs:
        delimiter = heredocs.pop(0)
        while index < len(script):
            newline = script.find("\n", index)
            line_end = len(script) if newline < 0 else newline
            line, index = script[index:line_end], line_end + 1
            if line.lstrip("\t") == delimiter:
                break
    return min(index, len(script))


def _closing(script: str, start: int) -> int:
    """Index of the character that closes the substitution opening at ``start``."""
    if script[start] == "`":
        end = script.find("`", start + 1)
        if end < 0:
            raise ValueError("unclosed backquote")
        return end
    depth, index, quote = 0, script.index("(", start), ""
    while index < len(script):
        char = script[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "\\":
            index += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise ValueError("unclosed substitution")


def _tokens(text: str) -> Iterator[tuple[bool, str]]:
    """Shell tokens as ``(is_operator, text)``; quoted text is never an operator."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    for token in lexer:
        if token and all(char in _PUNCTUATION for char in token):
            while token:
                operator = next(op for op in _OPERATORS if token.startswith(op))
                yield True, operator
                token = token[len(operator) :]
        else:
            yield False, token


def _groups(
    tokens: Iterator[tuple[bool, str]],
) -> Iterator[tuple[list[str], list[tuple[str, str]]]]:
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    pending: str | None = None
    for is_operator, token in tokens:
        if pending is not None and not is_operator:
            redirects.append((pending, token))
            pending = None
            continue
        pending = None
        if is_operator and token in _REDIRECTS:
            if words and words[-1] in ("0", "1", "2"):
                words.pop()  # the file descriptor of `2>&1`, not an argument
            pending = token
        elif is_operator:
            yield words, redirects
            words, redirects = [], []
        else:
            words.append(token)
    yield words, redirects


# --- classification ----------------------------------------------------------------------

_PYTHON_RUNNERS = frozenset({"pytest", "py.test", "unittest", "nose2", "tox", "nox"})
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
_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})
_INTERPRETERS = frozenset({"node", "perl", "ruby", "php", "Rscript", "lua", "tclsh"})
_PYTHON_CALLS = frozenset({"print", "exit", "quit", "SystemExit"})
_JS_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\$])*`")
_JS_CALL = re.compile(r"([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(")
_JS_ALLOWED = frozenset(
    {"console.log", "console.error", "console.info", "console.warn", "process.exit"}
    | {"if", "for", "while", "switch", "catch", "function", "return", "typeof"}
)


def classify(cmd: SimpleCommand, ctx: CommandContext) -> Verdict:
    """Classify one simple command: trivial, neutral, entrypoint or other, with a reason."""
    if cmd.unparsed:
        return Verdict("other", "a shell script that cannot be read structurally")
    return _static_verdict(cmd.argv) or _file_verdict(cmd, ctx)


def _static_verdict(argv: tuple[str, ...]) -> Verdict | None:
    """The verdicts that need no file system: trivial, neutral, test runner, HTTP."""
    name, args = program_name(argv[0]), list(argv[1:])
    shown = argv[0]
    if name in NEUTRAL_PROGRAMS or name in ("source", ".") and not args:
        return Verdict("neutral", f"{shown!r} is shell bookkeeping")
    if name == "python":
        mode, value = python_invocation(args)
        if mode == "code":
            why = _python_code_effect(value or "")
            return Verdict("other", f"its inline python {why}") if why else _trivial(shown, "-c")
        if mode == "module" and value in _PYTHON_RUNNERS:
            return Verdict("entrypoint", f"runs the test runner `{shown} -m {value}`")
        return None
    if name == "node":
        code = _inline_option(args, ("-e", "--eval", "-p", "--print"))
        if code is not None:
            why = _node_code_effect(code)
            return Verdict("other", f"its inline script {why}") if why else _trivial(shown, "-e")
        if "--test" in args:
            return Verdict("entrypoint", f"runs the test runner `{shown} --test`")
        return None
    if name in TRIVIAL_PROGRAMS:
        return _trivial(shown)
    runner = _test_runner(name, args)
    if runner:
        return Verdict("entrypoint", f"runs the test runner `{runner}`")
    if name in _HTTP_CLIENTS:
        for arg in args:
            url = arg.split("=", 1)[1] if arg.startswith("--url=") else arg
            if re.match(r"https?://", url, re.IGNORECASE):
                return Verdict("entrypoint", f"makes an HTTP request to {url}")
    return None


def _trivial(shown: str, flag: str = "") -> Verdict:
    return Verdict("trivial", f"runs {_label(shown, flag)!r} which is trivial")


def _label(program: str, flag: str = "") -> str:
    return f"{program} {flag}" if flag else program


def _shown(argv: tuple[str, ...]) -> str:
    """How to name a trivial program in a message (``python -c`` for inline code)."""
    name = program_name(argv[0])
    if name == "python" and python_invocation(argv[1:])[0] == "code":
        return _label(argv[0], "-c")
    if name == "node" and _inline_option(argv[1:], ("-e", "--eval", "-p", "--print")) is not None:
        return _label(argv[0], "-e")
    return argv[0]


def _file_verdict(cmd: SimpleCommand, ctx: CommandContext) -> Verdict:
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
    if "fixtures" in target.relative_to(root).parts[:-1]:
        return Verdict("other", f"{path} is under fixtures/")
    if runner is None and not executable:
        return Verdict("other", f"{path} is not executable")
    how = f"runs {path} with {runner}" if runner else f"executes {path}"
    return Verdict("entrypoint", how)


def _check_module(module: str, cmd: SimpleCommand, ctx: CommandContext, shown: str) -> Verdict:
    base = module.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__main__.py"):
        verdict = _check_file(candidate, cmd, ctx, runner=f"{shown} -m")
        if verdict.kind == "entrypoint":
            return verdict
    return Verdict("other", f"module {module!r} is not a module of the skill tree")


def python_invocation(
    args: Sequence[str],
) -> tuple[Literal["code", "module", "script", "stdin"], str | None]:
    """Read python's arguments: ``-c CODE``, ``-m MODULE``, a script, or stdin."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg.startswith("--") or arg == "-" or not arg.startswith("-"):
            if arg.startswith("--"):
                index += 1
                continue
            break
        for position, letter in enumerate(arg[1:], start=2):
            if letter in "cmWX":
                value = arg[position:] or (args[index + 1] if index + 1 < len(args) else "")
                if letter in "cm":
                    return ("code" if letter == "c" else "module"), value
                index += 0 if arg[position:] else 1
                break
        index += 1
    if index < len(args) and args[index] != "-":
        return "script", args[index]
    return "stdin", None


def _inline_option(args: Sequence[str], options: tuple[str, ...]) -> str | None:
    for index, arg in enumerate(args):
        if arg in options:
            return args[index + 1] if index + 1 < len(args) else ""
        for option in options:
            if option.startswith("--") and arg.startswith(option + "="):
                return arg[len(option) + 1 :]
    return None


def _python_code_effect(code: str) -> str | None:
    """What an inline python program does beyond printing and exiting; ``None``: nothing."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # python refuses it and runs nothing
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            return "imports modules"
        if isinstance(node, ast.Call):
            func = node.func
            if not (isinstance(func, ast.Name) and func.id in _PYTHON_CALLS):
                return f"calls {ast.unparse(func)[:40]}"
    return None


def _node_code_effect(code: str) -> str | None:
    """What an inline JavaScript program does beyond printing and exiting (heuristic)."""
    stripped = _JS_STRING.sub('""', code)
    if re.search(r"\b(?:require|import)\b", stripped):
        return "loads modules"
    for match in _JS_CALL.finditer(stripped):
        name = re.sub(r"\s+", "", match[1])
        if name not in _JS_ALLOWED:
            return f"calls {name}"
    return None


def _test_runner(name: str, args: list[str]) -> str | None:
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


# --- whole commands ----------------------------------------------------------------------


@dataclass(frozen=True)
class CommandAnalysis:
    """A case's command read structurally: its simple commands and their verdicts."""

    argv: tuple[str, ...]
    commands: tuple[SimpleCommand, ...]
    verdicts: tuple[Verdict, ...]
    stubs: tuple[str, ...]
    """Arguments that are paths under a ``fixtures/`` directory."""

    @property
    def trivial(self) -> bool:
        """Every simple command is trivial or bookkeeping: the command proves nothing."""
        return all(verdict.kind in ("trivial", "neutral") for verdict in self.verdicts)

    @property
    def entrypoints(self) -> list[tuple[SimpleCommand, Verdict]]:
        """The simple commands that reach an entrypoint."""
        pairs = zip(self.commands, self.verdicts, strict=True)
        return [(cmd, verdict) for cmd, verdict in pairs if verdict.kind == "entrypoint"]

    def describe_trivial(self) -> str:
        """Say what a trivial command runs, e.g. "`: run.sh` runs ':' which is trivial"."""
        shown = f"`{shlex.join(self.argv)}`"
        if not self.commands:
            return f"{shown} runs nothing"
        programs = list(dict.fromkeys(_shown(cmd.argv) for cmd in self.commands))
        names = ", ".join(repr(program) for program in programs)
        return f"{shown} runs {names} which {'is' if len(programs) == 1 else 'are'} trivial"

    def describe_not_live(self) -> str:
        """Say why no simple command reaches an entrypoint."""
        reasons = [
            f"`{cmd}`: {verdict.reason}"
            for cmd, verdict in zip(self.commands, self.verdicts, strict=True)
            if verdict.kind == "other"
        ]
        if not reasons:
            return self.describe_trivial()
        return "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")


def analyze(argv: Sequence[str], ctx: CommandContext) -> CommandAnalysis:
    """Read ``argv`` structurally in ``ctx``."""
    commands = simple_commands(argv, ctx.env)
    verdicts = tuple(classify(cmd, ctx) for cmd in commands)
    return CommandAnalysis(tuple(argv), tuple(commands), verdicts, tuple(_stub_words(commands)))


def reaches_entrypoint(argv: Sequence[str], ctx: CommandContext) -> Verdict | None:
    """The first entrypoint ``argv`` reaches, or ``None``."""
    entrypoints = analyze(argv, ctx).entrypoints
    return entrypoints[0][1] if entrypoints else None


def is_trivial_command(argv: Sequence[str], env: Mapping[str, str] | None = None) -> bool:
    """True when every simple command of ``argv`` is trivial or shell bookkeeping."""
    return all(
        (verdict := _static_verdict(cmd.argv)) is not None
        and verdict.kind in ("trivial", "neutral")
        and not cmd.unparsed
        for cmd in simple_commands(argv, env)
    )


def feeds_stubs(argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Arguments (or input redirections) of ``argv`` that are paths under ``fixtures/``."""
    return _stub_words(simple_commands(argv, env))


def _stub_words(commands: Sequence[SimpleCommand]) -> list[str]:
    found: list[str] = []
    for cmd in commands:
        if program_name(cmd.argv[0]) in MENTION_PROGRAMS:
            continue
        words = [*cmd.argv[1:], *(target for op, target in cmd.redirects if op in ("<", "<>"))]
        for word in words:
            value = word.split("=", 1)[1] if "=" in word else word
            if "/" in value and "fixtures" in PurePosixPath(value).parts:
                found.append(word)
    return list(dict.fromkeys(found))
