"""Budgets: the most work one loaded map, model or set of textures may stand for, checked before allocating.

A size limit per file (:mod:`assets_loader.source`) does not bound memory when a few bytes stand for a lot of work:
surfaces, leafs or model frames pointing at the same data many times, a patch reused thousands of times, a small
PNG declaring 8192×8192 pixels. Each loader computes what it is about to build from counts × sizes and calls
:func:`check_budget` first, which raises :class:`~assets_loader.errors.OverBudgetError` naming the file, the
amount and the budget.

Budgets (:data:`BUDGETS`) are far above real content (largest corpus figure in brackets; the corpus is small maps,
so the margins are wide): ``map_vertices`` 2M and ``map_indices`` 12M (BSP46 after patch tessellation, BSP29/38
after triangulation: 50,688 / 79,230), ``lightmap_texels`` 8M (light samples × styles a BSP29/38 map's faces
read: 380,928), ``leaf_references`` 4M (face and brush numbers the leafs list, ranges counted as often as leafs
name them: 14,914), ``model_vertices`` 4M (MD3 frames × vertices over its surfaces: 415,989), ``image_pixels``
16M (one image, from its header: 524,288) and ``map_texture_pixels`` 64M (every image a Quake III map and its
models load: 16,557,331 for the whole OpenArena pack). ``QDV_MAX_<NAME>`` (``QDV_MAX_MAP_VERTICES=8M``; a count
with an optional K/M/G suffix, binary) raises one for every command.
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import OverBudgetError
from .source import limit_setting

#: Default budgets by name (see the module docstring).
BUDGETS = MappingProxyType({
    "map_vertices": 2 << 20, "map_indices": 12 << 20, "lightmap_texels": 8 << 20, "leaf_references": 4 << 20,
    "model_vertices": 4 << 20, "image_pixels": 16 << 20, "map_texture_pixels": 64 << 20,
})


def variable(name: str) -> str:
    """The environment variable raising budget ``name``: ``QDV_MAX_MAP_VERTICES``."""
    return f"QDV_MAX_{name.upper()}"


def budget(name: str) -> int:
    """Budget ``name``: ``QDV_MAX_<NAME>`` if set, else :data:`BUDGETS`; ``LimitSettingError`` if it is not a
    count."""
    return limit_setting(variable(name), BUDGETS[name])


def check_budget(path: str, fmt: str, name: str, amount: int, what: str) -> None:
    """Raise :class:`OverBudgetError` if ``amount`` (``what``: "tessellated vertices") exceeds budget ``name``."""
    limit = budget(name)
    if amount > limit:
        raise OverBudgetError(path, fmt, None, f"at most {limit} {what} (raise it with {variable(name)})",
                              f"{amount} {what}")
