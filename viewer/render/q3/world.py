"""Draw a Quake III map: every batch with its shader's stages, in ioquake3's order, culled by cluster PVS.

Uploaded once: the draw vertices (position, st, lightmap st, normal, colour), the lightmap atlas, a white image
and every image on first use (once per name and clamp mode). Per frame: when the camera's cluster changes, the
index list of the visible surfaces is rebuilt (grouped by batch), and the surfaces turned away or off screen are left
out of what is drawn (:mod:`.surface_cull`); batches are drawn by shader sort (sky,
opaque, decals, … blends), the opaque ones front to back, the blended ones back to front; each stage is a pass
with its blend function, depth write and test, cull mode, deforms, ``tcGen``/``tcMod`` and colours of the moment
(:mod:`..shaded.stages`). A texture × lightmap pair is one multitextured pass (``CollapseMultitexture``). The plainly
opaque batches first lay down their depth alone, so each pixel is shaded once (the same picture: llvmpipe's
fill rate is the frame's cost). Fogged batches get the fog pass (:mod:`..shaded.fog`); a visible portal surface
gives the view through it (:meth:`Quake3WorldRenderer.portal_view`, :mod:`.portal`).

References: ioquake3 ``renderergl1/tr_world.c`` (``R_MarkLeaves``, ``R_AddWorldSurfaces``), ``tr_main.c``
(``R_SortDrawSurfs``), ``tr_shade.c`` (``RB_StageIteratorGeneric``, ``GL_State``, ``GL_Cull``), ``tr_sky.c``
(``RB_StageIteratorSky``), ``tr_main.c`` (``R_MirrorViewBySurface``).
"""

from __future__ import annotations

import moderngl
import numpy as np

from assets_loader.q3shaders import Shader
from assets_loader.q3shaders.records import SORT_OPAQUE
from assets_loader.ranges import range_positions

from ..gl_state import rebind
from ..shaded.deform import autosprite, autosprite2
from ..shaded.dlights import SurfaceBounds, dlit, in_model_space, lit_surfaces, reaches_box
from ..shaded.fog import FogVectors, fog_vectors
from ..shaded.painter import (IDENTITY, VERTEX_ATTRIBUTES, VERTEX_LAYOUT, Q3View, ShaderPainter, cached_vao,
                              portal_range, screen_extent, shader_cull)
from ..shaded.stages import IDENTITY_LIGHT
from ..view_math import angle_vectors
from .portal import portal_entities, portal_view, surface_offscreen
from .records import Quake3World
from .surface_cull import ListedSurfaces, SurfaceCulling, box_centres, boxes_off_screen

#: ``tr.worldEntity``'s ``shaderRGBA``: the world and brush entities are drawn with a zeroed entity colour.
WORLD_ENTITY_COLOR = (0.0, 0.0, 0.0, 0.0)
#: Brush entity matrices whose inverse :meth:`Quake3WorldRenderer._inverse` keeps, at most this many.
_MAX_INVERSES = 256


def _depth_prepass_ok(shader: Shader) -> bool:
    """An opaque shader whose first stage writes its surface's depth where the vertices are: drawn in the
    depth pre-pass."""
    if shader.sort != SORT_OPAQUE or shader.is_sky or shader.deforms or shader.polygon_offset or not shader.stages:
        return False
    first = shader.stages[0]
    return first.blend is None and first.alpha_func is None and first.depth_write and first.depth_func == "lequal"


