"""Load a Quake BSP (version 29, BSP2 or 2PSB) into a :class:`~.world.WorldMesh`.

One function per lump, named after the engine's ``Mod_Load*``. Every lump is read whole with
``np.frombuffer`` and validated before anything is derived from it: lumps inside the file, sizes a multiple of
their record, every index (vertices, edges, surfedges, texinfo, planes, miptex, marksurfaces, faces, nodes,
leafs, visibility and lighting offsets) inside its table. Bad input raises only
:class:`~assets_loader.errors.FormatError` subclasses naming the file, byte offset and expectation.

References: Unofficial Quake Specs 3.2, chapter 3 "The BSP files"; Quake ``Mod_LoadBrushModel`` and its
``Mod_Load*`` helpers (gl_model.c), QuakeSpasm's BSP2/2PSB variants of them.
"""

from __future__ import annotations

import numpy as np

from ..budgets import check_budget
from ..errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from ..source import Source, read_source
from . import dtypes as D
from .entities import parse_entities
from .lightmap import build_lightmap, check_light_samples, lightmap_samples
from .lumps import LumpReader
from .mesh import build_mesh, face_geometry, face_models
from .textures import Mod_LoadTextures, placeholder_texture
from .world import FACE, WorldMesh, build_submodels, face_table

LIT_MAGIC = b"QLIT"


class _Bsp(LumpReader):
    """Parsing state for one file: the bytes, its name, version and lump directory."""

    def __init__(self, data: bytes, path: str) -> None:
        size = len(data)
        if size < 4:
            raise TruncatedError(path, "BSP", 0, "a 4-byte BSP version", f"{size} bytes")
        magic = data[:4]
        if magic == D.BSP2_MAGIC:
            version = "BSP2"
        elif magic == D.BSP2RMQ_MAGIC:
            version = "2PSB"
        elif int.from_bytes(magic, "little", signed=True) == D.BSPVERSION:
            version = "BSP29"
        else:
            raise BadMagicError(path, "BSP", 0, "version 29, 'BSP2' or '2PSB'",
                                f"{int.from_bytes(magic, 'little', signed=True)} ({magic!r})")
        super().__init__(data, path, version, D.LUMP_NAMES, 4)
        self.face_t, self.edge_t, self.node_t, self.leaf_t, self.mark_t = D.LAYOUTS[self.version]


def Mod_LoadVertexes(bsp: _Bsp) -> np.ndarray:
    """float32 ``[V, 3]`` vertex positions."""
    return bsp.lump(D.LUMP_VERTEXES, D.D_VERTEX)["point"]


def Mod_LoadEdges(bsp: _Bsp, numvertexes: int) -> np.ndarray:
    """int64 ``[E, 2]`` vertex indices of each edge (checked below ``numvertexes``)."""
    raw = bsp.lump(D.LUMP_EDGES, bsp.edge_t)
    v = raw["v"].astype(np.int64)
    bad = (v >= numvertexes).any(axis=1)
    bsp.bad_index(D.LUMP_EDGES, bsp.edge_t, bad, "v", f"below {numvertexes} vertexes", v.max(axis=1))
    return v


def Mod_LoadSurfedges(bsp: _Bsp, numedges: int) -> np.ndarray:
    """int64 ``[S]`` signed edge numbers (checked: ``|e| < numedges``)."""
    s = bsp.lump(D.LUMP_SURFEDGES, D.D_SURFEDGE).astype(np.int64)
    bad = np.abs(s) >= numedges
    bsp.bad_index(D.LUMP_SURFEDGES, D.D_SURFEDGE, bad, "", f"with |edge| below {numedges}", s)
    return s


def Mod_LoadPlanes(bsp: _Bsp) -> np.ndarray:
    """``D_PLANE`` ``[P]``."""
    return bsp.lump(D.LUMP_PLANES, D.D_PLANE)


def Mod_LoadTexinfo(bsp: _Bsp, numtextures: int) -> tuple[np.ndarray, np.ndarray]:
    """``(texinfo D_TEXINFO [T], texture index int32 [T])``.

    A ``miptex`` outside the texture list maps to index ``numtextures`` (a placeholder the caller appends),
    as QuakeSpasm substitutes its ``notexture`` (``TEX_MISSING``).
    """
    ti = bsp.lump(D.LUMP_TEXINFO, D.D_TEXINFO)
    mt = ti["miptex"].astype(np.int64)
    tex = np.where((mt >= 0) & (mt < numtextures), mt, numtextures).astype(np.int32)
    return ti, tex


