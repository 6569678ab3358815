"""Building the JSON value of a YAML node graph, with the position of every value.

The walk reads the marks of a ``yaml.compose`` node graph: it builds the
JSON value, records where each value is (RFC 6901 pointer to 1-based line
and column) and records duplicate keys and nodes JSON cannot hold
(non-string keys, other tags, recursive aliases). JSON text is nearly YAML,
so the same walk locates JSON values, best effort, and only when a finding
needs a position (:class:`LazyPositions`). PyYAML is imported by the walk
itself, when it runs: importing this module costs a JSON document nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, cast

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.positions import (
    MAX_DEPTH,
    MAX_VALUES,
    Position,
    TooLarge,
    pointer_to,
)

if TYPE_CHECKING:
    from yaml.nodes import MappingNode, Node, ScalarNode

# The node kinds PyYAML composes, by their ``id`` (no import of the node classes needed).
_SCALAR, _SEQUENCE, _MAPPING = "scalar", "sequence", "mapping"


def _kind(node: Node) -> str:
    return str(getattr(node, "id", ""))


class NodeBuilder:
    """Build a JSON value from a YAML node graph, recording positions and problems."""

    def __init__(self) -> None:
        from agentic_evals.documents.yaml_loader import StrictLoader

        self.positions: dict[str, Position] = {}
        self.duplicates: dict[tuple[str, str], Position] = {}
        self.findings: list[Finding] = []
        self._visits = 0
        self._scalars = StrictLoader("")

    def error(self, code: str, pointer: str, message: str, position: Position | None) -> None:
        """Record an error finding at ``pointer``."""
        line, column = position if position else (None, None)
        self.findings.append(finding(code, pointer, message, line=line, column=column))

    def build(
        self, node: Node, parts: list[str | int], depth: int, ancestors: frozenset[int]
    ) -> object:
        """Return the JSON value of ``node``, found at ``parts``; raise :class:`TooLarge`."""
        from agentic_evals.documents.yaml_loader import MAP_TAG, SEQ_TAG

        self._visits += 1
        if self._visits > MAX_VALUES:
            raise TooLarge
        pointer = pointer_to(parts)
        here = (node.start_mark.line + 1, node.start_mark.column + 1)
        self.positions.setdefault(pointer, here)
        if id(node) in ancestors:
            self.error(codes.SCHEMA_SYNTAX, pointer, "recursive YAML alias", here)
            return None
        if depth > MAX_DEPTH:
            self.error(codes.SCHEMA_VALUE, pointer, f"nesting deeper than {MAX_DEPTH}", here)
            return None
        inner = ancestors | {id(node)}
        kind = _kind(node)
        if kind == _SCALAR:
            return self._scalar(cast("ScalarNode", node), pointer, here)
        if kind == _SEQUENCE and node.tag == SEQ_TAG:
            return [
                self.build(child, [*parts, index], depth + 1, inner)
                for index, child in enumerate(node.value)
            ]
        if kind == _MAPPING and node.tag == MAP_TAG:
            return self._mapping(cast("MappingNode", node), parts, depth, inner)
        self.error(codes.SCHEMA_SYNTAX, pointer, f"unsupported YAML tag {node.tag!r}", here)
        return None

    def _mapping(
        self, node: MappingNode, parts: list[str | int], depth: int, inner: frozenset[int]
    ) -> dict[str, object]:
        from agentic_evals.documents.yaml_loader import STR_TAG

        pointer = pointer_to(parts)
        result: dict[str, object] = {}
        for key_node, value_node in node.value:
            key_at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if _kind(key_node) != _SCALAR or key_node.tag != STR_TAG:
                # A key that is not a string cannot be a JSON member name.
                self.error(codes.SCHEMA_TYPE, pointer, "mapping keys must be strings", key_at)
                continue
            key = str(key_node.value)
            child = [*parts, key]
            if key in result:
                self.duplicates.setdefault((pointer, key), key_at)
            self.positions[pointer_to(child)] = key_at
            result[key] = self.build(value_node, child, depth + 1, inner)
        return result

    def _scalar(self, node: ScalarNode, pointer: str, here: Position) -> object:
        import yaml

        from agentic_evals.documents.yaml_loader import yaml_reason

        try:
            return self._scalars.construct_object(node)
        except (yaml.YAMLError, ValueError) as exc:
            reason = yaml_reason(exc) if isinstance(exc, yaml.YAMLError) else str(exc)
            self.error(codes.SCHEMA_SYNTAX, pointer, f"invalid YAML scalar: {reason}", here)
            return None


def compose_positions(text: str) -> NodeBuilder | None:
    """Locate the values of JSON text by composing it as YAML; ``None`` when it will not."""
    import yaml

    from agentic_evals.documents.yaml_loader import compose

    try:
        node = compose(text)
        if node is None:
            return None
        builder = NodeBuilder()
        builder.build(node, [], 0, frozenset())
    except (yaml.YAMLError, RecursionError, TooLarge):
        return None
    return builder


class LazyPositions(Mapping[str, Position]):
    """Positions of JSON text, located by :func:`compose_positions` when first asked for.

    Composing JSON as YAML to find line and column costs far more than
    parsing it, and positions are only needed when there is something to
    report: a valid fixture never pays for them.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._walk: NodeBuilder | None = None
        self._done = False

    def _builder(self) -> NodeBuilder | None:
        if not self._done:
            self._walk = compose_positions(self._text)
            self._done = True
        return self._walk

    @property
    def duplicates(self) -> Mapping[tuple[str, str], Position]:
        """Where each repeated key (by object pointer and key) was seen again."""
        walk = self._builder()
        return walk.duplicates if walk else {}

    def _positions(self) -> Mapping[str, Position]:
        walk = self._builder()
        return walk.positions if walk else {}

    def __getitem__(self, pointer: str) -> Position:
        return self._positions()[pointer]

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())
