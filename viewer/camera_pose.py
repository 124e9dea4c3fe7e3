"""The camera a demo picture is drawn from: one rule for the window, ``qdv screenshot`` and every export.

:class:`ShotCamera` says what the camera is — the mode (pov, free, chase, orbit, path) and its pose — and
:func:`camera_pose` gives the :class:`Camera` it sees a demo state from. The window asks it through
:meth:`~viewer.viewer_state.ViewerState.camera_for` (its state as a ShotCamera: :meth:`~viewer.viewer_state.
ViewerState.shot`), ``qdv screenshot``, ``qdv render`` and the window's Ctrl+E export through
:class:`~viewer.video.shot.ShotView`, so an export shows what the window shows at the same moment.

The orbit circles the followed entity (by default the watched player, as R starts with the recorder) at the game's
``orbit_height`` above its origin (:attr:`~assets_loader.demos.schema.GameSchema.orbit_height`: Quake's chest 16,
Quake III's eye 26). While the entity is out of the frame it circles where it was last seen: the ``held`` target,
which the caller carries from one picture to the next; before it was ever seen there is no orbit (``None``: the
player's eyes).

The ``director`` mode (:mod:`viewer.director`) is a shot list: at each time one of the others on one player
(:meth:`ShotCamera.at`), so the picture's player changes with the shots and the demo is sampled with that pov.
A ghost (:mod:`viewer.ghosts`, ``ShotCamera.ghost``) is watched the same ways: its eyes are its own timeline's
view at the aligned time, the chase camera is behind them, the orbit circles where it stands.

References: QuakeSpasm ``chase.c`` (the chase camera, :func:`~viewer.cameras.chase_camera`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from assets_loader.demos import SceneState
from assets_loader.game_map import GameMap

from .camera_path import CameraPath, camera_at, entity_origin
from .cameras import chase_camera, orbit_camera
from .director import DirectorPlan
from .ghosts import GhostPose, Ghosts
from .render.refdef import Camera

Vec3 = tuple[float, float, float]
#: The orbit camera's pitch when it starts (looking down on the player, both in the window and ``--camera orbit``).
ORBIT_PITCH = 20.0


@dataclass(frozen=True, slots=True)
class ShotCamera:
    """Where a picture is seen from: ``mode`` pov/free/chase/orbit/path/director, following player slot ``pov``
    (``None``: the demo's own view). ``origin``/``angles`` place the free camera; ``angles`` (pitch, yaw) turn the
    orbit, which circles entity ``follow`` (``None``: the watched player) at ``orbit_distance``; ``chase_back`` is
    the chase distance; ``path`` the camera path of the ``path`` mode; ``director`` the shot list of the
    ``director`` mode, whose camera at a time is :meth:`at` that time (sample the demo with its ``pov``);
    ``ghost``: the pov, chase and orbit cameras watch that ghost (:mod:`viewer.ghosts`: its eyes, its back, around
    it) instead of a player of the demo. A free camera without ``origin``/``angles`` or an orbit without ``angles``
    is settled first
    (:func:`~viewer.video.shot.settle`: from the player's view)."""

    mode: str = "pov"
    pov: int | None = None
    fov: float = 90.0
    origin: Vec3 | None = None
    angles: Vec3 | None = None
    chase_back: float = 100.0
    orbit_distance: float = 150.0
    path: CameraPath | None = None
    follow: int | None = None
    ghost: int | None = None
    director: DirectorPlan | None = None

    def at(self, t: float) -> ShotCamera:
        """The camera at time ``t``: the director's shot then (its player's eyes, the chase camera behind them or
        the orbit circling them), any other mode as it is."""
        plan = self.director
        if self.mode != "director" or plan is None:
            return self
        shot = plan.shot_at(t)
        return replace(self, mode=shot.camera, pov=plan.pov_at(t), follow=None, director=None,
                       angles=(ORBIT_PITCH, plan.orbit_yaw(t), 0.0) if shot.camera == "orbit" else None)


class Pose(NamedTuple):
    """What :func:`camera_pose` gives: the ``camera`` (``None``: the player's eyes with the view weapon) and the orbit
    target to hold for the next picture."""

    camera: Camera | None
    held: Vec3 | None


def camera_pose(shot: ShotCamera, scene: SceneState | None, world: GameMap | None, *, start: float,
                orbit_height: float, held: Vec3 | None = None, ghosts: Ghosts | None = None) -> Pose:
    """The camera ``shot`` sees ``scene`` from (``None``: no demo, only a free camera has a pose). ``world`` keeps
    chase and orbit cameras out of walls; ``start`` is the demo's first time (camera path keys count from it);
    ``orbit_height`` the game's; ``held`` the orbit target of the previous picture; ``ghosts``: the race
    ``shot.ghost`` indexes. A director's ``scene`` is sampled with the ``pov`` of ``shot.at(scene.time)``."""
    if shot.mode == "director" and scene is not None:
        shot = shot.at(scene.time)
        x, y, z = scene.view_origin     # an orbit circles the watched player's eye until their body is in the scene
        held = (float(x), float(y), float(z))
    if shot.mode == "free" and shot.origin is not None and shot.angles is not None:
        return Pose(Camera(shot.origin, shot.angles, shot.fov), held)
    if scene is None:
        return Pose(None, held)
    if shot.ghost is not None and ghosts is not None and shot.mode in ("pov", "chase", "orbit"):
        seen = ghosts.seen(ghosts.ghosts[shot.ghost], max(scene.segment, 0), scene.time)
        if seen is not None:
            return _ghost_pose(shot, seen, world, orbit_height)
    if shot.mode == "path" and shot.path is not None:
        return Pose(camera_at(shot.path, scene.time - start, lambda n, _t: entity_origin(scene, n)), held)
    if shot.mode == "chase":
        return Pose(chase_camera(world, scene.view_origin, scene.view_angles, back=shot.chase_back, fov=shot.fov),
                    held)
    if shot.mode == "orbit" and shot.angles is not None:
        followed = entity_origin(scene, int(scene.view_entity) if shot.follow is None else shot.follow)
        if followed is not None:
            held = (followed[0], followed[1], followed[2] + orbit_height)
        if held is not None:
            pitch, yaw, _roll = shot.angles
            return Pose(orbit_camera(world, held, yaw=yaw, pitch=pitch, distance=shot.orbit_distance, fov=shot.fov),
                        held)
    return Pose(None, held)


def _ghost_pose(shot: ShotCamera, pose: GhostPose, world: GameMap | None, orbit_height: float) -> Pose:
    """A ghost's eyes (its own view at its aligned time), the chase camera behind them, or the orbit around where
    it stands (:func:`camera_pose` with ``shot.ghost``)."""
    state = pose.state
    if shot.mode == "chase":
        return Pose(chase_camera(world, state.view_origin, state.view_angles, back=shot.chase_back, fov=shot.fov),
                    None)
    if shot.mode == "orbit" and shot.angles is not None:
        target = (float(pose.origin[0]), float(pose.origin[1]), float(pose.origin[2]) + orbit_height)
        pitch, yaw, _roll = shot.angles
        return Pose(orbit_camera(world, target, yaw=yaw, pitch=pitch, distance=shot.orbit_distance, fov=shot.fov),
                    target)
    eye = state.view_origin
    angles = state.view_angles
    return Pose(Camera((float(eye[0]), float(eye[1]), float(eye[2])),
                       (float(angles[0]), float(angles[1]), float(angles[2])), shot.fov), None)
