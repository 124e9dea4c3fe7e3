"""Quake III dynamic lights from synthetic demos (tests/builders/dm68.py): a rocket in flight, a rocket explosion
fading over its second half, a muzzle flash for its 20 ms, the lightning gun's flash while it fires, quad glow and
an entity's constant light — each at the place, radius and colour ioquake3's cgame gives them; on the corpus,
lights at every rocket hit, on every rocket in flight and at plasma fire, and an explosion lighting its room."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake3 import parse_demo
from assets_loader.demos.quake3.protocol import tables_for
from assets_loader.demos.quake3.timeline import timeline_from_demo
from assets_loader.models.anorms import ANORMS
from assets_loader.demos.quake3 import game as g
from viewer.games.quake3 import fx, lights
from viewer.render.context import OffscreenTarget
from viewer.render.refdef import Camera
from viewer.session import DemoSession
from tests.builders.dm68 import SVC_EOF, Q3Message, demo_file

from .conftest import QUAKE3

TABLES = tables_for(68)
assert TABLES is not None
ES, PS = TABLES.entity, TABLES.player
EV_FIRE_WEAPON, EV_MISSILE_MISS = 23, 51
TR_LINEAR = 2
UP = int(np.argmax(ANORMS[:, 2]))        # the byte direction of the floor's normal
ROCKET = {"eType": g.ET_MISSILE, "weapon": g.WP_ROCKET_LAUNCHER, "pos.trType": TR_LINEAR, "pos.trTime": 1000,
          "pos.trBase[0]": 100.0, "pos.trBase[2]": 40.0, "pos.trDelta[0]": 900.0}
QUAD = {"eType": g.ET_PLAYER, "clientNum": 1, "weapon": g.WP_LIGHTNING, "powerups": 1 << g.PW_QUAD,
        "pos.trBase[0]": -200.0, "pos.trBase[1]": 50.0, "pos.trBase[2]": 24.0}
PLASMA = {"eType": g.ET_PLAYER, "clientNum": 2, "weapon": g.WP_PLASMAGUN, "pos.trBase[1]": 400.0,
          "pos.trBase[2]": 24.0}
GLOW = {"eType": g.ET_GENERAL, "pos.trBase[0]": 8.0, "constantLight": 0x20_00FF80}   # r 0x80, g 0xFF, b 0, 32 × 4


def _demo(frames: list[dict[int, dict]]):
    """A demo whose snapshots 50 ms apart (server time 1000, 1050, …) carry ``frames``' entities."""
    gamestate = Q3Message()
    gamestate.long(0)
    gamestate.gamestate(ES, configstrings={0: "\\mapname\\test"}, baselines={}, client_num=0)
    gamestate.byte(SVC_EOF)
    blocks = [(1, gamestate.data())]
    for k, entities in enumerate(frames):
        m = Q3Message()
        m.long(0)
        m.snapshot(ES, PS, server_time=1000 + 50 * k, delta=0, old_player={}, player={"commandTime": 1000 + 50 * k},
                   old_entities={}, entities=entities, baselines={})
        m.byte(SVC_EOF)
        blocks.append((2 + k, m.data()))
    return timeline_from_demo(parse_demo(demo_file(blocks), "lights.dm_68"))


@pytest.fixture(scope="module")
def fight():
    """Frame 0: a rocket flies, a quad player fires the lightning gun, a light glows; frame 2: the plasma player
    fires; frame 4: the rocket explodes on the floor (frames up to 1.5 s on)."""
    frames = []
    for k in range(30):
        ents: dict[int, dict] = {5: dict(GLOW), 1: dict(QUAD, eFlags=g.EF_FIRING if k < 4 else 0),
                                 2: dict(PLASMA, event=(EV_FIRE_WEAPON | 0x100) if k >= 2 else 0)}
        if k < 4:
            ents[10] = dict(ROCKET)
        if k == 4:
            ents[40] = {"eType": g.ET_EVENTS + EV_MISSILE_MISS, "weapon": g.WP_ROCKET_LAUNCHER, "eventParm": UP,
                        "pos.trBase[0]": 280.0, "pos.trBase[2]": 0.0}
        frames.append(ents)
    timeline = _demo(frames)
    return timeline, fx.prepare_effects(timeline)


