"""At most ``limit`` frames are queued: frame k waits for frame k − limit, and drain waits for all."""

from __future__ import annotations

import pytest

from viewer.render.context import egl_flush
from viewer.render.frames_in_flight import FramesInFlight


def test_frame_k_waits_for_frame_k_minus_limit(ctx) -> None:
    target = ctx.simple_framebuffer((16, 16))
    target.use()
    flight = FramesInFlight(ctx, limit=2)
    for _ in range(2):
        with flight.frame():
            ctx.clear(1.0, 0.0, 0.0)
    assert flight._pending == [True, True]
    with flight.frame():                      # reuses frame 0's query: frame 0 has been waited for
        ctx.clear(0.0, 1.0, 0.0)
    assert flight._pending == [True, True] and flight._next == 1
    flight.drain()
    assert flight._pending == [False, False]
    assert target.read(components=3)[:3] == b"\x00\xff\x00"
    target.release()


def test_at_least_one_frame_in_flight(ctx) -> None:
    with pytest.raises(ValueError):
        FramesInFlight(ctx, limit=0)


def test_each_frame_is_flushed_when_it_ends(ctx) -> None:
    """The flush runs once per frame, after the frame's draws (the real ``glFlush`` of the EGL context)."""
    target = ctx.simple_framebuffer((16, 16))
    target.use()
    flush = egl_flush()
    calls = []

    def counted() -> None:
        calls.append(len(calls))
        flush()

    flight = FramesInFlight(ctx, limit=2, flush=counted)
    for k in range(3):
        with flight.frame():
            ctx.clear(0.0, 0.0, 1.0)
            assert len(calls) == k
    assert len(calls) == 3
    flight.drain()
    assert target.read(components=3)[:3] == b"\x00\x00\xff"
    target.release()
