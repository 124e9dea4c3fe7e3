"""The window's export (Ctrl+E): ``qdv render``'s recording path run in a child process beside playback.

:func:`export_for_view` turns what the window shows (the marked range, the camera mode and its pose as the window
poses it — :meth:`~viewer.viewer_state.ViewerState.shot` —, the window's size rounded down to even numbers, the HUD
on or off) into a :class:`WindowExport`; :class:`BackgroundExport` runs
it with :func:`~viewer.video.recorder.record` in a ``spawn`` child process that makes its own EGL context and opens
the demo and its game data again, at 60 fps, normal speed, H.264 with sound in an ``.mp4``.

A thread in the window's process works too (pyglet's GLX context and an EGL standalone context coexist under Xvfb),
but moderngl keeps the GIL while it waits for the driver: with a 1280x720 export running, 95 % of the window's
frame gaps stayed under 80–98 ms (under 9 ms with the child process), so the window would stutter.

The child reports the frames written through a shared counter and its end (written, stopped, failed) through a
pipe. :meth:`BackgroundExport.stop` (the window closing) asks it to end between frames: the file is finalised with
the frames written, as Ctrl+C does for ``qdv render``, or removed when none was. The child also stops when the
window's process is gone.

References: Python ``multiprocessing`` (``spawn`` start method, ``Value``, ``Pipe``, ``parent_process``).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
from dataclasses import dataclass
from pathlib import Path

from assets_loader.demos.merge import load_merged
from assets_loader.vfs import VirtualFS

from ..camera_pose import ShotCamera
from ..ghosts import Ghosts
from ..multiview.panes import MultiShot
from ..overlays import OverlayOptions
from ..viewer_state import ViewerState
from .timing import FrameTimes

#: Output frames per second of a window export.
WINDOW_FPS = 60.0
#: Seconds the window waits for a stopped export to finalise its file before ending the child.
STOP_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class GameData:
    """How to open the window's game data again in the child (a :class:`VirtualFS` holds open paks): ``basedir``
    ``None`` for none, ``fallback`` the stand-in pack searched last, if any."""

    basedir: str | None
    game: str | None
    base: str
    fallback: str | None = None

    @classmethod
    def of(cls, fs: VirtualFS) -> GameData:
        if not fs.game_dirs:
            return cls(None, None, "", fs.fallback)
        return cls(str(fs.basedir), fs.game, fs.game_dirs[0].name, fs.fallback)

    def open(self) -> VirtualFS:
        fs = VirtualFS(self.basedir, self.game, base=self.base) if self.basedir is not None else VirtualFS.empty()
        return fs.with_fallback(self.fallback) if self.fallback is not None else fs


@dataclass(frozen=True, slots=True)
class WindowExport:
    """One export: ``demo`` from ``first`` to ``last`` (seconds after its first frame) at ``size`` from ``shot`` (a
    multiview: its panes), with the HUD or not and the window's ``overlays``, into ``out``; ``frames`` output frames
    at ``fps``; ``ghosts`` / ``ghost_offsets`` the race drawn in (``--ghost`` specs, :mod:`viewer.ghosts`) and
    ``trails`` its routes; ``merges`` the demos of the same match merged in (``--merge``)."""

    demo: str
    data: GameData
    first: float
    last: float
    frames: int
    size: tuple[int, int]
    shot: ShotCamera | MultiShot
    hud: bool
    out: Path
    fps: float = WINDOW_FPS
    water_alpha: float | None = None
    overlays: OverlayOptions = OverlayOptions()
    ghosts: tuple[str, ...] = ()
    ghost_offsets: tuple[float, ...] = ()
    trails: bool = False
    merges: tuple[str, ...] = ()


def even_size(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` rounded down to even numbers (H.264's 4:2:0 chroma), at least 2×2."""
    w, h = size
    return max(w - w % 2, 2), max(h - h % 2, 2)


def export_for_view(state: ViewerState, demo: str, data: GameData, out: Path,
                    water_alpha: float | None = None, ghosts: Ghosts | None = None,
                    merges: tuple[str, ...] = ()) -> WindowExport:
    """What Ctrl+E exports of the window in ``state``: the marked range (the whole demo without marks) at the
    window's size, camera (every pane's in a multiview, heard from the selected one) and HUD, with the window's
    ``ghosts`` and trails, of the demo with its ``merges``, into ``out``. Raises
    :class:`~viewer.video.timing.RangeError` for a range shorter than one frame."""
    first, last = state.export_span()
    info = state.info
    times = FrameTimes.for_range(info.start, info.end - info.start, first - info.start, last - info.start, 1.0,
                                 WINDOW_FPS)
    runs = ghosts.ghosts if ghosts is not None else []
    return WindowExport(demo, data, times.first, last - info.start, times.count, even_size(state.size),
                        state.export_shot(), state.show_hud and state.ghost is None, out, WINDOW_FPS,
                        water_alpha, state.overlays, tuple(g.spec for g in runs), tuple(g.offset for g in runs),
                        state.show_trails, merges)


