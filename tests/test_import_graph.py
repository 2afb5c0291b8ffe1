"""No import cycle of any kind in the package (issue 26, item 6): the graph of every import,
at the top of a module, inside a function or under ``TYPE_CHECKING``, has no strongly
connected component of more than one module. import-linter's contracts (pyproject.toml, run
by scripts/test) keep the direction between packages; this keeps each package acyclic inside.
"""

from __future__ import annotations

import ast
from pathlib import Path

import basra

SOURCE = Path(basra.__file__).parent


def modules() -> dict[str, Path]:
    found = {}
    for path in SOURCE.rglob("*.py"):
        parts = ["basra", *path.relative_to(SOURCE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of basra that ``name`` imports, however and wherever it does."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def nearest(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        for target in targets:
            found = nearest(target)
            if found is not None and found != name:
                out.add(found)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycle() -> None:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []


def test_a_cycle_is_found() -> None:
    """The check itself: a made-up graph with a cycle through three modules is caught."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_every_kind_of_import_counts(tmp_path: Path) -> None:
    """Function-level, ``TYPE_CHECKING`` and relative imports are edges too."""
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from basra.server.lobby.tables import Lobby\n"
        "def later():\n    import basra.game.engine\n"
        "from .seats import Seat\n", encoding="utf-8")
    known = {"basra.server.lobby.tables": source, "basra.game.engine": source,
             "basra.server.table.seats": source, "basra.server.table.mod": source}
    assert imports("basra.server.table.mod", source, known) == {
        "basra.server.lobby.tables", "basra.game.engine", "basra.server.table.seats"}