def _at(fight, seconds: float):
    timeline, effects = fight
    t = timeline.start_time + seconds
    return effects.lights(timeline.sample(t), t, None)


def _find(found, color, near=None) -> list[int]:
    rows = [i for i in range(len(found)) if np.allclose(found.colors[i], color, atol=1e-6)]
    if near is not None:
        rows = [i for i in rows if np.linalg.norm(found.origins[i] - np.asarray(near)) < 1.0]
    return rows


def test_a_rocket_in_flight_carries_an_orange_light_along_its_trajectory(fight) -> None:
    found = _at(fight, 0.1)
    rocket = _find(found, lights.ORANGE)
    assert len(rocket) == 1
    i = rocket[0]
    assert found.radius[i] == pytest.approx(200.0)
    assert found.origins[i] == pytest.approx((100.0 + 900.0 * 0.1, 0.0, 40.0), abs=1.0)


def test_quad_glows_blue_and_the_firing_lightning_gun_flashes(fight) -> None:
    found = _at(fight, 0.1)
    quad = _find(found, (0.2, 0.2, 1.0), near=(-200.0, 50.0, 24.0))
    assert len(quad) == 1 and 200 <= found.radius[quad[0]] < 232
    muzzle = lights.muzzle_point((-200.0, 50.0, 24.0), (0.0, 0.0, 0.0))
    flash = _find(found, lights.FLASH_COLORS[g.WP_LIGHTNING], near=muzzle)
    assert len(flash) == 1 and 300 <= found.radius[flash[0]] < 332
    assert not _find(_at(fight, 0.4), lights.FLASH_COLORS[g.WP_LIGHTNING])   # stopped firing


def test_a_muzzle_flash_lights_for_twenty_milliseconds(fight) -> None:
    timeline = fight[0]
    fired = next(e.time for e in timeline.events_of_kind("muzzleflash") if e.entity == 2) - timeline.start_time
    plasma = lights.FLASH_COLORS[g.WP_PLASMAGUN]
    muzzle = lights.muzzle_point((0.0, 400.0, 24.0), (0.0, 0.0, 0.0))
    assert len(_find(_at(fight, fired + 0.005), plasma, near=muzzle)) == 1
    assert not _find(_at(fight, fired + 0.025), plasma, near=muzzle)
    assert not _find(_at(fight, fired - 0.01), plasma, near=muzzle)


def test_an_entity_constant_light_has_its_packed_colour_and_radius(fight) -> None:
    found = _at(fight, 0.1)
    glow = _find(found, (0x80 / 255, 1.0, 0.0))
    assert len(glow) == 1 and found.radius[glow[0]] == pytest.approx(128.0)


def test_a_rocket_explosion_lights_300_units_then_fades_over_its_second_half(fight) -> None:
    timeline, effects = fight
    hit = next(e for e in timeline.events_of_kind("temp_entity") if e.name == "missile_miss")
    when = hit.time - timeline.start_time
    at = (280.0, 0.0, 16.0)                       # the sprite, 16 units off the floor
    assert not _find(_at(fight, when - 0.01), lights.ORANGE, near=at)
    radii = []
    for age in (0.07, 0.3, 0.45, 0.6, 0.8, 0.95, 1.1):
        found = _at(fight, when + age)
        rows = _find(found, lights.ORANGE, near=at)
        radii.append(float(found.radius[rows[0]]) if rows else 0.0)
    assert radii[:3] == [300.0, 300.0, 300.0]
    assert 300.0 > radii[3] > radii[4] > radii[5] > 0.0 and radii[6] == 0.0
    start = effects._explosion_start(0, effects.impacts[0])
    assert radii[4] == pytest.approx(300.0 * (1.0 - (when + 0.8 + timeline.start_time - start - 0.5) * 2.0), abs=0.5)


