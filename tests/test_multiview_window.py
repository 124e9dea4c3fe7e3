"""Multiview in the window: the pure state (G cycles the layouts, a click selects a pane, the camera keys act on the
selected pane only, Ctrl+E exports every pane heard from the selected one) and the real window under Xvfb driven by
xdotool (four panes of the QuakeWorld sample that differ, the selected pane framed, G to the insets, a click on the
first inset then C turns only that inset into the chase camera, F12 saves what the window shows), and Ctrl+E's
export of four panes (one video with sound, each frame the panes' picture). The captures are kept as PNGs in the
test's temporary folder."""

from __future__ import annotations

import time

import av
import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from tests.xwindow import grab, keys, start_play, stop, xdotool
from viewer.camera_pose import ShotCamera
from viewer.cameras import FreeFly
from viewer.cli import sample_demo
from viewer.headless import DemoRenderer
from viewer.input import MOUSE_LEFT, MOUSE_RIGHT, Action, key_action, pane_press
from viewer.multiview.draw import HIGHLIGHT
from viewer.multiview.layout import pane_rects
from viewer.multiview.panes import MultiShot
from viewer.playback import PlaybackClock
from viewer.render.refdef import Camera
from viewer.scene import pov_camera
from viewer.session import game_filesystem
from viewer.video.background import BackgroundExport, GameData, export_for_view
from viewer.video.shot import shot_view
from viewer.viewer_state import FrameContext, TimelineInfo, ViewerState

LQDM2 = sample_demo("lqdm2")
CAM = Camera((10.0, 20.0, 30.0), (5.0, 90.0, 0.0), 90.0)


@pytest.fixture(scope="module")
def timeline():
    return load_demo(LQDM2)


def _modes(state: ViewerState) -> list[tuple[str, int | None]]:
    return [(shot.mode, shot.pov) for shot in state.pane_shots()]


# --- the pure state -----------------------------------------------------------------------------------------------

def test_g_steps_through_the_layouts(timeline):
    state = ViewerState.for_timeline(timeline)
    assert (state.panes.count, state.pane_rects()) == (1, pane_rects(1, (1280, 720)))
    seen = []
    for _ in range(4):
        state.handle(key_action("G"))
        seen.append((state.panes.count, state.panes.layout))
    assert seen == [(2, "split"), (4, "split"), (4, "inset"), (1, "split")]
    assert state.take_messages() == ["multiview: 2 panes, split", "multiview: 4 panes, split",
                                     "multiview: 4 panes, inset", "multiview off"]


def test_the_camera_keys_act_on_the_selected_pane(timeline):
    state = ViewerState.for_timeline(timeline)
    state.handle(Action("layout"))
    state.handle(Action("layout"))
    assert _modes(state) == [("pov", 0), ("pov", 1), ("chase", 0), ("chase", 1)]
    state.handle(Action("select_pane", 1))
    assert (state.panes.selected, state.pov_slot) == (1, 1)
    state.handle(key_action("C"))                                   # chase: only pane 1
    assert _modes(state) == [("pov", 0), ("chase", 1), ("chase", 0), ("chase", 1)]
    state.handle(Action("select_pane", 3))
    state.handle(key_action("TAB"))                                 # pane 3 watches the next player's eyes
    assert _modes(state) == [("pov", 0), ("chase", 1), ("chase", 0), ("pov", 0)]
    state.handle(Action("select_pane", 0))
    state.handle(key_action("F"), FrameContext(CAM))                # pane 0 flies from where it looks
    assert state.pane_shots()[0] == ShotCamera("free", 0, 90.0, CAM.origin, (5.0, 90.0, 0.0))
    state.handle(Action("select_pane", 1))
    assert (state.mode, state.pov_slot) == ("chase", 1)               # pane 1 as it was left
    state.handle(Action("select_pane", 7))                          # no such pane: nothing changes
    assert state.panes.selected == 1


