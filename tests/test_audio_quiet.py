"""Issue 37 item 4: without a sound card, what ALSA and OpenAL print themselves (straight to descriptor 2) while
pyglet opens its driver is silenced; Python's own lines before and after still reach standard error."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_c_level_writes_inside_the_block_are_silenced_and_stderr_comes_back():
    code = ("import os, sys; from viewer.audio.quiet import quiet_stderr\n"
            "print('before', file=sys.stderr)\n"
            "with quiet_stderr():\n"
            "    os.write(2, b'ALSA lib confmisc.c:855:(parse_card) cannot find card 0\\n')\n"
            "    print('python inside', file=sys.stderr)\n"
            "print('after', file=sys.stderr)\n"
            "os.write(2, b'c after\\n')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["before", "after", "c after"]


def test_importing_the_window_sound_prints_nothing():
    code = ("import pyglet; pyglet.options['headless'] = True\n"
            "import viewer.audio.output\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
