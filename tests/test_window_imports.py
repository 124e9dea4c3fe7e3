"""Opening the window loads neither PyAV nor the headless renderer: Ctrl+E imports them in its child process only
(``viewer.video.background``), so the window starts without them (the ``video.pipeline`` ↔ ``video.recorder``
cycle once pulled both in through the export's camera)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO


def test_the_window_starts_without_pyav_or_the_headless_renderer() -> None:
    code = ("import pyglet; pyglet.options['headless'] = True\n"
            "import sys, viewer.app\n"
            "print(*(name in sys.modules for name in ('av', 'viewer.headless', 'viewer.video.recorder')))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False"]