class _VisibleList:
    """The index buffer of the surfaces one view's cluster can see, grouped by batch, and its vertex arrays (one
    for the main view, one for a portal view, so neither rebuilds the other's each frame); :meth:`cull` leaves out
    of the buffer what the frame's view would not draw (the lights' list keeps them all)."""

    def __init__(self, ctx: moderngl.Context, vbo: moderngl.Buffer, nbytes: int) -> None:
        self.ctx = ctx
        self.vbo = vbo
        self.ibo = ctx.buffer(reserve=max(nbytes, 4))
        self.cluster: int | None = None
        self.ranges: list[tuple[int, int, int]] = []  # (batch, first index, count) of the visible list
        self.surfaces = np.zeros(0, np.int64)  # the visible surface numbers, sorted
        self._vaos: dict[int, moderngl.VertexArray] = {}
        self.indices = np.zeros(0, np.uint32)         # the list itself
        self._listed = np.zeros(0, np.int64)          # its surfaces in list order, their index counts and batches
        self._counts = np.zeros(0, np.int64)
        self._owners = np.zeros(0, np.int64)
        self._gathered: ListedSurfaces | None = None  # what culling them needs, made on first use
        self._kept: np.ndarray | None = None     # the listed surfaces the buffer holds (None: all of them)
        self.drawn = self.indices                     # what the buffer holds: the list, or the part of it culled
        self.drawn_ranges: list[tuple[int, int, int]] = []  # (batch, first index, count) of ``drawn``

    def vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        return cached_vao(self._vaos, program, self.vbo, self.ibo)

    def update(self, world, point) -> None:
        """Rebuild the list when ``point`` is in another cluster than last time (``R_MarkLeaves``)."""
        cluster = int(world.leafs["cluster"][world.point_leaf(point)])
        if cluster == self.cluster and self.ranges:
            return
        self.cluster = cluster
        self.fill(world, world.visible_surfaces(point).astype(np.int64))

    def fill(self, world, numbers: np.ndarray) -> None:
        """Make the list the world model's surfaces among ``numbers`` (sorted surface numbers)."""
        self.surfaces = numbers
        surfaces = world.surfaces[self.surfaces]
        drawable = (surfaces["model"] == 0) & (surfaces["num_indices"] > 0)
        surfaces = surfaces[drawable]
        order = np.argsort(surfaces["first_index"], kind="stable")
        first = surfaces["first_index"][order].astype(np.int64)
        count = surfaces["num_indices"][order].astype(np.int64)
        total = int(count.sum())
        self._gathered = self._kept = None
        if total == 0:
            self.ranges = self.drawn_ranges = []
            return
        idx = range_positions(first, count)
        self.indices = self.drawn = np.ascontiguousarray(world.indices[idx], np.uint32)
        self._listed, self._counts = numbers[drawable][order], count
        self.ibo.orphan()               # new storage: no wait for the draws still reading the old list
        self.ibo.write(self.indices.tobytes())
        batch_first = world.batches["first_index"].astype(np.int64)
        self._owners = np.searchsorted(batch_first, first, side="right") - 1
        self.ranges = self.drawn_ranges = _batch_ranges(self._owners, count)

    def cull(self, culling: SurfaceCulling, view) -> list[tuple[int, int, int]]:
        """The ranges ``view`` draws this frame: the list less the surfaces facing away or off screen
        (:mod:`.surface_cull`; the faces' test only outside portal views), the buffer rewritten when they change."""
        if not self.ranges:
            return []
        if self._gathered is None:
            self._gathered = culling.listed(self._listed)
        kept = self._gathered.kept(view.view_proj, view.camera, view.clip_plane is None)
        if self._kept is not None and np.array_equal(kept, self._kept):
            return self.drawn_ranges
        self._kept = kept
        self.drawn = self.indices[np.repeat(kept, self._counts)]
        if len(self.drawn):
            self.ibo.orphan()           # new storage: no wait for the frames still drawn from the last list
            self.ibo.write(self.drawn.tobytes())
        self.drawn_ranges = _batch_ranges(self._owners, np.where(kept, self._counts, 0))
        return self.drawn_ranges

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        self.ibo.release()


def _batch_ranges(owners: np.ndarray, counts: np.ndarray) -> list[tuple[int, int, int]]:
    """``(batch, first index, count)`` of the batches of a list of surfaces (their batches ``owners``, in order, and
    index ``counts``: a batch's surfaces follow each other), those without indices left out."""
    sums = np.bincount(owners, weights=counts, minlength=1).astype(np.int64)
    batches = np.flatnonzero(sums)
    starts = np.cumsum(sums[batches]) - sums[batches]
    return list(zip(batches.tolist(), starts.tolist(), sums[batches].tolist()))


