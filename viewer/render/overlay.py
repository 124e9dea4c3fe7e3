"""What the 2D overlays (HUD, timeline bar, help) share: a vertex buffer refilled every frame, and the blend
state they are drawn with over the 3D picture."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import moderngl
import numpy as np

from .gl_state import OVERLAY, use_state

_MIN_CAPACITY = 64 * 1024


class DynamicVertices:
    """A vertex buffer for ``program`` with the attribute ``layout`` (e.g. ``("2f 2f 4f", "in_pos", …)``),
    rewritten each frame and grown (never shrunk) when a frame needs more room."""

    def __init__(self, ctx: moderngl.Context, program: moderngl.Program, layout: tuple[str, ...]) -> None:
        self.ctx = ctx
        self.program = program
        self.layout = layout
        self._vbo: moderngl.Buffer | None = None
        self._vao: moderngl.VertexArray | None = None
        self._capacity = 0

    def upload(self, vertices: np.ndarray) -> moderngl.VertexArray:
        """Write ``vertices`` (float32 rows matching the layout) and return the vertex array drawing them."""
        nbytes = vertices.nbytes
        vbo, vao = self._vbo, self._vao
        if vbo is None or vao is None or nbytes > self._capacity:
            self.release()
            self._capacity = max(nbytes, _MIN_CAPACITY)
            vbo = self._vbo = self.ctx.buffer(reserve=self._capacity, dynamic=True)
            vao = self._vao = self.ctx.vertex_array(self.program, [(vbo, *self.layout)])
        vbo.write(np.ascontiguousarray(vertices, np.float32).tobytes())
        return vao

    def release(self) -> None:
        for obj in (self._vao, self._vbo):
            if obj is not None:
                obj.release()
        self._vao = self._vbo = None


@contextmanager
def overlay_state(ctx: moderngl.Context) -> Iterator[None]:
    """Draw 2D layers: no depth test or culling, alpha blending on (:data:`.gl_state.OVERLAY`)."""
    use_state(ctx, OVERLAY)
    yield
