"""``qdv render --camera path:FILE``: frames equal the path's camera rendered at the same times; bad files are one
clear error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import QUAKEWORLD, REPO
from viewer.camera_path import camera_at, entity_target, load_path
from viewer.cli import main
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem
from viewer.video.timing import FrameTimes

DEMO = QUAKEWORLD / "lq_lqdm2_ranger.qwd"
GAME = ["--basedir", str(QUAKEWORLD)]
SIZE = (96, 54)
FPS = 10


def write_path(tmp_path: Path, keys: list[dict]) -> Path:
    file = tmp_path / "ranger.camera.json"
    file.write_text(json.dumps({"version": 1, "keys": keys}), encoding="utf-8")
    return file


def test_path_frames_equal_the_renderer_with_camera_at(tmp_path: Path) -> None:
    timeline = load_demo(DEMO)
    player = timeline.sample(timeline.start_time + 2.0).view_entity
    file = write_path(tmp_path, [
        {"time": 2.0, "origin": [0, 0, 300], "angles": [30, 0, 0], "fov": 100},
        {"time": 2.6, "origin": [300, 200, 250], "angles": [10, 170, 0], "fov": 80, "look_at": player},
        {"time": 3.2, "origin": [100, -200, 200], "angles": [0, -170, 0], "fov": 90},
    ])
    out = tmp_path / "path.mkv"
    assert main(["render", str(DEMO), "--out", str(out), "--codec", "ffv1", "--size", f"{SIZE[0]}x{SIZE[1]}",
                 "--fps", str(FPS), "--from", "2", "--to", "3.5", "--no-hud", "--no-audio", "--camera",
                 f"path:{file}", *GAME]) == 0
    with av.open(str(out)) as container:
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    path = load_path(file)
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, 2.0, 3.5, 1.0, FPS)
    assert len(frames) == times.count == 15
    renderer = DemoRenderer(timeline, game_filesystem(str(DEMO), str(QUAKEWORLD), None), SIZE)
    try:
        target = entity_target(timeline)
        for k in (0, 4, 6, 9, 14):
            t = times.time(k)
            camera = camera_at(path, t - timeline.start_time, target)
            np.testing.assert_array_equal(frames[k], renderer.pixels(t, camera))
    finally:
        renderer.release()
    assert not np.array_equal(frames[0], frames[9])


@pytest.mark.parametrize("keys, field", [
    ([{"time": "soon", "origin": [0, 0, 0], "angles": [0, 0, 0]}], "keys[0].time"),
    ([{"time": 1, "origin": [0, 0], "angles": [0, 0, 0]}], "keys[0].origin"),
    ([], "keys"),
])
def test_a_malformed_path_is_one_error_naming_file_and_field(keys, field: str, tmp_path: Path, capsys) -> None:
    file = write_path(tmp_path, keys)
    code = main(["render", str(DEMO), "--out", str(tmp_path / "x.mp4"), "--size", "64x36", "--camera",
                 f"path:{file}", *GAME])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert str(file) in err[0] and field in err[0]
    assert not (tmp_path / "x.mp4").exists()


def test_keys_outside_the_demo_are_kept_with_a_warning(tmp_path: Path, capsys) -> None:
    file = write_path(tmp_path, [{"time": 2.0, "origin": [0, 0, 300], "angles": [30, 0, 0]},
                                 {"time": 999.0, "origin": [0, 0, 300], "angles": [30, 90, 0]}])
    assert main(["render", str(DEMO), "--out", str(tmp_path / "x.mp4"), "--size", "64x36", "--fps", "5",
                 "--from", "2", "--to", "3", "--camera", f"path:{file}", *GAME]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "keys[1] at 999 s outside the demo" in err


def test_path_without_a_file_name_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["render", str(DEMO), "--out", str(tmp_path / "x.mp4"), "--camera", "path:", *GAME]) == 2
    assert "path:FILE" in capsys.readouterr().err


def test_the_window_path_mode_uses_the_export_camera(tmp_path: Path) -> None:
    """``ViewerState`` in ``path`` mode (what ``qdv play --camera-path`` starts on) gives the camera the export
    renders from at the same time, ``look_at`` included."""
    from viewer.camera_path_edit import PathEdit
    from viewer.viewer_state import ViewerState

    timeline = load_demo(DEMO)
    player = timeline.sample(timeline.start_time + 2.0).view_entity
    path = load_path(write_path(tmp_path, [
        {"time": 2.0, "origin": [0, 0, 300], "angles": [30, 0, 0]},
        {"time": 3.0, "origin": [300, 200, 250], "angles": [10, 170, 0], "fov": 80, "look_at": player}]))
    state = ViewerState.for_timeline(timeline)
    state.path_edit, state.mode = PathEdit(path), "path"
    target = entity_target(timeline)
    for after in (1.0, 2.3, 2.8, 3.0, 9.0):
        t = timeline.start_time + after
        assert state.camera_for(timeline.sample(t)) == camera_at(path, t - timeline.start_time, target)
    assert state.camera_for(timeline.sample(timeline.start_time + 2.8)) != camera_at(path, 2.8)  # aimed


def test_play_refuses_a_malformed_path_before_opening_a_window(tmp_path: Path, capsys) -> None:
    file = write_path(tmp_path, [{"time": 1, "origin": [0, 0, 0], "angles": [0, 0, 0], "fov": 500}])
    assert main(["play", str(DEMO), "--camera-path", str(file), "--headless", *GAME]) == 1
    err = capsys.readouterr().err
    assert str(file) in err and "keys[0].fov" in err


def test_play_starts_on_the_path_headless(tmp_path: Path) -> None:
    file = write_path(tmp_path, [{"time": 2.0, "origin": [0, 0, 300], "angles": [30, 0, 0]}])
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env["QDV_CONFIG_DIR"] = str(tmp_path / "config")
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "play", str(DEMO), "--camera-path", str(file),
                           "--headless", "--frames", "3", *GAME], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "first frame after" in done.stdout
