"""Draw a BSP: the world (PVS-culled, batched per texture) and its brush submodels (doors, plats, lifts).

Everything is uploaded once: one vertex buffer, one static index buffer, the lightmap atlas and every
texture, the plain ones (neither sky, liquid, warped, flowing nor animated) as one texture array per size
(:mod:`.texture_arrays`), so the world's faces of one size are one draw, front to back across their textures.
Per frame only uniforms change (light style values, time, dynamic lights) and the world's visible index list is
rewritten when the view changed (PVS of the camera's leaf, culled to the view frustum and sorted front to back:
:mod:`.visibility`).

Speed on a software rasterizer (Mesa llvmpipe) is per-fragment work: it runs every branch of a shader with lane
masks, so ``world.glsl`` is compiled into one small program per kind of surface (lit with one light style, lit
with several, liquid, sky, sky box, translucent; fog and dynamic lights only when present), chosen per draw; and
faces are drawn front to back so hidden fragments fail the depth test before shading.

Quake II maps go through the same passes, steered by their surface flags (:mod:`.surfaces`): sky faces show the
six-sided sky box, warped faces use the liquid program, flowing faces scroll, and translucent faces are left out
of the opaque pass and drawn back to front by :meth:`WorldRenderer.draw_translucent` after the entities. The
game's :class:`~.refdef.Lighting` scales texture and lightmap (Quake's overbright, Quake II's ``intensity`` and
``gl_modulate``).

References: GLQuake ``R_DrawWorld``/``R_RecursiveWorldNode``/``R_MarkLeaves`` (PVS), ``R_DrawBrushModel``,
``R_TextureAnimation``; gl_warp.c for sky and water; Quake II ref_gl ``R_DrawAlphaSurfaces``, ``R_DrawSkyBox``.
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass
from itertools import groupby, repeat

import moderngl
import numpy as np

import shaders
from assets_loader.bsp import animated_texture
from assets_loader.palette import Palette

from assets_loader.bsp38.dtypes import SURF_SKY, SURF_WARP

from ..gl_state import ALPHA_BLEND, GlState, use_state
from ..refdef import Lights, Look, MapWorld
from .records import QUAKE_LIGHTING, Lighting, SkyBox
from ..program_members import uniform
from .surfaces import (face_flags, flow_scroll, opaque_faces, sky_rotation, surface_alpha, texture_flags,
                       translucent_faces)
from ..textures import fullbright_rgba, upload_rgba
from ..view_math import gl_bytes
from .dlights import write_light_uniforms
from .texture_arrays import array_slots, plain_textures, texture_arrays
from .visibility import WorldVisibility, bounds_in_frustum, box_distances, frustum_planes

KIND_LIT, KIND_MULTISTYLE, KIND_LIQUID, KIND_SKY = "LIT", "MULTISTYLE", "LIQUID", "SKY"
KIND_SKYBOX, KIND_TRANSLUCENT = "SKYBOX", "TRANSLUCENT"
_IDENTITY = np.eye(4, dtype=np.float32)
#: The passes' GL state: the loader winds front faces counter-clockwise; liquids below opaque write no depth; Quake
#: II's translucent surfaces (``R_DrawAlphaSurfaces``) blend but keep writing it.
_OPAQUE = GlState(cull="back", front_face="ccw")
_LIQUID = GlState(cull="back", front_face="ccw", depth_write=False, blend=ALPHA_BLEND)
_TRANSLUCENT = GlState(cull="back", front_face="ccw", blend=ALPHA_BLEND)
_NO_ROTATION = np.eye(3, dtype=np.float32)
_VERSION = "#version 330 core\n"
_LAYOUT = "3f 2f 2f 1f 4u1"
_ATTRIBUTES = ("in_position", "in_uv", "in_lm_uv", "in_lm_step", "in_styles")
#: Compiled world programs per context (shared by the map and every BSP model of a segment).
_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def world_program(ctx: moderngl.Context, kind: str, fog: bool = False, dlights: bool = False,
                  light: tuple[float, float, float] = (1.0, 2.0, 2.0), falloff: bool = False,
                  fullbrights: bool = True, array: bool = False) -> moderngl.Program:
    """The ``world.glsl`` variant for one kind of surface (``KIND_*``), with or without fog and dynamic lights (with
    ``falloff``: Q2PRO's, :attr:`Look.dlights`); lit kinds get ``light`` (texture scale, lightmap scale, largest
    light multiplier) compiled in as constants, which llvmpipe folds (read from uniforms, the same arithmetic took
    its rasterizer ~7 % longer on ``lq_lqdm2_mvd.mvd``), and ``fullbrights`` (``Lighting.fullbrights``: texels whose
    alpha marks them unlit; without, Quake II's textures have alpha 0 and the mix is left out); ``array``: lit and
    translucent kinds read their texture from a texture array (:mod:`.texture_arrays`)."""
    cache = _PROGRAMS.setdefault(ctx, {})
    lit = kind in (KIND_LIT, KIND_MULTISTYLE)
    key = (kind, fog and kind != KIND_SKYBOX, dlights and lit, tuple(float(v) for v in light) if lit else None,
           falloff and dlights and lit, fullbrights and lit, array and (lit or kind == KIND_TRANSLUCENT))
    if key not in cache:
        defines = {KIND_LIT: ["LIT"], KIND_MULTISTYLE: ["LIT", "MULTISTYLE"], KIND_LIQUID: ["LIQUID"],
                   KIND_SKY: ["SKY"], KIND_SKYBOX: ["SKY", "SKYBOX"], KIND_TRANSLUCENT: ["TRANSLUCENT"]}[kind]
        defines += (["FOG"] if key[1] else []) + (["DLIGHTS"] if key[2] else []) \
            + (["DLIGHT_FALLOFF"] if key[4] else []) + (["FULLBRIGHTS"] if key[5] else []) \
            + (["TEXTURE_ARRAY"] if key[6] else [])
        if key[3] is not None:
            defines += [f"{name} {value!r}" for name, value in zip(("TEXTURE_SCALE", "LIGHTMAP_SCALE", "LIGHT_MAX"),
                                                                    key[3])]
        header = _VERSION + "".join(f"#define {d}\n" for d in defines)
        src = shaders.source("world")
        cache[key] = ctx.program(vertex_shader=header + "#define VERTEX_SHADER\n" + src,
                                 fragment_shader=header + "#define FRAGMENT_SHADER\n" + src)
    return cache[key]


@dataclass(frozen=True, slots=True)
class BrushDraw:
    """One brush entity to draw: submodel index (``*N``), model matrix ``[4, 4]``, alternate animation (frame ≠ 0)."""

    submodel: int
    matrix: np.ndarray
    alternate: bool = False
    alpha: float = 1.0


@dataclass(frozen=True, slots=True)
class WorldView:
    """Per-frame inputs: ``view_proj [4, 4]``, camera origin, time in seconds, style values ``[64]``, fog, the
    opacity of liquids, the dynamic lights lighting the world (``None`` or empty: none), the area bits of a Quake II
    frame (``None``: every area) and the game's look."""

    view_proj: np.ndarray
    camera: tuple[float, float, float]
    time: float
    styles: np.ndarray
    fog: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    liquid_alpha: float = 1.0
    lights: Lights | None = None
    areabits: bytes | None = None
    look: Look = Look()


class WorldRenderer:
    """GPU resources of one map and the draw calls for its world and brush entities; ``lighting``: the game's
    texture × lightmap rule, ``sky_box``: the six-sided sky Quake II's sky faces show."""

    def __init__(self, ctx: moderngl.Context, world: MapWorld, palette: Palette,
                 lighting: Lighting = QUAKE_LIGHTING, sky_box: SkyBox | None = None) -> None:
        self.ctx = ctx
        self.world = world
        self.lighting = lighting
        self.sky_box = sky_box
        mesh = world.mesh
        if mesh.num_triangles == 0:  # a valid map can hold no drawable face: show an empty world, never fail
            warnings.warn(f"{world.name}: the map has no drawable faces; rendering an empty world", stacklevel=2)
        # OpenGL buffers cannot be empty: an empty mesh gets a 4-byte placeholder that no draw call reads.
        self._vbo = ctx.buffer(mesh.vertices.tobytes() or bytes(4))
        self._ibo = ctx.buffer(mesh.indices.tobytes() or bytes(4))
        self._face_flags = face_flags(world)
        #: Each face's opacity by its surface flags (Quake II's SURF_TRANS33/66; 1 for the rest).
        self._face_alpha = np.array([surface_alpha(int(flags)) for flags in self._face_flags.tolist()], np.float64)
        self._texture_flags = texture_flags(world)
        self._flags: list[int] = self._texture_flags.tolist()
        #: Each (texture, multi-style, blended) draw's KIND_*, worked out on its first draw.
        self._kinds: dict[tuple[int, bool, bool], str] = {}
        plain = plain_textures(world, self._texture_flags)
        self._arrays = texture_arrays(ctx, world, plain, lambda i: self._texture_rgba(i, palette),
                                      lighting.texture_mode)
        #: Each texture's array (-1: none; the arrays' ``bucket`` as a list, read per draw).
        self._bucket: list[int] = self._arrays.bucket.tolist()
        #: Each texture's own GL texture(s), (front, sky back layer); ``None`` for those drawn from an array.
        self._textures = [None if self._bucket[i] >= 0 else self._upload_texture(i, palette)
                          for i in range(len(world.textures))]
        # Without a sky box (none named, or a face missing) the sky faces show black, as an unloaded sky does.
        faces = sky_box.faces if sky_box is not None else np.zeros((6, 1, 1, 4), np.uint8)
        n, h, w = faces.shape[:3]
        self._sky_box = ctx.texture_array((w, h, n), 4, np.ascontiguousarray(faces).tobytes())
        self._sky_box.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._sky_box.repeat_x = self._sky_box.repeat_y = False
        self._lightmap = ctx.texture((world.lightmap.width, world.lightmap.height), 3,
                                     np.ascontiguousarray(world.lightmap.atlas).tobytes())
        self._lightmap.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._lightmap.repeat_x = self._lightmap.repeat_y = False
        # Faces lit by more than one light style need the (4-fetch) multi-style program; the rest the lean one.
        multistyle = (np.asarray(world.lightmap.num_styles) > 1).astype(np.int64)
        self._visibility = WorldVisibility(world, multistyle, opaque_faces(self._face_flags),
                                           slots=array_slots(world, self._arrays.bucket))
        translucent = translucent_faces(self._face_flags)
        self._translucent = WorldVisibility(world, None, translucent) if translucent.any() else None
        #: This frame's translucent brush entity ranges: (distance, texture, first, count, model, alternate, alpha).
        self._brush_translucent: list[tuple[float, int, int, int, bytes, bool, float]] = []
        self._draw_multistyle = self._draws_with_multistyle(multistyle)
        #: Each drawn brush submodel's draws as (texture, first, count, multistyle, alpha), made on first use.
        self._submodel_draws: dict[int, list[tuple[int, int, int, bool, float]]] = {}
        # The per-frame index list never exceeds the whole mesh's.
        self._visible_ibo = ctx.buffer(reserve=max(mesh.indices.nbytes, 4))
        self._visible_ranges: list[list[int]] = []
        #: This frame's translucent pieces' indices back to front (made on the first translucent pass).
        self._translucent_ibo: moderngl.Buffer | None = None
        self._vaos: dict[tuple[int, int], moderngl.VertexArray] = {}
        self._members: dict[int, set[str]] = {}
        #: Each kind's program in this draw call, with [the model matrix bytes last written to it].
        self._programs: dict[tuple[str, bool], tuple[moderngl.Program, list]] = {}
        self._bound: list = [None, None, None]

    def _draws_with_multistyle(self, multistyle: np.ndarray) -> np.ndarray:
        """``bool [D]``: which static draws (``mesh.draws``) hold a face with several light styles."""
        mesh = self.world.mesh
        out = np.zeros(len(mesh.draws), bool)
        faces = np.flatnonzero((multistyle > 0) & (mesh.face_count > 0))
        if len(faces) and len(mesh.draws):
            order = np.argsort(mesh.draws["first"], kind="stable")
            slot = np.searchsorted(mesh.draws["first"][order].astype(np.int64),
                                   mesh.face_first[faces].astype(np.int64), side="right") - 1
            out[order[slot[slot >= 0]]] = True
        return out

    def _upload_texture(self, index: int, palette: Palette) -> tuple[moderngl.Texture, moderngl.Texture | None]:
        """The colour texture, plus the solid back layer for a sky (whose front layer has index 0 transparent).

        Level 0 only, with mipmaps built by 2×2 averages, minified by the game's ``Lighting.texture_mode``: the GL
        engines ignore the smaller levels stored in a MIPTEX or WAL (GLQuake ``GL_LoadTexture``, Quake II
        ``GL_LoadWal`` upload the full-size picture and ``GL_MipMap`` it)."""
        tex = self.world.textures[index]
        mode = self.lighting.texture_mode
        if self.lighting.fullbrights and tex.is_sky and tex.width >= 2:
            half = tex.width // 2
            front = upload_rgba(self.ctx, palette.to_rgba(tex.mips[0][:, :half], alpha_index=0), texture_mode=mode)
            back = upload_rgba(self.ctx, palette.to_rgba(tex.mips[0][:, half:]), texture_mode=mode)
            return front, back
        return upload_rgba(self.ctx, self._texture_rgba(index, palette), texture_mode=mode), None

    def _texture_rgba(self, index: int, palette: Palette) -> np.ndarray:
        """Texture ``index``'s level 0 as ``uint8 [H, W, 4]``, alpha 1 on fullbright texels (alpha 0 everywhere for
        a game without them: every texel is lit)."""
        mips = self.world.textures[index].mips
        if not self.lighting.fullbrights:
            rgba = palette.to_rgba(mips[0])
            rgba[..., 3] = 0
            return rgba
        return fullbright_rgba(mips[0], palette)

    def release(self) -> None:
        objects: list[moderngl.VertexArray | moderngl.Buffer | moderngl.Texture | moderngl.TextureArray] = [
            *self._vaos.values(), self._vbo, self._ibo, self._lightmap, self._visible_ibo, self._sky_box]
        self._arrays.release()
        if self._translucent_ibo is not None:
            objects.append(self._translucent_ibo)
        for obj in objects:
            obj.release()
        self._vaos.clear()
        for own in self._textures:
            if own is not None:
                own[0].release()
                if own[1] is not None:
                    own[1].release()

    # -- visibility -------------------------------------------------------------------------------------------

    def _update_visibility(self, camera, view_proj: np.ndarray, areabits: bytes | None) -> None:
        """This frame's index list: the PVS of the camera's leaf, culled to the frustum, sorted front to back
        (rewritten only when the view changed)."""
        visible, changed = self._visibility.update(camera, view_proj, areabits)
        if changed:
            if len(visible.indices):
                self._visible_ibo.write(np.ascontiguousarray(visible.indices, np.uint32).tobytes())
            self._visible_ranges = visible.ranges.tolist()

    # -- drawing ----------------------------------------------------------------------------------------------

    def _kind(self, texture: int, multistyle: bool) -> str:
        flags = int(self._texture_flags[texture])
        own = self._textures[texture]
        if own is not None and own[1] is not None:
            return KIND_SKY
        if flags & SURF_SKY:
            return KIND_SKYBOX
        if self.world.textures[texture].is_liquid or flags & SURF_WARP:
            return KIND_LIQUID
        return KIND_MULTISTYLE if multistyle else KIND_LIT

    def _begin(self, state: GlState = _OPAQUE) -> None:
        """Start a draw call with ``state``: programs are shared, so each gets this call's uniforms on first use."""
        use_state(self.ctx, state)
        self._programs = {}
        self._bound = [None, None, None]
        self._lightmap.use(1)

    def _program(self, kind: str, view: WorldView, model: bytes, array: bool = False) -> moderngl.Program:
        """The program drawing ``kind`` (from a texture array or not) in this draw call (:meth:`_begin`), its
        uniforms written on its first use and ``u_model`` when ``model`` changes."""
        found = self._programs.get((kind, array))
        if found is None:
            found = self._programs[(kind, array)] = self._prepare(kind, view, array)
        p, state = found
        if state[0] != model:
            uniform(p, "u_model").write(model)
            state[0] = model
        return p

    def _prepare(self, kind: str, view: WorldView, array: bool = False) -> tuple[moderngl.Program, list]:
        """The program of ``kind`` with this draw call's uniforms written (:meth:`_program` asks once per kind and
        call; each kind is its own program), and its [model matrix bytes] not yet written."""
        fog = view.fog[3] > 0
        dlights = view.lights is not None and len(view.lights) > 0
        cap = view.look.light_max if view.look.light_max is not None else self.lighting.lightmap_scale
        p = world_program(self.ctx, kind, fog, dlights,
                          (self.lighting.texture_scale, self.lighting.lightmap_scale, cap),
                          falloff=view.look.dlights == "q2pro", fullbrights=self.lighting.fullbrights, array=array)
        members = self._members.get(p.glo)
        if members is None:
            members = self._members[p.glo] = set(p)
        uniform(p, "u_view_proj").write(gl_bytes(view.view_proj))
        if "u_texture" in members:  # not in the sky box program
            uniform(p, "u_texture").value = 0
        if "u_lightmap" in members:
            uniform(p, "u_lightmap").value = 1
            uniform(p, "u_styles").write(np.asarray(view.styles, np.float32).tobytes())
        if "u_sky_back" in members:
            uniform(p, "u_sky_back").value = 2
        if "u_camera" in members:
            uniform(p, "u_camera").value = tuple(float(c) for c in view.camera)
        if "u_time" in members:
            uniform(p, "u_time").value = float(view.time)
        if "u_fog" in members:
            uniform(p, "u_fog").value = tuple(float(c) for c in view.fog)
        if "u_sky_fog" in members:
            uniform(p, "u_sky_fog").value = float(view.look.sky_fog)
        if "u_liquid_alpha" in members:
            uniform(p, "u_liquid_alpha").value = float(view.liquid_alpha)
        if "u_sky_box" in members:
            uniform(p, "u_sky_box").value = 3
            rotation = sky_rotation(self.sky_box, view.time) if self.sky_box is not None else _NO_ROTATION
            uniform(p, "u_sky_rotation").write(rotation.tobytes())
            self._sky_box.use(3)
        if view.lights is not None and "u_dlight_count" in members:
            write_light_uniforms(p, view.lights, view.camera)
        return p, [None]

    def _vao(self, program: moderngl.Program, indices: moderngl.Buffer) -> moderngl.VertexArray:
        vao = self._vaos.get((program.glo, indices.glo))
        if vao is None:
            content: list[tuple] = [(self._vbo, _LAYOUT, *_ATTRIBUTES)]
            if "in_layer" in program:   # (a texture array's program)
                content.append((self._arrays.layers, "1f", "in_layer"))
            vao = self._vaos[(program.glo, indices.glo)] = self.ctx.vertex_array(
                program, content, index_buffer=indices, index_element_size=4, skip_errors=True)
        return vao

    def _draw_range(self, indices: moderngl.Buffer, texture: int, first: int, count: int, multistyle: bool,
                    view: WorldView, model: bytes, alternate: bool, alpha: float = 1.0) -> None:
        key = (texture, multistyle, alpha < 1)
        kind = self._kinds.get(key)
        if kind is None:
            kind = self._kinds[key] = KIND_TRANSLUCENT if alpha < 1 and not self.world.textures[texture].is_liquid \
                and not self._texture_flags[texture] & SURF_WARP else self._kind(texture, multistyle)
        drawn = animated_texture(self.world.textures, texture, view.time, alternate)
        bucket = self._bucket[drawn]
        program = self._program(kind, view, model, bucket >= 0)
        own = self._textures[drawn]
        front, back = own if own is not None else (self._arrays.arrays[bucket], None)
        flags = self._flags[texture]
        if kind == KIND_LIQUID:
            tex = self.world.textures[texture]
            uniform(program, "u_texture_size").value = (float(tex.width), float(tex.height))
            uniform(program, "u_liquid_alpha").value = alpha if alpha < 1 else float(view.liquid_alpha)
        if kind == KIND_TRANSLUCENT:
            uniform(program, "u_alpha").value = alpha
        if kind in (KIND_LIT, KIND_MULTISTYLE, KIND_LIQUID, KIND_TRANSLUCENT):
            uniform(program, "u_scroll").value = flow_scroll(flags, view.time)
        if self._bound[0] is not front:
            front.use(0)
            self._bound[0] = front
        if back is not None and self._bound[2] is not back:
            back.use(2)
            self._bound[2] = back
        self._vao(program, indices).render(moderngl.TRIANGLES, vertices=count, first=first)

    def draw_world(self, view: WorldView) -> None:
        """Draw model 0, culled to the PVS of the camera's leaf, front to back; then sky, then opaque liquids.
        Translucent liquids (``view.liquid_alpha`` < 1) wait for :meth:`draw_liquids`, after every opaque model;
        Quake II's translucent faces for :meth:`draw_translucent`."""
        self._update_visibility(view.camera, view.view_proj, view.areabits)
        self._brush_translucent = []
        self._begin()
        model = gl_bytes(_IDENTITY)
        later = []
        for texture, first, count, key in self._visible_ranges:
            tex = self.world.textures[texture]
            if tex.is_liquid and view.liquid_alpha < 1:
                continue
            own = self._textures[texture]
            if own is not None and own[1] is not None:
                later.append((texture, first, count, key))
            else:
                self._draw_range(self._visible_ibo, texture, first, count, key > 0, view, model, False)
        for texture, first, count, key in later:
            self._draw_range(self._visible_ibo, texture, first, count, key > 0, view, model, False)

    def draw_liquids(self, view: WorldView) -> None:
        """The world's visible liquid surfaces blended at ``view.liquid_alpha``, back to front, without writing depth
        (QuakeSpasm ``R_DrawTextureChains_Water`` with ``r_wateralpha`` below 1; nothing when liquids are opaque)."""
        if view.liquid_alpha >= 1:
            return
        liquids = [r for r in self._visible_ranges if self.world.textures[r[0]].is_liquid]
        if not liquids:
            return
        self._begin(_LIQUID)
        model = gl_bytes(_IDENTITY)
        for texture, first, count, key in reversed(liquids):   # ranges come front to back
            self._draw_range(self._visible_ibo, texture, first, count, key > 0, view, model, False)

    def draw_translucent(self, view: WorldView) -> None:
        """Quake II's ``SURF_TRANS33``/``SURF_TRANS66`` surfaces, blended back to front after the entities
        (``R_DrawAlphaSurfaces``): the world's faces in the PVS and the view, one face per draw, and the translucent
        textures of the brush entities :meth:`draw_brushes` drew this frame, by their distance. The pieces' indices
        are copied in that order into one list, so a run of pieces with the same texture, transform and alpha (all
        of a frame's, often) is one draw call, blended in the same order."""
        pieces = sorted(self._world_translucent(view) + self._brush_translucent, key=lambda p: -p[0])
        self._brush_translucent = []
        if not pieces:
            return
        indices = self._translucent_indices(pieces)
        self._begin(_TRANSLUCENT)
        start = 0
        for (texture, model, alternate, alpha), run in groupby(pieces, key=lambda p: (p[1], p[4], p[5], p[6])):
            count = sum(piece[3] for piece in run)
            self._draw_range(indices, texture, start, count, False, view, model, alternate, alpha)
            start += count

    def _translucent_indices(self, pieces: list[tuple[float, int, int, int, bytes, bool, float]]) -> moderngl.Buffer:
        """The buffer holding the index ranges (first, count) of ``pieces`` one after the other (grown when a frame
        needs more than the map's whole index list, as when one brush model is drawn by several entities)."""
        mesh = self.world.mesh
        firsts = np.fromiter((p[2] for p in pieces), np.int64, len(pieces))
        counts = np.fromiter((p[3] for p in pieces), np.int64, len(pieces))
        ends = np.cumsum(counts)
        data = mesh.indices[np.repeat(firsts - (ends - counts), counts) + np.arange(int(ends[-1]))]
        buffer = self._translucent_ibo
        if buffer is None or buffer.size < data.nbytes:
            if buffer is not None:
                for key in [key for key in self._vaos if key[1] == buffer.glo]:
                    self._vaos.pop(key).release()
                buffer.release()
            buffer = self._translucent_ibo = self.ctx.buffer(reserve=max(data.nbytes, mesh.indices.nbytes, 4))
        buffer.write(np.ascontiguousarray(data, np.uint32).tobytes())
        return buffer

    def _world_translucent(self, view: WorldView) -> list[tuple[float, int, int, int, bytes, bool, float]]:
        """The world's translucent faces in the PVS and the view, one piece per face (none in a map without any)."""
        if self._translucent is None:
            return []
        found = self._translucent.pvs_faces(self._visibility.leaf(view.camera), view.areabits)
        assert found.bounds is not None and found.mins is not None and found.maxs is not None
        keep = np.flatnonzero(bounds_in_frustum(found.bounds, frustum_planes(view.view_proj)))
        faces = found.faces[keep]
        return list(zip(box_distances(found.mins[keep], found.maxs[keep], view.camera).tolist(),
                        self.world.faces["texture"][faces].tolist(), found.firsts[keep].tolist(),
                        found.counts[keep].tolist(), repeat(gl_bytes(_IDENTITY)), repeat(False),
                        self._face_alpha[faces].tolist()))

    def _draws_of(self, submodel: int) -> list[tuple[int, int, int, bool, float]]:
        """Brush submodel ``submodel``'s draws as plain tuples (texture, first, count, multistyle, alpha): read from
        the mesh's arrays once, not element by element every frame."""
        draws = self._submodel_draws.get(submodel)
        if draws is None:
            sub = self.world.submodels[submodel]
            span = slice(sub.first_draw, sub.first_draw + sub.num_draws)
            rows = self.world.mesh.draws[span]
            draws = self._submodel_draws[submodel] = [
                (texture, first, count, multistyle, surface_alpha(int(self._texture_flags[texture])))
                for texture, first, count, multistyle in zip(rows["texture"].tolist(), rows["first"].tolist(),
                                                             rows["count"].tolist(),
                                                             self._draw_multistyle[span].tolist())]
        return draws

    def draw_brushes(self, view: WorldView, brushes: list[BrushDraw]) -> None:
        """Draw brush entities (``*N`` submodels; 0 for a whole BSP used as a model) at their own transforms; their
        Quake II translucent textures wait for :meth:`draw_translucent`."""
        if not brushes:
            return
        self._begin()
        for brush in brushes:
            if not 0 <= brush.submodel < len(self.world.submodels):
                continue
            model = gl_bytes(brush.matrix)
            for texture, first, count, multistyle, alpha in self._draws_of(brush.submodel):
                if alpha < 1:
                    sub = self.world.submodels[brush.submodel]
                    self._brush_translucent.append((_brush_distance(brush, sub, view.camera), texture, first, count,
                                                    model, brush.alternate, alpha))
                    continue
                self._draw_range(self._ibo, texture, first, count, multistyle, view, model, brush.alternate)


def placed_sphere(sub, matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """The sphere around submodel ``sub``'s box where ``matrix`` places it: centre ``f8[3]`` and radius."""
    lo, hi = np.asarray(sub.mins, np.float64), np.asarray(sub.maxs, np.float64)
    centre = np.asarray(matrix, np.float64) @ np.append((lo + hi) * 0.5, 1.0)
    return centre[:3], float(np.linalg.norm(hi - lo)) * 0.5


def _brush_distance(brush: BrushDraw, sub, camera) -> float:
    """Distance from ``camera`` to the centre of a brush entity's box, where its transform puts it (the sort key of
    its translucent surfaces)."""
    centre, _radius = placed_sphere(sub, brush.matrix)
    return float(np.linalg.norm(centre - np.asarray(camera, np.float64)))
