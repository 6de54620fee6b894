"""Which rules accepted a stored game's actions: the package's version and a fingerprint of
the title's rules.

The fingerprint is a SHA-256 over what decides whether an entry is accepted and what it
does, for one title:

* the engine code the title's rules run on: every module of the package reached by import
  from the coordinator (``game``), the action reader (``actions``) and the title's own
  modules (its rules and data modules and whatever they import: a family of titles, the
  shared rules, turns, state, spec, board) — each as its syntax tree written out again
  without comments, docstrings or layout, so that a reworded comment or a reformatted line
  does not count as a rule change, while any change to code does;
* the data files those modules read (``board/data/tiles.json``);
* the title's declaration: its settings, optional rules and its data for every player
  count it plays with, written canonically (dataclasses by field, enums by name, sets
  sorted), so that a change to the published game's numbers counts even where the data
  comes from a file or a shared table.

Modules outside the engine (the web app, bots, guides, exports) and the other titles are
not in it: changing them changes no title's fingerprint, and changing one title's package
changes that title's alone. The fingerprint is stable across processes, machines and hash
seeds; a new Python whose ``ast.unparse`` writes a construct differently may change it,
which costs one replay check per game and nothing else (a game is judged by its replay,
never by its fingerprint alone: see ``archive``)."""

from __future__ import annotations

import ast
import dataclasses
import enum
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from types import FunctionType
from typing import Dict, FrozenSet, Iterable, Optional, Set

from ..sources import imported_modules
from ..title import Title

PACKAGE = Path(__file__).resolve().parent.parent          # tracklayer/
ROOTS = ("tracklayer.game", "tracklayer.actions")
# packages whose __init__ is a registry or an app, not rules a game runs on
OUTSIDE = ("tracklayer", "tracklayer.titles", "tracklayer.web", "tracklayer.play",
           "tracklayer.guide", "tracklayer.io", "tracklayer.cli", "tracklayer.randomplay")
SCHEME = "tracklayer rules fingerprint 1"


@dataclass(frozen=True)
class RulesVersion:
    """The rules a game's log was accepted by: the package version and the title's
    fingerprint (hex)."""
    version: str
    fingerprint: str

    @property
    def short(self) -> str:
        return f"{self.version} ({self.fingerprint[:12]})"


def package_version() -> str:
    try:
        return metadata.version("tracklayer")
    except metadata.PackageNotFoundError:
        return "unknown"


def current(title: Title) -> RulesVersion:
    """The rules this process plays ``title`` by."""
    return RulesVersion(package_version(), fingerprint(title))


def stored(version: Optional[str], fingerprint_: Optional[str]) -> Optional[RulesVersion]:
    """A game row's record (None for a game stored before rules were recorded)."""
    return RulesVersion(version, fingerprint_) if version and fingerprint_ else None


@lru_cache(maxsize=None)
def fingerprint(title: Title) -> str:
    """The title's fingerprint (see the module docstring); worked out once per process."""
    rules_module = type(title.rules()).__module__
    modules = _closure(ROOTS + (rules_module, title.data.__module__))
    digest = hashlib.sha256(SCHEME.encode())
    for name in sorted(modules):
        digest.update(f"\0module {name}\0{_code_digest(name)}".encode())
    for path in sorted(_data_files(modules)):
        digest.update(f"\0file {path.relative_to(PACKAGE).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).hexdigest().encode())
    digest.update(b"\0declaration\0")
    digest.update(_declaration(title).encode())
    return digest.hexdigest()


def _declaration(title: Title) -> str:
    low, high = title.player_range
    plain = {"name": title.name, "players": [low, high],
             "settings": canonical(title.settings),
             "optional_rules": canonical(title.optional_rules),
             "data": {str(n): canonical(title.data(n, ())) for n in range(low, high + 1)}}
    return json.dumps(plain, sort_keys=True, separators=(",", ":"))


def canonical(value):
    """A value as plain JSON data, the same in every process: dataclasses by field, enums
    by class and name, mappings by key, sets sorted; functions and classes by name (their
    code counts among the modules)."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: canonical(vars(value)[f.name])
                   for f in dataclasses.fields(value) if not f.name.startswith("_")}}
    if isinstance(value, dict):
        return {json.dumps(canonical(k), sort_keys=True): canonical(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (FunctionType, type)):
        return f"{value.__module__}.{value.__qualname__}"
    try:
        held = vars(value)
    except TypeError:                   # no attributes of its own
        return type(value).__name__
    return {"@": type(value).__name__,
            **{k: canonical(v) for k, v in sorted(held.items()) if not k.startswith("_")}}


# -- the engine's modules ----------------------------------------------------------------

@lru_cache(maxsize=1)
def _modules() -> Dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _closure(roots: Iterable[str]) -> FrozenSet[str]:
    """The modules ``roots`` reach by import (imports inside functions included), with the
    packages they lie in (whose ``__init__`` runs first), registries and apps left out."""
    modules = _modules()
    seen: Set[str] = set()
    todo = [r for r in roots if r in modules]
    while todo:
        name = todo.pop()
        if name in seen or name in OUTSIDE:
            continue
        seen.add(name)
        todo.extend(_imports(name))
        parent = name.rpartition(".")[0]
        if parent in modules:
            todo.append(parent)
    return frozenset(seen)


@lru_cache(maxsize=None)
def _imports(name: str) -> FrozenSet[str]:
    return frozenset(imported_modules(name, _modules(), _tree(name)))


@lru_cache(maxsize=None)
def _tree(name: str) -> ast.Module:
    return ast.parse(_modules()[name].read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _code_digest(name: str) -> str:
    """The module's code without comments, docstrings or layout, hashed (its docstrings
    are taken out of the parsed tree, which serves nothing else but finding imports)."""
    tree = _tree(name)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.unparse(tree).encode()).hexdigest()


def warm() -> None:
    """Work out every title's fingerprint now (the app does at start, so that no request
    waits for it)."""
    from ..titles import TITLES
    for title in TITLES.values():
        fingerprint(title)


def _data_files(modules: Iterable[str]) -> Set[Path]:
    """The files in a ``data/`` folder beside the modules' packages."""
    found: Set[Path] = set()
    for name in modules:
        folder = _modules()[name].parent / "data"
        if folder.is_dir():
            found.update(p for p in folder.iterdir() if p.is_file())
    return found
