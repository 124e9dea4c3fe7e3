"""The clickable controls shown with the timeline bar (:mod:`viewer.ui.controls`): where each one is, what its
tooltip says, that each names a key the keyboard table knows, that they go with the bar, and that picking a player
watches that player as Tab would reach it."""

from __future__ import annotations

import numpy as np

from viewer import input as inp
from viewer.playback import PlaybackClock
from viewer.ui.controls import (ControlsStatus, PlayerEntry, ROW_HEIGHT, control_at, controls, controls_layout,
                                on_controls, tooltip_layout)
from viewer.ui.hint import hint_layout
from viewer.ui.key_row import KEY_ROW_HEIGHT
from viewer.ui.timeline_bar import bar_geometry
from viewer.viewer_state import FrameContext, TimelineInfo, ViewerState

G = bar_geometry((1280, 720), 0.0, 100.0, 48)
PLAYERS = (PlayerEntry(0, "LQ_Ranger", 3), PlayerEntry(1, "LQ_Warden", -2))


def by_name(items):
    return {c.name: c for c in items}


def test_row_sits_above_the_bar_in_order_and_fits_the_window() -> None:
    items = controls(G, ControlsStatus())
    row = [c for c in items if c.watch is None]
    assert [c.name for c in row] == ["step_back", "pause", "step_forward", "slower", "speed", "faster", "reverse",
                                     "pov", "free", "chase", "orbit", "hud", "bar", "mute", "volume_down",
                                     "volume_up", "screenshot", "export", "help"]
    for c in row:
        assert c.y + c.h == G.top and c.h == ROW_HEIGHT * G.scale          # the full scale fits 1280 pixels
        assert 0 <= c.x and c.x + c.w <= G.width
    for a, b in zip(row, row[1:]):
        assert a.x + a.w <= b.x                                            # left to right, never overlapping
    assert row[-1].x + row[-1].w == G.x1                                   # the tools end at the track's end


def test_row_goes_above_the_key_row_and_shrinks_in_a_narrow_window() -> None:
    with_keys = by_name(controls(G, ControlsStatus(has_path=True), has_keys=True))
    assert with_keys["pov"].y + with_keys["pov"].h == G.top - KEY_ROW_HEIGHT * G.scale
    assert with_keys["path"].key == "P"
    narrow = bar_geometry((800, 600), 0.0, 100.0)
    items = controls(narrow, ControlsStatus())
    assert all(c.x + c.w <= 800 for c in items) and items[0].h == ROW_HEIGHT * 1


def test_every_control_names_its_key_in_the_tooltip_and_the_key_does_the_same_in_the_key_table() -> None:
    items = by_name(controls(G, ControlsStatus(volume=0.7)))
    names = {"step_back": ("COMMA", "step"), "pause": ("SPACE", "toggle_pause"), "step_forward": ("PERIOD", "step"),
             "slower": ("DOWN", "speed"), "faster": ("UP", "speed"), "reverse": ("BACKSPACE", "reverse"),
             "pov": ("V", "camera"), "free": ("F", "camera"), "chase": ("C", "camera"),
             "orbit": ("R", "orbit_next"), "hud": ("H", "toggle_hud"), "bar": ("B", "toggle_bar"),
             "screenshot": ("F12", "screenshot"), "export": ("E", "export"), "help": ("F1", "help")}
    shown = {"COMMA": ",", "PERIOD": ".", "SPACE": "Space", "DOWN": "Down", "UP": "Up", "BACKSPACE": "Backspace",
             "E": "Ctrl+E", "MINUS": "-", "EQUAL": "=", "M": "M"}
    for name, (key, action) in names.items():
        c = items[name]
        assert c.key == key
        assert f"({shown.get(key, key)}" in c.tooltip or f"{shown.get(key, key)})" in c.tooltip, c.tooltip
        assert inp.key_action(c.key, c.modifiers).name == action
    for name in ("mute", "volume_down", "volume_up"):   # the sound's own keys (viewer.audio.output.SOUND_KEYS)
        assert f"({shown[items[name].key]})" in items[name].tooltip
    assert items["volume"].label == "70%" and not items["volume"].clickable
    assert items["speed"].label == "1x" and not items["speed"].clickable


