"""The caster's overlays in the real window (``qdv play`` under Xvfb, real key presses): ``--overlay minimap``
starts with the minimap in the top-right corner, F8 takes it away and brings it back, F7 adds the timers panel on
the left. The demo is paused, so only the keys change the picture."""

from __future__ import annotations

import time

import numpy as np

from tests.xwindow import grab, keys, start_play, stop
from viewer.cli import sample_demo
from viewer.overlays.minimap import minimap_rect

SIZE = (1280, 720)


def _settled(display: str) -> np.ndarray:
    time.sleep(0.6)
    return grab(display)


def test_f5_to_f8_toggle_the_overlays_in_the_window(display, tmp_path) -> None:
    proc, window = start_play(display, sample_demo("lqdm2"), "--start", "30", "--size", "1280x720",
                              "--overlay", "minimap", config=tmp_path / "config")
    try:
        keys(display, window, "space")
        with_map = _settled(display)
        keys(display, window, "F8")
        without = _settled(display)
        keys(display, window, "F8", "F7")
        timers = _settled(display)
    finally:
        stop(proc)
    x, y, w, h = (int(v) for v in minimap_rect(SIZE))
    corner = np.any(with_map[y:y + h, x:x + w] != without[y:y + h, x:x + w], axis=2)
    assert corner.mean() > 0.3                                  # the minimap covers its corner
    rest = np.any(with_map[y + h + 40:, :x - 40] != without[y + h + 40:, :x - 40], axis=2)
    assert rest.mean() < 0.01                                   # and nothing else changed
    left = np.any(timers[SIZE[1] // 3:SIZE[1] // 2, :200] != with_map[SIZE[1] // 3:SIZE[1] // 2, :200], axis=2)
    assert left.mean() > 0.05                                   # F7: the timers panel on the left
