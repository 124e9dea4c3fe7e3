"""Recording a demo range: frame ``k`` rendered at its fixed time through ``qdv screenshot``'s offscreen path
(:meth:`~viewer.headless.DemoRenderer.pixels`), handed to the background encoder.

Ctrl+C (``KeyboardInterrupt``) stops between frames: what was rendered is encoded and the container finalised, so
the file plays with the frames written (Ctrl+C again while finalising drops the frames still queued); with no frame
written the empty file is removed. An encoder or disk error removes the partial video and is raised as
:class:`~viewer.video.encoder.EncodeError` saying so.

Each frame's camera is the window's (:class:`~viewer.video.shot.ShotView`, :func:`~viewer.camera_pose.camera_pose`).

References: Quake ``host.c`` ``Host_FilterTime`` with ``host_framerate`` (a fixed time step per frame, as
demo-to-video tools use).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..camera_pose import ShotCamera
from ..headless import DemoRenderer
from ..multiview.panes import MultiShot
from .encoder import BackgroundEncoder, EncodeError, open_writer
from .output import Output
from .pipeline import PipelinedFrames
from .shot import MultiShotView, ShotView, shot_view
from .soundtrack import FrameSound
from .timing import FrameTimes

#: The largest denominator of the container frame rate made from ``--fps`` (29.97 → 2997/100).
FPS_DENOMINATOR = 1001


def render_frame(view: ShotView | MultiShotView, times: FrameTimes, k: int, blur: int = 1,
                 accumulator: np.ndarray | None = None) -> np.ndarray:
    """Output frame ``k`` as ``uint8 [H, W, 3]``: the picture at ``times.time(k)``, or with ``blur`` > 1 the mean of
    that many sub-frames over the shutter, summed in the float32 ``accumulator`` (``[H, W, 3]``, reused)."""
    if blur <= 1:
        return view.pixels(times.time(k))
    if accumulator is None:
        w, h = view.renderer.target.size
        accumulator = np.zeros((h, w, 3), np.float32)
    accumulator.fill(0.0)
    for t in times.shutter(k, blur):
        accumulator += view.pixels(t)
    return np.rint(accumulator / blur).astype(np.uint8)


def _frames(view: ShotView | MultiShotView, times: FrameTimes, blur: int,
            pipeline: PipelinedFrames | None) -> Iterator[tuple[int, np.ndarray]]:
    """``(k, picture)`` for every output frame: pipelined RGBA read-back, or with motion blur the averaged RGB
    frames of :func:`render_frame`."""
    if pipeline is not None:
        yield from pipeline.frames(view, times)
        return
    w, h = view.renderer.target.size
    accumulator = np.zeros((h, w, 3), np.float32)
    for k in range(times.count):
        yield k, render_frame(view, times, k, blur, accumulator)


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


def record(renderer: DemoRenderer, shot: ShotCamera | MultiShot, times: FrameTimes, output: Output, *, blur: int = 1,
           sound: FrameSound | None = None, progress: Callable[[int], None] | None = None,
           queue_depth: int = 4, stop: Callable[[], bool] | None = None) -> RecordResult:
    """Render ``times.count`` frames of ``shot`` (one camera, or a multiview's panes) and write them to ``output``;
    ``progress(done)`` after each frame. With ``sound``, each frame's share of the mix (heard from the frame's camera
    at its time, a multiview's heard pane) goes with it. ``stop()``
    turning true ends the export between frames as Ctrl+C does (the window closed during a background export).

    Raises ``ExportError`` (a file in the way), :class:`EncodeError` (encoder/disk; the partial file removed) or
    what rendering raises (after removing the partial file).
    """
    output.check_free(times.count)
    view = shot_view(renderer, shot, times.time(0))
    writer = open_writer(output, renderer.target.size, container_rate(times.fps),
                         sound.rate if sound is not None else None)
    encoder = BackgroundEncoder(writer, queue_depth)
    pipeline = PipelinedFrames(renderer) if blur <= 1 else None
    start = time.perf_counter()
    interrupted = False
    try:
        try:
            for k, pixels in _frames(view, times, blur, pipeline):
                if stop is not None and stop():
                    interrupted = True
                    break
                audio = None if sound is None else sound.samples(k, view.listener(times.time(k)))
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
