"""trace_line / point_contents: SV_RecursiveHullCheck semantics on the synthetic map and on lqdm3."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from assets_loader.bsp import WorldMesh, load_bsp
from assets_loader.bsp.dtypes import (CONTENTS_EMPTY, CONTENTS_LAVA, CONTENTS_SKY, CONTENTS_SOLID,
                                      CONTENTS_WATER)
from assets_loader.bsp.trace import CONTENTS_NONE, DIST_EPSILON, Trace, point_contents, trace_line
from assets_loader.errors import FormatError
from tests.builders.bsp import build_bsp


@pytest.fixture(scope="module")
def synthetic() -> WorldMesh:
    """One node splitting x = 96: leaf 1 in front (x > 96), leaf 2 behind; both empty."""
    return load_bsp(build_bsp(), "synthetic.bsp")


def with_contents(world: WorldMesh, leaf: int, contents: int) -> WorldMesh:
    leafs = world.leafs.copy()
    leafs["contents"][leaf] = contents
    return dataclasses.replace(world, leafs=leafs)


@pytest.fixture(scope="module")
def lqdm3(lq1_pak) -> WorldMesh:
    return load_bsp(lq1_pak.read("maps/lqdm3.bsp"), "maps/lqdm3.bsp")


def origins(world: WorldMesh, prefix: str) -> list[np.ndarray]:
    return [np.array([float(v) for v in e["origin"].split()]) for e in world.entities
            if e.get("classname", "").startswith(prefix) and "origin" in e]


# --- synthetic map -------------------------------------------------------------------------------------------

def test_trace_is_a_frozen_record(synthetic: WorldMesh) -> None:
    tr = trace_line(synthetic, (0, 0, 0), (10, 0, 0))
    assert isinstance(tr, Trace)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tr.fraction = 0.5  # type: ignore[misc]


def test_open_space_reaches_the_end(synthetic: WorldMesh) -> None:
    tr = trace_line(synthetic, (10, 10, 10), (180, 30, -5))  # crosses the node plane, both sides empty
    assert tr == Trace(1.0, (180.0, 30.0, -5.0), False, CONTENTS_NONE)


def test_point_contents_follows_the_split(synthetic: WorldMesh) -> None:
    solid_back = with_contents(synthetic, 2, CONTENTS_SOLID)
    assert point_contents(synthetic, (0, 0, 0)) == CONTENTS_EMPTY
    assert point_contents(solid_back, (0, 0, 0)) == CONTENTS_SOLID
    assert point_contents(solid_back, (100, 0, 0)) == CONTENTS_EMPTY
    # exactly on the plane counts as in front, like SV_HullPointContents
    assert point_contents(solid_back, (96, 0, 0)) == CONTENTS_EMPTY


def test_stops_dist_epsilon_before_a_solid_plane(synthetic: WorldMesh) -> None:
    world = with_contents(synthetic, 2, CONTENTS_SOLID)  # x < 96 is solid
    tr = trace_line(world, (196, 5, 7), (-4, 5, 7))  # 200 units long, the wall 100 units in
    assert not tr.start_solid
    assert tr.hit_contents == CONTENTS_SOLID
    assert tr.end[0] == pytest.approx(96 + DIST_EPSILON)
    assert tr.end[1:] == pytest.approx((5, 7))
    assert tr.fraction == pytest.approx((100 - DIST_EPSILON) / 200)
    assert point_contents(world, tr.end) == CONTENTS_EMPTY


def test_start_inside_solid(synthetic: WorldMesh) -> None:
    world = with_contents(synthetic, 2, CONTENTS_SOLID)
    out = trace_line(world, (0, 0, 0), (150, 0, 0))  # gets out into the empty leaf and runs free
    assert out.start_solid and out.fraction == 1.0 and out.end == (150.0, 0.0, 0.0)
    assert out.hit_contents == CONTENTS_NONE
    stuck = trace_line(world, (0, 0, 0), (50, 0, 0))  # never leaves the solid
    assert stuck.start_solid and stuck.fraction == 0.0 and stuck.end == (0.0, 0.0, 0.0)
    assert stuck.hit_contents == CONTENTS_SOLID


def test_liquids_do_not_stop_a_line(synthetic: WorldMesh) -> None:
    for contents in (CONTENTS_WATER, CONTENTS_LAVA):
        tr = trace_line(with_contents(synthetic, 2, contents), (150, 0, 0), (0, 0, 0))
        assert tr.fraction == 1.0 and not tr.start_solid


def test_sky_is_solid_only_when_asked(synthetic: WorldMesh) -> None:
    world = with_contents(synthetic, 2, CONTENTS_SKY)
    assert trace_line(world, (150, 0, 0), (0, 0, 0)).fraction == 1.0
    tr = trace_line(world, (150, 0, 0), (0, 0, 0), sky_is_solid=True)
    assert tr.hit_contents == CONTENTS_SKY
    assert tr.end[0] == pytest.approx(96 + DIST_EPSILON)


def test_zero_length_trace(synthetic: WorldMesh) -> None:
    assert trace_line(synthetic, (5, 5, 5), (5, 5, 5)) == Trace(1.0, (5.0, 5.0, 5.0), False, CONTENTS_NONE)


def test_a_cyclic_tree_raises_a_format_error(synthetic: WorldMesh) -> None:
    nodes = synthetic.nodes.copy()
    nodes["children"][0] = (0, 0)
    broken = dataclasses.replace(synthetic, nodes=nodes)
    with pytest.raises(FormatError):
        trace_line(broken, (0, 0, 0), (150, 0, 0))
    with pytest.raises(FormatError):
        point_contents(broken, (0, 0, 0))


# --- lqdm3 ---------------------------------------------------------------------------------------------------

def test_player_starts_stand_in_open_space(lqdm3: WorldMesh) -> None:
    starts = origins(lqdm3, "info_player")
    assert len(starts) >= 2
    for o in starts:
        assert point_contents(lqdm3, o + (0, 0, 22)) == CONTENTS_EMPTY
        assert point_contents(lqdm3, o - (0, 0, 4096)) == CONTENTS_SOLID


def test_straight_down_from_the_eye_hits_the_floor(lqdm3: WorldMesh) -> None:
    for o in origins(lqdm3, "info_player"):
        eye = o + (0, 0, 22)
        tr = trace_line(lqdm3, eye, eye - (0, 0, 4096))
        assert not tr.start_solid
        assert tr.hit_contents == CONTENTS_SOLID
        assert 0 < tr.fraction < 1
        assert tr.end[2] == pytest.approx(o[2] - 24, abs=1.0), "a player's box bottom is 24 below its origin"
        assert tr.end[:2] == pytest.approx(tuple(eye[:2]))
        assert tr.fraction == pytest.approx((eye[2] - tr.end[2]) / 4096)
        assert point_contents(lqdm3, tr.end) != CONTENTS_SOLID
        assert point_contents(lqdm3, np.array(tr.end) - (0, 0, 1)) == CONTENTS_SOLID, "the floor is right there"


def test_straight_up_from_the_eye_hits_a_ceiling(lqdm3: WorldMesh) -> None:
    for o in origins(lqdm3, "info_player"):
        eye = o + (0, 0, 22)
        tr = trace_line(lqdm3, eye, eye + (0, 0, 4096))
        assert tr.fraction < 1 and tr.end[2] > eye[2]
        assert tr.hit_contents == CONTENTS_SOLID
        sky = trace_line(lqdm3, eye, eye + (0, 0, 4096), sky_is_solid=True)
        assert sky.hit_contents in (CONTENTS_SOLID, CONTENTS_SKY)
        assert sky.fraction <= tr.fraction


def test_short_lines_in_open_space_reach_their_end(lqdm3: WorldMesh) -> None:
    for o in origins(lqdm3, "info_player"):
        eye = o + (0, 0, 22)
        end = eye - (0, 0, 20)  # stays above the floor 46 units below
        assert trace_line(lqdm3, eye, end) == Trace(1.0, tuple(end), False, CONTENTS_NONE)


def test_start_inside_the_floor_is_start_solid(lqdm3: WorldMesh) -> None:
    o = origins(lqdm3, "info_player_start")[0]
    inside = o - (0, 0, 32)  # 8 units into the floor
    assert point_contents(lqdm3, inside) == CONTENTS_SOLID
    tr = trace_line(lqdm3, inside, o + (0, 0, 22))
    assert tr.start_solid and tr.fraction == 1.0
    deep = trace_line(lqdm3, inside, inside - (0, 0, 4))
    assert deep.start_solid and deep.fraction == 0.0


def test_random_lines_never_end_in_solid(lqdm3: WorldMesh) -> None:
    rng = np.random.default_rng(3)
    eyes = [o + (0, 0, 22) for o in origins(lqdm3, "info_player") + origins(lqdm3, "item_")
            + origins(lqdm3, "weapon_")]
    checked = 0
    for _ in range(300):
        eye = eyes[rng.integers(len(eyes))]
        if point_contents(lqdm3, eye) == CONTENTS_SOLID:
            continue
        end = eye + rng.normal(size=3) * 600
        tr = trace_line(lqdm3, eye, end)
        assert not tr.start_solid
        assert point_contents(lqdm3, tr.end) != CONTENTS_SOLID
        if tr.fraction < 1:
            assert tr.hit_contents == CONTENTS_SOLID
            assert np.allclose(tr.end, eye + (end - eye) * tr.fraction, atol=1e-3)
        checked += 1
    assert checked > 200
