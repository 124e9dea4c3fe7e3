"""The readouts as the real window shows them, read from the X server (Pillow's X11 grab) of a ``qdv play`` process
under Xvfb driven by real input (xdotool keys, clicks and mouse motion).

Checked on pictures, with the demo paused so that only what the keys change can change: B hides the bar and the
corner readout appears in the top-right corner; the backquote opens QuakeWorld's scoreboard; a right click
captures the mouse and moving it turns the camera, Esc releases it (moving the mouse then changes nothing, and
the window stays open); the 2on2 MVD shows ezQuake's chat colours (at least two of KTX's yellow, red, green,
blue) and the notice that its map is missing. The captures are kept as PNGs in the test's temporary folder.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.conftest import QUAKEWORLD
from tests.xwindow import grab, keys, start_play, stop, xdotool
from viewer.cli import sample_demo

TWO_ON_TWO = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"


def _settled(display: str, pause: float = 0.5) -> np.ndarray:
    time.sleep(pause)
    return grab(display)


def _save(px: np.ndarray, path: Path) -> None:
    Image.fromarray(px).save(path)


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rows × columns where the two captures differ."""
    return np.any(a != b, axis=2)


@pytest.fixture(scope="module")
def captures(display, tmp_path_factory) -> dict[str, np.ndarray]:
    out_dir = tmp_path_factory.mktemp("screens")
    shots: dict[str, np.ndarray] = {}
    proc, window = start_play(display, sample_demo("lqdm2"), "--start", "20", "--sensitivity", "5",
                              "--size", "1280x720", config=out_dir / "config")
    try:
        keys(display, window, "space")                   # paused: the bar stays, the picture holds still
        shots["paused"] = _settled(display)
        keys(display, window, "b")                       # bar off: the corner readout takes over
        shots["readout"] = _settled(display)
        keys(display, window, "grave")
        shots["scores"] = _settled(display)
        keys(display, window, "grave")
        shots["before_look"] = _settled(display)
        xdotool(display, "mousemove", "--window", window, "640", "360")
        xdotool(display, "click", "3")
        time.sleep(0.3)
        shots["captured"] = _settled(display)
        for _ in range(2):      # pyglet takes the first motion after the grab as its own warp to the centre
            xdotool(display, "mousemove_relative", "--", "120", "0")
            time.sleep(0.2)
        shots["looked"] = _settled(display)
        keys(display, window, "Escape")
        shots["released"] = _settled(display, 3.0)        # after the "mouse released" message went
        xdotool(display, "mousemove_relative", "--", "120", "0")
        shots["moved_after_release"] = _settled(display)
        shots["alive"] = np.array(proc.poll() is None)
    finally:
        stop(proc)
    # at 0.1x a slow start on a loaded machine moves the demo by tenths of a second before the pause, not seconds
    # (the chat lines shown are those of the last 3 s of demo time)
    proc, window = start_play(display, str(TWO_ON_TWO), "--start", "15.75", "--speed", "0.1", "--size", "1280x720",
                              config=out_dir / "config")
    try:
        keys(display, window, "space")
        shots["chat"] = _settled(display)
        keys(display, window, "grave")
        shots["team_scores"] = _settled(display)
    finally:
        stop(proc)
    for name, px in shots.items():
        if px.ndim == 3:
            _save(px, out_dir / f"{name}.png")
    return shots


def test_corner_readout_appears_when_the_bar_hides(captures) -> None:
    diff = _changed(captures["paused"], captures["readout"])
    h, w = diff.shape
    assert diff[: h // 5, w * 3 // 4:].sum() > 500                   # the readout box in the top-right corner
    assert not diff[h // 5: h * 3 // 5].any()                         # the paused 3D view in between is untouched
    corner = captures["readout"][: h // 8, w - 200:]
    assert (corner.min(axis=2) > 200).sum() > 100                     # light text on the dark box


def test_backquote_shows_the_deathmatch_table(captures) -> None:
    diff = _changed(captures["readout"], captures["scores"])
    h, w = diff.shape
    assert diff[40: h // 2, w // 4: w * 3 // 4].sum() > 2000          # the ranking table in the upper middle
    assert np.array_equal(captures["readout"], captures["before_look"])   # and it closes again


def test_right_click_captures_the_mouse_and_esc_releases_it(captures) -> None:
    assert _changed(captures["captured"], captures["looked"]).mean() > 0.2   # the captured mouse turned the view
    assert np.array_equal(captures["released"], captures["moved_after_release"])
    assert bool(captures["alive"])                                     # Esc released the mouse, did not quit


def test_quakeworld_chat_colours_and_missing_map_notice(captures) -> None:
    px = captures["chat"].astype(int)
    h, w = px.shape[:2]
    top_left = px[: h // 8, : w // 2]
    r, g, b = top_left[..., 0], top_left[..., 1], top_left[..., 2]
    # KTX's colours at 15.75 s: "help" &cff0, "rl" &cf13,
    # "team" &c0b0, "quad" &c05f; the font's own halves are white and (LibreQuake) light blue, brackets orange
    colours = {"yellow": (r > 180) & (abs(r - g) < 40) & (b < 80), "red": (r > 150) & (g < 60) & (b < 90),
               "green": (g > 120) & (r < 60) & (b < 60), "blue": (b > 150) & (r < 60) & (g < 120)}
    assert sum(int(mask.sum() > 50) for mask in colours.values()) >= 2, {k: int(m.sum()) for k, m in colours.items()}
    notice = px[h // 8: h // 4, w // 3: w * 2 // 3]
    orange = (notice[..., 0] > 200) & (notice[..., 1] > 150) & (notice[..., 2] < 140)
    assert orange.sum() > 200                                         # the "map missing" notice


def test_team_game_shows_team_totals(captures) -> None:
    diff = _changed(captures["chat"], captures["team_scores"])
    h, w = diff.shape
    assert diff[40: h // 2, w // 4: w * 3 // 4].sum() > 2000
