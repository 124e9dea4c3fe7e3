"""Draw a Quake III map: every batch with its shader's stages, in ioquake3's order, culled by cluster PVS.

Uploaded once: the draw vertices (position, st, lightmap st, normal, colour), the lightmap atlas, a white image
and every image on first use (once per name and clamp mode). Per frame: when the camera's cluster changes, the
index list of the visible surfaces is rebuilt (grouped by batch); batches are drawn by shader sort (sky,
opaque, decals, … blends), the opaque ones front to back, the blended ones back to front; each stage is a pass
with its blend function, depth write and test, cull mode, deforms, ``tcGen``/``tcMod`` and colours of the moment
(:mod:`.q3stages`). A texture × lightmap pair is one multitextured pass (``CollapseMultitexture``).

References: ioquake3 ``renderergl1/tr_world.c`` (``R_MarkLeaves``, ``R_AddWorldSurfaces``), ``tr_main.c``
(``R_SortDrawSurfs``), ``tr_shade.c`` (``RB_StageIteratorGeneric``, ``GL_State``, ``GL_Cull``), ``tr_sky.c``
(``RB_StageIteratorSky``).
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass

import moderngl
import numpy as np

import shaders
from assets_loader.q3shaders import FogParms, Shader, Stage
from assets_loader.q3shaders.records import SORT_OPAQUE

from .program_members import uniform
from .q3deform import autosprite, autosprite2
from .q3refdef import Quake3World
from .q3stages import ALPHA_FUNCS, WAVE_FUNCS, anim_frame, blend_factors, collapse, eval_wave, stage_color, \
    tc_chain, vertex_color_mode
from .view_math import angle_vectors, gl_bytes

_VERSION = "#version 330 core\n"
_LAYOUT = "3f 2f 2f 3f 4f1"
_ATTRIBUTES = ("in_position", "in_st", "in_lm", "in_normal", "in_color")
_TCGEN = {"texture": 0, "lightmap": 1, "environment": 2, "vector": 3}
_TCGEN_CLOUDS = 4
_IDENTITY = np.eye(4, dtype=np.float32)
#: Compiled stage programs per context.
_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def stage_program(ctx: moderngl.Context, collapsed: bool = False, alpha_func: int = 0,
                  skybox: bool = False, fog: bool = False, detail: bool = False) -> moderngl.Program:
    """The ``q3stage.glsl`` variant for a pass (one, two or three textures, alpha test, the sky box or a fog
    volume)."""
    cache = _PROGRAMS.setdefault(ctx, {})
    key = (collapsed, alpha_func, skybox, fog, detail)
    if key not in cache:
        header = _VERSION + f"#define ALPHA_FUNC {alpha_func}\n" + ("#define COLLAPSED\n" if collapsed else "") + \
            ("#define SKYBOX\n" if skybox else "") + ("#define FOG\n" if fog else "") + \
            ("#define DETAIL\n" if detail else "")
        src = shaders.source("q3stage")
        cache[key] = ctx.program(vertex_shader=header + "#define VERTEX_SHADER\n" + src,
                                 fragment_shader=header + "#define FRAGMENT_SHADER\n" + src)
    return cache[key]


@dataclass(frozen=True, slots=True)
class Q3View:
    """Per-frame inputs: ``view_proj [4, 4]``, camera origin, time in seconds and the camera angles."""

    view_proj: np.ndarray
    camera: tuple[float, float, float]
    time: float
    angles: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class StageLight:
    """Light for ``rgbGen lightingDiffuse``: ambient and directed RGB (0‥1) and the direction it comes from."""

    ambient: tuple[float, float, float] = (0.5, 0.5, 0.5)
    directed: tuple[float, float, float] = (0.5, 0.5, 0.5)
    direction: tuple[float, float, float] = (0.57735, 0.57735, 0.57735)


class ShaderPainter:
    """Draws vertex arrays with a shader's stages: images on first use, pass state, uniforms. Shared by the map
    and the models of a segment."""

    def __init__(self, ctx: moderngl.Context, images, lightmap: moderngl.Texture | None) -> None:
        self.ctx = ctx
        self.images = images
        self.lightmap = lightmap
        self._textures: dict[tuple[str, bool], moderngl.Texture] = {}
        self._white = ctx.texture((1, 1), 4, b"\xff\xff\xff\xff")
        self._members: dict[int, set[str]] = {}
        self._warned: set[str] = set()

    def release(self) -> None:
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()
        self._white.release()

    def texture(self, name: str, clamp: bool = False) -> moderngl.Texture:
        """The GL texture of image ``name`` (``$lightmap``, ``$whiteimage`` or a path); an image the loader did not
        decode draws white with one warning per name."""
        lower = name.lower()
        if lower == "$lightmap":
            return self.lightmap if self.lightmap is not None else self._white
        if lower in ("$whiteimage", "*white"):
            return self._white
        key = (lower, clamp)
        tex = self._textures.get(key)
        if tex is None:
            pixels = self.images.get(lower)
            if pixels is None:
                if lower not in self._warned:
                    self._warned.add(lower)
                    warnings.warn(f"image {name!r} was not loaded; drawing white", stacklevel=2)
                return self._white
            h, w = pixels.shape[:2]
            tex = self.ctx.texture((w, h), 4, np.ascontiguousarray(pixels).tobytes())
            tex.repeat_x = tex.repeat_y = not clamp
            tex.build_mipmaps()
            tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            self._textures[key] = tex
        return tex

    def _program(self, collapsed: bool, alpha_func: int, skybox: bool = False, fog: bool = False,
                 detail: bool = False) -> moderngl.Program:
        p = stage_program(self.ctx, collapsed, alpha_func, skybox, fog, detail)
        if p.glo not in self._members:
            self._members[p.glo] = set(p)
        return p

    def _set(self, p: moderngl.Program, name: str, value) -> None:
        if name in self._members[p.glo]:
            uniform(p, name).value = value

    def _common(self, p: moderngl.Program, view: Q3View, model: np.ndarray, camera_local) -> None:
        uniform(p, "u_view_proj").write(gl_bytes(view.view_proj))
        if "u_model" in self._members[p.glo]:
            uniform(p, "u_model").write(gl_bytes(np.asarray(model, np.float32)))
        self._set(p, "u_camera", tuple(float(c) for c in camera_local))
        self._set(p, "u_time", float(view.time))

    def _deforms(self, p: moderngl.Program, shader: Shader, time: float) -> None:
        mode, func, wave, spread, bulge = 0, 0, (0.0, 0.0, 0.0, 0.0), 0.0, (0.0, 0.0, 0.0)
        move = np.zeros(3)
        for d in shader.deforms:
            if d.kind == "wave" and d.wave is not None:
                mode, func = 1, WAVE_FUNCS.get(d.wave.func, 0)
                wave = (d.wave.base, d.wave.amplitude, d.wave.phase, d.wave.frequency)
                spread = d.params[0] if d.params else 0.0
            elif d.kind == "bulge" and len(d.params) >= 3:
                mode, bulge = 2, (d.params[0], d.params[1], d.params[2])
            elif d.kind == "move" and d.wave is not None and len(d.params) >= 3:
                move += np.asarray(d.params[:3]) * eval_wave(d.wave, time)
        self._set(p, "u_deform", mode)
        self._set(p, "u_deform_func", func)
        self._set(p, "u_deform_wave", wave)
        self._set(p, "u_deform_spread", float(spread))
        self._set(p, "u_bulge", bulge)
        self._set(p, "u_move", tuple(float(v) for v in move))

    def _state(self, shader: Shader, stage: Stage) -> None:
        ctx = self.ctx
        blend = blend_factors(stage)
        if blend is None:
            ctx.disable(moderngl.BLEND)
        else:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = blend
        ctx.depth_func = "==" if stage.depth_func == "equal" else "<="
        ctx.fbo.depth_mask = stage.depth_write
        if shader.cull in ("none", "twosided", "disable"):
            ctx.disable(moderngl.CULL_FACE)
        else:
            ctx.enable(moderngl.CULL_FACE)
            ctx.cull_face = "front" if shader.cull == "back" else "back"
        if shader.polygon_offset:
            ctx.polygon_offset = (-1.0, -2.0)
        else:
            ctx.polygon_offset = (0.0, 0.0)

    def draw(self, vao_for, shader: Shader, view: Q3View, model: np.ndarray, camera_local, count: int,
             first: int = 0, light: StageLight | None = None) -> None:
        """Draw ``count`` indices from ``first`` with every pass of ``shader``; ``vao_for(program)`` gives the
        vertex array to use with a program."""
        if count <= 0:
            return
        if shader.sky is not None and shader.sky.outer_box:
            self._draw_skybox(vao_for, shader, view, model, camera_local, count, first)
        for stage, second, detail in collapse(shader.stages):
            p = self._program(second is not None, ALPHA_FUNCS.get(stage.alpha_func, 0), detail=detail is not None)
            self._common(p, view, model, camera_local)
            self._deforms(p, shader, view.time)
            tcgen = _TCGEN_CLOUDS if shader.sky is not None else _TCGEN.get(stage.tc_gen, 0)
            self._set(p, "u_tcgen", tcgen)
            if stage.tc_gen_vectors is not None:
                self._set(p, "u_tc_vec0", stage.tc_gen_vectors[0])
                self._set(p, "u_tc_vec1", stage.tc_gen_vectors[1])
            if shader.sky is not None:
                self._set(p, "u_cloud_height", float(shader.sky.cloud_height))
            chain = tc_chain(stage.tc_mods, view.time)
            self._set(p, "u_tc_pre", tuple(chain.pre.astype(np.float32).T.ravel()))
            self._set(p, "u_turb", chain.turb)
            self._set(p, "u_tc_post", tuple(chain.post.astype(np.float32).T.ravel()))
            self._set(p, "u_color", stage_color(stage, view.time))
            diffuse = stage.rgb_gen == "lightingdiffuse"
            self._set(p, "u_rgb_vertex", vertex_color_mode(stage))
            self._set(p, "u_alpha_vertex", int(stage.alpha_gen == "vertex"))
            if diffuse:
                lit = light or StageLight()
                self._set(p, "u_ambient", lit.ambient)
                self._set(p, "u_directed", lit.directed)
                self._set(p, "u_light_dir", lit.direction)
            self.texture(anim_frame(stage, view.time), stage.clamp).use(0)
            self._set(p, "u_texture", 0)
            if second is not None:
                self.texture(anim_frame(second, view.time), second.clamp).use(1)
                self._set(p, "u_texture2", 1)
                self._set(p, "u_tcgen2", int(second.tc_gen == "lightmap"))
            if detail is not None:
                self.texture(anim_frame(detail, view.time), detail.clamp).use(2)
                self._set(p, "u_texture3", 2)
                tc3 = tc_chain(detail.tc_mods, view.time).pre
                self._set(p, "u_tc3", tuple(tc3.astype(np.float32).T.ravel()))
            self._state(shader, stage)
            vao_for(p).render(moderngl.TRIANGLES, vertices=count, first=first)
        self.ctx.fbo.depth_mask = True
        self.ctx.disable(moderngl.BLEND)
        self.ctx.depth_func = "<="

    def draw_fog(self, vao_for, view: Q3View, count: int, first: int, plane: tuple[float, float, float, float],
                 fog: FogParms) -> None:
        """The fog pass over surfaces drawn just before inside fog volume ``plane`` (``RB_FogPass``): the fog
        colour blended over them as opaque as the length of the view ray inside the fog makes it."""
        p = self._program(False, 0, fog=True)
        self._common(p, view, _IDENTITY, view.camera)
        self._set(p, "u_deform", 0)
        self._set(p, "u_move", (0.0, 0.0, 0.0))
        self._set(p, "u_fog_camera", tuple(float(c) for c in view.camera))
        self._set(p, "u_fog_plane", tuple(float(c) for c in plane))
        self._set(p, "u_fog_color", (*fog.color, max(float(fog.depth_for_opaque), 1.0)))
        ctx = self.ctx
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        ctx.depth_func = "=="
        ctx.fbo.depth_mask = False
        vao_for(p).render(moderngl.TRIANGLES, vertices=count, first=first)
        ctx.fbo.depth_mask = True
        ctx.disable(moderngl.BLEND)
        ctx.depth_func = "<="

    def _draw_skybox(self, vao_for, shader: Shader, view: Q3View, model: np.ndarray, camera_local, count: int,
                     first: int) -> None:
        """The outer box behind the cloud layers (``RB_StageIteratorSky``'s ``DrawSkyBox``)."""
        assert shader.sky is not None
        p = self._program(False, 0, skybox=True)
        self._common(p, view, model, camera_local)
        self._set(p, "u_deform", 0)
        self._set(p, "u_move", (0.0, 0.0, 0.0))
        names = shader.sky.box_images(shader.sky.outer_box)
        for i, name in enumerate(names):
            self.texture(name, clamp=True).use(2 + i)
        if "u_sides" in self._members[p.glo]:
            uniform(p, "u_sides").value = tuple(range(2, 8))
        self.ctx.disable(moderngl.BLEND)
        self.ctx.fbo.depth_mask = True
        if shader.cull == "front":
            self.ctx.enable(moderngl.CULL_FACE)
            self.ctx.cull_face = "back"
        else:
            self.ctx.disable(moderngl.CULL_FACE)
        vao_for(p).render(moderngl.TRIANGLES, vertices=count, first=first)


class Quake3WorldRenderer:
    """GPU resources of one Quake III map and the drawing of its world model."""

    def __init__(self, ctx: moderngl.Context, level: Quake3World) -> None:
        self.ctx = ctx
        self.level = level
        world = level.world
        self._vbo = ctx.buffer(np.ascontiguousarray(world.vertices).tobytes())
        self._ibo = ctx.buffer(reserve=max(world.indices.nbytes, 4))
        self._static_ibo = ctx.buffer(np.ascontiguousarray(world.indices, np.uint32).tobytes() or b"\0" * 4)
        atlas = world.lightmaps.pixels
        self._lightmap = ctx.texture((atlas.shape[1], atlas.shape[0]), 4, np.ascontiguousarray(atlas).tobytes())
        self._lightmap.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._lightmap.repeat_x = self._lightmap.repeat_y = False
        self.painter = ShaderPainter(ctx, level.images, self._lightmap)
        self._vaos: dict[tuple[int, bool], moderngl.VertexArray] = {}
        batches = world.batches
        self._world_batches = np.flatnonzero(batches["model"] == 0)
        self._centers = self._batch_centers()
        self._cluster: int | None = None
        self._ranges: list[tuple[int, int, int]] = []  # (batch, first index, count) of the visible list
        self._sprites = {int(b): SpriteBatch(ctx, level, int(b)) for b in self._world_batches
                         if _sprite_kind(level.shaders[int(b)]) is not None}

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

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        for sprite in self._sprites.values():
            sprite.release()
        self.painter.release()
        for obj in (self._vbo, self._ibo, self._static_ibo, self._lightmap):
            obj.release()

    def _vao(self, program: moderngl.Program, static: bool = False) -> moderngl.VertexArray:
        """The vertex array of ``program`` over the visible index list, or over all indices (``static``)."""
        vao = self._vaos.get((program.glo, static))
        if vao is None:
            vao = self._vaos[(program.glo, static)] = self.ctx.vertex_array(
                program, [(self._vbo, _LAYOUT, *_ATTRIBUTES)],
                index_buffer=self._static_ibo if static else self._ibo, index_element_size=4, skip_errors=True)
        return vao

    def _static_vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        return self._vao(program, static=True)

    def draw_submodels(self, view: Q3View, submodels: list[tuple[int, np.ndarray]]) -> None:
        """Draw brush entities: ``(submodel N of *N, model matrix [4, 4])`` each, every batch of it with its
        shader (``R_AddBrushModelSurfaces``)."""
        world = self.level.world
        self.ctx.enable(moderngl.DEPTH_TEST)
        self.ctx.front_face = "cw"
        for index, matrix in submodels:
            if not 0 < index < len(world.models):
                continue
            sub = world.models[index]
            inverse = np.linalg.inv(np.asarray(matrix, np.float64))
            camera_local = (inverse @ np.array([*view.camera, 1.0]))[:3]
            for b in range(sub.first_batch, sub.first_batch + sub.num_batches):
                rec = world.batches[b]
                self.painter.draw(self._static_vao, self.level.shaders[b], view, matrix, camera_local,
                                  int(rec["num_indices"]), int(rec["first_index"]))
        self.ctx.front_face = "ccw"

    def _update_visibility(self, camera) -> None:
        """The index list of the surfaces the camera's cluster can see, grouped by batch (``R_MarkLeaves``)."""
        world = self.level.world
        leaf = world.point_leaf(camera)
        cluster = int(world.leafs["cluster"][leaf])
        if cluster == self._cluster and self._ranges:
            return
        self._cluster = cluster
        surfaces = world.surfaces[world.visible_surfaces(camera)]
        surfaces = surfaces[(surfaces["model"] == 0) & (surfaces["num_indices"] > 0)]
        order = np.argsort(surfaces["first_index"], kind="stable")
        first = surfaces["first_index"][order].astype(np.int64)
        count = surfaces["num_indices"][order].astype(np.int64)
        total = int(count.sum())
        if total == 0:
            self._ranges = []
            return
        idx = np.repeat(first - np.cumsum(count) + count, count) + np.arange(total)
        self._ibo.write(np.ascontiguousarray(world.indices[idx], np.uint32).tobytes())
        batch_first = world.batches["first_index"].astype(np.int64)
        owner = np.searchsorted(batch_first, first, side="right") - 1
        starts = np.concatenate([[0], np.cumsum(count)[:-1]])
        ranges: list[tuple[int, int, int]] = []
        for b in np.unique(owner):
            sel = owner == b
            ranges.append((int(b), int(starts[sel][0]), int(count[sel].sum())))
        self._ranges = ranges

    def draw(self, view: Q3View, translucent: bool | None = None) -> None:
        """Draw the world model as seen from ``view``: every batch, or only those sorted up to opaque
        (``translucent=False``: before the models, as their sort places them) or only those after it (``True``)."""
        self._update_visibility(view.camera)
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.front_face = "cw"  # Quake III winds the visible side clockwise
        cam = np.asarray(view.camera, np.float32)
        shaders_ = self.level.shaders

        def key(r: tuple[int, int, int]) -> tuple[float, float]:
            sort = shaders_[r[0]].sort
            dist = float(np.sum((self._centers[r[0]] - cam) ** 2))
            return (sort, dist if sort <= SORT_OPAQUE else -dist)

        for batch, first, count in sorted(self._ranges, key=key):
            if translucent is not None and (shaders_[batch].sort > SORT_OPAQUE) != translucent:
                continue
            sprite = self._sprites.get(batch)
            if sprite is not None:
                sprite.update(view.angles)
                self.painter.draw(sprite.vao, shaders_[batch], view, _IDENTITY, view.camera, sprite.count)
            else:
                self.painter.draw(self._vao, shaders_[batch], view, _IDENTITY, view.camera, count, first)
                self._fog_pass(batch, view, count, first)
        ctx.front_face = "ccw"

    def _fog_pass(self, batch: int, view: Q3View, count: int, first: int) -> None:
        """Fog a batch inside a fog volume with a visible side, unless it is a sky or the fog's own surface."""
        fog_index = int(self.level.world.batches[batch]["fog"])
        if not 0 <= fog_index < len(self.level.fog_shaders):
            return
        fog_shader = self.level.fog_shaders[fog_index]
        plane = self.level.world.fogs[fog_index].surface_plane
        shader = self.level.shaders[batch]
        if fog_shader is None or fog_shader.fog is None or plane is None or shader.is_sky or shader.fog is not None:
            return
        self.painter.draw_fog(self._vao, view, count, first, plane, fog_shader.fog)


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

    def update(self, angles) -> None:
        """Turn the quads to a view with ``angles`` (pitch, yaw, roll)."""
        if not len(self.vertices):
            return
        verts = self.vertices.copy()
        forward, right, up = angle_vectors(angles)
        left = -np.asarray(right)
        if self.kind == "autosprite":
            verts["position"], verts["st"] = autosprite(self.vertices["position"], left, up)
        else:
            verts["position"] = autosprite2(self.vertices["position"], forward)
        self._vbo.write(verts.tobytes())

    def vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        vao = self._vaos.get(program.glo)
        if vao is None:
            vao = self._vaos[program.glo] = self.ctx.vertex_array(
                program, [(self._vbo, _LAYOUT, *_ATTRIBUTES)], index_buffer=self._ibo, index_element_size=4,
                skip_errors=True)
        return vao

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vbo.release()
        self._ibo.release()
