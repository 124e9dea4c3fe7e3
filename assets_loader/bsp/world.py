"""The loaded BSP as the renderer sees it: :class:`WorldMesh` and :class:`Submodel`.

A ``WorldMesh`` is self-contained (numpy arrays and frozen records, no file access), so ``viewer/render`` can
upload it and query visibility without knowing the disk format. It is a :class:`~assets_loader.game_map.GameMap`.

References: Quake ``model_t`` / ``mleaf_t`` / ``mnode_t`` (gl_model.h); ``Mod_LeafPVS``, ``Mod_PointInLeaf``
(gl_model.c); ``SV_PointContents`` (world.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BadIndexError
from ..game_map import Contents
from ..ranges import listed_union
from .dtypes import CONTENTS_LAVA, CONTENTS_SKY, CONTENTS_SLIME, CONTENTS_SOLID, CONTENTS_WATER
from .lightmap import Lightmap
from .lightpoint import light_point
from .mesh import FaceGeometry, MeshData
from .pvs import decompress_vis, point_in_leaf
from .textures import Texture
from .trace import Trace, point_contents, trace_line

#: Per-face facts kept after loading: submodel (-1 if in none), texture index, texinfo, plane and side, the
#: face's vertex range in ``MeshData.vertices``, light styles, lightmap sample offset (-1 = none), and the
#: engine's ``texturemins`` / ``extents``.
FACE = np.dtype([("model", "<i4"), ("texture", "<i4"), ("texinfo", "<i4"), ("planenum", "<i4"), ("side", "<i4"),
                 ("firstvertex", "<u4"), ("numverts", "<u4"), ("styles", "u1", (4,)), ("lightofs", "<i4"),
                 ("texturemins", "<i4", (2,)), ("extents", "<i4", (2,))])


def face_table(dtype: np.dtype, geom: FaceGeometry, faces_raw: np.ndarray, face_model: np.ndarray,
               face_tex: np.ndarray, face_texinfo: np.ndarray, styles: np.ndarray, lightofs: np.ndarray) -> np.ndarray:
    """The ``FACE`` columns of ``dtype`` (``FACE`` or an extension of it) filled for every face; ``lightofs``
    is -1 for faces without a lightmap."""
    out = np.zeros(len(faces_raw), dtype)
    out["model"] = face_model
    out["texture"] = face_tex
    out["texinfo"] = face_texinfo
    out["planenum"] = faces_raw["planenum"]
    out["side"] = faces_raw["side"]
    out["firstvertex"] = geom.starts
    out["numverts"] = geom.counts
    out["styles"] = styles
    out["lightofs"] = lightofs
    out["texturemins"] = geom.texturemins
    out["extents"] = geom.extents
    return out


@dataclass(frozen=True, slots=True)
class Submodel:
    """Model ``index`` of the BSP: 0 is the world, ``*1..*N`` are doors, lifts, triggers...

    ``mins``/``maxs``/``origin``: float ``(x, y, z)``; ``headnode``: the hull roots, 4 in Quake (hull 0 is the
    drawing tree), 1 in Quake II (whose collision uses brushes); a negative value is ``-(leaf + 1)``;
    ``visleafs``: Quake's leaf count for the PVS (0 in Quake II, whose PVS is by cluster);
    ``first_face``/``num_faces``: its range in the face lump; ``first_draw``/``num_draws``: its range in
    ``MeshData.draws``.
    """

    index: int
    mins: tuple[float, float, float]
    maxs: tuple[float, float, float]
    origin: tuple[float, float, float]
    headnode: tuple[int, ...]
    visleafs: int
    first_face: int
    num_faces: int
    first_draw: int
    num_draws: int

    @property
    def name(self) -> str:
        """``"*N"`` as entities' ``model`` keys name it (the world is ``"*0"``)."""
        return f"*{self.index}"


def build_submodels(models: np.ndarray, draws: np.ndarray) -> tuple[Submodel, ...]:
    """A :class:`Submodel` per ``dmodel_t`` record (Quake's, with 4 head nodes and ``visleafs``, or Quake II's,
    with one head node), with its range in ``draws`` (sorted by model)."""
    dm = draws["model"]
    has_visleafs = "visleafs" in (models.dtype.names or ())
    out = []
    for i, m in enumerate(models):
        lo = int(np.searchsorted(dm, i, "left"))
        hi = int(np.searchsorted(dm, i, "right"))
        out.append(Submodel(i, _vec3(m["mins"]), _vec3(m["maxs"]), _vec3(m["origin"]),
                            tuple(int(x) for x in np.atleast_1d(m["headnode"])),
                            int(m["visleafs"]) if has_visleafs else 0, int(m["firstface"]), int(m["numfaces"]),
                            lo, hi - lo))
    return tuple(out)