def test_the_explosion_light_rule() -> None:
    rocket = lights.EXPLOSION_LIGHTS[g.WP_ROCKET_LAUNCHER]
    assert [lights.explosion_light(rocket, a, 1.0) for a in (-0.1, 0.0, 0.49, 0.75, 1.0)] == [0.0, 300.0, 300.0,
                                                                                            150.0, 0.0]
    assert g.WP_PLASMAGUN not in lights.EXPLOSION_LIGHTS and lights.EXPLOSION_LIGHTS[g.WP_GRENADE_LAUNCHER].color == \
        (1.0, 1.0, 0.0)


@pytest.fixture(scope="module")
def follow():
    timeline = load_demo(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    return timeline, fx.prepare_effects(timeline)


def test_corpus_rocket_explosions_light_where_they_hit(follow) -> None:
    timeline, effects = follow
    hits = [i for i in effects.impacts if i.weapon == g.WP_ROCKET_LAUNCHER and i.kind == "missile_miss"]
    assert len(hits) >= 10
    for hit in hits:
        found = effects.lights(timeline.sample(hit.time + 0.1), hit.time + 0.1, None)
        at = hit.origin + hit.normal * 16
        rows = _find(found, lights.ORANGE, near=at)
        assert len(rows) == 1 and found.radius[rows[0]] == pytest.approx(300.0), hit.time


def test_corpus_rockets_in_flight_carry_their_light(follow) -> None:
    timeline, effects = follow
    seen = 0
    for t in np.arange(timeline.start_time, timeline.end_time, 0.25):
        state = timeline.sample(float(t))
        fields = state.entity_fields
        rows = np.flatnonzero((fields["eType"] == g.ET_MISSILE) & (fields["weapon"] == g.WP_ROCKET_LAUNCHER))
        found = effects.lights(state, float(t), None)
        for r in rows.tolist():
            near = _find(found, lights.ORANGE, near=state.entities.origin[r])
            assert any(found.radius[i] == 200.0 for i in near), t
            seen += 1
    assert seen >= 10


def test_corpus_plasma_fire_flashes_blue_white(follow) -> None:
    timeline, effects = follow
    plasma = 0
    for event in timeline.events_of_kind("muzzleflash"):
        state = timeline.sample(event.time + 0.005)
        row = state.entities.index_of(event.entity)
        if row is None or int(state.entity_fields["weapon"][row]) != g.WP_PLASMAGUN:
            continue
        found = effects.lights(state, event.time + 0.005, None)
        muzzle = lights.muzzle_point(state.entities.origin[row], state.entities.angles[row])
        assert len(_find(found, lights.FLASH_COLORS[g.WP_PLASMAGUN], near=muzzle)) == 1, event.time
        plasma += 1
    assert plasma >= 10


def test_corpus_an_explosion_lights_the_room_around_it(follow, ctx, q3_fs) -> None:
    timeline, _ = follow
    session = DemoSession(timeline, q3_fs, ctx)
    target = OffscreenTarget(ctx, (160, 90))
    camera = Camera((760.0, 1303.0, 120.0), (20.0, 180.0, 0.0))       # looking at the rocket hit of 12.1 s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = session.scene(timeline.start_time + 12.2, camera)
        assert frame.lights is not None and len(frame.lights) >= 1
        pictures = []
        for lit in (frame.lights, None):
            session.draw(dataclasses.replace(frame, lights=lit), target)
            pictures.append(target.read_rgb().astype(int))
    lit, dark = pictures
    assert (lit >= dark - 1).all()                                       # light only adds
    warmer = (lit - dark).mean(axis=(0, 1))
    assert np.abs(lit - dark).sum(axis=2).astype(bool).mean() > 0.3 and warmer[0] > warmer[2]   # orange
    target.release()
    session.release()
