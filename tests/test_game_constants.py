"""Each game constant is defined once: the engine's ``ET_*``, ``WP_*``, ``PW_*``, ``EF_*``, ``RF_*``, ``IT_*`` numbers
of one game (Quake and QuakeWorld, Quake II, Quake III) are assigned in one module of the loaders or the viewer and
imported everywhere else (Quake III's next to its protocol, in ``assets_loader/demos/quake3/game.py``)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict

from .conftest import REPO

#: An engine constant, also as a module's private copy (``_WP_RAILGUN``).
ENGINE_NAME = re.compile(r"^_?(ET|WP|PW|EF|RF|IT)_[A-Z0-9_]+$")


def _game(path: str) -> str:
    return next((g for g in ("quake3", "quake2") if g in path), "quake")


def _assigned(tree: ast.Module) -> list[str]:
    names = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name) and ENGINE_NAME.match(leaf.id):
                    names.append(leaf.id.lstrip("_"))
    return names


def test_engine_numbers_are_defined_once_per_game() -> None:
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    for package in ("assets_loader", "viewer"):
        for path in sorted((REPO / package).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            for name in _assigned(ast.parse(path.read_text(encoding="utf-8"))):
                where[(_game(rel), name)].append(rel)
    twice = {key: paths for key, paths in where.items() if len(paths) > 1}
    assert not twice, twice
    assert all(paths == ["assets_loader/demos/quake3/game.py"]
               for (game, name), paths in where.items() if name[:3] in ("ET_", "WP_", "PW_"))
