"""The timeline bar layout: geometry and hit-testing, x ↔ time, markers from events, marker jumps, hover tooltip,
and the layout the renderer turns into vertices."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos.events import (CenterPrintEvent, CutsceneEvent, IntermissionEvent, ObituaryEvent,
                                        PrintEvent, RoundEvent, ServerInfoEvent)
from viewer.render.ui_overlay import UiRenderer
from viewer.ui import timeline_bar as tl
from viewer.ui.timeline_bar import (BarStatus, Marker, bar_geometry, format_time, markers_from_events, nearest_marker,
                                next_marker_time, text_box_layout, timeline_layout)

SIZE = (1280, 720)


def _events():
    return [
        ServerInfoEvent(0.0, 0, 0, "dm3", "The Abandoned Base", 15, 4),
        PrintEvent(1.0, 1, 0, "hello\n"),
        ObituaryEvent(10.0, 5, 0, "Bob", "Alice", "rocket", False, "Bob rides Alice's rocket\n"),
        ObituaryEvent(20.0, 9, 0, "Alice", "Bob", "shotgun", False, "Alice chewed on Bob's boomstick\n"),
        ObituaryEvent(25.0, 11, 0, "Carl", "Bob", "nail", False, "Carl was nailed by Bob\n"),
        CenterPrintEvent(30.0, 12, 0, "You found a secret area!\nwell done"),
        IntermissionEvent(50.0, 20, 0),
        ServerInfoEvent(60.0, 21, 1, "dm4", "The Bad Place", 15, 4),
        CutsceneEvent(70.0, 25, 1, ""),
    ]


def test_markers_from_events_classify_frags_deaths_and_more() -> None:
    markers = markers_from_events(_events(), recorder="Alice")
    kinds = [(m.time, m.kind) for m in markers]
    assert kinds == [(10.0, "frag"), (20.0, "death"), (25.0, "kill"), (30.0, "centerprint"),
                     (50.0, "intermission"), (60.0, "map"), (70.0, "intermission")]
    assert markers[0].label == "Bob rides Alice's rocket"
    assert markers[3].label == "You found a secret area!"      # first line only
    assert "dm4" in markers[5].label and "The Bad Place" in markers[5].label


def test_first_serverinfo_is_not_a_map_change() -> None:
    assert markers_from_events(_events()[:2]) == ()


def test_unknown_recorder_makes_every_obituary_a_kill() -> None:
    assert {m.kind for m in markers_from_events(_events()) if m.time < 30} == {"kill"}


def test_geometry_maps_x_to_time_and_back() -> None:
    g = bar_geometry(SIZE, 100.0, 160.0)
    assert g.scale == 2
    assert g.time_at(g.x0) == 100.0 and g.time_at(g.x1) == 160.0
    assert g.time_at(-50) == 100.0 and g.time_at(5000) == 160.0          # clamped
    assert g.time_at((g.x0 + g.x1) / 2) == pytest.approx(130.0)
    for t in (100.0, 117.5, 160.0):
        assert g.time_at(g.x_of(t)) == pytest.approx(t)


def test_bar_sits_above_the_status_bar_and_hit_tests() -> None:
    g = bar_geometry(SIZE, 0.0, 60.0, bottom_margin=96)
    assert g.bottom == 720 - 96
    assert g.top == g.bottom - tl.BAR_HEIGHT * 2
    assert g.contains(10, g.top) and g.contains(1279, g.bottom - 1)
    assert not g.contains(10, g.top - 1) and not g.contains(10, g.bottom)      # the status bar is not the bar
    assert not g.contains(-1, g.top + 5) and not g.contains(1280, g.top + 5)


def test_scale_follows_the_window() -> None:
    assert tl.ui_scale((640, 480)) == 1
    assert tl.ui_scale((1280, 720)) == 2
    assert tl.ui_scale((1920, 1080)) == 3
    assert tl.ui_scale((200, 100)) == 1


def test_format_time() -> None:
    assert format_time(0) == "0:00.0"
    assert format_time(65.44) == "1:05.4"
    assert format_time(3725.0) == "1:02:05.0"
    assert format_time(-5) == "-0:05.0"


def test_next_and_previous_marker_land_before_the_event() -> None:
    markers = [Marker(10.0, "frag", "a"), Marker(20.0, "death", "b")]
    assert next_marker_time(markers, 0.0, +1) == pytest.approx(9.0)
    assert next_marker_time(markers, 9.0, +1) == pytest.approx(19.0)        # pressing again moves on
    assert next_marker_time(markers, 19.0, +1) is None
    assert next_marker_time(markers, 19.0, -1) == pytest.approx(9.0)
    assert next_marker_time(markers, 9.0, -1) is None
    assert next_marker_time(markers, 30.0, -1) == pytest.approx(19.0)
    assert next_marker_time([], 5.0, 1) is None


def test_layout_played_and_remaining_split_at_the_head() -> None:
    g = bar_geometry(SIZE, 0.0, 100.0)
    layout = timeline_layout(g, [], 25.0)
    played = [r for r in layout.rects if r.color == tl.PLAYED_COLOR][0]
    remaining = [r for r in layout.rects if r.color == tl.REMAINING_COLOR][0]
    assert played.x == g.x0 and played.x + played.w == pytest.approx(g.x_of(25.0))
    assert remaining.x == pytest.approx(g.x_of(25.0)) and remaining.x + remaining.w == pytest.approx(g.x1)
    texts = [t.text for t in layout.texts]
    assert texts[0] == "0:25.0 / 1:40.0"
    assert "1x" in texts[1]


def test_layout_status_text_and_markers_toggle() -> None:
    g = bar_geometry(SIZE, 0.0, 100.0)
    markers = markers_from_events(_events(), recorder="Alice")
    layout = timeline_layout(g, markers, 5.0, BarStatus(-2.0, True, "free"))
    assert layout.texts[1].text == "rev 2x  paused  free"
    marker_colours = set(tl.MARKER_COLORS.values())
    n_marks = sum(r.color in marker_colours for r in layout.rects)
    assert n_marks == len(markers)
    hidden = timeline_layout(g, markers, 5.0, show_markers=False)
    assert not any(r.color in marker_colours for r in hidden.rects)


def test_hover_shows_time_or_the_nearest_marker() -> None:
    g = bar_geometry(SIZE, 0.0, 100.0)
    markers = [Marker(50.0, "frag", "Bob rides Alice's rocket")]
    y = g.top + 10
    x_far = g.x_of(20.0)
    layout = timeline_layout(g, markers, 0.0, hover=(x_far, y))
    assert layout.texts[-1].text == "0:20.0"
    x_near = g.x_of(50.0) + 3
    assert nearest_marker(g, markers, x_near) == markers[0]
    layout = timeline_layout(g, markers, 0.0, hover=(x_near, y))
    assert layout.texts[-1].text == "0:50.0  Bob rides Alice's rocket"
    assert layout.texts[-1].color == tl.MARKER_COLORS["frag"]
    assert nearest_marker(g, markers, g.x_of(50.0) + 40) is None
    off_bar = timeline_layout(g, markers, 0.0, hover=(x_near, 10))
    assert len(off_bar.texts) == 2


def test_tooltip_stays_inside_the_window() -> None:
    g = bar_geometry(SIZE, 0.0, 100.0)
    layout = timeline_layout(g, [Marker(100.0, "map", "map e1m2 (a long level name to push it right)")], 0.0,
                             hover=(g.x1, g.top + 4))
    box = layout.rects[-1]
    assert box.x >= 0 and box.x + box.w <= SIZE[0] + 1e-6


def test_text_box_centred_and_top_right() -> None:
    box = text_box_layout(["abc", "de"], SIZE, 2)
    r = box.rects[0]
    assert r.x == pytest.approx((SIZE[0] - r.w) / 2) and r.y == pytest.approx((SIZE[1] - r.h) / 2)
    assert [t.text for t in box.texts] == ["abc", "de"]
    corner = text_box_layout(["saved"], SIZE, 2, anchor="topright").rects[0]
    assert corner.x + corner.w == pytest.approx(SIZE[0] - 8)
    assert text_box_layout([], SIZE, 2).rects == ()


def test_the_key_help_fits_a_1280x720_window_at_scale_2() -> None:
    """F1's box shrinks to the largest scale that fits (its longest line is wider than 1280 px at scale 2)."""
    from viewer.input import KEY_HELP

    lines = [f"{k:<20} {v}" for k, v in KEY_HELP]
    box = text_box_layout(lines, (1280, 720), 2)
    r = box.rects[0]
    assert 0 <= r.x and r.x + r.w <= 1280 and 0 <= r.y and r.y + r.h <= 720
    assert box.texts[0].size == tl.CHAR                       # scale 1
    roomy = text_box_layout(lines, (2560, 1440), 2)
    assert roomy.texts[0].size == 2 * tl.CHAR                 # scale 2 where it fits