def Mod_LoadFaces(bsp: _Bsp, numplanes: int, numtexinfo: int, numsurfedges: int) -> np.ndarray:
    """The face lump (``D_FACE_29`` or ``D_FACE_2``), every index checked."""
    ft = bsp.face_t
    faces = bsp.lump(D.LUMP_FACES, ft)
    L = D.LUMP_FACES
    first = faces["firstedge"].astype(np.int64)
    num = faces["numedges"].astype(np.int64)
    bsp.bad_index(L, ft, num < 0, "numedges", "non-negative", num)
    bsp.bad_index(L, ft, (first < 0) | (first + num > numsurfedges), "firstedge",
                  f"with its numedges inside {numsurfedges} surfedges", first)
    total = int(num.sum())
    if total > 4 * numsurfedges:
        raise BadIndexError(bsp.path, bsp.version, bsp.ofs[L], f"faces using at most {4 * numsurfedges} "
                            "surfedges in all", str(total))
    texinfo = faces["texinfo"].astype(np.int64)
    bsp.bad_index(L, ft, (texinfo < 0) | (texinfo >= numtexinfo), "texinfo", f"below {numtexinfo}", texinfo)
    plane = faces["planenum"].astype(np.int64)
    bsp.bad_index(L, ft, (plane < 0) | (plane >= numplanes), "planenum", f"below {numplanes}", plane)
    lofs = faces["lightofs"].astype(np.int64)
    bsp.bad_index(L, ft, lofs < -1, "lightofs", "-1 or a lighting offset", lofs)
    return faces


def Mod_LoadLighting(bsp: _Bsp, lit: bytes | None, lit_name: str) -> np.ndarray | None:
    """Light samples as uint8 ``[L, 3]`` (a ``.lit`` file's colours, or the grey lump broadcast to RGB).

    ``None`` when the map has no lighting lump. A ``.lit`` must start with ``"QLIT"``, version 1, and hold
    exactly 3 bytes per grey sample.
    """
    grey = np.frombuffer(bsp.data, np.uint8, bsp.lens[D.LUMP_LIGHTING], bsp.ofs[D.LUMP_LIGHTING])
    if lit is None:
        return np.broadcast_to(grey[:, None], (len(grey), 3)) if len(grey) else None
    if len(lit) < 8 or lit[:4] != LIT_MAGIC:
        raise BadMagicError(lit_name, "LIT", 0, "magic 'QLIT'", repr(bytes(lit[:4])))
    version = int.from_bytes(lit[4:8], "little", signed=True)
    if version != 1:
        raise BadMagicError(lit_name, "LIT", 4, "version 1", str(version))
    if len(lit) - 8 != 3 * len(grey):
        raise TruncatedError(lit_name, "LIT", 8, f"{3 * len(grey)} bytes of RGB samples (3 per BSP sample)",
                             f"{len(lit) - 8} bytes")
    if not len(grey):
        return None
    return np.frombuffer(lit, np.uint8, 3 * len(grey), 8).reshape(-1, 3)


def Mod_LoadMarksurfaces(bsp: _Bsp, numfaces: int) -> np.ndarray:
    """uint32 ``[M]`` face indices (checked below ``numfaces``)."""
    m = bsp.lump(D.LUMP_MARKSURFACES, bsp.mark_t)
    bsp.bad_index(D.LUMP_MARKSURFACES, bsp.mark_t, m >= numfaces, "", f"below {numfaces} faces", m)
    return m.astype(np.uint32)


def Mod_LoadLeafs(bsp: _Bsp, nummarksurfaces: int, vislen: int) -> np.ndarray:
    """``M_LEAF`` ``[L]`` with marksurface ranges and vis offsets checked."""
    lt = bsp.leaf_t
    raw = bsp.lump(D.LUMP_LEAFS, lt)
    L = D.LUMP_LEAFS
    first = raw["firstmarksurface"].astype(np.int64)
    num = raw["nummarksurfaces"].astype(np.int64)
    bsp.bad_index(L, lt, first + num > nummarksurfaces, "firstmarksurface",
                  f"with nummarksurfaces inside {nummarksurfaces} marksurfaces", first)
    visofs = raw["visofs"].astype(np.int64)
    if vislen:  # without vis data every leaf sees everything and visofs is ignored, as in the engine
        bsp.bad_index(L, lt, (visofs < -1) | (visofs >= vislen), "visofs",
                      f"-1 or inside the {vislen}-byte visibility lump", visofs)
    out = np.zeros(len(raw), D.M_LEAF)
    for name in D.M_LEAF.names or ():
        out[name] = raw[name]
    return out


