"""The loaded Quake III map as a renderer sees it: :class:`Bsp46World` and its records.

Everything is numpy arrays and frozen records; no file access. ``vertices``/``indices`` are ready to upload:
patches are already tessellated, vertex colours overbright-shifted and lightmap coordinates point into the
atlas. ``indices`` are sorted into ``batches`` (one per model, shader, lightmap mode and fog), so each batch is
one draw call; ``surfaces`` keeps each surface's own range inside its batch for visibility culling. The map is a
:class:`~assets_loader.game_map.GameMap`.

References: ioquake3 ``renderergl1/tr_local.h`` (``world_t``, ``msurface_t``, ``mnode_t``, ``fog_t``,
``bmodel_t``); ``tr_world.c`` (``R_PointInLeaf``, ``R_ClusterPVS``); ``tr_bsp.c`` (``R_LoadFogs``); ``tr_light.c``
(``R_LightForPoint``); ``qcommon/cm_test.c`` (``CM_PointContents``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..bsp.brush_trace import BrushTree, contents_of
from ..bsp.trace import Trace
from ..errors import BadIndexError
from ..game_map import Contents
from ..ranges import listed_union
from .dtypes import CONTENTS_SOLID
from .lighting import LightGrid, LightmapAtlas

#: A renderer-ready vertex (``drawVert_t`` after loading).
DRAW_VERTEX = np.dtype([("position", "<f4", (3,)), ("st", "<f4", (2,)), ("lightmap", "<f4", (2,)),
                        ("normal", "<f4", (3,)), ("color", "u1", (4,))])
#: One ``dsurface_t`` after loading: its model, shader, fog (-1 none), kind (``MST_*``), the lightmap number the
#: engine finds its shader with (``>= 0`` or ``LIGHTMAP_*``), its index and vertex ranges in the output arrays
#: (0 indices for flares and nodraw surfaces), and for patches the control grid size.
SURFACE = np.dtype([("model", "<i4"), ("shader", "<i4"), ("fog", "<i4"), ("kind", "<i4"), ("lightmap", "<i4"),
                    ("first_index", "<u4"), ("num_indices", "<u4"), ("first_vertex", "<u4"),
                    ("num_vertices", "<u4"), ("patch_size", "<i4", (2,))])
#: Consecutive indices sharing model, shader, lightmap mode (0 = lightmapped, else ``LIGHTMAP_*``) and fog.
BATCH = np.dtype([("model", "<i4"), ("shader", "<i4"), ("lightmap", "<i4"), ("fog", "<i4"),
                  ("first_index", "<u4"), ("num_indices", "<u4")])


@dataclass(frozen=True, slots=True)
class Submodel46:
    """``dmodel_t`` ``index``: 0 is the world, ``*1..`` doors and platforms; its surfaces, brushes and batches."""

    index: int
    mins: tuple[float, float, float]
    maxs: tuple[float, float, float]
    first_surface: int
    num_surfaces: int
    first_brush: int
    num_brushes: int
    first_batch: int
    num_batches: int


@dataclass(frozen=True, slots=True)
class Fog:
    """``fog_t``: a fog volume's shader name, brush and box, and the plane of its visible surface (the brush
    side numbered ``visible_side``, facing out), or ``None`` when the fog has no visible side."""

    shader: str
    brush: int
    mins: tuple[float, float, float]
    maxs: tuple[float, float, float]
    surface_plane: tuple[float, float, float, float] | None


@dataclass(frozen=True, slots=True)
class Bsp46World:
    """A loaded IBSP v46 map.

    ``shaders``: ``D_SHADER [S]`` (``shader_names`` decoded). ``planes``/``nodes``/``leafs``/``brushes``/
    ``brush_sides``: the lumps as read. ``leaf_surfaces``/``leaf_brushes``: int32 lists. ``vertices``:
    ``DRAW_VERTEX [V]``; ``indices``: uint32 ``[I]`` triangles into ``vertices``. ``surfaces``: ``SURFACE``;
    ``batches``: ``BATCH``. ``lightmaps``: the atlas. ``light_grid``: ``None`` if the map has none.
    ``num_clusters``/``cluster_bytes``/``visdata``: the uncompressed PVS (empty = everything visible).
    ``collision``: the brushes a camera's line stops at (contents from each brush's shader; a leaf's contents are
    the union of its brushes', so point contents test the brushes themselves). Patches do not collide here.
    """

    name: str
    entities: tuple[dict[str, str], ...]
    shaders: np.ndarray
    shader_names: tuple[str, ...]
    planes: np.ndarray
    nodes: np.ndarray
    leafs: np.ndarray
    leaf_surfaces: np.ndarray
    leaf_brushes: np.ndarray
    models: tuple[Submodel46, ...]
    brushes: np.ndarray
    brush_sides: np.ndarray
    fogs: tuple[Fog, ...]
    surfaces: np.ndarray
    vertices: np.ndarray
    indices: np.ndarray
    batches: np.ndarray
    lightmaps: LightmapAtlas
    light_grid: LightGrid | None
    num_clusters: int
    cluster_bytes: int
    visdata: bytes
    overbright_shift: int
    collision: BrushTree
    #: The nodes as ``(normal x, y, z, dist, front child, back child)`` plain numbers, made on the first walk.
    _walk: list[tuple[float, float, float, float, int, int]] = field(default_factory=list, init=False, repr=False,
                                                                      compare=False)

    @property
    def worldspawn(self) -> dict[str, str]:
        for ent in self.entities:
            if ent.get("classname") == "worldspawn":
                return ent
        return {}

    @property
    def submodels(self) -> tuple[Submodel46, ...]:
        """:attr:`models`, under the name every map kind gives its ``dmodel_t`` records."""
        return self.models

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """``(mins, maxs)`` float32 ``[3]`` of the world model (``dmodel_t`` 0)."""
        world = self.models[0]
        return np.array(world.mins, np.float32), np.array(world.maxs, np.float32)

    def world_triangles(self) -> np.ndarray:
        """The triangles of the world model's batches (patches tessellated), float32 ``[T, 3, 3]``."""
        batches = self.batches[self.batches["model"] == 0]
        index = np.concatenate([self.indices[int(b["first_index"]):int(b["first_index"]) + int(b["num_indices"])]
                                for b in batches]) if len(batches) else np.zeros(0, np.uint32)
        return np.asarray(self.vertices["position"], np.float32)[index.astype(np.intp)].reshape(-1, 3, 3)

    def trace(self, start, end) -> Trace:
        """The brush trace with ``CONTENTS_SOLID``, as cgame's third-person camera traces (sky brushes are solid)."""
        return self.collision.trace_line(start, end, CONTENTS_SOLID)

    def contents(self, point) -> Contents:
        """The ``CONTENTS_*`` bits of the brushes holding ``point`` (``CM_PointContents``) as :class:`Contents`."""
        return contents_of(self.collision.brush_point_contents(point))

    def point_cluster(self, point) -> int:
        """The ``cluster`` of ``point``'s leaf (-1 in solid)."""
        return int(self.leafs["cluster"][self.point_leaf(point)])

    def light_at(self, point, style_values: np.ndarray | None = None) -> np.ndarray | None:
        """The light grid's ambient plus directed light at ``point`` (``R_LightForPoint``), ``None`` without a
        grid; Quake III has no light styles, so ``style_values`` changes nothing."""
        if self.light_grid is None:
            return None
        sample = self.light_grid.sample(point)
        return np.add(sample.ambient, sample.directed)

    def ambient_levels(self, point) -> None:
        """Quake III's leafs keep no ambient sound levels."""
        return None

    def point_leaf(self, point) -> int:
        """The leaf holding ``point`` (``R_PointInLeaf``): walk the nodes from the root (in plain floats: numpy on
        three numbers costs more than the sum)."""
        walk = self._walk
        if not walk and len(self.nodes):
            planes = self.planes[self.nodes["planeNum"]]
            walk.extend(zip(*planes["normal"].astype(np.float64).T.tolist(), planes["dist"].astype(np.float64).tolist(),
                            *self.nodes["children"].T.tolist()))
        x, y, z = (float(v) for v in np.ravel(point)[:3])
        node = 0
        for _ in range(len(walk) + 1):
            if node < 0:
                return -node - 1
            nx, ny, nz, dist, front, back = walk[node]
            node = front if nx * x + ny * y + nz * z - dist > 0 else back
        raise BadIndexError(self.name, "BSP46", None, "a node tree without loops", f"more than {len(self.nodes)} steps")

    def cluster_pvs(self, cluster: int) -> np.ndarray:
        """Clusters potentially visible from ``cluster``: bool ``[num_clusters]`` (all, without vis data or for
        a point outside the map, ``cluster < 0``; ``R_ClusterPVS``)."""
        n = self.num_clusters
        if cluster < 0 or not self.visdata or cluster >= n:
            return np.ones(n, bool)
        row = np.frombuffer(self.visdata, np.uint8, self.cluster_bytes, cluster * self.cluster_bytes)
        return np.unpackbits(row, bitorder="little")[:n].astype(bool)

    def visible_surfaces(self, point) -> np.ndarray:
        """Sorted unique surface numbers in leafs whose cluster the cluster at ``point`` can see (every leaf's
        surfaces when the map has no vis data)."""
        clusters = self.leafs["cluster"]
        if self.visdata:
            pvs = self.cluster_pvs(int(clusters[self.point_leaf(point)]))
            ok = (clusters >= 0) & (clusters < len(pvs))
            ok[ok] = pvs[clusters[ok]]
        else:
            ok = np.ones(len(clusters), bool)
        return listed_union(self.leafs["firstLeafSurface"][ok], self.leafs["numLeafSurfaces"][ok],
                            self.leaf_surfaces)
