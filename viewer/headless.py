"""Headless rendering of demos and maps: ``qdv screenshot`` and ``qdv timedemo``.

One EGL context and one offscreen target; a demo is drawn through the same :class:`~viewer.session.DemoSession`
the window uses.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline
from assets_loader.vfs import VirtualFS

from .render.context import OffscreenTarget, create_headless_context
from .render.frame import FrameRenderer
from .render.frames_in_flight import FramesInFlight
from .render.refdef import Camera, SceneFrame, SegmentAssets
from .session import DemoSession


class DemoRenderer:
    """Renders any time of a demo offscreen; its :attr:`session` loads each map segment when it is first needed."""

    def __init__(self, timeline: DemoTimeline, fs: VirtualFS, size: tuple[int, int]) -> None:
        self.timeline = timeline
        self.ctx = create_headless_context()
        self.target = OffscreenTarget(self.ctx, size)
        self.session = DemoSession(timeline, fs, self.ctx)
        self.in_flight = FramesInFlight(self.ctx)

    def scene(self, t: float, camera: Camera | None = None, fov: float = 90.0) -> SceneFrame:
        """The scene at ``t`` with particles, lights and beams (loading the segment's assets if needed)."""
        return self.session.scene(t, camera, fov)

    def render(self, frame: SceneFrame) -> None:
        """Draw ``frame`` into the target (with at most two frames queued in the driver: memory stays flat)."""
        with self.in_flight.frame():
            self.session.draw(frame, self.target)

    def pixels(self, t: float, camera: Camera | None = None, fov: float = 90.0) -> np.ndarray:
        """The picture at ``t`` as ``uint8 [H, W, 3]``."""
        self.render(self.scene(t, camera, fov))
        return self.target.read_rgb()

    def release(self) -> None:
        self.in_flight.drain()
        self.session.release()
        self.target.release()
        self.ctx.release()


def render_map(assets: SegmentAssets, camera: Camera, size: tuple[int, int]) -> np.ndarray:
    """A map without a demo (``assets`` from a game's ``load_map_assets``), seen from ``camera``:
    ``uint8 [H, W, 3]``."""
    ctx = create_headless_context()
    try:
        target = OffscreenTarget(ctx, size)
        renderer = FrameRenderer(ctx, assets)
        renderer.draw(SceneFrame(0.0, 0, camera, (), np.ones(64, np.float32)), target)
        return target.read_rgb()
    finally:
        ctx.release()


@dataclass(frozen=True, slots=True)
class TimedemoResult:
    frames: int
    seconds: float

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        return f"{self.frames} frames {self.seconds:.1f} seconds {self.fps:.1f} fps"


def timedemo(renderer: DemoRenderer, progress: Callable[[int, int], None] | None = None) -> TimedemoResult:
    """Render every demo frame at its own time as fast as possible (the engines' ``timedemo``)."""
    times = renderer.timeline.times
    renderer.render(renderer.scene(float(times[0])))  # load assets outside the timed loop
    renderer.ctx.finish()
    start = time.perf_counter()
    for i, t in enumerate(times):
        renderer.render(renderer.scene(float(t)))
        if progress is not None:
            progress(i + 1, len(times))
    renderer.ctx.finish()
    return TimedemoResult(len(times), time.perf_counter() - start)


