"""A :class:`~viewer.camera_pose.ShotCamera` seen through a headless :class:`~viewer.headless.DemoRenderer`: the
camera (and the ears) of ``qdv screenshot``, ``qdv render`` and the window's Ctrl+E export at each time, posed by
the window's own rule (:func:`~viewer.camera_pose.camera_pose`); a :class:`~viewer.multiview.panes.MultiShot` is
seen through one such view per pane (:class:`MultiShotView`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assets_loader.demos import SceneState

from ..audio import Listener
from ..camera_pose import ORBIT_PITCH, ShotCamera, Vec3, camera_pose
from ..headless import DemoRenderer
from ..multiview.draw import PaneView
from ..multiview.layout import pane_rects
from ..multiview.panes import MultiShot
from ..render.context import OffscreenTarget
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

    def pov(self, t: float) -> int | None:
        """The player slot whose picture it is at ``t`` (the director's shot then; ``None``: the demo's own view)."""
        return self.shot.at(t).pov

    def camera(self, t: float, state: SceneState | None = None) -> Camera | None:
        """The camera at ``t`` (``None``: the player's eyes with the view weapon), with the segment's map loaded;
        ``state``: ``timeline.sample(t, pov=self.pov(t))`` when the caller has it."""
        renderer, shot = self.renderer, self.shot.at(t)
        timeline, session = renderer.timeline, renderer.session
        world = None
        if shot.mode in ("pov", "free") and shot.ghost is None:
            state = None
        else:    # the others look at the demo and the map
            state = timeline.sample(t, pov=shot.pov) if state is None else state
            session.use_segment(max(state.segment, 0))
            world = session.game_map
        if session.ghosts is not None:
            session.ghosts.eyes = shot.ghost if shot.mode == "pov" else None
        pose = camera_pose(shot, state, world, start=timeline.start_time,
                           orbit_height=timeline.schema.orbit_height, held=self.held, ghosts=session.ghosts)
        self.held = pose.held
        return pose.camera

    def draw(self, t: float, target: OffscreenTarget | None = None) -> None:
        """Draw the picture at ``t`` into ``target`` (default: the renderer's), without reading it back."""
        self.renderer.draw(t, self.camera(t), self.shot.fov, self.pov(t), target=target)

    def pixels(self, t: float) -> np.ndarray:
        """The picture at ``t`` as ``uint8 [H, W, 3]``."""
        self.draw(t)
        return self.renderer.target.read_rgb()

    def listener(self, t: float) -> Listener:
        """The ears at ``t``: the camera; the player's own sounds unspatialised unless the camera is free or a path
        (as in the window); a director's follow its shot's player."""
        shot = self.shot.at(t)
        state = self.renderer.timeline.sample(t, pov=shot.pov)
        camera = self.camera(t)
        if camera is None:
            return Listener.from_camera(pov_camera(state), state.view_entity)
        return Listener.from_camera(camera, None if shot.mode in ("free", "path") else state.view_entity)


class MultiShotView:
    """``multi``'s panes, each a :class:`ShotView` (settled at ``t``), drawn side by side by ``renderer``; heard
    from the pane ``multi.heard``."""

    def __init__(self, renderer: DemoRenderer, multi: MultiShot, t: float) -> None:
        self.renderer = renderer
        self.multi = multi
        self.panes = [ShotView(renderer, settle(shot, renderer, t)) for shot in multi.shots]
        self.rects = pane_rects(len(self.panes), renderer.target.size, multi.layout)

    def draw(self, t: float, target: OffscreenTarget | None = None) -> None:
        """Draw the multiview picture at ``t`` into ``target`` (default: the renderer's), without reading it back;
        the timeline is sampled once per player watched."""
        samples: dict[int | None, SceneState] = {}
        views = []
        for pane in self.panes:
            pov = pane.pov(t)
            if pov not in samples:
                samples[pov] = self.renderer.timeline.sample(t, pov=pov)
            views.append(PaneView(pane.camera(t, samples[pov]), pane.shot.fov, pov, samples[pov]))
        self.renderer.draw_panes(t, views, self.rects, target)

    def pixels(self, t: float) -> np.ndarray:
        """The multiview picture at ``t`` as ``uint8 [H, W, 3]``."""
        self.draw(t)
        return self.renderer.target.read_rgb()

    def listener(self, t: float) -> Listener:
        """The ears of the heard pane (the selected one in the window, else the first)."""
        return self.panes[min(max(self.multi.heard, 0), len(self.panes) - 1)].listener(t)


def shot_view(renderer: DemoRenderer, shot: ShotCamera | MultiShot, t: float) -> ShotView | MultiShotView:
    """The view of ``shot`` (one camera, or a multiview's panes) through ``renderer``, settled at ``t``."""
    if isinstance(shot, MultiShot):
        return MultiShotView(renderer, shot, t)
    return ShotView(renderer, settle(shot, renderer, t))