def test_labels_follow_the_state() -> None:
    items = by_name(controls(G, ControlsStatus(speed=-0.25, paused=True, mode="chase", show_hud=False, volume=0.5,
                                               muted=True)))
    assert items["pause"].label == ">" and items["pause"].tooltip == "play (Space)" and items["pause"].lit
    assert items["speed"].label == "0.25x" and items["reverse"].lit
    assert items["chase"].lit and not items["pov"].lit and not items["hud"].lit
    assert items["mute"].lit and items["volume"].label == "off"
    assert "volume" not in by_name(controls(G, ControlsStatus(volume=None)))   # no sound device: no level shown


def test_players_are_listed_above_the_row_with_colours_scores_and_the_watched_one_lit() -> None:
    red, blue = (1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)
    players = (PlayerEntry(0, "LQ_Ranger", 3, red, blue), PlayerEntry(1, "LQ_Warden", -2))
    items = controls(G, ControlsStatus(players=players, watched=1))
    lines = [c for c in items if c.watch is not None]
    row_top = min(c.y for c in items if c.watch is None)
    assert [c.watch for c in lines] == [0, 1] and all(c.y + c.h <= row_top for c in lines)
    assert lines[0].label.split() == ["LQ_Ranger", "3"] and lines[1].label.split() == ["LQ_Warden", "-2"]
    assert lines[0].swatch == (red, blue) and lines[1].lit and not lines[0].lit
    assert "Tab" in lines[0].tooltip and "LQ_Ranger" in lines[0].tooltip
    layout = controls_layout(items)
    assert any(r.color == red for r in layout.rects) and any(r.color == blue for r in layout.rects)


def test_hit_testing_finds_each_control_at_its_middle_and_nothing_between() -> None:
    items = controls(G, ControlsStatus(players=PLAYERS))
    for c in items:
        middle = (c.x + c.w / 2, c.y + c.h / 2)
        assert on_controls(items, *middle)
        assert control_at(items, *middle) == (c if c.clickable else None)
    assert control_at(items, 640, 300) is None and not on_controls(items, 640, 300)
    assert control_at(items, 640, G.top + 5) is None                      # the bar itself is not a control


def test_tooltip_shows_over_the_hovered_control_and_stays_in_the_window() -> None:
    items = by_name(controls(G, ControlsStatus()))
    c = items["step_back"]
    tip = tooltip_layout(tuple(items.values()), (c.x + 2, c.y + 2), (1280, 720))
    assert [t.text for t in tip.texts] == ["one frame back (,)"]
    box = tip.rects[0]
    assert box.x >= 0 and box.y + box.h <= c.y
    assert tooltip_layout(tuple(items.values()), (640, 100), (1280, 720)).texts == ()


def _state() -> ViewerState:
    info = TimelineInfo(0.0, 100.0, np.linspace(0.0, 100.0, 1001), pov_slots=(0, 1))
    return ViewerState(info, PlaybackClock.for_range(0.0, 100.0), pov_slot=0)


def test_controls_go_with_the_bar_and_keep_it_shown_under_the_mouse() -> None:
    st = _state()
    st.controls = controls(st.geometry(), ControlsStatus())
    pause = by_name(st.controls)["pause"]
    st.update(5.0)
    st.hover = (pause.x + 1, pause.y + 1)
    assert st.bar_visible                      # the mouse rests on the controls: the bar stays
    st.hover = (640, 100)
    assert not st.bar_visible                  # elsewhere, idle while playing: bar and controls hide
    st.handle(inp.key_action("B"))
    st.hover = (pause.x + 1, pause.y + 1)
    assert not st.bar_visible                  # B hides the bar and with it the controls