class _DepthList:
    """The index buffer of a view's depth pre-pass, written each frame: the on-screen opaque batches of each cull
    mode one after the other (in the view's front-to-back order), so the pass is one draw per cull mode."""

    def __init__(self, ctx: moderngl.Context, vbo: moderngl.Buffer) -> None:
        self.vbo = vbo
        self.ibo = ctx.buffer(reserve=4, dynamic=True)
        self._vaos: dict[int, moderngl.VertexArray] = {}

    def vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        return cached_vao(self._vaos, program, self.vbo, self.ibo)

    def fill(self, pieces: list[np.ndarray]) -> None:
        """Make the list ``pieces`` (u4 index arrays) one after the other."""
        data = np.concatenate(pieces).tobytes()
        self.ibo.orphan(len(data))      # new storage: no wait for the frames still drawn from the last list
        self.ibo.write(data)

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        self.ibo.release()



class Quake3WorldRenderer:
    """GPU resources of one Quake III map and the drawing of its world model."""

    def __init__(self, ctx: moderngl.Context, level: Quake3World, picmip: int = 0) -> None:
        self.ctx = ctx
        self.level = level
        world = level.world
        # OpenGL buffers cannot be empty: a map without draw surfaces gets a placeholder no draw call reads.
        self._vbo = ctx.buffer(np.ascontiguousarray(world.vertices).tobytes() or bytes(world.vertices.dtype.itemsize))
        self._static_ibo = ctx.buffer(np.ascontiguousarray(world.indices, np.uint32).tobytes() or b"\0" * 4)
        atlas = world.lightmaps.pixels
        self._lightmap = ctx.texture((atlas.shape[1], atlas.shape[0]), 4, np.ascontiguousarray(atlas).tobytes())
        self._lightmap.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._lightmap.repeat_x = self._lightmap.repeat_y = False
        self.painter = ShaderPainter(ctx, level.images, self._lightmap, picmip)
        self._static_vaos: dict[int, moderngl.VertexArray] = {}
        self._main = _VisibleList(ctx, self._vbo, world.indices.nbytes)
        self._through_portal = _VisibleList(ctx, self._vbo, world.indices.nbytes)
        self._lit = _VisibleList(ctx, self._vbo, world.indices.nbytes)   # the visible surfaces lights reach
        self._depth = _DepthList(ctx, self._vbo)
        self._bounds = SurfaceBounds.of(world)
        self._dlit = [dlit(shader) for shader in level.shaders]
        #: Batches left out when off screen: not the sky (its box is drawn through its surfaces), deformed
        #: vertices, faces turned to the viewer or portals.
        self._cullable = [not (shader.is_sky or shader.sky is not None or shader.deforms or shader.portal)
                          for shader in level.shaders]
        self._culling = SurfaceCulling.of(world, self._bounds, level.shaders, self._cullable)
        batches = world.batches
        self._world_batches = np.flatnonzero(batches["model"] == 0)
        self._centers = self._batch_centers()
        self._sprites = {int(b): SpriteBatch(ctx, level, int(b)) for b in self._world_batches
                         if _sprite_kind(level.shaders[int(b)]) is not None}
        self._portal_entities = portal_entities(world.entities)
        self._last_view: tuple[Q3View, _VisibleList, list[tuple[int, int, int]]] | None = None
        self._inverses: dict[bytes, np.ndarray] = {}
        self._submodel_boxes: dict[int, tuple[np.ndarray, np.ndarray] | None] = {}
        self._portal_surfaces = self._find_portal_surfaces()
        self._batch_fogs: list[int] = batches["fog"].astype(np.int64).tolist()
        self._fog_cache: tuple[Q3View | None, dict[int, FogVectors]] = (None, {})

    def _batch_centers(self) -> np.ndarray:
        """``f4 [B, 3]``: the middle of each batch's vertices (for back-to-front ordering of blended batches)."""
        world = self.level.world
        out = np.zeros((len(world.batches), 3), np.float32)
        pos = world.vertices["position"]
        for b, rec in enumerate(world.batches):
            idx = world.indices[int(rec["first_index"]):int(rec["first_index"]) + int(rec["num_indices"])]
            if len(idx):
                used = pos[idx]
                out[b] = (used.min(axis=0) + used.max(axis=0)) / 2
        return out

    def _find_portal_surfaces(self) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
        """World surfaces drawn by a ``portal`` shader: ``(surface number, batch, points, normals, triangles)``."""
        world = self.level.world
        out = []
        firsts = world.batches["first_index"].astype(np.int64)
        for number, surf in enumerate(world.surfaces):
            count = int(surf["num_indices"])
            if surf["model"] != 0 or count == 0:
                continue
            first = int(surf["first_index"])
            batch = int(np.searchsorted(firsts, first, side="right") - 1)
            if not self.level.shaders[batch].portal:
                continue
            tris = world.indices[first:first + count].reshape(-1, 3).astype(np.int64)
            used, local = np.unique(tris, return_inverse=True)
            verts = world.vertices[used]
            out.append((number, batch, verts["position"].astype(np.float64), verts["normal"].astype(np.float64),
                        local.reshape(-1, 3)))
        return out

    def release(self) -> None:
        for vao in self._static_vaos.values():
            vao.release()
        self._static_vaos.clear()
        self._main.release()
        self._through_portal.release()
        self._lit.release()
        self._depth.release()
        for sprite in self._sprites.values():
            sprite.release()
        self.painter.release()
        for obj in (self._vbo, self._static_ibo, self._lightmap):
            obj.release()

    def _static_vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        """The vertex array of ``program`` over all indices (brush entities)."""
        vao = self._static_vaos.get(program.glo)
        if vao is None:
            vao = self._static_vaos[program.glo] = self.ctx.vertex_array(
                program, [(self._vbo, VERTEX_LAYOUT, *VERTEX_ATTRIBUTES)], index_buffer=self._static_ibo,
                index_element_size=4, skip_errors=True)
        return vao

    def portal_view(self, view: Q3View) -> Q3View | None:
        """The view through the first mirror or portal surface that ``view`` can see (``R_SortDrawSurfs`` →
        ``R_MirrorViewBySurface``), or ``None``: no portal surface in sight, no portal entity near it, or
        ``view`` is itself a portal view (no recursion)."""
        if view.clip_plane is not None or not self._portal_surfaces or not self._portal_entities:
            return None
        self._main.update(self.level.world, view.pvs_origin or view.camera)
        visible = self._main.surfaces
        for number, batch, points, normals, tris in self._portal_surfaces:
            at = int(np.searchsorted(visible, number))
            if at >= len(visible) or visible[at] != number:
                continue
            seen = portal_view(_surface_plane(points, normals), self._portal_entities, view.time)
            if seen is None:
                continue
            reach = None if seen.mirror else portal_range(self.level.shaders[batch])
            if surface_offscreen(points, normals, tris, view.view_proj, view.camera, reach):
                continue
            axis = np.stack(view_axes(view)) @ seen.transform[:3, :3].T
            camera = seen.transform @ np.array([*view.camera, 1.0])
            return Q3View(np.asarray(view.view_proj, np.float64) @ seen.inverse, (camera[0], camera[1], camera[2]),
                          view.time, view.angles, axis, seen.clip_plane, seen.mirror, seen.pvs_origin,
                          screen_extent(points, view.view_proj), view.lights)
        return None

    def draw_submodels(self, view: Q3View, submodels: list[tuple[int, np.ndarray]]) -> None:
        """Draw brush entities: ``(submodel N of *N, model matrix [4, 4])`` each, every batch of it with its
        shader (``R_AddBrushModelSurfaces``)."""
        world = self.level.world
        for index, matrix in submodels:
            if not 0 < index < len(world.models):
                continue
            sub = world.models[index]
            if self._submodel_off_screen(index, matrix, view.view_proj):
                continue
            inverse = self._inverse(matrix)
            camera_local = (inverse @ np.array([*view.camera, 1.0]))[:3]
            local = None if view.lights is None else in_model_space(view.lights, inverse)
            near = [] if local is None else np.flatnonzero(reaches_box(local, sub.mins, sub.maxs)).tolist()
            scissors = self.painter.dlight_scissors(view) if near else []
            for b in range(sub.first_batch, sub.first_batch + sub.num_batches):
                rec = world.batches[b]
                shader = self.level.shaders[b]
                count, first = int(rec["num_indices"]), int(rec["first_index"])
                self.painter.draw(self._static_vao, shader, view, matrix, camera_local, count, first,
                                  entity_color=WORLD_ENTITY_COLOR)
                if near and self._dlit[b]:       # R_DlightBmodel: every surface of a brush model a light reaches
                    self.painter.draw_dlights(self._static_vao, shader, view, matrix, camera_local, count, first,
                                              near, scissors, local)

    def _submodel_off_screen(self, index: int, matrix: np.ndarray, view_proj: np.ndarray) -> bool:
        """Whether every vertex of brush model ``*index`` at ``matrix`` lies beyond one side of the view (left,
        right, top, bottom or near; ``R_CullLocalBox``): the box of the vertices its batches index, in its own space
        (:func:`.surface_cull.boxes_off_screen`); never a model with a sky, deformed, autosprite or portal batch."""
        box = self._submodel_box(index)
        if box is None:
            return False
        clip_from = np.asarray(view_proj, np.float64) @ np.asarray(matrix, np.float64)
        return bool(boxes_off_screen(*box, clip_from)[0])

    def _submodel_box(self, index: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The centre and half size (:func:`.surface_cull.box_centres`) of the box of the vertices brush model
        ``*index``'s batches index, in its own space, made once; ``None`` when it cannot be culled (no vertices, or
        a batch :attr:`_cullable` leaves in)."""
        if index not in self._submodel_boxes:
            world = self.level.world
            sub = world.models[index]
            batches = range(sub.first_batch, sub.first_batch + sub.num_batches)
            found = None
            if all(self._cullable[b] for b in batches):
                spans = [(int(world.batches[b]["first_index"]), int(world.batches[b]["num_indices"])) for b in batches]
                idx = np.concatenate([world.indices[first:first + count] for first, count in spans] or
                                     [np.zeros(0, np.int64)])
                if len(idx):
                    pos = world.vertices["position"][idx]
                    found = box_centres(pos.min(axis=0)[None], pos.max(axis=0)[None])
            self._submodel_boxes[index] = found
        return self._submodel_boxes[index]

    def _inverse(self, matrix: np.ndarray) -> np.ndarray:
        """The inverse of a brush entity's model ``matrix`` (read-only), kept by its value: movers mostly stand
        still, and stand where they stood."""
        key = np.asarray(matrix, np.float64).tobytes()
        found = self._inverses.get(key)
        if found is None:
            if len(self._inverses) >= _MAX_INVERSES:
                self._inverses.clear()
            found = self._inverses[key] = np.linalg.inv(np.asarray(matrix, np.float64))
            found.flags.writeable = False
        return found

    def draw(self, view: Q3View, translucent: bool | None = None) -> None:
        """Draw the world model as seen from ``view``: every batch, or only those sorted up to opaque
        (``translucent=False``: before the models, as their sort places them) or only those after it (``True``)."""
        visible, ranges = self._view_ranges(view)
        shaders_ = self.level.shaders
        if translucent is not True:
            self._depth_prepass(view, visible, ranges)
        lit = self._lit_ranges(view, visible) if translucent is not True else {}
        scissors = self.painter.dlight_scissors(view) if lit else []
        for batch, first, count in ranges:
            if translucent is not None and (shaders_[batch].sort > SORT_OPAQUE) != translucent:
                continue
            fog = self._fog(batch, view)
            sprite = self._sprites.get(batch)
            if sprite is not None:
                sprite.update(view_axes(view))
                self.painter.draw(sprite.vao, shaders_[batch], view, IDENTITY, view.camera, sprite.count, fog=fog,
                                  entity_color=WORLD_ENTITY_COLOR)
            else:
                self.painter.draw(visible.vao, shaders_[batch], view, IDENTITY, view.camera, count, first, fog=fog,
                                  entity_color=WORLD_ENTITY_COLOR)
                if batch in lit:
                    self.painter.draw_dlights(self._lit.vao, shaders_[batch], view, IDENTITY, view.camera,
                                              *lit[batch], scissors)
                self._fog_pass(batch, fog, view, visible, count, first)

    def _view_ranges(self, view: Q3View) -> tuple[_VisibleList, list[tuple[int, int, int]]]:
        """The visible list of ``view`` and its batches in drawing order (:meth:`_sorted`), those wholly off screen
        left out: worked out once for the view's calls (its opaque batches, then its translucent ones)."""
        last = self._last_view
        if last is not None and last[0] is view:
            return last[1], last[2]
        visible = self._through_portal if view.clip_plane is not None else self._main
        visible.update(self.level.world, view.pvs_origin or view.camera)
        ranges = self._sorted(visible.cull(self._culling, view), view.camera)
        self._last_view = (view, visible, ranges)
        return visible, ranges

    def _sorted(self, ranges: list[tuple[int, int, int]], camera) -> list[tuple[int, int, int]]:
        """``ranges`` in drawing order: by shader sort, the opaque ones front to back and the others back to front
        by their batch's middle (the squared distances of all batches in one array operation)."""
        if not ranges:
            return []
        shaders_ = self.level.shaders
        batches = [r[0] for r in ranges]
        dist = ((self._centers[batches] - np.asarray(camera, np.float32)) ** 2).sum(axis=1).tolist()
        sorts = [shaders_[b].sort for b in batches]
        order = sorted(range(len(ranges)), key=lambda i: (sorts[i], dist[i] if sorts[i] <= SORT_OPAQUE else -dist[i]))
        return [ranges[i] for i in order]

    def _lit_ranges(self, view: Q3View, visible: _VisibleList) -> dict[int, tuple[int, int, list[int]]]:
        """``batch → (count, first, lights)`` in the lit list of the visible surfaces ``view``'s lights reach
        (``lights``: the indices of those reaching the batch's surfaces), for the batches whose shader takes the
        lights' pass; empty without lights (the pass is then skipped)."""
        if view.lights is None or not len(view.lights):
            return {}
        world = self.level.world
        numbers, bits = lit_surfaces(self._bounds, visible.surfaces, view.lights)
        if not len(numbers):
            return {}
        self._lit.fill(world, numbers)
        owner = np.searchsorted(world.batches["first_index"], world.surfaces["first_index"][numbers], side="right") - 1
        order = np.argsort(owner, kind="stable")
        batches, starts = np.unique(owner[order], return_index=True)
        masks = dict(zip(batches.tolist(), np.bitwise_or.reduceat(bits[order], starts).tolist()))  # lights per batch
        out: dict[int, tuple[int, int, list[int]]] = {}
        for batch, first, count in self._lit.ranges:
            if self._dlit[batch] and batch not in self._sprites:
                mask = masks[batch]
                out[batch] = (count, first, [i for i in range(len(view.lights)) if mask >> i & 1])
        return out

    def _depth_prepass(self, view: Q3View, visible: _VisibleList, ranges: list[tuple[int, int, int]]) -> None:
        """Lay down the depth of the plainly opaque batches first (no deforms, alpha test or blend in the first
        stage): their stages then shade each pixel once instead of once per overlapping surface. The batches of a
        cull mode share the pass's state, so they are one draw (:class:`_DepthList`)."""
        groups: dict[str | None, tuple[Shader, list[np.ndarray]]] = {}
        for batch, first, count in ranges:
            shader = self.level.shaders[batch]
            if _depth_prepass_ok(shader) and batch not in self._sprites:
                groups.setdefault(shader_cull(shader), (shader, []))[1].append(visible.drawn[first:first + count])
        if not groups:
            return
        self._depth.fill([piece for _, pieces in groups.values() for piece in pieces])
        fbo = self.ctx.fbo
        mask = fbo.color_mask
        fbo.color_mask = (False, False, False, False)
        rebind(self.ctx)
        first = 0
        for shader, pieces in groups.values():
            count = sum(len(piece) for piece in pieces)
            self.painter.draw_depth(self._depth.vao, shader, view, count, first)
            first += count
        fbo.color_mask = mask
        rebind(self.ctx)

    def _fog(self, batch: int, view: Q3View) -> FogVectors | None:
        """The fog vectors of the fog volume ``batch`` lies in, seen from ``view`` (``None``: not fogged; worked out
        once per fog volume and view)."""
        fog_index = self._batch_fogs[batch]
        if not 0 <= fog_index < len(self.level.fog_shaders):
            return None
        fog_shader = self.level.fog_shaders[fog_index]
        if fog_shader is None or fog_shader.fog is None:
            return None
        seen, vectors = self._fog_cache
        if seen is not view:
            seen, vectors = view, {}
            self._fog_cache = (seen, vectors)
        found = vectors.get(fog_index)
        if found is None:
            plane = self.level.world.fogs[fog_index].surface_plane
            found = vectors[fog_index] = fog_vectors(fog_shader.fog, plane, view.camera, view.forward,
                                                     IDENTITY_LIGHT)
        return found

    def _fog_pass(self, batch: int, fog: FogVectors | None, view: Q3View, visible: _VisibleList, count: int,
                  first: int) -> None:
        """``RB_FogPass`` after a fogged batch: on its own depth for shaders sorted up to opaque, over it for
        the fog volume's own shader (``fogPass``); skies and other blended shaders get none."""
        shader = self.level.shaders[batch]
        if fog is None or shader.is_sky:
            return
        if shader.sort <= SORT_OPAQUE:
            self.painter.draw_fog(visible.vao, shader, view, count, first, fog, equal=True)
        elif "fog" in shader.surface_parms:
            self.painter.draw_fog(visible.vao, shader, view, count, first, fog, equal=False)


