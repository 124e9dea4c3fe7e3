"""Drawing alias models: Quake's ``.mdl`` and Quake II's ``.md2`` (loaded as the same record).

Upload once, draw many: :meth:`AliasRenderer.upload` puts every pose of a model in two vertex buffers
(``f4[P, M, 3]`` positions and ``u1[P, M]`` normals as indices into the shader's table,
:data:`~viewer.render.alias_program.NORMALS`; M = on-seam-split mesh vertices) and every skin picture in one RGBA
texture array (the ``R8`` array of palette indices that player colours read is made on the first such draw).
:meth:`AliasRenderer.draw` points the pose-a and pose-b attributes at slices of those buffers (no re-upload) and the
vertex shader blends them, as QuakeSpasm's GLSL path does.

Colour: skins are filtered as the engine's default texture mode does (``Lighting.texture_mode``: QuakeSpasm's
``GL_LINEAR_MIPMAP_LINEAR``, Quake II's ``GL_LINEAR_MIPMAP_NEAREST``) from an RGBA copy with mipmaps; with player
colours the fragment shader instead reads the four nearest skin indices, maps each through a 256-entry translation
(shirt/pants, :func:`assets_loader.palette.translation_table`) and the palette (256×1 RGBA), and filters the results
bilinearly. Skin indices 224..255 are fullbright (drawn at light 1.0); the mask uses the untranslated skin index,
like the fullbright textures of GL engines. Each distinct translation gets its own 256×1 texture, made on first use
and kept (at most one per shirt/pants pair, :data:`MAX_TRANSLATIONS`), so drawing binds a texture instead of
rewriting a shared one: a rewrite makes Mesa finish every queued draw that reads the texture first (issue 20).

The programs, the lighting rule (:class:`~viewer.render.alias_program.AliasLight`: the two poses' dot terms are
blended like their positions) and the draw state are :mod:`viewer.render.alias_program`'s, shared with the boxes
drawn for missing models.

References: QuakeSpasm ``r_alias.c`` (``GL_DrawAliasFrame``, ``GL_DrawAliasFrame_GLSL``, ``R_SetupAliasFrame``,
``R_SetupAliasLighting``), GLQuake ``gl_rmain.c`` (``R_DrawAliasModel``: minimum light for the view model and
players, the ambient ≤ 128 and ambient + shade ≤ 192 clamps, ``shadedots``), software Quake ``r_alias.c``
(``R_AliasSetupLighting``), ``gl_rmisc.c`` (``R_TranslatePlayerSkin``), ``gl_rmain.c`` (``R_SetupGL``: culling);
Quake II ``ref_gl/gl_mesh.c`` (``R_DrawAliasModel``: shadelight, ``RF_MINLIGHT``; ``GL_DrawAliasFrameLerp``: colour
shells, ``POWERSUIT_SCALE``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import moderngl
import numpy as np

from assets_loader.models.mdl import AliasModel
from assets_loader.palette import Palette

from ..mipmaps import upload_mipmaps
from ..textures import TEXTURE_MODES, fullbright_rgba
from ..alias_program import NO_NORMAL, SHADE_VECTORS, AliasLight, AliasPrograms, shade_step
from ..view_math import gl_bytes

#: Quake II's ``POWERSUIT_SCALE``: how far a colour shell stands out of the model, in units along the normals.
SHELL_PUSH = 4.0
#: Bytes of one pose vertex in each buffer: its position (3 floats) and its normal's index.
_POSITION_SIZE, _NORMAL_SIZE = 12, 1
#: ``layout(location)`` of the pose attributes in ``alias.glsl`` (the normal follows each position).
_POS_A, _POS_B = 0, 2
#: The light of a draw that names none: the skin as painted, with a little shade.
DEFAULT_LIGHT = AliasLight()
#: Translation textures kept at once: one per shirt/pants pair (16 × 16).
MAX_TRANSLATIONS = 16 * 16


@dataclass(frozen=True, slots=True, eq=False)
class AliasHandle:
    """GPU resources of one uploaded model. ``model`` is kept for pose/skin lookups and bounds."""

    model: AliasModel
    pose_buffer: moderngl.Buffer      # f4[P, M, 3]: positions
    normal_buffer: moderngl.Buffer    # u1[P, M]: normals, as indices into alias_program.NORMALS
    uv_buffer: moderngl.Buffer        # f4[M, 2]
    index_buffer: moderngl.Buffer     # u4[T * 3]
    vaos: dict[int, moderngl.VertexArray]   # per program (by GL name), made on its first draw
    skins_rgba: moderngl.TextureArray  # RGBA8 [S] x (W, H), mipmapped: colours, A = fullbright
    palette: moderngl.Texture         # 256x1 RGBA8 (shared by the renderer, not released with the handle)
    num_mesh_verts: int
    first_fullbright: int = 224       # skin indices from here on are unlit (256: none, Quake II)
    #: R8 [S] x (W, H) palette indices, made on the first draw with player colours (most models never have any).
    indexed: list[moderngl.TextureArray] = field(default_factory=list)

    def release(self) -> None:
        for vao in self.vaos.values():
            vao.release()
        self.vaos.clear()
        for skins in self.indexed:
            skins.release()
        self.indexed.clear()
        for obj in (self.skins_rgba, self.index_buffer, self.uv_buffer, self.normal_buffer, self.pose_buffer):
            obj.release()


class AliasRenderer:
    """Draws uploaded alias models into whatever framebuffer is bound (depth test on, back faces culled)."""

    def __init__(self, ctx: moderngl.Context, programs: AliasPrograms | None = None) -> None:
        self.ctx = ctx
        self.programs = AliasPrograms(ctx) if programs is None else programs
        self._own_programs = programs is None
        self._translations: dict[bytes, moderngl.Texture] = {}
        self._palettes: dict[bytes, moderngl.Texture] = {}

    # -- resources ---------------------------------------------------------------------------------------------

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
        pose_buffer = self.ctx.buffer(np.ascontiguousarray(model.positions[:, mesh.vertex_index], "<f4").tobytes())
        normals = np.asarray(model.normals)[:, mesh.vertex_index]
        normal_buffer = self.ctx.buffer(
            np.where((normals >= 0) & (normals < NO_NORMAL), normals, NO_NORMAL).astype(np.uint8).tobytes())
        uv_buffer = self.ctx.buffer(np.ascontiguousarray(mesh.uv, dtype=np.float32).tobytes())
        index_buffer = self.ctx.buffer(np.ascontiguousarray(mesh.indices, dtype=np.uint32).tobytes())
        s, h, w = model.skin_images.shape
        if model.skin_rgba is not None:   # truecolour skins: no fullbright texels
            rgba = np.array(model.skin_rgba)
            rgba[..., 3] = 0
        else:
            rgba = np.stack([fullbright_rgba(image, palette) for image in model.skin_images])
            if not fullbrights:
                rgba[..., 3] = 0
        rgba = np.ascontiguousarray(rgba)
        skins_rgba = self.ctx.texture_array((w, h, s), 4, rgba.tobytes(), alignment=1)
        upload_mipmaps(skins_rgba, rgba)
        skins_rgba.filter = (TEXTURE_MODES[texture_mode], moderngl.LINEAR)
        skins_rgba.repeat_x = skins_rgba.repeat_y = True
        return AliasHandle(model, pose_buffer, normal_buffer, uv_buffer, index_buffer, {}, skins_rgba,
                           self._palette_texture(palette), m, 224 if fullbrights else 256)

    def _indexed_skins(self, handle: AliasHandle) -> moderngl.TextureArray:
        """The model's skin pictures as palette indices (``R8``), uploaded on the first draw that reads them."""
        if not handle.indexed:
            images = handle.model.skin_images
            s, h, w = images.shape
            skins = self.ctx.texture_array((w, h, s), 1, np.ascontiguousarray(images).tobytes(), alignment=1,
                                           dtype="f1")
            skins.filter = (moderngl.NEAREST, moderngl.NEAREST)
            skins.repeat_x = skins.repeat_y = True   # Quake skins wrap (seam-shifted s may reach the edge)
            handle.indexed.append(skins)
        return handle.indexed[0]

    def _vertex_array(self, handle: AliasHandle, program: moderngl.Program) -> moderngl.VertexArray:
        vao = handle.vaos.get(program.glo)
        if vao is None:
            vao = handle.vaos[program.glo] = self.ctx.vertex_array(program, [
                (handle.pose_buffer, "3f", "in_pos_a"),
                (handle.normal_buffer, "1u1", "in_normal_a"),
                (handle.pose_buffer, "3f", "in_pos_b"),
                (handle.normal_buffer, "1u1", "in_normal_b"),
                (handle.uv_buffer, "2f", "in_uv"),
            ], index_buffer=handle.index_buffer, index_element_size=4, skip_errors=True)  # the shell reads no uv
        return vao

    def release(self) -> None:
        """Free the renderer's own objects (handles are released separately)."""
        for texture in (*self._palettes.values(), *self._translations.values()):
            texture.release()
        if self._own_programs:
            self.programs.release()
        self._palettes.clear()
        self._translations.clear()

    @property
    def translation_count(self) -> int:
        """How many translation textures are cached."""
        return len(self._translations)

    # -- drawing -------------------------------------------------------------------------------------------------

    def set_look(self, light_max: float, fog: tuple[float, float, float, float]) -> None:
        """For the draws that follow: the largest light multiplier and the fog (:meth:`AliasPrograms.set_look`)."""
        self.programs.set_look(light_max, fog)

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
             translation: np.ndarray | None = None, light: AliasLight = DEFAULT_LIGHT, alpha: float = 1.0,
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
        prog, u = self.programs.use(variant)
        vao = self._vertex_array(handle, prog)
        m = handle.num_mesh_verts
        for location, pose in ((_POS_A, pose_a), (_POS_B, pose_b)):
            vao.bind(location, "f", handle.pose_buffer, "3f", offset=pose * m * _POSITION_SIZE, stride=_POSITION_SIZE)
            vao.bind(location + 1, "f", handle.normal_buffer, "1u1", offset=pose * m * _NORMAL_SIZE,
                     stride=_NORMAL_SIZE)
        u["u_mvp"].write(gl_bytes(np.asarray(view_proj, np.float32) @ np.asarray(model_matrix, np.float32)))
        u["u_blend"].value = float(min(max(blend, 0.0), 1.0)) if pose_a != pose_b else 0.0
        u["u_alpha"].value = float(min(alpha, 1.0))
        if shell is not None:   # unlit and untextured
            u["u_push"].value = SHELL_PUSH
            u["u_shell_color"].value = (float(shell[0]), float(shell[1]), float(shell[2]))
        else:
            self.programs.set_light(u, light, SHADE_VECTORS[shade_step(light.yaw)])
            u["u_layer"].value = float(model.skin_image_at(skin, time))
            u["u_fullbright"].value = bool(light.fullbright)
            if translation is not None:
                u["u_first_fullbright"].value = handle.first_fullbright
                self._indexed_skins(handle).use(0)
                self._translation_texture(translation).use(1)
                handle.palette.use(2)
            else:
                handle.skins_rgba.use(3)
        self.programs.set_state(alpha)
        vao.render(moderngl.TRIANGLES)

