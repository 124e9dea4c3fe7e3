"""Driving a real ``qdv play`` window under an X server: start it, press keys with xdotool, capture what the X
server shows with Pillow's X11 grab (not the render target), and stop it. Shared by the window screen tests."""

from __future__ import annotations

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


def grab(display: str) -> np.ndarray:
    """What the X server shows, ``uint8 [H, W, 3]``."""
    return np.asarray(ImageGrab.grab(xdisplay=display).convert("RGB"))


def xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), check=True, timeout=10)


def keys(display: str, window: str, *names: str) -> None:
    """Focus ``window`` and press the named keys (X keysym names), 50 ms apart."""
    xdotool(display, "windowfocus", "--sync", window, "key", "--delay", "50", *names)


def start_play(display: str, *args: str, config: Path | None = None) -> tuple[subprocess.Popen, str]:
    """``qdv play ARGS`` on ``display``, once its first frame is drawn: the process and its X window id."""
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is not installed: the window screen tests need it (.ci/run installs it)", pytrace=False)
    env = dict(os.environ, DISPLAY=display)
    if config is not None:
        env["QDV_CONFIG_DIR"] = str(config)
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "play", *args], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    log = []
    assert proc.stdout is not None
    for line in proc.stdout:
        log.append(line)
        if "first frame after" in line or time.monotonic() > deadline:
            break
    if not any("first frame after" in line for line in log):
        stop(proc)
        pytest.fail("".join(log), pytrace=False)
    found = subprocess.run(["xdotool", "search", "--sync", "--name", "qdv"], env=env, capture_output=True,
                           text=True, timeout=20)
    return proc, found.stdout.split()[-1]


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
