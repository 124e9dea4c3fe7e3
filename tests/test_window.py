"""The real viewer window on the bundled sample: under Xvfb (started here on a free display when ``DISPLAY`` is not
set) and once headless through EGL, driven by pyglet input events (``tests/window_driver.py`` runs the session in a
child process and reports what happened).

Checked: playing at real speed, Space pauses, → seeks +5 s (Shift +30 s), digits jump, F starts the free camera at
the POV and W moves it while paused, dragging the timeline bar moves the clock with every drag event (and the
drawn frame follows), F12 writes numbered PNGs that are never overwritten, the picture looks like the game, and
the end of the demo pauses without closing the window. An absent Xvfb fails the test with a message (.ci/run
installs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 60


def _drive(shots: Path, display: str | None) -> dict:
    env = dict(os.environ)
    args = [sys.executable, "-m", "tests.window_driver", str(shots)]
    if display is None:
        args.append("--headless")
        env.pop("DISPLAY", None)
    else:
        env["DISPLAY"] = display
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=REPO, timeout=TIMEOUT)
    assert done.returncode == 0, f"window driver failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("shots")


@pytest.fixture(scope="module")
def session(display, shots) -> dict:
    return _drive(shots, display)


def test_first_frame_and_real_speed(session) -> None:
    assert session["first_frame_seconds"] is not None
    assert session["size"] == [1280, 720]
    assert session["played"] == pytest.approx(0.5, abs=1e-6)          # 30 ticks of 1/60 s at 1x


def test_space_pauses(session) -> None:
    assert session["paused"] and session["paused_moved"] == 0.0


def test_arrows_seek_and_digits_jump(session) -> None:
    assert session["right"] == pytest.approx(5.0)
    assert session["shift_right"] == pytest.approx(30.0)
    start, end = session["start"], session["end"]
    assert session["digit5"] == pytest.approx(start + 0.5 * (end - start))
    assert session["digit0"] == pytest.approx(start)
    assert session["home"] == pytest.approx(start)


def test_free_camera_starts_at_pov_and_moves_while_paused(session) -> None:
    assert session["mode_after_f"] == "free"
    assert session["free_start"] == pytest.approx(session["pov_origin"])
    moved = np.linalg.norm(np.subtract(session["free_end"], session["free_start"]))
    assert moved == pytest.approx(320 * 30 / 60, rel=0.05)            # W for 0.5 s at 320 units/s
    assert session["free_clock_moved"] == 0.0
    assert session["free_drawn_from"] == pytest.approx(session["free_end"])


def test_dragging_the_timeline_moves_the_clock_and_the_picture(session) -> None:
    for entry in session["drags"]:
        clock, expected = entry[0], entry[1]
        assert clock == pytest.approx(expected, abs=1e-6)
        if len(entry) > 2:
            assert entry[2] == pytest.approx(expected, abs=1e-6)      # the frame drawn after the event
    assert not session["scrubbing_after_release"]


def test_f12_writes_numbered_pngs(session, shots) -> None:
    names = [Path(p).name for p in session["shots"]]
    assert names == ["qdv0000.png", "qdv0001.png"]
    assert Path(session["pov_shot"]).name == "qdv0002.png"
    for p in session["shots"] + [session["pov_shot"]]:
        assert Path(p).parent == shots
        assert Image.open(p).size == (1280, 720)


def test_screenshot_looks_like_the_game(session) -> None:
    px = np.asarray(Image.open(session["pov_shot"]).convert("RGB")).astype(int)
    assert px.std() > 15                                               # not blank
    colours = np.unique(px.reshape(-1, 3) // 8, axis=0)
    assert len(colours) > 300                                          # textured, lit world, not flat fills
    assert px.mean(axis=(0, 1)).max() > 20                             # not black


def test_end_pauses_and_keeps_the_window(session) -> None:
    assert session["end_t"] == pytest.approx(session["end"])
    assert session["end_paused"] and not session["closed"]
    assert session["help"]


def test_headless_window_through_egl(tmp_path) -> None:
    result = _drive(tmp_path, None)
    assert result["first_frame_seconds"] is not None
    assert result["played"] == pytest.approx(0.5, abs=1e-6)
    assert [Path(p).name for p in result["shots"]] == ["qdv0000.png", "qdv0001.png"]
    px = np.asarray(Image.open(result["pov_shot"]).convert("RGB")).astype(int)
    assert px.std() > 15


def _qdv(*args: str, display: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    if display is not None:
        env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=TIMEOUT)


def test_qdv_map_flies_the_bundled_map_headless() -> None:
    done = _qdv("map", "lq_e0m1", "--headless", "--frames", "2")
    assert done.returncode == 0, done.stderr
    assert "first frame after" in done.stdout


def test_window_commands_report_bad_input() -> None:
    assert _qdv("play", "no/such.dem", "--headless").returncode == 1
    assert _qdv("map", "no_such_map", "--headless").returncode == 1
    no_display = _qdv("play")
    assert no_display.returncode == 1 and "no display" in no_display.stderr
    assert _qdv("play", "--start", "1:99", "--headless").returncode == 2


def test_qdv_play_without_a_demo_opens_the_openarena_sample() -> None:
    done = _qdv("play", "--headless", "--frames", "2")
    assert done.returncode == 0, done.stderr
    assert "qdv_oa_ffa.dm_71" in done.stderr and "oa_dm1" in done.stderr
    assert "first frame after" in done.stdout


def test_the_deathmatch_sample_has_frags_chat_and_two_players() -> None:
    from assets_loader.demos import load_demo
    from viewer.cli import sample_demo

    timeline = load_demo(sample_demo("lqdm2"))
    assert timeline.segments[0].map_name == "lqdm2"
    kinds = {e.kind for e in timeline.events}
    assert {"obituary", "chat"} <= kinds
    assert timeline.players is not None
    names = {s.name for s in timeline.final_scoreboard() if s.name}
    assert {"LQ_Ranger", "LQ_Warden"} <= names
