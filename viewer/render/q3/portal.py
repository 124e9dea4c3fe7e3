"""Quake III mirrors and portals: where the view through a ``portal`` surface comes from.

A surface whose shader says ``portal`` is drawn after a second view of the scene: the engine takes the first
portal surface on screen and facing the eye, finds the ``misc_portal_surface`` entity within 64 units of its
plane and renders the scene again from the eye carried through the portal, clipped at the portal's plane.
An entity without a camera is a mirror (the eye reflected in the plane, the winding of everything reversed);
one aimed at a ``misc_portal_camera`` shows what that camera sees (optionally rolling or swinging). The portal
surface's own shader then lets that picture show through.

The game turns the map's entities into what it sends: :func:`portal_entities` does the same from the map
(``SP_misc_portal_surface``, ``locateCamera``, ``SP_misc_portal_camera``, ``CG_Portal``), so mirrors work for a
map without a demo too.

References: ioquake3 ``renderergl1/tr_main.c`` (``R_GetPortalOrientations``, ``R_MirrorPoint``,
``R_MirrorVector``, ``SurfIsOffscreen``, ``R_MirrorViewBySurface``, ``R_SortDrawSurfs``), ``tr_backend.c``
(``RB_BeginDrawingView``: the clip plane), ``qcommon/q_math.c`` (``PerpendicularVector``,
``RotatePointAroundVector``); ``game/g_misc.c``; ``cgame/cg_ents.c`` (``CG_Portal``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: How far from a portal surface's plane its entity may stand (``R_GetPortalOrientations``).
PORTAL_ENTITY_RANGE = 64.0


@dataclass(frozen=True, slots=True)
class PortalEntity:
    """An ``RT_PORTALSURFACE`` refEntity: ``origin`` near the surface, ``camera`` (``oldorigin``: the same point
    for a mirror), ``axis`` rows (the camera's direction first), ``swing`` (``oldframe``), ``speed`` (``frame``:
    degrees per second of roll) and ``roll`` (``skinNum``: degrees)."""

    origin: tuple[float, float, float]
    camera: tuple[float, float, float]
    axis: tuple[tuple[float, float, float], ...]
    swing: bool = False
    speed: float = 0.0
    roll: float = 0.0

    @property
    def is_mirror(self) -> bool:
        return self.camera == self.origin


@dataclass(frozen=True, slots=True)
class PortalView:
    """Where a portal's view comes from: ``transform`` ``[4, 4]`` carries points from the viewer's side through
    the portal (``R_MirrorPoint``), ``inverse`` back; ``clip_plane`` ``(normal, dist)``: keep what is in front
    of it; ``pvs_origin``; ``mirror``: the winding is reversed."""

    transform: np.ndarray
    inverse: np.ndarray
    clip_plane: tuple[float, float, float, float]
    pvs_origin: tuple[float, float, float]
    mirror: bool


def _vec(text: str | None) -> tuple[float, float, float] | None:
    try:
        x, y, z = (float(v) for v in (text or "").split()[:3])
    except ValueError:
        return None
    return (x, y, z)


def perpendicular_vector(v) -> np.ndarray:
    """``PerpendicularVector``: the unit axis along ``v``'s smallest component, projected off ``v``."""
    v = np.asarray(v, np.float64)
    axis = np.zeros(3)
    axis[int(np.argmin(np.abs(v)))] = 1.0
    out = axis - v * (np.dot(axis, v) / np.dot(v, v))
    return out / np.linalg.norm(out)


def rotate_around(point, axis, degrees: float) -> np.ndarray:
    """``RotatePointAroundVector``: ``point`` turned ``degrees`` about the unit ``axis`` (right-handed)."""
    p, k = np.asarray(point, np.float64), np.asarray(axis, np.float64)
    a = math.radians(degrees)
    return p * math.cos(a) + np.cross(k, p) * math.sin(a) + k * np.dot(k, p) * (1 - math.cos(a))


def _movedir(angles: tuple[float, float, float]) -> np.ndarray:
    """``G_SetMovedir``: the forward vector of ``angles`` (-1 yaw: up, -2: down)."""
    pitch, yaw, _ = angles
    if (pitch, yaw) == (0.0, -1.0):
        return np.array([0.0, 0.0, 1.0])
    if (pitch, yaw) == (0.0, -2.0):
        return np.array([0.0, 0.0, -1.0])
    p, y = math.radians(pitch), math.radians(yaw)
    return np.array([math.cos(p) * math.cos(y), math.cos(p) * math.sin(y), -math.sin(p)])


