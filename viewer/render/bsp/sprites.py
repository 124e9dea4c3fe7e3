"""Drawing Quake sprites (``.spr``): one camera-dependent quad per entity, alpha-tested, unlit.

:meth:`SpriteRenderer.upload` turns every picture of every frame into an RGBA texture (palette colours, index 255
transparent). :meth:`SpriteRenderer.draw` picks the picture for ``frame`` at ``time`` (frame groups loop over
their intervals, ``R_GetSpriteFrame``), works out the quad's up/right axes for the sprite's orientation type
(:func:`sprite_axes`, as ``R_DrawSpriteModel``) and draws a 4-vertex strip whose corners the vertex shader builds
from ``gl_VertexID`` — nothing is uploaded per draw.

Orientation types (``SPR_*``):

- ``VP_PARALLEL_UPRIGHT``: up is world +Z, right is ``forward × up`` (faces the view plane, stands upright);
- ``FACING_UPRIGHT``: faces the camera *position* in the horizontal plane, up is world +Z;
- ``VP_PARALLEL``: the camera's own up and right (always square to the screen);
- ``ORIENTED``: the entity's own angles (``AngleVectors``), independent of the camera;
- ``VP_PARALLEL_ORIENTED``: the camera's up/right turned by the entity's roll.

The picture spans ``left..right`` along right and ``down..up`` along up (``SpriteImage`` offsets), its top row at
``up``. Back faces are not culled (an oriented sprite is seen from both sides); depth test is on.

References: QuakeSpasm ``r_sprite.c`` (``R_GetSpriteFrame``, ``R_DrawSpriteModel``), Quake ``spritegn.h``
(``SPR_*`` types), Unofficial Quake Specs 3.2 chapter 4.4 "The Format of .SPR files".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import moderngl
import numpy as np

from assets_loader.models.anim import pick_interval
from assets_loader.models.spr import (SPR_FACING_UPRIGHT, SPR_ORIENTED, SPR_VP_PARALLEL, SPR_VP_PARALLEL_ORIENTED,
                                      SPR_VP_PARALLEL_UPRIGHT, SpriteImage, SpriteModel)
from assets_loader.palette import TRANSPARENT_INDEX, Palette

from ..gl_state import ALPHA_BLEND, GlState, use_state
from ..programs import load_program
from ..program_members import uniform
from ..view_math import angle_vectors, gl_bytes

#: Sprites face the camera, so nothing is culled; translucent ones blend without writing depth.
_OPAQUE = GlState(cull=None)
_TRANSLUCENT = GlState(cull=None, depth_write=False, blend=ALPHA_BLEND)

_Z = np.array([0.0, 0.0, 1.0])


def _unit(v: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else fallback


def sprite_axes(sprite_type: int, camera_origin, camera_forward, camera_right, camera_up,
                origin, angles) -> tuple[np.ndarray, np.ndarray]:
    """``(up, right)`` unit vectors ``f8[3]`` of a sprite's quad, as ``R_DrawSpriteModel`` chooses them.

    ``camera_*`` are the view's origin and ``angle_vectors``; ``origin``/``angles`` the entity's."""
    forward = np.asarray(camera_forward, np.float64)
    right = np.asarray(camera_right, np.float64)
    up = np.asarray(camera_up, np.float64)
    if sprite_type == SPR_VP_PARALLEL_UPRIGHT:
        return _Z.copy(), _unit(np.cross(forward, _Z), right)
    if sprite_type == SPR_FACING_UPRIGHT:
        to_sprite = np.asarray(origin, np.float64) - np.asarray(camera_origin, np.float64)
        to_sprite[2] = 0.0
        f = _unit(to_sprite, _unit(np.array([forward[0], forward[1], 0.0]), np.array([1.0, 0.0, 0.0])))
        return _Z.copy(), np.array([f[1], -f[0], 0.0])
    if sprite_type == SPR_VP_PARALLEL:
        return up.copy(), right.copy()
    if sprite_type == SPR_ORIENTED:
        _, r, u = angle_vectors(angles)
        return u, r
    if sprite_type == SPR_VP_PARALLEL_ORIENTED:
        roll = math.radians(float(angles[2]))
        sr, cr = math.sin(roll), math.cos(roll)
        return right * -sr + up * cr, right * cr + up * sr
    raise ValueError(f"unknown sprite type {sprite_type}")


@dataclass(frozen=True, slots=True, eq=False)
class SpriteHandle:
    """GPU textures of one uploaded sprite: ``textures[frame][picture]`` (RGBA8, nearest filtering)."""

    sprite: SpriteModel
    textures: tuple[tuple[moderngl.Texture, ...], ...]

    def release(self) -> None:
        for frame in self.textures:
            for tex in frame:
                tex.release()


class SpriteRenderer:
    """Draws uploaded sprites into whatever framebuffer is bound."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "sprite")
        self.program["u_image"] = 0
        self._vao = ctx.vertex_array(self.program, [])

    def _texture(self, image: SpriteImage, palette: Palette) -> moderngl.Texture:
        rgba = palette.to_rgba(image.indices, alpha_index=TRANSPARENT_INDEX)
        tex = self.ctx.texture((image.width, image.height), 4, np.ascontiguousarray(rgba).tobytes())
        tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
        tex.repeat_x = tex.repeat_y = False
        return tex

    def upload(self, sprite: SpriteModel, palette: Palette) -> SpriteHandle:
        """One RGBA texture per picture (pictures of a frame group stay in their frame's tuple)."""
        textures = tuple(tuple(self._texture(im, palette) for im in frame.images) for frame in sprite.frames)
        return SpriteHandle(sprite, textures)

    def release(self) -> None:
        self._vao.release()
        self.program.release()

    def draw(self, handle: SpriteHandle, view_proj: np.ndarray, *, camera_origin, camera_forward, camera_right,
             camera_up, origin, angles=(0.0, 0.0, 0.0), frame: int = 0, time: float = 0.0, alpha: float = 1.0,
             scale: float = 1.0, fog: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)) -> None:
        """Draw ``frame`` of ``handle`` at ``origin`` (world units) facing the camera as its type says.

        ``view_proj``: ``f4[4, 4]`` (``view_projection``); ``camera_*``: the view origin and its forward/right/up
        (``angle_vectors(camera.angles)``); ``angles``: the entity's (pitch, yaw, roll) for the oriented types;
        ``time``: client time + sync base for frame groups; ``alpha`` < 1 blends without writing depth;
        ``scale`` multiplies the picture size; ``fog`` (r, g, b, density) as the world's. Out-of-range frames fall
        back to frame 0.
        """
        if alpha <= 0.0:
            return
        sprite = handle.sprite
        f = frame if 0 <= frame < sprite.num_frames else 0
        pick = pick_interval(sprite.frames[f].intervals, time)
        image = sprite.frames[f].images[pick]
        up, right = sprite_axes(sprite.type, camera_origin, camera_forward, camera_right, camera_up, origin, angles)
        prog = self.program
        uniform(prog, "u_view_proj").write(gl_bytes(np.asarray(view_proj, np.float32)))
        prog["u_origin"] = tuple(float(x) for x in origin)
        prog["u_up"] = tuple(float(x) * scale for x in up)
        prog["u_right"] = tuple(float(x) * scale for x in right)
        prog["u_rect"] = (image.left, image.right, image.down, image.up)
        prog["u_alpha"] = float(min(alpha, 1.0))
        prog["u_fog"] = tuple(float(c) for c in fog)
        handle.textures[f][pick].use(0)
        use_state(self.ctx, _TRANSLUCENT if alpha < 1.0 else _OPAQUE)
        self._vao.render(moderngl.TRIANGLE_STRIP, vertices=4)
