"""The polygons of Quake III's effect surfaces, built as the renderer builds them for its entity types: a sprite
(``RT_SPRITE``: a square facing the view, turned by its rotation), a rail core (``RT_RAIL_CORE``: a flat strip
from start to end turned to the viewer), a lightning bolt (``RT_LIGHTNING``: four such strips 45° apart) and an
impact mark (``CG_ImpactMark``: a square on the surface, texture centred on the hit).

References: ioquake3 ``renderergl1/tr_surface.c`` (``RB_SurfaceSprite``, ``RB_AddQuadStampExt``, ``DoRailCore``,
``RB_SurfaceRailCore``, ``RB_SurfaceLightningBolt``), ``cgame/cg_marks.c`` (``CG_ImpactMark``), ``qcommon/q_math.c``
(``PerpendicularVector``, ``RotatePointAroundVector``).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ...render.shaded.records import Q3Poly

__all__ = ["lightning_bolt", "mark", "mark_axes", "perpendicular", "rail_core", "rotate_around", "rotations_around",
           "sprite", "sprites", "vertex_colors"]

_QUAD_ST = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
#: ``r_railCoreWidth``'s default.
RAIL_CORE_WIDTH = 6.0
LIGHTNING_WIDTH = 8.0


def _unit(v) -> np.ndarray:
    v = np.asarray(v, np.float64)
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


def perpendicular(v) -> np.ndarray:
    """``PerpendicularVector``: a unit vector at right angles to unit ``v`` (from the axis ``v`` leans on least)."""
    v = np.asarray(v, np.float64)
    axis = np.zeros(3)
    axis[int(np.argmin(np.abs(v)))] = 1.0
    return _unit(axis - v * float(axis @ v))


def rotate_around(direction, point, degrees: float) -> np.ndarray:
    """``RotatePointAroundVector``: ``point`` turned ``degrees`` about unit ``direction`` (Rodrigues)."""
    return rotations_around(direction, point, [degrees])[0]


def rotations_around(direction, point, degrees: list[float]) -> np.ndarray:
    """``f8 [N, 3]``: :func:`rotate_around` of ``point`` about ``direction`` by each of ``degrees``, all at once."""
    k = _unit(direction)
    p = np.asarray(point, np.float64)
    angles = [math.radians(d) for d in degrees]
    cos = np.array([math.cos(a) for a in angles])[:, None]
    sin = np.array([math.sin(a) for a in angles])[:, None]
    return p * cos + np.cross(k, p) * sin + k * float(k @ p) * (1 - cos)


def vertex_colors(rgba, n: int) -> np.ndarray:
    """``n`` copies of the colour ``rgba`` (0‥255, clamped, fractions dropped) as vertex colours ``u1 [n, 4]``
    (read-only: one array is shared by every caller asking for the same colour and count)."""
    return _colors(tuple([int(min(max(float(v), 0.0), 255.0)) for v in rgba]), n)


@functools.lru_cache(maxsize=4096)
def _colors(row: tuple[int, ...], n: int) -> np.ndarray:
    out = np.array((row,) * n, np.uint8).reshape(n, len(row))
    out.flags.writeable = False
    return out


def sprite(shader: str, origin, radius: float, left, up, rgba=(255, 255, 255, 255), rotation: float = 0.0,
           shader_time: float = 0.0) -> Q3Poly:
    """A square of half-size ``radius`` at ``origin`` facing a view with axes ``left`` / ``up``, turned
    ``rotation`` degrees."""
    lx, ly, lz, ux, uy, uz = float(left[0]), float(left[1]), float(left[2]), float(up[0]), float(up[1]), float(up[2])
    if rotation:
        a = math.radians(rotation)
        s, c = math.sin(a), math.cos(a)
        lx, ly, lz, ux, uy, uz = c * lx - s * ux, c * ly - s * uy, c * lz - s * uz, \
            c * ux + s * lx, c * uy + s * ly, c * uz + s * lz
    r = float(radius)
    lx, ly, lz, ux, uy, uz = lx * r, ly * r, lz * r, ux * r, uy * r, uz * r
    ox, oy, oz = float(origin[0]), float(origin[1]), float(origin[2])
    corners = np.array([(ox + lx + ux, oy + ly + uy, oz + lz + uz), (ox - lx + ux, oy - ly + uy, oz - lz + uz),
                        (ox - lx - ux, oy - ly - uy, oz - lz - uz), (ox + lx - ux, oy + ly - uy, oz + lz - uz)],
                       np.float32)
    return Q3Poly(shader, corners, _QUAD_ST, vertex_colors(rgba, 4), shader_time)


def sprites(shader: str, origins: np.ndarray, radius: float, left, up, rgbas, shader_time: float = 0.0) \
        -> list[Q3Poly]:
    """:func:`sprite` (unturned) at each of ``origins`` (``[N, 3]``) with the colour of each of ``rgbas``, the
    corners of all worked out at once."""
    r = float(radius)
    side = np.array([float(left[0]) * r, float(left[1]) * r, float(left[2]) * r])
    rise = np.array([float(up[0]) * r, float(up[1]) * r, float(up[2]) * r])
    at = np.asarray(origins, np.float64)
    corners = np.stack([at + side + rise, at - side + rise, at - side - rise, at + side - rise], axis=1)
    return [Q3Poly(shader, quad, _QUAD_ST, vertex_colors(rgba, 4), shader_time)
            for quad, rgba in zip(corners.astype(np.float32), rgbas)]


def _strip(start, end, side, width: float, rgba) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``DoRailCore``: the quad start±side·width → end±side·width; s runs 0‥length/256 along it, the start's outer
    edge a quarter as bright."""
    start, end = np.asarray(start, np.float64), np.asarray(end, np.float64)
    length = float(np.linalg.norm(end - start))
    t = length / 256.0
    side = np.asarray(side, np.float64) * width
    pos = np.array([start + side, end + side, end - side, start - side], np.float32)
    st = np.array([[0, 0], [t, 0], [t, 1], [0, 1]], np.float32)
    rgb = np.clip(np.asarray(rgba[:3], np.float64), 0, 255)
    cols = np.array([[*(rgb * 0.25), rgba[3]], [*rgb, rgba[3]], [*rgb, rgba[3]], [*rgb, rgba[3]]])
    return pos, st, cols.astype(np.uint8)


