"""Headless rendering of demos and maps: ``qdv screenshot`` and ``qdv timedemo``.

One EGL context, one offscreen target; the same :class:`FrameRenderer` the window uses.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assets_loader.bsp import WorldMesh
from assets_loader.demos import DemoTimeline
from assets_loader.errors import NotFoundError
from assets_loader.vfs import VirtualFS, game_dir_of

from .assets import SegmentAssets, load_palette_pair, load_segment_assets, load_world
from .camera import Camera
from .render.context import OffscreenTarget, create_headless_context
from .render.frame import FrameRenderer
from .scene import SceneFrame, build_scene
from .scene_effects import SceneEffects


def game_filesystem(path: str | None, basedir: str | None, game: str | None) -> VirtualFS:
    """The game data for a demo or map file: its own game dir when it sits in one, else ``--basedir``/``--game``."""
    if basedir is not None:
        return VirtualFS(basedir, game)
    found = game_dir_of(path) if path else None
    if found is None:
        raise NotFoundError(str(path or "the map"), "game data", None,
                            "the file inside a game dir (with pak0.pak or maps/), or --basedir DIR [--game MOD]")
    return VirtualFS(found[0], game or found[1])


class DemoRenderer:
    """Renders any time of a demo offscreen, loading each map segment's assets the first time it is needed."""

    def __init__(self, timeline: DemoTimeline, fs: VirtualFS, size: tuple[int, int]) -> None:
        self.timeline = timeline
        self.fs = fs
        self.ctx = create_headless_context()
        self.target = OffscreenTarget(self.ctx, size)
        self._segment = -1
        self._frame_renderer: FrameRenderer | None = None
        self.effects = SceneEffects.for_timeline(timeline)
        self._model_flags: list[np.ndarray] = [np.zeros(0, np.int32)] * len(timeline.segments)

    def _renderer_for(self, segment: int) -> FrameRenderer:
        if segment != self._segment or self._frame_renderer is None:
            if self._frame_renderer is not None:
                self._frame_renderer.release()
            assets = load_segment_assets(self.fs, self.timeline.segments[segment].model_precache)
            self._frame_renderer = FrameRenderer(self.ctx, assets)
            self._segment = segment
            self._model_flags[segment] = assets.model_flags()
        return self._frame_renderer

    def world(self, segment: int) -> WorldMesh | None:
        """The map of ``segment`` (loading its assets if needed); ``None`` when the game dirs lack it."""
        return self._renderer_for(segment).assets.world

    def scene(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None) -> SceneFrame:
        """The scene at ``t`` with particles, lights and beams (loading the segment's assets if needed); ``pov``
        picks a player slot's eyes in multi-view demos."""
        segment = max(int(self.timeline.frame_segment[self.timeline.frame_at(t)]), 0) if len(self.timeline) else 0
        self._renderer_for(segment)
        names = self.timeline.segments[segment].model_precache if self.timeline.segments else ()
        return build_scene(self.timeline, t, camera, fov, pov=pov, effects=self.effects,
                           model_flags=self._model_flags, model_names=names)

    def render(self, frame: SceneFrame) -> None:
        self._renderer_for(max(frame.segment, 0)).draw(frame, self.target)

    def pixels(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None) -> np.ndarray:
        """The picture at ``t`` as ``uint8 [H, W, 3]``."""
        self.render(self.scene(t, camera, fov, pov))
        return self.target.read_rgb()

    def release(self) -> None:
        if self._frame_renderer is not None:
            self._frame_renderer.release()
        self.target.release()
        self.ctx.release()


def render_map(fs: VirtualFS, map_path: str, camera: Camera, size: tuple[int, int]) -> np.ndarray:
    """A map without a demo, seen from ``camera``: ``uint8 [H, W, 3]``."""
    world = load_world(fs, map_path)
    palette, colormap = load_palette_pair(fs)
    assets = SegmentAssets(world, (), palette, colormap)
    ctx = create_headless_context()
    try:
        target = OffscreenTarget(ctx, size)
        renderer = FrameRenderer(ctx, assets)
        renderer.draw(SceneFrame(0.0, 0, camera, (), np.ones(64, np.float32)), target)
        return target.read_rgb()
    finally:
        ctx.release()


def map_start_camera(fs: VirtualFS, map_path: str, fov: float = 90.0) -> Camera:
    """The eye of the map's first player start (``info_player_start``, else any ``info_player_*``)."""
    world = load_world(fs, map_path)
    starts = sorted((e for e in world.entities if e.get("classname", "").startswith("info_player")),
                    key=lambda e: e.get("classname") != "info_player_start")
    if not starts:
        mins, maxs = world.bounds
        return Camera(tuple(float(v) for v in (mins + maxs) / 2), (0.0, 0.0, 0.0), fov)
    try:
        x, y, z = (float(v) for v in starts[0].get("origin", "0 0 0").split())
        yaw = float(starts[0].get("angle", 0))
    except ValueError:  # a malformed entity: look from the middle of the map instead
        mins, maxs = world.bounds
        return Camera(tuple(float(v) for v in (mins + maxs) / 2), (0.0, 0.0, 0.0), fov)
    return Camera((x, y, z + 22.0), (0.0, yaw, 0.0), fov)


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


