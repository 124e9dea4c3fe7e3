"""Line segments in the 3D view (:class:`~.refdef.Lines`: the routes of a ghost race), drawn after the world and
models: depth-tested where the world hides them not, and again, fainter, where it does, so a route behind a wall
still reads. One vertex buffer per :class:`~.refdef.Lines` object, uploaded when a frame brings another object.
"""

from __future__ import annotations

import moderngl
import numpy as np

from .gl_state import ALPHA_BLEND, GlState, use_state
from .program_members import uniform
from .programs import load_program
from .refdef import Lines
from .view_math import gl_bytes

#: In front of the world: tested, not written, blended.
_SEEN = GlState(depth_write=False, depth_func="<=", cull=None, blend=ALPHA_BLEND)
#: Behind it: only where the world is nearer.
_HIDDEN = GlState(depth_write=False, depth_func=">", cull=None, blend=ALPHA_BLEND)
#: Opacity of the hidden part, as a share of the line's own.
HIDDEN_ALPHA = 0.3
#: Width in pixels (where the GL allows wide lines).
WIDTH = 2.0


class LineRenderer:
    """Draws :class:`~.refdef.Lines` into the bound framebuffer."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "lines")
        self._lines: Lines | None = None
        self._buffer: moderngl.Buffer | None = None
        self._vao: moderngl.VertexArray | None = None

    def _upload(self, lines: Lines) -> moderngl.VertexArray:
        if lines is not self._lines or self._vao is None:
            self._release_buffer()
            rows = np.hstack([np.asarray(lines.points, np.float32), np.asarray(lines.colors, np.float32)])
            self._buffer = self.ctx.buffer(np.ascontiguousarray(rows, np.float32).tobytes())
            self._vao = self.ctx.vertex_array(self.program, [(self._buffer, "3f 4f", "in_pos", "in_color")])
            self._lines = lines
        return self._vao

    def draw(self, lines: Lines, view_proj: np.ndarray) -> None:
        """``lines`` seen through ``view_proj``."""
        if not len(lines):
            return
        vao = self._upload(lines)
        uniform(self.program, "u_view_proj").write(gl_bytes(view_proj))
        self.ctx.line_width = WIDTH
        for state, alpha in ((_SEEN, 1.0), (_HIDDEN, HIDDEN_ALPHA)):
            use_state(self.ctx, state)
            uniform(self.program, "u_alpha").value = alpha
            vao.render(moderngl.LINES, vertices=2 * len(lines))
        self.ctx.line_width = 1.0

    def _release_buffer(self) -> None:
        if self._vao is not None:
            self._vao.release()
        if self._buffer is not None:
            self._buffer.release()
        self._vao = self._buffer = self._lines = None

    def release(self) -> None:
        self._release_buffer()
        self.program.release()