def _view_side(start, end, camera) -> np.ndarray:
    cam = np.asarray(camera, np.float64)
    return _unit(np.cross(_unit(np.asarray(start) - cam), _unit(np.asarray(end) - cam)))


def rail_core(shader: str, start, end, camera, rgba, width: float = RAIL_CORE_WIDTH,
              shader_time: float = 0.0) -> Q3Poly:
    """``RB_SurfaceRailCore``: one strip from ``start`` to ``end`` whose side is square to the view from
    ``camera``."""
    pos, st, cols = _strip(start, end, _view_side(start, end, camera), width, rgba)
    return Q3Poly(shader, pos, st, cols, shader_time)


def lightning_bolt(shader: str, start, end, camera, shader_time: float = 0.0) -> tuple[Q3Poly, ...]:
    """``RB_SurfaceLightningBolt``: four strips 8 units wide turned 45° apart about the beam."""
    direction = _unit(np.asarray(end, np.float64) - np.asarray(start, np.float64))
    side = _view_side(start, end, camera)
    out = []
    for _ in range(4):
        pos, st, cols = _strip(start, end, side, LIGHTNING_WIDTH, (255, 255, 255, 255))
        out.append(Q3Poly(shader, pos, st, cols, shader_time))
        side = rotate_around(direction, side, 45.0)
    return tuple(out)


def mark_axes(normal, rotation: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``CG_ImpactMark``'s texture axes: the unit normal and the square's two sides turned ``rotation`` degrees
    about it."""
    axis0 = _unit(normal)
    axis2 = rotate_around(axis0, perpendicular(axis0), rotation)
    return axis0, np.cross(axis0, axis2), axis2


def mark(shader: str, origin, direction, radius: float, rotation: float, rgba) -> Q3Poly:
    """``CG_ImpactMark``'s whole square, drawn as it is when there is no map to lay it on (:mod:`.marks` cuts it
    to the map's surfaces): half-size ``radius`` in the plane of normal ``direction``, turned ``rotation``
    degrees, lifted a little off the wall."""
    normal, a1, a2 = mark_axes(direction, rotation)
    o = np.asarray(origin, np.float64) + normal * 0.5
    corners = np.array([o - a1 * radius - a2 * radius, o + a1 * radius - a2 * radius,
                        o + a1 * radius + a2 * radius, o - a1 * radius + a2 * radius], np.float32)
    scale = 0.5 / radius
    rel = corners - o
    st = np.stack([0.5 + rel @ a1 * scale, 0.5 + rel @ a2 * scale], axis=1).astype(np.float32)
    return Q3Poly(shader, corners, st, vertex_colors(rgba, 4))
