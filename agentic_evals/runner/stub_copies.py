"""Copies of a skill's stubs outside its tree, found before each live trial (docs/evidence.md).

An earlier case (or a skill script) may copy a stub out of the tree
(``cp fixtures/stub.csv /tmp/stub.csv``), and a later live case read the copy
by any spelling. Before each traced trial :class:`StubCopyFinder` looks for
such copies among:

- every path that any case of the fixture names (command words, redirection
  targets, ``env`` values) outside the tree: symlinks resolved, globs
  expanded, a named folder giving its direct files;
- the regular files directly in the temporary folders (``$TMPDIR``, ``/tmp``,
  ``/var/tmp``, ``/dev/shm``, and one level down) and in ``$HOME``, changed
  since the run began.

A candidate whose size and sha256 equal a stub's is a copy. The tracer then
watches each copy (:mod:`agentic_evals.runner.trace_files`); a copy the case
itself names disqualifies it without any trace. The stubs' digests are read
once per run, by the first traced trial; untraced cases cost nothing.
"""

from __future__ import annotations

import glob
import os
import posixpath
import re
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final, NamedTuple

from agentic_evals.commands.shell import simple_commands
from agentic_evals.contract.layout import FixtureLayout
from agentic_evals.contract.models import Case
from agentic_evals.contract.placeholders import resolve
from agentic_evals.runner.fresh_files import FreshFiles
from agentic_evals.runner.stub_digests import StubDigests, copies_among, folder_files, stub_digests

TEMPORARY_FOLDERS: Final = ("/tmp", "/var/tmp", "/dev/shm")
"""Where copies are looked for unnamed (with ``$TMPDIR``), top level and one level down."""
RUNNER_PREFIX: Final = "agentic-evals-"
"""The runner's own temporary entries (views, workspace copies, traces, leases) start so: they
are passed over when looking for copies."""
MAX_GLOB_MATCHES: Final = 256
"""At most this many matches of one glob are candidates."""
_GLOB = re.compile(r"[*?\[]")
_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
_SLACK: Final = 1.0
"""Seconds before the run's start still counted as during it (coarse file-system clocks)."""
_NEVER: Final = ("/proc/", "/sys/", "/dev/")
"""No candidate is read there (``/dev/shm`` is looked at on its own)."""


class StubCopies(NamedTuple):
    """The stub copies outside the tree before one trial, each to the stub it equals."""

    watched: dict[str, str]
    """Every copy found (resolved path to the stub, relative to the tree): the tracer watches
    them."""
    named: dict[str, str]
    """Those the case itself names: they disqualify it without a trace."""

    def seen(self, opened: Iterable[str], tree: Path) -> list[str]:
        """The copies among the ``opened`` files, then those named and not opened, in words.

        An open outside ``tree`` is a copy's by its resolved path, or by its
        device and inode (a hard link to a copy).
        """
        watched = self.watched
        inodes = {key: path for path in watched if (key := _inode(path)) is not None}
        found: dict[str, None] = {}
        for path in opened:
            if Path(path).is_relative_to(tree):
                continue
            key = _inode(path)
            copy = path if path in watched else inodes.get(key) if key is not None else None
            if copy is not None:
                found[copy] = None
        words = [f"opened {path}, a copy of {watched[path]}" for path in sorted(found)]
        named = sorted(set(self.named) - set(found))
        return words + [f"names {path}, a copy of {self.named[path]}" for path in named]


