r"""The value conditions of an artifact check: what is in the file, compared with what.

- ``json_pointer`` alone, or with ``is_artifact: true``: the pointer resolves;
  with ``is_artifact: false``: it must not (``ARTIFACT_POINTER_PRESENT``), in a
  file that is valid JSON;
- ``equals``: the value at the pointer equals it, as JSON;
- ``equals_artifact``: compared with another artifact, as its ``compare`` says:
  ``json`` (default) the values at the two pointers are equal JSON; ``bytes``
  the two files are byte-identical (compared by sha256, so any size works);
  ``text`` their contents are equal as UTF-8 text once ``\r\n`` and ``\r``
  line endings are read as ``\n`` (``ARTIFACT_NOT_TEXT`` when either is not
  UTF-8). A difference is ``ARTIFACT_MISMATCH``.

Problems about the reference artifact itself carry ``/equals_artifact`` in
their oracle pointer, so that a broken reference reads apart from a wrong
result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentic_evals import codes
from agentic_evals.contract.models import ArtifactCheck, ArtifactRef
from agentic_evals.oracles.base import OracleContext, shorten
from agentic_evals.oracles.files import (
    ArtifactNotJsonError,
    ArtifactReader,
    ArtifactReadError,
    ArtifactTooLargeError,
)
from agentic_evals.oracles.jsonvalues import PointerError, json_equal, render, resolve
from agentic_evals.oracles.paths import Resolved, UnsafePathError, resolve_artifact

UNAVAILABLE: Any = object()
"""A value that could not be obtained (its problem is already reported)."""
_REFERENCE = "/equals_artifact"

Fail = Callable[[str, str, str], None]
"""Records a problem: its code, its message, and the part of the check at fault."""


def read_failed(fail: Fail, key: str, error: ArtifactReadError, at: str = "") -> None:
    """Report that ``key`` could not be read (too large, or unreadable)."""
    code = codes.ARTIFACT_TOO_LARGE if isinstance(error, ArtifactTooLargeError) else None
    fail(code or codes.ARTIFACT_UNREADABLE, f"{key}: {error}", at)


def whole_file(item: ArtifactCheck) -> bool:
    """Whether the check compares whole files with another artifact (``bytes``/``text``)."""
    return item.equals_artifact is not None and item.equals_artifact.compare != "json"


def wants_json(item: ArtifactCheck) -> bool:
    """Whether the check reads the artifact as a JSON document."""
    return (
        item.json_pointer is not None
        or "equals" in item.model_fields_set
        or (item.equals_artifact is not None and not whole_file(item))
        or item.is_artifact is not None
    )


@dataclass
class ValueChecks:
    """The value conditions of one check, over each of its targets."""

    item: ArtifactCheck
    ctx: OracleContext
    reader: ArtifactReader
    fail: Fail
    record: Callable[[Resolved], bool]
    """Hashes a target into the trial's artifact hashes; says whether it is a regular file."""
    _other: dict[str, Any] = field(default_factory=dict)

    def check(self, target: Resolved) -> None:
        """Judge the conditions on ``target``, an existing regular file."""
        if wants_json(self.item):
            self._check_json(target)
        if whole_file(self.item):
            self._check_whole(target)

    def _read_failed(self, key: str, error: ArtifactReadError, at: str = "") -> None:
        read_failed(self.fail, key, error, at)

    def _document(self, target: Resolved, what: str, at: str) -> Any:
        try:
            return self.reader.document(target.real)
        except ArtifactReadError as error:
            self._read_failed(f"{what}{target.key}", error, at)
        except ArtifactNotJsonError as error:
            message = f"{what}{target.key} is not valid JSON: {shorten(str(error))}"
            self.fail(codes.ARTIFACT_NOT_JSON, message, at)
        return UNAVAILABLE

    def _value_at(self, target: Resolved, pointer: str, what: str = "", at: str = "") -> Any:
        """The JSON value at ``pointer`` in ``target``, or why not (reported)."""
        document = self._document(target, what, at)
        if document is UNAVAILABLE:
            return UNAVAILABLE
        try:
            return resolve(document, pointer)
        except PointerError as error:
            message = f"{what}{target.key}: pointer {pointer!r} does not resolve ({error})"
            self.fail(codes.ARTIFACT_POINTER, message, at)
            return UNAVAILABLE

    def _check_json(self, target: Resolved) -> None:
        item = self.item
        pointer = item.json_pointer or ""
        if item.is_artifact is False:
            self._check_unresolved(target, pointer)
            return
        found = self._value_at(target, pointer)
        if found is UNAVAILABLE:
            return
        where = f"{target.key} at {pointer!r}"
        if "equals" in item.model_fields_set and not json_equal(found, item.equals):
            message = f"{where}: expected {render(item.equals)}, found {render(found)}"
            self.fail(codes.ARTIFACT_MISMATCH, message, "")
        ref = item.equals_artifact
        if ref is not None and not whole_file(item):
            other = self._reference(ref, "json")
            if other is not UNAVAILABLE and not json_equal(found, other):
                message = (
                    f"{where}: expected {render(other)} (from {ref.path} at"
                    f" {ref.json_pointer!r}), found {render(found)}"
                )
                self.fail(codes.ARTIFACT_MISMATCH, message, "")

    def _check_unresolved(self, target: Resolved, pointer: str) -> None:
        """``is_artifact: false``: the document is JSON and ``pointer`` names nothing in it."""
        document = self._document(target, "", "")
        if document is UNAVAILABLE:
            return
        try:
            value = resolve(document, pointer)
        except PointerError:
            return
        message = f"{target.key}: pointer {pointer!r} resolves (to {render(value)}) but must not"
        self.fail(codes.ARTIFACT_POINTER_PRESENT, message, "")

    def _check_whole(self, target: Resolved) -> None:
        ref = self.item.equals_artifact
        assert ref is not None  # whole_file() holds
        other = self._reference(ref, ref.compare)
        if other is UNAVAILABLE:
            return
        mine = self._whole(target, ref.compare, "", "")
        if mine is UNAVAILABLE or mine == other:
            return
        if ref.compare == "bytes":
            message = f"{target.key} ({mine}) is not byte-identical to {ref.path} ({other})"
        else:
            message = (
                f"{target.key} differs from {ref.path} as text: {_first_difference(mine, other)}"
            )
        self.fail(codes.ARTIFACT_MISMATCH, message, "")

    def _whole(self, target: Resolved, how: str, what: str, at: str) -> Any:
        """The file's sha256 (``bytes``) or its normalised text (``text``)."""
        try:
            if how == "bytes":
                return self.reader.digest(target.real)
            data = self.reader.content(target.real)
        except ArtifactReadError as error:
            self._read_failed(f"{what}{target.key}", error, at)
            return UNAVAILABLE
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            message = f"{what}{target.key} is not UTF-8 text (invalid byte at offset {error.start})"
            self.fail(codes.ARTIFACT_NOT_TEXT, message, at)
            return UNAVAILABLE
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def _reference(self, ref: ArtifactRef, how: str) -> Any:
        """The reference artifact's value (``json``), digest or text; read once per check."""
        if how not in self._other:
            self._other[how] = self._load_reference(ref, how)
        return self._other[how]

    def _load_reference(self, ref: ArtifactRef, how: str) -> Any:
        what = "equals_artifact "
        try:
            other = resolve_artifact(ref.path, self.ctx)
        except UnsafePathError as error:
            self.fail(codes.ARTIFACT_UNSAFE_PATH, f"{what}{error}", _REFERENCE)
            return UNAVAILABLE
        kind = self.reader.entry(other.real).kind
        if not self.record(other):
            detail = "does not exist" if kind == "missing" else "is not a regular file"
            self.fail(codes.ARTIFACT_MISSING, f"{what}{other.key} {detail}", _REFERENCE)
            return UNAVAILABLE
        if how == "json":
            return self._value_at(other, ref.json_pointer, what, _REFERENCE)
        return self._whole(other, how, what, _REFERENCE)


def _first_difference(mine: str, other: str) -> str:
    """Where two texts first differ, by line, in a few words."""
    left, right = mine.splitlines(keepends=True), other.splitlines(keepends=True)
    for number, (a, b) in enumerate(zip(left, right, strict=False), start=1):
        if a != b:
            return f"line {number} is {shorten(repr(a), 80)}, expected {shorten(repr(b), 80)}"
    shorter, longer = ("it", "the reference") if len(left) < len(right) else ("the reference", "it")
    return f"{shorter} ends after line {min(len(left), len(right))}; {longer} goes on"
