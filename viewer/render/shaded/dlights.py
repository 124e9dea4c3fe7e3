"""Quake III dynamic lights in the renderer: which map surfaces a light reaches, the falloff image its projected
pass draws with, and the light it adds to a model.

Map surfaces (``R_DlightSurface``): a light reaches a planar face when its centre is within its radius of the
face's plane, and any surface when its sphere overlaps the surface's bounds; those surfaces get the additive
projected pass of each light reaching them after their stages (``ProjectDlightTexture``, drawn by ``q3stage.glsl``'s
``DLIGHT`` variant within the screen box of the light's cube) when
their shader is sorted up to opaque and is neither sky nor ``nodlight``.  Brush entities (``R_DlightBmodel``) get
it on all their surfaces when a light overlaps their bounds.  Models (``R_SetupEntityLighting``) add each light
to their directed light: its colour times ``16 · radius² / distance²`` (the distance at least 16), turning the
light direction toward it by the same weight.

References: ioquake3 ``renderergl1/tr_world.c`` (``R_DlightFace``, ``R_DlightGrid``, ``R_DlightSurface``),
``tr_light.c`` (``R_DlightBmodel``, ``R_SetupEntityLighting``: ``DLIGHT_AT_RADIUS``, ``DLIGHT_MINIMUM_RADIUS``),
``tr_shade.c`` (``ProjectDlightTexture``), ``tr_image.c`` (``R_CreateDlightImage``), ``tr_scene.c``
(``RE_AddDynamicLightToScene``: ``MAX_DLIGHTS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from assets_loader.bsp46 import MST_PLANAR, Bsp46World
from assets_loader.q3shaders import Shader
from assets_loader.q3shaders.records import SORT_OPAQUE
from assets_loader.ranges import range_positions

from ..refdef import Lights

__all__ = ["DLIGHT_SIZE", "MAX_DLIGHTS", "SurfaceBounds", "dlight_image", "dlit", "in_model_space", "kept_lights",
           "light_corners", "lit_surfaces", "model_dlights", "reaches_box"]

#: ``MAX_DLIGHTS``: lights the scene keeps (and the size of the shader's arrays).
MAX_DLIGHTS = 32
DLIGHT_SIZE = 16
DLIGHT_AT_RADIUS, DLIGHT_MINIMUM_RADIUS = 16.0, 16.0


def dlight_image() -> np.ndarray:
    """``R_CreateDlightImage``: ``u1 [16, 16, 4]``, an inverse-square blob ``4000 / d²`` (``d`` in texels from the
    centre) clamped to 255, and 0 where it falls under 75; alpha 255."""
    centre = DLIGHT_SIZE / 2 - 0.5
    x = np.arange(DLIGHT_SIZE, dtype=np.float32)
    d = (centre - x[None, :]) ** 2 + (centre - x[:, None]) ** 2
    b = (4000.0 / d).astype(np.int32)
    b = np.where(b > 255, 255, np.where(b < 75, 0, b)).astype(np.uint8)
    out = np.empty((DLIGHT_SIZE, DLIGHT_SIZE, 4), np.uint8)
    out[..., :3] = b[..., None]
    out[..., 3] = 255
    return out


def dlit(shader: Shader) -> bool:
    """Whether surfaces of ``shader`` get the projected light pass: sorted up to opaque, not sky, not
    ``surfaceparm nodlight``."""
    return shader.sort <= SORT_OPAQUE and not shader.is_sky and "nodlight" not in shader.surface_parms \
        and "sky" not in shader.surface_parms and bool(shader.stages)


@dataclass(frozen=True, slots=True, eq=False)
class SurfaceBounds:
    """Per map surface: ``mins``/``maxs`` f4 [S, 3], and for planar faces their plane ``normal`` f4 [S, 3] and
    ``dist`` f4 [S] (``planar`` b [S])."""

    mins: np.ndarray
    maxs: np.ndarray
    normal: np.ndarray
    dist: np.ndarray
    planar: np.ndarray

    @staticmethod
    def of(world: Bsp46World) -> SurfaceBounds:
        """The bounds and planes of every surface of ``world`` (from its draw vertices)."""
        surfaces = world.surfaces
        n = len(surfaces)
        first = surfaces["first_vertex"].astype(np.int64)
        count = surfaces["num_vertices"].astype(np.int64)
        owner = np.repeat(np.arange(n), count)
        vertex = range_positions(first, count)
        pos = world.vertices["position"][vertex].astype(np.float32)
        mins = np.full((n, 3), np.inf, np.float32)
        maxs = np.full((n, 3), -np.inf, np.float32)
        np.minimum.at(mins, owner, pos)
        np.maximum.at(maxs, owner, pos)
        planar = (surfaces["kind"] == MST_PLANAR) & (count > 0)
        normal = np.zeros((n, 3), np.float32)
        dist = np.zeros(n, np.float32)
        normal[planar] = world.vertices["normal"][first[planar]]
        dist[planar] = np.einsum("ij,ij->i", normal[planar], world.vertices["position"][first[planar]])
        return SurfaceBounds(mins, maxs, normal, dist, planar)


def reaches_box(lights: Lights, mins, maxs) -> np.ndarray:
    """``b [N]``: which lights' spheres overlap the box (``R_DlightBmodel``'s test, per axis)."""
    o, r = lights.origins, lights.radius[:, None]
    return ((o - np.asarray(maxs, np.float32) <= r) & (np.asarray(mins, np.float32) - o <= r)).all(axis=1)


def lit_surfaces(bounds: SurfaceBounds, surfaces: np.ndarray, lights: Lights) -> tuple[np.ndarray, np.ndarray]:
    """The numbers among ``surfaces`` that one of ``lights`` (at most :data:`MAX_DLIGHTS`) reaches, and for each
    the bits of the lights that reach it (``i8``, bit ``i`` = light ``i``): a light reaches a surface when its
    sphere overlaps the surface's bounds and, for a planar face, its centre is within its radius of the face's
    plane (``R_DlightSurface``)."""
    if not len(lights) or not len(surfaces):
        return surfaces[:0], np.zeros(0, np.int64)
    o, r = lights.origins[None, :, :], lights.radius[None, :]
    lo, hi = bounds.mins[surfaces][:, None, :], bounds.maxs[surfaces][:, None, :]
    near = ((o - hi <= r[..., None]) & (lo - o <= r[..., None])).all(axis=2)
    d = np.abs(bounds.normal[surfaces] @ lights.origins.T - bounds.dist[surfaces][:, None])
    near &= ~bounds.planar[surfaces][:, None] | (d <= r)
    bits = near.astype(np.int64) @ (np.int64(1) << np.arange(len(lights), dtype=np.int64))
    reached = bits != 0
    return surfaces[reached], bits[reached]


def kept_lights(lights: Lights | None, camera) -> Lights | None:
    """The :data:`MAX_DLIGHTS` of ``lights`` whose spheres come nearest ``camera`` (all of them when fewer)."""
    if lights is None or len(lights) <= MAX_DLIGHTS:
        return lights
    packed, colors, n = lights.packed(MAX_DLIGHTS, camera)
    return Lights(packed[:n, :3].copy(), packed[:n, 3].copy(), colors[:n].copy())


def light_corners(origin, radius: float) -> np.ndarray:
    """``f8 [8, 3]``: the corners of a light's cube (its origin ± radius), which holds all it can light."""
    signs = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float64)
    return np.asarray(origin, np.float64)[None, :] + signs * float(radius)