def test_vertices_two_triangles_per_rect_and_glyph() -> None:
    layout = tl.UiLayout((tl.Rect(0, 0, 10, 5, (1, 0, 0, 1)),), (tl.Text(0, 10, "a b", 8),))
    v = UiRenderer.vertices(layout)
    assert v.shape == (6 * 3, 9)                     # one rect + two glyphs (the space is skipped)
    assert set(v[:6, 8]) == {0.0} and set(v[6:, 8]) == {1.0}
    assert v[:6, 0].max() == 10 and v[:6, 1].max() == 5
    code = ord("a")
    assert v[6, 2] == pytest.approx((code & 15) / 16) and v[6, 3] == pytest.approx((code >> 4) / 16)
    assert UiRenderer.vertices(layout, has_font=False).shape == (6, 9)
    assert UiRenderer.vertices(tl.UiLayout()).shape == (0, 9)
    assert np.isfinite(v).all()


def test_round_starts_are_markers() -> None:
    rounds = [RoundEvent(5.0, 1, 0, True, 1), RoundEvent(9.0, 2, 0, False, 1), RoundEvent(12.0, 3, 0, True)]
    markers = markers_from_events(rounds)
    assert [(m.time, m.kind, m.label) for m in markers] == [(5.0, "round", "round 1"), (12.0, "round", "round")]
    assert tl.MARKER_COLORS["round"] != tl.MARKER_COLORS["intermission"]
