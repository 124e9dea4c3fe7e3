"""Faces to triangles: one vertex buffer, one index buffer, draw ranges per (submodel, texture).

Every face contributes its own ``numedges`` vertices (in surfedge order: edge ``e >= 0`` starts at
``edges[e].v[0]``, ``e < 0`` at ``edges[-e].v[1]``) and a triangle fan ``(0, i, i + 1)``. Triangles are
emitted counter-clockwise seen from the face's front (the side its ``plane`` normal, flipped when ``side`` is
set, points to), OpenGL's default front face. Texture uv is ``(dot(pos, vecs[k][:3]) + vecs[k][3]) / size``
(repeating; sky and liquids use the same base uv, the shader scrolls or warps it). Lightmap uv is GLQuake's
``(block + (s - texturemins + 8) / 16) / atlas_size``; see :mod:`.lightmap` for the style layout.

Faces are sorted by (submodel, texture), so each submodel's faces of one texture are one contiguous range of
the index buffer: ``draws`` lists those ranges. The helpers below serve Quake's and Quake II's loaders alike.

References: Unofficial Quake Specs 3.2, chapter 3.2.5-3.2.8 (faces, edges, texinfo); Quake
``BuildSurfaceDisplayList`` (gl_rsurf.c) and ``R_DrawBrushModel``'s texture chains.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lightmap import Lightmap, calc_surface_extents

#: One vertex: position, texture uv (in texture repeats), lightmap uv of style 0, the u distance between
#: a face's style blocks in the atlas, and the face's 4 light styles (255 = unused).
VERTEX = np.dtype([("position", "<f4", (3,)), ("uv", "<f4", (2,)), ("lm_uv", "<f4", (2,)),
                   ("lm_step", "<f4"), ("styles", "u1", (4,))])
#: One draw range: submodel, texture index, first index and index count in ``MeshData.indices``.
DRAW = np.dtype([("model", "<i4"), ("texture", "<i4"), ("first", "<u4"), ("count", "<u4")])


@dataclass(frozen=True, slots=True)
class MeshData:
    """Triangles of a whole BSP (world and submodels).

    ``vertices``: ``VERTEX`` ``[V]``; ``indices``: uint32 ``[I]`` (``I = 3 * triangles``); ``draws``: ``DRAW``
    ``[D]`` sorted by (model, texture); ``face_first`` / ``face_count``: uint32 ``[F]``, each face's range in
    ``indices`` (count 0 for faces outside every submodel), for per-leaf visibility culling.
    """

    vertices: np.ndarray
    indices: np.ndarray
    draws: np.ndarray
    face_first: np.ndarray
    face_count: np.ndarray

    @property
    def num_triangles(self) -> int:
        return len(self.indices) // 3


def fan_triangles(vstart: np.ndarray, nverts: np.ndarray, order: np.ndarray, flip: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Fan-triangulate faces in ``order``. Returns ``(indices [3T] u32, face_first [F], face_count [F])``.

    ``vstart``/``nverts``: each face's first vertex and vertex count; ``flip``: bool ``[F]`` reverses the
    winding of that face's triangles.
    """
    nf = len(vstart)
    ntri = np.maximum(nverts.astype(np.int64) - 2, 0)
    ntri_sorted = ntri[order]
    total = int(ntri_sorted.sum())
    tri_face = np.repeat(order, ntri_sorted)
    tstart = np.cumsum(ntri_sorted) - ntri_sorted
    j = np.arange(total, dtype=np.int64) - np.repeat(tstart, ntri_sorted)
    base = vstart.astype(np.int64)[tri_face]
    a = base
    b = base + j + 1
    c = base + j + 2
    f = flip[tri_face]
    tris = np.empty((total, 3), np.uint32)
    tris[:, 0] = a
    tris[:, 1] = np.where(f, c, b)
    tris[:, 2] = np.where(f, b, c)
    face_first = np.zeros(nf, np.uint32)
    face_count = np.zeros(nf, np.uint32)
    face_first[order] = (3 * tstart).astype(np.uint32)
    face_count[order] = (3 * ntri_sorted).astype(np.uint32)
    return tris.reshape(-1), face_first, face_count


def draw_ranges(order: np.ndarray, face_model: np.ndarray, face_texture: np.ndarray, face_first: np.ndarray,
                face_count: np.ndarray) -> np.ndarray:
    """Group faces in ``order`` (already sorted by model, texture) into ``DRAW`` records."""
    if len(order) == 0:
        return np.zeros(0, DRAW)
    m = face_model[order]
    t = face_texture[order]
    cnt = face_count[order].astype(np.int64)
    brk = np.flatnonzero((m[1:] != m[:-1]) | (t[1:] != t[:-1])) + 1
    starts = np.concatenate([[0], brk])
    counts = np.add.reduceat(cnt, starts)
    keep = counts > 0
    out = np.zeros(int(keep.sum()), DRAW)
    out["model"] = m[starts][keep]
    out["texture"] = t[starts][keep]
    out["first"] = face_first[order][starts][keep]
    out["count"] = counts[keep]
    return out