def Mod_LoadNodes(bsp: _Bsp, numplanes: int, numleafs: int, numfaces: int) -> np.ndarray:
    """``M_NODE`` ``[N]``: children ``>= 0`` are nodes, ``< 0`` are ``-(leaf + 1)``; all indices checked.

    BSP29 children are unsigned shorts: values below the node count are nodes, the rest leafs ``65535 - c``
    (QuakeSpasm's reading, which lifts the 32k node limit).
    """
    nt = bsp.node_t
    raw = bsp.lump(D.LUMP_NODES, nt)
    L = D.LUMP_NODES
    n = len(raw)
    plane = raw["planenum"].astype(np.int64)
    bsp.bad_index(L, nt, (plane < 0) | (plane >= numplanes), "planenum", f"below {numplanes}", plane)
    c = raw["children"].astype(np.int64)
    if bsp.version == "BSP29":
        is_node = c < n
        leaf = 65535 - c
    else:
        is_node = c >= 0
        leaf = -1 - c
    bad = (is_node & (c >= n)) | (~is_node & (leaf >= numleafs))
    bsp.bad_index(L, nt, bad.any(axis=1), "children", f"below {n} nodes or naming one of {numleafs} leafs",
                  c.tolist())
    ff = raw["firstface"].astype(np.int64)
    bsp.bad_index(L, nt, ff + raw["numfaces"].astype(np.int64) > numfaces, "firstface",
                  f"with numfaces inside {numfaces} faces", ff)
    out = np.zeros(n, D.M_NODE)
    out["planenum"] = plane
    out["children"] = np.where(is_node, c, -1 - leaf)
    for name in ("mins", "maxs", "firstface", "numfaces"):
        out[name] = raw[name]
    return out


def Mod_LoadSubmodels(bsp: _Bsp, numfaces: int, numnodes: int, numleafs: int) -> np.ndarray:
    """``D_MODEL`` ``[M]`` (at least one: the world), face ranges and head nodes checked."""
    models = bsp.lump(D.LUMP_MODELS, D.D_MODEL)
    L = D.LUMP_MODELS
    if len(models) == 0:
        raise FormatError(bsp.path, bsp.version, 4 + 8 * L, "at least one model (the world)", "none")
    ff = models["firstface"].astype(np.int64)
    nf = models["numfaces"].astype(np.int64)
    bsp.bad_index(L, D.D_MODEL, (ff < 0) | (nf < 0) | (ff + nf > numfaces), "firstface",
                  f"with numfaces inside {numfaces} faces", ff)
    head = models["headnode"][:, 0].astype(np.int64)
    bad = np.where(head >= 0, head >= numnodes, -1 - head >= numleafs)
    bsp.bad_index(L, D.D_MODEL, bad, "headnode", f"a node below {numnodes} or one of {numleafs} leafs", head)
    vl = models["visleafs"].astype(np.int64)
    bsp.bad_index(L, D.D_MODEL, (vl < 0) | (vl > numleafs), "visleafs", f"between 0 and {numleafs}", vl)
    return models


def check_map_budgets(path: str, fmt: str, numedges: np.ndarray, *leaf_counts: np.ndarray) -> None:
    """Raise ``OverBudgetError`` before triangulating more face vertices (one per edge, however often faces share
    a surfedge range) or gathering more leaf references (``leaf_counts``: marksurfaces, leaf faces or brushes
    per leaf) than the map budgets allow."""
    vertices = int(numedges.astype(np.int64).sum())
    check_budget(path, fmt, "map_vertices", vertices, "face vertices")
    check_budget(path, fmt, "map_indices", 3 * vertices, "triangle indices")
    check_budget(path, fmt, "leaf_references", sum(int(c.astype(np.int64).sum()) for c in leaf_counts),
                 "leaf face and brush references")


