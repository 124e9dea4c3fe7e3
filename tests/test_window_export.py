"""Ctrl+E in the real window under Xvfb, driven by real key presses (xdotool): I at one moment and O five seconds
later mark a range, Ctrl+E exports it in the background at the window's size (rounded down to even numbers) into a
numbered ``.mp4`` in ``--shots`` while playback goes on, a second Ctrl+E during the export is refused, and the file
decodes back (PyAV) to the range's frames at 60 fps. Closing the window during an export finalises the file with
the frames written and says so. A capture of the screen during the export (the band and the progress line on the
bar) is kept as ``export_bar.png`` in the test's folder."""

from __future__ import annotations

import queue
import re
import subprocess
import threading
import time
from pathlib import Path

import av
import numpy as np
from PIL import Image

from tests.xwindow import grab, keys, start_play, stop
from viewer.ui.timeline_bar import PROGRESS_COLOR, RANGE_EDGE_COLOR

WAIT = 240.0
#: An odd window size: the export is 640x360.
WINDOW = "641x361"


class Log:
    """The lines ``qdv play`` prints after its first frame, read on a thread so waiting can time out."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float = WAIT) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no line matching {pattern!r} in:\n{''.join(self.seen)}")


def _decoded(path: Path) -> tuple[int, tuple[int, int], float]:
    """Frames, size and frame rate of the video in ``path``."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        return frames, (stream.width, stream.height), float(stream.average_rate)


def _pixels_of(px: np.ndarray, colour: tuple[float, ...]) -> int:
    """Pixels of the window (the top-left 641x361 of the screen) drawn in the opaque ``colour``."""
    want = np.array([round(c * 255) for c in colour[:3]])
    return int((np.abs(px[:361, :641].astype(int) - want).max(axis=2) <= 3).sum())


def _grab_when(display: str, colour: tuple[float, ...], timeout: float = WAIT) -> np.ndarray:
    """The first capture showing ``colour`` (polled every half second)."""
    deadline = time.monotonic() + timeout
    while (px := grab(display)) is not None and not _pixels_of(px, colour) and time.monotonic() < deadline:
        time.sleep(0.5)
    return px


def test_marked_range_exports_in_the_background_and_a_second_export_is_refused(display, tmp_path) -> None:
    shots = tmp_path / "shots"
    proc, window = start_play(display, "--start", "24", "--size", WINDOW, "--shots", str(shots),
                              config=tmp_path / "config")
    log = Log(proc)
    try:
        keys(display, window, "space", "i", "Right", "o")
        time.sleep(0.5)
        before = grab(display)
        keys(display, window, "ctrl+e")
        started = log.wait_for(r"exporting (\d+) frames (\d+)x(\d+) \(pov\) to (\S+)")
        keys(display, window, "ctrl+e")
        log.wait_for(r"an export is running")
        during = _grab_when(display, PROGRESS_COLOR)
        Image.fromarray(during).save(tmp_path / "export_bar.png")
        done = log.wait_for(r"exported (\S+): (\d+) frames")
        assert proc.poll() is None                                      # the window played on
    finally:
        stop(proc)
    frames, size = int(started[1]), (int(started[2]), int(started[3]))
    assert size == (640, 360) and frames == 300                         # 5 s at 60 fps, the even-rounded window
    path = Path(done[1])
    assert path == shots / "qdv0000.mp4" and int(done[2]) == frames
    assert _decoded(path) == (frames, size, 60.0)
    assert _pixels_of(before, RANGE_EDGE_COLOR) > 0 and _pixels_of(during, RANGE_EDGE_COLOR) > 0   # the band
    assert _pixels_of(before, PROGRESS_COLOR) == 0 and _pixels_of(during, PROGRESS_COLOR) > 0      # progress


def test_closing_the_window_during_an_export_keeps_a_playable_file(display, tmp_path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    (shots / "qdv0000.mp4").write_bytes(b"an earlier export")        # never overwritten: the next number is used
    proc, window = start_play(display, "--start", "10", "--size", WINDOW, "--shots", str(shots),
                              config=tmp_path / "config")
    log = Log(proc)
    try:
        keys(display, window, "i", "ctrl+e")                           # from 0:10 to the end of the demo
        started = log.wait_for(r"exporting (\d+) frames")
        _wait_for_frames_in(shots / "qdv0001.mp4")                    # a loaded machine may take a while
        keys(display, window, "ctrl+q")
        stopped = log.wait_for(r"export stopped: (\S+) is playable with (\d+) of (\d+) frames")
        proc.wait(60)
    finally:
        stop(proc)
    path, written, total = Path(stopped[1]), int(stopped[2]), int(stopped[3])
    assert path == shots / "qdv0001.mp4" and total == int(started[1])
    assert 0 < written < total
    assert _decoded(path)[:2] == (written, (640, 360))
    assert (shots / "qdv0000.mp4").read_bytes() == b"an earlier export"


def _wait_for_frames_in(path: Path, timeout: float = 120.0) -> None:
    """Wait until the export being written at ``path`` holds encoded frames (its media data has grown past what the
    encoder keeps back), at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not (path.exists() and path.stat().st_size > 20_000):
        time.sleep(0.5)
