"""The package's shape: its layers point one way, no module imports itself back (imports
inside functions included), no action or rule is found by name with ``getattr`` or
``hasattr``, and no module or ``Game`` class outgrows its size."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

import pytest

from tracklayer.sources import imported_modules

PACKAGE = Path(__file__).resolve().parent.parent / "tracklayer"

# Lower layers first; a module may import from its own layer and the layers below.
LAYERS = [
    {"errors", "rng", "board", "history", "packed", "sources", "collector"},
    {"spec"},
    {"state"},
    {"rules"},
    {"actions", "trace", "finder"},
    {"turns"},
    {"game", "snapshot", "title"},
    {"titles"},
    {"io", "randomplay", "guide", "play"},
    {"web"},
    {"cli", "__main__"},
]


def _modules() -> Dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(module: str) -> Set[str]:
    """The package's modules that ``module`` imports, anywhere in it."""
    return imported_modules(module, MODULES)


GRAPH = {m: _imports(m) for m in MODULES}


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")


def _cycles() -> List[List[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read():
    assert "tracklayer.rules.table" in GRAPH["tracklayer.rules.network"]
    assert len(MODULES) > 50


def test_no_import_cycle():
    assert _cycles() == []


def test_the_cycle_check_finds_a_cycle():
    GRAPH["tracklayer.rules.table"].add("tracklayer.rules.network")
    try:
        assert _cycles()
    finally:
        GRAPH["tracklayer.rules.table"].discard("tracklayer.rules.network")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_layers_point_one_way(module):
    upward = [m for m in GRAPH[module] if _layer(m) > _layer(module)]
    assert upward == [], f"{module} imports from a layer above it"


def test_no_lookup_by_name():
    """Actions, steps and settings are reached as typed attributes, never by a name
    built at run time."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("getattr", "hasattr", "setattr"):
                found.append(f"{module}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module):
    assert len(MODULES[module].read_text(encoding="utf-8").splitlines()) <= 600


def test_game_class_stays_small():
    tree = ast.parse(MODULES["tracklayer.game"].read_text(encoding="utf-8"))
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    assert game.end_lineno - game.lineno + 1 <= 300


TITLE_RULES = sorted(m for m in MODULES
                     if m.startswith("tracklayer.titles.") and m.rsplit(".", 1)[-1] == "rules")


def test_every_title_has_its_rules_modules():
    assert {"tracklayer.titles.cologne.rules", "tracklayer.titles.family1849.rules",
            "tracklayer.titles.two_sicilies.rules"} <= set(TITLE_RULES)


@pytest.mark.parametrize("module", TITLE_RULES)
def test_title_rules_stay_short(module):
    """A title's rules module holds only where it differs: at most 500 lines."""
    assert len(MODULES[module].read_text(encoding="utf-8").splitlines()) <= 500
