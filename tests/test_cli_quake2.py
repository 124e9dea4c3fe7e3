"""``qdv screenshot --map terminal`` and ``qdv map terminal`` on the real Quake II pak (mounted as game dir
``action``)."""

from __future__ import annotations

import json
import subprocess
import warnings
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from tests.conftest import QUAKE2
from viewer.cli import main

REPO = Path(__file__).resolve().parents[1]


def test_screenshot_of_terminal_from_its_player_start(tmp_path, capsys) -> None:
    out = tmp_path / "terminal.png"
    code = main(["screenshot", "--map", "terminal", "--basedir", str(QUAKE2), "--game", "action", "--out", str(out),
                 "--size", "160x90"])
    assert code == 0 and "wrote" in capsys.readouterr().out
    px = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert px.shape == (90, 160, 3)
    assert len(np.unique(px.reshape(-1, 3), axis=0)) > 500 and px.mean() > 5


def test_screenshot_from_a_given_place_looks_at_the_sky(tmp_path) -> None:
    """From under the east glass roof looking up, most of the picture is the night sky box behind the glass."""
    out = tmp_path / "sky.png"
    code = main(["screenshot", "--map", "terminal", "--basedir", str(QUAKE2), "--game", "action", "--out", str(out),
                 "--size", "64x36", "--pos", "1800,-900,150", "--angles=-60,10,0"])
    assert code == 0
    px = np.asarray(Image.open(out).convert("RGB")).astype(int)
    middle = px[12:24, 24:40]
    assert middle.mean() > 20 and (middle[..., 2] >= middle[..., 0]).mean() > 0.9   # blue-grey clouds


def test_qdv_map_terminal_flies_headless() -> None:
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "map", "terminal", "--basedir", str(QUAKE2),
                           "--game", "action", "--headless", "--frames", "2"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "maps/terminal.bsp" in done.stderr and "first frame after" in done.stdout


def test_screenshot_of_an_aqtion_demo_draws_the_map_and_the_players(tmp_path) -> None:
    out = tmp_path / "demo.png"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the pak lacks some models and HUD pictures on purpose (SOURCES.md)
        code = main(["screenshot", str(QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2"), "--basedir", str(QUAKE2),
                     "--time", "40", "--size", "320x180", "--out", str(out)])
    assert code == 0
    pixels = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert pixels.std() > 10 and len(np.unique(pixels.reshape(-1, 3) // 8, axis=0)) > 100


def test_qdv_info_on_a_protocol_25_demo_names_the_file_the_offset_and_the_release(tmp_path, capsys) -> None:
    from assets_loader.demos.quake2 import protocol as P
    from tests.builders.dm2 import DM2Messages, dm2

    m = DM2Messages()
    demo = tmp_path / "demo1.dm2"
    demo.write_bytes(dm2([bytes([P.SVC_SERVERDATA_TEST]) + m.serverdata(protocol=25)[1:]], [m.frame(1, -1)]))
    assert main(["info", str(demo)]) == 1
    err = capsys.readouterr().err
    assert f"{demo}: unsupported protocol 25 (Quake II 3.00 test release) at offset 5" in err


def test_info_and_events_on_an_aqtion_demo(capsys) -> None:
    demo = str(QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2")
    assert main(["info", demo]) == 0
    out = capsys.readouterr().out
    assert "dm2 (quake2), protocol 34" in out and "terminal" in out and "1465 frames" in out
    assert main(["events", demo, "--json", "--kind", "chat", "--kind", "temp_entity"]) == 0
    events = json.loads(capsys.readouterr().out)
    kinds = [e["kind"] for e in events]
    assert kinds.count("chat") == 12 and kinds.count("temp_entity") == 5
    assert {e["sender"] for e in events if e["kind"] == "chat"} == {"AQtion Guide"}


def test_timedemo_and_play_find_the_action_game_dir_from_the_demo(capsys) -> None:
    demo = str(QUAKE2 / "demos" / "AQtion-demo-guide.dm2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the pak lacks some models on purpose (SOURCES.md)
        assert main(["timedemo", demo, "--basedir", str(QUAKE2), "--size", "32x18"]) == 0
    out = capsys.readouterr().out
    assert out.split()[:2] == ["1233", "frames"]
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "play", demo, "--basedir", str(QUAKE2), "--headless",
                           "--frames", "2"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "maps/terminal.bsp" in done.stderr and "first frame after" in done.stdout
