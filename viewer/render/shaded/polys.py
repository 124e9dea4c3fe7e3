"""Draw Quake III shaded polygons (:class:`~.records.Q3Poly`: effect sprites, beams, impact marks) with their
shaders.

Per frame every polygon's vertices go into one vertex buffer (the map's vertex layout) and its fan into one index
buffer, written once into fresh storage (no wait for the frames still drawn from the last); polygons are then drawn
in shader sort order (stable, so equal sorts keep the caller's order), consecutive polygons with the same shader and
clock sharing one draw.  Each run is drawn with its shader's stages at the frame's time minus its ``shader_time``,
without an entity colour: stages that read the entity's colour (``rgbGen`` / ``alphaGen entity``) then read the
vertex colours, as the engine's sprite, beam and poly surfaces carry the entity's ``shaderRGBA`` in their vertices.

References: ioquake3 ``renderergl1/tr_scene.c`` (``RE_AddPolyToScene``), ``tr_surface.c`` (``RB_SurfacePolychain``,
``RB_SurfaceSprite``, ``RB_SurfaceRailCore``), ``tr_shade.c`` (``RB_BeginSurface``: ``shaderTime``),
``tr_shade_calc.c`` (``RB_CalcColorFromEntity``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import moderngl
import numpy as np

from assets_loader.bsp46 import DRAW_VERTEX, LIGHTMAP_NONE
from assets_loader.q3shaders import Shader, ShaderLibrary, default_shader

from .records import Q3Poly
from .painter import Q3View, ShaderPainter, cached_vao

__all__ = ["PolyRenderer", "poly_buffers", "poly_fans", "poly_vertices"]

_IDENTITY = np.eye(4, dtype=np.float32)


def poly_buffers(polys: tuple[Q3Poly, ...] | list[Q3Poly]) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """``(vertices DRAW_VERTEX [V], indices u4 [I], (first index, count) per polygon)``: every polygon's vertices
    and its triangle fan (0, k, k + 1)."""
    indices, ranges = poly_fans([len(p.positions) for p in polys])
    return poly_vertices(polys), indices, ranges


def poly_vertices(polys: tuple[Q3Poly, ...] | list[Q3Poly]) -> np.ndarray:
    """Every polygon's vertices, one after the other, as ``DRAW_VERTEX [V]``."""
    verts = np.zeros(sum(len(p.positions) for p in polys), DRAW_VERTEX)
    if len(verts):              # (the fields' types convert what the polygons hold, as np.asarray would one by one)
        verts["position"] = np.concatenate([p.positions for p in polys])
        verts["st"] = np.concatenate([p.st for p in polys])
        verts["color"] = np.concatenate([p.colors for p in polys])
    return verts


def poly_fans(counts: list[int]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """``(indices u4 [I], (first index, count) per polygon)``: the triangle fans (0, k, k + 1) of polygons of
    ``counts`` vertices stored one after the other."""
    sizes = np.array(counts, np.int64)
    starts = np.cumsum(sizes) - sizes
    tris = np.maximum(sizes - 2, 0)                  # a polygon of fewer than 3 points draws nothing
    owner = np.repeat(np.arange(len(sizes)), tris)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(tris) - tris, tris) + 1
    base = starts[owner]
    idx = np.stack([base, base + k, base + k + 1], axis=1).ravel().astype(np.uint32)
    firsts = 3 * (np.cumsum(tris) - tris)
    return idx, list(zip(firsts.tolist(), (3 * tris).tolist()))


