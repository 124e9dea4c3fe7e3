"""Load a Quake II BSP (``IBSP`` version 38) into a :class:`~.world.World38`.

One function per lump, named after the engine's loaders. Every lump is read whole with ``np.frombuffer`` and
validated before anything is derived from it: lumps inside the file, sizes a multiple of their record, and every
index (vertices, edges, surfedges, planes, texinfo and its ``nexttexinfo`` chains, leaf faces and brushes,
brush sides, nodes, leafs, clusters, areas and portals, visibility and lighting offsets) inside its table. Bad
input raises only :class:`~assets_loader.errors.FormatError` subclasses naming the file, byte offset and
expectation.

Triangles, extents and the lightmap atlas come from the helpers Quake's loader uses (:mod:`assets_loader.bsp.mesh`,
:mod:`assets_loader.bsp.lightmap`). Quake II differences: lighting is RGB and ``lightofs`` counts bytes; sky,
warped and translucent faces get no lightmap (``SURF_NO_LIGHTMAP``, as ``Mod_LoadFaces`` skips them) and, like
faces without light data, point at the white texel (``R_BuildLightMap`` fills a face without samples with 255);
textures are ``.wal`` files named by texinfo (``textures/<name>.wal``), found through a
:class:`~assets_loader.vfs.VirtualFS`, and texture coordinates are divided by the WAL's size.

References: Quake II ``qcommon/qfiles.h``; ``Mod_LoadBrushModel`` and its ``Mod_Load*`` helpers
(ref_gl/gl_model.c); ``CM_LoadMap`` and its ``CMod_Load*`` helpers (qcommon/cmodel.c).
"""

from __future__ import annotations

import numpy as np

from ..bsp.brush_trace import BrushTree
from ..bsp.dtypes import M_NODE
from ..bsp.entities import parse_entities
from ..bsp.lightmap import build_lightmap, check_light_samples, lightmap_samples
from ..bsp.loader import check_map_budgets
from ..bsp.lumps import LumpReader
from ..bsp.mesh import build_mesh, face_geometry, face_models
from ..bsp.textures import Texture, placeholder_texture
from ..bsp.world import build_submodels, face_table
from ..budgets import check_budget
from ..errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from ..source import Source, read_source
from ..vfs import VirtualFS
from ..wal import load_wal
from . import dtypes as D
from .world import FACE38, World38

VERSION = "IBSP38"


class _Bsp38(LumpReader):
    """Parsing state for one file: checks ``"IBSP"``, version 38 and the 19-lump directory."""

    def __init__(self, data: bytes, path: str) -> None:
        if len(data) < 8:
            raise TruncatedError(path, "BSP", 0, "the 'IBSP' magic and a version", f"{len(data)} bytes")
        if data[:4] != D.IDBSPHEADER:
            raise BadMagicError(path, "BSP", 0, "magic 'IBSP'", repr(data[:4]))
        version = int.from_bytes(data[4:8], "little", signed=True)
        if version != D.BSPVERSION:
            raise BadMagicError(path, "BSP", 4, f"IBSP version {D.BSPVERSION}", str(version))
        super().__init__(data, path, VERSION, D.LUMP_NAMES, 8)

    def indices(self, index: int, dtype: np.dtype, limit: int, what: str) -> np.ndarray:
        """A lump of plain indices, each checked to lie in ``0 .. limit - 1``; int64."""
        values = self.lump(index, dtype).astype(np.int64)
        self.bad_index(index, dtype, (values < 0) | (values >= limit), "", f"below {limit} {what}", values)
        return values

    def ranges(self, index: int, dtype: np.dtype, records: np.ndarray, first: str, count: str, limit: int,
               what: str) -> None:
        """Check ``records[first] .. + records[count]`` lies inside ``limit`` items of ``what``."""
        f = records[first].astype(np.int64)
        n = records[count].astype(np.int64)
        self.bad_index(index, dtype, (f < 0) | (n < 0) | (f + n > limit), first,
                       f"with {count} inside {limit} {what}", f)


