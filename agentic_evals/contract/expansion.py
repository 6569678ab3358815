"""Expansion of a fixture document: ``defaults``, parametrized cases and their placeholders.

A fixture is checked and run as its *expanded* document, worked out first:

1. ``defaults`` (the fields of :class:`~agentic_evals.contract.models.CaseDefaults`)
   are merged into every case; a case's own value wins, and ``env`` merges
   by variable. Keys of ``defaults`` that are no such field are not merged
   (the unknown-key check reports them).
2. A case with ``parametrize: {VAR: [values...], ...}`` becomes one case per
   combination of the values (the cross product, variables in the order
   written), named ``name[value]`` (``name[v1,v2]`` for several variables),
   with ``${VAR}`` replaced in its command words, ``cwd``, ``env`` values,
   ``workspace.input`` and artifact paths (``path``, ``glob``,
   ``equals_artifact.path``). An expanded case has no ``parametrize``: its
   hashes are those of its own content.
3. In those same places every ``${...}`` left must be a built-in
   (:mod:`~agentic_evals.contract.placeholders`): an unknown one is an error,
   ``${WORKSPACE}`` needs a workspace, and a built-in only starts a path.

Every pointer of the expanded document maps back to the value it came from
in the document as written (:class:`~agentic_evals.documents.expansion.Expanded`),
so a finding about an expanded case is located at its source line. A
``parametrize`` the models reject is left unexpanded, for the schema to report.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any, Final, Literal

from pydantic import TypeAdapter, ValidationError

from agentic_evals import codes
from agentic_evals.contract.models import CaseDefaults, Parametrize
from agentic_evals.contract.placeholders import (
    BUILTINS,
    WORKSPACE,
    names,
    path_root,
    substitute,
    tokens,
)
from agentic_evals.documents.expansion import Expanded, Variant, escape
from agentic_evals.documents.findings import Finding, finding

MAX_EXPANDED_CASES: Final = 1000
"""Cases one parametrized case may expand into; more is a mistake, not a fixture."""

Parts = list[str | int]
Json = Any
Place = Literal["word", "path", "input"]
"""Where a placeholder stands: a command word or env value, a path, or ``workspace.input``."""


@functools.cache
def _parametrize_adapter() -> TypeAdapter[dict[str, list[str]]]:
    return TypeAdapter(Parametrize)


def _default_fields() -> frozenset[str]:
    return frozenset(CaseDefaults.model_fields)


def expand_fixture(document: object) -> Expanded:
    """The expanded form of a fixture ``document`` (see the module docstring); never raises."""
    if not isinstance(document, dict) or not isinstance(document.get("cases"), list):
        return Expanded(document)
    raw_defaults = document.get("defaults")
    defaults = raw_defaults if isinstance(raw_defaults, dict) else {}
    expander = _Expander(defaults, isinstance(document.get("workspace"), dict))
    cases: list[Json] = []
    for index, case in enumerate(document["cases"]):
        for produced in expander.expand(case, index, len(cases)):
            cases.append(produced)
    expander.check_fixture_workspace(document.get("workspace"))
    expanded = {**document, "cases": cases}
    return Expanded(
        expanded, expander.origins, expander.variants, expander.findings, expander.written
    )


class _Expander:
    """Expands the cases of one document, recording origins, variants and findings."""

    def __init__(self, defaults: dict[str, Json], fixture_workspace: bool) -> None:
        self.defaults = {k: v for k, v in defaults.items() if k in _default_fields()}
        self.fixture_workspace = fixture_workspace
        self.origins: dict[str, str] = {}
        self.variants: dict[str, Variant] = {}
        self.findings: list[Finding] = []
        self.written: list[Finding] = []

    def expand(self, case: Json, index: int, at: int) -> Iterator[Json]:
        """The cases the source case ``index`` expands into, the first at position ``at``."""
        source = f"/cases/{index}"
        if not isinstance(case, dict):
            self.origins[f"/cases/{at}"] = source
            yield case
            return
        merged, from_defaults = self._merge(case)
        combos, keys = self._combinations(merged, source)
        left = merged.get("parametrize")
        # An unexpanded parametrize's variables are reported there, not as unknown placeholders.
        known = set(keys) | (set(left) if isinstance(left, dict) else set())
        for offset, combo in enumerate(combos):
            pointer = f"/cases/{at + offset}"
            self._record_origins(pointer, source, case, from_defaults)
            produced = merged
            if keys:
                produced = _with_values(merged, dict(zip(keys, combo, strict=True)))
                self.variants[pointer] = Variant(
                    source, _label(merged.get("name"), combo), len(combos)
                )
            self._check(produced, [*pointer.split("/")[1:]], known)
            yield produced

    def _record_origins(
        self, pointer: str, source: str, case: dict[str, Json], from_defaults: list[str]
    ) -> None:
        """Map the expanded case at ``pointer`` back to its case and to ``defaults``."""
        self.origins[pointer] = source
        for key in from_defaults:
            self.origins[f"{pointer}/{escape(key)}"] = f"/defaults/{escape(key)}"
        default_env, own_env = self.defaults.get("env"), case.get("env")
        if isinstance(default_env, dict) and isinstance(own_env, dict):
            for name in default_env.keys() - own_env.keys():
                self.origins[f"{pointer}/env/{escape(name)}"] = f"/defaults/env/{escape(name)}"

    def _merge(self, case: dict[str, Json]) -> tuple[dict[str, Json], list[str]]:
        merged = dict(case)
        taken: list[str] = []
        for key, value in self.defaults.items():
            if key == "env" and isinstance(value, dict) and isinstance(case.get("env"), dict):
                merged["env"] = {**value, **case["env"]}
            elif key not in case:
                merged[key] = value
                taken.append(key)
        return merged, taken

    def _combinations(
        self, case: dict[str, Json], source: str
    ) -> tuple[list[tuple[str, ...]], list[str]]:
        """The value combinations of a valid ``parametrize`` (one empty one otherwise)."""
        raw = case.get("parametrize")
        if raw is None:
            return [()], []
        try:
            parameters = _parametrize_adapter().validate_python(raw, strict=True)
        except ValidationError:
            return [()], []  # the schema reports it, on the case as written
        shadowing = [name for name in parameters if name in BUILTINS]
        for name in shadowing:
            message = f"parametrize variable {name!r} would hide the built-in ${{{name}}}"
            pointer = f"{source}/parametrize/{escape(name)}"
            self.written.append(finding(codes.SCHEMA_VALUE, pointer, message))
        count = 1
        for values in parameters.values():
            count *= len(values)
        if count > MAX_EXPANDED_CASES:
            message = (
                f"parametrize expands into {count} cases, more than {MAX_EXPANDED_CASES}: "
                "split the case"
            )
            self.written.append(finding(codes.SCHEMA_VALUE, f"{source}/parametrize", message))
        if shadowing or count > MAX_EXPANDED_CASES:
            return [()], []
        del case["parametrize"]
        self._unused(case, parameters, source)
        return list(itertools.product(*parameters.values())), list(parameters)

    def _unused(self, case: dict[str, Json], parameters: dict[str, list[str]], source: str) -> None:
        used = {name for _, text in _expanded_strings(case) for name in names(text)}
        for variable in parameters:
            if variable not in used:
                message = (
                    f"parametrize variable {variable!r} is used in none of the command, cwd, "
                    "env, workspace.input or artifact paths: its cases differ only by name"
                )
                pointer = f"{source}/parametrize/{escape(variable)}"
                self.written.append(finding(codes.SCHEMA_VALUE, pointer, message, "warning"))

    def _check(self, case: dict[str, Json], parts: Parts, parameters: set[str]) -> None:
        """Every placeholder left in ``case``'s expanded places must be a usable built-in."""
        isolated = self.fixture_workspace or isinstance(case.get("workspace"), dict)
        for where, text in _expanded_strings(case):
            place: Place = "word" if where[0] in ("command", "env") else "path"
            if where[0] == "workspace":
                place = "input"
            self.findings += _placeholder_findings(
                text, [*parts, *where], place, workspace=isolated, known=parameters
            )

    def check_fixture_workspace(self, workspace: object) -> None:
        """The fixture-level ``workspace.input`` takes path built-ins, never ``${WORKSPACE}``."""
        if isinstance(workspace, dict) and isinstance(workspace.get("input"), str):
            self.findings += _placeholder_findings(
                workspace["input"], ["workspace", "input"], "input", workspace=False, known=set()
            )