@dataclass(frozen=True, slots=True)
class ExportOutcome:
    """How an export ended: ``frames`` of ``total`` written to ``path`` in ``seconds``; ``interrupted`` (stopped
    early, the file finalised with what was written), ``removed`` (the partial file deleted), ``error`` (a
    message)."""

    path: Path
    frames: int
    total: int
    seconds: float = 0.0
    interrupted: bool = False
    removed: bool = False
    error: str | None = None

    def message(self) -> str:
        """One line for the window and the terminal."""
        if self.error is not None:
            return f"export failed: {self.error}" + ("; removed the partial file" if self.removed else "")
        if self.removed:
            return f"export stopped before any frame: removed {self.path}"
        if self.interrupted:
            return f"export stopped: {self.path} is playable with {self.frames} of {self.total} frames"
        return f"exported {self.path}: {self.frames} frames in {self.seconds:.1f} s"


def _export(job: WindowExport, done, stop, results: multiprocessing.connection.Connection) -> None:
    """The child process: record ``job``, counting frames in ``done``, ending early once ``stop`` is set or the
    window's process is gone; the :class:`ExportOutcome` is sent on ``results``."""
    from ..headless import DemoRenderer
    from .output import plan_output
    from .recorder import record
    from .soundtrack import AUDIO_CODECS, FrameSound, export_mixer

    parent = multiprocessing.parent_process()

    def stopped() -> bool:
        return stop.is_set() or (parent is not None and not parent.is_alive())

    def count(k: int) -> None:
        done.value = k

    try:
        timeline = load_merged(job.demo, job.merges)
        fs = job.data.open()
        times = FrameTimes.for_range(timeline.start_time, timeline.duration, job.first, job.last, 1.0, job.fps)
        output = plan_output(str(job.out), job.size)
        renderer = DemoRenderer(timeline, fs, job.size, hud=job.hud, water_alpha=job.water_alpha,
                                overlays=job.overlays)
        if job.ghosts or job.trails:
            renderer.session.ghosts = Ghosts.load(timeline, list(job.ghosts), list(job.ghost_offsets))
            renderer.session.ghosts.show_trails = job.trails
        try:
            sound = None
            if AUDIO_CODECS[output.container] is not None:
                session = renderer.session
                sound = FrameSound(export_mixer(timeline, fs,
                                                lambda s: session.game_map if s == session.segment else None), times)
            result = record(renderer, job.shot, times, output, sound=sound, progress=count, stop=stopped)
        finally:
            renderer.release()
        results.send(ExportOutcome(result.path, result.frames, result.total, result.seconds, result.interrupted,
                                   result.removed))
    except Exception as exc:  # noqa: BLE001 - every failure is reported to the window, which says it
        removed = done.value > 0 and not job.out.exists()     # record() deletes what it had written
        results.send(ExportOutcome(job.out, done.value, job.frames, error=str(exc).removesuffix(
            "; removed the partial file"), removed=removed))


class BackgroundExport:
    """``job`` recording in a child process; ask :meth:`poll` each frame until it returns the outcome."""

    def __init__(self, job: WindowExport) -> None:
        self.job = job
        spawn = multiprocessing.get_context("spawn")
        self._done = spawn.Value("q", 0, lock=False)
        self._stop = spawn.Event()
        self._results, results = spawn.Pipe(duplex=False)
        self._process = spawn.Process(target=_export, args=(job, self._done, self._stop, results),
                                      name="qdv-export", daemon=True)
        self._process.start()
        results.close()
        self.outcome: ExportOutcome | None = None

    @property
    def running(self) -> bool:
        return self.outcome is None

    @property
    def progress(self) -> float:
        """The share of frames written, 0..1."""
        return min(self._done.value / self.job.frames, 1.0) if self.job.frames else 1.0

    def poll(self, timeout: float = 0.0) -> ExportOutcome | None:
        """The outcome once the child has ended (waiting up to ``timeout`` seconds), else ``None``."""
        if self.outcome is not None:
            return self.outcome
        if self._results.poll(timeout):
            try:
                self.outcome = self._results.recv()
            except EOFError:
                pass  # the child ended without a word: handled below
        if self.outcome is None and not self._process.is_alive():
            self.outcome = self._lost(f"the export process ended unexpectedly (exit code {self._process.exitcode})")
        if self.outcome is not None:
            self._process.join()
            self._results.close()
        return self.outcome

    def stop(self, timeout: float = STOP_TIMEOUT) -> ExportOutcome:
        """End the export now: the child finalises the file with the frames written (removing it when there are
        none); a child that does not answer within ``timeout`` seconds is ended and its partial file removed."""
        self._stop.set()
        outcome = self.poll(timeout)
        if outcome is None:
            self._process.terminate()
            self._process.join()
            self.outcome = outcome = self._lost(f"the export did not stop within {timeout:g} s")
            self._results.close()
        return outcome

    def _lost(self, why: str) -> ExportOutcome:
        """The outcome of a child that could not finish its file: the partial file is removed."""
        removed = self.job.out.is_file()
        if removed:
            self.job.out.unlink()
        return ExportOutcome(self.job.out, self._done.value, self.job.frames, error=why, removed=removed)
