"""What the real window shows, read from the X server (not from the render target): a ``qdv play`` process under
Xvfb, driven by real key presses (xdotool), captured with Pillow's X11 grab.

The picture must keep changing while the demo plays with the HUD and the timeline bar hidden (H, B) — the state
in which the window used to freeze because the blit triangle was culled by the alias renderer's face culling —
and after the help overlay (F1) is opened and closed again.
"""

from __future__ import annotations

import hashlib
import time

import numpy as np
import pytest

from tests.xwindow import grab, keys, start_play, stop



def _digest(px: np.ndarray) -> str:
    return hashlib.sha256(px.tobytes()).hexdigest()


def _captures(display: str, count: int, interval: float) -> list[np.ndarray]:
    shots = []
    for _ in range(count):
        time.sleep(interval)
        shots.append(grab(display))
    return shots


@pytest.fixture(scope="module")
def playing(display):
    """A ``qdv play`` process of the bundled sample from 24 s, its X window id, and the display."""
    proc, window = start_play(display, "--start", "24")
    try:
        yield proc, window, display
    finally:
        stop(proc)


def test_window_keeps_changing_with_hud_and_bar_hidden(playing) -> None:
    proc, window, display = playing
    keys(display, window, "h", "b")
    shots = _captures(display, 5, 0.6)
    assert proc.poll() is None
    assert all(px.mean() > 10 for px in shots)                         # the game, not a black window
    assert len({_digest(px) for px in shots}) >= 4                     # the picture follows the playing clock


def test_help_overlay_opens_and_closes_and_playback_goes_on(playing) -> None:
    proc, window, display = playing
    keys(display, window, "F1")
    with_help = _captures(display, 2, 0.6)
    keys(display, window, "F1")
    after = _captures(display, 4, 0.6)
    assert proc.poll() is None
    assert len({_digest(px) for px in after}) >= 3
    # the help text is a dark box with light text: its region differs between the open and the closed state
    assert not np.array_equal(with_help[-1], after[-1])
