"""What the world renderer does with Quake II's surface flags, as pure numpy (no GL): which faces the opaque pass
draws, which are translucent (drawn back to front after everything else), how flowing surfaces scroll and how the
sky box turns.

Quake maps have no surface flags: every face is opaque and nothing scrolls.

References: Quake II ``R_RecursiveWorldNode`` / ``R_DrawInlineBModel`` (ref_gl/gl_rsurf.c: sky faces to the sky
box, ``SURF_TRANS33``/``SURF_TRANS66`` to the alpha chain), ``R_DrawAlphaSurfaces`` (alpha 0.33 / 0.66, drawn after
the entities), ``GL_RenderLightmappedPoly`` and ``EmitWaterPolys`` (the ``SURF_FLOWING`` scroll), ``R_DrawSkyBox``
(ref_gl/gl_warp.c: the box turns ``time * skyrotate`` degrees about ``skyaxis``).
"""

from __future__ import annotations

import numpy as np

from assets_loader.bsp38.dtypes import SURF_FLOWING, SURF_NODRAW, SURF_SKY, SURF_TRANS33, SURF_TRANS66, SURF_WARP

from ..refdef import MapWorld
from .records import SkyBox

TRANSLUCENT = SURF_TRANS33 | SURF_TRANS66


def face_flags(world: MapWorld) -> np.ndarray:
    """``i4 [F]``: each face's ``SURF_*`` bits (all 0 for a Quake map)."""
    return world.face_flags()


def texture_flags(world: MapWorld) -> np.ndarray:
    """``i4 [T]``: the ``SURF_*`` bits of the faces using each texture, or-ed (a texture's draw ranges share one
    program, so a texture is warped, sky or translucent when its faces are)."""
    out = np.zeros(len(world.textures), np.int32)
    np.bitwise_or.at(out, world.faces["texture"].astype(np.int64), face_flags(world))
    return out


def opaque_faces(flags: np.ndarray) -> np.ndarray:
    """``bool [F]``: faces of the opaque pass: not translucent, and not ``SURF_NODRAW`` unless they are sky (the
    sky faces of many maps carry both bits; the sky box shows through them)."""
    hidden = ((flags & SURF_NODRAW) != 0) & ((flags & SURF_SKY) == 0)
    return ((flags & TRANSLUCENT) == 0) & ~hidden


def translucent_faces(flags: np.ndarray) -> np.ndarray:
    """``bool [F]``: faces drawn blended after the entities."""
    return (flags & TRANSLUCENT) != 0


def surface_alpha(flags: int) -> float:
    """The opacity of a translucent surface: 0.33 for ``SURF_TRANS33``, 0.66 for ``SURF_TRANS66``, else 1."""
    if flags & SURF_TRANS33:
        return 0.33
    if flags & SURF_TRANS66:
        return 0.66
    return 1.0


def flow_scroll(flags: int, time: float) -> float:
    """How far a ``SURF_FLOWING`` surface has scrolled along its texture's s axis at ``time``, in texture widths:
    lit surfaces move −64 widths every 40 s (a whole −64 at the wrap), warped ones −1 width every 2 s."""
    if not flags & SURF_FLOWING:
        return 0.0
    if flags & SURF_WARP:
        return -(time * 0.5 - np.floor(time * 0.5))
    frac = time / 40.0 - np.floor(time / 40.0)
    return -64.0 * frac if frac > 0 else -64.0


def sky_rotation(sky: SkyBox, time: float) -> np.ndarray:
    """``f4 [3, 3]``: the box's rotation at ``time`` (``time * rotate`` degrees about ``axis``). Written as is into
    a GLSL ``mat3`` (which reads column-major) it is the transpose, i.e. the inverse, which turns a view direction
    into the box's own frame."""
    axis = np.asarray(sky.axis, np.float64)
    norm = np.linalg.norm(axis)
    if sky.rotate == 0.0 or norm == 0.0:
        return np.eye(3, dtype=np.float32)
    x, y, z = axis / norm
    angle = np.radians(time * sky.rotate)
    c, s = np.cos(angle), np.sin(angle)
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.ascontiguousarray(np.eye(3) + s * k + (1 - c) * (k @ k), np.float32)  # Rodrigues' formula
