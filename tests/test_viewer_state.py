"""The window's pure state: clock actions, scrubbing, markers, camera modes (never moving the clock), the free
camera flying while paused, orbit/follow cycling, bar auto-hide and window requests."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

from assets_loader.demos.schema import STAT_NAMES
from assets_loader.demos.timeline import EntityStates, SceneState
from viewer.camera_path import CameraKey
from viewer.render.refdef import Camera
from viewer.cameras import FreeFly, Orbit
from viewer.input import Action, Movement
from viewer.playback import PlaybackClock
from viewer.ui.timeline_bar import Marker
from viewer.games.quake.actors import follow_candidates, is_actor_model, player_entities
from viewer.viewer_state import BAR_HIDE_DELAY, FrameContext, TimelineInfo, ViewerState

TIMES = np.arange(0.0, 60.01, 0.1) + 100.0       # a 60 s demo starting at 100 s, 10 frames a second
CAM = Camera((10.0, 20.0, 30.0), (5.0, 90.0, 0.0), 90.0)


def _state(markers=(), pov_slots=()) -> ViewerState:
    info = TimelineInfo(100.0, 160.0, TIMES, tuple(markers), tuple(pov_slots))
    return ViewerState(info, PlaybackClock.for_range(100.0, 160.0), size=(1280, 720))


def test_space_pauses_and_the_clock_stops() -> None:
    s = _state()
    s.update(1.0)
    assert s.t == pytest.approx(101.0)
    s.handle(Action("toggle_pause"))
    s.update(1.0)
    assert s.clock.paused and s.t == pytest.approx(101.0)


def test_seeks_jumps_home_end() -> None:
    s = _state()
    s.handle(Action("seek_by", 5.0))
    assert s.t == pytest.approx(105.0)
    s.handle(Action("seek_by", -30.0))
    assert s.t == 100.0                                   # clamped at the start
    s.handle(Action("jump_fraction", 0.5))
    assert s.t == pytest.approx(130.0)
    s.handle(Action("seek_end"))
    assert s.t == 160.0
    s.handle(Action("seek_start"))
    assert s.t == 100.0


def test_end_of_demo_pauses_and_never_quits() -> None:
    s = _state()
    s.handle(Action("seek_end"))
    s.update(0.1)
    assert s.clock.paused and s.t == 160.0
    assert s.take_requests() == []


def test_speed_and_reverse() -> None:
    s = _state()
    s.handle(Action("speed", +1))
    assert s.clock.speed == 2.0
    for _ in range(10):
        s.handle(Action("speed", -1))
    assert s.clock.speed == pytest.approx(0.1)
    s.handle(Action("reverse"))
    assert s.clock.speed == pytest.approx(-0.1)
    s.handle(Action("jump_fraction", 0.5))
    s.update(1.0)
    assert s.t == pytest.approx(129.9)


def test_frame_steps_pause_on_frame_times() -> None:
    s = _state()
    s.handle(Action("jump_fraction", 0.5))
    s.handle(Action("step", +1))
    assert s.clock.paused and s.t == pytest.approx(130.1)
    s.handle(Action("step", -1))
    s.handle(Action("step", -1))
    assert s.t == pytest.approx(129.9)


def test_marker_jumps() -> None:
    s = _state(markers=[Marker(110.0, "frag", "x"), Marker(140.0, "death", "y")])
    s.handle(Action("marker", +1))
    assert s.t == pytest.approx(109.0)
    s.handle(Action("marker", +1))
    assert s.t == pytest.approx(139.0)
    s.handle(Action("marker", +1))                        # none left: stays
    assert s.t == pytest.approx(139.0)
    s.handle(Action("marker", -1))
    assert s.t == pytest.approx(109.0)


def test_scrubbing_follows_the_mouse_and_holds_the_clock() -> None:
    s = _state()
    g = s.geometry()
    s.handle(Action("scrub_begin", g.x_of(120.0)))
    assert s.scrubbing and s.t == pytest.approx(120.0, abs=0.05)
    s.update(1.0)
    assert s.t == pytest.approx(120.0, abs=0.05)          # the clock waits while the button is held
    for t in (125.0, 150.0, 110.0):
        s.handle(Action("scrub_move", g.x_of(t)))
        assert s.t == pytest.approx(t, abs=0.05)
    s.handle(Action("scrub_end"))
    s.update(1.0)
    assert s.t == pytest.approx(111.0, abs=0.05)


def test_bar_auto_hides_while_playing_and_shows_on_mouse_move() -> None:
    s = _state()
    assert s.bar_visible
    s.update(BAR_HIDE_DELAY + 0.1)
    assert not s.bar_visible
    s.handle(Action("hover", 100, 100))
    assert s.bar_visible
    s.update(BAR_HIDE_DELAY + 0.1)
    assert not s.bar_visible
    g = s.geometry()
    s.handle(Action("hover", 100, g.top + 5))             # resting on the bar keeps it up
    s.update(BAR_HIDE_DELAY + 0.1)
    assert s.bar_visible and s.on_bar(100, g.top + 5)
    s.handle(Action("leave"))
    assert not s.bar_visible
    s.handle(Action("toggle_pause"))                      # paused: always shown
    assert s.bar_visible
    s.handle(Action("toggle_bar"))                        # B: spoiler-free
    assert not s.bar_visible and not s.on_bar(100, g.top + 5)


def test_free_camera_starts_at_the_view_and_flies_while_paused() -> None:
    s = _state()
    s.handle(Action("toggle_pause"))
    t = s.t
    s.handle(Action("camera", 1), FrameContext(CAM))
    assert s.mode == "free" and s.free == FreeFly.from_camera(CAM)
    assert s.camera_for(None) == FreeFly.from_camera(CAM).camera(90.0)
    s.update(0.5, Movement(forward=1.0))
    x, y, z = s.free.origin
    assert y == pytest.approx(20.0 + 160.0 * np.cos(np.radians(5.0)), abs=1e-3)   # yaw 90: +Y, 320 u/s
    s.handle(Action("look", 10, 0))
    assert s.free.angles[1] != CAM.angles[1]
    assert s.t == t                                        # cameras never move the clock
    s.handle(Action("camera", 1), FrameContext(CAM))       # F again: back to POV
    assert s.mode == "pov" and s.camera_for(None) is None


def test_free_camera_keeps_flying_while_scrubbing() -> None:
    s = _state()
    s.handle(Action("camera", 1), FrameContext(CAM))
    s.handle(Action("scrub_begin", s.geometry().x_of(130.0)))
    before = s.free.origin
    s.update(0.25, Movement(right=1.0, fast=True))
    assert s.free.origin != before


def test_chase_and_orbit_cameras() -> None:
    s = _state()
    scene = _scene({1: (0.0, 0.0, 0.0), 5: (100.0, 0.0, 0.0)}, view_entity=1)
    s.handle(Action("camera", 2), FrameContext(CAM))
    assert s.mode == "chase"
    cam = s.camera_for(scene)
    assert cam is not None and cam.origin[0] < 0                 # behind the eye looking along +X
    s.handle(Action("zoom", -2))
    assert s.chase_back == 140.0
    s.handle(Action("camera", 2), FrameContext(CAM))
    assert s.mode == "pov"
    ctx = FrameContext(CAM, (1, 5), (1,))
    s.handle(Action("orbit_next", +1), ctx)
    assert s.mode == "orbit" and s.follow == 1
    assert s.orbit.yaw == CAM.angles[1]                          # starts looking the way the view looked
    s.handle(Action("orbit_next", +1), ctx)
    assert s.follow == 5
    cam = s.camera_for(scene)
    assert np.linalg.norm(np.subtract(cam.origin, (100.0, 0.0, 16.0))) == pytest.approx(s.orbit.distance)
    s.handle(Action("orbit_next", +1), ctx)
    assert s.follow == 1                                          # wraps
    s.handle(Action("orbit_next", -1), ctx)
    assert s.follow == 5
    s.handle(Action("zoom", 1))
    assert s.orbit.distance < Orbit().distance
    before = s.orbit
    s.handle(Action("look", 20, 5))
    assert s.orbit != before
    cam = s.camera_for(scene)
    gone = _scene({1: (0.0, 0.0, 0.0)}, view_entity=1)           # the followed entity vanished: hold position
    assert s.camera_for(gone) == cam
    s.handle(Action("camera", 0))
    assert s.mode == "pov"


def test_tab_cycles_pov_slots_when_the_demo_has_them() -> None:
    s = _state(pov_slots=(0, 2, 3))
    for expected in (0, 2, 3, 0):
        s.handle(Action("player", +1))
        assert s.pov_slot == expected and s.mode == "pov"
    s.handle(Action("player", -1))
    assert s.pov_slot == 3


def test_tab_follows_players_in_a_netquake_demo() -> None:
    s = _state()
    s.handle(Action("player", +1), FrameContext(CAM, (1, 2, 9), (1, 2)))
    assert s.mode == "orbit" and s.follow == 1
    s.handle(Action("player", +1), FrameContext(CAM, (1, 2, 9), (1, 2)))
    assert s.follow == 2


def test_toggles_and_requests() -> None:
    s = _state()
    for name, attr in (("toggle_scores", "show_scores"), ("toggle_hud", "show_hud"), ("help", "show_help")):
        before = getattr(s, attr)
        s.handle(Action(name))
        assert getattr(s, attr) is not before
    s.handle(Action("escape"))                  # closes the help first
    assert not s.show_help and s.take_requests() == []
    for name in ("screenshot", "fullscreen", "escape", "quit"):
        s.handle(Action(name))
    assert s.take_requests() == ["screenshot", "fullscreen", "escape", "quit"]
    assert s.take_requests() == []
    s.handle(Action("no_such_action"))          # unknown actions are ignored


def test_map_mode_is_free_only_and_has_no_bar() -> None:
    s = ViewerState.for_map(CAM)
    assert s.mode == "free" and not s.has_demo and not s.bar_visible
    s.handle(Action("camera", 0), FrameContext(CAM))
    s.handle(Action("toggle_pause"))
    assert s.mode == "free" and not s.clock.paused
    s.update(0.1, Movement(up=1.0))
    assert s.free.origin[2] == pytest.approx(30.0 + 32.0)


def test_actor_models_and_candidates() -> None:
    assert is_actor_model("progs/player.mdl") and is_actor_model("progs/Soldier.mdl")
    assert not is_actor_model("progs/h_player.mdl") and not is_actor_model("progs/v_shot.mdl")
    assert not is_actor_model("maps/b_bh25.bsp")
    precache = ("", "maps/x.bsp", "progs/player.mdl", "progs/dog.mdl", "progs/gib1.mdl")
    scene = _scene({1: (0, 0, 0), 2: (1, 0, 0), 7: (2, 0, 0), 8: (3, 0, 0)}, view_entity=2,
                   models={1: 2, 2: 2, 7: 3, 8: 4})
    assert follow_candidates(scene, precache) == (2, 1, 7)      # recorder, other players, monsters
    assert player_entities(scene, precache) == (1, 2)


def test_for_timeline_starts_at_the_requested_time_and_speed(sample_timeline) -> None:
    s = ViewerState.for_timeline(sample_timeline, start=12.0, speed=2.0)
    assert s.t == pytest.approx(sample_timeline.start_time + 12.0)
    assert s.clock.speed == 2.0 and s.mode == "pov" and s.pov_slot is None
    assert s.info.end == sample_timeline.end_time


@pytest.fixture(scope="module")
def sample_timeline():
    from assets_loader.demos import load_demo
    from viewer.cli import sample_demo

    return load_demo(sample_demo("lq1"))


def _scene(positions: dict[int, tuple[float, float, float]], view_entity: int = 1,
           models: dict[int, int] | None = None) -> SceneState:
    numbers = sorted(positions)
    n = len(numbers)
    i4 = lambda vals: np.asarray(vals, np.int32)   # noqa: E731
    ents = EntityStates(
        i4(numbers), i4([(models or {}).get(k, 2) for k in numbers]), i4([0] * n), i4([0] * n),
        np.ones(n, np.float32), i4([0] * n), i4([0] * n), i4([0] * n),
        np.asarray([positions[k] for k in numbers], np.float32).reshape(n, 3), np.zeros((n, 3), np.float32),
        np.ones(n, np.float32), np.ones(n, np.float32))
    stats = MappingProxyType(dict.fromkeys(STAT_NAMES, 0))
    return SceneState(120.0, 0, 0, 1.0, view_entity, np.array([0.0, 0.0, 22.0]), np.zeros(3), ents,
                      EntityStates.empty(), stats, ("",) * 64, ())


def test_mvd_markers_follow_the_watched_player() -> None:
    """In an MVD, a frag of the watched player is a frag; the same event is a death from the victim's eyes."""
    from assets_loader.demos import load_demo
    from tests.conftest import QUAKEWORLD

    tl = load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    info = TimelineInfo.of(tl)
    board = {p.name: p.slot for p in tl.final_scoreboard()}
    kill = next(e for e in tl.events_of_kind("obituary")
                if e.killer in board and e.victim in board and board[e.killer] in info.pov_slots
                and board[e.victim] in info.pov_slots and e.killer != e.victim)
    def kind_at(slot):
        return next(m.kind for m in info.markers_for(slot) if abs(m.time - kill.time) < 1e-9 and m.kind != "kill")
    assert kind_at(board[kill.killer]) == "frag"
    assert kind_at(board[kill.victim]) == "death"


