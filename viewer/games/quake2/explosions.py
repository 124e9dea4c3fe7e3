"""Quake II's explosion models: the animated ``r_explode`` mesh (and the BFG's sprite) a temp entity leaves behind,
with the light it gives, as pure functions of time.

Like ``CL_ParseTEnt`` / ``CL_AddExplosions``: rocket-type explosions play 15 frames of
``models/objects/r_explode/tris.md2`` from frame 0 or 15 (a coin toss), grenade-type ones 19 frames from frame 30,
the BFG's 4 frames of ``sprites/s_bfg2.sp2``; each is turned to a random yaw and starts one 100 ms frame in
(``start = servertime − 100``).  At ``f`` whole frames since the start the mesh shows pose ``base + f + 1`` blended
from ``base + f``, skin ``f / 2`` for the first ten frames then skins 5 and 6 at ``(16 − f) / 16`` opacity, and it
is gone at frame ``frames − 1``; its light (350 units, pinkish, green for the BFG) shrinks with that opacity.  The
BFG's sprite is translucent from the start, at that same opacity.  Every explosion is ``RF_FULLBRIGHT``: drawn at
the full light level, not lit by the map.  The random picks are seeded by the event's number, so any time gives the
same picture.

References: Quake II 3.20 ``client/cl_tent.c`` (``CL_RegisterTEntModels``, ``CL_ParseTEnt``, ``CL_AddExplosions``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos.events import TempEntityEvent

from ..base import EffectModel

EXPLODE_MODEL = "models/objects/r_explode/tris.md2"
BIG_EXPLODE_MODEL = "models/objects/r_explode2/tris.md2"
BFG_EXPLODE_SPRITE = "sprites/s_bfg2.sp2"
#: The models the explosions draw, registered with every segment (``CL_RegisterTEntModels``).
EFFECT_MODELS = (EXPLODE_MODEL, BIG_EXPLODE_MODEL, BFG_EXPLODE_SPRITE)
#: Seconds per explosion frame (``CL_AddExplosions``: ``frac = (time - start) / 100`` ms).
FRAME_TIME = 0.1
LIGHT_RADIUS = 350.0
LIGHT_COLOR = (1.0, 0.5, 0.5)
BFG_LIGHT_COLOR = (0.0, 1.0, 0.0)


@dataclass(frozen=True, slots=True)
class ExplosionKind:
    """How a temp entity kind explodes: its ``model``, ``frames`` played, first pose ``base`` (``None``: 0 or 15
    by a coin toss), light colour, and whether it is ``RF_TRANSLUCENT`` from the start (the BFG's)."""

    model: str
    frames: int
    base: int | None
    color: tuple[float, float, float] = LIGHT_COLOR
    translucent: bool = False


_ROCKET = ExplosionKind(EXPLODE_MODEL, 15, None)
_GRENADE = ExplosionKind(EXPLODE_MODEL, 19, 30)
KINDS: dict[str, ExplosionKind] = {
    "explosion1": _ROCKET, "rocket_explosion": _ROCKET, "rocket_explosion_water": _ROCKET,
    "explosion1_np": _ROCKET, "plasma_explosion": _ROCKET, "plain_explosion": _ROCKET,
    "explosion1_big": ExplosionKind(BIG_EXPLODE_MODEL, 15, None),
    "barrel_explosion": _GRENADE, "grenade_explosion": _GRENADE, "grenade_explosion_water": _GRENADE,
    "bfg_explosion": ExplosionKind(BFG_EXPLODE_SPRITE, 4, 0, BFG_LIGHT_COLOR, translucent=True),
}
#: The longest an explosion shows (grenades: 17 frames after the first).
MAX_LIFE = max(k.frames for k in KINDS.values()) * FRAME_TIME


@dataclass(frozen=True, slots=True)
class ExplosionPose:
    """An explosion at one time: whole frames ``f`` since its start, the blend into the next, and its opacity."""

    f: int
    blend: float
    alpha: float


def pose_at(kind: ExplosionKind, age: float) -> ExplosionPose | None:
    """The explosion ``age`` seconds after its temp entity, ``None`` once it is gone (or before it)."""
    if age < 0:
        return None
    frac = age / FRAME_TIME + 1.0                 # the engine starts it one frame early
    f = math.floor(frac)
    if f >= kind.frames - 1:
        return None
    return ExplosionPose(f, frac - f, (16.0 - f) / 16.0)


def explosion_model(kind: ExplosionKind, event: TempEntityEvent, number: int, age: float) -> EffectModel | None:
    """The model of explosion ``number`` (its temp entity's index, the seed of its random yaw and first pose)."""
    pose = pose_at(kind, age)
    if pose is None:
        return None
    rng = np.random.default_rng([number & 0xFFFFFFFF, 0xE4])
    yaw = float(rng.integers(0, 360))
    base = kind.base if kind.base is not None else (15 if rng.random() < 0.5 else 0)
    f = pose.f
    if f < 10:
        skin, translucent = f >> 1, kind.translucent
    else:                                         # RF_TRANSLUCENT from frame 10 on
        skin, translucent = (5 if f < 13 else 6), True
    return EffectModel(kind.model, np.asarray(event.origin, np.float32), np.array([0.0, yaw, 0.0], np.float32),
                       base + f + 1, prev_frame=base + f, blend=pose.blend, skin=skin,
                       alpha=pose.alpha if translucent else 1.0, fullbright=True)


def models_at(times: np.ndarray, events: Sequence[TempEntityEvent], t: float) -> list[EffectModel]:
    """The explosion models alive at ``t`` (``times``: the events' times, sorted)."""
    out: list[EffectModel] = []
    lo, hi = np.searchsorted(times, [t - MAX_LIFE, t], side="right")
    for i in range(int(lo), int(hi)):
        e = events[i]
        kind = KINDS.get(e.name)
        if kind is None:
            continue
        model = explosion_model(kind, e, i, t - e.time)
        if model is not None:
            out.append(model)
    return out


def lights_at(times: np.ndarray, events: Sequence[TempEntityEvent],
              t: float) -> list[tuple[np.ndarray, float, tuple[float, float, float]]]:
    """The lights of the explosions alive at ``t``: (origin, radius, colour) each, the radius
    ``350 × (16 − f) / 16``."""
    out = []
    lo, hi = np.searchsorted(times, [t - MAX_LIFE, t], side="right")
    for i in range(int(lo), int(hi)):
        e = events[i]
        kind = KINDS.get(e.name)
        pose = pose_at(kind, t - e.time) if kind is not None else None
        if kind is not None and pose is not None:
            out.append((np.asarray(e.origin, np.float32), LIGHT_RADIUS * pose.alpha, kind.color))
    return out