def load_bsp(src: Source, name: str | None = None, lit: Source | None = None,
             lit_name: str | None = None) -> WorldMesh:
    """Load a BSP29, BSP2 or 2PSB map from bytes or a path.

    ``lit``: the matching ``.lit`` file (bytes or path) for coloured lighting; without it the grey lightmaps
    are expanded to RGB. Raises only :class:`~assets_loader.errors.FormatError` subclasses for bad data
    (and ``OSError`` if a path cannot be read).
    """
    data, path = read_source(src, name, "map")
    lit_bytes: bytes | None = None
    if lit is not None:
        lit_bytes, lit_name = read_source(lit, lit_name, "map")
        if lit_name == "<bytes>":
            lit_name = f"{path} (.lit)"
    bsp = _Bsp(data, path)

    # geometry tables
    planes = Mod_LoadPlanes(bsp)
    vertexes = Mod_LoadVertexes(bsp)
    edges = Mod_LoadEdges(bsp, len(vertexes))
    surfedges = Mod_LoadSurfedges(bsp, len(edges))
    textures = Mod_LoadTextures(data, bsp.ofs[D.LUMP_TEXTURES], bsp.lens[D.LUMP_TEXTURES], path)
    texinfo, texinfo_tex = Mod_LoadTexinfo(bsp, len(textures))
    if (texinfo_tex == len(textures)).any():
        textures.append(placeholder_texture("notexture"))
    faces_raw = Mod_LoadFaces(bsp, len(planes), len(texinfo), len(surfedges))
    samples = Mod_LoadLighting(bsp, lit_bytes, lit_name or f"{path} (.lit)")
    vislen = bsp.lens[D.LUMP_VISIBILITY]
    marksurfaces = Mod_LoadMarksurfaces(bsp, len(faces_raw))
    leafs = Mod_LoadLeafs(bsp, len(marksurfaces), vislen)
    check_map_budgets(path, bsp.version, faces_raw["numedges"], leafs["nummarksurfaces"])
    nodes = Mod_LoadNodes(bsp, len(planes), len(leafs), len(faces_raw))
    models = Mod_LoadSubmodels(bsp, len(faces_raw), len(nodes), len(leafs))
    ent_raw = bsp.raw(D.LUMP_ENTITIES)
    entities = tuple(parse_entities(ent_raw, path, bsp.ofs[D.LUMP_ENTITIES]))

    nf = len(faces_raw)
    face_ti = faces_raw["texinfo"].astype(np.int64)
    face_tex = texinfo_tex[face_ti]
    is_sky = np.array([t.is_sky for t in textures], bool)
    is_liquid = np.array([t.is_liquid for t in textures], bool)
    special = (is_sky | is_liquid)[face_tex] if nf else np.zeros(0, bool)

    geom = face_geometry(faces_raw["firstedge"], faces_raw["numedges"], surfedges, edges, vertexes,
                         texinfo["vecs"][face_ti])

    # lightmaps: which faces have one, and are their samples inside the lump?
    lightofs = faces_raw["lightofs"].astype(np.int64)
    styles = np.ascontiguousarray(faces_raw["styles"])
    has_light = (lightofs >= 0) & ~special & (samples is not None)
    need = lightmap_samples(geom.extents, styles, has_light)
    check_budget(path, bsp.version, "lightmap_texels", int(need.sum()), "lightmap texels (samples × styles)")
    check_light_samples(bsp, D.LUMP_FACES, bsp.face_t, lightofs, need, 0 if samples is None else len(samples),
                        "samples")
    lightmap = build_lightmap(samples, lightofs, styles, geom.extents, has_light, special)

    face_model = face_models(models["firstface"], models["numfaces"], nf)
    sizes = np.array([(t.width, t.height) for t in textures], np.float64).reshape(-1, 2)
    mesh = build_mesh(geom, face_model, face_tex, sizes, lightmap, styles, has_light)
    face_info = face_table(FACE, geom, faces_raw, face_model, face_tex, face_ti, styles,
                           np.where(has_light, lightofs, -1))
    vertices, indices, draws = mesh.vertices, mesh.indices, mesh.draws
    face_first, face_count = mesh.face_first, mesh.face_count

    submodels = build_submodels(models, draws)
    for arr in (face_info, leafs, nodes, marksurfaces, vertices, indices, draws, lightmap.atlas,
                lightmap.rects, lightmap.num_styles, face_first, face_count):
        arr.flags.writeable = False
    return WorldMesh(path, bsp.version, mesh, tuple(textures), submodels, entities, lightmap, face_info, texinfo,
                     planes, nodes, leafs, marksurfaces, bytes(bsp.raw(D.LUMP_VISIBILITY)), bsp.ofs[D.LUMP_VISIBILITY],
                     lit_bytes is not None)
