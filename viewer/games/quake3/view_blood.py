"""Quake III's blood on the screen when the followed player is hurt (``CG_DamageBlendBlob``): for ``DAMAGE_TIME``
(0.5 s) after the hurt a ``viewBloodBlend`` sprite stands 8 units in front of the eye, pushed towards the hit by
8 × ``damageX`` across the view and 8 × ``damageY`` up it, of radius 3 × ``damageValue``, white with alpha
200 fading to 0.  ``damageValue`` is the view kick of ``CG_DamageFeedback``: the hurt's ``damageCount``, scaled by
40 / health when health is 40 or more, held to 5‥10; ``damageY`` is the hit's height over its distance in the
view's horizontal plane.  Only through the recorder's (or followed player's) own eyes: the blob is a
``RF_FIRST_PERSON`` entity and the engine adds it only when not rendering third person.

References: ioquake3 ``code/cgame/cg_view.c`` (``CG_DamageBlendBlob``, ``CG_DrawActiveFrame``),
``cg_playerstate.c`` (``CG_DamageFeedback``), ``cg_local.h`` (``DAMAGE_TIME``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline
from ...render.view_math import angles_axis
from ...render.shaded.records import Q3Poly
from ...render.refdef import Camera
from . import shapes
from .hud_icons import DAMAGE_TIME, damage_x, last_damage

__all__ = ["BLOOD_SHADER", "Hurt", "blood_blob", "damage_value", "damage_y", "last_hurt"]

#: ``cgs.media.viewBloodShader``.
BLOOD_SHADER = "viewBloodBlend"


@dataclass(frozen=True, slots=True)
class Hurt:
    """What ``CG_DamageFeedback`` keeps of the view's last hurt: ``cg.damageTime`` (seconds), ``damageX``,
    ``damageY`` and ``damageValue``."""

    time: float
    x: float
    y: float
    value: float


def damage_value(count: int, health: int) -> float:
    """``CG_DamageFeedback``'s kick: ``count`` scaled by 40 / ``health`` from 40 health up, held to 5‥10."""
    scale = 1.0 if health < 40 else 40.0 / health
    return min(max(count * scale, 5.0), 10.0)


def damage_y(yaw_byte: int, pitch_byte: int, view_angles) -> float:
    """``CG_DamageFeedback``'s ``damageY``: how far up the view the hit came from, −1‥1 (0 for undirected)."""
    if yaw_byte == 255 and pitch_byte == 255:
        return 0.0
    pitch, yaw = math.radians(pitch_byte / 255.0 * 360.0), math.radians(yaw_byte / 255.0 * 360.0)
    back = -np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), -math.sin(pitch)])
    axis = angles_axis(view_angles)
    front, left, up = (float(back @ axis[i]) for i in range(3))
    return min(max(up / max(math.hypot(front, left), 0.1), -1.0), 1.0)


def last_hurt(timeline: DemoTimeline, t: float) -> Hurt | None:
    """The view's last hurt at most ``DAMAGE_TIME`` before ``t`` (:func:`.hud_icons.last_damage`), or ``None``."""
    damage = last_damage(timeline, t, within=DAMAGE_TIME + 0.1)
    if damage is None:
        return None
    frame = int(np.searchsorted(timeline.times, damage.time, side="left"))
    row = timeline.stats_window(frame, frame + 1)
    yaw, pitch = int(row["damage_yaw"][0]), int(row["damage_pitch"][0])
    value = damage_value(int(row["damage_count"][0]), int(row["health"][0]))
    return Hurt(damage.time, damage_x(yaw, pitch, timeline.view_angles_at(frame)),
                damage_y(yaw, pitch, timeline.view_angles_at(frame)), value)


def blood_blob(hurt: Hurt | None, t: float, camera: Camera) -> Q3Poly | None:
    """``CG_DamageBlendBlob``'s sprite at ``t`` in front of ``camera``, or ``None`` outside ``DAMAGE_TIME``."""
    if hurt is None or not hurt.value:
        return None
    since = t - hurt.time
    if since <= 0.0 or since >= DAMAGE_TIME:
        return None
    forward, left, up = angles_axis(camera.angles)
    origin = (np.asarray(camera.origin, np.float64) + 8.0 * forward - 8.0 * hurt.x * left + 8.0 * hurt.y * up)
    alpha = int(200 * (1.0 - since / DAMAGE_TIME))
    return shapes.sprite(BLOOD_SHADER, origin, hurt.value * 3.0, left, up, (255, 255, 255, alpha))
