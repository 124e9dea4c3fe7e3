"""Camera controllers: a free-flying camera, the engine's chase camera, and an orbit around any point.

Everything here is pure: controllers are frozen dataclasses whose methods return new controllers, and the
camera functions map (map, target, angles) to a :class:`~viewer.render.view_math.Camera`. The window feeds them mouse
deltas, key states and ``dt``; nothing reads the clock or keeps state between frames.

- :class:`FreeFly` flies like ``noclip`` (JoeQuake/ezQuake free-fly spectating): mouse look, forward follows the
  full view direction including pitch, strafe is level, up/down is world Z; 320 units/s, ×4 when fast.
- :func:`chase_camera` places the camera as QuakeSpasm's ``Chase_UpdateForDrawing``: ``back`` units behind the
  eye along the view direction, ``up`` units above the eye, traced from the eye so it never goes through a
  wall, then turned to look at the spot the player aims at.
- :func:`orbit_camera` / :class:`Orbit` circle a point (an entity being followed) at a distance, clipped the
  same way.
- :func:`map_start_camera` stands at a map's player start (``qdv map``).

References: QuakeSpasm ``chase.c`` (``Chase_UpdateForDrawing``, ``TraceLine``), ``mathlib.c``
(``AngleVectors``, ``VectorAngles``); Quake ``sv_user.c`` (``SV_NoclipMove``: the wish speed is clamped to
``sv_maxspeed`` 320); JoeQuake / ezQuake free-fly camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from assets_loader.game_map import GameMap

from .render.view_math import angle_vectors
from .render.refdef import Camera

#: Pitch limits of the mouse-driven cameras (degrees; positive looks down).
PITCH_LIMIT = 89.0
#: Units a clipped camera keeps in front of the wall that stopped it (QuakeSpasm's TODO: "stay at least 8
#: units away from all walls"), so the near clip plane does not cut into the wall.
WALL_MARGIN = 8.0
#: Orbit distance limits.
MIN_DISTANCE = 32.0
MAX_DISTANCE = 1000.0
#: How much one zoom step (a mouse-wheel notch) scales the orbit distance.
ZOOM_STEP = 0.85
#: How far ahead the chase camera looks for the spot the player aims at.
AIM_DISTANCE = 4096.0

Vec3 = tuple[float, float, float]


def _vec(v) -> Vec3:
    x, y, z = (float(c) for c in np.asarray(v, dtype=np.float64).reshape(3))
    return (x, y, z)


def _wrap_yaw(yaw: float) -> float:
    """``yaw`` in [0, 360)."""
    y = math.fmod(float(yaw), 360.0)
    if y < 0:
        y += 360.0
    return 0.0 if y >= 360.0 else y


def _clamp(v: float, lo: float, hi: float) -> float:
    return min(max(float(v), lo), hi)


def _vector_angles(v: np.ndarray, fallback_yaw: float) -> tuple[float, float]:
    """(pitch, yaw) that look along ``v`` (``VectorAngles``); ``fallback_yaw`` when ``v`` is vertical or zero."""
    horizontal = math.hypot(float(v[0]), float(v[1]))
    if horizontal == 0.0:
        if float(v[2]) == 0.0:
            return 0.0, _wrap_yaw(fallback_yaw)
        return (-90.0 if v[2] > 0 else 90.0), _wrap_yaw(fallback_yaw)
    pitch = -math.degrees(math.atan2(float(v[2]), horizontal))
    return pitch, _wrap_yaw(math.degrees(math.atan2(float(v[1]), float(v[0]))))


def clip_to_map(map_: GameMap | None, start, ideal, margin: float = WALL_MARGIN) -> Vec3:
    """Where a camera wanting to be at ``ideal`` can go, moving out from ``start`` (the eye or the target).

    The line ``start → ideal`` is traced with sky counted as solid; if it is blocked the camera stops ``margin``
    units (along the line) short of the wall, never going back past ``start`` (:meth:`GameMap.trace`). With no
    ``map_`` the camera goes to ``ideal``.
    """
    ideal = _vec(ideal)
    if map_ is None:
        return ideal
    s = np.asarray(_vec(start))
    tr = map_.trace(s, ideal)
    if tr.fraction >= 1.0:
        return ideal
    if tr.start_solid:
        return tr.end  # the eye itself is in a wall: nothing better than where the engine would put it
    delta = np.asarray(tr.end) - s
    length = float(np.linalg.norm(delta))
    if length <= margin or length == 0.0:
        return _vec(s)
    return _vec(s + delta * ((length - margin) / length))


@dataclass(frozen=True, slots=True)
class FreeFly:
    """A free-flying camera at ``origin`` looking along ``angles`` (pitch, yaw, roll in degrees)."""

    origin: Vec3
    angles: Vec3

    def look(self, dx: float, dy: float, sensitivity: float = 0.15) -> FreeFly:
        """Turn by mouse deltas in pixels: ``dx`` > 0 (right) turns right, ``dy`` > 0 (up) looks up.

        Pitch is clamped to ±89°, yaw wrapped to [0, 360).
        """
        pitch, yaw, roll = self.angles
        pitch = _clamp(pitch - dy * sensitivity, -PITCH_LIMIT, PITCH_LIMIT)
        return FreeFly(self.origin, (pitch, _wrap_yaw(yaw - dx * sensitivity), float(roll)))

    def move(self, dt: float, forward: float, right: float, up: float, fast: bool = False,
             speed: float = 320.0) -> FreeFly:
        """Fly for ``dt`` seconds with inputs in [-1, 1] (W/S, D/A, E/Q).

        Forward follows the full view direction (pitch included, as in noclip), right is level, up is world +Z.
        The combined input is clamped to length 1 (the engine clamps the wish speed to ``sv_maxspeed``), so
        diagonals are not faster; ``fast`` multiplies the speed by 4. ``dt`` <= 0 does not move.
        """
        if dt <= 0:
            return FreeFly(self.origin, self.angles)
        pitch, yaw, _roll = self.angles
        fwd, rgt, _ = angle_vectors((pitch, yaw, 0.0))
        wish = (fwd * _clamp(forward, -1.0, 1.0) + rgt * _clamp(right, -1.0, 1.0)
                + np.array([0.0, 0.0, 1.0]) * _clamp(up, -1.0, 1.0))
        norm = float(np.linalg.norm(wish))
        if norm > 1.0:
            wish /= norm
        step = wish * (float(speed) * (4.0 if fast else 1.0) * float(dt))
        return FreeFly(_vec(np.asarray(self.origin, dtype=np.float64) + step), self.angles)

    def camera(self, fov: float = 90.0) -> Camera:
        """The :class:`Camera` for drawing."""
        return Camera(self.origin, self.angles, fov)

    @classmethod
    def from_camera(cls, cam: Camera) -> FreeFly:
        """Start flying from ``cam`` (e.g. the demo POV): same origin and view, pitch clamped to ±89°, yaw
        wrapped to [0, 360), roll levelled."""
        pitch, yaw, _roll = (float(a) for a in cam.angles)
        return cls(_vec(cam.origin), (_clamp(pitch, -PITCH_LIMIT, PITCH_LIMIT), _wrap_yaw(yaw), 0.0))


def chase_camera(map_: GameMap | None, eye, view_angles, back: float = 100.0, up: float = 16.0,
                 fov: float = 90.0, margin: float = WALL_MARGIN) -> Camera:
    """A third-person camera behind the player whose eye is at ``eye`` looking along ``view_angles``.

    As ``Chase_UpdateForDrawing``: the ideal spot is ``back`` units behind the eye along the view direction in
    x and y (``back·cos(pitch)`` horizontally) and ``up`` units above the eye; the line from the eye to it is
    traced and the camera stops ``margin`` units in front of any wall (sky included). The camera then looks at
    the spot the player aims at (the first wall ``AIM_DISTANCE`` ahead of the eye). ``map_`` None: no
    clipping, aim point straight ahead at ``AIM_DISTANCE``.
    """
    e = np.asarray(_vec(eye))
    pitch, yaw = float(view_angles[0]), float(view_angles[1])
    forward, _, _ = angle_vectors((pitch, yaw, 0.0))
    ideal = e - forward * float(back)
    ideal[2] = e[2] + float(up)
    origin = clip_to_map(map_, e, ideal, margin)
    aim_end = e + forward * AIM_DISTANCE
    aim = np.asarray(aim_end if map_ is None else map_.trace(e, aim_end).end)
    look_pitch, look_yaw = _vector_angles(aim - np.asarray(origin), yaw)
    return Camera(origin, (look_pitch, look_yaw, 0.0), fov)


def orbit_camera(map_: GameMap | None, target, yaw: float, pitch: float, distance: float = 150.0,
                 fov: float = 90.0, margin: float = WALL_MARGIN) -> Camera:
    """A camera ``distance`` units from ``target``, looking at it along (``pitch``, ``yaw``).

    The camera sits at ``target - forward(pitch, yaw) * distance`` (positive pitch: above, looking down), pulled
    in towards the target in front of walls as :func:`chase_camera` is. ``map_`` None: no clipping.
    """
    t = np.asarray(_vec(target))
    forward, _, _ = angle_vectors((float(pitch), float(yaw), 0.0))
    origin = clip_to_map(map_, t, t - forward * float(distance), margin)
    return Camera(origin, (float(pitch), _wrap_yaw(yaw), 0.0), fov)


@dataclass(frozen=True, slots=True)
class Orbit:
    """Mouse state of an orbit camera: view ``yaw``/``pitch`` (degrees) and ``distance`` from the target."""

    yaw: float = 0.0
    pitch: float = 20.0
    distance: float = 150.0

    def look(self, dx: float, dy: float, sensitivity: float = 0.3) -> Orbit:
        """Swing around the target by mouse deltas in pixels, turning the view like :meth:`FreeFly.look`:
        ``dx`` > 0 turns right (yaw decreases), ``dy`` > 0 looks up (pitch decreases, the camera goes lower).
        Pitch is clamped to ±89°, yaw wrapped to [0, 360)."""
        return Orbit(_wrap_yaw(self.yaw - dx * sensitivity),
                     _clamp(self.pitch - dy * sensitivity, -PITCH_LIMIT, PITCH_LIMIT), self.distance)

    def zoom(self, steps: float) -> Orbit:
        """Move closer by ``steps`` mouse-wheel notches (negative: farther), each scaling the distance by
        ``ZOOM_STEP``; the distance stays within ``MIN_DISTANCE..MAX_DISTANCE`` (32..1000)."""
        distance = float(self.distance) * ZOOM_STEP ** float(steps)
        return Orbit(self.yaw, self.pitch, _clamp(distance, MIN_DISTANCE, MAX_DISTANCE))

    def camera(self, map_: GameMap | None, target, fov: float = 90.0) -> Camera:
        """:func:`orbit_camera` around ``target`` with this state."""
        return orbit_camera(map_, target, self.yaw, self.pitch, self.distance, fov)


def map_start_camera(map_: GameMap | None, fov: float = 90.0) -> Camera:
    """The eye of the map's first player start (``info_player_start``, else any ``info_player_*`` such as Quake
    III's ``info_player_deathmatch``, an intermission spot last; 22 units above its origin, looking along its
    ``angle``), or the middle of the map when it has none (or a malformed one); the origin without a map."""
    if map_ is None:
        return Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), fov)
    preference = {"info_player_start": 0, "info_player_deathmatch": 1, "info_player_intermission": 3}
    starts = sorted((e for e in map_.entities if e.get("classname", "").startswith("info_player")),
                    key=lambda e: preference.get(e.get("classname", ""), 2))
    mins, maxs = map_.bounds
    middle = Camera(_vec((mins + maxs) / 2), (0.0, 0.0, 0.0), fov)
    if not starts:
        return middle
    try:
        x, y, z = (float(v) for v in starts[0].get("origin", "0 0 0").split())
        yaw = float(starts[0].get("angle", 0))
    except ValueError:
        return middle
    return Camera((x, y, z + 22.0), (0.0, yaw, 0.0), fov)
