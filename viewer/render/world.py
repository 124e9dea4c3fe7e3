"""Draw a BSP: the world (PVS-culled, batched per texture) and its brush submodels (doors, plats, lifts).

Everything is uploaded once: one vertex buffer, one static index buffer, the lightmap atlas and every
texture. Per frame only uniforms change (light style values, time) and the world's visible index list is
rewritten (PVS of the camera's leaf, culled to the view frustum: :mod:`.visibility`).

References: GLQuake ``R_DrawWorld``/``R_RecursiveWorldNode``/``R_MarkLeaves`` (PVS), ``R_DrawBrushModel``,
``R_TextureAnimation``; gl_warp.c for sky and water.
"""

from __future__ import annotations

from dataclasses import dataclass

import moderngl
import numpy as np

from assets_loader.bsp import WorldMesh, animated_texture
from assets_loader.palette import Palette

from ..camera import gl_bytes
from .programs import load_program
from .textures import indexed_to_rgba, upload_rgba
from .visibility import frustum_planes, visible_set

MODE_LIT, MODE_LIQUID, MODE_SKY = 0, 1, 2
_IDENTITY = np.eye(4, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class BrushDraw:
    """One brush entity to draw: submodel index (``*N``), model matrix ``[4, 4]``, alternate animation (frame ≠ 0)."""

    submodel: int
    matrix: np.ndarray
    alternate: bool = False
    alpha: float = 1.0


@dataclass(frozen=True, slots=True)
class WorldView:
    """Per-frame inputs: ``view_proj [4, 4]``, camera origin, time in seconds, style values ``[64]``, fog."""

    view_proj: np.ndarray
    camera: tuple[float, float, float]
    time: float
    styles: np.ndarray
    fog: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    liquid_alpha: float = 1.0


class WorldRenderer:
    """GPU resources of one map and the draw calls for its world and brush entities."""

    def __init__(self, ctx: moderngl.Context, world: WorldMesh, palette: Palette) -> None:
        self.ctx = ctx
        self.world = world
        self.program = load_program(ctx, "world")
        mesh = world.mesh
        self._vbo = ctx.buffer(mesh.vertices.tobytes())
        self._ibo = ctx.buffer(mesh.indices.tobytes())
        self._vao = ctx.vertex_array(
            self.program,
            [(self._vbo, "3f 2f 2f 1f 4u1", "in_position", "in_uv", "in_lm_uv", "in_lm_step", "in_styles")],
            index_buffer=self._ibo, index_element_size=4)
        self._textures = [self._upload_texture(i, palette) for i in range(len(world.textures))]
        self._lightmap = ctx.texture((world.lightmap.width, world.lightmap.height), 3,
                                     np.ascontiguousarray(world.lightmap.atlas).tobytes())
        self._lightmap.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._lightmap.repeat_x = self._lightmap.repeat_y = False
        draws = mesh.draws
        self._world_draws = draws[draws["model"] == 0]
        self._pvs_leaf: int | None = None
        self._pvs = np.zeros(0, np.int64)
        # The per-frame index list never exceeds the whole mesh's.
        self._visible_ibo = ctx.buffer(reserve=max(mesh.indices.nbytes, 4))
        self._visible_vao = ctx.vertex_array(
            self.program,
            [(self._vbo, "3f 2f 2f 1f 4u1", "in_position", "in_uv", "in_lm_uv", "in_lm_step", "in_styles")],
            index_buffer=self._visible_ibo, index_element_size=4)
        self._visible_ranges: list[list[int]] = []

    def _upload_texture(self, index: int, palette: Palette) -> tuple[moderngl.Texture, moderngl.Texture | None]:
        """The colour texture, plus the solid back layer for a sky (whose front layer has index 0 transparent)."""
        tex = self.world.textures[index]
        if tex.is_sky and tex.width >= 2:
            half = tex.width // 2
            front = upload_rgba(self.ctx, indexed_to_rgba(tex.mips[0][:, :half], palette, "index0"))
            back = upload_rgba(self.ctx, indexed_to_rgba(tex.mips[0][:, half:], palette, "opaque"))
            return front, back
        return upload_rgba(self.ctx, indexed_to_rgba(tex.mips[0], palette)), None

    def release(self) -> None:
        for obj in [self._vao, self._vbo, self._ibo, self._lightmap, self._visible_vao, self._visible_ibo]:
            obj.release()
        for front, back in self._textures:
            front.release()
            if back is not None:
                back.release()

    # -- visibility -------------------------------------------------------------------------------------------

    def _update_visibility(self, camera, view_proj: np.ndarray) -> None:
        """Write this frame's index list: the PVS of the camera's leaf (cached per leaf), culled to the frustum."""
        leaf = self.world.point_leaf(camera)
        if leaf != self._pvs_leaf:
            self._pvs_leaf = leaf
            self._pvs = np.flatnonzero(self.world.leaf_pvs(leaf)) if leaf > 0 else \
                np.arange(1, 1 + min(self.world.submodels[0].visleafs, self.world.num_leafs - 1))
        visible = visible_set(self.world, self._pvs, frustum_planes(view_proj))
        self._visible_ibo.write(np.ascontiguousarray(visible.indices, np.uint32).tobytes())
        self._visible_ranges = visible.ranges.tolist()

    # -- drawing ----------------------------------------------------------------------------------------------

    def _set_frame_uniforms(self, view: WorldView) -> None:
        self.ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        self.ctx.front_face = "ccw"  # the loader winds front faces counter-clockwise
        p = self.program
        p["u_view_proj"].write(gl_bytes(view.view_proj))
        p["u_camera"].value = tuple(float(c) for c in view.camera)
        p["u_time"].value = float(view.time)
        p["u_styles"].write(np.asarray(view.styles, np.float32).tobytes())
        p["u_fog"].value = tuple(float(c) for c in view.fog)
        p["u_liquid_alpha"].value = float(view.liquid_alpha)
        p["u_texture"].value = 0
        p["u_lightmap"].value = 1
        p["u_sky_back"].value = 2
        self._lightmap.use(1)

    def _draw_range(self, vao: moderngl.VertexArray, texture: int, first: int, count: int, view: WorldView,
                    alternate: bool) -> None:
        tex = self.world.textures[texture]
        front, back = self._textures[animated_texture(self.world.textures, texture, view.time, alternate)]
        mode = MODE_SKY if back is not None else MODE_LIQUID if tex.is_liquid else MODE_LIT
        self.program["u_mode"].value = mode
        if mode == MODE_LIQUID:
            self.program["u_texture_size"].value = (float(tex.width), float(tex.height))
        front.use(0)
        if back is not None:
            back.use(2)
        vao.render(moderngl.TRIANGLES, vertices=count, first=first)

    def draw_world(self, view: WorldView) -> None:
        """Draw model 0, culled to the PVS of the camera's leaf; liquids are drawn after the opaque surfaces."""
        self._update_visibility(view.camera, view.view_proj)
        self._set_frame_uniforms(view)
        self.program["u_model"].write(gl_bytes(_IDENTITY))
        liquids = []
        for texture, first, count in self._visible_ranges:
            if self.world.textures[texture].is_liquid and view.liquid_alpha < 1:
                liquids.append((texture, first, count))
            else:
                self._draw_range(self._visible_vao, texture, first, count, view, False)
        if liquids:
            self.ctx.enable(moderngl.BLEND)
            for texture, first, count in liquids:
                self._draw_range(self._visible_vao, texture, first, count, view, False)
            self.ctx.disable(moderngl.BLEND)

    def draw_brushes(self, view: WorldView, brushes: list[BrushDraw]) -> None:
        """Draw brush entities (``*N`` submodels; 0 for a whole BSP used as a model) at their own transforms."""
        if not brushes:
            return
        self._set_frame_uniforms(view)
        draws = self.world.mesh.draws
        for brush in brushes:
            if not 0 <= brush.submodel < len(self.world.submodels):
                continue
            sub = self.world.submodels[brush.submodel]
            self.program["u_model"].write(gl_bytes(brush.matrix))
            for d in draws[sub.first_draw:sub.first_draw + sub.num_draws]:
                self._draw_range(self._vao, int(d["texture"]), int(d["first"]), int(d["count"]), view,
                                 brush.alternate)
