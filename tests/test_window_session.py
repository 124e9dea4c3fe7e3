"""Opening files, the readout and mouse look in the real viewer window under Xvfb, driven by pyglet events
(``tests/session_driver.py`` in a child process): a dropped demo replaces the session, a dropped folder lists its
demos in the picker (Down + Enter opens one), Ctrl+O's library browser lists the open demo's folder (a broken demo
as an error row), a non-demo or a broken demo leaves the window open and says why; the corner readout names the
watched player after Tab and shows the frame rate after F3; a right click captures the mouse, which then turns the
camera by the sensitivity, and Esc releases it without quitting. ``qdv play DIR`` prints the folder's demos."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.cli import sample_demo

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 120


@pytest.fixture(scope="module")
def run(display, tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("session")
    env = dict(os.environ, DISPLAY=display, QDV_CONFIG_DIR=str(work / "config"))
    done = subprocess.run([sys.executable, "-m", "tests.session_driver", str(work)], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=TIMEOUT)
    assert done.returncode == 0, f"session driver failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_mouse_settings_with_the_flag_winning_and_ctrl_o_on_the_remembered_folder(run) -> None:
    assert run["first"]["sensitivity"] == 4.0 and run["first"]["invert"] is True   # --sensitivity 4, file: 7
    assert run["remembered"] == ["old.dem"]


def test_a_loaded_demo_is_frozen_out_of_the_garbage_collector(run) -> None:
    """viewer.heap: after loading, what was loaded sits in the permanent generation (a full collection during
    playback does not walk it); a dropped demo is loaded and settled the same way."""
    assert run["first"]["frozen"] > 10000 and run["dropped"]["frozen"] > 10000


def test_dropped_demo_replaces_the_session(run) -> None:
    assert run["first"]["demo"].endswith("demo1_lite.dem")
    dropped = run["dropped"]
    assert dropped["demo"] == sample_demo("lqdm2")
    assert dropped["end"] == pytest.approx(105.1, abs=0.1)        # the MVD's duration, not the first demo's
    assert dropped["frames_after"] == 5 and dropped["pov_slots"] == [0, 1]


def test_readout_names_the_watched_player_and_shows_fps(run) -> None:
    r = run["readout"]
    assert r["before_tab"][:3] == ["0:00.1 / 1:45.1", "1x  pov", "watching LQ_Ranger"]
    assert r["after_tab"][2] == "watching LQ_Warden"
    assert r["fps"][3].endswith(" fps") and float(r["fps"][3].split()[0]) > 0
    assert r["fps_with_bar"][-1].endswith(" fps") and "watching LQ_Warden" not in r["fps_with_bar"]


def test_dropped_folder_lists_demos_and_enter_opens_one(run) -> None:
    assert run["picker"]["files"] == ["a_cutscene.dem", "b_dm.mvd"]
    assert {"2 demos", "a_cutscene.dem", "b_dm.mvd"} <= set(run["picker"]["texts"])
    assert run["picked"]["demo"].endswith("b_dm.mvd") and not run["picked"]["picker_open"]
    assert run["ctrl_o"]["folder"].endswith("demos") and run["ctrl_o"]["files"] == ["a_cutscene.dem", "b_dm.mvd"]
    assert run["ctrl_o"]["closed"]


def test_non_demos_and_broken_demos_leave_the_window_open(run) -> None:
    assert run["not_demo"]["demo"].endswith("b_dm.mvd")
    assert "not a demo: readme.txt" in run["not_demo"]["texts"]
    broken = run["broken"]
    assert broken["alive"] and "cannot open broken.dem" in broken["failed"] and "CD-track" in broken["failed"]
    assert broken["texts"][0].startswith("cannot open broken.dem")
    assert max(len(t) for t in broken["texts"]) <= 1280 // 16 - 4      # wrapped to the window
    assert run["after_broken_rows"] == ["a_cutscene.dem", "b_dm.mvd", "broken.dem"]    # the broken one: an error row
    assert run["after_broken"]["demo"].endswith("b_dm.mvd") and run["after_broken"]["frames"] > 0


def test_right_click_captures_the_mouse_and_esc_releases_it(run) -> None:
    look = run["look"]
    assert look["captured"] and look["mode"] == "free" and look["sensitivity"] == 4.0
    turned = (look["yaw0"] - look["yaw1"]) % 360
    assert turned == pytest.approx(50 * 4.0 * 0.022)
    assert look["pitch1"] - look["pitch0"] == pytest.approx(10 * 4.0 * 0.022)     # inverted: up looks down
    assert look["after_esc"] == {"captured": False, "alive": True}
    assert look["yaw2"] == look["yaw1"]                              # released: motion no longer turns


def test_a_demo_without_its_game_data_opens_with_the_notice_and_a_dropped_game_folder_gives_it_data(run) -> None:
    shown = run["no_data"]
    assert shown["demo"].endswith("oa.dm_68") and shown["frames"] > 0
    notice = " ".join(shown["texts"])
    assert "no Quake III game data in" in notice and "baseq3/pak0.pk3, or OpenArena's baseoa/pak0.pk3" in notice
    assert "--basedir DIR, or drop the game folder on the window" in notice
    given = run["game_folder"]
    assert given["demo"] == shown["demo"] and given["game_dirs"][0].endswith("q3base/baseoa")
    assert not any("game data" in t for t in given["texts"])                     # the notice is gone
    assert 'basedir = "' in given["settings"] and "q3base" in given["settings"]  # remembered for the next runs


def test_play_dir_prints_the_demos(tmp_path) -> None:
    folder = tmp_path / "demos"
    folder.mkdir()
    (folder / "one.dem").write_bytes(b"x" * 2000)
    (folder / "two.mvd").write_bytes(b"x")
    (folder / "notes.txt").write_text("x")
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "play", str(folder)], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)
    lines = done.stdout.splitlines()
    assert lines[0] == f"2 demos in {folder}:"
    assert lines[1].split()[:2] == ["1", "one.dem"] and lines[2].split()[:2] == ["2", "two.mvd"]
    # listed first; no game data is no reason to refuse (the demo would open on stand-ins), but there is no display
    assert done.returncode != 0 and "no display" in done.stderr and "game data" not in done.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "play", str(empty)], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)
    assert done.returncode != 0 and "a folder without demos" in done.stderr