def face_polygons(firstedge: np.ndarray, numedges: np.ndarray, surfedges: np.ndarray, edges: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """``(vertex index int64 [N], face starts [F], counts [F])`` of every face's polygon in surfedge order.

    ``edges`` is int64 ``[E, 2]``; every index has been checked by the caller."""
    counts = numedges.astype(np.int64)
    starts = np.cumsum(counts) - counts
    total = int(counts.sum())
    local = np.arange(total, dtype=np.int64) - np.repeat(starts, counts)
    e = surfedges[np.repeat(firstedge.astype(np.int64), counts) + local]
    vidx = np.where(e >= 0, edges[np.abs(e), 0], edges[np.abs(e), 1])
    return vidx, starts, counts


def texture_st(positions: np.ndarray, vecs: np.ndarray) -> np.ndarray:
    """float64 ``[N, 2]``: ``dot(pos, vecs[k][:3]) + vecs[k][3]`` per vertex (``positions`` ``[N, 3]``, ``vecs``
    ``[N, 2, 4]``), in double precision as QuakeSpasm's ``CalcSurfaceExtents`` does."""
    p = positions.astype(np.float64)
    v = vecs.astype(np.float64)
    with np.errstate(all="ignore"):
        return p[:, None, 0] * v[:, :, 0] + p[:, None, 1] * v[:, :, 1] + p[:, None, 2] * v[:, :, 2] + v[:, :, 3]


def sort_faces(face_model: np.ndarray, face_texture: np.ndarray) -> np.ndarray:
    """Indices of the faces that belong to a submodel (``face_model >= 0``), sorted by (model, texture)."""
    in_model = np.flatnonzero(face_model >= 0)
    return in_model[np.lexsort((face_texture[in_model], face_model[in_model]))]


def build_vertices(positions: np.ndarray, st: np.ndarray, fid: np.ndarray, face_tex: np.ndarray,
                   texture_sizes: np.ndarray, lightmap: Lightmap, texturemins: np.ndarray, styles: np.ndarray,
                   has_light: np.ndarray) -> np.ndarray:
    """Fill the ``VERTEX`` array: positions, texture uv, lightmap uv / step and styles.

    ``fid``: each vertex's face; ``texture_sizes``: float ``[T, 2]`` (width, height) by texture index; ``st``:
    float64 ``[N, 2]`` from :func:`texture_st`. Faces without a lightmap sample the centre of their 1x1 block.
    """
    out = np.zeros(len(fid), VERTEX)
    out["position"] = positions
    with np.errstate(all="ignore"):
        out["uv"] = st / texture_sizes[face_tex][fid]
        W, H = lightmap.width, lightmap.height
        rect = lightmap.rects[fid].astype(np.float64)
        lit_v = has_light[fid]
        rel = (st - texturemins[fid] + 8.0) / 16.0
        rel = np.where(lit_v[:, None], rel, 0.5)
        out["lm_uv"] = (rect[:, :2] + rel) / (W, H)
        out["lm_step"] = np.where(lit_v, rect[:, 2] / W, 0.0)
    face_styles = np.where(has_light[:, None], styles, np.array([0, 255, 255, 255], np.uint8))
    out["styles"] = face_styles[fid]
    return out


@dataclass(frozen=True, slots=True)
class FaceGeometry:
    """Every face's polygon: ``starts``/``counts`` int64 ``[F]`` (each face's vertex range), ``face_of_vertex``
    ``[N]``, ``positions`` float32 ``[N, 3]``, ``st`` float64 ``[N, 2]`` texture coordinates in texels, and the
    engine's ``texturemins`` / ``extents`` int32 ``[F, 2]``."""

    starts: np.ndarray
    counts: np.ndarray
    face_of_vertex: np.ndarray
    positions: np.ndarray
    st: np.ndarray
    texturemins: np.ndarray
    extents: np.ndarray


def face_geometry(firstedge: np.ndarray, numedges: np.ndarray, surfedges: np.ndarray, edges: np.ndarray,
                  vertexes: np.ndarray, face_vecs: np.ndarray) -> FaceGeometry:
    """Polygons, texture coordinates and lightmap extents of all faces; ``face_vecs``: each face's texinfo
    ``vecs`` ``[F, 2, 4]``. Every index has been checked by the caller."""
    vidx, starts, counts = face_polygons(firstedge, numedges, surfedges, edges)
    fid = np.repeat(np.arange(len(counts)), counts)
    positions = vertexes[vidx]
    st = texture_st(positions, face_vecs[fid])
    with np.errstate(all="ignore"):
        texturemins, extents = calc_surface_extents(st.astype(np.float32), starts, counts)
    return FaceGeometry(starts, counts, fid, positions, st, texturemins, extents)


def face_models(firstface: np.ndarray, numfaces: np.ndarray, num_faces: int) -> np.ndarray:
    """int32 ``[F]``: the submodel each face belongs to (-1 for faces in none), from the models' face ranges."""
    out = np.full(num_faces, -1, np.int32)
    for m, (first, count) in enumerate(zip(firstface.tolist(), numfaces.tolist())):
        out[first:first + count] = m
    return out


def build_mesh(geom: FaceGeometry, face_model: np.ndarray, face_tex: np.ndarray, texture_sizes: np.ndarray,
               lightmap: Lightmap, styles: np.ndarray, has_light: np.ndarray) -> MeshData:
    """Sort the faces by (model, texture), fan them into triangles (flipped to counter-clockwise: the BSP lists
    a face's vertices clockwise seen from its front) and fill the vertex array."""
    order = sort_faces(face_model, face_tex)
    indices, face_first, face_count = fan_triangles(geom.starts, geom.counts, order, np.ones(len(geom.starts), bool))
    draws = draw_ranges(order, face_model, face_tex.astype(np.int32), face_first, face_count)
    vertices = build_vertices(geom.positions, geom.st, geom.face_of_vertex, face_tex, texture_sizes, lightmap,
                              geom.texturemins, styles, has_light)
    return MeshData(vertices, indices, draws, face_first, face_count)
