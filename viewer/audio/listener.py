"""Who hears the mix, and how loud a sound is in each ear from there (``SND_Spatialize``).

A sound of master volume ``m`` (0..255) at distance ``d`` with attenuation ``a`` is heard at
``m · (1 − d · a / 1000)`` (``sound_nominal_clip_dist`` = 1000 units, so attenuation 1 halves at 500 units and is
silent from 1000), scaled by ``1 + r`` on the right and ``1 − r`` on the left where ``r`` is the dot product of the
listener's right vector and the unit vector towards the sound; each side is truncated to an integer and clamped at
0.  Sounds of the listener's own entity (the view entity) are heard at ``m`` on both sides, unspatialised.
Quake III (``S_SpatializeOrigin``) hears everything within ``SOUND_FULLVOLUME`` (80 units) at full volume, counts
the distance from there (0.0008 per unit, silent 1330 units away) and scales the sides by ``0.5 · (1 ± r)``.

References: QuakeSpasm ``snd_dma.c`` (``SND_Spatialize``, ``S_StartSound``: ``dist_mult``, ``master_vol``;
``S_StaticSound``: static attenuation / 64), ``mathlib.c`` ``AngleVectors``; ioquake3 ``code/client/snd_dma.c``
(``S_SpatializeOrigin``, ``SOUND_FULLVOLUME``, ``SOUND_ATTENUATE``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..render.refdef import Camera
from ..render.view_math import angle_vectors

#: ``sound_nominal_clip_dist``: at attenuation 1 a sound is silent this far away.
NOMINAL_CLIP_DISTANCE = 1000.0

Vec3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Listener:
    """The ears: ``origin``, the unit ``right`` vector (``AngleVectors``) and the view ``entity`` whose own sounds
    are heard unspatialised (``None``: a free camera, every sound is placed)."""

    origin: Vec3
    right: Vec3
    entity: int | None = None

    @staticmethod
    def from_angles(origin: Vec3, angles: Vec3, entity: int | None = None) -> Listener:
        """The listener at ``origin`` looking along ``angles`` (pitch, yaw, roll degrees)."""
        _forward, right, _up = angle_vectors(angles)
        return Listener(_vec3(origin), _vec3(right), entity)

    @staticmethod
    def from_camera(camera: Camera, entity: int | None = None) -> Listener:
        return Listener.from_angles(camera.origin, camera.angles, entity)


def _vec3(v) -> Vec3:
    return float(v[0]), float(v[1]), float(v[2])


#: A listener that may move: a fixed :class:`Listener`, or the listener at each time.
ListenerPath = Listener | Callable[[float], Listener]


def listener_at(path: ListenerPath, t: float) -> Listener:
    """The listener of ``path`` at time ``t``."""
    return path if isinstance(path, Listener) else path(t)


def spatialize(origins: np.ndarray, listener_origin: np.ndarray, listener_right: np.ndarray, master: np.ndarray,
               dist_mult: np.ndarray, own: np.ndarray, full_distance: float = 0.0,
               separation: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Left and right volumes (float, whole numbers 0..510) of sounds at ``origins`` [..., 3] (``SND_Spatialize``).

    ``listener_origin`` / ``listener_right`` broadcast against ``origins`` ([..., 3]); ``master`` (0..255),
    ``dist_mult`` (attenuation / 1000) and ``own`` (bool: the listener's own entity) against ``origins[..., 0]``.
    Quake III (``S_SpatializeOrigin``) counts the distance from ``full_distance`` on (``SOUND_FULLVOLUME``) and
    gives each side ``separation`` (0.5) × (1 ± dot) of the volume.
    """
    vec = origins - listener_origin
    dist = np.sqrt(np.einsum("...i,...i->...", vec, vec))
    safe = np.where(dist > 0, dist, 1.0)
    dot = np.einsum("...i,...i->...", vec, np.broadcast_to(listener_right, vec.shape)) / safe
    near = (1.0 - np.maximum(dist - full_distance, 0.0) * dist_mult) * master * separation
    right = np.maximum(np.trunc(near * (1.0 + dot)), 0.0)
    left = np.maximum(np.trunc(near * (1.0 - dot)), 0.0)
    full = np.trunc(np.broadcast_to(master, left.shape).astype(np.float64))
    return np.where(own, full, left), np.where(own, full, right)