def test_fewer_panes_hand_the_selection_back_to_the_first(timeline):
    state = ViewerState.for_timeline(timeline)
    for _ in range(2):
        state.handle(Action("layout"))
    state.handle(Action("select_pane", 3))
    state.handle(key_action("V"))
    state.handle(Action("layout"))      # 4 inset: pane 3 stays
    assert state.panes.selected == 3
    state.handle(Action("layout"))      # back to one view: pane 0's camera again
    assert (state.panes.count, state.panes.selected, state.mode, state.pov_slot) == (1, 0, "pov", 0)
    state.handle(Action("layout"))
    state.handle(Action("layout"))
    assert _modes(state)[3] == ("pov", 1)                           # pane 3 kept what V made of it


def test_ctrl_e_exports_every_pane_heard_from_the_selected_one(timeline):
    state = ViewerState.for_timeline(timeline)
    assert state.export_shot() == state.shot()
    state.handle(Action("layout"))
    state.handle(Action("select_pane", 1))
    shot = state.export_shot()
    assert shot == MultiShot((ShotCamera("pov", 0), ShotCamera("pov", 1)), "split", heard=1)
    assert shot.mode == "multiview 2 split"


def test_the_window_starts_with_the_panes_asked_for(timeline):
    multi = MultiShot((ShotCamera("chase", 1), ShotCamera("orbit", 0, angles=(30.0, 45.0, 0.0))), "inset")
    state = ViewerState.for_timeline(timeline, multi=multi)
    assert (state.panes.count, state.panes.layout, state.mode, state.pov_slot) == (2, "inset", "chase", 1)
    orbit = state.pane_shots()[1]
    assert (orbit.mode, orbit.pov, orbit.angles) == ("orbit", 0, (30.0, 45.0, 0.0))


def test_a_free_pane_starts_at_its_players_eye_and_orbits_hold_their_own_targets(timeline):
    multi = MultiShot((ShotCamera("pov", 0), ShotCamera("free", 1), ShotCamera("orbit", 0), ShotCamera("orbit", 1)))
    state = ViewerState.for_timeline(timeline, start=30.0, multi=multi)
    t = state.t
    scenes = [timeline.sample(t, pov=shot.pov) for shot in state.pane_shots()]
    cameras = [state.pane_camera_for(i, scene) for i, scene in enumerate(scenes)]
    assert cameras[0] is None                                        # the player's own eyes
    eye = pov_camera(scenes[1])
    assert cameras[1] == FreeFly.from_camera(eye).camera(90.0)
    held = [state.panes.cameras[i].last_target for i in (2, 3)]
    assert held[0] is not None and held[1] is not None and held[0] != held[1]
    assert held[0][2] == pytest.approx(float(scenes[2].view_origin[2]) - 22.0 + 16.0, abs=30.0)


def test_keys_and_clicks():
    assert key_action("G") == Action("layout")
    assert pane_press(2, 0, MOUSE_LEFT) == Action("select_pane", 2)
    assert pane_press(0, 0, MOUSE_LEFT) is None        # already selected: the press is a look drag
    assert pane_press(None, 0, MOUSE_LEFT) is None     # a gap
    assert pane_press(1, 0, MOUSE_RIGHT) is None


def test_a_map_without_a_demo_has_one_view():
    state = ViewerState.for_map(CAM)
    state.handle(Action("layout"))
    assert state.panes.count == 1


# --- the real window ----------------------------------------------------------------------------------------------

def _settled(display: str, pause: float = 0.6) -> np.ndarray:
    time.sleep(pause)
    return grab(display)[:720, :1280]


