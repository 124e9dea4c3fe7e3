"""The lit magenta boxes drawn where a model is missing, in every game (:mod:`.placeholders` says which box),
with a darker nose that shows the facing; drawn with ``alias.glsl``'s placeholder variant (:mod:`.alias_program`).
Games whose engine draws its own mark there (Q2PRO's ``GL_DrawNullModel``: three 16-unit lines, red, green and
blue along the entity's axes) get that instead (:meth:`BoxRenderer.draw_axes`).
"""

from __future__ import annotations

import moderngl
import numpy as np

from .alias_program import BOX_NORMALS, NO_NORMAL, PLACEHOLDER_LIGHT, AliasLight, AliasPrograms
from .placeholders import Box, with_nose
from .view_math import gl_bytes


def _box_mesh() -> np.ndarray:
    """``f4[36, 4]``: the unit cube [0, 1]³ as 12 triangles wound clockwise seen from outside (Quake order), each
    vertex with its face's normal as an index into the shader's table (:data:`.alias_program.NORMALS`)."""
    faces = (  # (+x, −x, +y, −y, +z, −z in the table's order: four corners counter-clockwise seen from outside)
        ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)),
        ((0, 1, 0), (0, 0, 0), (0, 0, 1), (0, 1, 1)),
        ((1, 1, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1)),
        ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)),
        ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)),
        ((0, 1, 0), (1, 1, 0), (1, 0, 0), (0, 0, 0)),
    )
    rows = []
    for normal, (a, b, c, d) in enumerate(faces, BOX_NORMALS):
        for corner in (a, c, b, a, d, c):   # reversed → clockwise from outside
            rows.append((*corner, normal))
    return np.array(rows, dtype=np.float32)


#: ``GL_DrawNullModel``'s lines: from the origin 16 units along the entity's forward, left and up axes, each
#: (start, end) with a normal the shell program normalizes (and pushes along by 0), and their colours.
_AXES = np.array([(0, 0, 0, NO_NORMAL), (16, 0, 0, NO_NORMAL), (0, 0, 0, NO_NORMAL), (0, 16, 0, NO_NORMAL),
                  (0, 0, 0, NO_NORMAL), (0, 0, 16, NO_NORMAL)], np.float32)
_AXIS_COLORS = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


class BoxRenderer:
    """Draws placeholder boxes into whatever framebuffer is bound."""

    def __init__(self, programs: AliasPrograms) -> None:
        self.programs = programs
        self._box = programs.ctx.buffer(_box_mesh().tobytes())
        self._axes = programs.ctx.buffer(_AXES.tobytes())
        self._vaos: dict[int, moderngl.VertexArray] = {}
        self._axes_vaos: dict[int, moderngl.VertexArray] = {}

    def draw_axes(self, view_proj: np.ndarray, matrix: np.ndarray) -> None:
        """Q2PRO's mark for a model it could not load (``GL_DrawNullModel``): a red, a green and a blue line of 16
        units along the axes of ``matrix`` from its origin, unlit and opaque."""
        prog, u = self.programs.use("shell")
        vao = self._axes_vaos.get(prog.glo)
        if vao is None:
            vao = self._axes_vaos[prog.glo] = self.programs.ctx.vertex_array(prog, [
                (self._axes, "3f 1f", "in_pos_a", "in_normal_a"),
                (self._axes, "3f 1f", "in_pos_b", "in_normal_b"),
            ])
        u["u_mvp"].write(gl_bytes(np.asarray(view_proj, np.float64) @ np.asarray(matrix, np.float64)))
        u["u_blend"].value = 0.0
        u["u_push"].value = 0.0
        u["u_alpha"].value = 1.0
        self.programs.set_state(1.0)
        for axis, color in enumerate(_AXIS_COLORS):
            u["u_shell_color"].value = color
            vao.render(moderngl.LINES, vertices=2, first=2 * axis)

    def draw_with_nose(self, view_proj: np.ndarray, matrix: np.ndarray, box: Box,
                       tint: tuple[float, float, float, float] | None = None) -> None:
        """A missing model as ``box`` placed by ``matrix``, with the nose that shows its facing; ``tint``: in that
        flat colour and opacity (r, g, b, a in 0..1) instead of lit magenta, the nose at half its brightness."""
        body, nose = with_nose(box)
        self.draw(view_proj, matrix, *body, tint=tint)
        dark = None if tint is None else (tint[0] / 2, tint[1] / 2, tint[2] / 2, tint[3])
        self.draw(view_proj, matrix, *nose, dark=True, tint=dark)

    def draw(self, view_proj: np.ndarray, model_matrix: np.ndarray, mins, maxs, *, dark: bool = False,
             tint: tuple[float, float, float, float] | None = None) -> None:
        """A lit magenta box from ``mins`` to ``maxs`` (model space, ``[3]`` each) for a model that is missing;
        ``dark``: in a darker magenta (a part that must stand out against the box beside it); ``tint``: unlit in
        that colour at that opacity (the colour-shell variant, not pushed out)."""
        lo = np.minimum(np.asarray(mins, np.float64), np.asarray(maxs, np.float64))
        size = np.maximum(np.asarray(mins, np.float64), np.asarray(maxs, np.float64)) - lo
        size = np.where(np.abs(size) < 1e-3, 1.0, size)
        box = np.eye(4)
        box[:3, :3] = np.diag(size)
        box[:3, 3] = lo
        prog, u = self.programs.use("placeholder" if tint is None else "shell")
        vao = self._vaos.get(prog.glo)
        if vao is None:   # the box's one pose feeds both pose attributes; the placeholder reads no texture
            vao = self._vaos[prog.glo] = self.programs.ctx.vertex_array(prog, [
                (self._box, "3f 1f", "in_pos_a", "in_normal_a"),
                (self._box, "3f 1f", "in_pos_b", "in_normal_b"),
            ])
        mvp = np.asarray(view_proj, np.float64) @ np.asarray(model_matrix, np.float64) @ box
        u["u_mvp"].write(gl_bytes(mvp))
        u["u_blend"].value = 0.0
        if tint is not None:
            u["u_push"].value = 0.0
            u["u_shell_color"].value = tint[:3]
            u["u_alpha"].value = tint[3]
            self.programs.set_state(tint[3])
            vao.render(moderngl.TRIANGLES)
            return
        light = AliasLight(ambient=10.0, shade=20.0) if dark else AliasLight(ambient=40.0, shade=80.0)
        self.programs.set_light(u, light, PLACEHOLDER_LIGHT)  # every face its own shade
        self.programs.set_state(1.0)
        vao.render(moderngl.TRIANGLES)

    def release(self) -> None:
        for vao in (*self._vaos.values(), *self._axes_vaos.values()):
            vao.release()
        self._vaos.clear()
        self._axes_vaos.clear()
        self._box.release()
        self._axes.release()