def _vec3(v: np.ndarray) -> tuple[float, float, float]:
    return float(v[0]), float(v[1]), float(v[2])


@dataclass(frozen=True, slots=True)
class BspWorld:
    """What every loaded map holds and answers the same way, Quake's :class:`WorldMesh` and Quake II's
    ``World38`` alike, so a renderer can draw either.

    ``name``: the file; ``version``: the format (``"BSP29"``, ``"BSP2"``, ``"2PSB"``, ``"IBSP38"``); ``mesh``: all
    faces as triangles; ``textures``: indexed by ``MeshData.draws["texture"]`` (missing ones are placeholders with
    ``is_missing``); ``submodels``: model 0 (world) first; ``entities``: the entity lump, ``worldspawn`` normally
    first; ``lightmap``: the RGB atlas; ``faces``: ``FACE`` ``[F]`` (or an extension of it); ``texinfo``: the
    format's texinfo records; ``planes``: ``D_PLANE`` ``[P]``; ``nodes``: ``M_NODE`` ``[N]`` (children ``< 0``
    are ``-(leaf + 1)``); ``leafs``: the format's leaf records.
    """

    name: str
    version: str
    mesh: MeshData
    textures: tuple[Texture, ...]
    submodels: tuple[Submodel, ...]
    entities: tuple[dict[str, str], ...]
    lightmap: Lightmap
    faces: np.ndarray
    texinfo: np.ndarray
    planes: np.ndarray
    nodes: np.ndarray
    leafs: np.ndarray

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """World ``(mins, maxs)``, float32 ``[3]`` each (model 0's box)."""
        w = self.submodels[0]
        return np.array(w.mins, np.float32), np.array(w.maxs, np.float32)

    def world_triangles(self) -> np.ndarray:
        """The triangles of model 0's draw ranges, float32 ``[T, 3, 3]``."""
        mesh = self.mesh
        draws = mesh.draws[mesh.draws["model"] == 0]
        index = np.concatenate([mesh.indices[int(d["first"]):int(d["first"]) + int(d["count"])] for d in draws]) \
            if len(draws) else np.zeros(0, np.uint32)
        return np.asarray(mesh.vertices["position"], np.float32)[index.astype(np.intp)].reshape(-1, 3, 3)

    @property
    def num_faces(self) -> int:
        return len(self.faces)

    @property
    def num_leafs(self) -> int:
        return len(self.leafs)

    @property
    def num_models(self) -> int:
        return len(self.submodels)

    @property
    def worldspawn(self) -> dict[str, str]:
        for ent in self.entities:
            if ent.get("classname") == "worldspawn":
                return ent
        return {}

    def point_leaf(self, point, model: int = 0) -> int:
        """Index of the leaf of ``model``'s drawing tree that contains ``point`` (``Mod_PointInLeaf``)."""
        head = self.submodels[model].headnode[0]
        return point_in_leaf(point, self.nodes, self.planes, head, self.name)

    def light_at(self, point, style_values: np.ndarray | None = None) -> np.ndarray | None:
        """The lightmap under ``point`` (``R_LightPoint``), each style's sample times ``style_values[style]``
        (1.0 for every style when not given); ``None`` when no lightmapped face lies below."""
        sample = light_point(self, point)
        if sample is None:
            return None
        return sample.value(np.ones(256) if style_values is None else style_values)


