"""The package's shape: files a reader can take in, no import circles, and layers that only
import downwards (tools above reports above drivers above passes above the core, over a base).

Every ``import`` counts, at module level or inside a function: a lazy import that closes a
circle or reaches up a layer is the same dependence, only hidden."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cfmem"
MAX_LINES = 700
LAYERS = {
    "tools": ("cfmem.tools", "cfmem.testing", "cfmem.universe", "cfmem.__main__"),
    "reports": ("cfmem.reports", "cfmem.differential", "cfmem.fit_sweep"),
    "drivers": ("cfmem.fit", "cfmem.fit_tiled", "cfmem.pipeline", "cfmem.importers"),
    "passes": ("cfmem.passes", "cfmem.builder"),
    "core": ("cfmem.dialects", "cfmem.planning", "cfmem.dma", "cfmem.interp", "cfmem.mlir_check", "cfmem.ir_io",
             "cfmem.tflite"),
    "base": ("cfmem.errors", "cfmem.files", "cfmem.float_literals", "cfmem.gc_pause", "cfmem.signature",
             "cfmem.weight_file", "cfmem"),
}  # fmt: skip
"""Layers from the top down; a module may import its own layer's modules and those below."""
RANK = {prefix: rank for rank, prefixes in enumerate(LAYERS.values()) for prefix in prefixes}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The cfmem modules ``name`` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in known and "." in target:
                target = target.rpartition(".")[0]
            if target in known and target != name and target.startswith("cfmem"):
                found.add(target)
    return found


def layer(name: str) -> int:
    prefix = max((p for p in RANK if name == p or name.startswith(p + ".")), key=len)
    return RANK[prefix]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


KNOWN = modules()
GRAPH = {name: imports(name, path, KNOWN) for name, path in KNOWN.items()}


def test_every_module_is_in_a_layer():
    assert all(layer(name) >= 0 for name in KNOWN)
    assert len(KNOWN) > 100


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_a_module_is_short(name):
    lines = len(KNOWN[name].read_text().splitlines())
    assert lines <= MAX_LINES, f"{KNOWN[name].relative_to(PACKAGE.parent)}: {lines} lines"


def test_no_import_circle():
    assert circles(GRAPH) == []


def test_no_import_reaches_up_a_layer():
    upward = sorted(f"{v} -> {w}" for v, ws in GRAPH.items() for w in ws if layer(w) < layer(v))
    assert upward == []


def test_the_checks_see_a_circle_and_an_upward_import():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer("cfmem.interp.flat") > layer("cfmem.passes.aliases") > layer("cfmem.tools.cli")
    assert "cfmem.errors" in GRAPH["cfmem.tools.cli"]