def _label(name: object, combo: tuple[str, ...]) -> str:
    return f"{name if isinstance(name, str) else ''}[{','.join(combo)}]"


def _with_values(case: dict[str, Json], values: dict[str, str]) -> dict[str, Json]:
    """A copy of ``case`` with the variables replaced in its expanded places, and its new name."""
    produced = dict(case)
    if isinstance(case.get("name"), str):
        produced["name"] = _label(case["name"], tuple(values.values()))
    command = case.get("command")
    if isinstance(command, list):
        produced["command"] = [_sub(word, values) for word in command]
    if isinstance(case.get("cwd"), str):
        produced["cwd"] = substitute(case["cwd"], values)
    if isinstance(case.get("env"), dict):
        produced["env"] = {key: _sub(value, values) for key, value in case["env"].items()}
    workspace = case.get("workspace")
    if isinstance(workspace, dict) and isinstance(workspace.get("input"), str):
        produced["workspace"] = {**workspace, "input": substitute(workspace["input"], values)}
    expected = case.get("expected")
    if isinstance(expected, dict) and isinstance(expected.get("artifacts"), list):
        artifacts = [_artifact_with(item, values) for item in expected["artifacts"]]
        produced["expected"] = {**expected, "artifacts": artifacts}
    return produced


def _sub(value: Json, values: dict[str, str]) -> Json:
    return substitute(value, values) if isinstance(value, str) else value