class PolyRenderer:
    """Draws a frame's polygons through ``painter`` (the segment's model painter: its images) with shaders from
    ``library``."""

    def __init__(self, ctx: moderngl.Context, painter: ShaderPainter, library: ShaderLibrary | None) -> None:
        self.ctx = ctx
        self.painter = painter
        self._library = library
        self._shaders: dict[str, Shader] = {}
        self._capacity = 0
        self._vbo: moderngl.Buffer | None = None
        self._ibo: moderngl.Buffer | None = None
        self._vaos: dict[int, moderngl.VertexArray] = {}
        self._last: tuple[tuple[Q3Poly, ...], list[tuple[float, str, float, int, int]]] | None = None
        self._kept: dict[int, tuple[Q3Poly, bytes]] = {}
        self._fans: tuple[list[int], np.ndarray, list[tuple[int, int]]] = ([], np.zeros(0, np.uint32), [])

    def release(self) -> None:
        self._drop_buffers()

    def _drop_buffers(self) -> None:
        self._last = None
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        for buf in (self._vbo, self._ibo):
            if buf is not None:
                buf.release()
        self._vbo = self._ibo = None

    def shader(self, name: str) -> Shader:
        """The shader called ``name`` (cached)."""
        shader = self._shaders.get(name)
        if shader is None:
            shader = self._shaders[name] = self._library.find(name, LIGHTMAP_NONE) if self._library is not None \
                else default_shader(name, LIGHTMAP_NONE)
        return shader

    def _upload(self, verts: bytes, indices: np.ndarray) -> None:
        need = max(len(verts) // DRAW_VERTEX.itemsize, len(indices), 1)
        if self._vbo is None or need > self._capacity:
            self._drop_buffers()
            self._capacity = max(need, 2 * self._capacity, 1024)
            self._vbo = self.ctx.buffer(reserve=self._capacity * DRAW_VERTEX.itemsize, dynamic=True)
            self._ibo = self.ctx.buffer(reserve=self._capacity * 4, dynamic=True)
        assert self._vbo is not None and self._ibo is not None
        for buffer, data in ((self._vbo, verts), (self._ibo, indices.tobytes())):
            buffer.orphan()     # new storage: no wait for the draws of earlier frames still reading the old one
            buffer.write(data)

    def _vertex_bytes(self, polys: list[Q3Poly]) -> bytes:
        """``poly_vertices(polys)`` as bytes; each polygon's bytes kept while frames keep drawing the same object
        (marks stay for many frames): only the new ones are converted. Polygons no longer drawn are let go once
        they outnumber the drawn ones."""
        kept = self._kept       # (it holds the polygons: an id found there is the same living object)
        ids = [id(p) for p in polys]
        fresh = [p for p, i in zip(polys, ids) if i not in kept]
        if fresh:
            data = poly_vertices(fresh).tobytes()
            size = DRAW_VERTEX.itemsize
            at = 0
            for p in fresh:
                end = at + len(p.positions) * size
                kept[id(p)] = (p, data[at:end])
                at = end
        if len(kept) > 2 * len(polys) + 64:
            self._kept = kept = {i: kept[i] for i in ids}
        return b"".join([kept[i][1] for i in ids])

    def _vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        assert self._vbo is not None and self._ibo is not None
        return cached_vao(self._vaos, program, self._vbo, self._ibo)

    def _runs(self, polys: tuple[Q3Poly, ...]) -> list[tuple[float, str, float, int, int]]:
        """``(sort, shader, shader time, first index, count)`` of each run of ``polys`` in drawing order, their
        buffers written: once for the calls of a frame with the same polygons (one per shader sort between the
        models' blended surfaces)."""
        if self._last is not None and self._last[0] is polys:
            return self._last[1]
        sorts = [self.shader(p.shader).sort for p in polys]
        order = sorted(range(len(polys)), key=sorts.__getitem__)
        ordered = [polys[i] for i in order]
        counts = [len(p.positions) for p in ordered]
        if counts != self._fans[0]:
            self._fans = (counts, *poly_fans(counts))
        _, indices, ranges = self._fans
        runs: list[tuple[float, str, float, int, int]] = []
        if len(indices):
            self._upload(self._vertex_bytes(ordered), indices)
        for i, poly, (first, count) in zip(order, ordered, ranges):
            if count == 0:
                continue
            if runs and runs[-1][1] == poly.shader and runs[-1][2] == poly.shader_time \
                    and runs[-1][3] + runs[-1][4] == first:
                sort, name, start, run_first, run_count = runs[-1]
                runs[-1] = (sort, name, start, run_first, run_count + count)
            else:
                runs.append((sorts[i], poly.shader, poly.shader_time, first, count))
        self._last = (polys, runs)
        return runs

    def draw(self, polys: tuple[Q3Poly, ...], view: Q3View, sorts: Callable[[float], bool] | None = None) -> None:
        """Draw ``polys`` as seen from ``view`` (rules: module docstring); ``sorts``: only those whose shader's sort
        it accepts (all without it)."""
        if not polys:
            return
        for sort, name, start, first, count in self._runs(polys):
            if sorts is None or sorts(sort):
                at = replace(view, time=view.time - start) if start else view
                self.painter.draw(self._vao, self.shader(name), at, _IDENTITY, view.camera, count, first)
