"""What every loaded map answers, whatever its game: :class:`GameMap`, with :class:`Contents` and
:class:`SubmodelBox`.

Quake's and QuakeWorld's BSP29/BSP2 (:class:`~assets_loader.bsp.WorldMesh`), Quake II's IBSP 38
(:class:`~assets_loader.bsp38.World38`) and Quake III's IBSP 46 (:class:`~assets_loader.bsp46.Bsp46World`) implement
it, each with its own engine's rule; callers (cameras, sounds, screen blends) ask the map instead of testing its
type. What a kind of map does not hold has an explicit answer (``None``), never an exception.

References: Quake ``world.c`` (``SV_RecursiveHullCheck``, ``SV_PointContents``), ``gl_model.c`` (``Mod_PointInLeaf``,
``Mod_LeafPVS``), ``gl_rlight.c`` (``R_LightPoint``), ``snd_dma.c`` (``S_UpdateAmbientSounds``); Quake II and
Quake III ``cm_trace.c``/``cmodel.c`` (``CM_BoxTrace``, ``CM_PointContents``, ``CM_PointLeafnum``, ``CM_ClusterPVS``);
Quake III ``tr_light.c`` (``R_LightForPoint``, the light grid).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from .bsp.trace import Trace


class Contents(enum.IntFlag):
    """What fills a point, in one set of bits for every game (Quake's single ``CONTENTS_*`` value, or Quake II's and
    Quake III's ``CONTENTS_*`` bits, translated): ``EMPTY`` (0) is open air. Quake II's windows count as solid."""

    EMPTY = 0
    SOLID = 1
    WATER = 2
    SLIME = 4
    LAVA = 8
    SKY = 16


class SubmodelBox(Protocol):
    """A submodel's number (0 = the world, ``*1..`` doors, lifts, platforms) and box, float ``(x, y, z)`` each."""

    @property
    def index(self) -> int: ...

    @property
    def mins(self) -> tuple[float, float, float]: ...

    @property
    def maxs(self) -> tuple[float, float, float]: ...


class GameMap(Protocol):
    """A loaded map of any game: its entities and submodels, and what a point or a line meets in it."""

    @property
    def name(self) -> str:
        """The file the map was read from."""
        ...

    @property
    def entities(self) -> tuple[dict[str, str], ...]:
        """The entity lump, one key/value dict per entity, ``worldspawn`` normally first."""
        ...

    @property
    def worldspawn(self) -> dict[str, str]:
        """The ``worldspawn`` entity (``{}`` when the lump has none)."""
        ...

    @property
    def submodels(self) -> Sequence[SubmodelBox]:
        """Every ``dmodel_t``: the world (0) first, then the brush models entities name ``*1``, ``*2``..."""
        ...

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The world's ``(mins, maxs)``, float32 ``[3]`` each (submodel 0's box)."""
        ...

    @property
    def num_clusters(self) -> int:
        """How many visibility clusters the PVS has (Quake: the world's visible leafs, one cluster each)."""
        ...

    def world_triangles(self) -> np.ndarray:
        """The world model's (submodel 0's) drawn triangles as corner positions, float32 ``[T, 3, 3]``: the map's
        shape (a minimap draws its floors from above)."""
        ...

    def trace(self, start, end) -> Trace:
        """Where a point-sized line from ``start`` to ``end`` stops at what a camera or a line of sight cannot pass:
        solid, and Quake's sky (``SV_RecursiveHullCheck`` on the drawing tree; ``CM_BoxTrace`` with a zero box and
        Quake II's ``MASK_SOLID`` / Quake III's ``CONTENTS_SOLID``). ``hit_contents`` is in the map's own codes."""
        ...

    def contents(self, point) -> Contents:
        """What fills ``point`` (``SV_PointContents``, ``CM_PointContents``)."""
        ...

    def point_leaf(self, point) -> int:
        """The leaf of the world's tree holding ``point`` (``Mod_PointInLeaf``, ``CM_PointLeafnum``)."""
        ...

    def point_cluster(self, point) -> int:
        """The visibility cluster of ``point``'s leaf, -1 outside the map (in solid, or in no cluster)."""
        ...

    def cluster_pvs(self, cluster: int) -> np.ndarray:
        """Clusters potentially visible from ``cluster``: bool ``[num_clusters]``, all of them for -1 or a map
        without vis data (``Mod_LeafPVS``, ``CM_ClusterPVS``)."""
        ...

    def light_at(self, point, style_values: np.ndarray | None = None) -> np.ndarray | None:
        """The light a model at ``point`` gets, float RGB ``[3]`` on a 0..255 scale (may exceed 255), or ``None``
        when the map holds none there: Quake's and Quake II's lightmap under the point (``R_LightPoint``; each
        style's sample times ``style_values[style]``, 1.0 for every style when not given), Quake III's light grid
        (``R_LightForPoint``: ambient plus directed, light styles play no part)."""
        ...

    def ambient_levels(self, point) -> np.ndarray | None:
        """The ambient sound levels (water, sky, slime, lava; uint8 ``[4]``) of ``point``'s leaf, which ``vis``
        stores in Quake's leafs only (``None`` for the others; ``S_UpdateAmbientSounds``)."""
        ...
