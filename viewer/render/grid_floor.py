"""The placeholder world of a demo whose map is missing: a grid floor at one height under a dim sky, so the
entities stand on something and the motion reads (``SegmentAssets.floor``).

Drawn first, with depth, so models below the floor are hidden as a map's floor would hide them.
"""

from __future__ import annotations

import moderngl
import numpy as np

from .gl_state import GlState, use_state
from .program_members import uniform
from .programs import load_program
from .view_math import gl_bytes

#: The floor is seen from above and below, never blended.
_FLOOR = GlState(cull=None)

#: Half the side of the floor square (units), centred under the camera; it fades into the sky towards its edge.
HALF_SIZE = 6144.0
#: Colours (0..1): the floor, its grid lines and the sky (the clear colour of the picture).
GROUND = (0.20, 0.21, 0.23)
LINE = (0.55, 0.57, 0.62)
SKY = (0.09, 0.10, 0.13)


class GridFloor:
    """Draws the grid floor at height ``z`` into the bound framebuffer."""

    def __init__(self, ctx: moderngl.Context, z: float) -> None:
        self.ctx = ctx
        self.z = z
        self.program = load_program(ctx, "grid_floor")
        self._vao = ctx.vertex_array(self.program, [])
        for name, value in (("u_half", HALF_SIZE), ("u_ground", GROUND), ("u_line", LINE), ("u_sky", SKY)):
            self.program[name] = value

    def draw(self, view_proj: np.ndarray, eye) -> None:
        """The floor seen through ``view_proj`` from ``eye`` ``[3]`` (the square follows the eye)."""
        use_state(self.ctx, _FLOOR)
        uniform(self.program, "u_view_proj").write(gl_bytes(view_proj))
        self.program["u_centre"] = (float(eye[0]), float(eye[1]), self.z)
        self._vao.render(moderngl.TRIANGLES, vertices=6)

    def release(self) -> None:
        self._vao.release()
        self.program.release()