def test_mouse_look_captures_turns_by_sensitivity_and_esc_releases() -> None:
    s = _state()
    s.sensitivity = 5.0
    s.handle(Action("mouse_look_move", 100, 0))            # not captured: nothing turns
    assert s.mode == "pov" and s.free is None
    s.handle(Action("mouse_look"), FrameContext(CAM))      # from the recorder's eyes: a free camera there
    assert s.mouse_look and s.mode == "free" and s.free == FreeFly.from_camera(CAM)
    assert s.take_requests() == ["capture_mouse"]
    s.handle(Action("mouse_look_move", 100, 50))           # right and up: yaw down, pitch up (smaller)
    pitch, yaw, _ = s.free.angles
    assert yaw == pytest.approx(90.0 - 100 * 5.0 * 0.022)
    assert pitch == pytest.approx(5.0 - 50 * 5.0 * 0.022)
    s.handle(Action("escape"))                             # Esc releases the mouse first, never quits
    assert not s.mouse_look and s.take_requests() == ["release_mouse"]
    s.handle(Action("escape"))
    assert s.take_requests() == ["escape"]


def test_mouse_look_inverted_and_toggled_off_by_the_same_action() -> None:
    s = _state()
    s.invert_mouse = True
    s.handle(Action("mouse_look"), FrameContext(CAM))
    s.handle(Action("mouse_look_move", 0, 10))
    assert s.free.angles[0] == pytest.approx(5.0 + 10 * 3.0 * 0.022)   # up looks down
    s.handle(Action("mouse_look"))
    assert not s.mouse_look and s.take_requests() == ["capture_mouse", "release_mouse"]
    s.handle(Action("toggle_fps"))
    assert s.show_fps
    s.handle(Action("open"))
    assert s.take_requests() == ["open"]


