"""Quake III's 3D HUD icons and lagometer without GL: where each icon's model stands and how it turns
(``CG_DrawStatusBar``, ``CG_DrawHead``, ``CG_DamageFeedback``), and the lagometer's samples and bars
(``CG_DrawLagometer``) from tiny demos written by the test encoder."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.demos.quake3.protocol import tables_for
from assets_loader.models.md3 import Md3Frame, Md3Model
from assets_loader.models.q3player import AnimationConfig, PlayerModel
from viewer.games.quake3 import hud, hud_icons, lagometer
from viewer.render.view_math import angles_axis
from viewer.render.shaded.records import Quake3Models

from .builders.dm68 import SVC_EOF, Q3Message, demo_file

_TABLES = tables_for(68)
assert _TABLES is not None
TABLES = _TABLES


def _md3(name: str, mins=(-1.0, -1.0, -1.0), maxs=(1.0, 1.0, 1.0)) -> Md3Model:
    frame = Md3Frame("f0", tuple(mins), tuple(maxs), (0.0, 0.0, 0.0), 1.0)
    return Md3Model(name, 0, (frame,), (), np.zeros((1, 0, 3), np.float32), np.zeros((1, 0, 3, 3), np.float32), ())


def _models(*names: str) -> Quake3Models:
    return Quake3Models(md3={n: _md3(n) for n in names})


def _demo(snapshots: list[tuple[int, int, int, dict]]) -> DemoTimeline:
    """A demo of ``(sequence, server time ms, snapFlags, playerState)`` snapshots after a gamestate."""
    head = Q3Message()
    head.long(0)
    head.gamestate(TABLES.entity, configstrings={0: "\\mapname\\test\\sv_maxclients\\4"}, baselines={},
                   client_num=0)
    head.byte(SVC_EOF)
    blocks = [(1, head.data())]
    for sequence, server_time, flags, player in snapshots:
        m = Q3Message()
        m.long(0)
        m.snapshot(TABLES.entity, TABLES.player, server_time=server_time, delta=0, old_player={}, player=player,
                   old_entities={}, entities={}, baselines={}, flags=flags)
        m.byte(SVC_EOF)
        blocks.append((sequence, m.data()))
    return load_demo(demo_file(blocks), "icons.dm_68")


def test_the_ammo_box_turns_70_units_ahead_in_its_box() -> None:
    models = _models(hud_icons.AMMO_MODELS[5])
    icon = hud_icons.ammo_icon(models, 5, 1.25)
    assert icon is not None and (icon.x, icon.y, icon.w, icon.h) == (100.0, 432.0, 48.0, 48.0)
    assert icon.draw.model == "models/powerups/ammo/rocketam.md3"
    assert icon.draw.origin.tolist() == [70.0, 0.0, 0.0]
    np.testing.assert_allclose(icon.draw.axis, angles_axis((0.0, 90.0 + 20.0 * math.sin(1.25), 0.0)), atol=1e-6)
    assert hud_icons.ammo_icon(models, 1, 1.25) is None            # the gauntlet has no ammo model
    assert hud_icons.ammo_icon(models, 3, 1.25) is None            # the shotgun's is not loaded


def test_the_armor_turns_once_every_2048_ms() -> None:
    models = _models(hud_icons.ARMOR_MODEL)
    half = hud_icons.armor_icon(models, 1.024)
    assert half is not None and (half.x, half.y) == (470.0, 432.0)
    assert half.draw.origin.tolist() == [90.0, 0.0, -10.0]
    np.testing.assert_allclose(half.draw.axis[0], [-1.0, 0.0, 0.0], atol=1e-6)   # 180° at 1024 ms
    again = hud_icons.armor_icon(models, 1.024 + 2.048)
    assert again is not None
    np.testing.assert_allclose(again.draw.axis, half.draw.axis, atol=1e-6)


def test_a_carried_flag_is_placed_by_the_red_flags_bounds() -> None:
    red = _md3(hud_icons.FLAG_MODELS[0][1], (-4.0, -2.0, 0.0), (4.0, 6.0, 40.0))
    blue = _md3(hud_icons.FLAG_MODELS[1][1], (-1.0, -1.0, -1.0), (1.0, 1.0, 1.0))
    models = Quake3Models(md3={red.name: red, blue.name: blue})
    icon = hud_icons.flag_icon(models, 1 << 8, 0.0)                  # PW_BLUEFLAG
    assert icon is not None and icon.draw.model == blue.name
    assert (icon.x, icon.y, icon.w, icon.h) == (333.0, 432.0, 48.0, 48.0)
    np.testing.assert_allclose(icon.draw.origin, [20.0 / 0.268, 2.0, -20.0], rtol=1e-6)
    assert hud_icons.flag_icon(models, 0, 0.0) is None


def _player(head_offset=(0.0, 0.0, 0.0)) -> PlayerModel:
    head = _md3("models/players/sarge/head.md3", (-6.0, -4.0, 2.0), (8.0, 6.0, 22.0))
    body = _md3("body")
    return PlayerModel("sarge", "default", body, body, head, {"head": {"h_head": "models/players/sarge/h"}},
                       AnimationConfig((), head_offset=head_offset))


def test_the_head_nearly_fills_its_box_centred_on_its_bounds() -> None:
    player = _player(head_offset=(1.0, 2.0, 3.0))
    models = Quake3Models(md3={"models/players/sarge/head.md3": player.head}, players={"sarge/default": player})
    icon = hud_icons._head(models, {"model": "sarge"}, (285.0, 420.0, 60.0, 60.0), (0.0, 180.0, 0.0))
    assert icon is not None and icon.draw.model == "models/players/sarge/head.md3"
    np.testing.assert_allclose(icon.draw.origin, [0.7 * 20.0 / 0.268 + 1.0, 1.0 + 2.0, -12.0 + 3.0], rtol=1e-6)
    assert icon.draw.shaders == {"h_head": "models/players/sarge/h"}
    np.testing.assert_allclose(icon.draw.axis[0], [-1.0, 0.0, 0.0], atol=1e-6)   # facing the camera
    assert hud_icons._head(models, {"model": "major"}, (0, 0, 1, 1), (0, 0, 0)) is None


def test_the_head_wanders_smoothly_within_its_range() -> None:
    times = np.arange(100.0, 160.0, 0.001)
    looks = np.array([hud_icons.wander_angles(float(t)) for t in times])
    assert looks[:, 1].min() >= 160.0 - 1e-9 and looks[:, 1].max() <= 200.0 + 1e-9
    assert np.abs(looks[:, 0]).max() <= 5.0 + 1e-9
    assert np.abs(np.diff(looks[:, :2], axis=0)).max() < 0.1        # no jumps from one ms to the next
    starts = [hud_icons._pose_start(k) for k in range(90, 150)]
    assert 0.1 <= min(np.diff(starts)) and max(np.diff(starts)) <= 2.1


def test_damage_swells_the_head_towards_the_hit_then_it_eases_back() -> None:
    damage = hud_icons.Damage(50.0, 1.0)
    angles, size, shift = hud_icons.head_look(50.0, damage)
    assert size == pytest.approx(90.0) and shift == pytest.approx(-30.0)   # 1.5 × 60, kicked by the whole stretch
    assert angles[1] == pytest.approx(225.0)
    _, size, shift = hud_icons.head_look(50.25, damage)
    assert size == pytest.approx(75.0) and shift == pytest.approx(-15.0)
    assert hud_icons.head_look(50.5, damage)[1:] == (60.0, 0.0)
    times = np.arange(50.5, 55.0, 0.001)
    yaws = np.array([hud_icons.head_look(float(t), damage)[0][1] for t in times])
    assert yaws[0] == pytest.approx(225.0) and np.abs(np.diff(yaws)).max() < 1.0     # quick, never a jump
    assert hud_icons.head_look(55.0, damage)[0] == hud_icons.wander_angles(55.0)


def test_damage_x_is_the_side_the_hit_came_from() -> None:
    assert hud_icons.damage_x(255, 255, (0.0, 0.0, 0.0)) == 0.0           # undirected
    assert hud_icons.damage_x(64, 0, (0.0, 0.0, 0.0)) == 1.0               # from +Y, the view's left: clamped
    assert hud_icons.damage_x(192, 0, (0.0, 0.0, 0.0)) == -1.0
    assert hud_icons.damage_x(128, 0, (0.0, 0.0, 0.0)) == pytest.approx(0.0, abs=0.03)   # from straight ahead


def _state(**player) -> dict:
    return {"clientNum": 0, "commandTime": 1, **player}


def test_the_last_damage_is_a_damage_event_change_of_the_same_client() -> None:
    snaps = [(2 + i, 1000 + 50 * i, 0, _state()) for i in range(10)]
    snaps[3] = (5, 1150, 0, _state(damageEvent=1, damageCount=12, damageYaw=64))
    snaps[4] = (6, 1200, 0, _state(damageEvent=1, damageCount=12, damageYaw=64))
    snaps[6] = (8, 1300, 0, _state(damageEvent=2, damageCount=0))          # no count: no feedback
    snaps[8] = (10, 1400, 0, _state(clientNum=1, damageEvent=3, damageCount=5))   # the view changed player
    timeline = _demo(snaps)
    found = hud_icons.last_damage(timeline, 1.49)
    assert found == hud_icons.Damage(1.15, 1.0)
    assert hud_icons.last_damage(timeline, 1.14) is None
    assert hud_icons.last_damage(timeline, 1.49, within=0.2) is None


def test_lagometer_samples_show_drops_rate_delays_and_the_time_to_the_next_snapshot() -> None:
    snaps = [(2, 1000, 0, _state()), (3, 1050, 0, _state()), (6, 1100, 1, _state()), (7, 1150, 0, _state()),
             (8, 1200, 0, _state())]
    timeline = _demo(snaps)
    assert timeline.stats["snap_drops"].tolist() == [0, 0, 2, 0, 0]
    assert timeline.stats["snap_flags"].tolist() == [0, 0, 1, 0, 0]
    late = _demo([(4, 1000, 0, _state()), (5, 1050, 0, _state())])       # the gamestate came in message 1
    assert late.stats["snap_drops"].tolist() == [2, 0]
    samples = lagometer.snapshot_samples(timeline, 1.12, 8)             # read up to the 1150 ms snapshot
    R, D, X, N = lagometer.RECEIVED, lagometer.RATE_DELAYED, lagometer.DROPPED, lagometer.NONE
    assert samples.tolist() == [R, D, X, X, R, R, N, N]
    frames = lagometer.frame_samples(timeline, 1.12, 16)
    grid = (1120 // lagometer.FRAME_MSEC - np.arange(16)) * lagometer.FRAME_MSEC
    expected = np.where(grid < 1000, 0, grid - np.array([min(t for t in (1000, 1050, 1100, 1150, 1200) if t > g)
                                                         for g in grid]))
    assert frames.tolist() == expected.tolist() and (frames <= 0).all()
    assert (lagometer.frame_samples(timeline, 1.3, 4) > 0).all()         # past the last snapshot: extrapolating


def test_lagometer_bars_are_pixel_columns_from_the_right_edge() -> None:
    samples = lagometer.Lagometer(np.array([-50, -25, 0, 150] + [0] * 124), np.array([1, 3, 2] + [0] * 125))
    quads = lagometer.lagometer_quads(samples, (640, 480))
    blue = [(q.x, q.y, q.w, q.h) for q in quads if q.tint == lagometer.BLUE]
    assert blue == [(640, 448, 1, 3), (639, 448, 1, 1)]        # 50 ms: 2.7 px of the 16 that 300 ms fill
    assert [(q.x, q.y, q.h) for q in quads if q.tint == lagometer.YELLOW and q.y < 456] == [(637, 440, 8)]
    snapshot = sorted((q.x, q.y, q.h, q.tint) for q in quads if q.y == 456)
    assert snapshot == [(638, 456, 24, lagometer.YELLOW), (639, 456, 24, lagometer.RED),
                        (640, 456, 24, lagometer.GREEN)]


def test_the_hud_layout_carries_the_icons_and_the_lagometer() -> None:
    snaps = [(2 + i, 1000 + 50 * i, 0, _state(weapon=5, stats=[100, 0, 0, 0, 50] + [0] * 11)) for i in range(6)]
    timeline = _demo(snaps)
    state = timeline.sample(1.2)
    models = _models(hud_icons.AMMO_MODELS[5], hud_icons.ARMOR_MODEL)
    layout = hud.hud_layout(state, timeline, (1280, 720), 2, models=models)
    boxes = {m.model.model: (m.x, m.y, m.w, m.h) for m in layout.models}
    assert boxes == {hud_icons.AMMO_MODELS[5]: (200, 648, 96, 72), hud_icons.ARMOR_MODEL: (940, 648, 96, 72)}
    assert not [q for q in layout.quads if str(q.ref).startswith("icons/icona_") or q.ref == hud.ARMOR_ICON]
    assert [(q.x, q.y, q.w, q.h) for q in layout.quads if q.ref == lagometer.LAGOMETER_PIC] == [(1184, 648, 96, 72)]
    flat = hud.hud_layout(state, timeline, (1280, 720), 2)              # no models: the 2D icons
    assert not flat.models and [q for q in flat.quads if q.ref == "icons/icona_rocket"]
