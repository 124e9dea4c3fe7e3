"""Drawing Quake alias models (``.mdl``) and the placeholder box for models that failed to load.

Upload once, draw many: :meth:`AliasRenderer.upload` puts every pose of a model in one vertex buffer
(``f4[P, M, 6]``: position, unit normal per mesh vertex, M = on-seam-split mesh vertices) and every skin picture in
one ``R8`` texture array of palette indices. :meth:`AliasRenderer.draw` points the pose-a and pose-b attributes at
two slices of that buffer (no re-upload) and the vertex shader blends them, as QuakeSpasm's GLSL path does.

Colour: skins are filtered as the engine's default texture mode does (``Lighting.texture_mode``: QuakeSpasm's
``GL_LINEAR_MIPMAP_LINEAR``, Quake II's ``GL_LINEAR_MIPMAP_NEAREST``) from an RGBA copy with mipmaps; with player
colours the fragment shader instead reads the four nearest skin indices, maps each through a 256-entry translation
(shirt/pants, :func:`assets_loader.palette.translation_table`) and the palette (256×1 RGBA), and filters the results
bilinearly. Skin indices 224..255 are fullbright (drawn at light 1.0); the mask uses the untranslated skin index,
like the fullbright textures of GL engines. Each distinct translation gets its own 256×1 texture, made on first use
and kept (at most one per shirt/pants pair, :data:`MAX_TRANSLATIONS`), so drawing binds a texture instead of
rewriting a shared one: a rewrite makes Mesa finish every queued draw that reads the texture first (issue 20).

The two ways of colouring (and the placeholder box, and fog) are separate programs compiled from ``alias.glsl``
(:data:`VARIANTS`), never one program branching on a uniform: Mesa specialises a program on the uniforms its
branches test, and alternating such a uniform between draws (players, then items) made llvmpipe wait for its
rasterizer inside those draws, about half of the frame's wall time on ``lq_lqdm2_mvd.mvd`` (issue 20).

Lighting (:class:`AliasLight`) keeps Quake's two numbers in Quake's 0..255 light units:

    light = clamp((ambient + shade * (anorm_dot(n) - 1)) / 128 * light_colour, 0, light_max),
    colour = fog(min(texel * light, 1))

``anorm_dot`` approximates the ``anorm_dots`` table (``1 + d`` for ``d = n·shadevector ≥ 0``, ``1 + d·13/44``
behind), the shade vector comes from the entity yaw quantized to 16 steps (``R_SetupAliasLighting``), and the two
poses' dot terms are blended like their positions. So 128 units draw the skin as painted, 255 about twice as bright
(clamped per channel to white; ``light_max`` 2 is QuakeSpasm's overbright, 1 GLQuake's), and the dot term adds
between −0.3 and +1 times ``shade``. ``light_colour`` is the ``.lit`` light's RGB over its mean (QuakeSpasm lights
models with the coloured light); fog is the world's exp2 fog on the eye depth (``Fog_SetupFrame``).
:meth:`AliasLight.from_level` applies GLQuake's/software Quake's clamps to a light level from ``R_LightPoint``.

Winding: Quake triangles are clockwise when seen from the front (GLQuake culls ``GL_FRONT`` with the default
counter-clockwise front face), so ``draw`` sets ``front_face='cw'`` and culls back faces.

References: QuakeSpasm ``r_alias.c`` (``GL_DrawAliasFrame``, ``GL_DrawAliasFrame_GLSL``, ``R_SetupAliasFrame``,
``R_SetupAliasLighting``), GLQuake ``gl_rmain.c`` (``R_DrawAliasModel``: minimum light for the view model and
players, the ambient ≤ 128 and ambient + shade ≤ 192 clamps, ``shadedots``), software Quake ``r_alias.c``
(``R_AliasSetupLighting``), ``gl_rmisc.c`` (``R_TranslatePlayerSkin``), ``gl_rmain.c`` (``R_SetupGL``: culling);
Quake II ``ref_gl/gl_mesh.c`` (``R_DrawAliasModel``: shadelight, ``RF_MINLIGHT``; ``GL_DrawAliasFrameLerp``: colour
shells, ``POWERSUIT_SCALE``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import moderngl
import numpy as np

import shaders
from assets_loader.models.anorms import normal_vectors
from assets_loader.models.mdl import AliasModel
from assets_loader.palette import Palette

from ..textures import TEXTURE_MODES, fullbright_rgba
from ..program_members import uniforms as uniforms_of
from ..view_math import gl_bytes

#: Quake II's ``POWERSUIT_SCALE``: how far a colour shell stands out of the model, in units along the normals.
SHELL_PUSH = 4.0
#: Quake II's ``RF_MINLIGHT`` floor (0.1 of a full 255 level) for the view weapon.
REF_GL_MINLIGHT = 25.5
#: Quantization of the entity yaw for the light direction (``SHADEDOT_QUANT``).
SHADEDOT_QUANT = 16
_POSE_VERTEX = np.dtype([("position", "<f4", 3), ("normal", "<f4", 3)])   # 24 bytes
_VERSION = "#version 330 core\n"
#: ``alias.glsl`` program variants by the ``#define`` s they compile with (each also with and without ``FOG``).
VARIANTS: dict[str, tuple[str, ...]] = {"skin": (), "translated": ("TRANSLATED",), "placeholder": ("PLACEHOLDER",),
                                         "shell": ("SHELL",)}
#: Texture units of the samplers (a program variant has the ones it reads).
_SAMPLER_UNITS = {"u_skin": 0, "u_translation": 1, "u_palette": 2, "u_skin_rgba": 3}
#: ``layout(location)`` of the pose attributes in ``alias.glsl`` (the normal follows each position).
_POS_A, _POS_B = 0, 2
#: Translation textures kept at once: one per shirt/pants pair (16 × 16).
MAX_TRANSLATIONS = 16 * 16


def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    x, y, z = (np.array(v) / np.linalg.norm(v)).astype(np.float32).tolist()
    return (x, y, z)


def _shade_vector_of_step(q: int) -> tuple[float, float, float]:
    a = q / SHADEDOT_QUANT * 2.0 * math.pi
    return _unit((math.cos(-a), math.sin(-a), 1.0))


#: The light direction of each of the 16 yaw steps (made once: a model is drawn every frame).
_SHADE_VECTORS = tuple(_shade_vector_of_step(q) for q in range(SHADEDOT_QUANT))
#: The placeholder box's light direction (every face a different shade).
_PLACEHOLDER_LIGHT = _unit((0.5, -0.3, 0.8))


def _shade_step(yaw: float) -> int:
    return int(yaw * (SHADEDOT_QUANT / 360.0)) & (SHADEDOT_QUANT - 1)


def shade_vector(yaw: float) -> np.ndarray:
    """``f4[3]``: the model-space light direction for an entity with ``yaw`` degrees (quantized to 16 steps)."""
    return np.array(_SHADE_VECTORS[_shade_step(yaw)], np.float32)


@dataclass(frozen=True, slots=True)
class AliasLight:
    """How an alias model is lit, in Quake light units (0..255; 128 = the skin as painted).

    ``ambient``: light on every vertex; ``shade``: the directional part, times ``anorm_dot(n) - 1`` (−0.3..1);
    ``yaw``: the entity yaw in degrees, which picks the light direction (:func:`shade_vector`);
    ``fullbright``: draw every texel at light 1.0 (``r_fullbright``, or models such as flames);
    ``color``: the colour of the light under the model (a ``.lit`` map's RGB light over its mean; white without)."""

    ambient: float = 128.0
    shade: float = 64.0
    yaw: float = 0.0
    fullbright: bool = False
    color: tuple[float, float, float] = (1.0, 1.0, 1.0)

    @classmethod
    def from_level(cls, level: float | np.ndarray, yaw: float = 0.0, *, view_model: bool = False,
                   player: bool = False, fullbright: bool = False, rule: str = "glquake") -> AliasLight:
        """The engine's rules (``rule``, :attr:`~.refdef.Look.model_light`) for a light ``level`` sampled under the
        entity (``R_LightPoint`` + dlights): a grey level, or RGB ``[3]`` whose mean is the level and whose ratios
        colour the light.

        ``"glquake"`` (ezQuake's too): the view model gets at least 24, players at least 8; ambient is clamped to
        128 and shade to ``192 - ambient``. ``"quakespasm"`` (``gl_overbright`` with ``gl_overbright_models``): the
        same minimums, the level clamped to 96 ("so it doesn't overbright as much"), and the light
        ``level / 200 × shadedot`` doubled, i.e. ``level × 1.28`` in 128-based units. ``"ref_gl"`` (Quake II
        ``R_DrawAliasModel``): the light is ``level / 255 × shadedot`` on a skin brightened by ``intensity`` 2, i.e.
        the level itself in 128-based units, with no ambient clamp (GL caps the colour at twice the skin); the view
        weapon (``RF_MINLIGHT``) gets at least 0.1 (25.5) when every channel is darker."""
        if np.ndim(level) == 0:
            r = g = b = max(float(level), 0.0)
        else:
            r, g, b = (max(v, 0.0) for v in np.asarray(level, np.float64).tolist())
        mean = (r + g + b) / 3.0
        color = (r / mean, g / mean, b / mean) if mean > 1e-6 else (1.0, 1.0, 1.0)
        if rule == "ref_gl":
            if view_model and max(r, g, b) <= REF_GL_MINLIGHT:
                mean, color = REF_GL_MINLIGHT, (1.0, 1.0, 1.0)
            return cls(mean, mean, yaw, fullbright, color)
        if rule == "quakespasm":
            if view_model:
                mean = max(mean, 24.0)
            if player:
                mean = max(mean, 8.0)
            light = min(mean, 96.0) * (128.0 / 100.0)
            return cls(light, light, yaw, fullbright, color)
        ambient = shade = mean
        if view_model and ambient < 24:
            ambient = shade = 24.0
        ambient = min(ambient, 128.0)
        shade = min(shade, 192.0 - ambient)
        if player and ambient < 8:
            ambient = shade = 8.0
        return cls(ambient, shade, yaw, fullbright, color)


@dataclass(frozen=True, slots=True, eq=False)
class AliasHandle:
    """GPU resources of one uploaded model. ``model`` is kept for pose/skin lookups and bounds."""

    model: AliasModel
    pose_buffer: moderngl.Buffer      # f4[P, M, 6]: position xyz, normal xyz
    uv_buffer: moderngl.Buffer        # f4[M, 2]
    index_buffer: moderngl.Buffer     # u4[T * 3]
    vaos: dict[int, moderngl.VertexArray]   # per program (by GL name), made on its first draw
    skins: moderngl.TextureArray      # R8 [S] x (W, H)
    skins_rgba: moderngl.TextureArray  # RGBA8 [S] x (W, H), mipmapped: colours, A = fullbright
    palette: moderngl.Texture         # 256x1 RGBA8 (shared by the renderer, not released with the handle)
    num_mesh_verts: int
    first_fullbright: int = 224       # skin indices from here on are unlit (256: none, Quake II)

    @property
    def pose_stride(self) -> int:
        """Bytes from one pose to the next in ``pose_buffer``."""
        return self.num_mesh_verts * _POSE_VERTEX.itemsize

    def release(self) -> None:
        for vao in self.vaos.values():
            vao.release()
        self.vaos.clear()
        for obj in (self.skins, self.skins_rgba, self.index_buffer, self.uv_buffer, self.pose_buffer):
            obj.release()


def _box_mesh() -> np.ndarray:
    """``f4[36, 6]``: the unit cube [0, 1]³ as 12 triangles wound clockwise seen from outside (Quake order)."""
    faces = (  # (normal, four corners counter-clockwise seen from outside)
        ((1, 0, 0), ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1))),
        ((-1, 0, 0), ((0, 1, 0), (0, 0, 0), (0, 0, 1), (0, 1, 1))),
        ((0, 1, 0), ((1, 1, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1))),
        ((0, -1, 0), ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1))),
        ((0, 0, 1), ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))),
        ((0, 0, -1), ((0, 1, 0), (1, 1, 0), (1, 0, 0), (0, 0, 0))),
    )
    rows = []
    for normal, (a, b, c, d) in faces:
        for corner in (a, c, b, a, d, c):   # reversed → clockwise from outside
            rows.append((*corner, *normal))
    return np.array(rows, dtype=np.float32)


