"""One camera rule for the window and every export: on a Quake III and a Quake corpus demo, the orbit, chase and free
cameras the window's state computes at a moment equal the ones the Ctrl+E export (``export_for_view`` → ``record``)
and ``qdv render --camera orbit|chase`` use for that moment, and the frames they render are the same picture.
Before, the export's orbit aimed 16 units above the followed entity (the window: the game's ``orbit_height``, 26
for Quake III) and circled the eyes instead of the followed entity."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from viewer.camera_pose import ShotCamera
from viewer.headless import DemoRenderer
from viewer.input import Action
from viewer.scene import pov_camera
from viewer.session import game_filesystem
from viewer.video.background import GameData, export_for_view
from viewer.video.output import plan_output
from viewer.video.recorder import record
from viewer.video.shot import ShotView, settle
from viewer.video.timing import FrameTimes
from viewer.video.options import resolve_pov
from viewer.viewer_state import FrameContext, ViewerState

from .conftest import LQ1, QUAKE3

SIZE = (64, 48)
#: (demo, basedir, seconds after its start): a Quake III demo (orbit height 26) and a Quake one (16).
DEMOS = {
    "quake3": (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", QUAKE3, 12.0),
    "quake": (LQ1 / "demo3.dem", None, 15.0),
}
#: The window's key for each camera: F (free), C (chase), R (orbit the recorder first).
KEYS = {"free": Action("camera", 1), "chase": Action("camera", 2), "orbit": Action("orbit_next", +1)}


@pytest.fixture(scope="module", params=sorted(DEMOS))
def demo(request):
    path, basedir, at = DEMOS[request.param]
    timeline = load_demo(str(path))
    renderer = DemoRenderer(timeline, game_filesystem(str(path), None if basedir is None else str(basedir), None),
                            SIZE)
    yield path, renderer, timeline.start_time + at
    renderer.release()


def _window(renderer: DemoRenderer, mode: str, t: float) -> tuple[ViewerState, object]:
    """The window's state at ``t`` after the camera key of ``mode``, and the camera it draws from (as
    ``app._draw_frame`` asks it)."""
    timeline, session = renderer.timeline, renderer.session
    state = ViewerState.for_timeline(timeline, start=t - timeline.start_time, size=SIZE)
    sample = timeline.sample(t, pov=state.pov_slot)
    state.handle(KEYS[mode], FrameContext(pov_camera(sample, state.fov), (int(sample.view_entity),),
                                          (int(sample.view_entity),), sample))
    assert state.mode == mode
    session.use_segment(max(sample.segment, 0))
    return state, state.camera_for(sample, session.game_map)


def _recorded(renderer: DemoRenderer, shot: ShotCamera, times: FrameTimes, out: Path) -> np.ndarray:
    """Frame 0 of ``record`` (what ``qdv render`` and the Ctrl+E child run) written as a PNG and read back."""
    out.mkdir()
    output = plan_output(str(out / "%05d.png"), SIZE)
    result = record(renderer, shot, times, output)
    assert result.frames == times.count
    return np.asarray(Image.open(output.frame_path(0)).convert("RGB"))


@pytest.mark.parametrize("mode", ["orbit", "chase", "free"])
def test_exports_see_what_the_window_sees(demo, mode, tmp_path) -> None:
    path, renderer, t = demo
    timeline = renderer.timeline
    state, seen = _window(renderer, mode, t)
    assert renderer.session.missing_map is None, "the map is found: cameras stay inside its walls"
    assert seen is not None
    state.handle(Action("mark_in"))
    state.clock = state.clock.seek(t + 0.05)
    state.handle(Action("mark_out"))
    job = export_for_view(state, str(path), GameData.of(renderer.session.fs), tmp_path / "x.mp4")
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, job.first, job.last, 1.0, job.fps)
    assert times.time(0) == pytest.approx(t)
    exported = ShotView(renderer, settle(job.shot, renderer, t)).camera(t)
    assert exported == seen                                                   # Ctrl+E
    shots = {"ctrl+e": job.shot}
    if mode != "free":    # qdv render --camera orbit|chase, the player's view as in the window
        cli = ShotCamera(mode, resolve_pov(timeline, None), 90.0)
        assert ShotView(renderer, settle(cli, renderer, t)).camera(t) == seen
        shots["qdv render"] = cli
    window = renderer.pixels(t, seen, state.fov, state.pov_slot)
    assert window.std() > 0, "a picture, not a blank target"
    for name, shot in shots.items():
        out = tmp_path / name.replace(" ", "_").replace("+", "_")
        assert np.array_equal(_recorded(renderer, shot, times, out), window), name


def test_the_window_holds_its_orbit_as_the_export_does(demo) -> None:
    """Frame after frame the window's orbit and the export's are the same camera, also while the followed entity is
    out of the frame (both hold where it was last seen)."""
    _path, renderer, t = demo
    timeline, session = renderer.timeline, renderer.session
    state, _ = _window(renderer, "orbit", t)
    view = ShotView(renderer, state.shot())
    for u in timeline.times[(timeline.times >= t) & (timeline.times < t + 3.0)]:
        sample = timeline.sample(float(u), pov=state.pov_slot)
        session.use_segment(max(sample.segment, 0))
        assert view.camera(float(u)) == state.camera_for(sample, session.game_map)