def test_mouse_look_without_a_view_does_nothing() -> None:
    s = _state()
    s.handle(Action("mouse_look"), FrameContext(None))
    assert not s.mouse_look and s.take_requests() == []


# --- camera path editing: K, Shift+K, Delete, Ctrl+K, P, Ctrl+S and the key row ---------------------------------


def _free_state() -> ViewerState:
    s = _state()
    s.handle(Action("toggle_pause"))
    s.handle(Action("camera", 1), FrameContext(camera=CAM))
    return s


def test_k_adds_keys_with_the_free_camera_pose_at_the_demo_time() -> None:
    s = _free_state()
    s.handle(Action("seek_by", 5.0))
    s.handle(Action("key_add"))
    s.update(0.5, Movement(forward=1.0))                 # fly 160 units along +y (yaw 90, pitch 5)
    s.handle(Action("seek_by", 5.0))
    s.handle(Action("key_add"))
    keys = s.path_edit.path.keys
    assert [k.time for k in keys] == [5.0, 10.0] and s.path_edit.selected == 1
    assert keys[0].origin == CAM.origin and keys[0].angles == CAM.angles and keys[0].fov == s.fov
    assert keys[1].origin[1] > keys[0].origin[1] + 150
    assert s.take_messages() == ["camera key 1 of 1 added at 0:05.0", "camera key 2 of 2 added at 0:10.0"]


