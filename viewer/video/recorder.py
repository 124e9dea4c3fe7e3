"""Recording a demo range: frame ``k`` rendered at its fixed time through ``qdv screenshot``'s offscreen path
(:meth:`~viewer.headless.DemoRenderer.pixels`), handed to the background encoder.

Ctrl+C (``KeyboardInterrupt``) stops between frames: what was rendered is encoded and the container finalised, so
the file plays with the frames written (Ctrl+C again while finalising drops the frames still queued); with no frame
written the empty file is removed. An encoder or disk error removes the partial video and is raised as
:class:`~viewer.video.encoder.EncodeError` saying so.

References: QuakeSpasm ``chase.c`` (the chase camera), Quake ``host.c`` ``Host_FilterTime`` with
``host_framerate`` (a fixed time step per frame, as demo-to-video tools use).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..audio import Listener
from ..camera_path import CameraPath, camera_at, entity_origin, entity_target
from ..cameras import chase_camera, orbit_camera
from ..headless import DemoRenderer
from ..render.refdef import Camera
from ..scene import pov_camera
from .encoder import BackgroundEncoder, EncodeError, open_writer
from .output import Output
from .pipeline import PipelinedFrames
from .soundtrack import FrameSound
from .timing import FrameTimes

Vec3 = tuple[float, float, float]
#: The orbit camera's pitch when ``--angles`` does not give one (looking down on the player, as in the window).
ORBIT_PITCH = 20.0
#: An orbit around entity ``follow`` looks at this height above its origin (the window's orbit target).
FOLLOW_HEIGHT = 16.0
#: The largest denominator of the container frame rate made from ``--fps`` (29.97 → 2997/100).
FPS_DENOMINATOR = 1001


@dataclass(frozen=True, slots=True)
class ShotCamera:
    """Where an export looks from: ``mode`` pov/free/chase/orbit/path, following player slot ``pov`` (``None``: the
    demo's own view). ``origin``/``angles`` place the free camera; ``angles`` (pitch, yaw) turn the orbit; ``path``
    is the camera path of the ``path`` mode (``camera_at`` at the time since the demo's start). The orbit circles
    the watched player's eyes, or with ``follow`` (the window's orbit) that entity, :data:`FOLLOW_HEIGHT` above its
    origin, while it is in the frame."""

    mode: str = "pov"
    pov: int | None = None
    fov: float = 90.0
    origin: Vec3 | None = None
    angles: Vec3 | None = None
    chase_back: float = 100.0
    orbit_distance: float = 150.0
    path: CameraPath | None = None
    follow: int | None = None

    def settled(self, renderer: DemoRenderer, t: float) -> ShotCamera:
        """The free and orbit cameras fixed for the whole export: what ``--pos``/``--angles`` leave open is taken
        from the player's view at ``t`` (the range start), as ``qdv screenshot`` does."""
        if self.mode == "free" and (self.origin is None or self.angles is None):
            eye = renderer.scene(t, fov=self.fov, pov=self.pov).camera
            return replace(self, origin=self.origin or eye.origin, angles=self.angles or eye.angles)
        if self.mode == "orbit" and self.angles is None:
            yaw = float(renderer.timeline.sample(t, pov=self.pov).view_angles[1])
            return replace(self, angles=(ORBIT_PITCH, yaw, 0.0))
        return self

    def camera(self, renderer: DemoRenderer, t: float) -> Camera | None:
        """The camera at ``t`` (``None``: the player's eyes with the view weapon). Call :meth:`settled` first."""
        if self.mode == "pov":
            return None
        if self.mode == "free":
            assert self.origin is not None and self.angles is not None
            return Camera(self.origin, self.angles, self.fov)
        if self.mode == "path":
            assert self.path is not None
            timeline = renderer.timeline
            return camera_at(self.path, t - timeline.start_time, entity_target(timeline, self.pov))
        state = renderer.timeline.sample(t, pov=self.pov)
        renderer.session.use_segment(max(state.segment, 0))
        world = renderer.session.game_map
        if self.mode == "chase":
            return chase_camera(world, state.view_origin, state.view_angles, back=self.chase_back, fov=self.fov)
        assert self.angles is not None
        followed = entity_origin(state, self.follow) if self.follow is not None else None
        target = state.view_origin if followed is None else (followed[0], followed[1], followed[2] + FOLLOW_HEIGHT)
        return orbit_camera(world, target, yaw=self.angles[1], pitch=self.angles[0],
                            distance=self.orbit_distance, fov=self.fov)

    def listener(self, renderer: DemoRenderer, t: float) -> Listener:
        """The ears at ``t``: the camera; the player's own sounds unspatialised unless the camera is free or a
        path (as in the window)."""
        state = renderer.timeline.sample(t, pov=self.pov)
        camera = self.camera(renderer, t)
        if camera is None:
            return Listener.from_camera(pov_camera(state), state.view_entity)
        return Listener.from_camera(camera, None if self.mode in ("free", "path") else state.view_entity)


def render_frame(renderer: DemoRenderer, shot: ShotCamera, times: FrameTimes, k: int, blur: int = 1,
                 accumulator: np.ndarray | None = None) -> np.ndarray:
    """Output frame ``k`` as ``uint8 [H, W, 3]``: the picture at ``times.time(k)``, or with ``blur`` > 1 the mean of
    that many sub-frames over the shutter, summed in the float32 ``accumulator`` (``[H, W, 3]``, reused)."""
    if blur <= 1:
        t = times.time(k)
        return renderer.pixels(t, shot.camera(renderer, t), shot.fov, shot.pov)
    if accumulator is None:
        w, h = renderer.target.size
        accumulator = np.zeros((h, w, 3), np.float32)
    accumulator.fill(0.0)
    for t in times.shutter(k, blur):
        accumulator += renderer.pixels(t, shot.camera(renderer, t), shot.fov, shot.pov)
    return np.rint(accumulator / blur).astype(np.uint8)


def _frames(renderer: DemoRenderer, shot: ShotCamera, times: FrameTimes, blur: int,
            pipeline: PipelinedFrames | None) -> Iterator[tuple[int, np.ndarray]]:
    """``(k, picture)`` for every output frame: pipelined RGBA read-back, or with motion blur the averaged RGB
    frames of :func:`render_frame`."""
    if pipeline is not None:
        yield from pipeline.frames(shot, times)
        return
    w, h = renderer.target.size
    accumulator = np.zeros((h, w, 3), np.float32)
    for k in range(times.count):
        yield k, render_frame(renderer, shot, times, k, blur, accumulator)


@dataclass(frozen=True, slots=True)
class RecordResult:
    """What an export wrote: ``frames`` of ``total`` to ``path`` in ``seconds`` (wall clock); ``interrupted`` by
    Ctrl+C; ``removed``: the partial file was deleted (nothing written); ``encode_seconds``: encoder thread busy
    time."""

    path: Path
    frames: int
    total: int
    seconds: float
    interrupted: bool = False
    removed: bool = False
    encode_seconds: float = 0.0

    @property
    def fps(self) -> float:
        """Output frames per wall-clock second."""
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def container_rate(fps: float) -> Fraction:
    """``--fps`` as the exact frame rate the container stores."""
    return Fraction(fps).limit_denominator(FPS_DENOMINATOR)


def record(renderer: DemoRenderer, shot: ShotCamera, times: FrameTimes, output: Output, *, blur: int = 1,
           sound: FrameSound | None = None, progress: Callable[[int], None] | None = None,
           queue_depth: int = 4, stop: Callable[[], bool] | None = None) -> RecordResult:
    """Render ``times.count`` frames and write them to ``output``; ``progress(done)`` after each frame. With
    ``sound``, each frame's share of the mix (heard from the frame's camera at its time) goes with it. ``stop()``
    turning true ends the export between frames as Ctrl+C does (the window closed during a background export).

    Raises ``ExportError`` (a file in the way), :class:`EncodeError` (encoder/disk; the partial file removed) or
    what rendering raises (after removing the partial file).
    """
    output.check_free(times.count)
    shot = shot.settled(renderer, times.time(0))
    writer = open_writer(output, renderer.target.size, container_rate(times.fps),
                         sound.rate if sound is not None else None)
    encoder = BackgroundEncoder(writer, queue_depth)
    pipeline = PipelinedFrames(renderer) if blur <= 1 else None
    start = time.perf_counter()
    interrupted = False
    try:
        try:
            for k, pixels in _frames(renderer, shot, times, blur, pipeline):
                if stop is not None and stop():
                    interrupted = True
                    break
                audio = None if sound is None else sound.samples(k, shot.listener(renderer, times.time(k)))
                encoder.put(pixels, audio)
                if progress is not None:
                    progress(k + 1)
        except KeyboardInterrupt:
            interrupted = True
        interrupted = encoder.finish() or interrupted
    except EncodeError as exc:
        encoder.cancel()
        if writer.discard():
            raise EncodeError(f"{exc}; removed the partial file") from exc.__cause__
        raise
    except BaseException:
        encoder.cancel()
        writer.discard()
        raise
    finally:
        if pipeline is not None:
            pipeline.release()
    removed = interrupted and writer.frames == 0 and writer.discard()
    return RecordResult(writer.path, writer.frames, times.count, time.perf_counter() - start, interrupted,
                        removed, encoder.encode_seconds)
