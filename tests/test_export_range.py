"""The window's export range and its export request, without a window: I / O marks (again at the same moment
clears, a mark past the other replaces it, Shift+I clears both), the band and progress line on the timeline bar,
what Ctrl+E asks the background export for (range, frame count, even size, the camera posed as ``qdv render``
poses it, the HUD), how an ended export is told, a small export run through the child process and decoded back,
``record``'s ``stop`` (the window closing) and the orbit around the window's followed entity."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import av
import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import QUAKEWORLD
from viewer.camera_path import CameraKey, CameraPath
from viewer.camera_path_edit import PathEdit
from viewer.camera_pose import ShotCamera
from viewer.cameras import FreeFly, Orbit, orbit_camera
from viewer.cli import sample_demo
from viewer.headless import DemoRenderer
from viewer.input import Action
from viewer.playback import PlaybackClock
from viewer.session import game_filesystem
from viewer.ui import timeline_bar as tl
from viewer.ui.range_marks import RangeMarks
from viewer.ui.timeline_bar import bar_geometry, timeline_layout
from viewer.video.background import (BackgroundExport, ExportOutcome, GameData, WindowExport, even_size,
                                     export_for_view)
from viewer.video.output import plan_output
from viewer.video.recorder import record
from viewer.video.shot import ShotView
from viewer.video.timing import FrameTimes, RangeError
from viewer.viewer_state import TimelineInfo, ViewerState

TIMES = np.arange(0.0, 60.01, 0.1) + 100.0       # a 60 s demo starting at 100 s
DATA = GameData("/nowhere", None, "id1")
OUT = Path("qdv0000.mp4")


def _state(size=(1281, 721)) -> ViewerState:
    info = TimelineInfo(100.0, 160.0, TIMES)
    return ViewerState(info, PlaybackClock.for_range(100.0, 160.0).toggle_pause(), size=size)


def _at(s: ViewerState, t: float) -> ViewerState:
    s.clock = s.clock.seek(t)
    return s


def test_marks_set_clear_and_never_cross() -> None:
    m = RangeMarks().mark_in(110.0).mark_out(115.0)
    assert (m.start, m.end) == (110.0, 115.0) and m.any
    assert m.mark_in(110.0) == RangeMarks(None, 115.0)             # I again at the same moment: in point cleared
    assert m.mark_out(115.0) == RangeMarks(110.0, None)
    assert m.mark_in(120.0) == RangeMarks(120.0, None)             # in past the out point: the out point goes
    assert m.mark_out(105.0) == RangeMarks(None, 105.0)            # out before the in point: the in point goes
    assert m.mark_in(112.0) == RangeMarks(112.0, 115.0)            # moved inside the range: both kept
    assert not RangeMarks().any


def test_span_takes_the_demo_ends_for_unset_marks_and_clamps() -> None:
    assert RangeMarks().span(100.0, 160.0) == (100.0, 160.0)
    assert RangeMarks(110.0, None).span(100.0, 160.0) == (110.0, 160.0)
    assert RangeMarks(None, 130.0).span(100.0, 160.0) == (100.0, 130.0)
    assert RangeMarks(90.0, 170.0).span(100.0, 160.0) == (100.0, 160.0)


def test_keys_mark_the_range_at_the_clock_and_ctrl_e_asks_the_window() -> None:
    s = _at(_state(), 110.0)
    s.handle(Action("mark_in"))
    _at(s, 115.0).handle(Action("mark_out"))
    assert s.marks == RangeMarks(110.0, 115.0) and s.export_span() == (110.0, 115.0)
    assert s.take_messages()[-1] == "export range 0:10.0 - 0:15.0: Ctrl+E exports it, Ctrl+X cuts it as a demo"
    s.handle(Action("mark_out"))                                   # O again at the out point clears it
    assert s.export_span() == (110.0, 160.0)
    s.handle(Action("clear_marks"))
    assert s.marks == RangeMarks() and s.export_span() == (100.0, 160.0)
    assert s.take_messages()[-1] == "export range cleared: Ctrl+E exports the whole demo (Ctrl+X cuts it as a demo)"
    s.handle(Action("export"))
    assert s.take_requests() == ["export"]


def test_a_map_without_demo_takes_no_marks() -> None:
    s = ViewerState.for_map(FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)).camera())
    s.handle(Action("mark_in"))
    assert s.marks == RangeMarks()


def test_bar_draws_the_band_with_edges_at_set_marks() -> None:
    g = bar_geometry((1280, 720), 0.0, 100.0)
    layout = timeline_layout(g, [], 50.0, marked=(20.0, 40.0))
    band = [r for r in layout.rects if r.color == tl.RANGE_COLOR]
    edges = sorted(r.x for r in layout.rects if r.color == tl.RANGE_EDGE_COLOR)
    assert len(band) == 1 and band[0].x == pytest.approx(g.x_of(20.0))
    assert band[0].x + band[0].w == pytest.approx(g.x_of(40.0))
    assert edges == pytest.approx([g.x_of(20.0), g.x_of(40.0) - g.scale])
    only_in = timeline_layout(g, [], 50.0, marked=(20.0, None))
    band = [r for r in only_in.rects if r.color == tl.RANGE_COLOR][0]
    assert band.x + band.w == pytest.approx(g.x1)                  # to the end of the demo
    assert sum(r.color == tl.RANGE_EDGE_COLOR for r in only_in.rects) == 1
    plain = timeline_layout(g, [], 50.0, marked=(None, None))
    assert not any(r.color in (tl.RANGE_COLOR, tl.RANGE_EDGE_COLOR) for r in plain.rects)


def test_bar_shows_the_export_progress() -> None:
    g = bar_geometry((1280, 720), 0.0, 100.0)
    layout = timeline_layout(g, [], 50.0, export_progress=0.425)
    line = [r for r in layout.rects if r.color == tl.PROGRESS_COLOR]
    assert len(line) == 1 and line[0].w == pytest.approx(0.425 * 1280) and line[0].y == g.top
    assert layout.texts[1].text == "export 42%  1x"
    assert not any(r.color == tl.PROGRESS_COLOR for r in timeline_layout(g, [], 50.0).rects)


def test_even_size_rounds_down() -> None:
    assert even_size((1281, 721)) == (1280, 720)
    assert even_size((1280, 720)) == (1280, 720)
    assert even_size((1, 1)) == (2, 2)


def test_export_request_of_the_marked_range_at_the_window_size(tmp_path) -> None:
    s = _at(_state(), 110.0)
    s.handle(Action("mark_in"))
    _at(s, 115.0).handle(Action("mark_out"))
    s.show_hud = False
    job = export_for_view(s, "d.dem", DATA, tmp_path / "qdv0000.mp4", water_alpha=0.5)
    assert (job.first, job.last, job.frames, job.fps) == (pytest.approx(10.0), pytest.approx(15.0), 300, 60.0)
    assert job.size == (1280, 720) and job.hud is False and job.water_alpha == 0.5
    assert job.shot == ShotCamera("pov", None, 90.0)
    s.handle(Action("clear_marks"))
    whole = export_for_view(s, "d.dem", DATA, tmp_path / "qdv0000.mp4")
    assert (whole.first, whole.last, whole.frames) == (0.0, pytest.approx(60.0), 3600)


def test_export_request_poses_the_camera_as_qdv_render() -> None:
    s = _state()
    s.fov, s.pov_slot = 100.0, 1
    s.mode, s.free = "free", FreeFly((1.0, 2.0, 3.0), (10.0, 80.0, 0.0))
    eye = s.free.camera(100.0)
    assert export_for_view(s, "d", DATA, OUT).shot == ShotCamera("free", 1, 100.0, tuple(eye.origin),
                                                                       tuple(eye.angles))
    s.mode, s.chase_back = "chase", 140.0
    assert export_for_view(s, "d", DATA, OUT).shot == ShotCamera("chase", 1, 100.0, chase_back=140.0)
    s.mode, s.orbit, s.follow = "orbit", Orbit(45.0, 30.0, 200.0), 7
    assert export_for_view(s, "d", DATA, OUT).shot == ShotCamera(
        "orbit", 1, 100.0, angles=(30.0, 45.0, 0.0), orbit_distance=200.0, follow=7)
    path = CameraPath((CameraKey(5.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),))
    s.mode, s.path_edit = "path", PathEdit(path)
    assert export_for_view(s, "d", DATA, OUT).shot == ShotCamera("path", 1, 100.0, path=path)


def test_a_range_shorter_than_a_frame_is_refused() -> None:
    s = _at(_state(), 110.0)
    s.handle(Action("mark_in"))
    _at(s, 110.005).handle(Action("mark_out"))
    with pytest.raises(RangeError):
        export_for_view(s, "d", DATA, OUT)


def test_outcome_messages_say_what_became_of_the_file(tmp_path) -> None:
    path = tmp_path / "qdv0000.mp4"
    assert ExportOutcome(path, 300, 300, 12.5).message() == f"exported {path}: 300 frames in 12.5 s"
    assert ExportOutcome(path, 40, 300, interrupted=True).message() == \
        f"export stopped: {path} is playable with 40 of 300 frames"
    assert ExportOutcome(path, 0, 300, interrupted=True, removed=True).message() == \
        f"export stopped before any frame: removed {path}"
    assert ExportOutcome(path, 3, 300, error="disk full", removed=True).message() == \
        "export failed: disk full; removed the partial file"


def test_background_export_runs_in_a_child_process_and_decodes_back(tmp_path) -> None:
    demo = sample_demo("lq1")
    out = tmp_path / "qdv0000.mp4"
    job = WindowExport(demo, GameData.of(game_filesystem(demo, None, None)), 5.0, 5.5, 30, (96, 54),
                       ShotCamera("chase"), True, out)
    export = BackgroundExport(job)
    deadline = time.monotonic() + 120
    while export.poll(0.2) is None and time.monotonic() < deadline:
        pass
    outcome = export.poll()
    assert outcome == ExportOutcome(out, 30, 30, outcome.seconds) and export.progress == 1.0
    with av.open(str(out)) as container:
        stream = container.streams.video[0]
        assert (sum(1 for _ in container.decode(stream)), stream.width, stream.height) == (30, 96, 54)
        assert len(container.streams.audio) == 1                    # the demo's sound, as qdv render exports it


def test_a_failing_background_export_says_why(tmp_path) -> None:
    out = tmp_path / "qdv0000.mp4"
    job = WindowExport(str(tmp_path / "missing.dem"), DATA, 0.0, 1.0, 60, (64, 36), ShotCamera(), True, out)
    outcome = BackgroundExport(job).stop(timeout=120)
    assert outcome.error is not None and "missing.dem" in outcome.error and not out.exists()



@pytest.fixture(scope="module")
def renderer():
    demo = QUAKEWORLD / "lq_lqdm2_ranger.qwd"
    r = DemoRenderer(load_demo(demo), game_filesystem(str(demo), str(QUAKEWORLD), None), (64, 36))
    yield r
    r.release()


def test_stop_ends_a_recording_between_frames_with_a_playable_file(renderer, tmp_path) -> None:
    timeline = renderer.timeline
    out = plan_output(str(tmp_path / "x.mp4"), (64, 36))
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, 2.0, 4.0, 1.0, 10)
    done: list[int] = []
    result = record(renderer, ShotCamera(), times, out, progress=done.append, stop=lambda: len(done) >= 7)
    assert result.interrupted and not result.removed and (result.frames, result.total) == (7, 20)
    with av.open(str(out.path)) as container:
        assert sum(1 for _ in container.decode(video=0)) == 7


def test_orbit_follows_the_window_s_entity_and_holds_where_it_was_last_seen(renderer) -> None:
    timeline = renderer.timeline
    t = timeline.start_time + 3.0
    state = timeline.sample(t)
    number = int(state.entities.number[np.flatnonzero(state.entities.number > 0)[-1]])
    shot = ShotCamera("orbit", angles=(20.0, 45.0, 0.0), orbit_distance=120.0)
    world = renderer.session.use_segment(max(state.segment, 0)).assets.world
    o = state.entities.origin[np.flatnonzero(state.entities.number == number)[0]]
    target = (float(o[0]), float(o[1]), float(o[2]) + timeline.schema.orbit_height)   # the window's height
    view = ShotView(renderer, replace(shot, follow=number))
    followed = view.camera(t)
    assert followed == orbit_camera(world, target, yaw=45.0, pitch=20.0, distance=120.0)
    last, absent = target, 0
    for u in timeline.times[(timeline.times > t) & (timeline.times < t + 20.0)]:
        seen = timeline.sample(float(u))
        rows = np.flatnonzero(seen.entities.number == number)
        if len(rows):
            o = seen.entities.origin[rows[0]]
            last = (float(o[0]), float(o[1]), float(o[2]) + timeline.schema.orbit_height)
        absent += not len(rows)
        camera = view.camera(float(u))
        assert camera is not None and view.held == last                 # gone: held where it was last seen
    assert absent, "the followed entity leaves the frame within 20 s"
    assert ShotView(renderer, replace(shot, follow=99999)).camera(t) is None     # never seen: the player's eyes
