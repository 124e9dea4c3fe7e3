"""The corner readout and the missing-data notice (pure layouts)."""

from __future__ import annotations

from viewer.render.refdef import HudLayout, HudQuad, Rect
from viewer.ui.readout import (Readout, missing_data_notice, notice_layout, readout_layout,
                               readout_lines)


def test_readout_lines_say_time_speed_camera_and_player() -> None:
    r = Readout(12.34, 125.0, 2.0, False, "pov", "LQ_Ranger")
    assert readout_lines(r) == ("0:12.3 / 2:05.0", "2x  pov", "watching LQ_Ranger")
    paused = Readout(0.0, 60.0, -0.5, True, "orbit", "", 59.6)
    assert readout_lines(paused) == ("0:00.0 / 1:00.0", "rev 0.5x  paused  orbit", "60 fps")
    assert readout_lines(paused, with_clock=False) == ("60 fps",)
    assert readout_lines(Readout(1.0, 2.0), with_clock=False) == ()


def test_readout_sits_in_the_top_right_corner_below_a_message() -> None:
    lines = ("0:12.3 / 2:05.0", "1x  pov")
    layout = readout_layout(lines, (1280, 720), 2, top=40.0)
    (box,) = layout.rects
    assert box.x + box.w == 1280 - 8 and box.y == 48.0
    assert [t.text for t in layout.texts] == list(lines)
    assert all(box.x <= t.x and t.x + len(t.text) * t.size <= box.x + box.w for t in layout.texts)
    assert readout_layout((), (1280, 720), 2).rects == ()


def test_the_readout_takes_the_first_free_place_under_the_game_hud_in_the_corner() -> None:
    lines = ("0:12.3 / 2:05.0", "1x  pov")
    size = (1280, 720)

    def box(*quads: HudQuad, top: float = 0.0) -> Rect:
        (rect,) = readout_layout(lines, size, 2, top=top, hud=HudLayout(size, 2, quads)).rects
        return rect

    corner = HudQuad("char", 65, 1260, 10, 16, 16)                       # a prompt's last letter
    centre = HudQuad("pic", "gfx/2d/numbers/one", 600, 200, 32, 32)      # not under the box
    title = HudQuad("pic", "menu/tab/name", 832, 40, 128, 48)            # left of the box
    status_bar = HudQuad("pic", "sbar", 0, 672, 1280, 48)                # far below
    assert box(centre, title, status_bar).y == 8.0
    assert box(corner, centre, title, status_bar).y == 26.0 + 8
    assert box(corner, top=40.0).y == 40.0 + 8                           # below the message box reaching further
    place = HudQuad("char", 50, 1030, 90, 24, 24)                        # a centred line's end, lower down
    assert box(corner, place).y == 26.0 + 8                              # the gap above it is tall enough
    row = HudQuad("pic", "white", 350, 60, 930, 24)                      # a row leaving no room above
    assert box(corner, place, row).y == 114.0 + 8
    assert box(HudQuad("fill", 4, 0, 0, 1280, 720)).y == 8.0              # no free place: over the HUD, on screen


def test_missing_data_notice_wraps_the_sessions_notice_and_counts_missing_models() -> None:
    notice = ("map maps/frobodm2.bsp is not in /q/id1: showing the entities on a grid floor; --basedir DIR "
              "[--game MOD] points qdv at a game that has it")
    warnings = ["model 'progs/a.mdl': not found; drawing a placeholder",
                "model 'progs/b.mdl': not found; drawing a placeholder", "something else"]
    lines = missing_data_notice(notice, warnings, width=40)
    assert " ".join(lines[:-1]) == notice and max(len(line) for line in lines[:-1]) <= 40
    assert lines[-1] == "2 models missing: drawn as placeholders (see the terminal)"
    assert missing_data_notice("", ["something else"]) == ()
    layout = notice_layout(lines, (1280, 720), 2)
    (box,) = layout.rects
    assert abs(box.x + box.w / 2 - 640) < 1 and box.y == 96        # below the notify lines and readout


def test_a_running_export_shows_its_progress_while_the_bar_is_hidden() -> None:
    r = Readout(1.0, 60.0, export=0.426)
    assert readout_lines(r)[-1] == "export 42%"
    assert readout_lines(r, with_clock=False) == ()                 # the bar shows it
