"""Quake III's name under the crosshair: the player the view last looked at, for a second.

``CG_ScanForCrosshairEntity`` traces a point from the eye 131072 units along the view through the map's solid
and the players' boxes (``CONTENTS_SOLID | CONTENTS_BODY``, the viewed player's own skipped): a player hit first,
unless invisible (``PW_INVIS``), becomes ``cg.crosshairClientNum`` at that moment.  ``CG_DrawCrosshairNames``
writes that player's name for ``CG_FadeColor(cg.crosshairClientTime, 1000)``: 1 s after the last sighting, fading
over the last 200 ms, at half that opacity, in 16 × 16 letters centred at y 170, with a shadow and the name's
colour codes (``CG_DrawBigString``).  The cgame scans every frame it draws; here the view is scanned at the
moment drawn and at each snapshot of the second before, newest first (a snapshot's answer is kept per timeline:
a played demo scans each snapshot once).  A player's box is the one packed in its
entity's ``solid`` (``SV_LinkEntity``: ``x | zd << 8 | (zu + 32) << 16``) around its origin; the map is traced
with :meth:`~assets_loader.game_map.GameMap.trace`.  Fog (``CONTENTS_FOG`` at the hit) is not checked.

References: OpenArena 0.8.8 / ioquake3 ``code/cgame/cg_draw.c`` (``CG_ScanForCrosshairEntity``,
``CG_DrawCrosshairNames``, ``CG_FadeColor``), ``cg_predict.c`` (``CG_ClipMoveToEntities``),
``code/server/sv_world.c`` (``SV_LinkEntity``: the packed box).
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.quake3.game import ET_PLAYER, MAX_CLIENTS, PW_INVIS
from assets_loader.game_map import GameMap

from ...render.view_math import angle_vectors

__all__ = ["NAME_TIME", "sighted_client", "crosshair_client"]

#: How long a sighted player's name stays (``CG_FadeColor``'s 1000 ms).
NAME_TIME = 1.0
SCAN_DISTANCE = 131072.0
SOLID_BMODEL = 0xFFFFFF
#: Each timeline's snapshot scans: (frame, pov, map id) → the client sighted; cleared when it grows past the cap.
_SCANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SCANS_CAP = 4096


def _box_entry(start: np.ndarray, direction: np.ndarray, mins: np.ndarray, maxs: np.ndarray) -> float | None:
    """How far along the unit ``direction`` from ``start`` the line enters the box (0 from inside), or ``None``."""
    near, far = 0.0, math.inf
    for axis in range(3):
        d = float(direction[axis])
        lo, hi = float(mins[axis] - start[axis]), float(maxs[axis] - start[axis])
        if abs(d) < 1e-12:
            if lo > 0.0 or hi < 0.0:
                return None
            continue
        a, b = lo / d, hi / d
        near, far = max(near, min(a, b)), min(far, max(a, b))
        if near > far:
            return None
    return near


def sighted_client(state: SceneState, map_: GameMap | None) -> int | None:
    """The client whose box the view of ``state`` meets before the map (``CG_ScanForCrosshairEntity``), if any."""
    eye = np.asarray(state.view_origin, np.float64)
    forward = np.asarray(angle_vectors(state.view_angles)[0], np.float64)
    reach = SCAN_DISTANCE
    if map_ is not None:
        reach *= map_.trace(eye, eye + forward * SCAN_DISTANCE).fraction
    ents = state.entities
    solid, kind = ents.extra.get("solid"), ents.extra.get("eType")
    if solid is None or kind is None:
        return None
    own = int(state.stats.get("clientNum", -1))
    hit = None
    for j in np.flatnonzero((ents.number < MAX_CLIENTS) & (kind == ET_PLAYER) & (solid != 0)
                            & (solid != SOLID_BMODEL) & (ents.number != own)):
        packed = int(solid[j])
        x, down, up = packed & 0xFF, (packed >> 8) & 0xFF, ((packed >> 16) & 0xFF) - 32
        origin = ents.origin[j].astype(np.float64)
        entry = _box_entry(eye, forward, origin + (-x, -x, -down), origin + (x, x, up))
        if entry is not None and entry < reach:
            reach, hit = entry, j
    if hit is None:
        return None
    powerups = ents.extra.get("powerups")
    if powerups is not None and int(powerups[hit]) & (1 << PW_INVIS):
        return None
    return int(ents.number[hit])


def crosshair_client(state: SceneState, timeline: DemoTimeline, map_: GameMap | None) -> tuple[int, float] | None:
    """The player whose name shows under the crosshair at ``state.time`` and how long ago the view last met them
    (under :data:`NAME_TIME`), or ``None``: the view now, then at each snapshot of the last second."""
    t = state.time
    times = timeline.times
    scans = _SCANS.setdefault(timeline, {})
    if len(scans) > _SCANS_CAP:
        scans.clear()
    pov = state.pov if state.pov >= 0 else None
    at = int(np.searchsorted(times, t, side="left"))
    client = sighted_client(state, map_)
    if at < len(times) and float(times[at]) == t:     # a snapshot's own moment: its scan, for the frames after it
        scans[(at, pov, id(map_))] = client
    if client is not None:
        return client, 0.0
    frame = min(at, len(times)) - 1
    while frame >= 0 and t - float(times[frame]) < NAME_TIME:
        key = (frame, pov, id(map_))
        if key not in scans:
            scans[key] = sighted_client(timeline.sample(float(times[frame]), pov=pov), map_)
        if scans[key] is not None:
            return scans[key], t - float(times[frame])
        frame -= 1
    return None