def _artifact_with(item: Json, values: dict[str, str]) -> Json:
    if not isinstance(item, dict):
        return item
    produced = {
        key: _sub(item[key], values) if key in ("path", "glob") else item[key] for key in item
    }
    reference = item.get("equals_artifact")
    if isinstance(reference, dict) and "path" in reference:
        produced["equals_artifact"] = {**reference, "path": _sub(reference["path"], values)}
    return produced


def _expanded_strings(case: dict[str, Json]) -> Iterator[tuple[Parts, str]]:
    """Every string of ``case`` where placeholders expand, with its parts inside the case."""
    command = case.get("command")
    for index, word in enumerate(command if isinstance(command, list) else []):
        if isinstance(word, str):
            yield ["command", index], word
    if isinstance(case.get("cwd"), str):
        yield ["cwd"], case["cwd"]
    env = case.get("env")
    for key, value in (env if isinstance(env, dict) else {}).items():
        if isinstance(value, str):
            yield ["env", key], value
    workspace = case.get("workspace")
    if isinstance(workspace, dict) and isinstance(workspace.get("input"), str):
        yield ["workspace", "input"], workspace["input"]
    expected = case.get("expected")
    artifacts = expected.get("artifacts") if isinstance(expected, dict) else None
    for index, item in enumerate(artifacts if isinstance(artifacts, list) else []):
        if not isinstance(item, dict):
            continue
        at: Parts = ["expected", "artifacts", index]
        for key in ("path", "glob"):
            if isinstance(item.get(key), str):
                yield [*at, key], item[key]
        reference = item.get("equals_artifact")
        if isinstance(reference, dict) and isinstance(reference.get("path"), str):
            yield [*at, "equals_artifact", "path"], reference["path"]


def _placeholder_findings(
    text: str, parts: Parts, place: Place, *, workspace: bool, known: set[str]
) -> list[Finding]:
    """What is wrong with the placeholders of ``text``, found at ``parts`` (a ``place``)."""
    found: list[str] = []
    for token in tokens(text):
        if token.name is None or token.name in known:
            continue  # an escape, or a variable of a parametrize the models rejected
        elif token.name not in BUILTINS:
            found.append(
                f"unknown placeholder ${{{token.name}}}: the built-ins are "
                + ", ".join("${" + name + "}" for name in BUILTINS)
                + ", and a parametrized case adds its own variables; a shell's own "
                + f"expansion is written $${{{token.name}}}"
            )
        elif token.name == WORKSPACE and place == "input":
            found.append("${WORKSPACE} cannot name the workspace's own input")
        elif token.name == WORKSPACE and not workspace:
            found.append(
                "${WORKSPACE} names the trial's workspace copy, and this case has no workspace"
            )
        elif place != "word" and (token.start != 0 or path_root(text)[0] is None):
            found.append(
                f"${{{token.name}}} must start the path (${{{token.name}}}/...), "
                "not appear inside it"
            )
    return [finding(codes.SCHEMA_VALUE, parts, f"{text!r}: {message}") for message in found]