def in_model_space(lights: Lights, inverse: np.ndarray) -> Lights:
    """``lights`` with their origins moved into a model's space by ``inverse`` (world → model)."""
    xyz = np.concatenate([lights.origins, np.ones((len(lights), 1), np.float32)], axis=1) \
        @ np.asarray(inverse, np.float64).T
    return Lights(xyz[:, :3].astype(np.float32), lights.radius, lights.colors)


def model_dlights(lights: Lights, point, directed: np.ndarray, direction: np.ndarray) \
        -> tuple[np.ndarray, np.ndarray]:
    """``R_SetupEntityLighting``'s dynamic part at ``point``: ``directed`` RGB (0‥1 = 0‥255) and the world
    ``direction`` it comes from, with each light added (the direction weighted by the grid's directed length and by
    each light's weight, normalised)."""
    px, py, pz = (float(v) for v in point[:3])       # plain floats: numpy on three numbers costs more than the sum
    dr, dg, db = (float(v) for v in directed)
    length = math.sqrt(dr * dr + dg * dg + db * db)
    red = green = blue = ux = uy = uz = 0.0
    for (ox, oy, oz), radius, (cr, cg, cb) in zip(lights.origins.tolist(), lights.radius.tolist(),
                                                  lights.colors.tolist()):
        x, y, z = ox - px, oy - py, oz - pz
        d = math.sqrt(x * x + y * y + z * z)
        weight = DLIGHT_AT_RADIUS * radius ** 2 / max(d, DLIGHT_MINIMUM_RADIUS) ** 2
        red, green, blue = red + weight * cr, green + weight * cg, blue + weight * cb
        unit = max(d, 1e-9)
        ux, uy, uz = ux + weight * (x / unit), uy + weight * (y / unit), uz + weight * (z / unit)
    total = np.array([dr + red / 255.0, dg + green / 255.0, db + blue / 255.0])
    wx, wy, wz = (float(v) for v in direction)
    way = (wx * length * 255.0 + ux, wy * length * 255.0 + uy, wz * length * 255.0 + uz)
    norm = math.sqrt(way[0] * way[0] + way[1] * way[1] + way[2] * way[2])
    return total, (np.array(way) / norm if norm > 0 else np.asarray(direction, np.float64))
