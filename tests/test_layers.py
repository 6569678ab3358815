"""The package's layers: imports flow one way, function-level imports included.

Every import statement counts, wherever it stands (module level, inside a
function, under ``TYPE_CHECKING``): a lazy import is still a dependency. The
one exception is the result model (the package ``reports/model/``), which
every layer may import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "agentic_evals"

LAYERS = (
    "agentic_evals",
    "codes",
    "rule_texts",
    "exitcodes",
    "clock",
    "redact",
    "limits",
    "signals",
    "documents",
    "contract",
    "commands",
    "oracles",
    "runner",
    "evidence",
    "judge",
    "evaluation",
    "reports",
    "regressions",
    "coverage",
    "skills",
    "configuration",
    "history",
    "interchange",
    "compare",
    "cli",
    "__main__",
)
"""Each entry may import only the entries before it (and itself)."""

RESULT_MODEL = frozenset({"agentic_evals.reports.model"})


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[tuple[str, int]]:
    """Every ``agentic_evals`` module ``path`` imports, with the line of the import."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from pkg import mod`` imports the module pkg.mod when there is one.
            targets = [
                f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target == "agentic_evals" or target.startswith("agentic_evals."):
                yield target, node.lineno


def _is_module(dotted: str) -> bool:
    relative = Path(*dotted.split(".")[1:]) if "." in dotted else Path()
    base = PACKAGE / relative
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def unit(dotted: str) -> str:
    """The layer a module belongs to: its top-level package or root module."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def edges() -> list[tuple[str, str, str]]:
    """(importing module, imported module, where) for every import in the package."""
    found: list[tuple[str, str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = module_name(path)
        for target, line in imported(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            found.append((source, target, where))
    return found


def test_every_package_is_in_a_layer() -> None:
    units = {unit(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert units <= set(LAYERS), sorted(units - set(LAYERS))


def test_each_layer_imports_only_the_layers_below_it() -> None:
    rank = {name: index for index, name in enumerate(LAYERS)}
    upward = [
        f"{where}: {unit(source)} imports {target}"
        for source, target, where in edges()
        if target not in RESULT_MODEL and rank[unit(target)] > rank[unit(source)]
    ]
    assert not upward, "\n".join(upward)


def test_no_two_packages_depend_on_each_other() -> None:
    pairs = {
        (unit(source), unit(target))
        for source, target, _ in edges()
        if target not in RESULT_MODEL and unit(source) != unit(target)
    }
    mutual = sorted((a, b) for a, b in pairs if (b, a) in pairs and a < b)
    assert not mutual, mutual


def test_no_import_cycle_between_modules() -> None:
    graph: dict[str, set[str]] = {}
    for source, target, _ in edges():
        if source != target:
            graph.setdefault(source, set()).add(target)
    cycles = [component for component in _components(graph) if len(component) > 1]
    assert not cycles, cycles


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_checks_see_function_level_imports(tmp_path: Path) -> None:
    module = tmp_path / "agentic_evals" / "probe.py"
    module.parent.mkdir()
    module.write_text("def f():\n    from agentic_evals.cli import app\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "agentic_evals"
    try:
        (PACKAGE / "cli").mkdir()
        (PACKAGE / "cli" / "__init__.py").write_text("")
        (PACKAGE / "cli" / "app.py").write_text("")
        assert list(imported(module)) == [("agentic_evals.cli.app", 2)]
    finally:
        PACKAGE = saved
