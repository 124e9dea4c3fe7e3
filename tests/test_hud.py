"""HUD layout (pure, no GL): status bar numbers/face/inventory, centerprint and notify timing, scoreboard,
intermission overlay — all as functions of the stats and events at ``t``."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

from assets_loader.demos.events import (CenterPrintEvent, CutsceneEvent, DamageEvent, IntermissionEvent,
                                        PrintEvent, SoundEvent)
from assets_loader.demos.schema import STAT_NAMES
from assets_loader.demos.timeline import EntityStates, MapSegment, PlayerScore, SceneState
from tests.conftest import LQ1
from viewer.games.quake.hud import (IT_AXE, IT_CELLS, IT_INVISIBILITY, IT_INVULNERABILITY, IT_KEY1, IT_KEY2,
                                    IT_LIGHTNING, IT_NAILGUN, IT_NAILS, IT_QUAD, IT_SHELLS, IT_SHOTGUN, IT_SIGIL1,
                                    IT_SUIT, build_hud, centerprint_at, console_lines, face_pic, notify_lines,
                                    number_pics, sorted_scores)
from viewer.render.refdef import HudLayout

SCREEN = (640, 480)
SCALE = 2
BAR_X = (SCREEN[0] - 320 * SCALE) // 2
BAR_Y = SCREEN[1] - 48 * SCALE       # top of the status bar canvas (ibar row); sbar row at +24 virtual pixels


def _state(t: float = 10.0, frame: int = -1, scoreboard=(), view_entity: int = 1, **stats) -> SceneState:
    values = dict.fromkeys(STAT_NAMES, 0)
    values.update(health=100, items=IT_SHOTGUN | IT_AXE | IT_SHELLS, activeweapon=IT_SHOTGUN, shells=25, ammo=25)
    values.update(stats)
    empty = EntityStates.empty()
    return SceneState(t, frame, 0, 1.0, view_entity, np.zeros(3), np.zeros(3), empty, empty,
                      MappingProxyType(values), ("",) * 64, tuple(scoreboard))


def _segment(gametype: int = 0, maxclients: int = 1, time_offset: float = 0.0) -> MapSegment:
    empty = EntityStates.empty()
    return MapSegment(0, "test", "Test Level", 15, 0, maxclients, gametype, ("", "maps/test.bsp"), ("",), 0, 10,
                      0.0, 100.0, time_offset, empty, empty, ())


def _at(layout: HudLayout, vx: int, vy: int, kind: str | None = None) -> list:
    """Quads whose top-left corner is virtual status-bar position (vx, vy)."""
    x, y = BAR_X + vx * SCALE, BAR_Y + vy * SCALE
    return [q.ref for q in layout.quads if q.x == x and q.y == y and (kind is None or q.kind == kind)]


def _pics(layout: HudLayout) -> list:
    return [q.ref for q in layout.quads if q.kind == "pic"]


def _text_rows(layout: HudLayout, top: int = 0, bottom: int = 1 << 30, plain: bool = False) -> dict[int, str]:
    """Character quads with ``top <= y < bottom`` as text rows keyed by screen y (gaps become spaces;
    ``plain`` folds the bronze half)."""
    rows: dict[int, dict[int, int]] = {}
    for q in layout.quads:
        if q.kind == "char" and top <= q.y < bottom:
            rows.setdefault(q.y, {})[q.x] = int(q.ref) & (127 if plain else 255)
    out = {}
    for y, chars in sorted(rows.items()):
        x0, step = min(chars), 8 * layout.scale
        out[y] = "".join(chr(chars.get(x0 + i * step, 32)) for i in range((max(chars) - x0) // step + 1))
    return out


# --- status bar --------------------------------------------------------------------------------------------------


def test_big_numbers_health_100_armor_0_ammo_25() -> None:
    layout = build_hud(_state(health=100, armor=0, ammo=25), (), SCREEN, SCALE)
    # Sbar_DrawNum: 3 cells of 24 pixels, right-aligned; sbar row is 24 below the canvas top.
    assert [_at(layout, 136 + 24 * i, 24) for i in range(3)] == [["num_1"], ["num_0"], ["num_0"]]
    assert _at(layout, 24, 24) == [] and _at(layout, 48, 24) == []
    assert _at(layout, 72, 24) == ["anum_0"]              # armour ≤ 25 is red
    assert _at(layout, 248 + 24, 24) == ["num_2"] and _at(layout, 248 + 48, 24) == ["num_5"]


@pytest.mark.parametrize("value,red,expected", [
    (25, True, ((24, "anum_2"), (48, "anum_5"))),
    (100, False, ((0, "num_1"), (24, "num_0"), (48, "num_0"))),
    (1234, False, ((0, "num_9"), (24, "num_9"), (48, "num_9"))),     # capped at 999
    (-5, True, ((24, "anum_minus"), (48, "anum_5"))),
])
def test_number_pics(value, red, expected) -> None:
    assert number_pics(value, 3, red) == expected


def test_red_numbers_thresholds() -> None:
    layout = build_hud(_state(health=25, armor=26, ammo=10), (), SCREEN, SCALE)
    assert _at(layout, 136 + 24, 24) == ["anum_2"] and _at(layout, 136 + 48, 24) == ["anum_5"]   # health ≤ 25
    assert _at(layout, 24 + 24, 24) == ["num_2"]                                                  # armour 26
    assert _at(layout, 248 + 24, 24) == ["anum_1"]                                                # ammo ≤ 10
    layout = build_hud(_state(ammo=25), (), SCREEN, SCALE)
    assert _at(layout, 248 + 24, 24) == ["num_2"]                                                 # ammo 25: not red


@pytest.mark.parametrize("health,face", [(100, "face1"), (250, "face1"), (80, "face1"), (79, "face2"), (60, "face2"),
                                         (59, "face3"), (40, "face3"), (39, "face4"), (20, "face4"),
                                         (19, "face5"), (1, "face5")])
def test_face_follows_health(health, face) -> None:
    layout = build_hud(_state(health=health), (), SCREEN, SCALE)
    assert _at(layout, 112, 24) == [face]


def test_face_powerups_and_pain() -> None:
    assert face_pic(100, IT_QUAD) == "face_quad"
    assert face_pic(100, IT_INVISIBILITY) == "face_invis"
    assert face_pic(100, IT_INVULNERABILITY) == "face_invul2"
    assert face_pic(100, IT_INVISIBILITY | IT_INVULNERABILITY) == "face_inv2"
    assert face_pic(50, 0, pain=True) == "face_p3"
    hit = DamageEvent(9.9, 0, 0, 0, 5, (0.0, 0.0, 0.0))
    assert _at(build_hud(_state(t=10.0), (hit,), SCREEN, SCALE), 112, 24) == ["face_p1"]
    assert _at(build_hud(_state(t=10.2), (hit,), SCREEN, SCALE), 112, 24) == ["face1"]   # 0.2 s later


def test_invulnerability_shows_666_and_disc() -> None:
    layout = build_hud(_state(armor=50, items=IT_SHOTGUN | IT_INVULNERABILITY), (), SCREEN, SCALE)
    assert _at(layout, 0, 24) == ["sbar", "disc"]
    assert [_at(layout, 24 + 24 * i, 24) for i in range(3)] == [["anum_6"]] * 3


def test_weapon_icons_from_items_bits() -> None:
    items = IT_SHOTGUN | IT_NAILGUN | IT_LIGHTNING | IT_NAILS | IT_CELLS
    layout = build_hud(_state(items=items, activeweapon=IT_NAILGUN), (), SCREEN, SCALE)
    assert _at(layout, 0, 8) == ["inv_shotgun"]
    assert _at(layout, 24, 8) == []                        # no super shotgun
    assert _at(layout, 48, 8) == ["inv2_nailgun"]          # the selected weapon
    assert _at(layout, 144, 8) == ["inv_lightng"]
    assert _at(layout, 224, 24) == ["sb_nails"]            # ammo icon: first IT_SHELLS..IT_CELLS bit
    lightning = [q for q in layout.quads if q.ref == "inv_lightng"][0]
    assert (lightning.w, lightning.h) == (48 * SCALE, 16 * SCALE)


def test_ammo_counts_use_small_digits() -> None:
    layout = build_hud(_state(shells=25, nails=100, rockets=0, cells=1000), (), SCREEN, SCALE)
    digit = lambda d: 18 + d  # noqa: E731
    assert _at(layout, 8 + 2, 0, "char") == []                          # "%3i": leading blank
    assert _at(layout, 16 + 2, 0, "char") == [digit(2)] and _at(layout, 24 + 2, 0, "char") == [digit(5)]
    assert [_at(layout, (6 + k) * 8 + 2, 0, "char") for k in (1, 2, 3)] == [[digit(1)], [digit(0)], [digit(0)]]
    assert _at(layout, (12 + 3) * 8 + 2, 0, "char") == [digit(0)]       # rockets 0
    assert [_at(layout, (18 + k) * 8 + 2, 0, "char") for k in (1, 2, 3)] == [[digit(9)]] * 3   # capped


def test_keys_powerups_and_sigils() -> None:
    items = IT_SHOTGUN | IT_KEY2 | IT_SUIT | IT_QUAD | (IT_SIGIL1 << 3)
    layout = build_hud(_state(items=items), (), SCREEN, SCALE)
    assert _at(layout, 192, 8) == []                  # no key1
    assert _at(layout, 208, 8) == ["sb_key2"]
    assert _at(layout, 256, 8) == ["sb_suit"]
    assert _at(layout, 272, 8) == ["sb_quad"]
    assert _at(layout, 312, 8) == ["sb_sigil4"]       # bit 31: the stat is negative as an int32
    assert _at(layout, 112, 24) == ["face_quad"]
    layout = build_hud(_state(items=IT_KEY1 | -(1 << 31)), (), SCREEN, SCALE)
    assert _at(layout, 192, 8) == ["sb_key1"] and _at(layout, 312, 8) == ["sb_sigil4"]


def test_bar_position_scale_and_backtile() -> None:
    layout = build_hud(_state(), (), (1024, 768), 2)
    x0 = (1024 - 640) // 2
    bar = [q for q in layout.quads if q.ref == "sbar"][0]
    assert (bar.x, bar.y, bar.w, bar.h) == (x0, 768 - 48, 640, 48)
    ibar = [q for q in layout.quads if q.ref == "ibar"][0]
    assert (ibar.x, ibar.y) == (x0, 768 - 96)
    tiles = [(q.x, q.y, q.w, q.h) for q in layout.quads if q.kind == "tile"]
    assert tiles == [(0, 768 - 96, x0, 96), (x0 + 640, 768 - 96, 1024 - x0 - 640, 96)]
    assert layout.sbar_lines == 96


def test_dead_shows_the_scorebar_with_kills_and_secrets() -> None:
    layout = build_hud(_state(health=0, monsters=3, totalmonsters=20, secrets=1, totalsecrets=2), (), SCREEN,
                       SCALE, segment=_segment())
    assert "scorebar" in _pics(layout) and "sbar" not in _pics(layout)
    rows = _text_rows(layout)
    assert rows[BAR_Y + 36 * SCALE].startswith("Kills: 3/20")
    assert rows[BAR_Y + 36 * SCALE].endswith("Secrets: 1/2")
    assert "Test Level" in rows[BAR_Y + 28 * SCALE]


# --- centerprint and notify ----------------------------------------------------------------------------------------


def test_centerprint_visible_for_two_seconds_and_not_before() -> None:
    events = (PrintEvent(1.0, 0, 0, "hi\n"), CenterPrintEvent(5.0, 0, 0, "Hello"), SoundEvent(
        6.0, 0, 0, 1, 0, 1, "x.wav", 1.0, 1.0, (0.0, 0.0, 0.0)))
    assert centerprint_at(events, 4.99) is None
    assert centerprint_at(events, 5.0).text == "Hello"
    assert centerprint_at(events, 6.99).text == "Hello"
    assert centerprint_at(events, 7.0) is None
    assert centerprint_at(events, 60.0, intermission=2).text == "Hello"    # stays during intermissions


def test_centerprint_empty_text_clears_and_newest_wins() -> None:
    events = (CenterPrintEvent(5.0, 0, 0, "first"), CenterPrintEvent(5.5, 0, 0, "second"),
              CenterPrintEvent(6.0, 0, 0, ""))
    assert centerprint_at(events, 5.2).text == "first"
    assert centerprint_at(events, 5.7).text == "second"
    assert centerprint_at(events, 6.1) is None


def test_centerprint_layout_is_centred_on_the_menu_canvas() -> None:
    events = (CenterPrintEvent(5.0, 0, 0, "abcd\nxy"),)
    mx, my = (SCREEN[0] - 320 * SCALE) // 2, (SCREEN[1] - 200 * SCALE) // 2
    rows = _text_rows(build_hud(_state(t=6.0), events, SCREEN, SCALE))
    assert rows[my + 70 * SCALE] == "abcd" and rows[my + 78 * SCALE] == "xy"
    chars = [q for q in build_hud(_state(t=6.0), events, SCREEN, SCALE).quads if q.kind == "char" and q.y < BAR_Y]
    assert chars[0].x == mx + (320 - 4 * 8) // 2 * SCALE and chars[4].x == mx + (320 - 2 * 8) // 2 * SCALE
    assert not _text_rows(build_hud(_state(t=7.5), events, SCREEN, SCALE), 0, BAR_Y)
    assert not _text_rows(build_hud(_state(t=4.5), events, SCREEN, SCALE), 0, BAR_Y)


def test_cutscene_text_appears_eight_characters_a_second() -> None:
    events = (CutsceneEvent(10.0, 0, 0, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),)
    layout = build_hud(_state(t=10.5, intermission=3), events, SCREEN, SCALE)
    assert "sbar" not in _pics(layout) and layout.sbar_lines == 0     # no status bar in a cutscene
    assert len(layout.chars()) == 5                                    # int(8 * 0.5) + 1 characters
    assert len(build_hud(_state(t=30.0, intermission=3), events, SCREEN, SCALE).chars()) == 26


def test_notify_lines_expire_after_three_seconds() -> None:
    events = (PrintEvent(1.0, 0, 0, "one\n"), PrintEvent(2.0, 0, 0, "two\n"))
    assert notify_lines(events, 0.5) == ()
    assert notify_lines(events, 2.5) == ("one", "two")
    assert notify_lines(events, 4.0) == ("one", "two")
    assert notify_lines(events, 4.01) == ("two",)
    assert notify_lines(events, 5.01) == ()


def test_notify_keeps_last_four_lines_and_the_colour_bit() -> None:
    events = tuple(PrintEvent(1.0 + 0.1 * i, 0, 0, f"line {i}\n") for i in range(6))
    events += (PrintEvent(1.7, 0, 0, "\x02red\n"), PrintEvent(1.8, 0, 0, "part "), PrintEvent(1.9, 0, 0, "two\n"))
    lines = notify_lines(events, 2.0)
    assert lines == ("line 4", "line 5", "".join(chr(ord(c) | 128) for c in "red"), "part two")


def test_console_lines_word_wrap_and_line_times() -> None:
    lines = console_lines([(1.0, "aaaa bbbb cccc\n"), (2.0, "\nx")], width=10)
    assert lines == [(1.0, "aaaa bbbb "), (1.0, "cccc"), (2.0, ""), (2.0, "x")]


def test_notify_continued_line_keeps_its_start_time() -> None:
    events = (PrintEvent(1.0, 0, 0, "start "), PrintEvent(3.5, 0, 0, "end\n"))
    assert notify_lines(events, 3.9) == ("start end",)
    assert notify_lines(events, 4.1) == ()            # the line started at 1.0


def test_notify_rows_at_the_top_left() -> None:
    events = (PrintEvent(9.0, 0, 0, "Hi\n"),)
    rows = _text_rows(build_hud(_state(t=10.0), events, SCREEN, SCALE))
    assert rows[0] == "Hi"
    first = [q for q in build_hud(_state(t=10.0), events, SCREEN, SCALE).quads if q.kind == "char" and q.y < BAR_Y][0]
    assert (first.x, first.y, first.w, first.h) == (8 * SCALE, 0, 8 * SCALE, 8 * SCALE)


def test_events_arrive_with_the_frame_sample_shows() -> None:
    # An event of frame 3 (time 10.05) is already parsed when sample() shows frame 3 at t = 10.01.
    events = (CenterPrintEvent(10.05, 3, 0, "now"),)
    assert _text_rows(build_hud(_state(t=10.01, frame=3), events, SCREEN, SCALE), 0, BAR_Y)
    assert not _text_rows(build_hud(_state(t=10.01, frame=2), events, SCREEN, SCALE), 0, BAR_Y)


# --- scoreboard and intermission -------------------------------------------------------------------------------------


def _players() -> tuple[PlayerScore, ...]:
    return (PlayerScore(0, "alice", 3, 0x12), PlayerScore(1, "bob", 10, 0x34), PlayerScore(2, "", 0, 0),
            PlayerScore(3, "carol", -1, 0x56), PlayerScore(4, "dave", 10, 0))


def test_scoreboard_sorted_by_frags() -> None:
    assert [s.name for s in sorted_scores(_players())] == ["bob", "dave", "alice", "carol"]
    layout = build_hud(_state(scoreboard=_players(), view_entity=1), (), SCREEN, SCALE,
                       segment=_segment(gametype=1, maxclients=8), show_scores=True)
    assert "gfx/ranking.lmp" in _pics(layout)
    my = (SCREEN[1] - 200 * SCALE) // 2
    rows = _text_rows(layout, my + 40 * SCALE, BAR_Y, plain=True)
    assert [row.split()[-1] for row in rows.values()] == ["bob", "dave", "alice", "carol"]
    assert [int(row.split()[-2]) for row in rows.values()] == [10, 10, 3, -1]
    assert list(rows)[1] - list(rows)[0] == 10 * SCALE
    alice = [q for q in layout.quads if q.kind == "char" and q.y == list(rows)[2]]
    assert min(alice, key=lambda q: q.x).ref == 12             # the viewer's row is marked
    assert all(q.ref >= 128 for q in alice[-5:])               # names in the bronze font (M_Print)
    fills = [q.ref for q in layout.quads if q.kind == "fill" and q.y >= my + 40 * SCALE and q.y < BAR_Y]
    assert fills[:2] == [3 * 16 + 8, 4 * 16 + 8]               # bob's shirt and pants rows (Sbar_ColorForMap)


def test_multiplayer_bar_shows_frags() -> None:
    layout = build_hud(_state(scoreboard=_players(), view_entity=2), (), SCREEN, SCALE,
                       segment=_segment(maxclients=8))
    assert _at(layout, 184 + 6, 0, "char") == [16] and _at(layout, 184 + 32, 0, "char") == [17]   # our brackets
    assert _at(layout, 184 + 20, 0, "char") == [ord("1")] and _at(layout, 184 + 28, 0, "char") == [ord("0")]


def test_intermission_overlay_when_stat_is_1() -> None:
    events = (IntermissionEvent(130.0, 0, 0),)
    state = _state(t=135.0, intermission=1, secrets=2, totalsecrets=5, monsters=7, totalmonsters=40)
    layout = build_hud(state, events, SCREEN, SCALE, segment=_segment(time_offset=5.0))
    pics = _pics(layout)
    assert "gfx/complete.lmp" in pics and "gfx/inter.lmp" in pics
    assert "sbar" not in pics and "ibar" not in pics and layout.sbar_lines == 0
    mx, my = (SCREEN[0] - 320 * SCALE) // 2, (SCREEN[1] - 200 * SCALE) // 2
    at = {(q.x, q.y): q.ref for q in layout.quads if q.kind == "pic"}
    # completed at server time 125 s = 2:05
    assert at[(mx + 200 * SCALE, my + 64 * SCALE)] == "num_2"
    assert at[(mx + 224 * SCALE, my + 64 * SCALE)] == "num_colon"
    assert at[(mx + 240 * SCALE, my + 64 * SCALE)] == "num_0" and at[(mx + 264 * SCALE, my + 64 * SCALE)] == "num_5"
    assert at[(mx + 200 * SCALE, my + 104 * SCALE)] == "num_2" and at[(mx + 288 * SCALE, my + 104 * SCALE)] == "num_5"
    assert at[(mx + 200 * SCALE, my + 144 * SCALE)] == "num_7"
    assert at[(mx + 264 * SCALE, my + 144 * SCALE)] == "num_4" and at[(mx + 288 * SCALE, my + 144 * SCALE)] == "num_0"
    assert build_hud(_state(intermission=0), events, SCREEN, SCALE).sbar_lines == 48 * SCALE


def test_finale_picture_and_text() -> None:
    events = (CenterPrintEvent(10.0, 0, 0, "The end"),)
    layout = build_hud(_state(t=100.0, intermission=2), events, SCREEN, SCALE, pic_sizes={"gfx/finale.lmp": (288, 24)})
    finale = [q for q in layout.quads if q.ref == "gfx/finale.lmp"][0]
    assert finale.x == (SCREEN[0] - 320 * SCALE) // 2 + 16 * SCALE and finale.w == 288 * SCALE
    assert "".join(chr(c) for c in layout.chars()) == "Theend"


def test_layout_is_a_pure_function_of_time() -> None:
    events = (PrintEvent(1.0, 0, 0, "a\n"), CenterPrintEvent(2.0, 0, 0, "b"), DamageEvent(2.1, 0, 0, 0, 3, (0, 0, 0)))
    times = [0.5, 2.05, 2.2, 4.5, 1.5, 2.05, 0.5]
    first = {t: build_hud(_state(t=t), events, SCREEN, SCALE) for t in sorted(set(times))}
    for t in times:
        assert build_hud(_state(t=t), events, SCREEN, SCALE) == first[t]


def test_real_demo_cutscene_has_no_status_bar() -> None:
    from assets_loader.demos import load_demo

    timeline = load_demo(LQ1 / "demo1_lite.dem")
    t = timeline.start_time + 20.0
    state = timeline.sample(t)
    layout = build_hud(state, timeline.events, (1280, 720), 2, segment=timeline.segments[state.segment])
    # LibreQuake's demos run in a cutscene (intermission 3): like the reference frame, no status bar.
    assert state.stats["intermission"] == 3
    assert layout.sbar_lines == 0 and "sbar" not in layout.pic_names()
    early = build_hud(timeline.sample(timeline.start_time + 0.01), timeline.events, (1280, 720), 2,
                      segment=timeline.segments[0])
    assert "VERSION 1.09 SERVER" in "".join(_text_rows(early, plain=True).values())   # the notify line
