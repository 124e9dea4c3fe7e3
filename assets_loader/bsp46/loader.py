"""Load a Quake III map (IBSP version 46) into a :class:`~.world.Bsp46World`.

Every lump is read with ``np.frombuffer`` and validated before use: lumps inside the file, sizes a multiple of
their record, every index (planes, children, leaf surfaces and brushes, brush sides, shaders, fogs, vertex and
index ranges, triangle indices, patch sizes, lightmap numbers, clusters) inside its table. Bad input raises only
:class:`~assets_loader.errors.FormatError` subclasses naming the file, byte offset and expectation.

Surfaces become renderer-ready triangles like ``R_LoadSurfaces`` prepares them: planar faces and triangle soups
keep their vertices and indices, patches are tessellated (:mod:`.patch`), flares and ``nodraw`` surfaces draw
nothing. Triangle soups and flares find their shader with ``LIGHTMAP_BY_VERTEX``, as the engine does.

References: ioquake3 ``qcommon/qfiles.h``; ``renderergl1/tr_bsp.c`` (``RE_LoadWorldMap``, ``R_LoadShaders``,
``R_LoadSurfaces``, ``ParseFace``, ``ParseMesh``, ``ParseTriSurf``, ``ParseFlare``, ``R_LoadNodesAndLeafs``,
``R_LoadSubmodels``, ``R_LoadFogs``, ``R_LoadVisibility``, ``R_LoadEntities``); ``qcommon/cm_load.c``.
"""

from __future__ import annotations

import numpy as np

from ..bsp.brush_trace import BrushTree
from ..bsp.entities import parse_entities
from ..budgets import check_budget
from ..errors import BadIndexError, BadMagicError, TruncatedError
from ..ranges import range_positions
from ..source import Source, read_source
from . import dtypes as D
from .lighting import DEFAULT_OVERBRIGHT_SHIFT, build_atlas, build_light_grid, color_shift, vec3
from .patch import PATCH_LEVEL, tessellate
from .world import BATCH, DRAW_VERTEX, SURFACE, Bsp46World, Fog, Submodel46

_FMT = "BSP46"


