"""What the real window shows, read from the X server (not from the render target): a ``qdv play`` process under
Xvfb, driven by real key presses (xdotool), captured with Pillow's X11 grab.

The picture must keep changing while the demo plays with the HUD and the timeline bar hidden (H, B) — the state
in which the window used to freeze because the blit triangle was culled by the alias renderer's face culling —
and after the help overlay (F1) is opened and closed again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import ImageGrab

REPO = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT = 60.0


def _grab(display: str) -> np.ndarray:
    return np.asarray(ImageGrab.grab(xdisplay=display).convert("RGB"))


def _digest(px: np.ndarray) -> str:
    return hashlib.sha256(px.tobytes()).hexdigest()


def _keys(display: str, window: str, *names: str) -> None:
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--delay", "50", *names], env=env,
                   check=True, timeout=10)


def _captures(display: str, count: int, interval: float) -> list[np.ndarray]:
    shots = []
    for _ in range(count):
        time.sleep(interval)
        shots.append(_grab(display))
    return shots


@pytest.fixture(scope="module")
def playing(display):
    """A ``qdv play`` process of the bundled sample from 24 s, its X window id, and the display."""
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is not installed: the window screen tests need it (.ci/run installs it)", pytrace=False)
    env = dict(os.environ, DISPLAY=display)
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "play", "--start", "24"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        log = []
        for line in proc.stdout:
            log.append(line)
            if "first frame after" in line or time.monotonic() > deadline:
                break
        assert any("first frame after" in line for line in log), "".join(log)
        found = subprocess.run(["xdotool", "search", "--sync", "--name", "qdv"], env=env, capture_output=True,
                               text=True, timeout=20)
        window = found.stdout.split()[0]
        yield proc, window, display
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_window_keeps_changing_with_hud_and_bar_hidden(playing) -> None:
    proc, window, display = playing
    _keys(display, window, "h", "b")
    shots = _captures(display, 5, 0.6)
    assert proc.poll() is None
    assert all(px.mean() > 10 for px in shots)                         # the game, not a black window
    assert len({_digest(px) for px in shots}) >= 4                     # the picture follows the playing clock


def test_help_overlay_opens_and_closes_and_playback_goes_on(playing) -> None:
    proc, window, display = playing
    _keys(display, window, "F1")
    with_help = _captures(display, 2, 0.6)
    _keys(display, window, "F1")
    after = _captures(display, 4, 0.6)
    assert proc.poll() is None
    assert len({_digest(px) for px in after}) >= 3
    # the help text is a dark box with light text: its region differs between the open and the closed state
    assert not np.array_equal(with_help[-1], after[-1])
