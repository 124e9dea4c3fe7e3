"""Quake III's view of a dead player (``CG_OffsetThirdPersonView``): while the followed player's health is 0 or
below the recorder's view backs 40 units away behind it, turned to its killer (``STAT_DEAD_YAW``), looks at the
focus 512 units ahead, stops at the map's walls, draws the body (not the view weapon) until the respawn; a gibbed
player leaves no body."""

from __future__ import annotations

import math
import warnings
from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.demos import load_demo
from viewer.games.quake3.third_person import FOCUS_DISTANCE, dead_view, renders_third_person
from viewer.games.quake3.view import Quake3View
from viewer.render.view_math import angle_vectors
from viewer.scene import build_scene

from .conftest import QUAKE3

#: Deaths of the followed player in oa_dm1_follow_p68 (``qdv events``): Sarge is gunned down at 31.6 s (respawn
#: 33.8 s), blown to gibs at 40.6 s; Grunt eats a grenade at 85.1 s (respawn 87.3 s); demo seconds.
SHOT, GIBBED, GRUNT, RESPAWNED = 32.0, 41.5, 86.0, 34.5


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))


@pytest.fixture(scope="module")
def level(q3_fs):
    return load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), name="oa_dm1")


def _at(follow, seconds: float):
    return follow.sample(follow.start_time + seconds)


def test_only_a_dead_player_who_is_not_a_spectator_is_seen_from_behind(follow) -> None:
    dead, alive = _at(follow, SHOT), _at(follow, RESPAWNED)
    assert renders_third_person(dead) and not renders_third_person(alive)
    spectator = replace(dead, stats=MappingProxyType({**dead.stats, "team": 3}))
    assert not renders_third_person(spectator)


def test_the_camera_backs_40_units_from_the_eye_and_looks_at_the_focus_towards_the_killer(follow) -> None:
    state = _at(follow, GRUNT)
    origin, angles = dead_view(state, None)
    eye = np.asarray(state.view_origin, np.float64)
    yaw = float(state.stats["dead_yaw"])
    assert angles[1] == yaw
    back = np.asarray(angle_vectors((float(state.view_angles[0]) * 0.5, yaw, 0.0))[0])
    assert np.allclose(origin, eye + np.array([0, 0, 8.0]) - back * 40.0)
    focus = eye + np.asarray(angle_vectors((min(float(state.view_angles[0]), 45.0), yaw, 0.0))[0]) * FOCUS_DISTANCE
    way = focus - np.asarray(origin)
    assert angles[0] == pytest.approx(-math.degrees(math.atan2(way[2], math.hypot(way[0], way[1]))))


def test_a_wall_behind_stops_the_camera_and_lifts_it(follow, level) -> None:
    state = _at(follow, SHOT)
    free, _ = dead_view(state, None)
    blocked, _ = dead_view(state, level)
    eye = np.asarray(state.view_origin, np.float64)
    assert np.linalg.norm(np.subtract(blocked, eye)[:2]) < np.linalg.norm(np.subtract(free, eye)[:2]) - 5
    assert blocked[2] > free[2]                                          # risen by what was left of the way
    assert int(level.leafs["cluster"][level.point_leaf(blocked)]) >= 0   # in the open
    open_state = _at(follow, GRUNT)
    assert np.allclose(dead_view(open_state, level)[0], dead_view(open_state, None)[0])


def test_the_pov_scene_shows_the_body_from_behind_until_the_respawn(follow, level, q3_fs) -> None:
    view = Quake3View()
    state = _at(follow, GRUNT)
    effects = view.prepare_effects(follow)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assets = view.load_segment_assets(q3_fs, follow.segments[0])
    frame = build_scene(follow, state.time, state=state, game=view, effects=effects, assets=assets)
    assert frame.camera.origin == pytest.approx(dead_view(state, level)[0])
    assert _body_of_the_followed(frame, state) and not any(d.view_model for d in frame.md3)
    alive = _at(follow, RESPAWNED)
    frame = build_scene(follow, alive.time, state=alive, game=view, effects=effects, assets=assets)
    assert frame.camera.origin == pytest.approx(tuple(alive.view_origin))
    assert not _body_of_the_followed(frame, alive) and any(d.view_model for d in frame.md3)


def _body_of_the_followed(frame, state) -> bool:
    """Whether ``frame`` draws a player's legs where the followed player's entity is."""
    row = state.entities.index_of(state.view_entity)
    if row is None:
        return False
    at = np.asarray(state.entities.origin[row], np.float64)
    return any(d.model.endswith("/lower.md3") and np.linalg.norm(d.origin[:2] - at[:2]) < 1.0
               for d in frame.md3)


def test_a_gibbed_player_leaves_no_body(follow) -> None:
    state = _at(follow, GIBBED)
    assert int(state.stats["health"]) <= -40 and renders_third_person(state)
    assert state.entities.index_of(state.view_entity) is None