class _Bsp46:
    """The bytes, name and lump directory of one file, with bounds-checked lump access."""

    def __init__(self, data: bytes, path: str) -> None:
        self.data = data
        self.path = path
        size = len(data)
        if size < 8:
            raise TruncatedError(path, _FMT, 0, "an 8-byte IBSP header", f"{size} bytes")
        if data[:4] != D.BSP_IDENT:
            raise BadMagicError(path, _FMT, 0, "magic 'IBSP'", repr(data[:4]))
        version = int.from_bytes(data[4:8], "little", signed=True)
        if version != D.BSP_VERSION:
            raise BadMagicError(path, _FMT, 4, f"version {D.BSP_VERSION}", str(version))
        if size < D.D_HEADER.itemsize:
            raise TruncatedError(path, _FMT, 8, f"{D.HEADER_LUMPS} lump entries", f"{size - 8} bytes")
        lumps = np.frombuffer(data, D.D_HEADER, 1)[0]["lumps"]
        ofs = lumps["fileofs"].astype(np.int64)
        lens = lumps["filelen"].astype(np.int64)
        bad = (ofs < 0) | (lens < 0) | (ofs + lens > size)
        if bad.any():
            i = int(np.argmax(bad))
            raise TruncatedError(path, _FMT, 8 + 8 * i, f"the {D.LUMP_NAMES[i]} lump inside the file (size {size})",
                                 f"offset {int(ofs[i])} length {int(lens[i])}")
        self.ofs = ofs.tolist()
        self.lens = lens.tolist()

    def lump(self, index: int, dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        length = self.lens[index]
        if length % dtype.itemsize:
            raise TruncatedError(self.path, _FMT, 8 + 8 * index + 4,
                                 f"a {D.LUMP_NAMES[index]} lump size that is a multiple of {dtype.itemsize}",
                                 str(length))
        return np.frombuffer(self.data, dtype, length // dtype.itemsize, self.ofs[index])

    def raw(self, index: int) -> memoryview:
        return memoryview(self.data)[self.ofs[index]:self.ofs[index] + self.lens[index]]

    def check(self, index: int, dtype, bad, field: str, expected: str, values: np.ndarray) -> None:
        """Raise ``BadIndexError`` at the first record flagged in ``bad`` (no-op if none)."""
        if not bad.any():
            return
        i = int(np.argmax(bad))
        dtype = np.dtype(dtype)
        field_ofs = dtype.fields[field][1] if dtype.fields and field in dtype.fields else 0
        raise BadIndexError(self.path, _FMT, self.ofs[index] + i * dtype.itemsize + field_ofs,
                            f"{D.LUMP_NAMES[index]}[{i}].{field} {expected}", str(values[i]))

    def check_range(self, index: int, dtype, first: str, count: str, total: int, recs: np.ndarray,
                    mask: np.ndarray | bool = True) -> None:
        """Check ``recs[first] .. + recs[count]`` lies in a table of ``total`` entries (where ``mask``)."""
        f = recs[first].astype(np.int64)
        n = recs[count].astype(np.int64)
        self.check(index, dtype, mask & ((f < 0) | (n < 0) | (f + n > total)), first,
                   f"with {count} inside a table of {total}", f)


def _check_children(bsp: _Bsp46, nodes: np.ndarray, num_leafs: int) -> None:
    ch = nodes["children"].astype(np.int64)
    bad = ((ch >= 0) & (ch >= len(nodes))) | ((ch < 0) & (-ch - 1 >= num_leafs))
    bsp.check(D.LUMP_NODES, D.D_NODE, bad.any(axis=1), "children",
              f"below {len(nodes)} nodes or -(leaf+1) for {num_leafs} leafs", ch.min(axis=1))
    # A child must come after its parent, or a walk could loop (q3map writes nodes depth first).
    order = np.arange(len(nodes))[:, None]
    bsp.check(D.LUMP_NODES, D.D_NODE, ((ch >= 0) & (ch <= order)).any(axis=1), "children",
              "numbered after their parent node", ch.max(axis=1))


def _load_visibility(bsp: _Bsp46) -> tuple[int, int, bytes]:
    raw = bsp.raw(D.LUMP_VISIBILITY)
    if len(raw) == 0:
        return 0, 0, b""
    ofs = bsp.ofs[D.LUMP_VISIBILITY]
    if len(raw) < 8:
        raise TruncatedError(bsp.path, _FMT, ofs, "numClusters and clusterBytes", f"{len(raw)} bytes")
    num_clusters, cluster_bytes = (int(v) for v in np.frombuffer(raw, "<i4", 2))
    if num_clusters < 0 or cluster_bytes < (num_clusters + 7) // 8:
        raise BadIndexError(bsp.path, _FMT, ofs, "clusterBytes covering numClusters bits",
                            f"{num_clusters} clusters, {cluster_bytes} bytes")
    need = num_clusters * cluster_bytes
    if 8 + need > len(raw):
        raise TruncatedError(bsp.path, _FMT, ofs + 8, f"{need} bytes of cluster visibility", f"{len(raw) - 8}")
    return num_clusters, cluster_bytes, bytes(raw[8:8 + need])


def _grid_size(worldspawn: dict[str, str]) -> tuple[float, float, float]:
    """The ``gridsize`` worldspawn key (``R_LoadEntities``), or the default 64 64 128."""
    parts = worldspawn.get("gridsize", "").split()
    try:
        values = [float(p) for p in parts]
    except ValueError:
        return D.LIGHTGRID_SIZE
    if len(values) != 3:
        return D.LIGHTGRID_SIZE
    return values[0], values[1], values[2]


def _fogs(bsp: _Bsp46, brushes: np.ndarray, sides: np.ndarray, planes: np.ndarray) -> tuple[Fog, ...]:
    """``R_LoadFogs``: the box of each fog brush from its first six (axial) sides."""
    fogs = bsp.lump(D.LUMP_FOGS, D.D_FOG)
    brush = fogs["brushNum"].astype(np.int64)
    bsp.check(D.LUMP_FOGS, D.D_FOG, (brush < 0) | (brush >= len(brushes)), "brushNum",
              f"below {len(brushes)} brushes", brush)
    if len(fogs) == 0:
        return ()
    nsides = brushes["numSides"][brush]
    bsp.check(D.LUMP_FOGS, D.D_FOG, nsides < 6, "brushNum", "a brush with 6 axial sides", nsides)
    vis = fogs["visibleSide"].astype(np.int64)
    bsp.check(D.LUMP_FOGS, D.D_FOG, (vis < -1) | (vis >= nsides), "visibleSide", "-1 or one of the brush's sides",
              vis)
    out = []
    for i, rec in enumerate(fogs):
        first = int(brushes["firstSide"][brush[i]])
        plane_nums = sides["planeNum"][first:first + 6]
        dists = planes["dist"][plane_nums]
        mins = (-float(dists[0]), -float(dists[2]), -float(dists[4]))
        maxs = (float(dists[1]), float(dists[3]), float(dists[5]))
        surface = None
        if vis[i] >= 0:
            plane = planes[int(sides["planeNum"][first + vis[i]])]
            n = -plane["normal"]
            surface = (float(n[0]), float(n[1]), float(n[2]), -float(plane["dist"]))
        name = rec["shader"].split(b"\0", 1)[0].decode("latin-1")
        out.append(Fog(name, int(brush[i]), mins, maxs, surface))
    return tuple(out)


def _wind_like_faces(grid: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Patch triangles in the winding of planar faces: clockwise seen from the side the normals face."""
    p = grid[:, 0:3]
    a, b, c = p[tris[:, 0]], p[tris[:, 1]], p[tris[:, 2]]
    facing = np.einsum("ij,ij->", np.cross(b - a, c - a), grid[tris[:, 0], 7:10])
    return tris[:, ::-1] if facing > 0 else tris


def _grid_vertices(grid: np.ndarray) -> np.ndarray:
    """A tessellated patch grid (float64 attributes) as ``DRAW_VERTEX`` records, normals renormalised, colours
    rounded; made at once so the float64 grids of a map's patches are never all held together."""
    out = np.zeros(len(grid), DRAW_VERTEX)
    out["position"] = grid[:, 0:3]
    out["st"] = grid[:, 3:5]
    out["lightmap"] = grid[:, 5:7]
    with np.errstate(invalid="ignore", divide="ignore"):
        normal = grid[:, 7:10] / np.linalg.norm(grid[:, 7:10], axis=1, keepdims=True)
    out["normal"] = np.nan_to_num(normal)
    out["color"] = np.clip(np.rint(np.nan_to_num(grid[:, 10:14])), 0, 255)
    return out


def _surface_geometry(surfs: np.ndarray, verts: np.ndarray, indexes: np.ndarray,
                      nodraw: np.ndarray, level: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per surface: vertex records (``D_DRAWVERT``, or ``DRAW_VERTEX`` for patches) and local triangle indices."""
    kinds = surfs["surfaceType"]
    out_verts: list[np.ndarray] = []
    out_tris: list[np.ndarray] = []
    empty_i = np.zeros(0, np.int32)
    for s, rec in enumerate(surfs):
        kind = int(kinds[s])
        fv, nv = int(rec["firstVert"]), int(rec["numVerts"])
        if kind == D.MST_PATCH and not nodraw[s]:
            control = verts[fv:fv + nv]
            attrs = np.concatenate([control["xyz"], control["st"], control["lightmap"], control["normal"],
                                    control["color"]], axis=1, dtype=np.float64)
            grid, tris = tessellate(attrs, int(rec["patchWidth"]), int(rec["patchHeight"]), level)
            out_verts.append(_grid_vertices(grid))
            tris = _wind_like_faces(grid, tris)
            out_tris.append(tris.ravel().astype(np.int32))
        elif kind in (D.MST_PLANAR, D.MST_TRIANGLE_SOUP) and not nodraw[s]:
            fi, ni = int(rec["firstIndex"]), int(rec["numIndexes"])
            out_verts.append(verts[fv:fv + nv])
            out_tris.append(indexes[fi:fi + ni])
        else:
            out_verts.append(verts[fv:fv])
            out_tris.append(empty_i)
    return out_verts, out_tris


def _check_output_budget(path: str, surfs: np.ndarray, level: int) -> None:
    """Raise ``OverBudgetError`` before building more vertices or indices than the map budgets allow: planar
    faces and triangle soups copy their ranges (however often surfaces share one), each patch becomes a grid of
    ``(level * (w - 1) / 2 + 1) × (level * (h - 1) / 2 + 1)`` vertices and 6 indices per grid cell."""
    kinds = surfs["surfaceType"]
    drawn = (kinds == D.MST_PLANAR) | (kinds == D.MST_TRIANGLE_SOUP)
    patch = kinds == D.MST_PATCH
    rows = level * (surfs["patchHeight"].astype(np.int64) - 1) // 2 + 1
    cols = level * (surfs["patchWidth"].astype(np.int64) - 1) // 2 + 1
    verts = np.where(drawn, surfs["numVerts"], 0).sum() + np.where(patch, rows * cols, 0).sum()
    check_budget(path, _FMT, "map_vertices", int(verts), "vertices after patch tessellation")
    indices = np.where(drawn, surfs["numIndexes"], 0).sum() + np.where(patch, 6 * (rows - 1) * (cols - 1), 0).sum()
    check_budget(path, _FMT, "map_indices", int(indices), "triangle indices after patch tessellation")


def _validate_surfaces(bsp: _Bsp46, surfs: np.ndarray, nverts: int, indexes: np.ndarray, nshaders: int,
                       nfogs: int, nlightmaps: int, level: int) -> None:
    T, L = D.D_SURFACE, D.LUMP_SURFACES
    bsp.check(L, T, (surfs["shaderNum"] < 0) | (surfs["shaderNum"] >= nshaders), "shaderNum",
              f"below {nshaders} shaders", surfs["shaderNum"])
    bsp.check(L, T, (surfs["fogNum"] < -1) | (surfs["fogNum"] >= nfogs), "fogNum", f"-1 or below {nfogs} fogs",
              surfs["fogNum"])
    kinds = surfs["surfaceType"]
    bsp.check(L, T, (kinds < D.MST_BAD) | (kinds > D.MST_FLARE), "surfaceType", "0..4 (MST_*)", kinds)
    bsp.check_range(L, T, "firstVert", "numVerts", nverts, surfs)
    drawn = (kinds == D.MST_PLANAR) | (kinds == D.MST_TRIANGLE_SOUP)
    bsp.check_range(L, T, "firstIndex", "numIndexes", len(indexes), surfs, drawn)
    bsp.check(L, T, drawn & (surfs["numIndexes"] % 3 != 0), "numIndexes", "a multiple of 3", surfs["numIndexes"])
    lm = surfs["lightmapNum"]
    bsp.check(L, T, ((kinds == D.MST_PLANAR) | (kinds == D.MST_PATCH)) & (lm >= nlightmaps), "lightmapNum",
              f"below {nlightmaps} lightmaps", lm)
    patch = kinds == D.MST_PATCH
    w, h = surfs["patchWidth"].astype(np.int64), surfs["patchHeight"].astype(np.int64)
    bad_patch = patch & ((w < 3) | (h < 3) | (w % 2 == 0) | (h % 2 == 0) | (w > D.MAX_PATCH_SIZE)
                         | (h > D.MAX_PATCH_SIZE) | (w * h != surfs["numVerts"]))
    bsp.check(L, T, bad_patch, "patchWidth", f"odd sizes 3..{D.MAX_PATCH_SIZE} matching numVerts", w * 100 + h)
    _check_output_budget(bsp.path, surfs, level)
    # Triangle indices are relative to the surface's first vertex.
    sel = np.flatnonzero(drawn & (surfs["numIndexes"] > 0))
    if len(sel):
        counts = surfs["numIndexes"][sel].astype(np.int64)
        starts = surfs["firstIndex"][sel].astype(np.int64)
        flat = range_positions(starts, counts)
        limit = np.repeat(surfs["numVerts"][sel].astype(np.int64), counts)
        values = indexes[flat]
        bad_idx = (values < 0) | (values >= limit)
        if bad_idx.any():
            k = int(np.argmax(bad_idx))
            owner = int(sel[np.searchsorted(np.cumsum(counts), k, side="right")])
            raise BadIndexError(bsp.path, _FMT, bsp.ofs[D.LUMP_DRAWINDEXES] + 4 * int(flat[k]),
                                f"an index below surface {owner}'s numVerts {int(limit[k])}", str(int(values[k])))


def _assemble(surfs: np.ndarray, surf_model: np.ndarray, shader_lightmap: np.ndarray, parts_v: list[np.ndarray],
              parts_i: list[np.ndarray], shift: int, atlas) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Concatenate surfaces into one vertex array and one index array sorted into batches."""
    n = len(surfs)
    counts_v = np.array([len(v) for v in parts_v], np.int64)
    first_v = np.concatenate([[0], np.cumsum(counts_v)])[:-1] if n else np.zeros(0, np.int64)
    vertices = np.zeros(int(counts_v.sum()), DRAW_VERTEX)
    lm_num = np.repeat(shader_lightmap, counts_v)
    for s, part in enumerate(parts_v):
        if not len(part):
            continue
        dst = vertices[first_v[s]:first_v[s] + len(part)]
        if part.dtype == D.D_DRAWVERT:
            dst["position"] = part["xyz"]
            dst["st"] = part["st"]
            dst["lightmap"] = part["lightmap"]
            dst["normal"] = part["normal"]
            dst["color"] = part["color"]
        else:
            dst[:] = part
    vertices["color"][:, :3] = color_shift(vertices["color"][:, :3], shift)
    vertices["lightmap"] = atlas.remap(vertices["lightmap"], lm_num)
    # Batches: model, shader, lightmap mode (0 = atlas, else LIGHTMAP_*), fog.
    mode = np.where(shader_lightmap >= 0, 0, shader_lightmap)
    order = np.lexsort((surfs["fogNum"], mode, surfs["shaderNum"], surf_model))
    counts_i = np.array([len(i) for i in parts_i], np.int64)
    first_i_sorted = np.concatenate([[0], np.cumsum(counts_i[order])])[:-1] if n else np.zeros(0, np.int64)
    indices = np.zeros(int(counts_i.sum()), np.uint32)
    for s, start in zip(order.tolist(), first_i_sorted.tolist(), strict=True):
        indices[start:start + counts_i[s]] = parts_i[s] + first_v[s]
    first_i = np.zeros(n, np.int64)
    first_i[order] = first_i_sorted
    out = np.zeros(n, SURFACE)
    out["model"] = surf_model
    out["shader"] = surfs["shaderNum"]
    out["fog"] = surfs["fogNum"]
    out["kind"] = surfs["surfaceType"]
    out["lightmap"] = shader_lightmap
    out["first_index"] = first_i
    out["num_indices"] = counts_i
    out["first_vertex"] = first_v
    out["num_vertices"] = counts_v
    out["patch_size"][:, 0] = np.where(surfs["surfaceType"] == D.MST_PATCH, surfs["patchWidth"], 0)
    out["patch_size"][:, 1] = np.where(surfs["surfaceType"] == D.MST_PATCH, surfs["patchHeight"], 0)
    batches = []
    key_prev = None
    for s in order:
        if counts_i[s] == 0:
            continue
        key = (int(surf_model[s]), int(surfs["shaderNum"][s]), int(mode[s]), int(surfs["fogNum"][s]))
        if key != key_prev:
            batches.append([*key, int(first_i[s]), 0])
            key_prev = key
        batches[-1][5] += int(counts_i[s])
    table = np.zeros(len(batches), BATCH)
    for b, row in enumerate(batches):
        table[b] = tuple(row)
    return vertices, indices, out, table


def load_bsp46(src: Source, name: str | None = None, overbright_shift: int = DEFAULT_OVERBRIGHT_SHIFT,
               patch_level: int = PATCH_LEVEL) -> Bsp46World:
    """Load an IBSP v46 map from a path or bytes."""
    data, path = read_source(src, name, "map")
    bsp = _Bsp46(data, path)
    shaders = bsp.lump(D.LUMP_SHADERS, D.D_SHADER)
    planes = bsp.lump(D.LUMP_PLANES, D.D_PLANE)
    nodes = bsp.lump(D.LUMP_NODES, D.D_NODE)
    leafs = bsp.lump(D.LUMP_LEAFS, D.D_LEAF)
    leaf_surfaces = bsp.lump(D.LUMP_LEAFSURFACES, "<i4")
    leaf_brushes = bsp.lump(D.LUMP_LEAFBRUSHES, "<i4")
    models = bsp.lump(D.LUMP_MODELS, D.D_MODEL)
    brushes = bsp.lump(D.LUMP_BRUSHES, D.D_BRUSH)
    sides = bsp.lump(D.LUMP_BRUSHSIDES, D.D_BRUSHSIDE)
    verts = bsp.lump(D.LUMP_DRAWVERTS, D.D_DRAWVERT)
    indexes = bsp.lump(D.LUMP_DRAWINDEXES, "<i4")
    surfs = bsp.lump(D.LUMP_SURFACES, D.D_SURFACE)
    nshaders, nplanes = len(shaders), len(planes)
    if len(models) == 0:
        raise TruncatedError(path, _FMT, bsp.ofs[D.LUMP_MODELS], "at least the world model", "no models")
    if len(nodes) == 0:
        raise TruncatedError(path, _FMT, bsp.ofs[D.LUMP_NODES], "at least one node", "no nodes")
    bsp.check(D.LUMP_NODES, D.D_NODE, (nodes["planeNum"] < 0) | (nodes["planeNum"] >= nplanes), "planeNum",
              f"below {nplanes} planes", nodes["planeNum"])
    _check_children(bsp, nodes, len(leafs))
    bsp.check_range(D.LUMP_LEAFS, D.D_LEAF, "firstLeafSurface", "numLeafSurfaces", len(leaf_surfaces), leafs)
    bsp.check_range(D.LUMP_LEAFS, D.D_LEAF, "firstLeafBrush", "numLeafBrushes", len(leaf_brushes), leafs)
    check_budget(path, _FMT, "leaf_references", int(leafs["numLeafSurfaces"].astype(np.int64).sum()
                                                    + leafs["numLeafBrushes"].astype(np.int64).sum()),
                 "leaf surface and brush references")
    bsp.check(D.LUMP_LEAFSURFACES, "<i4", (leaf_surfaces < 0) | (leaf_surfaces >= len(surfs)), "",
              f"below {len(surfs)} surfaces", leaf_surfaces)
    bsp.check(D.LUMP_LEAFBRUSHES, "<i4", (leaf_brushes < 0) | (leaf_brushes >= len(brushes)), "",
              f"below {len(brushes)} brushes", leaf_brushes)
    bsp.check_range(D.LUMP_MODELS, D.D_MODEL, "firstSurface", "numSurfaces", len(surfs), models)
    bsp.check_range(D.LUMP_MODELS, D.D_MODEL, "firstBrush", "numBrushes", len(brushes), models)
    bsp.check_range(D.LUMP_BRUSHES, D.D_BRUSH, "firstSide", "numSides", len(sides), brushes)
    bsp.check(D.LUMP_BRUSHES, D.D_BRUSH, (brushes["shaderNum"] < 0) | (brushes["shaderNum"] >= nshaders),
              "shaderNum", f"below {nshaders} shaders", brushes["shaderNum"])
    bsp.check(D.LUMP_BRUSHSIDES, D.D_BRUSHSIDE, (sides["planeNum"] < 0) | (sides["planeNum"] >= nplanes),
              "planeNum", f"below {nplanes} planes", sides["planeNum"])
    bsp.check(D.LUMP_BRUSHSIDES, D.D_BRUSHSIDE, (sides["shaderNum"] < -1) | (sides["shaderNum"] >= nshaders),
              "shaderNum", f"-1 or below {nshaders} shaders", sides["shaderNum"])
    num_clusters, cluster_bytes, visdata = _load_visibility(bsp)
    bad_cluster = (leafs["cluster"] < -1) | ((leafs["cluster"] >= num_clusters) if visdata else False)
    bsp.check(D.LUMP_LEAFS, D.D_LEAF, np.asarray(bad_cluster), "cluster", f"-1 or below {num_clusters} clusters",
              leafs["cluster"])
    fogs = _fogs(bsp, brushes, sides, planes)
    atlas = build_atlas(bsp.raw(D.LUMP_LIGHTMAPS), overbright_shift)
    _validate_surfaces(bsp, surfs, len(verts), indexes, nshaders, len(fogs), atlas.count, patch_level)
    entities = tuple(parse_entities(bsp.raw(D.LUMP_ENTITIES), path, bsp.ofs[D.LUMP_ENTITIES]))

    kinds = surfs["surfaceType"]
    shader_lightmap = np.where((kinds == D.MST_TRIANGLE_SOUP) | (kinds == D.MST_FLARE), D.LIGHTMAP_BY_VERTEX,
                               surfs["lightmapNum"]).astype(np.int32)
    shader_lightmap = np.where(shader_lightmap < D.LIGHTMAP_2D, D.LIGHTMAP_NONE, shader_lightmap)
    nodraw = (shaders["surfaceFlags"][surfs["shaderNum"]] & D.SURF_NODRAW) != 0 if len(surfs) else np.zeros(0, bool)
    surf_model = np.full(len(surfs), -1, np.int32)
    for m in range(len(models) - 1, -1, -1):
        first = int(models["firstSurface"][m])
        surf_model[first:first + int(models["numSurfaces"][m])] = m
    parts_v, parts_i = _surface_geometry(surfs, verts, indexes, nodraw, patch_level)
    vertices, indices, surface_table, batches = _assemble(surfs, surf_model, shader_lightmap, parts_v, parts_i,
                                                          overbright_shift, atlas)
    first_batch = np.searchsorted(batches["model"], np.arange(len(models)), side="left")
    last_batch = np.searchsorted(batches["model"], np.arange(len(models)), side="right")
    submodels = tuple(
        Submodel46(m, vec3(models["mins"][m]), vec3(models["maxs"][m]),
                   int(models["firstSurface"][m]), int(models["numSurfaces"][m]), int(models["firstBrush"][m]),
                   int(models["numBrushes"][m]), int(first_batch[m]), int(last_batch[m] - first_batch[m]))
        for m in range(len(models)))
    worldspawn = next((e for e in entities if e.get("classname") == "worldspawn"), {})
    grid = build_light_grid(bsp.raw(D.LUMP_LIGHTGRID), models["mins"][0], models["maxs"][0],
                            _grid_size(worldspawn), overbright_shift)
    names = tuple(n.split(b"\0", 1)[0].decode("latin-1") for n in shaders["shader"])
    return Bsp46World(path, entities, shaders, names, planes, nodes, leafs, leaf_surfaces, leaf_brushes, submodels,
                      brushes, sides, fogs, surface_table, vertices, indices, batches, atlas, grid, num_clusters,
                      cluster_bytes, visdata, overbright_shift, _collision(path, shaders, planes, nodes, leafs,
                                                                            leaf_brushes, brushes, sides))


def _collision(path: str, shaders: np.ndarray, planes: np.ndarray, nodes: np.ndarray, leafs: np.ndarray,
               leaf_brushes: np.ndarray, brushes: np.ndarray, sides: np.ndarray) -> BrushTree:
    """The brush tree of ``CM_LoadMap``: each brush's contents are its shader's ``contentFlags``; a leaf's the
    union of its brushes' (so a trace skips leafs with nothing that could stop it)."""
    brush_contents = shaders["contentFlags"][brushes["shaderNum"]].astype(np.int64)
    first, count = leafs["firstLeafBrush"].astype(np.int64), leafs["numLeafBrushes"].astype(np.int64)
    leaf_of = np.repeat(np.arange(len(leafs)), count)
    listed = leaf_brushes[np.repeat(first, count) + np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count,
                                                                                            count)]
    leaf_contents = np.zeros(len(leafs), np.int64)
    np.bitwise_or.at(leaf_contents, leaf_of, brush_contents[listed])
    return BrushTree.build(path, "IBSP46", planes, nodes["planeNum"], nodes["children"], leaf_contents, first, count,
                           leaf_brushes, brush_contents, brushes["firstSide"], brushes["numSides"], sides["planeNum"])
