"""The package's own source as data: which of its modules a module imports (at the top or
inside functions), read from the syntax tree without running anything. The structure test
checks the layers and cycles with it; the web app's rules fingerprint follows it to the
engine code a title runs on."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Mapping, Optional, Set


def imported_modules(name: str, modules: Mapping[str, Path],
                     tree: Optional[ast.Module] = None) -> Set[str]:
    """The modules of ``modules`` (dotted name → file) that module ``name`` imports. A
    relative import counts from the module's package; ``from p import x`` counts ``p.x``
    where that is a module, else ``p``."""
    path = modules[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    if tree is None:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    found: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            found.update(_imported_from(node, package, modules))
    found.discard(name)
    return found


def _imported_from(node: ast.ImportFrom, package: str, modules: Mapping[str, Path]) -> Set[str]:
    if node.level:
        parts = package.split(".")
        base = parts[:len(parts) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    found: Set[str] = set()
    for a in node.names:
        if f"{target}.{a.name}" in modules:
            found.add(f"{target}.{a.name}")
        elif target in modules:
            found.add(target)
    return found