def _framed(px: np.ndarray, rect, colour) -> bool:
    """The left edge of ``rect`` (the middle third of its height) is drawn in ``colour``."""
    column = px[rect.y + rect.h // 3:rect.y + 2 * rect.h // 3, rect.x]
    return bool(np.all(np.abs(column.astype(int) - colour).max(axis=1) <= 2))


def test_real_window_multiview(display, tmp_path):
    shots_dir = tmp_path / "shots"
    highlight = np.rint(np.array(HIGHLIGHT) * 255).astype(int)
    px: dict[str, np.ndarray] = {}
    proc, window = start_play(display, LQDM2, "--multiview", "4", "--start", "30", "--size", "1280x720",
                              "--shots", str(shots_dir), config=tmp_path / "config")
    try:
        keys(display, window, "space", "b")                    # paused, the bar hidden: only the keys change it
        px["split"] = _settled(display)
        keys(display, window, "g")
        time.sleep(3.0)                                        # the "multiview: 4 panes, inset" message goes
        px["inset"] = _settled(display)
        inset = pane_rects(4, (1280, 720), "inset")
        xdotool(display, "mousemove", "--window", window, str(inset[1].x + 40), str(inset[1].y + 40))
        xdotool(display, "click", "1")
        px["selected"] = _settled(display)
        keys(display, window, "c")                             # LQ_Warden's eyes in inset 1 become his chase
        px["chase"] = _settled(display)
        keys(display, window, "F12")
        time.sleep(1.0)
        alive = proc.poll() is None
    finally:
        stop(proc)
    for name, picture in px.items():
        Image.fromarray(picture).save(tmp_path / f"{name}.png")
    assert alive
    split = pane_rects(4, (1280, 720))
    quarter = [px["split"][r.y:r.y + split[3].h, r.x:r.x + split[3].w] for r in split]
    for i, a in enumerate(quarter):
        for b in quarter[i + 1:]:
            assert np.any(a != b, axis=2).mean() > 0.2
    assert _framed(px["split"], split[0], highlight) and not _framed(px["split"], split[1], highlight)
    assert _framed(px["inset"], inset[0], highlight)
    assert _framed(px["selected"], inset[1], highlight) and not _framed(px["selected"], inset[0], highlight)

    def region(picture: np.ndarray, rect) -> np.ndarray:
        return picture[rect.y + 3:rect.y + rect.h - 3, rect.x + 3:rect.x + rect.w - 3]

    changed = [np.any(region(px["chase"], r) != region(px["selected"], r), axis=2).mean() for r in inset[1:]]
    assert changed[0] > 0.3 and changed[1] == 0.0 and changed[2] == 0.0    # C changed only inset 1
    saved = sorted(shots_dir.glob("*.png"))
    assert len(saved) == 1
    shot = np.asarray(Image.open(saved[0]).convert("RGB"))
    assert shot.shape == (720, 1280, 3)
    assert np.any(shot != px["chase"], axis=2).mean() < 0.01     # F12 saved what the window showed


def test_ctrl_e_writes_the_panes_into_one_video(timeline, tmp_path):
    """The window's export of a 4-pane state (in its child process, as Ctrl+E runs it): one video of the panes."""
    state = ViewerState.for_timeline(timeline, start=30.0, size=(320, 180))
    state.handle(Action("layout"))
    state.handle(Action("layout"))
    state.handle(Action("mark_in"))
    state.clock = state.clock.seek(state.t + 0.05)
    state.handle(Action("mark_out"))
    job = export_for_view(state, LQDM2, GameData.of(game_filesystem(LQDM2, None, None)), tmp_path / "cast.mp4")
    assert job.shot == state.export_shot() and job.shot.mode == "multiview 4 split"
    outcome = BackgroundExport(job).poll(timeout=240.0)
    assert outcome is not None and outcome.error is None, outcome
    with av.open(str(tmp_path / "cast.mp4")) as container:
        assert container.streams.audio                          # heard from the selected pane
        first = next(container.decode(video=0)).to_ndarray(format="rgb24")
    assert first.shape == (180, 320, 3)
    renderer = DemoRenderer(timeline, game_filesystem(LQDM2, None, None), (320, 180), hud=True)
    try:
        t = timeline.start_time + job.first
        panes = shot_view(renderer, job.shot, t).pixels(t)      # the same panes drawn headless
    finally:
        renderer.release()
    assert np.abs(first.astype(int) - panes).mean() < 4           # the video is that picture, up to H.264's loss
    rects = pane_rects(4, (320, 180))
    quarter = [panes[r.y:r.y + rects[3].h, r.x:r.x + rects[3].w] for r in rects]
    for i, a in enumerate(quarter):
        for b in quarter[i + 1:]:
            assert np.any(a != b, axis=2).mean() > 0.2


def test_a_state_made_without_panes_gets_them():
    info = TimelineInfo(0.0, 10.0, np.arange(0.0, 10.0, 0.1), pov_slots=(2, 5))
    state = ViewerState(info, PlaybackClock.for_range(0.0, 10.0))
    state.handle(Action("layout"))
    assert _modes(state) == [("pov", None), ("pov", 5)]      # pane 0 keeps the state's own camera