class StubCopyFinder:
    """Finds the stub copies before each traced trial of one run (thread-safe)."""

    def __init__(
        self,
        layout: FixtureLayout,
        cases: Sequence[Case],
        env: Mapping[str, str],
        started: float,
    ) -> None:
        self.layout = layout
        self.tree = Path(os.path.realpath(layout.skill_tree))
        self.cases = tuple(cases)
        self.env = dict(env)
        """The runner's environment (``$HOME``, ``$TMPDIR``), under each case's own."""
        self.started = started
        """When the run began (seconds since the epoch): older unnamed files are no copies."""
        self._digests: StubDigests | None = None
        self._words: dict[int, tuple[Case, tuple[tuple[str, Path], ...]]] = {}
        """Each case (kept, so its id stays its own) with its words, read once; what they name
        is looked up before every trial."""
        self._lock = threading.Lock()
        self._all_words: dict[tuple[str, Path], None] | None = None
        self._fresh_found: dict[str, str] = {}
        """The copies among the files changed in the temporary folders, kept between trials."""
        self._fresh: FreshFiles | None = None
        try:
            self._fresh = FreshFiles(self._temporary_folders(), RUNNER_PREFIX, self.tree)
        except OSError:
            self._fresh = None  # no inotify: the temporary folders are walked before each trial

    def digests(self) -> StubDigests:
        """The stubs' digests, read on first use."""
        with self._lock:
            if self._digests is None:
                self._digests = stub_digests(self.tree)
            return self._digests

    def before_trial(self, case: Case) -> StubCopies:
        """The stub copies outside the tree now, and those ``case`` names."""
        digests = self.digests()
        if not digests.sizes:
            return StubCopies({}, {})
        own_words = set(self._case_words(case))
        every = {**dict.fromkeys(own_words), **self._every_word()}
        own: set[Path] = set()
        candidates: list[Path] = []
        for word in every:  # each distinct word once, however many cases spell it
            paths = self._resolved(*word)
            candidates += paths
            if word in own_words:
                own.update(paths)
        copies = copies_among((p for p in candidates if self._allowed(p)), digests)
        copies.update(self._fresh_copies(digests))
        return StubCopies(copies, {p: s for p, s in copies.items() if Path(p) in own})

    def named(self, case: Case) -> list[Path]:
        """The resolved files outside the tree that ``case``'s words and env values name."""
        found: list[Path] = []
        for word in self._case_words(case):
            found += self._resolved(*word)
        return list(dict.fromkeys(found))

    def close(self) -> None:
        """Release the watches on the temporary folders."""
        with self._lock:
            if self._fresh is not None:
                self._fresh.close()
                self._fresh = None

    def _every_word(self) -> dict[tuple[str, Path], None]:
        """The distinct words of every case of the run, read once (they do not change)."""
        if self._all_words is None:
            every: dict[tuple[str, Path], None] = {}
            for other in self.cases:
                every.update(dict.fromkeys(self._case_words(other)))
            self._all_words = every
        return self._all_words

    def _case_words(self, case: Case) -> tuple[tuple[str, Path], ...]:
        """``case``'s words that may name a file, expanded, with the folder they start from."""
        with self._lock:
            known = self._words.get(id(case))
            if known is None:
                cwd = self.layout.path(case.cwd) if case.cwd else self.layout.base
                env = {**self.env, **case.env}
                bindings = self.layout.bindings()
                texts = (_expanded(resolve(word, bindings), env) for word in _words(case))
                pairs = tuple(dict.fromkeys((text, cwd) for text in texts if text is not None))
                known = self._words[id(case)] = (case, pairs)
            return known[1]

    def _resolved(self, text: str, cwd: Path) -> list[Path]:
        """The files outside the tree that ``text`` (from ``cwd``) names now."""
        found: list[Path] = []
        for path in _matches(text, cwd):
            real = Path(os.path.realpath(path))
            if real.is_relative_to(self.tree):
                continue
            if real.is_dir():
                found += folder_files(real)
            else:
                found.append(real)
        return found

    def _fresh_copies(self, digests: StubDigests) -> dict[str, str]:
        """The copies among the files changed in the temporary folders since the run began.

        What the kernel reported changed since the last trial is looked at again
        (:mod:`.fresh_files`); without its report, the folders are walked.
        """
        with self._lock:
            changed = None if self._fresh is None else self._fresh.changed()
            if changed is None:
                self._fresh_found = copies_among(self._walked_temporary_files(), digests)
            else:
                real = [Path(os.path.realpath(path)) for path in changed]
                for path in real:
                    self._fresh_found.pop(str(path), None)
                allowed = (path for path in real if self._allowed(path))
                self._fresh_found.update(copies_among(allowed, digests))
            return dict(self._fresh_found)

    def _temporary_folders(self) -> list[tuple[Path, int]]:
        """The temporary folders (one level down) and ``$HOME`` (its top), outside the tree."""
        folders = [self.env.get("TMPDIR", ""), *TEMPORARY_FOLDERS]
        found = [(Path(os.path.realpath(f)), 1) for f in dict.fromkeys(folders) if f]
        home = self.env.get("HOME", "")
        if home:
            found.append((Path(os.path.realpath(home)), 0))
        return [(folder, depth) for folder, depth in found if not folder.is_relative_to(self.tree)]

    def _walked_temporary_files(self) -> list[Path]:
        since = self.started - _SLACK
        found: list[Path] = []
        for folder, depth in dict.fromkeys(self._temporary_folders()):
            found += folder_files(folder, depth, since, RUNNER_PREFIX)
        return [path for path in map(_real, found) if self._allowed(path)]

    def _allowed(self, path: Path) -> bool:
        """Whether ``path`` may be read and watched: no runner file, no pseudo-file system."""
        text = str(path)
        if text.startswith("/dev/shm/"):
            return not path.is_relative_to(self.tree)
        if text.startswith(_NEVER) or path.is_relative_to(self.tree):
            return False
        own = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(__file__).parents[1])}
        return not any(path.is_relative_to(os.path.realpath(root)) for root in own)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _inode(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _words(case: Case) -> Iterator[str]:
    """Every word of ``case`` that may name a file: arguments, redirections, env values."""
    yield from case.command[1:]
    for command in simple_commands(case.command, case.env):
        yield from command.argv[1:]
        yield from (target for _, target in command.redirects)
    yield from case.env.values()


def _expanded(word: str, env: Mapping[str, str]) -> str | None:
    """``word`` with ``~`` and its ``$VAR``s expanded from ``env``; None when one is unknown."""
    if "=" in word and not word.startswith(("/", ".", "~")):
        word = word.partition("=")[2]
    if word.startswith("~/") or word == "~":
        word = env.get("HOME", "~") + word[1:]
    missing = False

    def value(match: re.Match[str]) -> str:
        nonlocal missing
        name = match[1] or match[2]
        if name not in env:
            missing = True
        return env.get(name, "")

    text = _VARIABLE.sub(value, word)
    if missing or not text or "$" in text or "`" in text or text.startswith("-"):
        return None
    return text


def _matches(text: str, cwd: Path) -> list[str]:
    """The paths ``text`` names from ``cwd``: itself, or a glob's first matches."""
    path = text if posixpath.isabs(text) else str(cwd / text)
    if _GLOB.search(text) is None:
        return [path] if os.path.lexists(path) else []
    matches = glob.iglob(path)
    return [match for _, match in zip(range(MAX_GLOB_MATCHES), matches, strict=False)]
