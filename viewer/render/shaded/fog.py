"""Quake III fog volumes as ioquake3 draws them: the fog curve, the fog image and the per-view fog vectors.

The engine fogs a surface inside a fog volume with one more pass: each vertex gets fog texture coordinates,
``s`` the distance along the view axis scaled so that ``depthForOpaque`` is 1/8, ``t`` how much of the view ray
lies inside the volume (1/32 none … 31/32 all of it), and the pass blends the fog colour by the alpha of a
256 × 32 fog image at ``(s, t)``. The image is ``R_FogFactor``: the square root of the fraction of the opaque
distance, looked up in a 256-entry table. Blended stages of fogged surfaces are faded by one minus the same
factor per vertex (``adjustColorsForFog``), so additive light does not shine through the fog.

:func:`fog_image` builds the image with numpy; :class:`FogVectors` holds the uniforms one view and one fog give
``q3stage.glsl``, which computes ``(s, t)`` per vertex as ``RB_CalcFogTexCoords`` does.

References: ioquake3 ``renderergl1/tr_image.c`` (``R_InitFogTable``, ``R_FogFactor``, ``R_CreateFogImage``),
``tr_shade_calc.c`` (``RB_CalcFogTexCoords``, ``RB_CalcModulateColorsByFog``), ``tr_bsp.c`` (``R_LoadFogs``:
``colorInt``, ``tcScale``), ``tr_shade.c`` (``RB_FogPass``), ``tr_shader.c`` (``FinishShader``: ``fogPass``,
``adjustColorsForFog``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.q3shaders import FogParms

#: ``FOG_TABLE_SIZE``.
FOG_TABLE_SIZE = 256
#: ``FOG_S`` × ``FOG_T``: the fog image's width (distance) and height (depth).
FOG_S, FOG_T = 256, 32


def fog_table() -> np.ndarray:
    """``tr.fogTable``: ``f4 [256]``, entry ``i`` is ``(i / 255) ** 0.5``."""
    return np.sqrt(np.arange(FOG_TABLE_SIZE, dtype=np.float64) / (FOG_TABLE_SIZE - 1)).astype(np.float32)


def fog_factor(s, t) -> np.ndarray:
    """``R_FogFactor`` for arrays of fog coordinates: 0 before 1/512 along ``s`` or with ``t`` below 1/32, the
    distance shortened by the part of the ray outside the fog while ``t`` < 31/32, 1 from 1/8 of ``s`` on."""
    s = np.asarray(s, np.float64) - 1.0 / 512
    t = np.asarray(t, np.float64)
    s = np.where(t < 31.0 / 32, s * (t - 1.0 / 32) / (30.0 / 32), s)
    s = np.minimum(s * 8, 1.0)
    value = fog_table()[np.clip((s * (FOG_TABLE_SIZE - 1)).astype(np.int64), 0, FOG_TABLE_SIZE - 1)]
    return np.where((s < 0) | (t < 1.0 / 32), 0.0, value).astype(np.float32)


def fog_image() -> np.ndarray:
    """``R_CreateFogImage``: RGBA ``u1 [32, 256, 4]``, white with the fog factor of each texel centre as alpha."""
    s = (np.arange(FOG_S) + 0.5) / FOG_S
    t = (np.arange(FOG_T) + 0.5) / FOG_T
    out = np.full((FOG_T, FOG_S, 4), 255, np.uint8)
    out[..., 3] = (255 * fog_factor(s[None, :], t[:, None])).astype(np.uint8)
    return out


@dataclass(frozen=True, slots=True)
class FogVectors:
    """One fog seen from one view: ``distance`` (xyz, w) gives ``s = dot(p, xyz) + w`` (the view axis scaled by
    ``tcScale``, plus 1/512), ``depth`` gives ``t``'s raw value (the plane into the fog; zero without a visible
    side), ``eye_t`` that value at the eye (1 without a side: the eye counts as inside), ``color`` the fog colour
    times ``identityLight`` (RGB 0‥1)."""

    distance: tuple[float, float, float, float]
    depth: tuple[float, float, float, float]
    eye_t: float
    color: tuple[float, float, float]


def fog_vectors(parms: FogParms, plane: tuple[float, float, float, float] | None, camera, forward,
                identity_light: float = 1.0) -> FogVectors:
    """``RB_CalcFogTexCoords``' vectors for the world: ``plane`` is the visible side ``(normal into the fog,
    dist)`` (``None`` for a fog without one); ``forward`` the view axis."""
    scale = 1.0 / (max(float(parms.depth_for_opaque), 1.0) * 8)
    fwd = np.asarray(forward, np.float64)
    cam = np.asarray(camera, np.float64)
    distance = (*(fwd * scale).tolist(), float(-np.dot(cam, fwd) * scale + 1.0 / 512))
    if plane is None:
        depth, eye_t = (0.0, 0.0, 0.0, 0.0), 1.0
    else:
        depth = (float(plane[0]), float(plane[1]), float(plane[2]), -float(plane[3]))
        eye_t = float(np.dot(cam, depth[:3]) + depth[3])
    color = tuple(float(min(max(c * identity_light, 0.0), 1.0)) for c in parms.color)
    return FogVectors(distance, depth, eye_t, (color[0], color[1], color[2]))


@dataclass(frozen=True, slots=True)
class FogVolume:
    """A map fog as models meet it: the brush box ``mins``/``maxs``, its ``fogParms`` and visible-side plane."""

    mins: tuple[float, float, float]
    maxs: tuple[float, float, float]
    parms: FogParms
    plane: tuple[float, float, float, float] | None


def model_fog(volumes: tuple[FogVolume, ...], center, radius: float) -> FogVolume | None:
    """``R_ComputeFogNum``: the first fog whose box the sphere (a frame's local origin moved to the entity,
    and its radius) reaches into, or ``None``."""
    x, y, z = (float(v) for v in center)
    r = float(radius)
    for volume in volumes:
        (lx, ly, lz), (hx, hy, hz) = volume.mins, volume.maxs
        if x - r < hx and x + r > lx and y - r < hy and y + r > ly and z - r < hz and z + r > lz:
            return volume
    return None


def fog_volumes(level) -> tuple[FogVolume, ...]:
    """The fogs of a loaded map (:class:`~viewer.render.q3.records.Quake3World`) that have a ``fogParms`` shader."""
    out = []
    for fog, shader in zip(level.world.fogs, level.fog_shaders, strict=False):
        if shader is not None and shader.fog is not None:
            out.append(FogVolume(fog.mins, fog.maxs, shader.fog, fog.surface_plane))
    return tuple(out)
