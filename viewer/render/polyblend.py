"""The screen blend over the 3D view: a flat colour with alpha covering the whole target.

References: QuakeSpasm ``gl_rmain.c`` ``R_PolyBlend`` (drawn after the view model when ``gl_polyblend`` is on),
``view.c`` ``V_CalcBlend`` (the colour).
"""

from __future__ import annotations

import moderngl

from .gl_state import OVERLAY, use_state
from .programs import load_program


class PolyBlend:
    """Blends ``(r, g, b, a)`` over the bound framebuffer (no depth test, standard alpha blending)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "polyblend")
        self._vao = ctx.vertex_array(self.program, [])

    def draw(self, color: tuple[float, float, float, float]) -> None:
        if color[3] <= 0.0:
            return
        use_state(self.ctx, OVERLAY)
        self.program["u_color"] = tuple(float(min(max(c, 0.0), 1.0)) for c in color)
        self._vao.render(moderngl.TRIANGLES, vertices=3)

    def release(self) -> None:
        self._vao.release()
        self.program.release()
