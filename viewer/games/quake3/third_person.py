"""Quake III's view of a dead player: cgame shows the followed (or recording) player from behind while its health
is 0 or below, until it respawns, turned towards its killer.

``CG_OffsetThirdPersonView`` with the defaults ``cg_thirdPersonRange 40`` and ``cg_thirdPersonAngle 0``: the focus
is 512 units ahead of the eye along the view angles with the yaw replaced by ``STAT_DEAD_YAW`` (the way to the
killer) and the pitch held to 45° at most; the camera starts 8 units above the eye and backs 40 units away from
the view direction whose pitch is halved (yaw the dead yaw too).  When the way back meets the map the camera stops
there and rises by what was left of the way × 32, then stops again at the map on the way to that point; it then
looks at the focus.  The engine traces an 8-unit box through the map's solid brushes; here a line is traced
through them (:meth:`~assets_loader.game_map.GameMap.trace`) and the camera stays the box's 4 units short of
the wall.  ``cg.renderingThirdPerson`` holds for players who are not spectators.

References: ioquake3 ``code/cgame/cg_view.c`` (``CG_OffsetThirdPersonView``, ``CG_DrawActiveFrame``:
``renderingThirdPerson``; ``FOCUS_DISTANCE``), ``cg_main.c`` (``cg_thirdPersonRange``, ``cg_thirdPersonAngle``),
``code/game/bg_public.h`` (``STAT_DEAD_YAW``, ``TEAM_SPECTATOR``).
"""

from __future__ import annotations

import math

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.demos.quake3.game import TEAM_SPECTATOR
from assets_loader.game_map import GameMap

from ...render.view_math import angle_vectors

__all__ = ["dead_view", "renders_third_person"]

FOCUS_DISTANCE = 512.0
THIRD_PERSON_RANGE = 40.0
EYE_RISE = 8.0
MAX_FOCUS_PITCH = 45.0
BLOCKED_RISE = 32.0
BOX_HALF = 4.0


def renders_third_person(state: SceneState) -> bool:
    """``cg.renderingThirdPerson`` with ``cg_thirdPerson 0``: the viewed player is dead and not a spectator."""
    stats = state.stats
    return bool(stats) and int(stats.get("health", 1)) <= 0 and int(stats.get("team", 0)) != TEAM_SPECTATOR


def _reach(map_: GameMap | None, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, float]:
    """How far along ``start`` → ``end`` the camera gets: the point and the fraction of the way."""
    way = end - start
    length = float(np.linalg.norm(way))
    if map_ is None or length < 1e-6:
        return end, 1.0
    trace = map_.trace(start, end)
    if trace.fraction >= 1.0:
        return end, 1.0
    frac = max(0.0, trace.fraction - BOX_HALF / length)
    return start + way * frac, frac


def dead_view(state: SceneState, map_: GameMap | None) -> tuple[tuple[float, float, float],
                                                                      tuple[float, float, float]]:
    """The camera ``(origin, angles)`` behind the dead player of ``state`` (rules: module docstring)."""
    eye = np.asarray(state.view_origin, np.float64)
    pitch, _, roll = (float(v) for v in state.view_angles)
    yaw = float(state.stats.get("dead_yaw", 0))
    forward = np.asarray(angle_vectors((min(pitch, MAX_FOCUS_PITCH), yaw, roll))[0], np.float64)
    focus = eye + forward * FOCUS_DISTANCE
    back = np.asarray(angle_vectors((pitch * 0.5, yaw, roll))[0], np.float64)
    wanted = eye + np.array([0.0, 0.0, EYE_RISE]) - back * THIRD_PERSON_RANGE
    view, frac = _reach(map_, eye, wanted)
    if frac < 1.0:
        view = _reach(map_, eye, view + np.array([0.0, 0.0, (1.0 - frac) * BLOCKED_RISE]))[0]
    to_focus = focus - view
    flat = max(math.hypot(float(to_focus[0]), float(to_focus[1])), 1.0)
    look_pitch = -math.degrees(math.atan2(float(to_focus[2]), flat))
    return (float(view[0]), float(view[1]), float(view[2])), (look_pitch, yaw, roll)
