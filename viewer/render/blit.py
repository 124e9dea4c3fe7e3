"""Show the offscreen frame in the window: one fullscreen triangle sampling the target's colour texture.

The pass sets every piece of state it depends on (no blending, no depth test, no face culling), because the
passes before it leave whatever they needed: the alias renderer culls with ``front_face='cw'``, which would cull
this counter-clockwise triangle and leave the window showing an old frame.
"""

from __future__ import annotations

import moderngl

from .gl_state import GlState, use_state
from .programs import load_program

#: A plain copy: nothing tested, culled or blended.
_COPY = GlState(depth_test=False, cull=None)


class ScreenBlit:
    """Copies a texture over the whole viewport of the bound framebuffer."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "blit")
        self.program["u_image"] = 0
        self._vao = ctx.vertex_array(self.program, [])

    def draw(self, texture: moderngl.Texture, viewport: tuple[int, int, int, int]) -> None:
        ctx = self.ctx
        ctx.viewport = viewport
        use_state(ctx, _COPY)
        texture.use(0)
        self._vao.render(moderngl.TRIANGLES, vertices=3)

    def release(self) -> None:
        self._vao.release()
        self.program.release()