def test_k_outside_the_free_camera_takes_the_picture_s_camera_and_needs_a_demo() -> None:
    s = _state()
    s.handle(Action("key_add"), FrameContext(camera=CAM))
    assert s.path_edit.path.keys[0].origin == CAM.origin and s.mode == "pov"
    m = ViewerState.for_map(CAM)
    m.handle(Action("key_add"))
    assert m.path_edit.path.keys == () and m.take_messages() == ["camera keys need a demo playing"]


def test_shift_k_replaces_and_delete_removes_the_selected_key() -> None:
    s = _free_state()
    s.handle(Action("key_add"))
    s.handle(Action("seek_by", 5.0))
    s.handle(Action("key_add"))
    s.free = FreeFly((1.0, 2.0, 3.0), (0.0, 45.0, 0.0))
    s.handle(Action("key_replace"))
    assert s.path_edit.path.keys[1] == CameraKey(5.0, (1.0, 2.0, 3.0), (0.0, 45.0, 0.0), 90.0)
    s.handle(Action("key_delete"))
    assert [k.time for k in s.path_edit.path.keys] == [0.0] and s.path_edit.selected == 0
    assert s.take_messages()[-2:] == ["camera key 2 at 0:05.0: pose replaced",
                                      "camera key 2 at 0:05.0 deleted (1 left)"]


