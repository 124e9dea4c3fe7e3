"""Drawing :class:`~viewer.render.refdef.Particles`: instanced camera-facing quads with a round alpha spot.

One static 4-vertex quad and one per-instance buffer (position, size, palette index, alpha; 20 bytes a particle) that is
orphaned and refilled every frame, grown by doubling when a frame has more particles.  Colours are palette
indices looked up in the vertex shader through a 256×1 palette texture (:meth:`ParticleRenderer.set_palette`).
Blending is ``src_alpha, one_minus_src_alpha``; particles are depth-tested against what is already drawn but do
not write depth (QuakeSpasm's "particle z-buffer bug" fix), so draw them after the opaque world and models.

Size and shape per game (``shaders/particles.glsl``, :attr:`~viewer.render.refdef.Look.particles`): Quake and
QuakeWorld as GLQuake/QuakeSpasm, ``scale = 1 + 0.004·depth`` (1.08 nearer than 20 units), a nearly opaque disc of
about 0.95·scale units; Quake II as Q2PRO, the same growth from 1 times ``gl_partscale`` 2, a soft spot whose alpha
falls linearly from the centre, times the particle's own fading alpha.  Never smaller than ``min_pixels`` on
screen.  Unlike GLQuake's quad, which hangs from the particle's origin, the quad is centred on it (Q2PRO's
triangle is centred on it too).

References: QuakeSpasm ``r_part.c`` ``R_DrawParticles`` (size rule, depth mask, blend),
``R_ParticleTextureLookup`` (the disc); Q2PRO ``src/refresh/tess.c`` ``GL_DrawParticles`` (``gl_partscale``,
``PARTICLE_SCALE``, blend), ``src/refresh/texture.c`` ``GL_InitParticleTexture`` (``gl_partshape 0``).
"""

from __future__ import annotations

from typing import Any

import moderngl
import numpy as np

from .gl_state import ALPHA_BLEND, GlState, use_state
from .programs import load_program
from .program_members import uniform
from .refdef import Particles
from .view_math import gl_bytes

#: Particles blend over what is drawn without writing depth (GLQuake's ``R_DrawParticles``).
_PARTICLES = GlState(cull=None, depth_write=False, blend=ALPHA_BLEND)

__all__ = ["ParticleRenderer", "PARTICLE_VERTEX"]

#: Per-instance layout uploaded each frame.
PARTICLE_VERTEX = np.dtype([("position", "<f4", 3), ("size", "<f4"), ("color", "u1"), ("alpha", "u1"),
                            ("pad", "u1", 2)])
_FORMAT = "3f4 f4 u1 f1 2x/i"
#: :attr:`~viewer.render.refdef.Look.particles` values the shader draws.
STYLES = ("quakespasm", "q2pro")
_CORNERS = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)


def _grey_palette() -> np.ndarray:
    rgba = np.empty((256, 4), np.uint8)
    rgba[:, :3] = np.arange(256, dtype=np.uint8)[:, None]
    rgba[:, 3] = 255
    return rgba


class ParticleRenderer:
    """Draws :class:`Particles` into whatever framebuffer is bound."""

    def __init__(self, ctx: moderngl.Context, palette: Any = None, *, min_pixels: float = 1.5,
                 initial_capacity: int = 4096) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "particles")
        self.min_pixels = float(min_pixels)
        self._corners = ctx.buffer(_CORNERS.tobytes())
        self._palette = ctx.texture((256, 1), 4, _grey_palette().tobytes())
        self._palette.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._capacity = 0
        self._instances: moderngl.Buffer | None = None
        self._vao: moderngl.VertexArray | None = None
        self._staging = np.zeros(0, PARTICLE_VERTEX)
        self._reserve(max(1, initial_capacity))
        if palette is not None:
            self.set_palette(palette)

    def set_palette(self, palette: Any) -> None:
        """``palette``: an ``assets_loader.palette.Palette`` or u1 [256, 3] / [256, 4]."""
        rgb = np.asarray(getattr(palette, "rgb", palette), np.uint8)
        if rgb.shape[-1] == 3:
            rgba = np.empty((256, 4), np.uint8)
            rgba[:, :3] = rgb.reshape(256, 3)
            rgba[:, 3] = 255
        else:
            rgba = rgb.reshape(256, 4)
        self._palette.write(np.ascontiguousarray(rgba).tobytes())

    def _reserve(self, n: int) -> tuple[moderngl.Buffer, moderngl.VertexArray]:
        """The instance buffer and vertex array, grown (by doubling) to hold ``n`` particles."""
        instances, vao = self._instances, self._vao
        if instances is None or vao is None or n > self._capacity:
            cap = max(n, 2 * self._capacity)
            if vao is not None:
                vao.release()
            if instances is not None:
                instances.release()
            instances = self._instances = self.ctx.buffer(reserve=cap * PARTICLE_VERTEX.itemsize, dynamic=True)
            vao = self._vao = self.ctx.vertex_array(self.program, [
                (self._corners, "2f4", "in_corner"),
                (instances, _FORMAT, "in_position", "in_size", "in_color", "in_alpha"),
            ])
            self._staging = np.zeros(cap, PARTICLE_VERTEX)
            self._capacity = cap
        return instances, vao

    def draw(self, particles: Particles, view_proj: np.ndarray, camera_right: Any, camera_up: Any,
             fog: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0), style: str = "quakespasm") -> None:
        """Draw ``particles`` seen through ``view_proj`` (f4 [4, 4], column-vector convention, ``P @ V``);
        ``camera_right`` / ``camera_up`` are the camera's world-space unit vectors (``angle_vectors``); ``fog``
        (r, g, b, density) as the world's; ``style`` one of :data:`STYLES`."""
        n = len(particles)
        if n == 0:
            return
        instances, vao = self._reserve(n)
        buf = self._staging[:n]
        buf["position"] = particles.positions
        buf["size"] = particles.sizes
        buf["color"] = particles.colors
        buf["alpha"] = 255 if particles.alphas is None else np.rint(np.clip(particles.alphas, 0.0, 1.0) * 255.0)
        instances.orphan(self._capacity * PARTICLE_VERTEX.itemsize)
        instances.write(buf.tobytes())

        prog = self.program
        uniform(prog, "u_view_proj").write(gl_bytes(view_proj))
        uniform(prog, "u_right").value = tuple(float(x) for x in np.asarray(camera_right).ravel()[:3])
        uniform(prog, "u_up").value = tuple(float(x) for x in np.asarray(camera_up).ravel()[:3])
        uniform(prog, "u_viewport").value = tuple(float(v) for v in self.ctx.viewport[2:4])
        uniform(prog, "u_min_pixels").value = self.min_pixels
        uniform(prog, "u_palette").value = 0
        uniform(prog, "u_fog").value = tuple(float(c) for c in fog)
        uniform(prog, "u_q2pro").value = STYLES.index(style)
        self._palette.use(0)

        use_state(self.ctx, _PARTICLES)
        vao.render(moderngl.TRIANGLE_STRIP, vertices=4, instances=n)

    def release(self) -> None:
        for obj in (self._vao, self._instances, self._corners, self._palette, self.program):
            if obj is not None:
                obj.release()
        self._vao = self._instances = None
