"""Quake III effects through their shaders: the polygons of sprites, beams and marks, the impact events with their
weapon and surface normal, explosions / marks / smoke / flashes prepared from the corpus, the first-person weapon
with its bob, and polygons reaching the GL renderer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake3.game import WP_GRENADE_LAUNCHER, WP_PLASMAGUN, WP_ROCKET_LAUNCHER
from tests.builders.segment import level_assets
from viewer.games.quake3 import fx, link, shapes
from viewer.games.quake3.view_weapon import bob_angles, view_weapon
from viewer.games.registry import game_view
from viewer.headless import DemoRenderer
from viewer.render.shaded.polys import poly_buffers
from viewer.render.shaded.records import Q3Poly
from viewer.render.refdef import Camera
from viewer.session import game_filesystem

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


@pytest.fixture(scope="module")
def effects(follow):
    return fx.prepare_effects(follow)


def test_a_sprite_is_a_square_facing_the_view_turned_by_its_rotation() -> None:
    left, up = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    poly = shapes.sprite("s", (10, 0, 0), 4.0, left, up)
    assert np.allclose(poly.positions[:, 0], 10)                         # in the plane facing +x
    assert np.allclose(np.abs(poly.positions[:, 1:]), 4)
    turned = shapes.sprite("s", (0, 0, 0), 4.0, left, up, rotation=45.0)
    assert np.allclose(np.linalg.norm(turned.positions, axis=1), 4 * math.sqrt(2))
    assert np.allclose(np.abs(turned.positions[:, 1:]).max(), 4 * math.sqrt(2))


def test_a_mark_lies_on_the_wall_with_its_texture_centred() -> None:
    poly = shapes.mark("m", (0, 0, 0), (0, 0, 1), 8.0, 30.0, (255, 255, 255, 255))
    assert np.allclose(poly.positions[:, 2], 0.5)                        # lifted half a unit off the floor
    assert np.allclose(poly.st.mean(axis=0), 0.5)
    assert np.allclose(np.sort(np.ptp(poly.st, axis=0)), [1, 1], atol=1e-5)


def test_beams_run_from_start_to_end_square_to_the_viewer() -> None:
    core = shapes.rail_core("c", (0, 0, 0), (256, 0, 0), (128, 0, 100), (255, 0, 0, 255))
    assert np.allclose(np.abs(core.positions[:, 1]), shapes.RAIL_CORE_WIDTH)     # side along y, seen from above
    assert core.st[:, 0].max() == pytest.approx(1.0)                            # s runs length / 256
    assert core.colors[0, 0] == 63 and core.colors[1, 0] == 255                 # the start's outer edge is dim
    bolt = shapes.lightning_bolt("l", (0, 0, 0), (100, 0, 0), (50, 0, 100))
    assert len(bolt) == 4
    sides = [p.positions[0, 1:] / np.linalg.norm(p.positions[0, 1:]) for p in bolt]
    assert abs(float(np.dot(sides[0], sides[1]))) == pytest.approx(math.cos(math.radians(45)), abs=1e-5)


def test_polygons_become_one_vertex_buffer_and_triangle_fans() -> None:
    quad = Q3Poly("a", np.zeros((4, 3), np.float32), np.zeros((4, 2), np.float32), np.full((4, 4), 255, np.uint8))
    tri = Q3Poly("b", np.ones((3, 3), np.float32), np.zeros((3, 2), np.float32), np.zeros((3, 4), np.uint8))
    verts, indices, ranges = poly_buffers([quad, tri])
    assert len(verts) == 7 and indices.tolist() == [0, 1, 2, 0, 2, 3, 4, 5, 6]
    assert ranges == [(0, 6), (6, 3)]


def test_impact_events_carry_their_weapon_and_surface_normal(follow) -> None:
    misses = [e for e in follow.events_of_kind("temp_entity") if e.name == "missile_miss"]
    weapons = {int(e.extra[0]) for e in misses}
    assert {WP_GRENADE_LAUNCHER, WP_ROCKET_LAUNCHER, WP_PLASMAGUN} <= weapons
    assert all(e.direction is not None and np.linalg.norm(e.direction) == pytest.approx(1, abs=1e-3) for e in misses)


def test_a_grenade_explodes_marks_the_floor_and_its_smoke_fades(follow, effects) -> None:
    hit = next(i for i in effects.impacts if i.weapon == WP_GRENADE_LAUNCHER and i.kind == "missile_miss"
               and i.time > follow.start_time + 20)
    camera = Camera((float(hit.origin[0]) - 200, float(hit.origin[1]), float(hit.origin[2]) + 50), (0, 0, 0))
    state = follow.sample(hit.time + 0.1)
    during = effects.shaded(state, hit.time + 0.1, camera, False)
    shaders = [p.shader for p in during.polys]
    assert "grenadeExplosion" in shaders and "gfx/damage/burn_med_mrk" in shaders
    later = effects.shaded(follow.sample(hit.time + 5.0), hit.time + 5.0, camera, False)
    assert "grenadeExplosion" not in [p.shader for p in later.polys]
    marks = [p for p in later.polys if p.shader == "gfx/damage/burn_med_mrk"]
    assert marks and all(p.colors[0, 0] == 255 for p in marks[-1:])
    gone = effects.shaded(follow.sample(hit.time + 10.5), hit.time + 10.5, camera, False)
    assert not any(np.allclose(p.positions.mean(axis=0), hit.origin + hit.normal * 0.5, atol=1) for p in gone.polys)
    smoke = [p for t in np.arange(follow.start_time, follow.end_time, 0.5)
             for p in effects.shaded(follow.sample(t), t, camera, False).polys if p.shader == "smokePuff"]
    assert smoke and all(p.colors[0, 3] <= 85 for p in smoke)                    # a third at most, fading


def test_the_view_weapon_is_the_followed_players_with_a_hand_and_bob(follow) -> None:
    state = follow.sample(follow.start_time + 12.3)
    weapon = view_weapon(state, flashing=False)
    assert weapon is not None and weapon.weapon.endswith("machinegun/machinegun.md3")
    assert weapon.hand.endswith("machinegun_hand.md3") and weapon.player == "sarge/default" and weapon.flash == ""
    assert np.allclose(weapon.origin, state.view_origin)
    assert view_weapon(state, flashing=True).flash.endswith("machinegun_flash.md3")
    still = bob_angles((0, 90, 0), 0.0, 0, 0.0)
    assert still == pytest.approx((0, 90, 0))
    left, right = bob_angles((0, 90, 0), 320.0, 64, 0.0), bob_angles((0, 90, 0), 320.0, 64 | 128, 0.0)
    assert left[1] > 90 > right[1] and left[0] == pytest.approx(right[0]) and left[0] > 0


def test_the_demo_frame_carries_effects_and_the_view_weapon(follow) -> None:
    view = game_view(follow.game)
    effects = view.prepare_effects(follow)
    flashes = [e for e in follow.events_of_kind("muzzleflash")]
    assert flashes and effects.flashing(flashes[0].entity, flashes[0].time + 0.01)
    assert not effects.flashing(flashes[0].entity, flashes[0].time + 0.05)
    state = follow.sample(follow.start_time + 22.8)
    _, players = link.md3_draws(state, True)
    shaded = effects.shaded(state, state.time, Camera(tuple(state.view_origin), tuple(state.view_angles)), True)
    boxes = [d for d in shaded.md3 if d.model.startswith("models/players/")]   # no models loaded: their boxes
    assert shaded.polys and players and len(boxes) == len(players) and view_weapon(state, False) is not None


def test_gibs_fly_bounce_off_the_map_and_leave_blood(follow, effects, q3_fs) -> None:
    from assets_loader.bsp46 import load_bsp46
    from viewer.games.quake3.gibs import GIB_MODELS, launch_gibs

    level = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), name="oa_dm1")
    event = effects.gib_events[0]
    gibs = launch_gibs(level, event.origin, event.time, event.index)
    assert len(gibs) == 10 and {g.model for g in gibs} <= set(GIB_MODELS)
    again = launch_gibs(level, event.origin, event.time, event.index)
    assert all(np.allclose(a.position(event.time + 0.5), b.position(event.time + 0.5)) for a, b in zip(gibs, again))
    landed = [g for g in gibs if g.mark is not None]
    assert landed and all(len(g.flights) >= 2 for g in landed)
    for g in gibs:
        assert g.position(event.time)[2] == pytest.approx(event.origin[2])
        assert 5.0 <= g.end - event.time <= 8.0
    resting = [g for g in landed if not g.flights[-1].moving]
    assert resting and all(g.flights[-1].base[2] < event.origin[2] + 300 for g in resting)
    camera = Camera(tuple(event.origin + np.array([0.0, -200.0, 100.0])), (20.0, 90.0, 0.0))
    drawn = effects.shaded(follow.sample(event.time + 1.0), event.time + 1.0, camera, False, level_assets(level))
    assert sum(m.model in GIB_MODELS for m in drawn.md3) == 10
    assert any(p.shader == "bloodMark" for p in drawn.polys) and any(p.shader == "bloodTrail" for p in drawn.polys)
    gone = effects.shaded(follow.sample(event.time + 8.5), event.time + 8.5, camera, False, level_assets(level))
    assert not any(m.model in GIB_MODELS for m in gone.md3)


def test_shotgun_pellets_spread_round_the_aim_and_mark_the_walls(follow, effects, q3_fs) -> None:
    from assets_loader.bsp46 import load_bsp46

    level = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), name="oa_dm1")
    blast = effects.blasts[0]
    hits = fx.shotgun_pattern(level, blast.origin, blast.aim, blast.seed)
    assert 0 < len(hits) <= fx.SHOTGUN_COUNT
    cone = math.degrees(math.atan(fx.SHOTGUN_SPREAD / 8192) * math.sqrt(2))
    for point, normal in hits:
        way = (point - blast.origin) / np.linalg.norm(point - blast.origin)
        assert math.degrees(math.acos(min(1.0, float(way @ blast.aim)))) <= cone + 0.01
        assert float(normal @ way) < 0                                  # the wall faces the shooter
    again = fx.shotgun_pattern(level, blast.origin, blast.aim, blast.seed)
    assert all(np.allclose(a[0], b[0]) for a, b in zip(hits, again))
    other = fx.shotgun_pattern(level, blast.origin, blast.aim, blast.seed + 1)
    assert not all(np.allclose(a[0], b[0]) for a, b in zip(hits, other))
    camera = Camera(tuple(blast.origin), (0.0, 0.0, 0.0))
    drawn = effects.shaded(follow.sample(blast.time + 0.1), blast.time + 0.1, camera, False, level_assets(level))
    assert sum(p.shader == "gfx/damage/bullet_mrk" for p in drawn.polys) >= len(hits)
    assert sum(m.model == fx.BULLET_MODEL for m in drawn.md3) >= len(hits)


def test_a_frame_looks_only_at_the_effects_showing_then() -> None:
    """Issue 38: a long demo's rails, gibs, blasts and smoke tracks are not walked one by one every frame: the ones
    showing at a time are found at once, the same as a walk through all of them finds."""
    effects = fx.prepare_effects(load_demo(str(QUAKE3.parent / "public" / "quake3" / "osp_duel_1.dm_68")))
    assert len(effects.smoke) > 500 and len(effects.rails) > 50
    for t in np.linspace(float(effects.frame_times[0]), float(effects.frame_times[-1]), 400):
        smoke = [n for n, track in enumerate(effects.smoke) if track.tr_type != fx.TR_STATIONARY
                 and track.first - 0.05 <= t <= track.last + fx.SMOKE_TRAILS[track.weapon][0]]
        assert effects._smoke_showing(t) == smoke
        assert effects._alive("rails", t) == [k for k, rail in enumerate(effects.rails) if 0 <= t - rail.time < 2.6]
        for kind in ("gib_events", "blasts"):
            assert effects._alive(kind, t) == [k for k, item in enumerate(getattr(effects, kind))
                                                 if 0 <= t - item.time < fx.MARK_TOTAL_TIME]


def test_without_a_map_a_marks_square_is_made_once_while_its_colour_holds(effects) -> None:
    first = effects._mark_polys(7, None, "m", np.zeros(3), np.array([0.0, 0.0, 1.0]), 8.0, 30.0, (255, 255, 255, 255))
    again = effects._mark_polys(7, None, "m", np.zeros(3), np.array([0.0, 0.0, 1.0]), 8.0, 30.0, (255, 255, 255, 255))
    faded = effects._mark_polys(7, None, "m", np.zeros(3), np.array([0.0, 0.0, 1.0]), 8.0, 30.0, (255, 255, 255, 128))
    assert again is first and faded is not first and faded[0].colors[0][3] == 128


def test_a_rails_ring_discs_are_each_a_sprite_turned_10_degrees_further() -> None:
    """``CG_RailTrail``'s rings, worked out once per rail and drawn together: the discs one by one as the engine
    places them (every 5 units from 20 past the start, ``RotatePointAroundVector`` 10° more each) give the same
    polygons."""
    start, end, age = np.array([10.0, -40.0, 20.0]), np.array([300.0, 120.0, -35.0]), 0.7
    left, up = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    bases, drifts, lives = fx._ring_discs(start, end)
    alive = np.flatnonzero(age < lives)
    drawn = shapes.sprites("railDisc", bases[alive] + drifts[alive] * age, 1.1, left, up,
                           [(10, 20, 30, 255 * (1.0 - age / life)) for life in lives[alive]])
    vec = (end - start) / np.linalg.norm(end - start)
    temp, move, expected = shapes.perpendicular(vec), start + vec * 20.0, []
    for n, i in enumerate(range(0, math.ceil(float(np.linalg.norm(end - start))), 5)):
        life = (i >> 1) / 1000.0 + 0.6
        if age < life:
            axis = shapes.rotate_around(vec, temp, (18 + n) % 36 * 10.0)
            expected.append(shapes.sprite("railDisc", move + axis * 4.0 + axis * 6.0 * age, 1.1, left, up,
                                          (10, 20, 30, 255 * (1.0 - age / life))))
        move = move + vec * 5.0
    assert 0 < len(drawn) == len(expected) < len(lives)                  # the discs near the start are gone
    for got, want in zip(drawn, expected):
        assert np.array_equal(got.positions, want.positions) and np.array_equal(got.colors, want.colors)


def test_marks_kept_within_bounds_draw_the_same(monkeypatch, q3_basedir) -> None:
    """The marks' drawn polygons and cut pieces are kept at most ``_MAX_KEPT_MARKS`` each on a long demo; letting
    them go (here after 8) and cutting again the ones still showing gives the same polygons."""
    timeline = load_demo(str(FOLLOW))
    times = [float(t) for t in timeline.times[300:1500:7]]

    def polygons() -> tuple[list[tuple[str, bytes, bytes]], int]:
        renderer = DemoRenderer(timeline, game_filesystem(None, str(q3_basedir), "baseoa"), (32, 18))
        try:
            drawn = [(p.shader, p.positions.tobytes(), p.colors.tobytes()) for t in times
                     for p in renderer.scene(t).polys if "mrk" in p.shader or p.shader == "bloodMark"]
            return drawn, len(renderer.session.effects.mark_pieces)
        finally:
            renderer.release()

    kept, cut = polygons()
    monkeypatch.setattr(fx, "_MAX_KEPT_MARKS", 8)
    bounded, still = polygons()
    assert len(kept) > 1000 and bounded == kept
    assert cut > 20 and still < cut


def test_per_event_caches_kept_within_bounds_draw_the_same(monkeypatch, q3_basedir) -> None:
    """Gib flights, trail puffs and explosion models are worked out once per event and kept at most
    ``_MAX_KEPT_EVENTS`` of each (a long demo's events do not pile up); starting afresh (here past 2) and working
    out again the ones showing gives the same models and polygons."""
    timeline = load_demo(str(FOLLOW))
    times = [float(t) for t in timeline.times[300:1500:5]]

    def drawn() -> tuple[list, dict[str, int]]:
        renderer = DemoRenderer(timeline, game_filesystem(None, str(q3_basedir), "baseoa"), (32, 18))
        try:
            out = []
            for t in times:
                scene = renderer.scene(t)
                out.append([(d.model, d.origin.tobytes(), d.axis.tobytes(), d.custom_shader) for d in scene.md3])
                out.append([(p.shader, p.positions.tobytes(), p.colors.tobytes()) for p in scene.polys])
            effects = renderer.session.effects
            return out, {name: len(getattr(effects, name)) for name in ("flown", "trails", "explosion_models")}
        finally:
            renderer.release()

    kept, sizes = drawn()
    monkeypatch.setattr(fx, "_MAX_KEPT_EVENTS", 2)
    bounded, still = drawn()
    assert bounded == kept
    assert all(size > 2 for size in sizes.values()), sizes
    assert all(size <= 2 for size in still.values()), still