def test_picking_a_player_watches_that_player() -> None:
    st = _state()
    st.mode = "free"
    st.handle(inp.Action("watch", 1))
    assert st.pov_slot == 1 and st.mode == "pov"          # an MVD: that player's eyes, as Tab reaches them
    st.handle(inp.Action("watch", 7))
    assert st.pov_slot == 1                               # not a player of the list: nothing changes
    info = TimelineInfo(0.0, 100.0, np.linspace(0.0, 100.0, 1001))
    single = ViewerState(info, PlaybackClock.for_range(0.0, 100.0))
    single.handle(inp.Action("watch", 3), FrameContext(players=(2, 3, 5)))
    assert single.mode == "orbit" and single.follow == 3   # one POV: the orbit camera follows that player


def test_first_run_hint_names_f1_and_fits_the_window() -> None:
    layout = hint_layout((1280, 720), 2)
    assert layout.texts[0].text.startswith("F1: keys")
    box = layout.rects[0]
    assert 0 <= box.x and box.x + box.w <= 1280
    small = hint_layout((320, 200), 2).rects[0]
    assert small.x >= 0 and small.x + small.w <= 320


def test_player_tooltip_goes_beside_its_line() -> None:
    items = controls(G, ControlsStatus(players=PLAYERS))
    line = next(c for c in items if c.watch == 1)
    tip = tooltip_layout(items, (line.x + 2, line.y + 2), (1280, 720))
    assert [t.text for t in tip.texts] == ["watch LQ_Warden (Tab: next)"]
    box = tip.rects[0]
    assert box.x + box.w <= line.x and line.y <= box.y and box.y + box.h <= line.y + line.h


def _palette() -> np.ndarray:
    """A palette whose index i is (i, 255 - i, 0): the colour tells which palette entry was taken."""
    return np.stack([np.arange(256), 255 - np.arange(256), np.zeros(256)], axis=1).astype(np.uint8)


def test_watch_list_of_the_mvd_sample_names_both_players_with_their_colours() -> None:
    from assets_loader.demos import load_demo
    from viewer.cli import sample_demo
    from viewer.watch_list import watch_list

    timeline = load_demo(sample_demo("lqdm2"))
    st = ViewerState.for_timeline(timeline, start=30.0)
    scene = timeline.sample(st.t, pov=st.pov_slot)
    entries, watched = watch_list(st, scene, (), _palette())
    board = scene.scoreboard
    assert [e.name for e in entries] == ["LQ_Ranger", "LQ_Warden"] and watched == st.pov_slot == 0
    for e in entries:
        p = board[e.watch]
        assert e.score == p.frags
        assert e.top[:2] == ((p.top * 16 + 8) / 255, (255 - p.top * 16 - 8) / 255)     # Sbar_ColorForMap's entry
    st.handle(inp.Action("watch", 1))
    assert watch_list(st, timeline.sample(st.t, pov=st.pov_slot), (), _palette())[1] == 1


def test_watch_list_of_a_quake3_demo_lights_the_recorder_then_the_picked_player() -> None:
    from assets_loader.demos import load_demo
    from tests.conftest import QUAKE3
    from viewer.watch_list import watch_list

    timeline = load_demo(QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71")
    st = ViewerState.for_timeline(timeline, start=30.0)
    scene = timeline.sample(st.t)
    entries, watched = watch_list(st, scene, (), _palette())
    assert [e.name for e in entries] == ["Tanisha", "Grism", "Kyonshi", "Penguin", "DemoCam"]
    assert watched == 4                                    # the recorder's own slot while its eyes are shown
    assert all(e.top == (1.0, 1.0, 1.0, 1.0) for e in entries)      # names without colour codes: white
    st.handle(inp.Action("watch", 2))
    assert st.pov_slot == 2 and watch_list(st, timeline.sample(st.t, pov=2), (), _palette())[1] == 2
