"""The strict YAML loader: YAML 1.2 core schema, JSON types only.

:class:`StrictLoader` follows YAML 1.2: only ``true``/``false`` are booleans
(``yes``, ``no``, ``on`` stay strings), dates stay strings, and tags beyond
the JSON types are refused. Both parsers compose text with it: YAML to build
the value, JSON to locate its values.
"""

from __future__ import annotations

import re

import yaml
from yaml.nodes import Node, ScalarNode

STR_TAG = "tag:yaml.org,2002:str"
SEQ_TAG = "tag:yaml.org,2002:seq"
MAP_TAG = "tag:yaml.org,2002:map"


class StrictLoader(yaml.SafeLoader):
    """A YAML 1.2 core-schema loader: JSON types only, dates stay strings."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


# Implicit resolvers of the YAML 1.2 core schema; anything else is a string.
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"),
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+.0123456789"),
)


def compose(text: str) -> Node | None:
    """Compose one YAML document with :class:`StrictLoader`; ``None`` when it is empty."""
    loader = StrictLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def yaml_reason(exc: yaml.YAMLError) -> str:
    """Say what is wrong, without the position (findings carry it apart)."""
    if isinstance(exc, yaml.MarkedYAMLError):
        return " ".join(part for part in (exc.context, exc.problem) if part) or str(exc)
    if isinstance(exc, yaml.reader.ReaderError):
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return f"unacceptable character U+{code:04X}"
    return str(exc)


def _construct_int(loader: yaml.SafeLoader, node: ScalarNode) -> int:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    for prefix, base in (("0o", 8), ("0x", 16), ("0b", 2)):
        if digits.startswith(prefix):
            return sign * int(digits[2:], base)
    return sign * int(digits, 10)


def _construct_float(loader: yaml.SafeLoader, node: ScalarNode) -> float:
    text = str(loader.construct_scalar(node)).replace("_", "").lower()
    if text.lstrip("+-") in (".inf", ".nan"):
        return float(text.replace(".", ""))
    return float(text)


StrictLoader.yaml_constructors = {
    tag: constructor
    for tag, constructor in yaml.SafeLoader.yaml_constructors.items()
    if tag in ("tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", STR_TAG, None)
}
StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
