"""A :class:`~viewer.camera_pose.ShotCamera` seen through a headless :class:`~viewer.headless.DemoRenderer`: the
camera (and the ears) of ``qdv screenshot``, ``qdv render`` and the window's Ctrl+E export at each time, posed by
the window's own rule (:func:`~viewer.camera_pose.camera_pose`).
"""

from __future__ import annotations

from dataclasses import replace

from ..audio import Listener
from ..camera_pose import ORBIT_PITCH, ShotCamera, Vec3, camera_pose
from ..headless import DemoRenderer
from ..render.refdef import Camera
from ..scene import pov_camera


def settle(shot: ShotCamera, renderer: DemoRenderer, t: float) -> ShotCamera:
    """The free and orbit cameras fixed for a whole export: what ``--pos``/``--angles`` leave open is taken from the
    player's view at ``t`` (the range start), as ``qdv screenshot`` does; the orbit starts as the window's R does
    (:data:`~viewer.camera_pose.ORBIT_PITCH`, the view's yaw)."""
    if shot.mode == "free" and (shot.origin is None or shot.angles is None):
        eye = renderer.scene(t, fov=shot.fov, pov=shot.pov).camera
        return replace(shot, origin=shot.origin or eye.origin, angles=shot.angles or eye.angles)
    if shot.mode == "orbit" and shot.angles is None:
        yaw = float(renderer.timeline.sample(t, pov=shot.pov).view_angles[1])
        return replace(shot, angles=(ORBIT_PITCH, yaw, 0.0))
    return shot


class ShotView:
    """``shot`` (settled) seen through ``renderer`` picture after picture, times in order: the orbit holds its
    target while the followed entity is out of the frame, as the window does."""

    def __init__(self, renderer: DemoRenderer, shot: ShotCamera) -> None:
        self.renderer = renderer
        self.shot = shot
        self.held: Vec3 | None = None

    def camera(self, t: float) -> Camera | None:
        """The camera at ``t`` (``None``: the player's eyes with the view weapon), with the segment's map loaded."""
        renderer, shot = self.renderer, self.shot
        timeline, session = renderer.timeline, renderer.session
        state, world = None, None
        if shot.mode not in ("pov", "free") or shot.ghost is not None:  # the others look at the demo and the map
            state = timeline.sample(t, pov=shot.pov)
            session.use_segment(max(state.segment, 0))
            world = session.game_map
        if session.ghosts is not None:
            session.ghosts.eyes = shot.ghost if shot.mode == "pov" else None
        pose = camera_pose(shot, state, world, start=timeline.start_time,
                           orbit_height=timeline.schema.orbit_height, held=self.held, ghosts=session.ghosts)
        self.held = pose.held
        return pose.camera

    def listener(self, t: float) -> Listener:
        """The ears at ``t``: the camera; the player's own sounds unspatialised unless the camera is free or a path
        (as in the window)."""
        state = self.renderer.timeline.sample(t, pov=self.shot.pov)
        camera = self.camera(t)
        if camera is None:
            return Listener.from_camera(pov_camera(state), state.view_entity)
        return Listener.from_camera(camera, None if self.shot.mode in ("free", "path") else state.view_entity)
