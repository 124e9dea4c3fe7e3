"""A loaded Quake II map as a renderer sees it: :class:`World38`.

The drawing data has the shape of Quake's :class:`~assets_loader.bsp.world.WorldMesh` (``MeshData`` triangles with
draw ranges per (submodel, texture), the RGB ``Lightmap`` atlas with up to 4 styles per face, ``Texture`` records,
``Submodel`` records, entity dicts), so the same world renderer can draw either. The rest is Quake II's own:
surface flags per face and per texinfo, visibility by *cluster* (a compressed PVS and PHS row per cluster),
areas joined by area portals (what a frame's area bits switch), and the brushes that collision traces clip against.
It is a :class:`~assets_loader.game_map.GameMap`.

References: Quake II ``CM_LoadMap`` and its ``CMod_Load*`` helpers, ``CM_ClusterPVS`` / ``CM_ClusterPHS``,
``FloodArea_r`` / ``CM_WriteAreaBits`` (qcommon/cmodel.c); ``Mod_PointInLeaf``, ``R_MarkLeaves`` and
``R_RecursiveWorldNode``'s area-bit test (ref_gl/gl_model.c, gl_rsurf.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..bsp.brush_trace import BrushTree, contents_of
from ..bsp.pvs import decompress_vis
from ..bsp.trace import Trace
from ..bsp.world import FACE, BspWorld
from ..errors import BadIndexError
from ..game_map import Contents
from ..ranges import listed_union
from .dtypes import DVIS_PHS, DVIS_PVS
from .trace import point_contents, trace_line

#: Per-face facts: Quake's ``FACE`` fields plus ``flags``, the ``SURF_*`` bits of the face's texinfo.
FACE38 = np.dtype(FACE.descr + [("flags", "<i4")])
#: World textures animate at 2 frames per second (``R_DrawWorld`` sets the world entity's frame to
#: ``time * 2``); a face shows ``anim_frames[frame % len(anim_frames)]`` of its texture.
ANIM_FPS = 2.0


@dataclass(frozen=True, slots=True)
class World38(BspWorld):
    """A loaded ``IBSP`` version 38 map (fields shared with every map: :class:`~assets_loader.bsp.world.BspWorld`).

    Drawing: ``textures`` (``Texture.anim_frames`` follows the texinfo ``nexttexinfo`` chain from the texture's
    first texinfo), ``faces`` (``FACE38`` ``[F]``), ``texinfo`` (``texinfo_t`` ``[T]``: flags, value, texture
    name, next), ``texinfo_texture`` (int32 ``[T]``: index into ``textures``), ``missing_textures``: names (as in
    texinfo) with no ``textures/<name>.wal``, drawn with placeholders.
    Tree and visibility: ``leafs`` (``dleaf_t``), ``leaffaces`` / ``leafbrushes`` (uint32), ``vis`` (the
    visibility lump) at file offset ``vis_offset``, ``vis_rows`` (int64 ``[C, 2]``: each cluster's PVS and PHS
    offsets). Areas: ``areas`` (``darea_t``), ``areaportals`` (``dareaportal_t``). Collision: ``brushes``
    (``dbrush_t``) and ``brushsides`` (``dbrushside_t``), walked through ``collision``.
    """

    texinfo_texture: np.ndarray
    missing_textures: tuple[str, ...]
    leaffaces: np.ndarray
    leafbrushes: np.ndarray
    brushes: np.ndarray
    brushsides: np.ndarray
    areas: np.ndarray
    areaportals: np.ndarray
    vis: bytes
    vis_offset: int
    vis_rows: np.ndarray
    collision: BrushTree

    @property
    def num_clusters(self) -> int:
        return len(self.vis_rows)

    def trace(self, start, end) -> Trace:
        """:func:`~.trace.trace_line` through the world's brushes with ``MASK_SOLID`` (sky faces lie on solid
        brushes)."""
        return trace_line(self, start, end)

    def contents(self, point) -> Contents:
        """:func:`~.trace.point_contents` (the leaf's ``CONTENTS_*`` bits) as :class:`Contents`."""
        return contents_of(point_contents(self, point))

    def point_cluster(self, point) -> int:
        """The ``cluster`` of ``point``'s leaf (-1 in solid)."""
        return int(self.leafs["cluster"][self.point_leaf(point)])

    def ambient_levels(self, point) -> None:
        """Quake II's leafs keep no ambient sound levels."""
        return None

    def leaf_face_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each leaf's first and count into the face list leafs share, and that list (``leaffaces``)."""
        return self.leafs["firstleafface"], self.leafs["numleaffaces"], self.leaffaces

    def face_flags(self) -> np.ndarray:
        """``i4 [F]``: each face's ``SURF_*`` bits."""
        return self.faces["flags"].astype(np.int32)

    def cluster_pvs(self, cluster: int) -> np.ndarray:
        """Clusters potentially visible from ``cluster``: bool ``[num_clusters]`` (all for -1 or no vis data)."""
        return self._cluster_row(cluster, DVIS_PVS)

    def cluster_phs(self, cluster: int) -> np.ndarray:
        """Clusters potentially hearable from ``cluster`` (the PHS): bool ``[num_clusters]``."""
        return self._cluster_row(cluster, DVIS_PHS)

    def _cluster_row(self, cluster: int, which: int) -> np.ndarray:
        n = self.num_clusters
        if cluster == -1 or n == 0:
            return np.ones(n, bool)
        if not 0 <= cluster < n:
            raise BadIndexError(self.name, self.version, None, f"a cluster below {n} (or -1)", str(cluster))
        return decompress_vis(self.vis, int(self.vis_rows[cluster, which]), n, self.name, self.vis_offset)

    def leaf_pvs(self, leaf: int, areabits: bytes | None = None) -> np.ndarray:
        """Leafs potentially visible from ``leaf``: bool ``[num_leafs]`` (``R_MarkLeaves``).

        A leaf outside every cluster, or a map without vis data, sees every leaf that has a cluster. With
        ``areabits`` (a frame's area bit field, bit ``a`` = area ``a`` is visible) leafs in hidden areas are
        dropped, as ``R_RecursiveWorldNode`` skips them.
        """
        n = len(self.leafs)
        if not 0 <= leaf < n:
            raise BadIndexError(self.name, self.version, None, f"a leaf index below {n}", str(leaf))
        clusters = self.leafs["cluster"].astype(np.int64)
        has = clusters >= 0
        out = has.copy()
        if self.num_clusters:  # the loader checked every cluster against the vis lump's count
            out[has] = self.cluster_pvs(int(clusters[leaf]))[clusters[has]]
        if areabits is not None:
            bits = np.unpackbits(np.frombuffer(bytes(areabits), np.uint8), bitorder="little").astype(bool)
            area = self.leafs["area"].astype(np.int64)
            inside = (area >= 0) & (area < len(bits))
            visible = np.zeros(n, bool)
            visible[inside] = bits[area[inside]]
            out &= visible
        return out

    def leaf_faces(self, leaf: int) -> np.ndarray:
        """Face indices listed by ``leaf``, uint32 ``[k]``."""
        rec = self.leafs[leaf]
        first = int(rec["firstleafface"])
        return self.leaffaces[first:first + int(rec["numleaffaces"])]

    def visible_faces(self, leaf: int, areabits: bytes | None = None) -> np.ndarray:
        """Sorted unique face indices of every leaf in ``leaf``'s PVS (and visible areas)."""
        leafs = np.flatnonzero(self.leaf_pvs(leaf, areabits))
        return listed_union(self.leafs["firstleafface"][leafs], self.leafs["numleaffaces"][leafs], self.leaffaces)

    def area_bits(self, area: int, portal_open: np.ndarray | None = None) -> bytes:
        """The area bit field seen from ``area`` (``CM_WriteAreaBits``): areas reachable through open portals.

        ``portal_open``: bool per portal number (what the game opens and closes with doors); ``None`` opens
        every portal. Area 0 and out-of-range areas see everything, as the engine treats area 0 as "outside".
        """
        n = len(self.areas)
        size = (n + 7) >> 3
        if not 0 < area < n:
            return b"\xff" * size
        seen = np.zeros(n, bool)
        seen[area] = True
        stack = [area]
        while stack:
            a = stack.pop()
            rec = self.areas[a]
            first = int(rec["firstareaportal"])
            for portal in self.areaportals[first:first + int(rec["numareaportals"])]:
                num, other = int(portal["portalnum"]), int(portal["otherarea"])
                if portal_open is not None and not (0 <= num < len(portal_open) and portal_open[num]):
                    continue
                if 0 <= other < n and not seen[other]:
                    seen[other] = True
                    stack.append(other)
        return np.packbits(seen, bitorder="little").tobytes()