@dataclass(frozen=True, slots=True)
class WorldMesh(BspWorld):
    """A loaded Quake BSP (fields shared with every map: :class:`BspWorld`).

    ``faces``: ``FACE`` ``[F]``; ``texinfo``: ``D_TEXINFO`` ``[T]``; ``leafs``: ``M_LEAF`` ``[L]`` (leaf 0 is the
    shared solid leaf); ``marksurfaces``: uint32 ``[M]`` face indices listed by leafs; ``visdata``: the compressed
    visibility lump at file offset ``vis_offset``; ``lit``: whether coloured ``.lit`` lighting was used.
    ``textures`` may end with a placeholder for texinfos naming no texture.
    """

    marksurfaces: np.ndarray
    visdata: bytes
    vis_offset: int
    lit: bool

    @property
    def num_clusters(self) -> int:
        """Quake's PVS is by leaf: world leafs ``1..visleafs`` are clusters ``0..visleafs-1``."""
        return min(self.submodels[0].visleafs, len(self.leafs) - 1)

    def trace(self, start, end) -> Trace:
        """:func:`~.trace.trace_line` through the world's drawing tree, sky counted as solid."""
        return trace_line(self, start, end, sky_is_solid=True)

    def contents(self, point) -> Contents:
        """:func:`~.trace.point_contents` as :class:`Contents` (the current and clip codes of hull files count as
        empty)."""
        return _CONTENTS.get(point_contents(self, point), Contents.EMPTY)

    def point_cluster(self, point) -> int:
        """The world leaf holding ``point`` less one; -1 in the solid leaf 0."""
        leaf = self.point_leaf(point)
        return leaf - 1 if 0 < leaf <= self.num_clusters else -1

    def cluster_pvs(self, cluster: int) -> np.ndarray:
        """:meth:`leaf_pvs` of the cluster's leaf, indexed by cluster (every cluster for -1)."""
        n = self.num_clusters
        if cluster == -1:
            return np.ones(n, bool)
        if not 0 <= cluster < n:
            raise BadIndexError(self.name, self.version, None, f"a cluster below {n} (or -1)", str(cluster))
        return self.leaf_pvs(cluster + 1)[1:1 + n]

    def ambient_levels(self, point) -> np.ndarray:
        """The leaf's ``ambient_level`` bytes (water, sky, slime, lava)."""
        return self.leafs["ambient_level"][self.point_leaf(point)]

    def leaf_face_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each leaf's first and count into the face list leafs share, and that list (``marksurfaces``)."""
        return self.leafs["firstmarksurface"], self.leafs["nummarksurfaces"], self.marksurfaces

    def face_flags(self) -> np.ndarray:
        """``i4 [F]``: Quake's faces carry no surface flags, so all 0."""
        return np.zeros(len(self.faces), np.int32)

    def leaf_pvs(self, leaf: int, areabits: bytes | None = None) -> np.ndarray:
        """Leafs potentially visible from ``leaf``: bool ``[num_leafs]`` indexed by leaf number.

        Leaf 0 (solid) and leafs beyond the world's ``visleafs`` (submodel leafs) are never set. A leaf
        without vis data (or leaf 0) sees every world leaf, like the engine's ``mod_novis``. Quake has no areas:
        ``areabits`` changes nothing.
        """
        n = len(self.leafs)
        if not 0 <= leaf < n:
            raise BadIndexError(self.name, self.version, None, f"a leaf index below {n}", str(leaf))
        visleafs = min(self.submodels[0].visleafs, n - 1)
        out = np.zeros(n, bool)
        visofs = int(self.leafs["visofs"][leaf])
        if leaf == 0 or visofs < 0 or not self.visdata:
            out[1:1 + visleafs] = True
            return out
        out[1:1 + visleafs] = decompress_vis(self.visdata, visofs, visleafs, self.name, self.vis_offset)
        return out

    def leaf_faces(self, leaf: int) -> np.ndarray:
        """Face indices listed by ``leaf`` (its marksurfaces), uint32 ``[k]``."""
        rec = self.leafs[leaf]
        first = int(rec["firstmarksurface"])
        return self.marksurfaces[first:first + int(rec["nummarksurfaces"])]

    def visible_faces(self, leaf: int) -> np.ndarray:
        """Sorted unique face indices of every leaf in ``leaf``'s PVS (world faces only)."""
        leafs = np.flatnonzero(self.leaf_pvs(leaf))
        if len(leafs) == 0:
            return np.zeros(0, np.uint32)
        return listed_union(self.leafs["firstmarksurface"][leafs], self.leafs["nummarksurfaces"][leafs],
                            self.marksurfaces)


#: Quake's ``CONTENTS_*`` values as :class:`Contents`.
_CONTENTS = {CONTENTS_SOLID: Contents.SOLID, CONTENTS_WATER: Contents.WATER, CONTENTS_SLIME: Contents.SLIME,
             CONTENTS_LAVA: Contents.LAVA, CONTENTS_SKY: Contents.SKY}
