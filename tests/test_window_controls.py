"""The controls shown with the timeline bar, clicked for real: a ``qdv play`` process of the two-player MVD
sample under Xvfb, clicked with xdotool at the places :func:`viewer.ui.controls.controls` gives (the HUD hidden
with H, so the bar sits at the window's bottom), read back from the X server (Pillow's X11 grab).

Pause freezes the picture and play starts it again; the faster button makes the play head run faster; the chase
camera and the other player's line show another picture, and the POV button and the first player's line bring back
exactly the paused picture; a tooltip appears over the hovered button. The first-run hint "F1: keys" shows on a
fresh settings folder, goes at the first click, and is not shown on the next run. Captures are kept as PNGs in the
test's temporary folder.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from viewer.cli import sample_demo
from viewer.ui.controls import ControlsStatus, PlayerEntry, controls
from viewer.ui.hint import hint_layout
from viewer.ui.timeline_bar import HEAD_COLOR, TRACK_H, TRACK_Y, bar_geometry

from tests.xwindow import grab, keys, start_play, stop, xdotool

SIZE = (1280, 720)
GEOMETRY = bar_geometry(SIZE, 0.0, 1.0)          # the HUD hidden: no status bar below the bar
TWO_PLAYERS = (PlayerEntry(0, "", 0), PlayerEntry(1, "", 0))
#: Rows of the 3D view above the player list and the controls.
VIEW_ROWS = slice(60, 400)


def _at(name: str, **status) -> tuple[str, str]:
    """The window coordinates of the middle of control ``name`` for the status given."""
    c = next(c for c in controls(GEOMETRY, ControlsStatus(players=TWO_PLAYERS, **status)) if c.name == name)
    return str(int(c.x + c.w / 2)), str(int(c.y + c.h / 2))


def _settled(display: str, pause: float = 0.6) -> np.ndarray:
    time.sleep(pause)
    return grab(display)


def _head_x(px: np.ndarray) -> float:
    """The column of the bar's play head (the white block across the track)."""
    row = px[GEOMETRY.top + (TRACK_Y + TRACK_H // 2) * GEOMETRY.scale]
    white = np.flatnonzero(np.all(row == np.array(HEAD_COLOR[:3]) * 255, axis=1))
    assert len(white), "no play head on the track"
    return float(white.mean())


@pytest.fixture(scope="module")
def run(display, tmp_path_factory) -> dict:
    out_dir = tmp_path_factory.mktemp("controls")
    config = out_dir / "config"
    shots: dict[str, np.ndarray] = {}
    heads: dict[str, float] = {}
    demo = sample_demo("lqdm2")
    shots_dir = out_dir / "shots"
    proc, window = start_play(display, demo, "--start", "20", "--size", "1280x720", "--shots", str(shots_dir),
                              config=config)

    def click(name: str, **status) -> None:
        xdotool(display, "mousemove", "--window", window, *_at(name, **status))
        time.sleep(0.2)
        xdotool(display, "click", "1")

    try:
        shots["hint"] = _settled(display, 1.0)
        keys(display, window, "h")                       # the HUD off (a key): the bar at the bottom
        xdotool(display, "mousemove", "--window", window, "640", "300")
        shots["playing"] = [_settled(display, 0.4) for _ in range(3)]
        click("pause")
        time.sleep(0.5)
        shots["paused"] = [_settled(display, 0.4) for _ in range(3)]
        xdotool(display, "mousemove", "--window", window, *_at("chase", paused=True))
        shots["tooltip"] = _settled(display)
        click("chase", paused=True)
        shots["chase"] = _settled(display)
        click("pov", paused=True, mode="chase")
        shots["pov"] = _settled(display)
        click("player 1", paused=True)
        shots["warden"] = _settled(display)
        click("player 0", paused=True)
        shots["ranger"] = _settled(display)
        click("pause", paused=True)                      # play again at 1x: how far the head runs in 2 s
        a = _settled(display, 0.3)
        b = _settled(display, 2.0)
        heads["1x"] = _head_x(b) - _head_x(a)
        click("faster")
        click("faster", speed=2.0)                       # 4x
        a = _settled(display, 0.3)
        b = _settled(display, 2.0)
        heads["4x"] = _head_x(b) - _head_x(a)
        shots["fast"] = b
        click("pause", speed=4.0)
        shots["before_tools"] = _settled(display)
        click("screenshot", paused=True, speed=4.0)
        time.sleep(1.0)
        screenshots = sorted(p.name for p in shots_dir.glob("*.png"))
        click("mute", paused=True, speed=4.0)
        shots["mute"] = _settled(display, 0.4)
        time.sleep(3.0)                                  # the message has gone
        click("hud", paused=True, speed=4.0, show_hud=False)
        shots["hud"] = _settled(display)
    finally:
        stop(proc)
    proc, window = start_play(display, demo, "--start", "20", "--size", "1280x720", config=config)
    try:
        shots["second_run"] = _settled(display, 1.0)
    finally:
        stop(proc)
    for name, px in shots.items():
        for i, p in enumerate(px if isinstance(px, list) else [px]):
            Image.fromarray(p).save(Path(out_dir) / f"{name}{i}.png")
    return {"shots": shots, "heads": heads, "screenshots": screenshots}


def _hint_box() -> tuple[slice, slice]:
    box = hint_layout(SIZE, GEOMETRY.scale).rects[0]
    return slice(int(box.y), int(box.y + box.h)), slice(int(box.x), int(box.x + box.w))


def _bright(px: np.ndarray) -> int:
    """Near-white pixels in the middle third of the hint's box (its text; the dim game picture has few)."""
    rows, cols = _hint_box()
    box = px[rows, cols].astype(int)
    band = box[box.shape[0] // 3: 2 * box.shape[0] // 3]
    return int((band.sum(axis=2) > 600).sum())


def test_first_run_hint_shows_then_goes_and_is_not_shown_again(run) -> None:
    shots = run["shots"]
    shown = _bright(shots["hint"])
    assert shown > 50
    assert _bright(shots["paused"][-1]) < shown / 4            # gone after the first key and click
    assert _bright(shots["second_run"]) < shown / 4            # the next run with these settings: no hint


def test_pause_button_freezes_the_picture_and_play_starts_it(run) -> None:
    shots = run["shots"]
    playing = {p[VIEW_ROWS].tobytes() for p in shots["playing"]}
    paused = {p[VIEW_ROWS].tobytes() for p in shots["paused"]}
    assert len(playing) >= 2 and len(paused) == 1
    assert run["heads"]["1x"] > 5                          # playing again after the second click


def test_faster_button_runs_the_play_head_faster(run) -> None:
    heads = run["heads"]
    assert heads["4x"] > 2.5 * heads["1x"]


def test_camera_buttons_change_the_view_and_pov_brings_it_back(run) -> None:
    shots = run["shots"]
    paused, chase, pov = (shots[k][VIEW_ROWS] if k != "paused" else shots[k][-1][VIEW_ROWS]
                          for k in ("paused", "chase", "pov"))
    assert np.any(paused != chase, axis=2).mean() > 0.2
    assert np.array_equal(paused, pov)


def test_player_lines_watch_that_player(run) -> None:
    shots = run["shots"]
    paused, warden, ranger = shots["paused"][-1][VIEW_ROWS], shots["warden"][VIEW_ROWS], shots["ranger"][VIEW_ROWS]
    assert np.any(paused != warden, axis=2).mean() > 0.2
    assert np.array_equal(paused, ranger)


def test_tooltip_appears_over_the_hovered_button(run) -> None:
    shots = run["shots"]
    x, y = (int(v) for v in _at("chase", paused=True))
    h = 12 * GEOMETRY.scale
    above = (slice(y - h // 2 - h, y - h // 2), slice(max(x - 100, 0), x + 100))
    assert np.any(shots["tooltip"][above] != shots["paused"][-1][above], axis=2).mean() > 0.05


def test_tool_buttons_take_a_screenshot_say_mute_and_show_the_hud(run) -> None:
    shots = run["shots"]
    assert run["screenshots"] == ["qdv0000.png"]                       # F12's numbered PNG
    corner = (slice(0, 120), slice(900, 1280))
    assert np.any(shots["mute"][corner] != shots["before_tools"][corner], axis=2).sum() > 500   # M's message box
    bottom = (slice(680, 720), slice(0, 640))
    assert np.any(shots["hud"][bottom] != shots["before_tools"][bottom], axis=2).mean() > 0.5   # the status bar
