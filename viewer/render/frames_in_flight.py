"""Keep at most a few frames queued in the driver.

Without a sync, a loop that only draws (timedemo, video export) queues frames in Mesa faster than they complete and
memory grows to gigabytes; a full ``finish()`` each frame loses the overlap of the CPU work of frame k+1 with the
GPU work of frame k. Each frame is wrapped in a timer query; before frame k starts, the result of frame k − limit is
read, which waits until that frame is done (``glGetQueryObject(GL_QUERY_RESULT)`` blocks), so at most ``limit``
frames are in flight. Each frame is flushed when it ends, so the rasterizer starts on it while the next one is
drawn (llvmpipe otherwise keeps collecting the draws of several frames and rasterizes them only when a result is
read: no overlap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import moderngl


class FramesInFlight:
    """Bounds the frames queued in ``ctx`` to ``limit`` (1 or more), with a ring of ``limit`` reused queries;
    ``flush``: the context's ``glFlush`` (:func:`.context.egl_flush`), called as each frame ends (``None``: the
    caller flushes, e.g. by swapping buffers)."""

    def __init__(self, ctx: moderngl.Context, limit: int = 2, flush: Callable[[], None] | None = None) -> None:
        if limit < 1:
            raise ValueError("at least one frame must be allowed in flight")
        self._flush = flush
        self._queries = [ctx.query(time=True) for _ in range(limit)]
        self._pending = [False] * limit
        self._next = 0

    @contextmanager
    def frame(self) -> Iterator[None]:
        """Wrap the draw calls of one frame (waiting first for the frame that used this query ``limit`` frames ago)."""
        i = self._next
        self._wait(i)
        with self._queries[i]:
            yield
        if self._flush is not None:
            self._flush()
        self._pending[i] = True
        self._next = (i + 1) % len(self._queries)

    def _wait(self, i: int) -> None:
        if self._pending[i]:
            _ = self._queries[i].elapsed   # reading the result blocks until that frame's commands completed
            self._pending[i] = False

    def drain(self) -> None:
        """Wait for every queued frame."""
        for i in range(len(self._queries)):
            self._wait(i)
