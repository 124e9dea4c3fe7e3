"""The playback clock: injected time, speed, reverse, seeking, frame steps, pausing at the ends."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.playback import PlaybackClock


def test_advance_moves_by_dt_times_speed() -> None:
    c = PlaybackClock.for_range(10, 40)
    assert c.advance(0.5).t == pytest.approx(10.5)
    assert c.with_speed(2).advance(0.5).t == pytest.approx(11)


def test_paused_clock_does_not_move() -> None:
    c = PlaybackClock.for_range(0, 10).toggle_pause()
    assert c.advance(1).t == 0


def test_reverse_plays_backwards_and_pauses_at_start() -> None:
    c = PlaybackClock.for_range(0, 10, t=1).reversed()
    c = c.advance(0.5)
    assert c.t == pytest.approx(0.5) and not c.paused
    c = c.advance(2)
    assert c.t == 0 and c.paused


def test_end_pauses_and_play_restarts_from_start() -> None:
    c = PlaybackClock.for_range(0, 10, t=9.5).advance(1)
    assert c.t == 10 and c.paused
    c = c.toggle_pause()
    assert c.t == 0 and not c.paused


def test_speed_is_clamped_and_keeps_sign() -> None:
    c = PlaybackClock.for_range(0, 10)
    assert c.with_speed(100).speed == 10
    assert c.with_speed(0.01).speed == pytest.approx(0.1)
    assert c.with_speed(-3).speed == -3


def test_seek_clamps_to_range() -> None:
    c = PlaybackClock.for_range(5, 10)
    assert c.seek(-1).t == 5 and c.seek(99).t == 10 and c.seek(7).t == 7


def test_frame_steps_land_on_frame_times_and_pause() -> None:
    times = np.array([0.0, 0.1, 0.2, 0.3])
    c = PlaybackClock.for_range(0, 0.3, t=0.15)
    nxt = c.step_frame(times, +1)
    assert nxt.t == pytest.approx(0.2) and nxt.paused
    assert nxt.step_frame(times, +1).t == pytest.approx(0.3)
    assert c.step_frame(times, -1).t == pytest.approx(0.1)
    assert c.seek(0.1).step_frame(times, -1).t == 0.0