def Mod_LoadEdges(bsp: _Bsp38, numvertexes: int) -> np.ndarray:
    """int64 ``[E, 2]`` vertex indices of each edge (checked below ``numvertexes``)."""
    v = bsp.lump(D.LUMP_EDGES, D.dedge_t)["v"].astype(np.int64)
    bsp.bad_index(D.LUMP_EDGES, D.dedge_t, (v >= numvertexes).any(axis=1), "v", f"below {numvertexes} vertexes",
                  v.max(axis=1) if len(v) else v)
    return v


def Mod_LoadSurfedges(bsp: _Bsp38, numedges: int) -> np.ndarray:
    """int64 ``[S]`` signed edge numbers (checked: ``|e| < numedges``)."""
    s = bsp.lump(D.LUMP_SURFEDGES, D.dsurfedge_t).astype(np.int64)
    bsp.bad_index(D.LUMP_SURFEDGES, D.dsurfedge_t, np.abs(s) >= numedges, "", f"with |edge| below {numedges}", s)
    return s


def Mod_LoadTexinfo(bsp: _Bsp38) -> np.ndarray:
    """``texinfo_t`` ``[T]`` with every ``nexttexinfo`` -1 or a texinfo."""
    ti = bsp.lump(D.LUMP_TEXINFO, D.texinfo_t)
    nxt = ti["nexttexinfo"].astype(np.int64)
    bsp.bad_index(D.LUMP_TEXINFO, D.texinfo_t, (nxt < -1) | (nxt >= len(ti)), "nexttexinfo",
                  f"-1 or below {len(ti)}", nxt)
    return ti


def Mod_LoadFaces(bsp: _Bsp38, numplanes: int, numtexinfo: int, numsurfedges: int) -> np.ndarray:
    """``dface_t`` ``[F]``, every index checked."""
    L, ft = D.LUMP_FACES, D.dface_t
    faces = bsp.lump(L, ft)
    bsp.ranges(L, ft, faces, "firstedge", "numedges", numsurfedges, "surfedges")
    texinfo = faces["texinfo"].astype(np.int64)
    bsp.bad_index(L, ft, (texinfo < 0) | (texinfo >= numtexinfo), "texinfo", f"below {numtexinfo}", texinfo)
    plane = faces["planenum"].astype(np.int64)
    bsp.bad_index(L, ft, plane >= numplanes, "planenum", f"below {numplanes}", plane)
    lofs = faces["lightofs"].astype(np.int64)
    bsp.bad_index(L, ft, lofs < -1, "lightofs", "-1 or a lighting offset", lofs)
    return faces


def CMod_LoadBrushes(bsp: _Bsp38, numplanes: int, numtexinfo: int) -> tuple[np.ndarray, np.ndarray]:
    """``(dbrush_t [B], dbrushside_t [S])`` with side ranges, planes and texinfos checked."""
    sides = bsp.lump(D.LUMP_BRUSHSIDES, D.dbrushside_t)
    plane = sides["planenum"].astype(np.int64)
    bsp.bad_index(D.LUMP_BRUSHSIDES, D.dbrushside_t, plane >= numplanes, "planenum", f"below {numplanes}", plane)
    ti = sides["texinfo"].astype(np.int64)
    bsp.bad_index(D.LUMP_BRUSHSIDES, D.dbrushside_t, (ti < -1) | (ti >= numtexinfo), "texinfo",
                  f"-1 or below {numtexinfo}", ti)
    brushes = bsp.lump(D.LUMP_BRUSHES, D.dbrush_t)
    bsp.ranges(D.LUMP_BRUSHES, D.dbrush_t, brushes, "firstside", "numsides", len(sides), "brush sides")
    return brushes, sides


