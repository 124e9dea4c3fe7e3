"""Camera paths: keys on the demo's timeline and the pure ``camera_at(path, t)`` shared by the window and exports.

A path is a list of keys, each a demo time with a camera pose (origin, Quake angles, fov) and optionally an entity
to look at. Between keys the position follows a centripetal Catmull-Rom spline (knot spacing √distance: no cusps
or overshoot loops, Yuksel et al. 2011), the orientation a quaternion slerp on the shortest arc (yaw 170° → −170°
turns 20°, never 340°), the fov a straight line. Before the first and after the last key the camera holds. A key
with ``look_at`` aims at that entity wherever it is at ``t`` (the caller gives its position).

Saved as JSON beside the demo (``NAME.camera.json``, schema in README "Camera paths"): ``{"version": 1,
"keys": [{"time", "origin", "angles", "fov", "look_at"}…]}``; ``time`` counts from the demo's start like every time
the user sees.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState

from .file_writes import replace_file
from .render.refdef import CAMERA_LIMIT, Camera
from .render.view_math import angle_vectors
from .side_files import JSON_STRINGS, SideFileError, check_nesting, read_text

VERSION = 1
#: The file's kind for size limits and messages (``QDV_MAX_CAMERA_PATH_SIZE``).
KIND = "camera path"
#: Latest key time accepted, in seconds (a key far past the demo's end is kept; ten years is not a time).
MAX_TIME = 1e8
#: Entity numbers are below this in every protocol (Quake III ``MAX_GENTITIES`` 1024, QuakeWorld 512).
MAX_ENTITY = 1 << 16
#: Longest integer read: a coordinate needs 7 digits.
MAX_DIGITS = 20
#: Centripetal parameterisation: knot spacing is distance ** ALPHA.
ALPHA = 0.5
_EPS = 1e-6

Vec3 = tuple[float, float, float]
#: ``(entity number, t) → its origin`` or ``None`` when it is not present at ``t``.
TargetLookup = Callable[[int, float], Vec3 | None]


class CameraPathError(SideFileError):
    """A camera path file that cannot be used: names the file and the field."""

    def __init__(self, path: str, field: str, expected: str, found: str | None = None) -> None:
        super().__init__(path, KIND, None, f"{field}: {expected}", found)


@dataclass(frozen=True, slots=True)
class CameraKey:
    """A pose at demo ``time`` (seconds from the demo's start); ``look_at``: an entity number to aim at."""

    time: float
    origin: Vec3
    angles: Vec3
    fov: float = 90.0
    look_at: int | None = None


@dataclass(frozen=True, slots=True)
class CameraPath:
    """Keys sorted by time (two keys never share a time)."""

    keys: tuple[CameraKey, ...] = ()

    @classmethod
    def of(cls, keys: list[CameraKey]) -> CameraPath:
        """The path of ``keys`` in any order, sorted once; of keys at the same time the last one given stays (as
        adding them one by one with :meth:`with_key` would keep it)."""
        ordered = sorted(keys, key=lambda k: k.time)  # stable: keys at one time keep the order they were given in
        kept: list[CameraKey] = []
        for key in ordered:
            if kept and abs(kept[-1].time - key.time) <= _EPS:
                kept[-1] = key
            else:
                kept.append(key)
        return cls(tuple(kept))

    def with_key(self, key: CameraKey) -> CameraPath:
        """This path with ``key`` added, replacing a key at the same time."""
        kept = [k for k in self.keys if abs(k.time - key.time) > _EPS]
        return CameraPath(tuple(sorted([*kept, key], key=lambda k: k.time)))

    def without(self, index: int) -> CameraPath:
        return CameraPath(self.keys[:index] + self.keys[index + 1:])

    def moved(self, index: int, time: float) -> CameraPath:
        """Key ``index`` moved to ``time`` (replacing a key already there)."""
        k = self.keys[index]
        return self.without(index).with_key(CameraKey(time, k.origin, k.angles, k.fov, k.look_at))


# --- sampling ------------------------------------------------------------------------------------------------------


def camera_at(path: CameraPath, t: float, target: TargetLookup | None = None) -> Camera | None:
    """The camera of ``path`` at demo time ``t`` (``None`` for a path without keys)."""
    keys = path.keys
    if not keys:
        return None
    times = [k.time for k in keys]
    if t <= times[0] or len(keys) == 1:
        return _pose(keys[0], keys[0].origin, _quat(keys[0].angles), keys[0].fov, t, target)
    if t >= times[-1]:
        return _pose(keys[-1], keys[-1].origin, _quat(keys[-1].angles), keys[-1].fov, t, target)
    i = int(np.searchsorted(times, t, side="right")) - 1
    a, b = keys[i], keys[i + 1]
    u = (t - a.time) / (b.time - a.time)
    points = [np.asarray(keys[j].origin, float) for j in (max(i - 1, 0), i, i + 1, min(i + 2, len(keys) - 1))]
    origin = _centripetal(points, u)
    rotation = _slerp(_quat(a.angles), _quat(b.angles), u)
    fov = a.fov + (b.fov - a.fov) * u
    return _pose(a if u < 0.5 else b, origin, rotation, fov, t, target)


def _pose(key: CameraKey, origin, rotation: np.ndarray, fov: float, t: float,
          target: TargetLookup | None) -> Camera:
    angles = _angles(rotation)
    if key.look_at is not None and target is not None:
        aim = target(key.look_at, t)
        if aim is not None:
            angles = look_angles(origin, aim, roll=angles[2])
    o = np.asarray(origin, float)
    return Camera((float(o[0]), float(o[1]), float(o[2])), angles, float(fov))


def look_angles(origin, target, roll: float = 0.0) -> Vec3:
    """Quake angles (pitch down positive, yaw) that look from ``origin`` at ``target``."""
    d = np.asarray(target, float) - np.asarray(origin, float)
    yaw = math.degrees(math.atan2(d[1], d[0]))
    pitch = -math.degrees(math.atan2(d[2], math.hypot(d[0], d[1])))
    return (pitch, yaw, roll)


def _centripetal(p: list[np.ndarray], u: float) -> np.ndarray:
    """Point at ``u`` ∈ [0, 1] between ``p[1]`` and ``p[2]`` of a centripetal Catmull-Rom spline (Barry-Goldman's
    pyramid). End segments repeat their end point, which makes them straight-ended, never looping."""
    t0 = 0.0
    t1 = t0 + max(float(np.linalg.norm(p[1] - p[0])) ** ALPHA, _EPS)
    t2 = t1 + max(float(np.linalg.norm(p[2] - p[1])) ** ALPHA, _EPS)
    t3 = t2 + max(float(np.linalg.norm(p[3] - p[2])) ** ALPHA, _EPS)
    t = t1 + (t2 - t1) * u

    def lerp(x: np.ndarray, y: np.ndarray, ta: float, tb: float) -> np.ndarray:
        return x * ((tb - t) / (tb - ta)) + y * ((t - ta) / (tb - ta))

    a1, a2, a3 = lerp(p[0], p[1], t0, t1), lerp(p[1], p[2], t1, t2), lerp(p[2], p[3], t2, t3)
    b1, b2 = lerp(a1, a2, t0, t2), lerp(a2, a3, t1, t3)
    return lerp(b1, b2, t1, t2)


def _quat(angles) -> np.ndarray:
    """Unit quaternion ``(w, x, y, z)`` of the rotation whose columns are forward, left, up (Quake's frame)."""
    forward, right, up = angle_vectors(angles)
    m = np.column_stack([forward, -right, up])
    # Shepperd's method: start from the largest of w, x, y, z, so no square root is taken of a number near zero
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > max(m[0, 0], m[1, 1], m[2, 2]):
        s = 2.0 * math.sqrt(1.0 + trace)
        q = np.array([s / 4, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s])
    elif m[0, 0] >= m[1, 1] and m[0, 0] >= m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = np.array([(m[2, 1] - m[1, 2]) / s, s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s])
    elif m[1, 1] >= m[2, 2]:
        s = 2.0 * math.sqrt(1.0 - m[0, 0] + m[1, 1] - m[2, 2])
        q = np.array([(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s])
    else:
        s = 2.0 * math.sqrt(1.0 - m[0, 0] - m[1, 1] + m[2, 2])
        q = np.array([(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4])
    return q / np.linalg.norm(q)


def _slerp(q0: np.ndarray, q1: np.ndarray, u: float) -> np.ndarray:
    """Spherical interpolation on the shortest arc."""
    dot = float(np.dot(q0, q1))
    if dot < 0.0:
        q1, dot = -q1, -dot
    if dot > 0.9995:
        q = q0 + (q1 - q0) * u
        return q / np.linalg.norm(q)
    theta = math.acos(dot)
    return (math.sin((1 - u) * theta) * q0 + math.sin(u * theta) * q1) / math.sin(theta)


def _angles(q: np.ndarray) -> Vec3:
    """Quake angles of a rotation quaternion (inverse of :func:`_quat`)."""
    w, x, y, z = q
    forward = np.array([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)])
    left = np.array([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)])
    pitch = -math.degrees(math.asin(max(-1.0, min(1.0, forward[2]))))
    yaw = math.degrees(math.atan2(forward[1], forward[0]))
    # roll: the angle of the left vector around forward, measured from the level left vector
    level_left = np.array([-math.sin(math.radians(yaw)), math.cos(math.radians(yaw)), 0.0])
    level_up = np.cross(forward, level_left)
    roll = math.degrees(math.atan2(float(np.dot(left, level_up)), float(np.dot(left, level_left))))
    return (pitch, yaw, roll)


# --- files ---------------------------------------------------------------------------------------------------------


def path_file_for(demo: str | Path) -> Path:
    """``NAME.camera.json`` beside ``demo`` (``NAME`` without the demo's extension, ``.gz`` included)."""
    p = Path(demo)
    name = p.name[:-3] if p.name.lower().endswith(".gz") else p.name
    return p.with_name(f"{Path(name).stem}.camera.json")


def to_json(path: CameraPath) -> str:
    keys = [{"time": k.time, "origin": list(k.origin), "angles": list(k.angles), "fov": k.fov, "look_at": k.look_at}
            for k in path.keys]
    return json.dumps({"version": VERSION, "keys": keys}, indent=2)


def save_path(path: CameraPath, file: str | Path) -> None:
    """Write ``path`` as JSON (atomically, through a fresh temporary name: :func:`~viewer.file_writes.replace_file`)."""
    replace_file(file, (to_json(path) + "\n").encode("utf-8"))


def _number(value: object, name: str, field: str, limit: float = CAMERA_LIMIT) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -limit <= value <= limit:
        raise CameraPathError(name, field, f"a number within ±{limit:g}", _shown(value))
    return float(value)


def _vector(value: object, name: str, field: str) -> Vec3:
    if not isinstance(value, list) or len(value) != 3:
        raise CameraPathError(name, field, "a list of 3 numbers", _shown(value))
    x, y, z = (_number(v, name, f"{field}[{i}]") for i, v in enumerate(value))
    return (x, y, z)


def _shown(value: object) -> str:
    """``repr`` of a wrong value, cut short: a list of a million items is named, not printed."""
    text = repr(value) if not isinstance(value, (list, dict)) else f"a {type(value).__name__} of {len(value)} items"
    return text if len(text) <= 40 else text[:37] + "..."


def _int(text: str) -> int:
    """JSON integers of at most :data:`MAX_DIGITS` digits: a longer one is no coordinate, and costs
    quadratic time to convert."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits")
    return int(text)


def parse_path(text: str, name: str = "<camera path>") -> CameraPath:
    """A :class:`CameraPath` from JSON text; :class:`CameraPathError` names the field that is wrong (a file
    nested deeper than :data:`~viewer.side_files.MAX_NESTING` is refused before it is parsed)."""
    check_nesting(text, name, KIND, JSON_STRINGS)
    try:
        data = json.loads(text, parse_int=_int)
    except ValueError as exc:  # JSONDecodeError, or an integer too long
        raise CameraPathError(name, "the file", "JSON", str(exc)) from None
    if not isinstance(data, dict):
        raise CameraPathError(name, "the file", "a JSON object", type(data).__name__)
    version = data.get("version")
    if version != VERSION:
        raise CameraPathError(name, "version", f"{VERSION} (this qdv reads version {VERSION})", _shown(version))
    raw_keys = data.get("keys")
    if not isinstance(raw_keys, list):
        raise CameraPathError(name, "keys", "a list", _shown(raw_keys))
    keys = []
    for i, raw in enumerate(raw_keys):
        where = f"keys[{i}]"
        if not isinstance(raw, dict):
            raise CameraPathError(name, where, "an object", _shown(raw))
        fov = _number(raw.get("fov", 90.0), name, f"{where}.fov")
        if not 1.0 <= fov <= 179.0:
            raise CameraPathError(name, f"{where}.fov", "1..179", repr(fov))
        look_at = raw.get("look_at")
        if look_at is not None and (isinstance(look_at, bool) or not isinstance(look_at, int)
                                    or not 0 <= look_at < MAX_ENTITY):
            raise CameraPathError(name, f"{where}.look_at", "null or an entity number", _shown(look_at))
        keys.append(CameraKey(_number(raw.get("time"), name, f"{where}.time", MAX_TIME),
                              _vector(raw.get("origin"), name, f"{where}.origin"),
                              _vector(raw.get("angles"), name, f"{where}.angles"), fov, look_at))
    return CameraPath.of(keys)


def load_path(file: str | Path) -> CameraPath:
    """Read a camera path file: a regular file of at most 8 MiB (:mod:`viewer.side_files`). ``OSError`` if it
    cannot be read, a :class:`~assets_loader.errors.FormatError` (:class:`CameraPathError` among them) if it is
    not a camera path."""
    return parse_path(read_text(file, KIND), str(file))


def keys_outside(path: CameraPath, duration: float) -> list[int]:
    """Indices of keys whose time lies outside the demo (0 .. ``duration``): kept, but worth reporting."""
    return [i for i, k in enumerate(path.keys) if not 0.0 <= k.time <= duration]


def entity_target(timeline: DemoTimeline, pov: int | None = None) -> TargetLookup:
    """The :data:`TargetLookup` of a demo: an entity's interpolated origin (``DemoTimeline.sample``) at a time
    counted from the demo's start (``None`` while the entity is not in the frame)."""

    def origin(number: int, t: float) -> Vec3 | None:
        return entity_origin(timeline.sample(timeline.start_time + t, pov=pov), number)

    return origin


def entity_origin(state: SceneState, number: int) -> Vec3 | None:
    """Where entity ``number`` is in ``state`` (``None``: not in it); a window already holding the state of the
    time it draws looks targets up here, so its path camera equals :func:`entity_target`'s."""
    hit = np.flatnonzero(state.entities.number == number)
    if not len(hit):
        return None
    o = state.entities.origin[hit[0]]
    return (float(o[0]), float(o[1]), float(o[2]))
