"""envpool.python's modules import one another in one direction only.

api -> the API classes -> pool -> spec -> registry, with no module importing
one above it, not even inside a function (imports for type annotations only,
under `if TYPE_CHECKING:`, are left out); registry imports no other module of
envpool, the top package included.
"""

from __future__ import annotations

import ast
from pathlib import Path

PYTHON = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """The envpool modules `path` imports, TYPE_CHECKING blocks left out."""
    tree = ast.parse(path.read_text())
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for body in node.body for n in ast.walk(body))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "envpool.python":
                found.update(f"envpool.python.{a.name}" for a in node.names)
            elif node.module.startswith("envpool"):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("envpool"))
    return found


def _graph() -> dict[str, set[str]]:
    return {
        f"envpool.python.{p.stem}": _imports(p)
        for p in sorted(PYTHON.glob("*.py"))
        if p.stem != "__init__"
    }


def test_the_graph_is_read():
    graph = _graph()
    assert "envpool.python.spec" in graph["envpool.python.pool"]
    assert "envpool.python.registry" in graph["envpool.python.spec"]


def test_registry_imports_nothing_of_envpool():
    assert _graph()["envpool.python.registry"] == set()


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target] if target in path else [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if state.get(target) is None and target in graph:
                visit(target, [*path, target])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])