def CMod_LoadVisibility(bsp: _Bsp38) -> np.ndarray:
    """int64 ``[C, 2]``: each cluster's PVS and PHS row offsets inside the visibility lump (``dvis_t``)."""
    size = bsp.lens[D.LUMP_VISIBILITY]
    if size == 0:
        return np.zeros((0, 2), np.int64)
    base = bsp.ofs[D.LUMP_VISIBILITY]
    if size < 4:
        raise TruncatedError(bsp.path, VERSION, base, "a 4-byte cluster count", f"{size} bytes")
    count = int(np.frombuffer(bsp.data, "<i4", 1, base)[0])
    if count < 0 or 4 + 8 * count > size:
        raise TruncatedError(bsp.path, VERSION, base, f"{count} cluster offset pairs inside the {size}-byte "
                             "visibility lump", str(count))
    rows = np.frombuffer(bsp.data, "<i4", 2 * count, base + 4).reshape(count, 2).astype(np.int64)
    bad = ((rows < 0) | (rows >= size)).any(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise BadIndexError(bsp.path, VERSION, base + 4 + 8 * i, f"cluster {i}'s PVS and PHS offsets inside the "
                            f"{size}-byte visibility lump", str(rows[i].tolist()))
    return rows


def Mod_LoadLeafs(bsp: _Bsp38, numleaffaces: int, numleafbrushes: int, numclusters: int,
                  numareas: int) -> np.ndarray:
    """``dleaf_t`` ``[L]`` with face and brush ranges, clusters and areas checked."""
    L, lt = D.LUMP_LEAFS, D.dleaf_t
    leafs = bsp.lump(L, lt)
    if len(leafs) == 0:
        raise FormatError(bsp.path, VERSION, 8 + 8 * L, "at least one leaf", "none")
    bsp.ranges(L, lt, leafs, "firstleafface", "numleaffaces", numleaffaces, "leaf faces")
    bsp.ranges(L, lt, leafs, "firstleafbrush", "numleafbrushes", numleafbrushes, "leaf brushes")
    cluster = leafs["cluster"].astype(np.int64)
    if numclusters:  # without vis data clusters are never looked up
        bsp.bad_index(L, lt, (cluster < -1) | (cluster >= numclusters), "cluster", f"-1 or below {numclusters}",
                      cluster)
    area = leafs["area"].astype(np.int64)
    bsp.bad_index(L, lt, (area < 0) | (area >= max(numareas, 1)), "area", f"below {max(numareas, 1)}", area)
    return leafs


def Mod_LoadNodes(bsp: _Bsp38, numplanes: int, numleafs: int, numfaces: int) -> np.ndarray:
    """``M_NODE`` ``[N]``: children ``>= 0`` are nodes, ``< 0`` are ``-(leaf + 1)``; all indices checked."""
    L, nt = D.LUMP_NODES, D.dnode_t
    raw = bsp.lump(L, nt)
    n = len(raw)
    plane = raw["planenum"].astype(np.int64)
    bsp.bad_index(L, nt, (plane < 0) | (plane >= numplanes), "planenum", f"below {numplanes}", plane)
    c = raw["children"].astype(np.int64)
    bad = np.where(c >= 0, c >= n, -1 - c >= numleafs)
    bsp.bad_index(L, nt, bad.any(axis=1), "children", f"below {n} nodes or naming one of {numleafs} leafs",
                  c.tolist())
    bsp.ranges(L, nt, raw, "firstface", "numfaces", numfaces, "faces")
    out = np.zeros(n, M_NODE)
    for name in ("planenum", "children", "mins", "maxs", "firstface", "numfaces"):
        out[name] = raw[name]
    return out


def Mod_LoadSubmodels(bsp: _Bsp38, numfaces: int, numnodes: int, numleafs: int) -> np.ndarray:
    """``dmodel_t`` ``[M]`` (at least one: the world), face ranges and head nodes checked."""
    L, mt = D.LUMP_MODELS, D.dmodel_t
    models = bsp.lump(L, mt)
    if len(models) == 0:
        raise FormatError(bsp.path, VERSION, 8 + 8 * L, "at least one model (the world)", "none")
    bsp.ranges(L, mt, models, "firstface", "numfaces", numfaces, "faces")
    head = models["headnode"].astype(np.int64)
    bsp.bad_index(L, mt, np.where(head >= 0, head >= numnodes, -1 - head >= numleafs), "headnode",
                  f"a node below {numnodes} or one of {numleafs} leafs", head)
    return models


def CMod_LoadAreas(bsp: _Bsp38) -> tuple[np.ndarray, np.ndarray]:
    """``(darea_t [A], dareaportal_t [P])`` with portal ranges and the areas portals lead to checked."""
    portals = bsp.lump(D.LUMP_AREAPORTALS, D.dareaportal_t)
    areas = bsp.lump(D.LUMP_AREAS, D.darea_t)
    bsp.ranges(D.LUMP_AREAS, D.darea_t, areas, "firstareaportal", "numareaportals", len(portals), "area portals")
    other = portals["otherarea"].astype(np.int64)
    bsp.bad_index(D.LUMP_AREAPORTALS, D.dareaportal_t, (other < 0) | (other >= len(areas)), "otherarea",
                  f"below {len(areas)}", other)
    num = portals["portalnum"].astype(np.int64)
    bsp.bad_index(D.LUMP_AREAPORTALS, D.dareaportal_t, num < 0, "portalnum", "non-negative", num)
    return areas, portals


def _texture_names(texinfo: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Unique texture names (first spelling, compared case-insensitively) and each texinfo's index into them."""
    names: list[str] = []
    index: dict[str, int] = {}
    out = np.zeros(len(texinfo), np.int32)
    for i, raw in enumerate(texinfo["texture"].tolist()):
        name = raw.split(b"\0", 1)[0].decode("latin-1")
        key = name.lower()
        if key not in index:
            index[key] = len(names)
            names.append(name)
        out[i] = index[key]
    return names, out


def _animation_chains(bsp: _Bsp38, texinfo: np.ndarray, texinfo_tex: np.ndarray,
                      count: int) -> list[tuple[int, ...]]:
    """Per texture, the texture indices along the ``nexttexinfo`` chain of its first texinfo (empty if none).

    A chain must come back to where it started, as ``Mod_LoadTexinfo`` counts ``numframes`` by walking it."""
    nxt = texinfo["nexttexinfo"].tolist()
    chains: list[tuple[int, ...] | None] = [None] * count
    for start, tex in enumerate(texinfo_tex.tolist()):
        if chains[tex] is not None:
            continue
        if nxt[start] < 0:
            chains[tex] = ()
            continue
        frames = [tex]
        step = nxt[start]
        while step != start:
            if step < 0 or len(frames) > len(nxt):
                raise BadIndexError(bsp.path, VERSION, bsp.ofs[D.LUMP_TEXINFO] + start * D.texinfo_t.itemsize,
                                    f"texinfo[{start}]'s animation chain leading back to it", f"next {step}")
            frames.append(int(texinfo_tex[step]))
            step = nxt[step]
        chains[tex] = tuple(frames)
    return [c or () for c in chains]


def _load_textures(names: list[str], chains: list[tuple[int, ...]],
                   fs: VirtualFS | None) -> tuple[list[Texture], tuple[str, ...]]:
    """A ``Texture`` per name from ``textures/<name>.wal`` (placeholders for the missing), and the missing names."""
    textures = []
    missing = []
    for name, chain in zip(names, chains):
        path = f"textures/{name}.wal"
        if fs is not None and fs.exists(path):
            wal = load_wal(fs.read(path), path)
            textures.append(Texture(name, wal.width, wal.height, wal.mips, chain))
        else:
            missing.append(name)
            tex = placeholder_texture(name)
            textures.append(Texture(tex.name, tex.width, tex.height, tex.mips, chain, is_missing=True))
    return textures, tuple(missing)


def load_bsp38(src: Source, name: str | None = None, fs: VirtualFS | None = None) -> World38:
    """Load a Quake II map from bytes or a path; ``fs`` supplies the ``.wal`` textures (else all placeholders).

    Raises only :class:`~assets_loader.errors.FormatError` subclasses for bad data in the map or its WALs (and
    ``OSError`` if a path cannot be read).
    """
    data, path = read_source(src, name, "map")
    bsp = _Bsp38(data, path)

    planes = bsp.lump(D.LUMP_PLANES, D.dplane_t)
    vertexes = bsp.lump(D.LUMP_VERTEXES, D.dvertex_t)["point"]
    edges = Mod_LoadEdges(bsp, len(vertexes))
    surfedges = Mod_LoadSurfedges(bsp, len(edges))
    texinfo = Mod_LoadTexinfo(bsp)
    faces_raw = Mod_LoadFaces(bsp, len(planes), len(texinfo), len(surfedges))
    nf = len(faces_raw)
    leaffaces = bsp.indices(D.LUMP_LEAFFACES, D.dleafface_t, nf, "faces").astype(np.uint32)
    brushes, brushsides = CMod_LoadBrushes(bsp, len(planes), len(texinfo))
    leafbrushes = bsp.indices(D.LUMP_LEAFBRUSHES, D.dleafbrush_t, len(brushes), "brushes").astype(np.uint32)
    vis_rows = CMod_LoadVisibility(bsp)
    areas, areaportals = CMod_LoadAreas(bsp)
    leafs = Mod_LoadLeafs(bsp, len(leaffaces), len(leafbrushes), len(vis_rows), len(areas))
    check_map_budgets(path, VERSION, faces_raw["numedges"], leafs["numleaffaces"], leafs["numleafbrushes"])
    nodes = Mod_LoadNodes(bsp, len(planes), len(leafs), nf)
    models = Mod_LoadSubmodels(bsp, nf, len(nodes), len(leafs))
    entities = tuple(parse_entities(bsp.raw(D.LUMP_ENTITIES), path, bsp.ofs[D.LUMP_ENTITIES]))

    names, texinfo_tex = _texture_names(texinfo)
    chains = _animation_chains(bsp, texinfo, texinfo_tex, len(names))
    textures, missing = _load_textures(names, chains, fs)

    face_ti = faces_raw["texinfo"].astype(np.int64)
    face_tex = texinfo_tex[face_ti]
    face_flags = texinfo["flags"][face_ti]

    geom = face_geometry(faces_raw["firstedge"], faces_raw["numedges"], surfedges, edges, vertexes,
                         texinfo["vecs"][face_ti])

    # lightmaps: RGB bytes, lightofs in bytes; sample k of a face is bytes lightofs + 3k .. + 3k + 2
    lighting = np.frombuffer(data, np.uint8, bsp.lens[D.LUMP_LIGHTING], bsp.ofs[D.LUMP_LIGHTING])
    samples = np.lib.stride_tricks.sliding_window_view(lighting, 3) if len(lighting) >= 3 else None
    lightofs = faces_raw["lightofs"].astype(np.int64)
    styles = np.ascontiguousarray(faces_raw["styles"])
    has_light = (lightofs >= 0) & ((face_flags & D.SURF_NO_LIGHTMAP) == 0) & (samples is not None)
    need = lightmap_samples(geom.extents, styles, has_light)
    check_budget(path, VERSION, "lightmap_texels", int(need.sum()), "lightmap texels (samples × styles)")
    check_light_samples(bsp, D.LUMP_FACES, D.dface_t, lightofs, 3 * need, len(lighting), "bytes")
    lightmap = build_lightmap(samples, lightofs, styles, geom.extents, has_light, np.ones(nf, bool), sample_step=3)

    face_model = face_models(models["firstface"], models["numfaces"], nf)
    sizes = np.array([(t.width, t.height) for t in textures], np.float64).reshape(-1, 2)
    mesh = build_mesh(geom, face_model, face_tex, sizes, lightmap, styles, has_light)
    face_info = face_table(FACE38, geom, faces_raw, face_model, face_tex, face_ti, styles,
                           np.where(has_light, lightofs, -1))
    face_info["flags"] = face_flags
    for arr in (face_info, nodes, leaffaces, leafbrushes, mesh.vertices, mesh.indices, mesh.draws, lightmap.atlas,
                lightmap.rects, lightmap.num_styles, mesh.face_first, mesh.face_count, texinfo_tex, vis_rows):
        arr.flags.writeable = False
    return World38(path, VERSION, mesh, tuple(textures), build_submodels(models, mesh.draws), entities, lightmap,
                   face_info, texinfo, planes, nodes, leafs, texinfo_tex, missing, leaffaces, leafbrushes, brushes,
                   brushsides, areas, areaportals, bytes(bsp.raw(D.LUMP_VISIBILITY)), bsp.ofs[D.LUMP_VISIBILITY],
                   vis_rows, BrushTree.build(path, VERSION, planes, nodes["planenum"], nodes["children"],
                                             leafs["contents"], leafs["firstleafbrush"], leafs["numleafbrushes"],
                                             leafbrushes, brushes["contents"], brushes["firstside"],
                                             brushes["numsides"], brushsides["planenum"]))
