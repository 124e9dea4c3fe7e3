"""Headless rendering of demos and maps: ``qdv screenshot``, ``qdv timedemo`` and the frames of ``qdv render``.

One EGL context and one offscreen target; a demo is drawn through the same :class:`~viewer.session.DemoSession`
the window uses, optionally with the game's HUD (status bar, notify lines, centerprints) over it as the window
draws it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline
from assets_loader.vfs import VirtualFS

from .render.context import OffscreenTarget, create_headless_context, egl_flush, release_headless_context
from .render.frame import FrameRenderer
from .render.frames_in_flight import FramesInFlight
from .render.hud_overlay import HudRenderer
from .render.refdef import Camera, SceneFrame, SegmentAssets
from .overlays import NO_OVERLAYS, OverlayOptions, Overlays
from .picture import Overrides, Picture, draw_picture
from .multiview.draw import PaneView, draw_panes
from .multiview.layout import Rect
from .session import DemoSession


class DemoRenderer:
    """Renders any time of a demo offscreen; its :attr:`session` loads each map segment when it is first needed.

    With ``hud``, :meth:`pixels` draws the game's HUD over the picture as the window does (its default view: no
    scoreboard). ``water_alpha`` overrides the maps' own liquid opacity (``None``: each map's worldspawn
    ``wateralpha``); ``overlays``: the caster's overlays drawn over each picture (``--overlay``)."""

    def __init__(self, timeline: DemoTimeline, fs: VirtualFS, size: tuple[int, int], hud: bool = False,
                 water_alpha: float | None = None, overlays: OverlayOptions = NO_OVERLAYS) -> None:
        self.timeline = timeline
        self.ctx = create_headless_context()
        self.target = OffscreenTarget(self.ctx, size)
        self.session = DemoSession(timeline, fs, self.ctx)
        self.in_flight = FramesInFlight(self.ctx, flush=egl_flush())
        self.overrides = Overrides(water_alpha=water_alpha)
        self.overlay_options = overlays
        self.overlays = Overlays(self.session)
        self.hud: HudRenderer | None = None
        if hud:
            game = self.session.game
            with self.session.quiet():
                self.hud = HudRenderer(self.ctx, game.load_palette(fs), game.load_hud_pics(fs))

    def scene(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None) -> SceneFrame:
        """The scene at ``t`` with particles, lights and beams (loading the segment's assets if needed); ``pov``
        picks a player slot's eyes in multi-view demos."""
        return self.overrides.apply(self.session.scene(t, camera, fov, pov=pov))

    def render(self, frame: SceneFrame) -> None:
        """Draw ``frame`` into the target (with at most two frames queued in the driver: memory stays flat)."""
        with self.in_flight.frame():
            self.session.draw(frame, self.target)

    def draw(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None,
             target: OffscreenTarget | None = None) -> None:
        """Draw the picture at ``t`` (with the HUD when asked for) into ``target`` (default: :attr:`target`, another
        one of the same size for pipelined read-back), without reading it back."""
        target = self.target if target is None else target
        with self.in_flight.frame():
            picture = draw_picture(self.session, target, t, camera, fov, pov, overrides=self.overrides, hud=self.hud)
            self.overlays.draw(picture, target, self.overlay_options)

    def draw_panes(self, t: float, views: list[PaneView], rects: tuple[Rect, ...],
                   target: OffscreenTarget | None = None) -> list[Picture]:
        """Draw the multiview picture at ``t`` (``views[i]`` in ``rects[i]``, each with its HUD when asked for) into
        ``target`` (default: :attr:`target`), without reading it back."""
        with self.in_flight.frame():
            return draw_panes(self.session, self.target if target is None else target, t, views, rects,
                              overrides=self.overrides, hud=self.hud,
                              after_picture=lambda picture, pane: self.overlays.draw(picture, pane,
                                                                                     self.overlay_options))

    def pixels(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None) -> np.ndarray:
        """The picture at ``t`` as ``uint8 [H, W, 3]`` (with the HUD when asked for)."""
        self.draw(t, camera, fov, pov)
        return self.target.read_rgb()

    def release(self) -> None:
        self.in_flight.drain()
        self.overlays.release()
        if self.hud is not None:
            self.hud.release()
        self.session.release()
        self.target.release()
        release_headless_context(self.ctx)


def render_map(assets: SegmentAssets, camera: Camera, size: tuple[int, int],
               water_alpha: float | None = None) -> np.ndarray:
    """A map without a demo (``assets`` from a game's ``load_map_assets``), seen from ``camera``:
    ``uint8 [H, W, 3]``; ``water_alpha`` overrides the map's liquid opacity."""
    ctx = create_headless_context()
    try:
        target = OffscreenTarget(ctx, size)
        renderer = FrameRenderer(ctx, assets)
        renderer.draw(SceneFrame(0.0, 0, camera, (), np.ones(64, np.float32), water_alpha=water_alpha), target)
        return target.read_rgb()
    finally:
        release_headless_context(ctx)


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
    """Render every demo frame at its own time as fast as possible (the engines' ``timedemo``), with the game's
    HUD when the renderer was made with it."""
    times = renderer.timeline.times

    def frame(t: float) -> None:
        if renderer.hud is not None:
            renderer.draw(t)
        else:
            renderer.render(renderer.scene(t))

    frame(float(times[0]))  # load assets outside the timed loop
    renderer.ctx.finish()
    start = time.perf_counter()
    for i, t in enumerate(times):
        frame(float(t))
        if progress is not None:
            progress(i + 1, len(times))
    renderer.ctx.finish()
    return TimedemoResult(len(times), time.perf_counter() - start)