def view_axes(view: Q3View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``view``'s forward, left and up axes (``viewParms.or.axis``)."""
    if view.axis is not None:
        return np.asarray(view.axis[0]), np.asarray(view.axis[1]), np.asarray(view.axis[2])
    forward, right, up = angle_vectors(view.angles)
    return forward, -right, up


def _surface_plane(points: np.ndarray, normals: np.ndarray) -> tuple[np.ndarray, float]:
    """``R_PlaneForSurface`` for a face: its normal (the first vertex's) and the distance of its first point."""
    normal = normals[0] / (np.linalg.norm(normals[0]) or 1.0)
    return normal, float(np.dot(normal, points[0]))


def _sprite_kind(shader: Shader) -> str | None:
    """``autosprite`` or ``autosprite2`` when the shader turns its quads to the viewer, else ``None``."""
    return next((d.kind for d in shader.deforms if d.kind in ("autosprite", "autosprite2")), None)


class SpriteBatch:
    """A batch whose quads face the viewer: its own vertices, rewritten each frame (``RB_DeformTessGeometry``)."""

    def __init__(self, ctx: moderngl.Context, level: Quake3World, batch: int) -> None:
        self.ctx = ctx
        world = level.world
        self.kind = _sprite_kind(level.shaders[batch])
        rec = world.batches[batch]
        lo, hi = int(rec["first_index"]), int(rec["first_index"]) + int(rec["num_indices"])
        surfs = world.surfaces[(world.surfaces["first_index"] >= lo) & (world.surfaces["first_index"] < hi)
                               & (world.surfaces["num_indices"] > 0) & (world.surfaces["num_vertices"] % 4 == 0)]
        ids = [np.arange(int(s["first_vertex"]), int(s["first_vertex"]) + int(s["num_vertices"])) for s in surfs]
        self._ids = np.concatenate(ids) if ids else np.zeros(0, np.int64)
        self.vertices = np.array(world.vertices[self._ids])
        if self.kind == "autosprite":
            quad = np.array([0, 1, 3, 3, 1, 2], np.uint32)
            indices = (quad[None, :] + 4 * np.arange(len(self._ids) // 4, dtype=np.uint32)[:, None]).ravel()
        else:
            local = np.full(len(world.vertices), -1, np.int64)
            local[self._ids] = np.arange(len(self._ids))
            parts = [local[world.indices[int(s["first_index"]):int(s["first_index"]) + int(s["num_indices"])]]
                     for s in surfs]
            indices = np.concatenate(parts).astype(np.uint32) if parts else np.zeros(0, np.uint32)
        self.count = len(indices)
        self._vbo = ctx.buffer(reserve=max(self.vertices.nbytes, 4), dynamic=True)
        self._ibo = ctx.buffer(indices.tobytes() if len(indices) else b"\0" * 4)
        self._vaos: dict[int, moderngl.VertexArray] = {}

    def update(self, axes: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        """Turn the quads to a view with ``axes`` (forward, left, up)."""
        if not len(self.vertices):
            return
        verts = self.vertices.copy()
        forward, left, up = axes
        if self.kind == "autosprite":
            verts["position"], verts["st"] = autosprite(self.vertices["position"], left, up)
        else:
            verts["position"] = autosprite2(self.vertices["position"], forward)
        self._vbo.orphan()      # new storage: no wait for the frames still drawn from the last quads
        self._vbo.write(verts.tobytes())

    def vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        return cached_vao(self._vaos, program, self._vbo, self._ibo)

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vbo.release()
        self._ibo.release()
