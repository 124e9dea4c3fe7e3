"""Camera path editing in the real window under Xvfb, with real key and mouse input (xdotool): K adds keys at three
times with the free camera flown between them, dragging a key's mark on the key row moves it in time (the path
re-sorts), a click on a mark and Delete remove a key, Ctrl+S writes ``NAME.camera.json`` beside the demo; P then
previews the path, and ``qdv render --camera path:`` of the saved file gives the frame the window shows at that
time (read back with F12, the corner readout masked)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from tests.xwindow import REPO, grab, keys, start_play, stop, xdotool
from viewer.cli import main
from viewer.render.view_math import angle_vectors
from viewer.ui.key_row import KEY_COLOR, KEY_ROW_HEIGHT, key_row_top
from viewer.ui.timeline_bar import bar_geometry

SAMPLE = REPO / "viewer" / "sample" / "lqdm2"
SIZE = (1280, 720)
PAUSE = 0.5          # seconds for the window to take in an input (it draws a few frames a second under load)


def _wait_for(path: Path, limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert path.exists(), f"{path} never appeared"


def _hold(display: str, key: str, seconds: float) -> None:
    xdotool(display, "keydown", key)
    time.sleep(seconds)
    xdotool(display, "keyup", key)
    time.sleep(PAUSE)


def _mouse(display: str, window: str, x: float, y: float, *then: str) -> None:
    xdotool(display, "mousemove", "--window", window, str(round(x)), str(round(y)), *then)
    time.sleep(PAUSE)


@pytest.fixture(scope="module")
def session(display, tmp_path_factory) -> dict:
    """One window session: the edits, the saved file, the key row capture and the path preview's F12 picture."""
    work = tmp_path_factory.mktemp("camera_path")
    demo = work / "duel.mvd"
    shutil.copy(SAMPLE / "lq_lqdm2_mvd.mvd", demo)
    timeline = load_demo(demo)
    start, end = timeline.start_time, timeline.end_time
    g = bar_geometry(SIZE, start, end)                      # the HUD is hidden (H): the bar sits at the bottom
    row_y = key_row_top(g) + KEY_ROW_HEIGHT * g.scale / 2
    proc, window = start_play(display, str(demo), "--basedir", str(SAMPLE), "--size", "1280x720", "--shots",
                              str(work / "shots"), config=work / "config")
    out: dict = {"start": start, "end": end, "geometry": g, "work": work, "demo": demo}
    try:
        keys(display, window, "space", "h", "8", "f", "k", "Right")
        time.sleep(PAUSE)
        _hold(display, "s", 0.4)                            # fly back between the keys
        keys(display, window, "k", "Right")
        time.sleep(PAUSE)
        _hold(display, "d", 0.4)                            # and to the right
        keys(display, window, "k")
        time.sleep(1.5)
        a = (start + 0.8 * (end - start)) - start            # "8": 80 % of the demo, then +5 s, +10 s
        times = [a, a + 5.0, a + 10.0]
        out["times"] = times
        shot = grab(display)
        Image.fromarray(shot).save(work / "key_row.png")
        out["row_pixels"] = [shot[int(row_y), round(g.x_of(start + t))].tolist() for t in times]
        out["between_pixel"] = shot[int(row_y), round(g.x_of(start + a + 2.5))].tolist()

        # drag the second key's mark past the third: it becomes the third key
        x_b = g.x_of(start + times[1])
        x_to = g.x_of(start + a + 18.0)
        _mouse(display, window, x_b, row_y, "mousedown", "1")
        for f in (0.25, 0.5, 0.75, 1.0):
            _mouse(display, window, x_b + (x_to - x_b) * f, row_y)
        xdotool(display, "mouseup", "1")
        time.sleep(PAUSE)
        out["moved_time"] = g.time_at(round(x_to) + (x_b - round(x_b))) - start

        # click the (old) third key's mark, which is now the second, and delete it; save
        _mouse(display, window, g.x_of(start + times[2]), row_y, "click", "1")
        keys(display, window, "Delete", "ctrl+s")
        saved = work / "duel.camera.json"
        _wait_for(saved)
        out["saved"] = json.loads(saved.read_text(encoding="utf-8"))

        # preview the path halfway between the keys, bar hidden, and read the picture back with F12
        x_s = round(g.x_of(start + (a + out["moved_time"]) / 2))
        keys(display, window, "p")
        _mouse(display, window, x_s, g.top + 5 * g.scale, "click", "1")
        out["preview_time"] = g.time_at(x_s) - start
        keys(display, window, "b")
        time.sleep(3.0)                                      # the messages in the corner fade
        keys(display, window, "F12")
        _wait_for(work / "shots" / "qdv0000.png")
        time.sleep(0.5)
        out["preview"] = np.asarray(Image.open(work / "shots" / "qdv0000.png").convert("RGB"))
        out["alive"] = proc.poll() is None
    finally:
        stop(proc)
        out["log"] = proc.stdout.read() if proc.stdout is not None else ""
    return out


