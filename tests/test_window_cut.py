"""Ctrl+X in the real window under Xvfb, driven by real key presses (xdotool): I at one moment and O five seconds
later mark a range, Ctrl+X writes it as a demo of the same format beside the demo under the first free
``DEMO_cutNNNN`` name (an existing one is never overwritten) and the window says where; the cut decodes as the
original's five seconds."""

from __future__ import annotations

import shutil

import pytest

from assets_loader.demos import load_demo
from tests.test_window_export import Log
from tests.xwindow import REPO, keys, start_play, stop
from viewer.input import CTRL, KEY_HELP, Action, key_action

SAMPLE = REPO / "viewer" / "sample" / "lqdm2"


def test_ctrl_x_is_the_cut_key() -> None:
    assert key_action("X", CTRL) == Action("cut_demo")
    assert key_action("X", CTRL, free_camera=True) == Action("cut_demo")
    assert key_action("X") is None
    assert any(k == "Ctrl+X" for k, _v in KEY_HELP)


def test_marked_range_is_cut_beside_the_demo(display, tmp_path) -> None:
    demo = tmp_path / "duel.mvd"
    shutil.copy(SAMPLE / "lq_lqdm2_mvd.mvd", demo)
    taken = tmp_path / "duel_cut0000.mvd"
    taken.write_bytes(b"an earlier cut")
    proc, window = start_play(display, str(demo), "--basedir", str(SAMPLE), "--start", "20", "--size", "640x360",
                              config=tmp_path / "config")
    log = Log(proc)
    try:
        keys(display, window, "space", "i", "Right", "o", "ctrl+x")
        said = log.wait_for(r"cut (\d+) frames \((\S+) s\) to (\S+)")
        assert proc.poll() is None
    finally:
        stop(proc)
    frames, seconds, out = int(said[1]), float(said[2]), said[3]
    assert out == str(tmp_path / "duel_cut0001.mvd")
    assert taken.read_bytes() == b"an earlier cut"
    cut, original = load_demo(out), load_demo(demo)
    assert cut.warnings == () and cut.maps == original.maps and cut.num_frames == frames
    assert seconds == pytest.approx(5.0, abs=0.1) and cut.duration == pytest.approx(seconds, abs=0.1)