def test_p_toggles_the_path_camera_and_back_to_the_camera_before() -> None:
    s = _free_state()
    s.handle(Action("path_camera"))
    assert s.mode == "free" and s.take_messages() == ["no camera keys yet: K adds one at this time from the view"]
    s.handle(Action("key_add"))
    s.handle(Action("path_camera"))
    scene = _scene({1: (0.0, 0.0, 0.0)})
    camera = s.camera_for(scene)
    assert s.mode == "path" and camera.origin == CAM.origin and camera.angles == pytest.approx(CAM.angles)
    s.handle(Action("path_camera"))
    assert s.mode == "free"
    s.handle(Action("path_camera"))
    s.handle(Action("key_delete"))                     # the last key gone: the path camera ends
    assert s.mode == "free"


def test_ctrl_k_aims_the_selected_key_at_the_watched_player_and_again_clears_it() -> None:
    s = _free_state()
    s.handle(Action("key_add"))
    scene = _scene({1: (0.0, 0.0, 0.0), 3: (10.0, 500.0, 60.0)})    # 3 is straight ahead of CAM (yaw 90)
    ctx = FrameContext(camera=CAM, players=(1, 3), scene=scene)
    s.handle(Action("key_look_at"), ctx)
    assert s.path_edit.key.look_at == 3
    s.handle(Action("key_look_at"), ctx)
    assert s.path_edit.key.look_at is None
    s.handle(Action("camera", 0))                       # POV: the recorder (view entity 1)
    s.handle(Action("key_look_at"), ctx)
    assert s.path_edit.key.look_at == 1


def test_ctrl_s_asks_the_window_to_save_only_a_path_with_keys() -> None:
    s = _free_state()
    s.handle(Action("path_save"))
    assert s.take_requests() == [] and s.take_messages() == ["no camera keys to save: K adds one"]
    s.handle(Action("key_add"))
    s.handle(Action("path_save"))
    assert s.take_requests() == ["save_path"]


def test_clicking_a_key_mark_selects_it_and_jumps_there_dragging_moves_it() -> None:
    s = _free_state()
    for _ in range(3):
        s.handle(Action("key_add"))
        s.handle(Action("seek_by", 10.0))              # keys at 0, 10, 20 s
    g = s.geometry()
    x = g.x_of(110.0)
    assert s.key_mark_at(x + 3, g.top - 5) == 1 and s.on_bar(x, g.top - 5)
    s.handle(Action("key_grab", 1, x + 3))
    assert s.path_edit.selected == 1 and s.t == 110.0 and s.take_messages()[-1] == "camera key 2 at 0:10.0 selected"
    s.handle(Action("key_drag", g.x_of(125.0) + 3))     # past the third key: the path re-sorts
    assert [k.time for k in s.path_edit.path.keys] == pytest.approx([0.0, 20.0, 25.0])
    assert s.path_edit.selected == 2 and s.t == pytest.approx(125.0)
    s.update(1.0)                                         # the clock holds while a key is dragged
    assert s.t == pytest.approx(125.0)
    s.handle(Action("key_drop"))
    assert s.key_grab is None and s.take_messages() == ["camera key 3 at 0:25.0: moved from 0:10.0"]
    s.handle(Action("key_grab", 2, g.x_of(125.0)))
    s.handle(Action("key_drop"))                          # a click without a drag moves nothing
    assert s.take_messages() == ["camera key 3 at 0:25.0 selected"]


def test_mouse_look_from_the_path_camera_flies_on_from_its_pose() -> None:
    s = _free_state()
    s.handle(Action("key_add"))
    s.handle(Action("path_camera"))
    path_camera = Camera((1.0, 2.0, 3.0), (0.0, 30.0, 0.0), 80.0)      # the picture the window drew
    s.handle(Action("mouse_look"), FrameContext(path_camera))
    assert s.mode == "free" and s.mouse_look and s.free == FreeFly.from_camera(path_camera)
