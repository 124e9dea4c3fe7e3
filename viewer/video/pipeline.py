"""Pipelined read-back: output frame ``k`` is drawn into one offscreen target while frame ``k - 1`` is read from the
other.

Reading a picture back waits for the driver to finish drawing it. Drawing and reading the same target in turn
leaves a core idle while Python builds and submits each frame (llvmpipe rasterises only once the frame is
flushed). With two targets, frame ``k - 1``'s rasterisation (started when frame ``k``'s target was bound) overlaps
the submission of frame ``k``, as ``qdv timedemo``'s frames in flight do. Pictures are read as RGBA, the target's
own format (see :meth:`~viewer.render.context.OffscreenTarget.read_rgba`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..headless import DemoRenderer
from ..render.context import OffscreenTarget
from .shot import MultiShotView, ShotView
from .timing import FrameTimes


class PipelinedFrames:
    """The frames of ``times`` seen by a :class:`~viewer.video.shot.ShotView` (or a multiview's
    :class:`~viewer.video.shot.MultiShotView`), drawn by ``renderer`` into its target and a second one."""

    def __init__(self, renderer: DemoRenderer) -> None:
        self.renderer = renderer
        self.targets = (renderer.target, OffscreenTarget(renderer.ctx, renderer.target.size))

    def frames(self, view: ShotView | MultiShotView, times: FrameTimes) -> Iterator[tuple[int, np.ndarray]]:
        """``(k, uint8 [H, W, 4] top row first)`` for every output frame ``k`` in order, each read one frame late."""
        for k in range(times.count):
            t = times.time(k)
            try:
                view.draw(t, self.targets[k % 2])
            except KeyboardInterrupt:   # Ctrl+C: the frame drawn before still goes out
                if k:
                    yield k - 1, self.targets[(k - 1) % 2].read_rgba()
                raise
            if k:
                yield k - 1, self.targets[(k - 1) % 2].read_rgba()
        if times.count:
            yield times.count - 1, self.targets[(times.count - 1) % 2].read_rgba()

    def release(self) -> None:
        self.targets[1].release()