def portal_entities(entities: tuple[dict[str, str], ...]) -> tuple[PortalEntity, ...]:
    """The portal refEntities the game would send for a map's ``misc_portal_surface`` entities: a mirror for
    one without a ``target``, else a view from the ``misc_portal_camera`` it targets (looking at that camera's
    own target, or along its ``angles``/``angle``); a surface whose camera is missing is dropped."""
    by_name: dict[str, dict[str, str]] = {}
    for ent in entities:
        by_name.setdefault(ent.get("targetname", ""), ent)
    out = []
    for ent in entities:
        if ent.get("classname") != "misc_portal_surface":
            continue
        origin = _vec(ent.get("origin"))
        if origin is None:
            continue
        direction = np.array([1.0, 0.0, 0.0])
        camera, swing, speed, roll = origin, False, 0.0, 0.0
        if ent.get("target"):
            owner = by_name.get(ent["target"])
            cam = _vec(owner.get("origin")) if owner is not None else None
            if owner is None or cam is None:
                continue
            camera = cam
            flags = int(float(owner.get("spawnflags", "0") or 0))
            speed = 25.0 if flags & 1 else 75.0 if flags & 2 else 0.0
            swing = not flags & 4
            roll = int(float(owner.get("roll", "0") or 0) / 360.0 * 256) / 256.0 * 360
            aim = by_name.get(owner.get("target", "")) if owner.get("target") else None
            aim_origin = _vec(aim.get("origin")) if aim is not None else None
            if aim_origin is not None and aim_origin != cam:
                direction = np.subtract(aim_origin, cam)
                direction /= np.linalg.norm(direction)
            else:
                angles = _vec(owner.get("angles")) or (0.0, float(owner.get("angle", "0") or 0), 0.0)
                direction = _movedir(angles)
        side = -perpendicular_vector(direction)
        up = np.cross(direction, side)
        axis = tuple((float(row[0]), float(row[1]), float(row[2])) for row in (direction, side, up))
        out.append(PortalEntity(origin, camera, axis, swing, speed, roll))
    return tuple(out)


def _orientation_matrix(origin, axis) -> np.ndarray:
    """``[4, 4]``: local coordinates along ``axis`` rows → world, around ``origin``."""
    m = np.eye(4)
    m[:3, :3] = np.asarray(axis, np.float64).T
    m[:3, 3] = origin
    return m


def portal_view(plane: tuple[np.ndarray, float], entities: tuple[PortalEntity, ...], time: float) -> PortalView | None:
    """``R_GetPortalOrientations`` for a portal surface in ``plane`` (unit normal facing the viewer, dist) at
    ``time`` seconds: the first entity within 64 units of the plane decides; ``None`` without one."""
    normal = np.asarray(plane[0], np.float64)
    dist = float(plane[1])
    surface_axis = np.stack([normal, perpendicular_vector(normal), np.zeros(3)])
    surface_axis[2] = np.cross(surface_axis[0], surface_axis[1])
    for ent in entities:
        d = float(np.dot(ent.origin, normal)) - dist
        if abs(d) > PORTAL_ENTITY_RANGE:
            continue
        if ent.is_mirror:
            surface_origin = normal * dist
            camera_origin = surface_origin
            camera_axis = surface_axis * np.array([[-1.0], [1.0], [1.0]])
        else:
            surface_origin = np.asarray(ent.origin) - d * normal
            camera_origin = np.asarray(ent.camera, np.float64)
            camera_axis = np.asarray(ent.axis, np.float64) * np.array([[-1.0], [-1.0], [1.0]])
            turn = ent.roll
            if ent.swing:
                turn = time * ent.speed if ent.speed else ent.roll + math.sin(time * 1000 * 0.003) * 4
            if turn:
                camera_axis[1] = rotate_around(camera_axis[1], camera_axis[0], turn)
                camera_axis[2] = np.cross(camera_axis[0], camera_axis[1])
        # R_MirrorPoint: local coordinates along the surface axes become coordinates along the camera axes
        transform = _orientation_matrix(camera_origin, camera_axis) @ np.linalg.inv(
            _orientation_matrix(surface_origin, surface_axis))
        clip_normal = -camera_axis[0]
        clip = (*(float(c) for c in clip_normal), float(np.dot(camera_origin, clip_normal)))
        return PortalView(transform, np.linalg.inv(transform), (clip[0], clip[1], clip[2], clip[3]),
                          (float(ent.camera[0]), float(ent.camera[1]), float(ent.camera[2])), ent.is_mirror)
    return None


def surface_offscreen(points: np.ndarray, normals: np.ndarray, triangles: np.ndarray, view_proj: np.ndarray,
                      eye, portal_range: float | None) -> bool:
    """``SurfIsOffscreen``: every vertex outside one side of the view frustum, or every triangle facing away
    from ``eye``, or (a portal, not a mirror: ``portal_range`` given) every vertex farther than the range."""
    clip = np.c_[points, np.ones(len(points))] @ np.asarray(view_proj, np.float64).T
    w = clip[:, 3:4]
    outside = np.concatenate([clip[:, :3] >= w, clip[:, :3] <= -w], axis=1)
    if outside.all(axis=0).any():
        return True
    first = triangles[:, 0]
    to_vertex = points[first] - np.asarray(eye, np.float64)
    if (np.sum(to_vertex * normals[first], axis=1) >= 0).all():
        return True
    if portal_range is None:
        return False
    return float(np.min(np.sum(to_vertex ** 2, axis=1))) > portal_range ** 2