def test_key_row_shows_a_mark_per_key(session) -> None:
    """Three cyan marks above the bar (the selected third one white-rimmed, cyan inside), the path's faint line
    between them."""
    for pixel in session["row_pixels"]:
        assert np.abs(np.asarray(pixel) - np.asarray(KEY_COLOR[:3]) * 255).max() <= 2, pixel
    assert np.abs(np.asarray(session["between_pixel"]) - np.asarray(KEY_COLOR[:3]) * 255).max() > 40


def test_window_edits_are_saved_beside_the_demo(session) -> None:
    assert session["alive"]
    saved = session["saved"]
    a, _, _ = session["times"]
    assert saved["version"] == 1
    first, moved = saved["keys"]
    assert first["time"] == pytest.approx(a, abs=1e-9)
    assert moved["time"] == pytest.approx(session["moved_time"], abs=1e-9)
    assert first["look_at"] is None and moved["look_at"] is None
    # the moved key is the one taken after flying back (S): it lies behind the first key, along its view direction
    step = np.asarray(moved["origin"]) - np.asarray(first["origin"])
    forward = angle_vectors(first["angles"])[0]
    assert np.linalg.norm(step) > 40 and float(np.dot(step, forward)) / np.linalg.norm(step) < -0.999
    log = session["log"]
    assert "camera key 2 of 2 added" in log and "camera key 3 of 3 added" in log and "moved from" in log
    assert "deleted (2 left)" in log and f"saved camera path (2 keys) to {session['work'] / 'duel.camera.json'}" in log


def test_render_of_the_saved_path_equals_the_window_preview(session, tmp_path: Path) -> None:
    """The window's path preview (F12 reads its picture back) and ``qdv render --camera path:`` of the file it saved
    are the same picture at the same time, but for the corner readout the window draws over it."""
    out = tmp_path / "path.mkv"
    t = session["preview_time"]
    assert main(["render", str(session["demo"]), "--out", str(out), "--codec", "ffv1", "--size", "1280x720",
                 "--fps", "10", "--from", repr(t), "--to", repr(t + 0.1), "--no-hud", "--no-audio", "--camera",
                 f"path:{session['work'] / 'duel.camera.json'}", "--basedir", str(SAMPLE)]) == 0
    with av.open(str(out)) as container:
        frame = next(iter(container.decode(video=0))).to_ndarray(format="rgb24")
    window = session["preview"]
    assert window.shape == frame.shape == (720, 1280, 3)
    mask = np.ones(frame.shape[:2], bool)
    mask[:120, 1280 - 420:] = False                         # the corner readout (time, speed, "path")
    assert frame.mean() > 10
    np.testing.assert_array_equal(window[mask], frame[mask])


def test_the_saved_path_is_loaded_with_the_demo_and_saved_over_its_own_file(session, display) -> None:
    """Opening the demo again loads ``NAME.camera.json`` (its keys on the row); Ctrl+S then writes over that file,
    while a file the window did not load is left alone; a key added and not saved is kept when the window quits."""
    work = session["work"]
    saved = work / "duel.camera.json"
    before = saved.read_text(encoding="utf-8")
    proc, window = start_play(display, str(session["demo"]), "--basedir", str(SAMPLE), "--size", "1280x720",
                              config=work / "config")
    try:
        saved.write_text(before.replace('"version": 1', '"version":1'), encoding="utf-8")   # same path, other bytes
        keys(display, window, "space", "ctrl+s")
        deadline = time.monotonic() + 20
        while saved.read_text(encoding="utf-8") != before and time.monotonic() < deadline:
            time.sleep(0.2)
        rewritten = saved.read_text(encoding="utf-8")
        keys(display, window, "Right", "Right", "k")                # a key added and never saved, then quit
        time.sleep(PAUSE)
        keys(display, window, "ctrl+q")
        proc.wait(20)
    finally:
        stop(proc)
    log = proc.stdout.read() if proc.stdout is not None else ""
    assert rewritten == before                                       # rewritten by the window, same keys
    assert not (work / "duel.camera-2.json").exists()
    assert f"saved camera path (2 keys) to {saved}" in log
    assert f"kept the unsaved camera path (3 keys) to {saved}" in log   # quitting does not lose the new key
    assert len(json.loads(saved.read_text(encoding="utf-8"))["keys"]) == 3
