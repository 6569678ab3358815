"""The ``artifacts`` oracle: checks on files the trial left behind (SPEC 3.3).

Each check names a ``path`` or a ``glob`` (every match must satisfy it; no
match fails with ``ARTIFACT_NO_MATCH``), and any of these conditions, each
judged on its own:

- ``absent: true`` / ``exists: false``: nothing may be there (``ARTIFACT_PRESENT``);
- ``exists: true``: something (a file or a directory) must be there;
- ``min_bytes``, ``sha256`` (``sha256:<hex>`` or bare hex, any case);
- ``json_pointer`` with ``equals``, ``equals_artifact`` or ``is_artifact``;
  a ``json_pointer`` with none of those means "the pointer must resolve",
  exactly like ``is_artifact: true`` (``is_artifact: false``: it must not);
  ``equals`` without a pointer compares the whole document. Equality is JSON
  equality (``agentic_evals.oracles.jsonvalues``); ``equals_artifact`` with
  ``compare: bytes|text`` compares whole files instead (see
  :mod:`~agentic_evals.oracles.artifact_values`);
- ``content_regex`` (searched by the bounded engine, in time linear in the
  content, decoded as UTF-8 with replacement: :mod:`~agentic_evals.oracles.regex`)
  and ``content_excludes`` (a plain substring).

Every condition other than absence fails with ``ARTIFACT_MISSING`` when the
path does not exist (a check with no condition at all means ``exists: true``),
and content conditions need a regular file. Unsafe
paths fail with ``ARTIFACT_UNSAFE_PATH`` before anything is opened. Every
existing regular file a check looked at (including ``equals_artifact``
targets) is hashed into ``artifact_hashes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentic_evals import codes
from agentic_evals.contract.models import ArtifactCheck, Expected
from agentic_evals.oracles.artifact_values import (
    ValueChecks,
    read_failed,
    wants_json,
    whole_file,
)
from agentic_evals.oracles.base import (
    OracleContext,
    OracleResult,
    ProcessOutcomeLike,
    oracle_pointer,
    out_of_time,
    shorten,
)
from agentic_evals.oracles.files import ArtifactReader, ArtifactReadError
from agentic_evals.oracles.paths import Resolved, UnsafePathError, expand_glob, resolve_artifact
from agentic_evals.oracles.regex import RegexError, compile_pattern
from agentic_evals.reports.model import Problem


def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
    """Run every artifact check of ``expected`` against the files under ``ctx``."""
    del outcome  # uniform oracle signature; artifacts are read from disk
    reader = ArtifactReader()
    result = OracleResult()
    for index, item in enumerate(expected.artifacts):
        pointer = oracle_pointer("artifacts", index)
        late = out_of_time(ctx, pointer)
        if late is not None:
            result.extend(late)
            break
        result.extend(_Checker(item, pointer, ctx, reader).run())
    return result


def _wants_absent(item: ArtifactCheck) -> bool:
    return item.absent is True or item.exists is False


def _wants_content(item: ArtifactCheck) -> bool:
    return (
        item.min_bytes is not None
        or item.sha256 is not None
        or wants_json(item)
        or whole_file(item)
        or item.content_regex is not None
        or item.content_excludes is not None
    )


@dataclass
class _Checker:
    """Evaluates one artifact check against each of its targets."""

    item: ArtifactCheck
    pointer: str
    ctx: OracleContext
    reader: ArtifactReader
    result: OracleResult = field(default_factory=OracleResult)
    values: ValueChecks = field(init=False)

    def __post_init__(self) -> None:
        self.values = ValueChecks(self.item, self.ctx, self.reader, self._fail, self._record)

    def run(self) -> OracleResult:
        targets = self._targets()
        for target in targets:
            if isinstance(target, UnsafePathError):
                self._fail(codes.ARTIFACT_UNSAFE_PATH, str(target))
            else:
                self._check_target(target)
        return self.result

    def _fail(self, code: str, message: str, at: str = "") -> None:
        """Record a problem at this check's pointer, plus ``at`` for a part at fault.

        ``at`` is ``/equals_artifact`` for the author's reference artifact, so that a
        reader can tell a broken reference from a wrong result.
        """
        problem = Problem(code=code, message=message, oracle=self.pointer + at)
        if problem not in self.result.problems:  # one unreadable file, one problem
            self.result.problems.append(problem)

    def _targets(self) -> list[Resolved | UnsafePathError]:
        item = self.item
        targets: list[Resolved | UnsafePathError] = []
        if item.path is not None:
            try:
                targets.append(resolve_artifact(item.path, self.ctx))
            except UnsafePathError as error:
                targets.append(error)
        if item.glob is not None:
            try:
                matches = expand_glob(item.glob, self.ctx)
            except UnsafePathError as error:
                matches = [error]
            if not matches:
                self._fail(codes.ARTIFACT_NO_MATCH, f"glob {item.glob!r} matched nothing")
            targets.extend(matches)
        if item.path is None and item.glob is None:
            self._fail(codes.ARTIFACT_NO_MATCH, "the check names neither a path nor a glob")
        return targets

    def _record(self, target: Resolved) -> bool:
        """Hash ``target`` when it is a regular file; return whether it is one."""
        if self.reader.entry(target.real).kind != "file":
            return False
        try:
            self.result.artifact_hashes[target.key] = self.reader.digest(target.real)
        except ArtifactReadError:
            pass  # reported by the conditions that need the content
        return True

    def _check_target(self, target: Resolved) -> None:
        item, key = self.item, target.key
        kind = self.reader.entry(target.real).kind
        is_file = self._record(target)
        if _wants_absent(item) and kind != "missing":
            self._fail(codes.ARTIFACT_PRESENT, f"{key} exists but must be absent")
        # A bare path (no condition at all) still claims the artifact exists.
        if not (item.exists is True or _wants_content(item) or not _wants_absent(item)):
            return
        if kind == "missing":
            self._fail(codes.ARTIFACT_MISSING, f"{key} does not exist")
            return
        if not _wants_content(item):
            return
        if not is_file:
            what = "a directory" if kind == "directory" else "not a regular file"
            self._fail(codes.ARTIFACT_MISSING, f"{key} is {what}; a file was expected")
            return
        self._check_size_and_hash(target)
        self.values.check(target)
        if item.content_regex is not None or item.content_excludes is not None:
            self._check_text(target)

    def _read_failed(self, key: str, error: ArtifactReadError) -> None:
        read_failed(self._fail, key, error)

    def _check_size_and_hash(self, target: Resolved) -> None:
        item, key = self.item, target.key
        size = self.reader.entry(target.real).size
        if item.min_bytes is not None and size < item.min_bytes:
            message = f"{key} has {size} bytes, expected at least {item.min_bytes}"
            self._fail(codes.ARTIFACT_TOO_SMALL, message)
        if item.sha256 is None:
            return
        want = "sha256:" + item.sha256.lower().removeprefix("sha256:")
        try:
            found = self.reader.digest(target.real)
        except ArtifactReadError as error:
            self._read_failed(key, error)
            return
        if found != want:
            self._fail(codes.ARTIFACT_HASH, f"{key} has {found}, expected {want}")

    def _check_text(self, target: Resolved) -> None:
        item, key = self.item, target.key
        try:
            text = self.reader.content(target.real).decode("utf-8", errors="replace")
        except ArtifactReadError as error:
            self._read_failed(key, error)
            return
        if item.content_regex is not None:
            try:
                matched = compile_pattern(item.content_regex).search(text)
            except RegexError as error:
                self._fail(
                    codes.ARTIFACT_REGEX, f"invalid content_regex: {error}", "/content_regex"
                )
            else:
                if not matched:
                    pattern = shorten(item.content_regex)
                    self._fail(codes.ARTIFACT_REGEX, f"{key} does not match /{pattern}/")
        needle = item.content_excludes
        if needle is not None and needle in text:
            self._fail(codes.ARTIFACT_EXCLUDED, f"{key} contains forbidden {shorten(repr(needle))}")