class AliasRenderer:
    """Draws uploaded alias models into whatever framebuffer is bound (depth test on, back faces culled)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._programs: dict[tuple[str, bool], moderngl.Program] = {}
        self._uniforms: dict[int, dict[str, moderngl.Uniform]] = {}   # each program's uniforms (by GL name)
        self._translations: dict[bytes, moderngl.Texture] = {}
        self._palettes: dict[bytes, moderngl.Texture] = {}
        self._look: tuple[float, tuple[float, float, float, float]] = (2.0, (0.0, 0.0, 0.0, 0.0))
        self._look_written: dict[int, tuple[float, tuple[float, float, float, float]]] = {}
        self._box = ctx.buffer(_box_mesh().tobytes())
        self._box_vaos: dict[int, moderngl.VertexArray] = {}

    # -- resources ---------------------------------------------------------------------------------------------

    def program(self, variant: str, fog: bool = False) -> moderngl.Program:
        """The ``alias.glsl`` program of one :data:`VARIANTS` entry, with or without fog (compiled on first use)."""
        key = (variant, fog)
        program = self._programs.get(key)
        if program is None:
            header = _VERSION + "".join(f"#define {d}\n" for d in (*VARIANTS[variant], *(["FOG"] if fog else [])))
            src = shaders.source("alias")
            program = self._programs[key] = self.ctx.program(
                vertex_shader=header + "#define VERTEX_SHADER\n" + src,
                fragment_shader=header + "#define FRAGMENT_SHADER\n" + src)
            uniforms = self._uniforms[program.glo] = uniforms_of(program)
            for name, unit in _SAMPLER_UNITS.items():
                if name in uniforms:
                    uniforms[name].value = unit
        return program

    def _palette_texture(self, palette: Palette) -> moderngl.Texture:
        key = np.ascontiguousarray(palette.rgb, dtype=np.uint8).tobytes()
        tex = self._palettes.get(key)
        if tex is None:
            tex = self.ctx.texture((256, 1), 4, palette.rgba_table().tobytes())
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            self._palettes[key] = tex
        return tex

    def upload(self, model: AliasModel, palette: Palette, fullbrights: bool = True,
               texture_mode: str = "GL_LINEAR_MIPMAP_LINEAR") -> AliasHandle:
        """Copy every pose, the texture coordinates, the triangles and every skin picture to the GPU once;
        ``fullbrights``: skin indices 224..255 ignore light (Quake; Quake II has no fullbright colours);
        ``texture_mode``: the ``gl_texturemode`` minifying the skins (:data:`.textures.TEXTURE_MODES`)."""
        mesh = model.mesh
        m = len(mesh.vertex_index)
        poses = np.empty((model.num_poses, m), dtype=_POSE_VERTEX)
        poses["position"] = model.positions[:, mesh.vertex_index]
        poses["normal"] = normal_vectors(model.normals[:, mesh.vertex_index])
        pose_buffer = self.ctx.buffer(poses.tobytes())
        uv_buffer = self.ctx.buffer(np.ascontiguousarray(mesh.uv, dtype=np.float32).tobytes())
        index_buffer = self.ctx.buffer(np.ascontiguousarray(mesh.indices, dtype=np.uint32).tobytes())
        s, h, w = model.skin_images.shape
        skins = self.ctx.texture_array((w, h, s), 1, np.ascontiguousarray(model.skin_images).tobytes(),
                                       alignment=1, dtype="f1")
        skins.filter = (moderngl.NEAREST, moderngl.NEAREST)
        skins.repeat_x = skins.repeat_y = True   # Quake skins wrap (seam-shifted s may reach the edge)
        if model.skin_rgba is not None:   # truecolour skins: no fullbright texels
            rgba = np.array(model.skin_rgba)
            rgba[..., 3] = 0
        else:
            rgba = np.stack([fullbright_rgba(image, palette) for image in model.skin_images])
            if not fullbrights:
                rgba[..., 3] = 0
        skins_rgba = self.ctx.texture_array((w, h, s), 4, np.ascontiguousarray(rgba).tobytes(), alignment=1)
        skins_rgba.build_mipmaps()
        skins_rgba.filter = (TEXTURE_MODES[texture_mode], moderngl.LINEAR)
        skins_rgba.repeat_x = skins_rgba.repeat_y = True
        return AliasHandle(model, pose_buffer, uv_buffer, index_buffer, {}, skins, skins_rgba,
                           self._palette_texture(palette), m, 224 if fullbrights else 256)

    def _vertex_array(self, handle: AliasHandle, program: moderngl.Program) -> moderngl.VertexArray:
        vao = handle.vaos.get(program.glo)
        if vao is None:
            vao = handle.vaos[program.glo] = self.ctx.vertex_array(program, [
                (handle.pose_buffer, "3f 3f", "in_pos_a", "in_normal_a"),
                (handle.pose_buffer, "3f 3f", "in_pos_b", "in_normal_b"),
                (handle.uv_buffer, "2f", "in_uv"),
            ], index_buffer=handle.index_buffer, index_element_size=4, skip_errors=True)  # the shell reads no uv
        return vao

    def release(self) -> None:
        """Free the renderer's own objects (handles are released separately)."""
        objects: list[moderngl.VertexArray | moderngl.Buffer | moderngl.Texture | moderngl.Program] = [
            *self._box_vaos.values(), self._box, *self._programs.values(), *self._palettes.values(),
            *self._translations.values()]
        for obj in objects:
            obj.release()
        self._box_vaos.clear()
        self._programs.clear()
        self._palettes.clear()
        self._translations.clear()

    @property
    def translation_count(self) -> int:
        """How many translation textures are cached."""
        return len(self._translations)

    # -- drawing -------------------------------------------------------------------------------------------------

    def _set_state(self, alpha: float) -> None:
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.front_face = "cw"
        ctx.cull_face = "back"
        if alpha < 1.0:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            ctx.fbo.depth_mask = False
        else:
            ctx.disable(moderngl.BLEND)

    def _restore_state(self, alpha: float) -> None:
        if alpha < 1.0:
            self.ctx.fbo.depth_mask = True
            self.ctx.disable(moderngl.BLEND)

    def set_look(self, light_max: float, fog: tuple[float, float, float, float]) -> None:
        """For the draws that follow: the largest light multiplier (``Look.light_max``) and the fog
        (r, g, b, density; density 0 = none), applied as the world's."""
        fog4 = (float(fog[0]), float(fog[1]), float(fog[2]), float(fog[3]))
        self._look = (float(light_max), fog4)

    def _use(self, variant: str) -> tuple[moderngl.Program, dict[str, moderngl.Uniform]]:
        """The program for ``variant`` under the current look and its uniforms, with the look written into it if
        it changed."""
        light_max, fog = self._look
        program = self.program(variant, fog[3] > 0)
        uniforms = self._uniforms[program.glo]
        if self._look_written.get(program.glo) != self._look:
            if "u_light_max" in uniforms:   # not in the unlit shell
                uniforms["u_light_max"].value = light_max
            if fog[3] > 0:
                uniforms["u_fog"].value = fog
            self._look_written[program.glo] = self._look
        return program, uniforms

    @staticmethod
    def _set_light(uniforms: dict[str, moderngl.Uniform], light: AliasLight,
                   shade_vector: tuple[float, float, float]) -> None:
        uniforms["u_light_color"].value = light.color
        uniforms["u_ambient"].value = float(light.ambient)
        uniforms["u_shade"].value = float(light.shade)
        uniforms["u_shadevector"].value = shade_vector

    def _translation_texture(self, translation: np.ndarray) -> moderngl.Texture:
        """The cached 256×1 texture of ``translation`` (made on first use; the oldest is dropped past
        :data:`MAX_TRANSLATIONS`)."""
        data = np.asarray(translation, dtype=np.uint8).tobytes()
        if len(data) != 256:
            raise ValueError(f"a colour translation has 256 entries, got {len(data)}")
        tex = self._translations.get(data)
        if tex is None:
            if len(self._translations) >= MAX_TRANSLATIONS:
                self._translations.pop(next(iter(self._translations))).release()
            tex = self.ctx.texture((256, 1), 1, data, dtype="f1")
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            self._translations[data] = tex
        return tex

    def draw(self, handle: AliasHandle, view_proj: np.ndarray, model_matrix: np.ndarray,
             pose_a: int, pose_b: int | None = None, blend: float = 0.0, *, skin: int = 0, time: float = 0.0,
             translation: np.ndarray | None = None, light: AliasLight = AliasLight(), alpha: float = 1.0,
             shell: tuple[float, float, float] | None = None) -> None:
        """Draw ``handle`` between poses ``pose_a`` and ``pose_b`` (indices into the model's poses).

        ``view_proj``/``model_matrix``: ``f4[4, 4]`` column-vector matrices (``view_projection``,
        ``entity_matrix``); ``blend`` 0 shows pose a, 1 pose b (``pose_b=None`` means ``pose_a``); ``skin`` is the
        skin number and ``time`` the client time + sync base that picks a skin group's picture
        (:meth:`AliasModel.skin_image_at`); ``translation``: ``u1[256]`` player colours or ``None``; ``alpha`` < 1
        blends without writing depth; ``shell``: a Quake II colour shell of that RGB (0..1), the mesh pushed
        :data:`SHELL_PUSH` units out along its normals, untextured and unlit. Out-of-range poses fall back to pose 0.
        """
        if alpha <= 0.0:
            return
        model = handle.model
        pose_b = pose_a if pose_b is None else pose_b
        pose_a = pose_a if 0 <= pose_a < model.num_poses else 0
        pose_b = pose_b if 0 <= pose_b < model.num_poses else 0
        variant = "shell" if shell is not None else "translated" if translation is not None else "skin"
        prog, u = self._use(variant)
        vao = self._vertex_array(handle, prog)
        stride = _POSE_VERTEX.itemsize
        for location, pose in ((_POS_A, pose_a), (_POS_B, pose_b)):
            base = pose * handle.pose_stride
            vao.bind(location, "f", handle.pose_buffer, "3f", offset=base, stride=stride)
            vao.bind(location + 1, "f", handle.pose_buffer, "3f", offset=base + 12, stride=stride)
        u["u_mvp"].write(gl_bytes(np.asarray(view_proj, np.float32) @ np.asarray(model_matrix, np.float32)))
        u["u_blend"].value = float(min(max(blend, 0.0), 1.0)) if pose_a != pose_b else 0.0
        u["u_alpha"].value = float(min(alpha, 1.0))
        if shell is not None:   # unlit and untextured
            u["u_push"].value = SHELL_PUSH
            u["u_shell_color"].value = (float(shell[0]), float(shell[1]), float(shell[2]))
        else:
            self._set_light(u, light, _SHADE_VECTORS[_shade_step(light.yaw)])
            u["u_layer"].value = float(model.skin_image_at(skin, time))
            u["u_fullbright"].value = bool(light.fullbright)
            if translation is not None:
                u["u_first_fullbright"].value = handle.first_fullbright
                handle.skins.use(0)
                self._translation_texture(translation).use(1)
                handle.palette.use(2)
            else:
                handle.skins_rgba.use(3)
        self._set_state(alpha)
        vao.render(moderngl.TRIANGLES)
        self._restore_state(alpha)

    def draw_placeholder(self, view_proj: np.ndarray, model_matrix: np.ndarray, mins, maxs, *,
                         dark: bool = False) -> None:
        """A lit magenta box from ``mins`` to ``maxs`` (model space, ``[3]`` each) for a model that is missing;
        ``dark``: in a darker magenta (a part that must stand out against the box beside it)."""
        lo = np.minimum(np.asarray(mins, np.float64), np.asarray(maxs, np.float64))
        size = np.maximum(np.asarray(mins, np.float64), np.asarray(maxs, np.float64)) - lo
        size = np.where(np.abs(size) < 1e-3, 1.0, size)
        box = np.eye(4)
        box[:3, :3] = np.diag(size)
        box[:3, 3] = lo
        prog, u = self._use("placeholder")
        vao = self._box_vaos.get(prog.glo)
        if vao is None:   # the box's one pose feeds both pose attributes; the placeholder reads no texture
            vao = self._box_vaos[prog.glo] = self.ctx.vertex_array(prog, [
                (self._box, "3f 3f", "in_pos_a", "in_normal_a"),
                (self._box, "3f 3f", "in_pos_b", "in_normal_b"),
            ])
        mvp = np.asarray(view_proj, np.float64) @ np.asarray(model_matrix, np.float64) @ box
        u["u_mvp"].write(gl_bytes(mvp))
        u["u_blend"].value = 0.0
        light = AliasLight(ambient=10.0, shade=20.0) if dark else AliasLight(ambient=40.0, shade=80.0)
        self._set_light(u, light, _PLACEHOLDER_LIGHT)  # every face its own shade
        self._set_state(1.0)
        vao.render(moderngl.TRIANGLES)
